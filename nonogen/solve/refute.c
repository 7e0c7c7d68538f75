/* The grade's lookahead sweep: which values of the open cells line logic refutes on its own
 * (Grid.refutations in propagate.py, the reference).
 *
 * Every value of every open cell is assumed in turn, propagated from the cell's row and column and
 * undone; the values that meet a contradiction are the answer. A trial that meets none ends at a
 * fixpoint F, and every cell F fixes holds a value that cannot contradict either (line logic is
 * monotone, and F lies below that assumption): such values are not tried.
 *
 * The sweep runs again after each round of deductions, from masks M' below the last call's M, and
 * most of its work is following the same long chains to the same fixpoints. Line logic reaches the
 * greatest fixpoint below where it starts, and the one below M' with value v in cell c lies below
 * both F (the fixpoint that trial reached from M) and M'; so the trial can start from F and M'
 * together, re-reading only the lines of F's footprint (the lines it read) where M' took something
 * F still had: lines outside the footprint are as in M', a fixpoint, and the others as in F. The
 * fixpoints of the last call's trials are kept (their changed cells, in the grid's Sweeps) for this;
 * a call from masks not below the last call's starts afresh. The masks must be a line-logic
 * fixpoint, as the sweep's are. */
#include "linelogic.h"

#define SWEEP_MAX_INDEX (1u << 24)  /* (cell, value) slots of the kept fixpoints; a bigger grid starts afresh */
#define SWEEP_MAX_ARENA (1u << 22)  /* int32 words of kept changes (16 MB); past it, trials are not kept */

typedef struct {
    int32_t *start, *len;  /* per (cell, value): its trial's changes in arena (cell, mask pairs); len -1: none */
    int32_t *arena;
    size_t n_arena, cap_arena;
} Kept;

struct Sweeps {
    int n_vals;            /* values per cell in the index */
    mask_t *prev;          /* the masks of the call that kept `old` */
    Kept old, new;
};

static void kept_free(Kept *k) {
    PyMem_Free(k->start);
    PyMem_Free(k->len);
    PyMem_Free(k->arena);
}

void sweeps_free(Lines *g) {
    if (!g->sweeps) return;
    kept_free(&g->sweeps->old);
    kept_free(&g->sweeps->new);
    PyMem_Free(g->sweeps->prev);
    PyMem_Free(g->sweeps);
    g->sweeps = NULL;
}

/* forget_sweeps(): drop the kept fixpoints (the replay that swept is over). */
PyObject *Lines_forget_sweeps(Lines *g, PyObject *unused) {
    (void)unused;
    sweeps_free(g);
    Py_RETURN_NONE;
}

static int kept_alloc(Kept *k, size_t slots) {
    k->start = PyMem_Malloc(slots * sizeof(int32_t));
    k->len = PyMem_Malloc(slots * sizeof(int32_t));
    if (!k->start || !k->len) return -1;
    for (size_t i = 0; i < slots; i++) k->len[i] = -1;
    k->n_arena = 0;
    return 0;
}

/* The grid's Sweeps for a call from `masks`: *usable when the kept fixpoints hold for it. NULL: none. */
static struct Sweeps *sweeps_for(Lines *g, const mask_t *masks, int *usable) {
    mask_t all = 0;
    for (int i = 0; i < g->n_cells; i++) all |= masks[i];
    int n_vals = all ? 32 - __builtin_clz(all) : 1;
    size_t slots = (size_t)g->n_cells * n_vals;
    struct Sweeps *s = g->sweeps;
    *usable = 0;
    if (s && s->n_vals == n_vals) {
        *usable = 1;
        for (int i = 0; i < g->n_cells && *usable; i++) *usable = !(masks[i] & ~s->prev[i]);
        for (size_t i = 0; i < slots; i++) s->new.len[i] = -1;
        s->new.n_arena = 0;
        return s;
    }
    sweeps_free(g);
    if (slots > SWEEP_MAX_INDEX) return NULL;
    s = PyMem_Calloc(1, sizeof(struct Sweeps));
    if (!s) return NULL;
    g->sweeps = s;
    s->n_vals = n_vals;
    s->prev = PyMem_Malloc(sizeof(mask_t) * (size_t)g->n_cells);
    if (!s->prev || kept_alloc(&s->old, slots) < 0 || kept_alloc(&s->new, slots) < 0) {
        sweeps_free(g);
        return NULL;
    }
    return s;
}

/* Keep the changes (cell, final mask) of the trial of `slot` since `mark`; stamp dedupes cells changed twice. */
static void keep(Lines *g, Kept *k, size_t slot, const mask_t *masks, int mark, int *stamp, int trial) {
    size_t need = k->n_arena + 2 * (size_t)(g->n_changed - mark);
    if (need > SWEEP_MAX_ARENA) return;
    if (need > k->cap_arena) {
        size_t cap = k->cap_arena ? 2 * k->cap_arena : 65536;
        while (cap < need) cap *= 2;
        int32_t *grown = PyMem_Realloc(k->arena, cap * sizeof(int32_t));
        if (!grown) return;
        k->arena = grown;
        k->cap_arena = cap;
    }
    int32_t *out = k->arena + k->n_arena, n = 0;
    for (int j = mark; j < g->n_changed; j++) {
        int cell = g->changed[j];
        if (stamp[cell] == trial) continue;
        stamp[cell] = trial;
        out[2 * n] = cell;
        out[2 * n + 1] = (int32_t)masks[cell];
        n++;
    }
    k->start[slot] = (int32_t)k->n_arena;
    k->len[slot] = n;
    k->n_arena += 2 * (size_t)n;
}

/* The trial of value `value` in `cell`, from the fixpoint `was` (n changes) it reached from the masks of the last
 * call: those changes laid over the masks, then line logic from the footprint's lines that the masks narrowed. */
static int trial_from(Lines *g, mask_t *masks, const int32_t *was, int n, const unsigned char *narrowed_line,
                      unsigned char *foot, int *queue, int cell) {
    int nq = 0;
    foot[cell_line(g, cell, 0)] = foot[cell_line(g, cell, 1)] = 1;
    for (int j = 0; j < n; j++) foot[cell_line(g, was[2 * j], 0)] = foot[cell_line(g, was[2 * j], 1)] = 1;
    int status = OK;
    for (int j = 0; j < n && status == OK; j++) {
        int i = was[2 * j];
        mask_t f = (mask_t)was[2 * j + 1], now_ = masks[i] & f;
        if (now_ != masks[i]) {
            if (record_change(g, i, masks[i]) < 0) {
                status = NOMEM;
                break;
            }
            masks[i] = now_;
            if (!now_) status = CONTRADICTION;
        }
        if (now_ != f) /* the masks took something F had: both its lines are read again */
            for (int q = 0, line; q < 2; q++)
                if (foot[line = cell_line(g, i, q)] == 1) {
                    foot[line] = 2;
                    queue[nq++] = line;
                }
    }
    for (int line = 0; line < g->n_lines; line++) {
        if (foot[line] == 1 && narrowed_line[line]) queue[nq++] = line;
        foot[line] = 0;
    }
    return status != OK ? status : propagate(g, masks, queue, nq);
}

/* refutations(masks, end) -> bytes of int32 (cell, values that met a contradiction), in cell order. */
PyObject *Lines_refutations(Lines *g, PyObject *args) {
    PyObject *mobj;
    double end;
    if (!PyArg_ParseTuple(args, "Od", &mobj, &end)) return NULL;
    Py_buffer view;
    if (get_masks(g, mobj, &view) < 0) return NULL;
    mask_t *masks = (mask_t *)view.buf;
    int usable = 0;
    struct Sweeps *s = sweeps_for(g, masks, &usable);
    int32_t *found = PyMem_Malloc(sizeof(int32_t) * 2 * (size_t)g->n_cells);
    mask_t *consistent = PyMem_Calloc((size_t)g->n_cells, sizeof(mask_t)); /* values known not to contradict */
    int *stamp = PyMem_Calloc((size_t)g->n_cells, sizeof(int)), *queue = PyMem_Malloc(sizeof(int) * (size_t)g->n_lines);
    unsigned char *narrowed = PyMem_Calloc((size_t)g->n_lines, 1), *foot = PyMem_Calloc((size_t)g->n_lines, 1);
    if (!found || !consistent || !stamp || !queue || !narrowed || !foot) {
        PyMem_Free(found); PyMem_Free(consistent); PyMem_Free(stamp); PyMem_Free(queue);
        PyMem_Free(narrowed); PyMem_Free(foot);
        PyBuffer_Release(&view);
        return PyErr_NoMemory();
    }
    if (usable)
        for (int i = 0; i < g->n_cells; i++)
            if (masks[i] != s->prev[i]) narrowed[cell_line(g, i, 0)] = narrowed[cell_line(g, i, 1)] = 1;
    g->end = end;
    g->n_changed = 0;
    int status = OK, n_found = 0, trials = 0;
    for (int cell = 0; cell < g->n_cells && status == OK; cell++) {
        mask_t mask = masks[cell], ruled = 0;
        if (!(mask & (mask - 1))) continue;
        if (g->end >= 0 && now() > g->end) {
            status = TIMEOUT;
            break;
        }
        for (mask_t rest = mask & ~consistent[cell]; rest; rest &= rest - 1) {
            mask_t value = rest & (~rest + 1);
            size_t slot = (size_t)cell * (s ? s->n_vals : 0) + __builtin_ctz(value);
            int mark = g->n_changed, st;
            masks[cell] = value;
            if (usable && s->old.len[slot] >= 0)
                st = trial_from(g, masks, s->old.arena + s->old.start[slot], s->old.len[slot], narrowed, foot, queue, cell);
            else
                st = propagate_cell(g, masks, cell);
            if (st == OK) {
                for (int j = mark; j < g->n_changed; j++) {
                    mask_t m = masks[g->changed[j]];
                    if (!(m & (m - 1))) consistent[g->changed[j]] |= m;
                }
                if (s) keep(g, &s->new, slot, masks, mark, stamp, ++trials);
            }
            undo_to(g, masks, mark);
            masks[cell] = mask;
            if (st == CONTRADICTION) ruled |= value;
            else if (st != OK) {
                status = st;
                break;
            }
        }
        if (ruled) {
            found[2 * n_found] = cell;
            found[2 * n_found++ + 1] = (int32_t)ruled;
        }
    }
    g->n_changed = 0;
    if (s && status == OK) { /* this call's fixpoints are the ones the next call starts from */
        Kept swap = s->old;
        s->old = s->new;
        s->new = swap;
        memcpy(s->prev, masks, sizeof(mask_t) * (size_t)g->n_cells);
    } else if (s) {
        sweeps_free(g);
    }
    PyBuffer_Release(&view);
    PyObject *result = status == OK ? PyBytes_FromStringAndSize((const char *)found, sizeof(int32_t) * 2 * n_found)
                                    : raise_status(status);
    PyMem_Free(found); PyMem_Free(consistent); PyMem_Free(stamp); PyMem_Free(queue);
    PyMem_Free(narrowed); PyMem_Free(foot);
    return result;
}
