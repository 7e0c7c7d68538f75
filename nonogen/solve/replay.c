/* The grade's line logic in C: _Replay.line_logic in grade.py (the reference and the fallback), the
 * same steps in the same order, so the measures and the replay's steps are exactly Python's.
 *
 * Overlap passes read the lines the pass before touched, in line order, each seeing what the lines
 * before it wrote; a line where complete line logic finds more than the overlap rule is remembered
 * with its gain. When the passes stall, the remembered line of most gain (ties: the lowest line)
 * gets its complete deduction, and the passes resume from the lines it touched and itself.
 * Grading spent most of its time in Python's bookkeeping around these line reads. */
#include "linelogic.h"

enum { KIND_OVERLAP = 'o', KIND_HARD = 'h' };

typedef struct {
    Lines *g;
    mask_t *masks;
    int *step;
    int n_kinds;               /* len(kinds) in Python: the number the next closed step gets */
    char *kinds;               /* kinds closed by this call */
    int n_new;
    int *fixed, n_fixed;       /* cells the step under way has fixed */
    int *gain;                 /* per line: cells complete logic finds beyond the overlap, 0: none */
    unsigned char *lines, *touched;
    mask_t *current, *full, *seen;
    long passes, line_reads, hard_lines;
} Replay;

static void read_line(Replay *r, int line, int n) {
    read_cells(r->g, line, n, r->masks, r->current);
}

/* _Replay._close: the step under way becomes the next step when it fixed cells. */
static void close_step(Replay *r, char kind) {
    if (!r->n_fixed) return;
    for (int j = 0; j < r->n_fixed; j++) r->step[r->fixed[j]] = r->n_kinds;
    r->n_kinds++;
    r->kinds[r->n_new++] = kind;
    r->n_fixed = 0;
}

/* _Replay._apply: write `narrowed` over the line, mark the crossing lines of the cells that changed. */
static int apply(Replay *r, int line, int n, const mask_t *narrowed) {
    for (int t = 0; t < n; t++)
        if (!narrowed[t]) return CONTRADICTION;
    for (int t = 0; t < n; t++) {
        mask_t v = narrowed[t];
        if (v == r->current[t]) continue;
        int cell = line_cell(r->g, line, t);
        r->masks[cell] = v;
        r->touched[crossing_line(r->g, line, t)] = 1;
        if (!(v & (v - 1))) r->fixed[r->n_fixed++] = cell;
    }
    return OK;
}

/* _Replay.overlap_passes: passes until no line changes, starting from the lines marked in r->lines. */
static int overlap_passes(Replay *r, double end) {
    Lines *g = r->g;
    for (;;) {
        int any = 0;
        for (int line = 0; line < g->n_lines && !any; line++) any = r->lines[line];
        if (!any) return OK;
        if (end >= 0 && now() >= end) return TIMEOUT;
        r->passes++;
        memset(r->touched, 0, g->n_lines);
        for (int line = 0; line < g->n_lines; line++) {
            if (!r->lines[line]) continue;
            r->line_reads++;
            int n = line_len(g, line);
            read_line(r, line, n);
            Clue c = line_clue(g, line);
            if (!solve_line(&c, &g->work, n, r->current)) return CONTRADICTION;
            if (!memcmp(g->work.out, r->current, sizeof(mask_t) * n)) {
                r->gain[line] = 0;
                continue;
            }
            memcpy(r->full, g->work.out, sizeof(mask_t) * n);
            overlap_rule(&c, &g->work, n, r->current, r->seen);
            int gained = 0;
            for (int t = 0; t < n; t++) gained += r->full[t] != r->seen[t];
            r->gain[line] = gained;
            if (apply(r, line, n, r->seen) != OK) return CONTRADICTION;
        }
        close_step(r, KIND_OVERLAP);
        unsigned char *swap = r->lines;
        r->lines = r->touched;
        r->touched = swap;
    }
}

/* _Replay.line_logic: overlap passes; when they stall, the hard line deduction that gives most. */
static int line_logic(Replay *r, double end) {
    Lines *g = r->g;
    int status = overlap_passes(r, end);
    while (status == OK) {
        int best = -1;
        for (int line = 0; line < g->n_lines; line++)
            if (r->gain[line] && (best < 0 || r->gain[line] > r->gain[best])) best = line;
        if (best < 0) return OK;
        r->gain[best] = 0;
        int n = line_len(g, best);
        read_line(r, best, n);
        Clue c = line_clue(g, best);
        if (!solve_line(&c, &g->work, n, r->current)) return CONTRADICTION;
        memset(r->touched, 0, g->n_lines);
        if (apply(r, best, n, g->work.out) != OK) return CONTRADICTION;
        close_step(r, KIND_HARD);
        r->hard_lines++;
        unsigned char *swap = r->lines;
        r->lines = r->touched;
        r->touched = swap;
        r->lines[best] = 1;
        status = overlap_passes(r, end);
    }
    return status;
}

/* replay_lines(masks, lines, step, n_kinds, end) -> (status, passes, line reads, hard lines, kinds):
 * status OK, CONTRADICTION or TIMEOUT; kinds the closed steps' kinds as bytes ('o' overlap,
 * 'h' hard line). masks and step (array('i') of the cells' steps) are updated in place. */
PyObject *Lines_replay_lines(Lines *g, PyObject *args) {
    PyObject *masks_obj, *lines_obj, *step_obj;
    int n_kinds;
    double end;
    if (!PyArg_ParseTuple(args, "OOOid", &masks_obj, &lines_obj, &step_obj, &n_kinds, &end)) return NULL;
    Py_buffer mv, sv;
    if (get_masks(g, masks_obj, &mv) < 0) return NULL;
    if (PyObject_GetBuffer(step_obj, &sv, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&mv);
        return NULL;
    }
    PyObject *result = NULL;
    Replay r = {.g = g, .masks = mv.buf, .step = sv.buf, .n_kinds = n_kinds};
    size_t L = (size_t)g->n_lines, C = (size_t)g->n_cells, M = (size_t)g->max_len + 1;
    r.kinds = PyMem_Malloc(C + 1);
    r.fixed = PyMem_Malloc(sizeof(int) * C);
    r.gain = PyMem_Calloc(L, sizeof(int));
    r.lines = PyMem_Calloc(L, 1);
    r.touched = PyMem_Calloc(L, 1);
    r.current = PyMem_Malloc(sizeof(mask_t) * M);
    r.full = PyMem_Malloc(sizeof(mask_t) * M);
    r.seen = PyMem_Malloc(sizeof(mask_t) * M);
    unsigned char *lines0 = r.lines, *touched0 = r.touched;
    if (sv.itemsize != sizeof(int) || sv.len != (Py_ssize_t)(C * sizeof(int)) ||
        !sv.format || strchr("il", sv.format[strlen(sv.format) - 1]) == NULL) {
        PyErr_SetString(PyExc_ValueError, "step must be a writable array('i') of height*width items");
        goto done;
    }
    if (!r.kinds || !r.fixed || !r.gain || !r.lines || !r.touched || !r.current || !r.full || !r.seen) {
        PyErr_NoMemory();
        goto done;
    }
    PyObject *fast = PySequence_Fast(lines_obj, "lines must be a sequence of line numbers");
    if (!fast) goto done;
    for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(fast); j++) {
        long line = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, j));
        if (line < 0 || line >= g->n_lines) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "line number out of range");
            Py_DECREF(fast);
            goto done;
        }
        r.lines[line] = 1;
    }
    Py_DECREF(fast);
    int status = line_logic(&r, end);
    result = Py_BuildValue("(illly#)", status, r.passes, r.line_reads, r.hard_lines, r.kinds, (Py_ssize_t)r.n_new);
done:
    PyBuffer_Release(&mv);
    PyBuffer_Release(&sv);
    PyMem_Free(r.kinds);
    PyMem_Free(r.fixed);
    PyMem_Free(r.gain);
    PyMem_Free(lines0);
    PyMem_Free(touched0);
    PyMem_Free(r.current);
    PyMem_Free(r.full);
    PyMem_Free(r.seen);
    return result;
}

/* ---- the depth of a lookahead: _Replay._depth ------------------------------------------------- */

/* The passes from trial (value assumed) to a contradiction, at most limit. Each pass reads the lines the pass
 * before touched in ascending order (flags in lines/touched, one byte per line), each read seeing the ones before
 * it, as _Replay._depth does. */
static int depth(Lines *g, mask_t *trial, char *lines, char *touched, mask_t *current, int limit) {
    for (int passes = 1; passes < limit; passes++) {
        memset(touched, 0, g->n_lines);
        for (int line = 0; line < g->n_lines; line++) {
            if (!lines[line]) continue;
            int n = line_len(g, line);
            read_cells(g, line, n, trial, current);
            Clue c = line_clue(g, line);
            if (!solve_line(&c, &g->work, n, current)) return passes;
            for (int t = 0; t < n; t++) {
                if (g->work.out[t] == current[t]) continue;
                trial[line_cell(g, line, t)] = g->work.out[t];
                touched[crossing_line(g, line, t)] = 1;
            }
        }
        char *swap = lines;
        lines = touched;
        touched = swap;
    }
    return limit;
}

/* depth(masks, cell, value, limit) -> passes of line logic from value in cell to a contradiction (at most limit). */
PyObject *Lines_depth(Lines *g, PyObject *args) {
    PyObject *masks_obj;
    int cell, limit;
    unsigned long value;
    if (!PyArg_ParseTuple(args, "Oiki", &masks_obj, &cell, &value, &limit)) return NULL;
    if (cell < 0 || cell >= g->n_cells) {
        PyErr_SetString(PyExc_ValueError, "cell out of range");
        return NULL;
    }
    Py_buffer mv;
    if (get_masks(g, masks_obj, &mv) < 0) return NULL;
    mask_t *trial = PyMem_Malloc(sizeof(mask_t) * g->n_cells), *current = PyMem_Malloc(sizeof(mask_t) * (g->max_len + 1));
    char *a = PyMem_Calloc(g->n_lines, 1), *b = PyMem_Calloc(g->n_lines, 1);
    PyObject *result = NULL;
    if (!trial || !current || !a || !b) {
        PyErr_NoMemory();
        goto done;
    }
    memcpy(trial, mv.buf, sizeof(mask_t) * g->n_cells);
    trial[cell] = (mask_t)value;
    a[cell_line(g, cell, 0)] = a[cell_line(g, cell, 1)] = 1;
    result = PyLong_FromLong(depth(g, trial, a, b, current, limit));
done:
    PyBuffer_Release(&mv);
    PyMem_Free(trial);
    PyMem_Free(current);
    PyMem_Free(a);
    PyMem_Free(b);
    return result;
}
