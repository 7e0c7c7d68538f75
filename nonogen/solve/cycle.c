/* A second solution next to a first one of a black-and-white puzzle: blocks that move by one cell along a
 * closed cycle of rows and columns (guess.c tries it first; Python reaches it through shortcut.swap_neighbour).
 *
 * A row of the cycle moves one of its blocks by one cell, which empties a cell and fills another; the
 * column of the filled cell moves one of its blocks so that the cell is filled and another row's cell
 * emptied; that row moves a block out of the emptied cell, and so on until a column move lands in the
 * row the cycle started from. Each row and column is used once and moves one block by one cell, so every
 * clue stays as it was. The smallest cycle is the 2x2 swap [[1, 0], [0, 1]] -> [[0, 1], [1, 0]]. */
#include "linelogic.h"

#define MAX_CYCLE 8 /* rows in the longest cycle of block moves a caller may ask for */

/* Every one-cell move of one block of `line` that keeps its clue, as (emptied, filled) pairs into out; only
 * cells open in `open` may change. Returns how many. */
static int block_moves(const Lines *g, int line, const unsigned char *v, const mask_t *open, int *out) {
    int n = line_len(g, line), count = 0;
#define AT(t) v[line_cell(g, line, t)]
#define FREE(t) (open[line_cell(g, line, t)] & (open[line_cell(g, line, t)] - 1))
    for (int t = 0; t < n;) {
        if (!AT(t)) {
            t++;
            continue;
        }
        int start = t;
        while (t < n && AT(t)) t++;
        int end = t - 1;
        if (end + 1 < n && (end + 2 >= n || !AT(end + 2)) && FREE(start) && FREE(end + 1)) {
            out[2 * count] = start;
            out[2 * count++ + 1] = end + 1;
        }
        if (start >= 1 && (start < 2 || !AT(start - 2)) && FREE(end) && FREE(start - 1)) {
            out[2 * count] = end;
            out[2 * count++ + 1] = start - 1;
        }
    }
#undef AT
#undef FREE
    return count;
}

typedef struct {
    int *moves;       /* per line, up to 2 * max_len ints: its block moves */
    int *count;       /* per line: how many */
    int rows[MAX_CYCLE], cols[2 * MAX_CYCLE], cells[4 * MAX_CYCLE];
    int n_rows, n_cols, n_cells, max_rows, r0, c0;
} Cycle;

static int has_move(const Cycle *y, int line, int stride, int emptied, int filled) {
    const int *m = y->moves + (size_t)line * stride;
    for (int j = 0; j < y->count[line]; j++)
        if (m[2 * j] == emptied && m[2 * j + 1] == filled) return 1;
    return 0;
}

static int used(const int *list, int n, int x) {
    for (int j = 0; j < n; j++)
        if (list[j] == x) return 1;
    return 0;
}

/* Goes on from the cycle's last cell (row r, column c, just filled) and closes it at (r0, c0): column c
 * moves a block from another row r2 into r, row r2 moves a block out of c into a column that is either c0
 * (whose column must then move its block from r0 to r2) or a new one to go on from. */
static int close_cycle(const Lines *g, Cycle *y, int r, int c) {
    const int H = g->height, stride = 2 * g->max_len, line = H + c;
    const int *cm = y->moves + (size_t)line * stride;
    for (int j = 0; j < y->count[line]; j++) {
        if (cm[2 * j + 1] != r) continue;
        int r2 = cm[2 * j];
        if (used(y->rows, y->n_rows, r2)) continue;
        const int *rm = y->moves + (size_t)r2 * stride;
        for (int m = 0; m < y->count[r2]; m++) {
            if (rm[2 * m] != c) continue;
            int filled = rm[2 * m + 1];
            y->cells[2 * y->n_cells] = r2 * g->width + c;
            y->cells[2 * y->n_cells + 1] = r2 * g->width + filled;
            y->n_cells++;
            if (filled == y->c0) {
                if (has_move(y, H + y->c0, stride, y->r0, r2)) return 1;
            } else if (!used(y->cols, y->n_cols, filled) && y->n_rows + 1 < y->max_rows) {
                y->rows[y->n_rows++] = r2;
                y->cols[y->n_cols++] = filled;
                if (close_cycle(g, y, r2, filled)) return 1;
                y->n_rows--;
                y->n_cols--;
            }
            y->n_cells--;
        }
    }
    return 0;
}

/* A second solution a cycle of block moves of up to max_rows rows away from the solution v (changed in
 * place): 1 when found, 0 when none, NOMEM. */
int cycle_neighbour(const Lines *g, const mask_t *open, unsigned char *v, int max_rows) {
    if (max_rows < 2) return 0; /* a cycle moves blocks between two rows at least */
    Cycle y = {0};
    size_t stride = 2 * (size_t)g->max_len;
    y.moves = PyMem_Malloc(sizeof(int) * stride * g->n_lines);
    y.count = PyMem_Malloc(sizeof(int) * g->n_lines);
    if (!y.moves || !y.count) {
        PyMem_Free(y.moves);
        PyMem_Free(y.count);
        return NOMEM;
    }
    for (int line = 0; line < g->n_lines; line++) y.count[line] = block_moves(g, line, v, open, y.moves + line * stride);
    y.max_rows = max_rows < MAX_CYCLE ? max_rows : MAX_CYCLE;
    int found = 0;
    for (int r0 = 0; r0 < g->height && !found; r0++) {
        const int *rm = y.moves + (size_t)r0 * stride;
        for (int j = 0; j < y.count[r0] && !found; j++) {
            y.r0 = r0;
            y.c0 = rm[2 * j];
            y.rows[0] = r0;
            y.cols[0] = y.c0;
            y.cols[1] = rm[2 * j + 1];
            y.n_rows = 1;
            y.n_cols = 2;
            y.cells[0] = r0 * g->width + y.c0;
            y.cells[1] = r0 * g->width + rm[2 * j + 1];
            y.n_cells = 1;
            found = close_cycle(g, &y, r0, rm[2 * j + 1]);
        }
    }
    if (found)
        for (int j = 0; j < 2 * y.n_cells; j++) v[y.cells[j]] ^= 1;
    PyMem_Free(y.moves);
    PyMem_Free(y.count);
    return found;
}

/* move_cycle(values, masks, cycle_rows) -> bytes or None: the 0/1 grid `values` (bytes, row-major) with the
 * blocks of a cycle of up to `cycle_rows` rows moved by one cell, changing only cells open in `masks`; None
 * when there is no such cycle. The first cycle guess_two would take. */
PyObject *Lines_move_cycle(Lines *g, PyObject *args) {
    Py_buffer values, view;
    PyObject *mobj;
    int cycle_rows;
    if (!PyArg_ParseTuple(args, "y*Oi", &values, &mobj, &cycle_rows)) return NULL;
    if (get_masks(g, mobj, &view) < 0) {
        PyBuffer_Release(&values);
        return NULL;
    }
    PyObject *result = NULL;
    unsigned char *v = values.len == g->n_cells ? PyMem_Malloc((size_t)g->n_cells) : NULL;
    if (values.len != g->n_cells) PyErr_SetString(PyExc_ValueError, "values must hold one byte a cell");
    else if (!v) PyErr_NoMemory();
    if (v) {
        for (int i = 0; i < g->n_cells; i++) v[i] = ((const unsigned char *)values.buf)[i] != 0;
        int found = cycle_neighbour(g, view.buf, v, cycle_rows);
        if (found == 1) result = PyBytes_FromStringAndSize((const char *)v, g->n_cells);
        else if (found == 0) {
            result = Py_None;
            Py_INCREF(result);
        }
        else PyErr_NoMemory();
    }
    PyMem_Free(v);
    PyBuffer_Release(&values);
    PyBuffer_Release(&view);
    return result;
}
