/* A guessed solution and a second one beside it, for black-and-white puzzles that line logic leaves wide
 * open (shortcut.guess_two calls it): the whole short way to "multiple" in one call.
 *
 * 1. Belief propagation orders the open cells, surest first, each with its likeliest colour. It is
 *    bp.c's message passing cut down to two colours: a line's message to a cell is the chance that the
 *    cell is black over the line's placements, weighted by the crossing lines' messages. Two colours
 *    need no logarithms: the weights of one block's cells are multiplied out with prefix products
 *    (that, not the arithmetic, was most of bp.c's time on a 30x30 grid).
 * 2. several.c's depth-first search decides the cells in that order, with line logic after each decision
 *    and chronological backtracking. Past a number of dead ends it gives up, runs more rounds of belief
 *    propagation and tries again with more dead ends allowed.
 * 3. A second solution is looked for next to the first: blocks that move by one cell along a closed
 *    cycle of rows and columns (each line moves one block by one cell, so every clue stays as it was;
 *    the smallest cycle is the 2x2 swap; cycle.c). Without one, the search goes on past the first solution: its
 *    latest decisions are the cells the beliefs were least sure of, where another solution is likeliest
 *    to differ (on random 30x30 grids this found every second solution that flipping each of the six
 *    least sure cells in turn and searching again found, in a fifth of the time).
 * Nothing here is a proof by itself: the caller checks both grids against every clue. */
#include <math.h>

#include "linelogic.h"

#define EPS 1e-4       /* the least weight a possible colour gets: no message rules a colour out */

typedef struct {
    double *row, *col;   /* per cell: the chance it is black, from its row, from its column */
    double *w0, *w1, *P, *Pb, *F, *G, *diff, *white;
    int *run, *lo, *hi;
} Beliefs;

static void beliefs_free(Beliefs *b) {
    PyMem_Free(b->row); PyMem_Free(b->col); PyMem_Free(b->w0); PyMem_Free(b->w1); PyMem_Free(b->P);
    PyMem_Free(b->Pb); PyMem_Free(b->F); PyMem_Free(b->G); PyMem_Free(b->diff); PyMem_Free(b->run);
    PyMem_Free(b->white); PyMem_Free(b->lo); PyMem_Free(b->hi);
}

static int beliefs_alloc(Beliefs *b, const Lines *g) {
    size_t n = (size_t)g->max_len + 2, k = (size_t)g->max_k + 1;
    b->row = PyMem_Malloc(sizeof(double) * g->n_cells);
    b->col = PyMem_Malloc(sizeof(double) * g->n_cells);
    b->w0 = PyMem_Malloc(sizeof(double) * n);
    b->w1 = PyMem_Malloc(sizeof(double) * n);
    b->P = PyMem_Malloc(sizeof(double) * n);
    b->Pb = PyMem_Malloc(sizeof(double) * n * k);
    b->F = PyMem_Malloc(sizeof(double) * n * k);
    b->G = PyMem_Malloc(sizeof(double) * n * k);
    b->diff = PyMem_Malloc(sizeof(double) * n);
    b->white = PyMem_Malloc(sizeof(double) * n);
    b->run = PyMem_Malloc(sizeof(int) * n);
    b->lo = PyMem_Malloc(sizeof(int) * k);
    b->hi = PyMem_Malloc(sizeof(int) * k);
    return b->row && b->col && b->w0 && b->w1 && b->P && b->Pb && b->F && b->G && b->diff && b->white && b->run &&
                   b->lo && b->hi ? 0 : -1;
}

/* One line's messages: `cross` holds the crossing lines' chances (per cell of the grid), `own` this
 * line's, replaced by the new ones (undamped: on random grids damping by half needed twice the rounds
 * for as many good guesses). A line whose weights leave no placement keeps its old ones.
 *
 * Block i can only start between lo[i] (the clue packed to the left) and hi[i] (to the right), so each
 * row of the tables is filled only around that window: O(length + blocks * slack), a third of the whole
 * table on a random 30-cell line. */
static void line_beliefs(const Lines *g, int line, const mask_t *masks, const double *cross, double *own, Beliefs *b) {
    const int n = line_len(g, line), W = n + 1;
    const Clue c = line_clue(g, line);
    const int k = c.k;
    double *w0 = b->w0, *w1 = b->w1, *P = b->P, *Pb = b->Pb, *F = b->F, *G = b->G, *diff = b->diff, *white = b->white;
    int *run = b->run, *lo = b->lo, *hi = b->hi;
    P[0] = 1;
    run[0] = 0;
    for (int t = 0; t < n; t++) {
        int cell = line_cell(g, line, t);
        mask_t m = masks[cell];
        double q = cross[cell];
        double a = (m & 1) ? (1 - q > EPS ? 1 - q : EPS) : 0, z = (m & 2) ? (q > EPS ? q : EPS) : 0;
        double scale = 1 / (a > z ? a : z);
        w0[t] = a * scale;
        w1[t] = z * scale;
        /* prefix products of the black weights, restarted after a cell that cannot be black */
        P[t + 1] = z > 0 ? P[t] * w1[t] : 1;
        run[t + 1] = z > 0 ? run[t] + 1 : 0;
        white[t] = diff[t] = 0;
    }
    diff[n] = 0;
    if (!block_windows(&c, n, lo, hi)) return;
    for (int i = 0; i < k; i++)
        for (int s = lo[i], len = c.len[i]; s <= hi[i]; s++)
            Pb[i * W + s] = run[s + len] >= len && P[s] > 0 ? P[s + len] / P[s] : 0;
    /* F[i][t]: weight of cells [0, t) holding blocks 0..i-1, kept for t in row i's window;
     * G[i][t]: of cells [t, n) holding blocks i.., kept for t in that window and one past it. */
    F[0] = 1;
    for (int t = 0, to = window_last(&c, hi, n, 0); t < to; t++) F[t + 1] = F[t] * w0[t];
    for (int i = 1; i <= k; i++) {
        int len = c.len[i - 1], from = window_first(&c, lo, i), to = window_last(&c, hi, n, i);
        double *f = F + i * W;
        const double *prev = F + (i - 1) * W, *pb = Pb + (i - 1) * W;
        f[from - 1] = 0;
        for (int t = from; t <= to; t++) {
            double v = f[t - 1] * w0[t - 1];
            int s = t - len;
            if (s <= hi[i - 1] && pb[s] > 0) v += pb[s] * (i == 1 ? prev[s] : prev[s - 1] * w0[s - 1]);
            f[t] = v;
        }
    }
    double Z = F[k * W + n];
    if (!(Z > 1e-280) || !isfinite(Z)) return;
    double *last = G + k * W;
    last[n] = 1;
    for (int t = n - 1, from = window_first(&c, lo, k); t >= from; t--) last[t] = last[t + 1] * w0[t];
    for (int i = k - 1; i >= 0; i--) {
        int len = c.len[i], from = window_first(&c, lo, i);
        double *gg = G + i * W;
        const double *next = G + (i + 1) * W, *pb = Pb + i * W;
        gg[hi[i] + 1] = 0;
        for (int t = hi[i]; t >= from; t--) {
            double v = w0[t] * gg[t + 1];
            if (t >= lo[i] && pb[t] > 0) v += pb[t] * (i + 1 == k ? next[t + len] : w0[t + len] * next[t + len + 1]);
            gg[t] = v;
        }
    }
    for (int i = 0; i < k; i++) {
        int len = c.len[i];
        const double *pb = Pb + i * W;
        for (int s = lo[i]; s <= hi[i]; s++) {
            if (!(pb[s] > 0)) continue;
            int e = s + len;
            double left = i == 0 ? F[s] : F[i * W + s - 1] * w0[s - 1];
            double right = i + 1 == k ? G[k * W + e] : w0[e] * G[(i + 1) * W + e + 1];
            double p = pb[s] * left * right;
            diff[s] += p;
            diff[e] -= p;
        }
    }
    /* cell t is white between blocks i-1 and i: the product leaves out the cell's own weight */
    for (int i = 0; i <= k; i++)
        for (int t = window_first(&c, lo, i), to = window_last(&c, hi, n, i); t < to; t++)
            white[t] += F[i * W + t] * G[i * W + t + 1];
    double black = 0;
    for (int t = 0; t < n; t++) {
        black += diff[t];
        double light = w0[t] > 0 ? white[t] : 0, dark = w1[t] > 0 && black > 0 ? black / w1[t] : 0;
        if (light + dark > 0) own[line_cell(g, line, t)] = dark / (light + dark);
    }
}

/* `rounds` more rounds over the lines with an open cell, rows then columns. */
static int propagate_beliefs(Lines *g, const mask_t *masks, Beliefs *b, int rounds, const unsigned char *open) {
    for (int r = 0; r < rounds; r++) {
        if (g->end >= 0 && now() > g->end) return TIMEOUT;
        for (int line = 0; line < g->n_lines; line++)
            if (open[line])
                line_beliefs(g, line, masks, line < g->height ? b->col : b->row, line < g->height ? b->row : b->col, b);
    }
    return OK;
}

typedef struct {
    int cell;
    double sure;
} Ranked;

static int by_sureness(const void *x, const void *y) {
    const Ranked *a = x, *b = y;
    return a->sure > b->sure ? -1 : a->sure < b->sure ? 1 : a->cell - b->cell;
}

/* The open cells from the surest belief to the least sure (into order; returns how many), and each cell's
 * likeliest colour (into likeliest, a mask of one bit). */
static int rank_cells(const Lines *g, const mask_t *masks, const Beliefs *b, Ranked *ranked, int *order,
                      mask_t *likeliest) {
    int n = 0;
    for (int cell = 0; cell < g->n_cells; cell++) {
        mask_t m = masks[cell];
        if (!(m & (m - 1))) continue;
        double black = b->row[cell] * b->col[cell], white = (1 - b->row[cell]) * (1 - b->col[cell]);
        double total = black + white;
        ranked[n].cell = cell;
        ranked[n++].sure = fabs(white - black) / (total > 1e-300 ? total : 1e-300);
        likeliest[cell] = black > white ? 2 : 1;
    }
    qsort(ranked, (size_t)n, sizeof(Ranked), by_sureness);
    for (int j = 0; j < n; j++) order[j] = ranked[j].cell;
    return n;
}

typedef struct {
    Beliefs b;
    Ranked *ranked;
    int *order;           /* the open cells, surest first */
    mask_t *likeliest;    /* per cell: its likeliest colour, as a mask */
    unsigned char *open_lines;
    mask_t *fixpoint;     /* the masks the guess started from */
    Decision *stack;
    Search s;             /* several.c's search over order, each cell's likeliest colour first */
} Guess;

/* The search from a fresh start, up to `failures` dead ends. */
static int fresh_search(Lines *g, mask_t *masks, Guess *q, int n_order, long failures) {
    q->s = (Search){.order = q->order, .n_order = n_order, .first = q->likeliest, .stack = q->stack,
                    .max_dead = failures, .assumptions = LONG_MAX, .max_steps = ULONG_MAX};
    return search(g, masks, &q->s, OK);
}

/* ---- the whole guess -------------------------------------------------------------------------------- */

static void guess_free(Guess *q) {
    beliefs_free(&q->b);
    PyMem_Free(q->ranked);
    PyMem_Free(q->order);
    PyMem_Free(q->likeliest);
    PyMem_Free(q->open_lines);
    PyMem_Free(q->stack);
    PyMem_Free(q->fixpoint);
}

/* Buffers, and every cell's first messages: even odds where line logic left it open. */
static int guess_init(Guess *q, const Lines *g, const mask_t *masks) {
    size_t n = (size_t)g->n_cells;
    q->ranked = PyMem_Malloc(sizeof(Ranked) * n);
    q->order = PyMem_Malloc(sizeof(int) * n);
    q->likeliest = PyMem_Malloc(sizeof(mask_t) * n);
    q->open_lines = PyMem_Calloc((size_t)g->n_lines, 1);
    q->stack = PyMem_Malloc(sizeof(Decision) * (n + 1));
    q->fixpoint = PyMem_Malloc(sizeof(mask_t) * n);
    if (beliefs_alloc(&q->b, g) < 0 || !q->ranked || !q->order || !q->likeliest || !q->open_lines || !q->stack ||
        !q->fixpoint)
        return NOMEM;
    memcpy(q->fixpoint, masks, sizeof(mask_t) * n);
    for (int cell = 0; cell < g->n_cells; cell++) {
        mask_t m = masks[cell];
        q->b.row[cell] = q->b.col[cell] = m == 2 ? 1.0 : m == 1 ? 0.0 : 0.5;
        if (m & (m - 1)) q->open_lines[cell_line(g, cell, 0)] = q->open_lines[cell_line(g, cell, 1)] = 1;
    }
    return OK;
}

/* The first solution into sols: OK, CONTRADICTION when every try gave up, TIMEOUT or NOMEM. Try t runs
 * rounds << t more rounds of belief propagation and may meet failures << 2t dead ends: on the random 30x30
 * grids 4 rounds and 30 dead ends guess four in five, and the doubled rounds and quadrupled dead ends after
 * it leave fewer puzzles to SAT than 10 rounds and 300 dead ends a try, in less time. */
static int first_solution(Lines *g, mask_t *masks, Guess *q, int rounds, int tries, int failures, unsigned char *sols) {
    for (int t = 0; t < tries; t++) {
        int st = propagate_beliefs(g, masks, &q->b, rounds << t, q->open_lines);
        if (st != OK) return st;
        int n_order = rank_cells(g, masks, &q->b, q->ranked, q->order, q->likeliest);
        st = fresh_search(g, masks, q, n_order, (long)failures << 2 * t);
        if (st == OK) {
            colours_of(masks, g->n_cells, sols);
            return OK; /* masks stay solved: the search may go on from there */
        }
        undo_to(g, masks, 0);
        if (st != CONTRADICTION && st != GAVE_UP) return st;
    }
    return CONTRADICTION;
}

/* A second solution beside the first (sols, into sols + n_cells), masks still solved at the first: 1 by a
 * cycle of block moves, 2 by going on with the search past the first (up to `more` dead ends), 0 when neither
 * finds one; or -TIMEOUT, -NOMEM. The search's last decisions are the cells the beliefs were least sure of,
 * where a second solution is likeliest to differ, and chronological backtracking flips them first. */
static int second_solution(Lines *g, mask_t *masks, Guess *q, int more, int cycle_rows, unsigned char *sols) {
    unsigned char *second = sols + g->n_cells;
    memcpy(second, sols, (size_t)g->n_cells);
    int found = cycle_neighbour(g, q->fixpoint, second, cycle_rows);
    if (found != 0) return found == 1 ? 1 : -NOMEM;
    q->s.dead = 0;
    q->s.max_dead = more;
    int st = search(g, masks, &q->s, CONTRADICTION);
    if (st == OK) colours_of(masks, g->n_cells, second);
    return st == OK ? 2 : st == CONTRADICTION || st == GAVE_UP ? 0 : -st;
}

/* guess_two(masks, rounds, tries, failures, more, cycle_rows, end) -> (first, second, how): two 0/1 grids
 * (bytes, row-major; None when not found) and how the second was found ("cycle", "search" or None). The
 * first of up to `tries` (at most 10) runs `rounds` rounds of belief propagation, then a search that gives
 * up after `failures` dead ends; each later try runs twice the rounds and allows four times the dead ends
 * of the one before. A cycle of block moves has up to `cycle_rows` rows. The masks (a line-logic fixpoint of
 * a black-and-white puzzle) are left as they were. */
PyObject *Lines_guess_two(Lines *g, PyObject *args) {
    PyObject *mobj;
    int rounds, tries, failures, more, cycle_rows;
    double end;
    if (!PyArg_ParseTuple(args, "Oiiiiid", &mobj, &rounds, &tries, &failures, &more, &cycle_rows, &end)) return NULL;
    if (rounds < 0 || tries < 0 || tries > 10 || failures < 0 || failures > (1 << 10) || more < 0) {
        PyErr_SetString(PyExc_ValueError, "guess_two needs rounds >= 0, 0-10 tries, 0-1024 failures, more >= 0");
        return NULL;
    }
    Py_buffer view;
    if (get_masks(g, mobj, &view) < 0) return NULL;
    mask_t *masks = view.buf;
    int bad = 0;
    for (int cell = 0; cell < g->n_cells; cell++) bad |= !masks[cell] || masks[cell] > 3;
    if (bad) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "guess_two needs the masks of a black-and-white puzzle, none empty");
        return NULL;
    }
    Guess q = {0};
    unsigned char *sols = PyMem_Malloc(2 * (size_t)g->n_cells);
    g->end = end;
    g->n_changed = 0;
    int st = sols ? guess_init(&q, g, masks) : NOMEM, how = 0;
    if (st == OK) st = first_solution(g, masks, &q, rounds, tries, failures, sols);
    if (st == OK) {
        how = second_solution(g, masks, &q, more, cycle_rows, sols);
        if (how < 0) st = -how;
    }
    undo_to(g, masks, 0);
    g->n_changed = 0;
    PyBuffer_Release(&view);
    PyObject *result = NULL;
    if (st == OK || st == CONTRADICTION) {
        Py_ssize_t n = g->n_cells;
        const char *names[] = {NULL, "cycle", "search"};
        result = Py_BuildValue("(y#y#z)", st == OK ? (const char *)sols : NULL, st == OK ? n : 0,
                               how ? (const char *)sols + n : NULL, how ? n : 0, names[how]);
    } else {
        raise_status(st);
    }
    guess_free(&q);
    PyMem_Free(sols);
    return result;
}
