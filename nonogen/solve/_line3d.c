/* The Python module _line3d: argument checks around line3d.c. line3d.py stays the reference and the fallback. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "line3d.h"

/* solve_line(count, groups, known) -> tuple of -1/0/1, or None: what line3d.solve_line_3d answers. */
static PyObject *py_solve_line(PyObject *self, PyObject *args) {
    int count, groups;
    PyObject *seq;
    if (!PyArg_ParseTuple(args, "iiO", &count, &groups, &seq)) return NULL;
    PyObject *fast = PySequence_Fast(seq, "known must be a sequence of -1/0/1");
    if (!fast) return NULL;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    if (len > L3_MAX_LEN || count < 0 || groups < 1 || groups > 3) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "line longer than 127 cubes or clue out of range");
        return NULL;
    }
    int8_t known[L3_MAX_LEN], out[L3_MAX_LEN];
    for (Py_ssize_t i = 0; i < len; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return NULL;
        }
        known[i] = (int8_t)(v < 0 ? -1 : (v ? 1 : 0));
    }
    Py_DECREF(fast);
    if (count > len || l3_solve_line(count, groups, (int)len, known, out) < 0) Py_RETURN_NONE;
    PyObject *result = PyTuple_New(len);
    for (Py_ssize_t i = 0; result && i < len; i++) PyTuple_SET_ITEM(result, i, PyLong_FromLong(out[i]));
    return result;
}

static int get(PyObject *obj, Py_buffer *view, const char *format, int writable) {
    int flags = PyBUF_FORMAT | PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0) return -1;
    int same = strcmp(view->format, format) == 0
               || (strcmp(format, "q") == 0 && strcmp(view->format, "l") == 0 && view->itemsize == 8);
    if (!same) {
        PyErr_Format(PyExc_TypeError, "expected an array of format '%s', got '%s'", format, view->format);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* Whether the box's arrays index only what exists: lines of at most L3_MAX_LEN cubes, cells and lines in range. */
static int box_fits(const L3Box *b) {
    if (b->line_start[0] != 0 || b->cell_start[0] != 0) return 0;
    for (int32_t k = 0; k < b->n_lines; k++) {
        int32_t len = b->line_start[k + 1] - b->line_start[k];
        if (len < 0 || len > L3_MAX_LEN || b->count[k] < 0 || b->count[k] > len || b->groups[k] < 1 || b->groups[k] > 3)
            return 0;
    }
    for (int32_t i = 0; i < b->line_start[b->n_lines]; i++)
        if (b->line_cells[i] < 0 || b->line_cells[i] >= b->n_cells) return 0;
    for (int32_t c = 0; c < b->n_cells; c++)
        if (b->cell_start[c + 1] < b->cell_start[c]) return 0;
    for (int32_t j = 0; j < b->cell_start[b->n_cells]; j++)
        if (b->cell_lines[j] < 0 || b->cell_lines[j] >= b->n_lines) return 0;
    return 1;
}

/* The box tuple last found to fit, held: LineIndex3D asks about one box thousands of times and never changes its
 * arrays, so a box is checked once, not at every call (a 40-cube box's check costs a tenth of a millisecond). */
static PyObject *fitting_box = NULL;

static int box_ok(PyObject *box_obj, const L3Box *b) {
    if (box_obj == fitting_box) return 1;
    if (!box_fits(b)) return 0;
    Py_XDECREF(fitting_box);
    Py_INCREF(box_obj);
    fitting_box = box_obj;
    return 1;
}

/* The box of its six buffers (int32: line_start, line_cells, count, groups, cell_start, cell_lines), written to
 * *box when they fit together (see box_ok); 0 when they do not. */
static int box_of(PyObject *box_obj, const Py_buffer *v, L3Box *box) {
    *box = (L3Box){v[0].buf, v[1].buf, v[2].buf, v[3].buf, v[4].buf, v[5].buf,
                   (int32_t)(v[2].len / 4), (int32_t)(v[4].len / 4 - 1)};
    return v[0].len / 4 == box->n_lines + 1 && v[3].len / 4 == box->n_lines && box->n_cells >= 0
           && v[1].len / 4 >= box->line_start[box->n_lines] && v[5].len / 4 >= box->cell_start[box->n_cells]
           && box_ok(box_obj, box);
}

/* The memo's slots in a writable uint8 buffer: a power of two of them, 8-byte aligned; 0 when it is not one. */
static uint32_t memo_slots(const Py_buffer *view) {
    Py_ssize_t n = view->len / (Py_ssize_t)sizeof(L3Memo);
    if (n < 1 || n > (1 << 24) || (n & (n - 1)) || n * (Py_ssize_t)sizeof(L3Memo) != view->len
        || ((uintptr_t)view->buf & 7))
        return 0;
    return (uint32_t)n;
}

/* run(box, active, grid, start, synchronous, trace_cells, trace_lines, trace_len[, memo[, open]])
 *   -> (status, runs, passes, trace_len)
 * box = (line_start, line_cells, count, groups, cell_start, cell_lines), int32 arrays; active uint8; grid int8;
 * memo: None or a zeroed writable uint8 array of memo_size(slots) bytes, kept for later runs on the same box; open:
 * the grid's open cells when the caller counts them (-1: not known, the grid is looked at). */
static PyObject *py_run(PyObject *self, PyObject *args) {
    PyObject *box_obj, *objs[6], *active_obj, *grid_obj, *start_obj, *tc_obj, *tl_obj, *memo_obj = Py_None;
    int synchronous, trace_len;
    long long open = -1;
    if (!PyArg_ParseTuple(args, "O!OOOpOOi|OL", &PyTuple_Type, &box_obj, &active_obj, &grid_obj, &start_obj,
                          &synchronous, &tc_obj, &tl_obj, &trace_len, &memo_obj, &open))
        return NULL;
    if (!PyArg_ParseTuple(box_obj, "OOOOOO", &objs[0], &objs[1], &objs[2], &objs[3], &objs[4], &objs[5])) return NULL;
    Py_buffer v[12];
    int got = 0, ok = 1;
    for (; got < 6 && ok; got++) ok = get(objs[got], &v[got], "i", 0) == 0;
    if (ok) ok = get(active_obj, &v[got++], "B", 0) == 0;
    if (ok) ok = get(grid_obj, &v[got++], "b", 1) == 0;
    if (ok) ok = get(start_obj, &v[got++], "i", 0) == 0;
    if (ok) ok = get(tc_obj, &v[got++], "i", 1) == 0;
    if (ok) ok = get(tl_obj, &v[got++], "i", 1) == 0;
    if (ok && memo_obj != Py_None) ok = get(memo_obj, &v[got++], "B", 1) == 0;
    if (!ok) got--;  /* the last one failed and holds nothing */
    uint32_t slots = ok && memo_obj != Py_None ? memo_slots(&v[11]) : 0;
    if (ok && memo_obj != Py_None && !slots) {
        PyErr_SetString(PyExc_ValueError, "the memo is not a power of two of slots, 8-byte aligned");
        ok = 0;
    }
    PyObject *result = NULL;
    if (ok) {
        L3Box box;
        L3Run run = {v[6].buf, v[7].buf, v[8].buf, (int32_t)(v[8].len / 4), synchronous, v[9].buf, v[10].buf,
                     trace_len, 0, 0, slots ? v[11].buf : NULL, slots ? slots - 1 : 0, open < 0 ? -1 : open};
        int sizes_ok = box_of(box_obj, v, &box) && v[6].len == box.n_lines && v[7].len == box.n_cells
                       && v[9].len / 4 >= box.n_cells && v[10].len / 4 >= box.n_cells && trace_len >= 0
                       && trace_len <= box.n_cells;
        for (Py_ssize_t i = 0; sizes_ok && i < v[8].len / 4; i++)
            sizes_ok = run.start[i] >= 0 && run.start[i] < box.n_lines;
        if (!sizes_ok) {
            PyErr_SetString(PyExc_ValueError, "the arrays of a box do not fit together");
        } else {
            int status;
            Py_BEGIN_ALLOW_THREADS
            status = l3_run(&box, &run);
            Py_END_ALLOW_THREADS
            if (status == -2)
                PyErr_NoMemory();
            else
                result = Py_BuildValue("iLii", status, (long long)run.runs, run.passes, run.trace_len);
        }
    }
    for (int i = 0; i < got; i++) PyBuffer_Release(&v[i]);
    return result;
}

/* retract(box, active, line, (grid, when, attr), (log_cell, log_value, log_when, log_attr), heap, marked, start[, memo])
 *   -> (logged, n_start, dropped, runs): l3_retract, in place. grid int8, when int64, attr int32 of a cell each; the
 * log's four arrays (int32, int8, int64, int32) and heap (int32) of a cell each; marked (int64, every one INT64_MAX)
 * and start (int32) of a line each; memo as run's. */
static PyObject *py_retract(PyObject *self, PyObject *args) {
    PyObject *box_obj, *cells_obj, *log_obj, *objs[18], *memo_obj = Py_None;
    int line;
    objs[17] = Py_None;
    if (!PyArg_ParseTuple(args, "O!OiO!O!OOO|O", &PyTuple_Type, &box_obj, &objs[6], &line, &PyTuple_Type, &cells_obj,
                          &PyTuple_Type, &log_obj, &objs[14], &objs[15], &objs[16], &memo_obj))
        return NULL;
    if (!PyArg_ParseTuple(box_obj, "OOOOOO", &objs[0], &objs[1], &objs[2], &objs[3], &objs[4], &objs[5])
        || !PyArg_ParseTuple(cells_obj, "OOO", &objs[7], &objs[8], &objs[9])
        || !PyArg_ParseTuple(log_obj, "OOOO", &objs[10], &objs[11], &objs[12], &objs[13]))
        return NULL;
    objs[17] = memo_obj;
    Py_buffer v[18];
    const char *formats[18] = {"i", "i", "i", "i", "i", "i", "B", "b", "q", "i", "i", "b", "q", "i", "i", "q", "i", "B"};
    int wanted = memo_obj == Py_None ? 17 : 18, got = 0, ok = 1;
    for (; got < wanted && ok; got++) ok = get(objs[got], &v[got], formats[got], got >= 7) == 0;
    if (!ok) got--;
    uint32_t slots = ok && wanted == 18 ? memo_slots(&v[17]) : 0;
    if (ok && wanted == 18 && !slots) {
        PyErr_SetString(PyExc_ValueError, "the memo is not a power of two of slots, 8-byte aligned");
        ok = 0;
    }
    PyObject *result = NULL;
    if (ok) {
        L3Box box;
        int fits = box_of(box_obj, v, &box) && v[6].len == box.n_lines && line >= 0 && line < box.n_lines;
        for (int i = 7; fits && i <= 14; i++) fits = v[i].len / v[i].itemsize == box.n_cells;
        for (int i = 15; fits && i <= 16; i++) fits = v[i].len / v[i].itemsize == box.n_lines;
        /* attr and when need no check: a cell's attr is only compared with a line, and only a cell whose attr is one
         * of the box's lines is read again (retraction must not cost a pass over the box) */
        if (!fits) {
            PyErr_SetString(PyExc_ValueError, "the arrays of a box and its cells do not fit together");
        } else {
            L3Cells cells = {v[7].buf, v[8].buf, v[9].buf};
            L3Log log = {v[10].buf, v[11].buf, v[12].buf, v[13].buf, 0};
            int32_t n_start = 0, dropped = 0;
            int64_t runs = 0;
            Py_BEGIN_ALLOW_THREADS
            l3_retract(&box, v[6].buf, line, &cells, &log, v[14].buf, v[15].buf, v[16].buf, &n_start, &dropped,
                       slots ? v[17].buf : NULL, slots ? slots - 1 : 0, &runs);
            Py_END_ALLOW_THREADS
            result = Py_BuildValue("iiiL", log.n, n_start, dropped, (long long)runs);
        }
    }
    for (int i = 0; i < got; i++) PyBuffer_Release(&v[i]);
    return result;
}

/* memo_size() -> bytes of one memo slot (run's memo holds a power of two of them). */
static PyObject *py_memo_size(PyObject *self, PyObject *args) { return PyLong_FromSize_t(sizeof(L3Memo)); }

static PyMethodDef methods[] = {
    {"memo_size", py_memo_size, METH_NOARGS, "Bytes of one slot of run's memo."},
    {"retract", py_retract, METH_VARARGS, "Take a line's clue back from the cells line logic decided, in place; undo log."},
    {"solve_line", py_solve_line, METH_VARARGS, "Complete line logic for one Picross 3D line (None: no completion)."},
    {"run", py_run, METH_VARARGS, "Line logic over a box to a fixpoint, in place; (status, runs, passes, trace length)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_line3d", "Picross 3D line logic in C.", -1, methods};

PyMODINIT_FUNC PyInit__line3d(void) { return PyModule_Create(&module); }
