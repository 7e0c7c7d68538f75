/* Two solutions by depth-first search with line logic (Grid.two_solutions in propagate.py, several.py):
 * the short way to "multiple" for puzzles that line logic leaves with a small, loose residue.
 *
 * The search assumes a colour for the first open cell, runs line logic from its row and column,
 * and goes on to the next open cell; a contradiction undoes the assumption and tries the next
 * colour. The first solution is then checked for a second one four cells away (swap_partner);
 * without one the search goes on. It stops after a budget of assumptions and of line work: what it
 * has not found by then, the full path (probing, SAT) decides. */
#include "linelogic.h"

typedef struct {
    int cell;     /* the open cell assumed at this depth */
    mask_t rest;  /* its colours not tried yet */
    int mark;     /* g->n_changed before the assumption */
} Frame;

/* Whether `line` of the grid of colours `v` spells its clue exactly. */
static int line_matches(const Lines *g, int line, const unsigned char *v) {
    Clue c = line_clue(g, line);
    int n = line_len(g, line), i = 0;
    for (int t = 0; t < n;) {
        int colour = v[line_cell(g, line, t)], run = 1;
        while (t + run < n && v[line_cell(g, line, t + run)] == colour) run++;
        if (colour) {
            if (i == c.k || c.len[i] != run || c.col[i] != colour) return 0;
            i++;
        }
        t += run;
    }
    return i == c.k;
}

/* Trade the colours of (r1, c1), (r1, c2), (r2, c1), (r2, c2): X Y / Y X becomes Y X / X Y. */
static void swap4(unsigned char *v, int W, int r1, int r2, int c1, int c2) {
    unsigned char a = v[r1 * W + c1], b = v[r2 * W + c1];
    v[r1 * W + c1] = b;
    v[r1 * W + c2] = a;
    v[r2 * W + c1] = a;
    v[r2 * W + c2] = b;
}

/* Another solution four cells away from the solution v: two rows and two columns whose crossings
 * hold X Y / Y X (X != Y), all four open in `open_masks`, that may swap to Y X / X Y without changing
 * the clues of the two rows and two columns (the swap keeps every colour count). 1 when found
 * (v is swapped in place), 0 when there is none. */
static int swap_partner(const Lines *g, const mask_t *open_masks, unsigned char *v) {
    int H = g->height, W = g->width;
    for (int r1 = 0; r1 < H; r1++) {
        for (int c1 = 0; c1 < W; c1++) {
            mask_t m1 = open_masks[r1 * W + c1];
            if (!(m1 & (m1 - 1))) continue;
            for (int c2 = c1 + 1; c2 < W; c2++) {
                mask_t m2 = open_masks[r1 * W + c2];
                unsigned char x = v[r1 * W + c1], y = v[r1 * W + c2];
                if (x == y || !(m2 & (m2 - 1))) continue;
                for (int r2 = r1 + 1; r2 < H; r2++) {
                    if (v[r2 * W + c1] != y || v[r2 * W + c2] != x) continue;
                    mask_t m3 = open_masks[r2 * W + c1], m4 = open_masks[r2 * W + c2];
                    if (!(m3 & (m3 - 1)) || !(m4 & (m4 - 1))) continue;
                    swap4(v, W, r1, r2, c1, c2);
                    if (line_matches(g, r1, v) && line_matches(g, r2, v) && line_matches(g, H + c1, v) &&
                        line_matches(g, H + c2, v))
                        return 1;
                    swap4(v, W, r1, r2, c1, c2); /* the same trade undoes it */
                }
            }
        }
    }
    return 0;
}

static void colours_of(const mask_t *masks, int n, unsigned char *v) {
    for (int i = 0; i < n; i++) v[i] = (unsigned char)(31 - __builtin_clz(masks[i]));
}

/* The search itself: up to two solutions into sols (n_cells bytes each), *found their number,
 * *exhausted whether the whole tree was searched (then *found is every solution there is, up to 2),
 * *swapped whether the second is the first's swap partner. */
static int search(Lines *g, mask_t *masks, long budget, unsigned long max_steps, unsigned char *sols, int *found,
                  int *exhausted, int *swapped) {
    int n = g->n_cells, depth = 0, status = OK, lines[2];
    unsigned long first_step = g->steps;
    Frame *stack = PyMem_Malloc(sizeof(Frame) * (size_t)(n + 1));
    mask_t *open_masks = PyMem_Malloc(sizeof(mask_t) * (size_t)n);
    if (!stack || !open_masks) {
        PyMem_Free(stack);
        PyMem_Free(open_masks);
        return NOMEM;
    }
    memcpy(open_masks, masks, sizeof(mask_t) * (size_t)n);
    *found = 0;
    *exhausted = 0;
    *swapped = 0;
    int first = 0;
    while (first < n && !(masks[first] & (masks[first] - 1))) first++;
    if (first == n) { /* solved already: the one solution */
        colours_of(masks, n, sols);
        *found = 1;
        *exhausted = 1;
        goto done;
    }
    stack[0] = (Frame){first, masks[first], g->n_changed};
    depth = 1;
    while (depth > 0 && *found < 2) {
        Frame *top = &stack[depth - 1];
        undo_to(g, masks, top->mark);
        if (!top->rest) {
            depth--;
            continue;
        }
        if (budget-- <= 0 || g->steps - first_step > max_steps) goto done; /* not exhausted */
        mask_t value = top->rest & (~top->rest + 1);
        top->rest &= top->rest - 1;
        if (record_change(g, top->cell, masks[top->cell]) < 0) {
            status = NOMEM;
            goto done;
        }
        masks[top->cell] = value;
        lines[0] = top->cell / g->width;
        lines[1] = g->height + top->cell % g->width;
        int st = propagate(g, masks, lines, 2);
        if (st == CONTRADICTION) continue;
        if (st != OK) {
            status = st;
            goto done;
        }
        int next = top->cell + 1; /* every cell before the assumed one was decided when it was chosen */
        while (next < n && !(masks[next] & (masks[next] - 1))) next++;
        if (next < n) {
            stack[depth++] = (Frame){next, masks[next], g->n_changed};
            continue;
        }
        unsigned char *sol = sols + (size_t)(*found) * n;
        colours_of(masks, n, sol);
        (*found)++;
        if (*found == 1) {
            memcpy(sols + n, sol, (size_t)n);
            if (swap_partner(g, open_masks, sols + n)) *found = *swapped = 2;
        }
    }
    if (depth == 0) *exhausted = 1;
done:
    undo_to(g, masks, 0);
    PyMem_Free(stack);
    PyMem_Free(open_masks);
    return status;
}

/* two_solutions(masks, budget, steps, end) -> (solutions: bytes of n_cells colours each, 0-2 of them joined,
 * exhausted: bool, swapped: bool). The search stops after `budget` assumptions or `steps` of line work
 * (propagate's measure: a line, more for long lines of many blocks). The masks (a line-logic fixpoint) are
 * left as they were. */
PyObject *Lines_two_solutions(Lines *g, PyObject *args) {
    PyObject *mobj;
    long budget;
    unsigned long steps;
    double end;
    if (!PyArg_ParseTuple(args, "Olkd", &mobj, &budget, &steps, &end)) return NULL;
    Py_buffer view;
    if (get_masks(g, mobj, &view) < 0) return NULL;
    unsigned char *sols = PyMem_Malloc(2 * (size_t)g->n_cells + 1);
    if (!sols) {
        PyBuffer_Release(&view);
        return PyErr_NoMemory();
    }
    g->end = end;
    g->n_changed = 0;
    int found = 0, exhausted = 0, swapped = 0;
    int status = search(g, (mask_t *)view.buf, budget, steps, sols, &found, &exhausted, &swapped);
    g->n_changed = 0;
    PyBuffer_Release(&view);
    PyObject *result = NULL;
    if (status == OK)
        result = Py_BuildValue("(y#OO)", (const char *)sols, (Py_ssize_t)found * g->n_cells,
                               exhausted ? Py_True : Py_False, swapped ? Py_True : Py_False);
    else
        result = raise_status(status);
    PyMem_Free(sols);
    return result;
}
