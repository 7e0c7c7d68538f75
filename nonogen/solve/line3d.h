/* Line logic for Picross 3D in C: one line, and its fixpoint over a box.
 *
 * It gives the same deductions as nonogen/solve/line3d.py, which stays the reference and the
 * fallback when the module is not built (tests/test_line3d_native.py compares the two).
 *
 * A line's clue is a count of cubes and a group class (1 plain, 2 circle, 3 square: three or
 * more). One line is solved by dynamic programming over (cubes so far c, groups so far k capped
 * at 3, previous cell l); for each (k, l) the reachable counts c are one bit set (c <= 100 < 128),
 * so a cell of the line costs a few word operations.
 *
 * A box's lines are arrays: line_start/line_cells (the flat cells of each line), count/groups,
 * and cell_start/cell_lines (the lines through each cell). The grid holds -1 (unknown), 0 or 1.
 *   line3d.c    the line solver and the fixpoint (queue or synchronous passes), no Python
 *   _line3d.c   the Python module: buffers in, (status, runs, passes, trace length) out
 */
#ifndef NONOGEN_LINE3D_H
#define NONOGEN_LINE3D_H

#include <stdint.h>

#define L3_MAX_LEN 127

typedef struct {
    const int32_t *line_start, *line_cells, *count, *groups, *cell_start, *cell_lines;
    int32_t n_lines, n_cells;
} L3Box;

/* One remembered line: what l3_solve_line answered for line `line` (+1; 0: empty slot) read as in1/in0 (the cubes
 * known kept / known empty, a bit a cell). A box's line is read in the same few states over and over when a level's
 * clues are hidden one by one, each question resuming line logic from what the last answer keeps. */
typedef struct {
    int32_t line;
    int16_t len;
    int8_t dead;            /* 1: no completion */
    int8_t spare;
    uint64_t in1[2], in0[2], out1[2], out0[2];
} L3Memo;

typedef struct {
    const uint8_t *active;  /* 1: the line's clue is shown */
    int8_t *grid;           /* in: the start, out: what line logic decides */
    const int32_t *start;   /* the lines read first, in order */
    int32_t n_start;
    int synchronous;        /* 0: a stack of changed lines; 1: passes (each reads what the pass before changed) */
    int32_t *trace_cells, *trace_lines;  /* each decided cell and the line that decided it, in order */
    int32_t trace_len;
    int64_t runs;
    int32_t passes;
    L3Memo *memo;           /* NULL, or a table of memo_mask + 1 slots (a power of two) kept between runs on one box */
    uint32_t memo_mask;
    int64_t open;           /* the grid's open cells when known (solved: none left, no scan of the box), else -1 */
} L3Run;

/* One line: known[i] in -1/0/1; out[i] the same or decided. Returns 0, or -1 when no completion exists. */
int l3_solve_line(int count, int groups, int len, const int8_t *known, int8_t *out);

/* Line logic to a fixpoint. Returns 1 solved, 0 stuck, -1 contradiction, -2 out of memory. */
int l3_run(const L3Box *box, L3Run *run);

/* What line logic decided about each cell of a box, kept between questions about it: the value (grid, -1 open), when
 * (a count that grows along a run of line logic; givens and cubes known before any read: below every read's) and the
 * line that decided it (attr, -1: not a line). Each decision follows from the cells decided before it. */
typedef struct {
    int8_t *grid;
    int64_t *when;
    int32_t *attr;
} L3Cells;

/* What l3_retract changed, so that it can be undone: the cell and its value, when and attr before (capacity n_cells:
 * a cell is changed at most once a retraction). */
typedef struct {
    int32_t *cell;
    int8_t *value;
    int64_t *when;
    int32_t *attr;
    int32_t n;
} L3Log;

/* Takes back line `line`'s clue (already inactive) from the cells of a fixpoint, keeping every decision that still
 * follows without it. Only what the clue touched is looked at: the cells `line` decided, then, in the order they were
 * decided, the cells decided after a cell of their line was dropped (a heap ordered by when). Such a cell is read
 * again on the cells decided before it: kept (attr: the line that decides it now) when its line or another active
 * line through it still decides it, else dropped (-1, when INT64_MAX, attr -1) and its lines marked from then on.
 * Every unmarked line reads nothing new, so line logic resumed from the active marked lines (written to start, their
 * number in *n_start, in line order) reaches the fixpoint of the level without that clue. The work grows with what
 * the clue touched, not with the box: `heap` holds n_cells cells and `marked` n_lines times, all INT64_MAX, as they
 * are left. *dropped counts the cells dropped, *runs the lines read again (memo: as in L3Run). Returns 0, or -2
 * (changing nothing) when `line` is not one of the box's. */
int l3_retract(const L3Box *box, const uint8_t *active, int32_t line, L3Cells *cells, L3Log *log, int32_t *heap,
               int64_t *marked, int32_t *start, int32_t *n_start, int32_t *dropped, L3Memo *memo, uint32_t memo_mask,
               int64_t *runs);

#endif
