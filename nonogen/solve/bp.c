/* Belief propagation: phases for the SAT solver (search.py), for the cells (bp) and for the
 * block-start ladder variables of the encoding (ladder_phases). */
#include <math.h>

#include "linelogic.h"

/* Each cell has two factors, its row and its column. A line's message to a cell is the
 * distribution of the cell's colour over the line's placements, each placement weighted by
 * the product of the crossing lines' messages to its other cells (the extrinsic marginal).
 * It is computed exactly by the same forward/backward DP as solve_line, with weights:
 * F[i][t] is the weight of cells [0, t) holding blocks 0..i-1, G[i][t] that of cells [t, n)
 * holding blocks i..k-1. The beliefs are not a proof of anything: they only tell the SAT
 * solver which colour to try first for each cell (its phases). */

#define BP_EPS 1e-4

typedef struct {
    double *F, *G, *Pb, *lw, *w, *marg, *diff;
    int *cnt;
} BpWork;

static void bp_free(BpWork *b) {
    PyMem_Free(b->F); PyMem_Free(b->G); PyMem_Free(b->Pb); PyMem_Free(b->lw);
    PyMem_Free(b->w); PyMem_Free(b->marg); PyMem_Free(b->diff); PyMem_Free(b->cnt);
    memset(b, 0, sizeof(*b));
}

static int bp_alloc(BpWork *b, int n, int k, int C) {
    size_t W = (size_t)n + 2;
    b->F = PyMem_Malloc(sizeof(double) * (k + 1) * W);
    b->G = PyMem_Malloc(sizeof(double) * (k + 1) * W);
    b->Pb = PyMem_Malloc(sizeof(double) * (k + 1) * W);
    b->lw = PyMem_Malloc(sizeof(double) * C * W);
    b->w = PyMem_Malloc(sizeof(double) * C * W);
    b->marg = PyMem_Malloc(sizeof(double) * C * W);
    b->diff = PyMem_Malloc(sizeof(double) * C * W);
    b->cnt = PyMem_Malloc(sizeof(int) * C * W);
    if (!b->F || !b->G || !b->Pb || !b->lw || !b->w || !b->marg || !b->diff || !b->cnt) {
        bp_free(b);
        return -1;
    }
    return 0;
}

/* One line's messages: `in` holds the crossing lines' messages to its cells (n*C), `own`
 * this line's previous messages, replaced by the new ones (damped). Returns 0 when the
 * weights leave no placement (nothing is changed then). */
static int bp_line(const Clue *c, int n, const mask_t *d, const double *in, double *own, int C,
                   double damping, BpWork *b, double *starts) {
    const int k = c->k, W = n + 1;
    double *w = b->w, *lw = b->lw, *F = b->F, *G = b->G, *Pb = b->Pb;
    int *cnt = b->cnt;
    for (int t = 0; t < n; t++) {
        double top = 0;
        for (int a = 0; a < C; a++) {
            double v = ((d[t] >> a) & 1) ? (in[t * C + a] > BP_EPS ? in[t * C + a] : BP_EPS) : 0;
            w[t * C + a] = v;
            if (v > top) top = v;
        }
        for (int a = 0; a < C; a++) w[t * C + a] /= top; /* the likeliest colour weighs 1: no underflow */
    }
    for (int a = 0; a < C; a++) {
        lw[a * W] = 0;
        cnt[a * W] = 0;
        for (int t = 0; t < n; t++) {
            double v = w[t * C + a];
            lw[a * W + t + 1] = lw[a * W + t] + (v > 0 ? log(v) : 0);
            cnt[a * W + t + 1] = cnt[a * W + t] + (v > 0);
        }
    }
    for (int i = 0; i < k; i++) {
        int len = c->len[i], a = c->col[i];
        for (int s = 0; s < W; s++) {
            int e = s + len;
            Pb[i * W + s] = (e <= n && cnt[a * W + e] - cnt[a * W + s] == len) ? exp(lw[a * W + e] - lw[a * W + s]) : 0;
        }
    }
#define BG(t) w[(t) * C]
    F[0] = 1;
    for (int t = 0; t < n; t++) F[t + 1] = F[t] * BG(t);
    for (int i = 1; i <= k; i++) {
        int bl = i - 1, len = c->len[bl], same = bl > 0 && c->col[bl - 1] == c->col[bl];
        double *f = F + i * W;
        const double *prev = F + bl * W;
        f[0] = 0;
        for (int t = 1; t <= n; t++) {
            double v = f[t - 1] * BG(t - 1);
            int s = t - len;
            if (s >= 0 && Pb[bl * W + s] > 0) {
                double left = same ? (s >= 1 ? prev[s - 1] * BG(s - 1) : 0) : prev[s];
                v += left * Pb[bl * W + s];
            }
            f[t] = v;
        }
    }
    double Z = F[k * W + n];
    if (!(Z > 1e-280) || !isfinite(Z)) return 0;
    double *last = G + k * W;
    last[n] = 1;
    for (int t = n - 1; t >= 0; t--) last[t] = last[t + 1] * BG(t);
    for (int i = k - 1; i >= 0; i--) {
        int len = c->len[i], same = i + 1 < k && c->col[i + 1] == c->col[i];
        double *gg = G + i * W;
        const double *next = G + (i + 1) * W;
        gg[n] = 0;
        for (int t = n - 1; t >= 0; t--) {
            double v = BG(t) * gg[t + 1];
            int e = t + len;
            if (e <= n && Pb[i * W + t] > 0) {
                double right = same ? (e < n ? BG(e) * next[e + 1] : 0) : next[e];
                v += Pb[i * W + t] * right;
            }
            gg[t] = v;
        }
    }
    double *marg = b->marg, *diff = b->diff;
    memset(marg, 0, sizeof(double) * n * C);
    memset(diff, 0, sizeof(double) * C * W);
    for (int t = 0; t < n; t++) {
        double v = 0;
        for (int i = 0; i <= k; i++) v += F[i * W + t] * G[i * W + t + 1];
        marg[t * C] = v * BG(t); /* cell t is background between blocks i-1 and i */
    }
    for (int i = 0; i < k; i++) {
        int len = c->len[i], a = c->col[i];
        int same_prev = i > 0 && c->col[i - 1] == a, same_next = i + 1 < k && c->col[i + 1] == a;
        for (int s = 0; s + len <= n; s++) {
            double p = Pb[i * W + s];
            if (p <= 0) continue;
            int e = s + len;
            double left = same_prev ? (s >= 1 ? F[i * W + s - 1] * BG(s - 1) : 0) : F[i * W + s];
            double right = same_next ? (e < n ? BG(e) * G[(i + 1) * W + e + 1] : 0) : G[(i + 1) * W + e];
            p *= left * right;
            if (starts) starts[i * W + s] = p / Z;
            diff[a * W + s] += p;
            diff[a * W + e] -= p;
        }
    }
#undef BG
    for (int a = 1; a < C; a++) {
        double acc = 0;
        for (int t = 0; t < n; t++) {
            acc += diff[a * W + t];
            marg[t * C + a] = acc > 0 ? acc : 0;
        }
    }
    for (int t = 0; t < n; t++) {
        double total = 0;
        for (int a = 0; a < C; a++) {
            double v = w[t * C + a] > 0 ? marg[t * C + a] / w[t * C + a] : 0; /* extrinsic: without the cell's own weight */
            marg[t * C + a] = v;
            total += v;
        }
        if (!(total > 0)) continue;
        for (int a = 0; a < C; a++)
            own[t * C + a] = (1 - damping) * marg[t * C + a] / total + damping * own[t * C + a];
    }
    return 1;
}

/* One line's masks (into g->line_in) and its cells' messages: from the crossing lines and its own last ones. */
static void bp_gather(Lines *g, int line, const mask_t *masks, const double *cross, const double *mine, double *in,
                      double *own, int C) {
    for (int t = 0; t < line_len(g, line); t++) {
        int cell = line_cell(g, line, t);
        g->line_in[t] = masks[cell];
        memcpy(in + t * C, cross + (size_t)cell * C, sizeof(double) * C);
        memcpy(own + t * C, mine + (size_t)cell * C, sizeof(double) * C);
    }
}

/* bp(masks, messages, colours, rounds, damping, end) -> bytes: each cell's likeliest colour.
 * `messages` (array('d') of 2 * cells * colours, zeros at first) keeps the row then the column
 * messages, so a later call goes on from where this one stopped. */
PyObject *Lines_bp(Lines *g, PyObject *args) {
    PyObject *mobj, *msgobj;
    int C, rounds;
    double damping, end;
    if (!PyArg_ParseTuple(args, "OOiidd", &mobj, &msgobj, &C, &rounds, &damping, &end)) return NULL;
    if (C < 2 || C > 32) {
        PyErr_SetString(PyExc_ValueError, "colours must be 2..32");
        return NULL;
    }
    Py_buffer view, mv;
    if (get_masks(g, mobj, &view) < 0) return NULL;
    if (PyObject_GetBuffer(msgobj, &mv, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&view);
        return NULL;
    }
    size_t per = (size_t)g->n_cells * C;
    if (mv.len != (Py_ssize_t)(2 * per * sizeof(double))) {
        PyBuffer_Release(&view);
        PyBuffer_Release(&mv);
        PyErr_SetString(PyExc_ValueError, "messages must be an array('d') of 2 * cells * colours");
        return NULL;
    }
    const mask_t *masks = view.buf;
    double *rowmsg = mv.buf, *colmsg = rowmsg + per;
    int n_max = g->max_len;
    BpWork b = {0};
    double *in = PyMem_Malloc(sizeof(double) * (n_max + 1) * C), *own = PyMem_Malloc(sizeof(double) * (n_max + 1) * C);
    unsigned char *open = PyMem_Calloc(g->n_lines, 1);
    int status = (!in || !own || !open || bp_alloc(&b, n_max, g->max_k, C) < 0) ? NOMEM : OK;
    for (int cell = 0; status == OK && cell < g->n_cells; cell++) {
        mask_t m = masks[cell];
        if (m & (m - 1)) open[cell_line(g, cell, 0)] = open[cell_line(g, cell, 1)] = 1;
        double total = 0;
        for (int a = 0; a < C; a++) total += rowmsg[cell * C + a];
        if (total > 0) continue;
        for (int a = 0; a < C; a++) /* a fresh start: every allowed colour alike */
            rowmsg[cell * C + a] = colmsg[cell * C + a] = ((m >> a) & 1) ? 1.0 / __builtin_popcount(m) : 0;
    }
    for (int r = 0; status == OK && r < rounds; r++) {
        for (int line = 0; line < g->n_lines; line++) {
            if (!open[line]) continue;
            if (end >= 0 && (line & 15) == 0 && now() > end) {
                status = TIMEOUT;
                break;
            }
            int n = line_len(g, line);
            double *mine = line < g->height ? rowmsg : colmsg;
            bp_gather(g, line, masks, line < g->height ? colmsg : rowmsg, mine, in, own, C);
            Clue c = line_clue(g, line);
            if (!bp_line(&c, n, g->line_in, in, own, C, damping, &b, NULL)) continue;
            for (int t = 0; t < n; t++)
                memcpy(mine + (size_t)line_cell(g, line, t) * C, own + t * C, sizeof(double) * C);
        }
    }
    PyObject *result = NULL;
    if (status == OK) {
        result = PyBytes_FromStringAndSize(NULL, g->n_cells);
        char *out = result ? PyBytes_AS_STRING(result) : NULL;
        for (int cell = 0; out && cell < g->n_cells; cell++) {
            int best = 0;
            double top = -1;
            for (int a = 0; a < C; a++) {
                if (!((masks[cell] >> a) & 1)) continue;
                double v = rowmsg[cell * C + a] * colmsg[cell * C + a];
                if (v > top) {
                    top = v;
                    best = a;
                }
            }
            out[cell] = (char)best;
        }
    } else {
        raise_status(status);
    }
    bp_free(&b);
    PyMem_Free(in);
    PyMem_Free(own);
    PyMem_Free(open);
    PyBuffer_Release(&view);
    PyBuffer_Release(&mv);
    return result;
}

/* ladder_phases(masks, messages, colours, ladders) -> bytes of int32 literals: the phase of every
 * "block i starts at or after k" variable of the encoding, true when the beliefs give it at least
 * even odds. `ladders` is the encoder's table (line, block, lo, hi, first variable), grouped by line;
 * each of its lines is passed once more with the current messages (which stay as they are). */
PyObject *Lines_ladder_phases(Lines *g, PyObject *args) {
    PyObject *mobj, *msgobj;
    Py_buffer view, mv, lv;
    int C;
    if (!PyArg_ParseTuple(args, "OOiy*", &mobj, &msgobj, &C, &lv)) return NULL;
    if (C < 2 || C > 32 || get_masks(g, mobj, &view) < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "colours must be 2..32");
        PyBuffer_Release(&lv);
        return NULL;
    }
    if (PyObject_GetBuffer(msgobj, &mv, PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&view);
        PyBuffer_Release(&lv);
        return NULL;
    }
    size_t per = (size_t)g->n_cells * C, n_rows = (size_t)lv.len / (5 * sizeof(int));
    const int *table = lv.buf;
    int status = mv.len == (Py_ssize_t)(2 * per * sizeof(double)) ? OK : -1;
    const double *rowmsg = mv.buf, *colmsg = rowmsg + per;
    const mask_t *masks = view.buf;
    int n_max = g->max_len;
    BpWork b = {0};
    double *in = PyMem_Malloc(sizeof(double) * (n_max + 1) * C), *own = PyMem_Malloc(sizeof(double) * (n_max + 1) * C);
    double *starts = PyMem_Malloc(sizeof(double) * (g->max_k + 1) * (n_max + 2));
    size_t n_out = 0;
    for (size_t r = 0; r < n_rows; r++) n_out += (size_t)(table[5 * r + 3] - table[5 * r + 2]);
    int *out = PyMem_Malloc(sizeof(int) * (n_out + 1));
    if (status == OK && (!in || !own || !starts || !out || bp_alloc(&b, n_max, g->max_k, C) < 0)) status = NOMEM;
    size_t at = 0;
    for (size_t r = 0; status == OK && r < n_rows;) {
        int line = table[5 * r];
        size_t next = r;
        while (next < n_rows && table[5 * next] == line) next++;
        if (line < 0 || line >= g->n_lines) break;
        int n = line_len(g, line), ok = 1;
        bp_gather(g, line, masks, line < g->height ? colmsg : rowmsg, line < g->height ? rowmsg : colmsg, in, own, C);
        Clue c = line_clue(g, line);
        memset(starts, 0, sizeof(double) * (g->max_k + 1) * (n_max + 2));
        ok = bp_line(&c, n, g->line_in, in, own, C, 0.0, &b, starts);
        for (; r < next; r++) {
            const int *row = table + 5 * r;
            int i = row[1], lo = row[2], hi = row[3], base = row[4];
            if (i < 0 || i >= c.k || lo < 0 || hi > n || lo > hi) continue;
            double tail = 0; /* P(start >= k), summed from the right */
            for (int s = n; s > hi; s--) tail += starts[i * (n + 1) + s];
            for (int k = hi; k > lo; k--) {
                tail += starts[i * (n + 1) + k];
                int lit = base + k - lo - 1;
                out[at++] = (ok && tail >= 0.5) ? lit : -lit;
            }
        }
    }
    PyObject *result = NULL;
    if (status == OK) result = PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)(at * sizeof(int)));
    else if (status == NOMEM) PyErr_NoMemory();
    else PyErr_SetString(PyExc_ValueError, "messages must be an array('d') of 2 * cells * colours");
    bp_free(&b);
    PyMem_Free(in);
    PyMem_Free(own);
    PyMem_Free(starts);
    PyMem_Free(out);
    PyBuffer_Release(&view);
    PyBuffer_Release(&mv);
    PyBuffer_Release(&lv);
    return result;
}
