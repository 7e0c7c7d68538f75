/* Line logic, propagation, probing, the SAT encoding and belief propagation for 2D nonograms, in C.
 *
 * It gives the same results as nonogen/solve/line.py, propagate.py and cnf.py,
 * which stay as the reference and the fallback when this module is not built
 * (tests/test_native.py compares the two). Python spends 30-60 us per line
 * run; this does one in about a microsecond, with a cache of line results on
 * top, which is what makes probing cheap enough to run before SAT.
 *
 * A grid is an array of uint32 colour masks (bit a set: colour a still
 * possible, bit 0 = background), H*W cells, row-major. Lines 0..H-1 are the
 * rows, H..H+W-1 the columns.
 *
 * One line is solved by dynamic programming over (blocks placed, cells read):
 * fw[i][t] says the first t cells can hold exactly the first i blocks, bw[i][t]
 * that cells t.. can hold blocks i..k-1. A placement of block i at s is
 * possible when its cells allow its colour and both sides fit; every possible
 * placement paints its cells. Block i can only start between lo[i] and hi[i]
 * (the clue packed to the left, to the right), so each row of the tables is
 * filled only in that window: O(length + blocks * slack), where the slack
 * (hi - lo) is small on the crowded lines of colour puzzles.
 *
 * The module's files, one concern each, share this header:
 *   line.c        one line: the solver, the overlap rule, work buffers, the cache of line results
 *   linebits.c    one line of under 64 cells, its cells as the bits of a word (what solve_line runs)
 *   propagate.c   line logic to a fixpoint, undo, probing and the implications it records
 *   refute.c      the grade's lookahead sweep: the values line logic refutes, each trial from the last one's end
 *   encode.c      the SAT encoding (cell variables, block-start ladders, implications), clause lists
 *   bp.c          belief propagation: phases for the cells and for the ladder variables
 *   several.c     depth-first search with line logic (the short ways to "multiple"), and two solutions by it
 *   guess.c       black and white: that search led by belief propagation, and a second solution beside its first
 *   cycle.c       black and white: a second solution a cycle of one-cell block moves away from a first
 *   _linelogic.c  the Python module: the Lines type, argument checks, method tables
 * Helpers on the hot paths are static inline here so that splitting the files costs no speed.
 */
#ifndef NONOGEN_LINELOGIC_H
#define NONOGEN_LINELOGIC_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

typedef uint32_t mask_t;

/* ---- one line -------------------------------------------------------------------------- */

typedef struct {
    int k;             /* blocks */
    const int *len;    /* block lengths */
    const int *col;    /* block colours (1..31) */
} Clue;

typedef struct {
    int cap_len, cap_k;
    unsigned char *fw, *bw;   /* (k+1) * (len+1), each row filled only inside its window (see solve_line) */
    int *run;                 /* per block: cells allowing its colour ending here, (k) * (len+1) */
    int *lo, *hi;             /* per block: its first and last start when the clue is packed left, right */
    mask_t *out;
    int bits;                 /* the last line was solved by solve_line_bits: starts holds the placements */
    int cells_only;           /* always solve cell by cell (the tests compare both ways) */
    uint64_t *starts;         /* per block: bit s set when the block can start at s (lines under 64 cells) */
    uint64_t *rows;           /* solve_line_bits' table rows, 4 * (k+1) words */
} Work;

/* Each block's window of starts into lo and hi: the clue packed to the left, then to the right (one cell between
 * blocks of the same colour). 0 when the clue does not fit in n cells. */
static inline int block_windows(const Clue *c, int n, int *lo, int *hi) {
    const int k = c->k;
    for (int i = 0, at = 0; i < k; i++) {
        lo[i] = at;
        at += c->len[i] + (i + 1 < k && c->col[i + 1] == c->col[i]);
    }
    for (int i = k - 1, at = n; i >= 0; i--) {
        hi[i] = at - c->len[i];
        at = hi[i] - (i > 0 && c->col[i - 1] == c->col[i]);
    }
    return !k || hi[0] >= 0;
}
/* Row i of a line's tables (blocks 0..i-1 placed) is only read from the earliest end of block i-1 (0 for i = 0)
 * to the latest start of block i (n for i = k). */
static inline int window_first(const Clue *c, const int *lo, int i) { return i ? lo[i - 1] + c->len[i - 1] : 0; }
static inline int window_last(const Clue *c, const int *hi, int n, int i) { return i < c->k ? hi[i] : n; }

/* May block i start at s? Needs solve_line to have succeeded on the line. */
static inline int placeable(const Clue *c, const Work *w, int n, const mask_t *d, int i, int s) {
    if (w->bits) return s >= 0 && s < 64 && (w->starts[i] >> s & 1);
    const int W = n + 1;
    int len = c->len[i], e = s + len;
    if (s < w->lo[i] || s > w->hi[i] || w->run[i * W + e] < len) return 0;
    /* left side: blocks 0..i-1 in cells [0, s), one background cell first if same colour */
    if (i > 0 && c->col[i - 1] == c->col[i]) {
        if (s < 1 || !(d[s - 1] & 1) || !w->fw[i * W + s - 1]) return 0;
    } else if (!w->fw[i * W + s]) {
        return 0;
    }
    /* right side: blocks i+1.. in cells [e, n) */
    if (i + 1 < c->k && c->col[i + 1] == c->col[i]) {
        if (e >= n || !(d[e] & 1) || !w->bw[(i + 1) * W + e + 1]) return 0;
    } else if (!w->bw[(i + 1) * W + e]) {
        return 0;
    }
    return 1;
}

/* ---- a cache of line results (line.c) ------------------------------------------------ */

typedef struct {
    uint64_t *hashes;  /* per slot; 0 = empty */
    uint32_t *where;   /* per slot: arena offset */
    size_t n_slots, n_used;
    uint32_t *arena;
    size_t arena_len, arena_cap;
} Cache;

/* ---- the grid object ------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    int height, width, n_lines, n_cells;
    int *clue_start;   /* n_lines + 1 offsets into len/col */
    int *len, *col;
    int *key;          /* per line: the first line with the same length and clue (cache key) */
    int max_len, max_k;
    long long line_runs;   /* line-solver runs: cache misses */
    Work work;
    Cache cache;
    /* propagation scratch */
    int *queue;
    unsigned char *queued;
    mask_t *line_in;
    int *changed;      /* cells changed, in order */
    mask_t *old;       /* their values before */
    int n_changed, cap_changed;
    double end;        /* CLOCK_MONOTONIC deadline, <0: none */
    unsigned long steps;
    /* implications found by the last probing round: (cell, colour, other cell, colour ruled out) */
    int *impl;
    size_t n_impl, cap_impl;
    struct Sweeps *sweeps; /* what the last refutations call's trials reached (refute.c), or NULL */
} Lines;

static inline double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int line_len(const Lines *g, int line) { return line < g->height ? g->width : g->height; }
static inline int line_cell(const Lines *g, int line, int t) {
    return line < g->height ? line * g->width + t : t * g->width + (line - g->height);
}
/* Line q through a cell: q = 0 its row, q = 1 its column (line_cell the other way round). */
static inline int cell_line(const Lines *g, int cell, int q) {
    return q ? g->height + cell % g->width : cell / g->width;
}
/* The line that crosses `line` at its cell t. */
static inline int crossing_line(const Lines *g, int line, int t) { return line < g->height ? g->height + t : t; }
/* The n masks of a line into out: a row is one copy, a column one stride (no line_cell test per cell). */
static inline void read_cells(const Lines *g, int line, int n, const mask_t *masks, mask_t *out) {
    if (line < g->height) {
        memcpy(out, masks + (size_t)line * g->width, sizeof(mask_t) * n);
        return;
    }
    const mask_t *at = masks + (line - g->height);
    for (int t = 0; t < n; t++, at += g->width) out[t] = *at;
}
static inline Clue line_clue(const Lines *g, int line) {
    Clue c = {g->clue_start[line + 1] - g->clue_start[line], g->len + g->clue_start[line], g->col + g->clue_start[line]};
    return c;
}

enum { OK = 0, CONTRADICTION = 1, TIMEOUT = 2, NOMEM = 3, GAVE_UP = 4 /* a search past its budget: no answer */ };

/* The colour of a decided cell (a mask of one bit), and a solved grid's colours into v. */
static inline int colour_of(mask_t m) { return 31 - __builtin_clz(m); }
static inline void colours_of(const mask_t *masks, int n, unsigned char *v) {
    for (int i = 0; i < n; i++) v[i] = (unsigned char)colour_of(masks[i]);
}

/* Room for `need` ints in a growable buffer (doubling); -1 when memory runs out. */
static inline int grow_ints(int **buf, size_t *cap, size_t need) {
    if (need <= *cap) return 0;
    size_t size = *cap ? 2 * *cap : 4096;
    while (size < need) size *= 2;
    int *grown = PyMem_Realloc(*buf, size * sizeof(int));
    if (!grown) return -1;
    *buf = grown;
    *cap = size;
    return 0;
}

#if defined(__GNUC__)
#pragma GCC visibility push(hidden) /* shared by the module's files, not exported from the .so */
#endif

/* line.c, linebits.c */
int solve_line_bits(const Clue *c, Work *w, int n, const mask_t *d);
int work_reserve(Work *w, int len, int k);
void work_free(Work *w);
int solve_line(const Clue *c, Work *w, int n, const mask_t *d);
void overlap_rule(const Clue *c, const Work *w, int n, const mask_t *d, mask_t *out);
void cache_free(Cache *c);
const mask_t *line_result(Lines *g, int line, int n, const mask_t *in);

/* propagate.c */
int record_change(Lines *g, int cell, mask_t before);
int propagate(Lines *g, mask_t *masks, const int *lines, int n_start);
void undo_to(Lines *g, mask_t *masks, int mark);
PyObject *Lines_propagate(Lines *g, PyObject *args);
PyObject *Lines_probe(Lines *g, PyObject *args);

/* Line logic from the two lines through a cell, after its mask changed. */
static inline int propagate_cell(Lines *g, mask_t *masks, int cell) {
    int two[2] = {cell_line(g, cell, 0), cell_line(g, cell, 1)};
    return propagate(g, masks, two, 2);
}

/* refute.c */
PyObject *Lines_refutations(Lines *g, PyObject *args);
PyObject *Lines_forget_sweeps(Lines *g, PyObject *unused);
void sweeps_free(Lines *g);

/* encode.c */
PyObject *Lines_encode(Lines *g, PyObject *args);
PyObject *module_clause_lists(PyObject *self, PyObject *args);

/* several.c: the depth-first search of both short ways to "multiple" (its two_solutions, guess.c's guess_two) */
typedef struct {
    int place;   /* of the decided cell in the order */
    mask_t left; /* its colours not tried yet */
    int mark;    /* g->n_changed before the decision */
} Decision;
typedef struct {
    const int *order;            /* the cells to decide, in this order */
    int n_order;
    const mask_t *first;         /* per cell: the colour to try first (a mask of one bit); NULL: the lowest */
    Decision *stack;             /* room for n_order + 1 */
    int depth, place;            /* decisions on the stack, where the search is in order */
    long dead, max_dead;         /* dead ends met, and allowed */
    long assumptions;            /* assumptions it may still make */
    unsigned long first_step, max_steps; /* g->steps at the start, and the line work allowed after it */
} Search;
int search(Lines *g, mask_t *masks, Search *s, int st);
PyObject *Lines_two_solutions(Lines *g, PyObject *args);

/* guess.c */
PyObject *Lines_guess_two(Lines *g, PyObject *args);

/* cycle.c */
int cycle_neighbour(const Lines *g, const mask_t *open, unsigned char *v, int max_rows);
PyObject *Lines_move_cycle(Lines *g, PyObject *args);

/* bp.c */
PyObject *Lines_bp(Lines *g, PyObject *args);
PyObject *Lines_ladder_phases(Lines *g, PyObject *args);

/* replay.c */
PyObject *Lines_replay_lines(Lines *g, PyObject *args);
PyObject *Lines_depth(Lines *g, PyObject *args);

/* _linelogic.c */
int get_masks(Lines *g, PyObject *obj, Py_buffer *view);
PyObject *raise_status(int status);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
