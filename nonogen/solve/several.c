/* Depth-first search with line logic, the one search of both short ways to "multiple" (shortcut.py): guess.c
 * runs it over the cells in the order of belief propagation, and two_solutions here over the open cells in
 * grid order (Grid.two_solutions in propagate.py), for puzzles line logic leaves with a small, loose residue.
 *
 * The search assumes a colour for the next open cell, runs line logic from its row and column, and goes
 * on; a contradiction (a dead end) undoes the latest assumption that has a colour left and tries the next
 * one (chronological backtracking on propagate.c's trail). It stops at a budget of dead ends, of assumptions
 * and of line work: what it has not found by then, the full path (probing, SAT) decides. two_solutions
 * checks its first solution for a second one four cells away (swap_partner); without one the search goes on. */
#include "linelogic.h"

/* Assume value in cell (on the trail) and run line logic from its lines. */
static int decide(Lines *g, mask_t *masks, int cell, mask_t value) {
    if (record_change(g, cell, masks[cell]) < 0) return NOMEM;
    masks[cell] = value;
    return propagate_cell(g, masks, cell);
}

/* Whether the search may not make one more assumption (and counts it). */
static int spent(const Lines *g, Search *s) {
    return s->assumptions-- <= 0 || g->steps - s->first_step > s->max_steps;
}

/* The search, from a fresh start (st OK, depth 0) or from a solution it found (st CONTRADICTION: it goes on
 * as if that were a dead end, to the next solution). Returns OK with masks solved, CONTRADICTION when every
 * branch is searched, GAVE_UP at its budget, TIMEOUT or NOMEM. Every change stays on the trail for the caller
 * to undo. */
int search(Lines *g, mask_t *masks, Search *s, int st) {
    for (;;) {
        if (st == OK) {
            while (s->place < s->n_order && !(masks[s->order[s->place]] & (masks[s->order[s->place]] - 1))) s->place++;
            if (s->place == s->n_order) return OK;
            if (spent(g, s)) return GAVE_UP;
            int cell = s->order[s->place];
            mask_t m = masks[cell], value = s->first ? s->first[cell] : m & (~m + 1);
            s->stack[s->depth++] = (Decision){s->place, m & ~value, g->n_changed};
            st = decide(g, masks, cell, value);
        } else if (st == CONTRADICTION) {
            while (s->depth && !s->stack[s->depth - 1].left) s->depth--;
            if (!s->depth) return CONTRADICTION;
            if (++s->dead > s->max_dead || spent(g, s)) return GAVE_UP;
            Decision *top = &s->stack[s->depth - 1];
            undo_to(g, masks, top->mark);
            s->place = top->place;
            mask_t value = top->left & (~top->left + 1);
            top->left &= ~value;
            st = decide(g, masks, s->order[s->place], value);
        } else {
            return st;
        }
    }
}

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

/* Up to two solutions into sols (n_cells bytes each), *found their number, *exhausted whether the whole tree
 * was searched (then *found is every solution there is, up to 2), *swapped whether the second is the first's
 * swap partner. The open cells are decided in grid order, each colour from the lowest. */
static int two_solutions(Lines *g, mask_t *masks, long budget, unsigned long max_steps, unsigned char *sols,
                         int *found, int *exhausted, int *swapped) {
    int n = g->n_cells, n_open = 0;
    int *order = PyMem_Malloc(sizeof(int) * (size_t)n);
    Decision *stack = PyMem_Malloc(sizeof(Decision) * (size_t)(n + 1));
    mask_t *open_masks = PyMem_Malloc(sizeof(mask_t) * (size_t)n);
    int st = order && stack && open_masks ? OK : NOMEM;
    for (int cell = 0; st == OK && cell < n; cell++) {
        open_masks[cell] = masks[cell];
        if (masks[cell] & (masks[cell] - 1)) order[n_open++] = cell;
    }
    Search s = {.order = order, .n_order = n_open, .stack = stack, .max_dead = LONG_MAX, .assumptions = budget,
                .first_step = g->steps, .max_steps = max_steps};
    *found = *exhausted = *swapped = 0;
    for (st = st == OK ? search(g, masks, &s, OK) : st; st == OK; st = search(g, masks, &s, CONTRADICTION)) {
        unsigned char *sol = sols + (size_t)(*found)++ * n;
        colours_of(masks, n, sol);
        if (*found == 2) break;
        memcpy(sols + n, sol, (size_t)n);
        if (swap_partner(g, open_masks, sols + n)) {
            *found = *swapped = 2;
            break;
        }
    }
    *exhausted = st == CONTRADICTION;
    undo_to(g, masks, 0);
    PyMem_Free(order);
    PyMem_Free(stack);
    PyMem_Free(open_masks);
    return st == CONTRADICTION || st == GAVE_UP ? OK : st;
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
    int status = two_solutions(g, (mask_t *)view.buf, budget, steps, sols, &found, &exhausted, &swapped);
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
