/* The Python module _linelogic: the Lines type (a grid's clues and the scratch its methods share),
 * argument checks, and the method tables. The work is in line.c, propagate.c, encode.c, bp.c and several.c
 * (see linelogic.h); line.py, propagate.py and cnf.py stay the reference and the fallback. */
#include "linelogic.h"
#include <limits.h>

/* (length, colour) of an exact tuple of two ints that fit an int: what PyArg_ParseTuple(block, "ii") reads, at a
 * tenth of its cost (its format string was most of making a puzzle's Lines); 0 for anything else, which
 * PyArg_ParseTuple then reads or refuses in its own words. */
static int int_pair(PyObject *block, int *l, int *c) {
    if (!PyTuple_CheckExact(block) || PyTuple_GET_SIZE(block) != 2) return 0;
    PyObject *a = PyTuple_GET_ITEM(block, 0), *b = PyTuple_GET_ITEM(block, 1);
    if (!PyLong_CheckExact(a) || !PyLong_CheckExact(b)) return 0;
    int over_a, over_b;
    long x = PyLong_AsLongAndOverflow(a, &over_a), y = PyLong_AsLongAndOverflow(b, &over_b);
    if (over_a || over_b || x < INT_MIN || x > INT_MAX || y < INT_MIN || y > INT_MAX) return 0;
    *l = (int)x;
    *c = (int)y;
    return 1;
}

static int parse_clue(PyObject *seq, int *len, int *col, int max) {
    PyObject *fast = PySequence_Fast(seq, "a clue must be a sequence of (length, colour) pairs");
    if (!fast) return -1;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(fast);
    if (k > max) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "clue longer than its line");
        return -1;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        int l, c;
        PyObject *block = PySequence_Fast_GET_ITEM(fast, i);
        if (!int_pair(block, &l, &c) && !PyArg_ParseTuple(block, "ii", &l, &c)) {
            Py_DECREF(fast);
            return -1;
        }
        if (l < 1 || c < 1 || c > 31) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "block lengths must be >= 1 and colours 1..31");
            return -1;
        }
        len[i] = l;
        col[i] = c;
    }
    Py_DECREF(fast);
    return (int)k;
}

static void Lines_dealloc(Lines *g) {
    PyMem_Free(g->clue_start);
    PyMem_Free(g->len);
    PyMem_Free(g->col);
    PyMem_Free(g->key);
    PyMem_Free(g->queue);
    PyMem_Free(g->queued);
    PyMem_Free(g->line_in);
    PyMem_Free(g->changed);
    PyMem_Free(g->old);
    PyMem_Free(g->impl);
    sweeps_free(g);
    work_free(&g->work);
    cache_free(&g->cache);
    Py_TYPE(g)->tp_free((PyObject *)g);
}

static int Lines_init(Lines *g, PyObject *args, PyObject *kw) {
    int H, W;
    PyObject *clues;
    static char *names[] = {"height", "width", "clues", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "iiO", names, &H, &W, &clues)) return -1;
    if (H < 1 || W < 1 || (long long)H * W > 100000000LL) {
        PyErr_SetString(PyExc_ValueError, "grid size out of range");
        return -1;
    }
    PyObject *fast = PySequence_Fast(clues, "clues must be a sequence");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != H + W) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "need height + width clues");
        return -1;
    }
    g->height = H;
    g->width = W;
    g->n_lines = H + W;
    g->n_cells = H * W;
    int maxlen = H > W ? H : W, cap = (H + W) * maxlen;
    g->clue_start = PyMem_Calloc(H + W + 1, sizeof(int));
    g->len = PyMem_Calloc(cap, sizeof(int));
    g->col = PyMem_Calloc(cap, sizeof(int));
    g->queue = PyMem_Calloc(H + W, sizeof(int));
    g->queued = PyMem_Calloc(H + W, 1);
    g->line_in = PyMem_Calloc(maxlen + 1, sizeof(mask_t));
    if (!g->clue_start || !g->len || !g->col || !g->queue || !g->queued || !g->line_in) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return -1;
    }
    int at = 0, max_k = 0;
    for (int line = 0; line < H + W; line++) {
        int n = line < H ? W : H;
        int k = parse_clue(PySequence_Fast_GET_ITEM(fast, line), g->len + at, g->col + at, n);
        if (k < 0) {
            Py_DECREF(fast);
            return -1;
        }
        g->clue_start[line] = at;
        at += k;
        if (k > max_k) max_k = k;
    }
    g->clue_start[H + W] = at;
    Py_DECREF(fast);
    /* lines with equal clues and lengths share cache entries */
    g->key = PyMem_Calloc(H + W, sizeof(int));
    if (!g->key) {
        PyErr_NoMemory();
        return -1;
    }
    for (int line = 0; line < H + W; line++) {
        Clue a = line_clue(g, line);
        g->key[line] = line;
        for (int other = 0; other < line; other++) {
            Clue b = line_clue(g, other);
            if (g->key[other] == other && line_len(g, other) == line_len(g, line) && a.k == b.k &&
                !memcmp(a.len, b.len, sizeof(int) * a.k) &&
                !memcmp(a.col, b.col, sizeof(int) * a.k)) {
                g->key[line] = other;
                break;
            }
        }
    }
    g->max_len = maxlen;
    g->max_k = max_k;
    g->end = -1;
    if (work_reserve(&g->work, maxlen, max_k) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* A writable buffer of H*W uint32 masks (array('I')). */
int get_masks(Lines *g, PyObject *obj, Py_buffer *view) {
    if (PyObject_GetBuffer(obj, view, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (view->itemsize != 4 || view->len != (Py_ssize_t)g->n_cells * 4 ||
        !view->format || (strcmp(view->format, "I") != 0 && strcmp(view->format, "=I") != 0 && strcmp(view->format, "<I") != 0)) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_ValueError, "masks must be a writable array('I') of height*width items");
        return -1;
    }
    return 0;
}

PyObject *raise_status(int status) {
    if (status == TIMEOUT) PyErr_SetString(PyExc_TimeoutError, "deadline passed");
    else if (status == NOMEM) PyErr_NoMemory();
    return NULL;
}

/* implications() -> bytes of int32 quadruples found by the last probe (see record_implications). */
static PyObject *Lines_implications(Lines *g, PyObject *unused) {
    (void)unused;
    return PyBytes_FromStringAndSize((const char *)g->impl, (Py_ssize_t)(g->n_impl * sizeof(int)));
}

static PyObject *Lines_get_runs(Lines *g, void *closure) {
    (void)closure;
    return PyLong_FromLongLong(g->line_runs);
}

/* The starting masks, propagate.py's Grid._initial_masks without the givens: background plus the colours that
 * both the cell's row clue and its column clue use. */
static PyObject *Lines_initial_masks(Lines *g, PyObject *noargs) {
    (void)noargs;
    int H = g->height, W = g->width;
    mask_t *used = PyMem_Calloc(H + W, sizeof(mask_t));
    if (!used) return PyErr_NoMemory();
    for (int line = 0; line < H + W; line++)
        for (int i = g->clue_start[line]; i < g->clue_start[line + 1]; i++) used[line] |= (mask_t)1 << g->col[i];
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)g->n_cells * sizeof(mask_t));
    if (out) {
        mask_t *m = (mask_t *)PyBytes_AS_STRING(out);
        for (int r = 0; r < H; r++)
            for (int c = 0; c < W; c++) m[(Py_ssize_t)r * W + c] = 1 | (used[r] & used[H + c]);
    }
    PyMem_Free(used);
    return out;
}

/* Whether clues.clue_problems finds nothing: every clue fits its line (block lengths plus a gap between blocks of
 * one colour) and every colour fills as many cells by the rows as by the columns. */
static PyObject *Lines_clues_fit(Lines *g, PyObject *noargs) {
    (void)noargs;
    long long total[32] = {0};
    for (int line = 0; line < g->n_lines; line++) {
        long long need = 0;
        for (int i = g->clue_start[line]; i < g->clue_start[line + 1]; i++) {
            need += g->len[i] + (i > g->clue_start[line] && g->col[i] == g->col[i - 1]);
            total[g->col[i]] += line < g->height ? g->len[i] : -(long long)g->len[i];
        }
        if (need > line_len(g, line)) Py_RETURN_FALSE;
    }
    for (int c = 0; c < 32; c++)
        if (total[c]) Py_RETURN_FALSE;
    Py_RETURN_TRUE;
}

/* solve_line(clue, domain[, cells_only]) and deductions(clue, domain[, cells_only]): one line from Python,
 * complete logic's masks, or those and the overlap rule's as a pair (the grade reads both for every line
 * it reads); None when no placement fits. cells_only solves cell by cell even under 64 cells. */
enum { LINE_COMPLETE, LINE_BOTH };

static PyObject *masks_tuple(const mask_t *m, int n) {
    PyObject *t = PyTuple_New(n);
    for (int i = 0; t && i < n; i++) {
        PyObject *v = PyLong_FromUnsignedLong(m[i]);
        if (!v) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

static PyObject *line_query(PyObject *args, int what) {
    PyObject *clue_obj, *domain_obj;
    int cells_only = 0;
    if (!PyArg_ParseTuple(args, "OO|p", &clue_obj, &domain_obj, &cells_only)) return NULL;
    PyObject *fast = PySequence_Fast(domain_obj, "domain must be a sequence of masks");
    if (!fast) return NULL;
    int n = (int)PySequence_Fast_GET_SIZE(fast);
    mask_t *d = PyMem_Malloc(sizeof(mask_t) * (n + 1)), *seen = PyMem_Malloc(sizeof(mask_t) * (n + 1));
    int *len = PyMem_Malloc(sizeof(int) * (n + 1)), *col = PyMem_Malloc(sizeof(int) * (n + 1));
    Work w = {0};
    PyObject *result = NULL;
    if (!d || !seen || !len || !col) {
        PyErr_NoMemory();
        goto done;
    }
    for (int t = 0; t < n; t++) {
        unsigned long v = PyLong_AsUnsignedLong(PySequence_Fast_GET_ITEM(fast, t));
        if (PyErr_Occurred()) goto done;
        d[t] = (mask_t)v;
    }
    int k = parse_clue(clue_obj, len, col, n);
    if (k < 0) goto done;
    if (work_reserve(&w, n, k) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    Clue c = {k, len, col};
    w.cells_only = cells_only;
    if (!solve_line(&c, &w, n, d)) {
        result = Py_None;
        Py_INCREF(result);
        goto done;
    }
    if (what == LINE_BOTH) {
        overlap_rule(&c, &w, n, d, seen);
        PyObject *full = masks_tuple(w.out, n), *seen_t = full ? masks_tuple(seen, n) : NULL;
        result = seen_t ? PyTuple_Pack(2, full, seen_t) : NULL;
        Py_XDECREF(full);
        Py_XDECREF(seen_t);
    } else {
        result = masks_tuple(w.out, n);
    }
done:
    Py_DECREF(fast);
    PyMem_Free(d);
    PyMem_Free(seen);
    PyMem_Free(len);
    PyMem_Free(col);
    work_free(&w);
    return result;
}

static PyObject *module_solve_line(PyObject *self, PyObject *args) {
    (void)self;
    return line_query(args, LINE_COMPLETE);
}

static PyObject *module_deductions(PyObject *self, PyObject *args) {
    (void)self;
    return line_query(args, LINE_BOTH);
}

/* Whether one line of colour bytes (stride apart) has the blocks of clue, a sequence of (length, colour) pairs:
 * its maximal runs of one non-zero value, in order. 1 yes, 0 no, -1 an error set (a clue that is not pairs of ints).
 * clues.py's _clue is the reference. */
static int line_meets(const unsigned char *cell, Py_ssize_t stride, Py_ssize_t n, PyObject *clue) {
    PyObject *fast = PySequence_Fast(clue, "a clue must be a sequence of (length, colour) pairs");
    if (!fast) return -1;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(fast), b = 0, t = 0;
    int ok = 1;
    while (ok && t < n) {
        unsigned char v = cell[t * stride];
        Py_ssize_t s = t;
        while (t < n && cell[t * stride] == v) t++;
        if (!v) continue;
        if (b == k) {
            ok = 0;
            break;
        }
        PyObject *block = PySequence_Fast_GET_ITEM(fast, b);
        if (!PyTuple_Check(block) || PyTuple_GET_SIZE(block) != 2) {
            PyErr_SetString(PyExc_TypeError, "a block must be a (length, colour) tuple");
            ok = -1;
            break;
        }
        long length = PyLong_AsLong(PyTuple_GET_ITEM(block, 0)), colour = PyLong_AsLong(PyTuple_GET_ITEM(block, 1));
        if ((length == -1 || colour == -1) && PyErr_Occurred()) {
            ok = -1;
            break;
        }
        ok = length == t - s && colour == v;
        b++;
    }
    Py_DECREF(fast);
    return ok == 1 && b != k ? 0 : ok;
}

static PyObject *module_open_count(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer buf;
    if (!PyArg_ParseTuple(args, "y*", &buf)) return NULL;
    Py_ssize_t open = 0, n = buf.len / (Py_ssize_t)sizeof(mask_t);
    const mask_t *m = buf.buf;
    if (buf.itemsize != sizeof(mask_t)) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_TypeError, "masks must be an array('I')");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) open += (m[i] & (m[i] - 1)) != 0;
    PyBuffer_Release(&buf);
    return PyLong_FromSsize_t(open);
}

static PyObject *module_grid_meets(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer buf;
    int W, H;
    PyObject *lines, *result = NULL;
    if (!PyArg_ParseTuple(args, "y*iiO", &buf, &W, &H, &lines)) return NULL;
    PyObject *fast = PySequence_Fast(lines, "lines must be a sequence of clues");
    if (!fast) goto done;
    if (W < 1 || H < 1 || buf.len != (Py_ssize_t)W * H || PySequence_Fast_GET_SIZE(fast) != (Py_ssize_t)W + H) {
        PyErr_SetString(PyExc_ValueError, "cells must be width * height bytes and lines height + width clues");
        goto done;
    }
    const unsigned char *cells = buf.buf;
    int ok = 1;
    for (int i = 0; ok == 1 && i < H + W; i++) {
        PyObject *clue = PySequence_Fast_GET_ITEM(fast, i);
        ok = i < H ? line_meets(cells + (Py_ssize_t)i * W, 1, W, clue) : line_meets(cells + (i - H), W, H, clue);
    }
    if (ok >= 0) result = PyBool_FromLong(ok);
done:
    Py_XDECREF(fast);
    PyBuffer_Release(&buf);
    return result;
}

static PyMethodDef module_methods[] = {
    {"open_count", module_open_count, METH_VARARGS,
     "open_count(masks) -> how many cells of an array('I') of masks still have two or more colours"},
    {"grid_meets", module_grid_meets, METH_VARARGS,
     "grid_meets(cells, width, height, lines) -> whether the grid of colour bytes has the clues lines (rows, then "
     "columns): the check every reported solution passes"},
    {"clause_lists", module_clause_lists, METH_VARARGS,
     "clause_lists(flat, start, count) -> (up to count clauses as lists, offset of the next)"},
    {"solve_line", module_solve_line, METH_VARARGS,
     "solve_line(clue, domain[, cells_only]) -> narrowed masks, or None (cells_only: never a word at a time)"},
    {"deductions", module_deductions, METH_VARARGS,
     "deductions(clue, domain[, cells_only]) -> (solve_line's masks, overlap's masks) in one pass, or None"},
    {NULL}};

static PyMethodDef Lines_methods[] = {
    {"propagate", (PyCFunction)Lines_propagate, METH_VARARGS,
     "propagate(masks, lines, end) -> changed cells, or None on a contradiction; TimeoutError after end"},
    {"probe", (PyCFunction)Lines_probe, METH_VARARGS,
     "probe(masks, end) -> True if solved, False if not, None on a contradiction; TimeoutError after end"},
    {"refutations", (PyCFunction)Lines_refutations, METH_VARARGS,
     "refutations(masks, end) -> bytes: int32 (cell, values whose assumption meets a contradiction); TimeoutError after end"},
    {"forget_sweeps", (PyCFunction)Lines_forget_sweeps, METH_NOARGS, "forget_sweeps(): drop what refutations kept"},
    {"encode", (PyCFunction)Lines_encode, METH_VARARGS,
     "encode(masks, end[, implications]) -> (n_vars, flat clauses (int32, 0 after each), clause count, first variable of each cell), or None on a contradiction"},
    {"replay_lines", (PyCFunction)Lines_replay_lines, METH_VARARGS,
     "replay_lines(masks, lines, step, n_kinds, end) -> (status, passes, line reads, hard lines, kinds): the grade's line logic"},
    {"depth", (PyCFunction)Lines_depth, METH_VARARGS, "depth(masks, cell, value, limit) -> passes to a contradiction (the grade's lookahead depth)"},
    {"clues_fit", (PyCFunction)Lines_clues_fit, METH_NOARGS,
     "clues_fit() -> whether clues.clue_problems finds nothing (every clue fits its line, colour totals agree)"},
    {"initial_masks", (PyCFunction)Lines_initial_masks, METH_NOARGS,
     "initial_masks() -> bytes: uint32 starting mask of each cell (background plus the colours its row and column use)"},
    {"implications", (PyCFunction)Lines_implications, METH_NOARGS,
     "implications() -> bytes: int32 (cell, colour, other cell, colour ruled out) found by the last probe"},
    {"ladder_phases", (PyCFunction)Lines_ladder_phases, METH_VARARGS,
     "ladder_phases(masks, messages, colours, ladders) -> bytes: int32 phase literals of the ladder variables"},
    {"two_solutions", (PyCFunction)Lines_two_solutions, METH_VARARGS,
     "two_solutions(masks, budget, steps, end) -> (up to two solutions as joined bytes of colours, whether the search was exhaustive, whether the second is the first's swap partner); TimeoutError after end"},
    {"guess_two", (PyCFunction)Lines_guess_two, METH_VARARGS,
     "guess_two(masks, rounds, tries, failures, more, cycle_rows, end) -> (first, second, how): a guessed 0/1 grid "
     "and one beside it (None when not found), how the second was found; TimeoutError after end"},
    {"move_cycle", (PyCFunction)Lines_move_cycle, METH_VARARGS,
     "move_cycle(values, masks, cycle_rows) -> the 0/1 grid with a cycle of block moves made in its open cells, or None"},
    {"bp", (PyCFunction)Lines_bp, METH_VARARGS,
     "bp(masks, messages, colours, rounds, damping, end) -> bytes: each cell's likeliest colour after more rounds"},
    {NULL}};

static PyGetSetDef Lines_getset[] = {{"line_runs", (getter)Lines_get_runs, NULL, "line-solver runs so far", NULL},
                                     {NULL}};

static PyTypeObject LinesType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "nonogen.solve._linelogic.Lines",
    .tp_doc = "Line logic over a grid of uint32 colour masks: Lines(height, width, clues).",
    .tp_basicsize = sizeof(Lines),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Lines_init,
    .tp_dealloc = (destructor)Lines_dealloc,
    .tp_methods = Lines_methods,
    .tp_getset = Lines_getset,
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_linelogic",
                                    "Line logic, propagation and probing in C (see line.py for the reference).", -1,
                                    module_methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__linelogic(void) {
    if (PyType_Ready(&LinesType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&LinesType);
    if (PyModule_AddObject(m, "Lines", (PyObject *)&LinesType) < 0) {
        Py_DECREF(&LinesType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
