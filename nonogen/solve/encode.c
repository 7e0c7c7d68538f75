/* The SAT encoding of the grid's undecided part (the same CNF as Encoding in cnf.py, variable for
 * variable), and clause_lists, which hands the flat clauses to the SAT solver a chunk at a time. */
#include "linelogic.h"

/* Clauses are kept flat, each one's literals followed by a 0: 4 bytes a literal where a Python
 * list of ints takes about 210 bytes a clause (a huge residue has tens of millions of clauses). */
typedef struct {
    int *lits;
    size_t n_lits, cap_lits, n_clauses;
    int *ladders;  /* (line, block, lo, hi, first variable) of every ladder with a variable */
    size_t n_ladders, cap_ladders;
    int n_vars;
    const mask_t *masks;
    const int *cell_var;
    int failed;
} Cnf;

#define TRUE_LIT 1

static int popcount32(mask_t m) { return __builtin_popcount(m); }

/* Literal "cell has colour value", as Encoding.lit. */
static int cell_lit(const Cnf *f, int cell, int value) {
    mask_t m = f->masks[cell];
    if (!((m >> value) & 1)) return -TRUE_LIT;
    int n = popcount32(m);
    if (n == 1) return TRUE_LIT;
    int x = f->cell_var[cell];
    if (n == 2) return value == colour_of(m) ? x : -x;
    return x + popcount32(m & (((mask_t)1 << value) - 1));
}

/* Append a clause, simplified: dropped when it holds TRUE, -TRUE literals left out. */
static void add_clause(Cnf *f, const int *lits, int n) {
    if (f->failed) return;
    int keep = 0;
    for (int j = 0; j < n; j++) {
        if (lits[j] == TRUE_LIT) return;
        if (lits[j] != -TRUE_LIT) keep++;
    }
    if (grow_ints(&f->lits, &f->cap_lits, f->n_lits + keep + 1) < 0) {
        f->failed = 1;
        return;
    }
    for (int j = 0; j < n; j++)
        if (lits[j] != -TRUE_LIT) f->lits[f->n_lits++] = lits[j];
    f->lits[f->n_lits++] = 0;
    f->n_clauses++;
}

typedef struct {
    int lo, hi, base; /* literal of "start >= k" is base + k - lo - 1 for lo < k <= hi */
} Ladder;

static inline int at_least(const Ladder *l, int k) {
    return k <= l->lo ? TRUE_LIT : k > l->hi ? -TRUE_LIT : l->base + k - l->lo - 1;
}

/* Order encoding of one line's block starts; see Encoding._encode_line. */
static int encode_line(Lines *g, Cnf *f, int line, Ladder *lad, unsigned char *possible) {
    int n = line_len(g, line);
    Clue c = line_clue(g, line);
    if (!c.k) return OK;
    read_cells(g, line, n, f->masks, g->line_in);
    if (!solve_line(&c, &g->work, n, g->line_in)) return CONTRADICTION;
    for (int i = 0; i < c.k; i++) {
        int lo = -1, hi = -1;
        for (int s = 0; s + c.len[i] <= n; s++) {
            possible[s] = (unsigned char)placeable(&c, &g->work, n, g->line_in, i, s);
            if (possible[s]) {
                if (lo < 0) lo = s;
                hi = s;
            }
        }
        if (lo < 0) return CONTRADICTION;
        lad[i].lo = lo;
        lad[i].hi = hi;
        lad[i].base = f->n_vars + 1;
        f->n_vars += hi - lo;
        if (hi > lo) {
            if (grow_ints(&f->ladders, &f->cap_ladders, f->n_ladders + 5) < 0) return NOMEM;
            int *row = f->ladders + f->n_ladders;
            row[0] = line;
            row[1] = i;
            row[2] = lo;
            row[3] = hi;
            row[4] = lad[i].base;
            f->n_ladders += 5;
        }
        for (int k = lo + 1; k < hi; k++) {
            if (!possible[k]) {
                int cl[2] = {-(lad[i].base + k - lo - 1), lad[i].base + k - lo};
                add_clause(f, cl, 2);
            }
        }
    }
    for (int i = 0; i < c.k; i++) {
        const Ladder *l = &lad[i];
        for (int k = l->lo + 1; k <= l->hi; k++) {
            int cl[2] = {-at_least(l, k + 1), at_least(l, k)};
            add_clause(f, cl, 2);
        }
        if (i + 1 < c.k) {
            int gap = c.len[i] + (c.col[i + 1] == c.col[i]);
            for (int k = l->lo + 1; k <= l->hi; k++) {
                int cl[2] = {-at_least(l, k), at_least(&lad[i + 1], k + gap)};
                add_clause(f, cl, 2);
            }
        }
    }
    for (int t = 0; t < n; t++) {
        int cell = line_cell(g, line, t);
        int filled = -cell_lit(f, cell, 0);
        int first[2] = {-filled, -at_least(&lad[0], t + 1)};
        add_clause(f, first, 2);
        for (int i = 0; i < c.k; i++) {
            int starts_before = -at_least(&lad[i], t + 1);
            int reaches = at_least(&lad[i], t - c.len[i] + 1);
            int paint[3] = {-starts_before, -reaches, cell_lit(f, cell, c.col[i])};
            add_clause(f, paint, 3);
            int next_after = i + 1 < c.k ? at_least(&lad[i + 1], t + 1) : TRUE_LIT;
            int cover[4] = {-filled, -starts_before, -next_after, reaches};
            add_clause(f, cover, 4);
        }
    }
    return f->failed ? NOMEM : OK;
}

/* The binary clauses of probing's implications (quadruples, see record_implications) that
 * still say something under these masks. */
static void add_implications(Cnf *f, const int *q, size_t n, int n_cells) {
    for (size_t j = 0; j + 4 <= n && !f->failed; j += 4, q += 4) {
        if (q[0] < 0 || q[0] >= n_cells || q[2] < 0 || q[2] >= n_cells || q[1] < 0 || q[1] > 31 || q[3] < 0 || q[3] > 31)
            continue;
        mask_t a = f->masks[q[0]], b = f->masks[q[2]];
        if (!(a & (a - 1)) || !(b & (b - 1)) || !((a >> q[1]) & 1) || !((b >> q[3]) & 1)) continue;
        int cl[2] = {-cell_lit(f, q[0], q[1]), -cell_lit(f, q[2], q[3])};
        add_clause(f, cl, 2);
    }
}

PyObject *Lines_encode(Lines *g, PyObject *args) {
    PyObject *mobj, *implobj = NULL;
    double end;
    if (!PyArg_ParseTuple(args, "Od|O", &mobj, &end, &implobj)) return NULL;
    Py_buffer view, iv = {0};
    if (get_masks(g, mobj, &view) < 0) return NULL;
    if (implobj && implobj != Py_None && PyObject_GetBuffer(implobj, &iv, PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&view);
        return NULL;
    }
    const mask_t *masks = view.buf;
    int *cell_var = PyMem_Calloc(g->n_cells, sizeof(int));
    Ladder *lad = PyMem_Malloc(sizeof(Ladder) * (g->max_k + 1));
    unsigned char *possible = PyMem_Malloc(g->max_len + 1);
    Cnf f = {NULL, 0, 0, 0, NULL, 0, 0, 1, masks, cell_var, 0};
    int status = OK;
    if (!cell_var || !lad || !possible) status = NOMEM;
    if (status == OK) {
        /* a clause holding TRUE is dropped, so the unit [TRUE] goes in directly */
        f.cap_lits = 65536;
        f.lits = PyMem_Malloc(f.cap_lits * sizeof(int));
        if (!f.lits) status = NOMEM;
        else {
            f.lits[0] = TRUE_LIT;
            f.lits[1] = 0;
            f.n_lits = 2;
            f.n_clauses = 1;
        }
    }
    for (int cell = 0; status == OK && cell < g->n_cells; cell++) {
        mask_t m = masks[cell];
        int n = popcount32(m);
        if (n < 2) continue;
        cell_var[cell] = f.n_vars + 1;
        if (n == 2) {
            f.n_vars += 1;
            continue;
        }
        f.n_vars += n;
        int lits[32], at = 0;
        for (int v = 0; v < 32; v++)
            if ((m >> v) & 1) {
                lits[at] = cell_var[cell] + at;
                at++;
            }
        add_clause(&f, lits, n);
        for (int a = 0; a < n; a++)
            for (int b = a + 1; b < n; b++) {
                int pair[2] = {-lits[a], -lits[b]};
                add_clause(&f, pair, 2);
            }
        if (f.failed) status = NOMEM;
    }
    for (int line = 0; status == OK && line < g->n_lines; line++) {
        int open = 0;
        for (int t = 0; t < line_len(g, line) && !open; t++) {
            mask_t m = masks[line_cell(g, line, t)];
            open = (m & (m - 1)) != 0;
        }
        if (!open) continue;
        if (end >= 0 && now() > end) status = TIMEOUT;
        else status = encode_line(g, &f, line, lad, possible);
    }
    if (status == OK && iv.buf) {
        add_implications(&f, iv.buf, (size_t)iv.len / sizeof(int), g->n_cells);
        if (f.failed) status = NOMEM;
    }
    if (iv.buf) PyBuffer_Release(&iv);
    PyBuffer_Release(&view);
    PyObject *result = NULL;
    if (status == OK) {
        PyObject *vars = PyList_New(g->n_cells);
        for (int cell = 0; vars && cell < g->n_cells; cell++) PyList_SET_ITEM(vars, cell, PyLong_FromLong(cell_var[cell]));
        PyObject *flat = PyBytes_FromStringAndSize((const char *)f.lits, (Py_ssize_t)(f.n_lits * sizeof(int)));
        PyObject *ladders = PyBytes_FromStringAndSize((const char *)f.ladders, (Py_ssize_t)(f.n_ladders * sizeof(int)));
        if (vars && flat && ladders)
            result = Py_BuildValue("(iOnOO)", f.n_vars, flat, (Py_ssize_t)f.n_clauses, vars, ladders);
        Py_XDECREF(vars);
        Py_XDECREF(flat);
        Py_XDECREF(ladders);
    } else if (status == CONTRADICTION) {
        result = Py_None;
        Py_INCREF(result);
    } else {
        raise_status(status);
    }
    PyMem_Free(f.lits);
    PyMem_Free(f.ladders);
    PyMem_Free(cell_var);
    PyMem_Free(lad);
    PyMem_Free(possible);
    return result;
}

/* clause_lists(flat, start, count) -> (clauses, next): up to count clauses of a flat encoding
 * (literals, 0 after each clause) from literal offset start, as lists for the SAT solver. */
PyObject *module_clause_lists(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer view;
    Py_ssize_t start, count;
    if (!PyArg_ParseTuple(args, "y*nn", &view, &start, &count)) return NULL;
    const int *lits = view.buf;
    Py_ssize_t n = view.len / (Py_ssize_t)sizeof(int), at = start < 0 ? 0 : start;
    PyObject *out = PyList_New(0);
    while (out && at < n && PyList_GET_SIZE(out) < count) {
        Py_ssize_t end = at;
        while (end < n && lits[end]) end++;
        PyObject *clause = PyList_New(end - at);
        for (Py_ssize_t j = at; clause && j < end; j++) {
            PyObject *v = PyLong_FromLong(lits[j]);
            if (!v) {
                Py_CLEAR(clause);
                break;
            }
            PyList_SET_ITEM(clause, j - at, v);
        }
        if (!clause || PyList_Append(out, clause) < 0) Py_CLEAR(out);
        Py_XDECREF(clause);
        at = end + 1;
    }
    PyBuffer_Release(&view);
    if (!out) return NULL;
    return Py_BuildValue("(Nn)", out, at < n ? at : n);
}
