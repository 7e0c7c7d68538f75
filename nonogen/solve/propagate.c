/* Line logic to a fixpoint over the grid, undo, and probing (Grid.propagate and Grid.probe in
 * propagate.py); probing also records the implications the SAT encoding turns into clauses. */
#include "linelogic.h"

int record_change(Lines *g, int cell, mask_t before) {
    if (g->n_changed == g->cap_changed) {
        int cap = g->cap_changed ? 2 * g->cap_changed : 1024;
        int *ch = PyMem_Realloc(g->changed, sizeof(int) * cap);
        if (!ch) return -1;
        g->changed = ch;
        mask_t *old = PyMem_Realloc(g->old, sizeof(mask_t) * cap);
        if (!old) return -1;
        g->old = old;
        g->cap_changed = cap;
    }
    g->changed[g->n_changed] = cell;
    g->old[g->n_changed] = before;
    g->n_changed++;
    return 0;
}

/* Line logic to a fixpoint from the queued lines; changes are appended to g->changed. */
int propagate(Lines *g, mask_t *masks, const int *lines, int n_start) {
    int head = 0, tail = 0, size = g->n_lines, count = 0;
    memset(g->queued, 0, g->n_lines);
    for (int j = 0; j < n_start; j++) {
        int line = lines[j];
        if (!g->queued[line]) {
            g->queued[line] = 1;
            g->queue[tail] = line;
            tail = (tail + 1) % size;
            count++;
        }
    }
    while (count) {
        int line = g->queue[head];
        head = (head + 1) % size;
        count--;
        g->queued[line] = 0;
        int n = line_len(g, line);
        /* the clock is read every 64 steps, a line weighing more the longer its cells x blocks: one
         * 2000-cell line of 1500 blocks takes milliseconds, and 64 of them overran --timeout by 0.9 s */
        unsigned long before = g->steps;
        g->steps += 1 + (unsigned long)n * (unsigned long)line_clue(g, line).k / 1024;
        if (g->end >= 0 && (before >> 6) != (g->steps >> 6) && now() > g->end) return TIMEOUT;
        read_cells(g, line, n, masks, g->line_in);
        const mask_t *out = line_result(g, line, n, g->line_in);
        if (!out) return CONTRADICTION;
        for (int t = 0; t < n; t++) {
            if (out[t] == g->line_in[t]) continue;
            int cell = line_cell(g, line, t);
            if (record_change(g, cell, masks[cell]) < 0) return NOMEM;
            masks[cell] = out[t];
            int other = crossing_line(g, line, t);
            if (!g->queued[other]) {
                g->queued[other] = 1;
                g->queue[tail] = other;
                tail = (tail + 1) % size;
                count++;
            }
        }
    }
    return OK;
}

void undo_to(Lines *g, mask_t *masks, int mark) {
    while (g->n_changed > mark) {
        g->n_changed--;
        masks[g->changed[g->n_changed]] = g->old[g->n_changed];
    }
}

/* What a surviving probe branch implies: "cell has the colour tried" rules out, in every cell the
 * branch narrowed, each colour it lost. They hold in every solution (the branch only used line
 * logic), and SAT gets them as binary clauses: its unit propagation alone does not see them.
 * Only the last round of probing is kept (earlier rounds are redone against narrower masks);
 * at most IMPL_MAX of them. */
#define IMPL_MAX (1u << 20)

static void record_implications(Lines *g, const mask_t *masks, int cell, int mark, int *stamp, int branch) {
    int colour = colour_of(masks[cell]);
    for (int j = mark; j < g->n_changed; j++) {
        int other = g->changed[j];
        if (stamp[other] == branch) continue; /* changed twice: its first record has the mask before */
        stamp[other] = branch;
        for (mask_t lost = g->old[j] & ~masks[other]; lost; lost &= lost - 1) {
            if (g->n_impl + 4 > 4 * (size_t)IMPL_MAX || grow_ints(&g->impl, &g->cap_impl, g->n_impl + 4) < 0)
                return; /* fewer clauses, same answers */
            int *q = g->impl + g->n_impl;
            q[0] = cell;
            q[1] = colour;
            q[2] = other;
            q[3] = __builtin_ctz(lost);
            g->n_impl += 4;
        }
    }
}

/* Probing, as Grid.probe in propagate.py: contradictions and branch agreement narrow cells. */
static int probe(Lines *g, mask_t *masks, int *solved) {
    mask_t *agreed = PyMem_Malloc(sizeof(mask_t) * (size_t)g->n_cells);
    int *cand = PyMem_Malloc(sizeof(int) * (size_t)g->n_cells);
    int *relines = PyMem_Malloc(sizeof(int) * (size_t)g->n_lines);
    int *stamp = PyMem_Calloc((size_t)g->n_cells, sizeof(int));
    if (!agreed || !cand || !relines || !stamp) {
        PyMem_Free(agreed); PyMem_Free(cand); PyMem_Free(relines); PyMem_Free(stamp);
        return NOMEM;
    }
    int branch = 0;
    g->n_impl = 0;
    /* Cells are visited round and round; the fixpoint is reached once a whole
     * round since the last narrowing found nothing (the order does not change it). */
    int status = OK, quiet = 0;
    for (int cell = 0; quiet < g->n_cells && status == OK; cell = cell + 1 == g->n_cells ? 0 : cell + 1) {
        quiet++;
        mask_t mask = masks[cell];
        if (!(mask & (mask - 1))) continue;
        if (g->end >= 0 && now() > g->end) {
            status = TIMEOUT;
            break;
        }
        int n_cand = -1;
        for (mask_t rest = mask; rest; rest &= rest - 1) {
            int mark = g->n_changed;
            masks[cell] = rest & (~rest + 1);
            int st = propagate_cell(g, masks, cell);
            if (st == OK) record_implications(g, masks, cell, mark, stamp, ++branch);
            if (st == OK && n_cand < 0) {
                /* the first surviving branch: the cell and its changes are the candidates */
                n_cand = 0;
                cand[n_cand] = cell;
                agreed[n_cand++] = masks[cell];
                for (int j = mark; j < g->n_changed; j++) {
                    cand[n_cand] = g->changed[j];
                    agreed[n_cand++] = masks[g->changed[j]];
                }
            } else if (st == OK) {
                /* a cell this branch left alone holds its old mask: OR-ing keeps nothing */
                for (int j = 0; j < n_cand; j++) agreed[j] |= masks[cand[j]];
            }
            undo_to(g, masks, mark);
            masks[cell] = mask;
            if (st != OK && st != CONTRADICTION) {
                status = st;
                break;
            }
        }
        if (status != OK) break;
        if (n_cand < 0) { /* every value contradicts */
            status = CONTRADICTION;
            break;
        }
        /* keep what all branches agree on; re-run the lines of the narrowed cells */
        int n_re = 0;
        memset(g->queued, 0, g->n_lines);
        for (int j = 0; j < n_cand; j++) {
            int i = cand[j];
            if (agreed[j] == masks[i]) continue; /* cand may list a cell twice: the first entry narrows it */
            masks[i] = agreed[j];
            for (int q = 0, line; q < 2; q++)
                if (!g->queued[line = cell_line(g, i, q)]) {
                    g->queued[line] = 1;
                    relines[n_re++] = line;
                }
        }
        if (n_re) {
            int mark = g->n_changed;
            status = propagate(g, masks, relines, n_re);
            g->n_changed = mark; /* kept: these are facts now */
            quiet = 0;
            g->n_impl = 0; /* the next round finds them again, against the narrower grid */
        }
    }
    PyMem_Free(agreed);
    PyMem_Free(cand);
    PyMem_Free(relines);
    PyMem_Free(stamp);
    if (status == OK) {
        *solved = 1;
        for (int i = 0; i < g->n_cells; i++)
            if (masks[i] & (masks[i] - 1)) {
                *solved = 0;
                break;
            }
    }
    return status;
}

PyObject *Lines_propagate(Lines *g, PyObject *args) {
    PyObject *mobj, *lines_obj;
    double end;
    if (!PyArg_ParseTuple(args, "OOd", &mobj, &lines_obj, &end)) return NULL;
    Py_buffer view;
    if (get_masks(g, mobj, &view) < 0) return NULL;
    PyObject *fast = PySequence_Fast(lines_obj, "lines must be a sequence of line indices");
    if (!fast) {
        PyBuffer_Release(&view);
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    int *lines = PyMem_Malloc(sizeof(int) * (n + 1));
    for (Py_ssize_t j = 0; lines && j < n; j++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, j));
        if (v < 0 || v >= g->n_lines) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_IndexError, "line index out of range");
            PyMem_Free(lines);
            lines = NULL;
            break;
        }
        lines[j] = (int)v;
    }
    Py_DECREF(fast);
    if (!lines) {
        PyBuffer_Release(&view);
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    }
    g->end = end;
    g->n_changed = 0;
    int status = propagate(g, (mask_t *)view.buf, lines, (int)n);
    PyMem_Free(lines);
    PyObject *result;
    if (status == CONTRADICTION) {
        result = Py_None;
        Py_INCREF(result);
    } else if (status != OK) {
        result = raise_status(status);
    } else {
        result = PyList_New(g->n_changed);
        for (int j = 0; result && j < g->n_changed; j++) PyList_SET_ITEM(result, j, PyLong_FromLong(g->changed[j]));
    }
    g->n_changed = 0;
    PyBuffer_Release(&view);
    return result;
}

PyObject *Lines_probe(Lines *g, PyObject *args) {
    PyObject *mobj;
    double end;
    if (!PyArg_ParseTuple(args, "Od", &mobj, &end)) return NULL;
    Py_buffer view;
    if (get_masks(g, mobj, &view) < 0) return NULL;
    g->end = end;
    g->n_changed = 0;
    int solved = 0;
    int status = probe(g, (mask_t *)view.buf, &solved);
    g->n_changed = 0;
    PyBuffer_Release(&view);
    if (status == CONTRADICTION) Py_RETURN_NONE;
    if (status != OK) return raise_status(status);
    return PyBool_FromLong(solved);
}
