/* Line logic, propagation, probing and the SAT encoding for 2D nonograms, in C.
 *
 * It gives the same results as nonogen/solve/line.py, propagate.py and cnf.py,
 * which stay as the reference and the fallback when this module is not built
 * (tests/test_native.py compares the two). Python spends 30-60 us per line
 * run; this does one in about a microsecond, with a cache of line results on
 * top, which is what makes probing cheap enough to run before SAT.
 *
 * A grid is an array of uint32 colour masks (bit a set: colour a still
 * possible, bit 0 = background), H*W cells, row-major. Lines 0..H-1 are the
 * rows, H..H+W-1 the columns.
 *
 * One line is solved by dynamic programming over (blocks placed, cells read):
 * fw[i][t] says the first t cells can hold exactly the first i blocks, bw[i][t]
 * that cells t.. can hold blocks i..k-1. A placement of block i at s is
 * possible when its cells allow its colour and both sides fit; every possible
 * placement paints its cells through a difference array. O(length * blocks).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <math.h>

typedef uint32_t mask_t;

/* ---- one line -------------------------------------------------------------------------- */

typedef struct {
    int k;             /* blocks */
    const int *len;    /* block lengths */
    const int *col;    /* block colours (1..31) */
} Clue;

typedef struct {
    int cap_len, cap_k;
    unsigned char *fw, *bw;   /* (k+1) * (len+1) */
    int *run;                 /* per block: cells allowing its colour ending here, (k) * (len+1) */
    int *cover;               /* per block colour slot: difference array, (k) * (len+1) */
    mask_t *out;
} Work;

static int work_reserve(Work *w, int len, int k) {
    if (w->fw && len <= w->cap_len && k <= w->cap_k) return 0;
    int L = len > w->cap_len ? len : w->cap_len;
    int K = k > w->cap_k ? k : w->cap_k;
    size_t cells = (size_t)(K + 1) * (L + 2);
    unsigned char *fw = PyMem_Realloc(w->fw, cells);
    if (fw) w->fw = fw;
    unsigned char *bw = PyMem_Realloc(w->bw, cells);
    if (bw) w->bw = bw;
    int *run = PyMem_Realloc(w->run, cells * sizeof(int));
    if (run) w->run = run;
    int *cover = PyMem_Realloc(w->cover, cells * sizeof(int));
    if (cover) w->cover = cover;
    mask_t *out = PyMem_Realloc(w->out, (size_t)(L + 2) * sizeof(mask_t));
    if (out) w->out = out;
    if (!fw || !bw || !run || !cover || !out) return -1;
    w->cap_len = L;
    w->cap_k = K;
    return 0;
}

static void work_free(Work *w) {
    PyMem_Free(w->fw);
    PyMem_Free(w->bw);
    PyMem_Free(w->run);
    PyMem_Free(w->cover);
    PyMem_Free(w->out);
    memset(w, 0, sizeof(*w));
}

/* May block i start at s? Needs fw/bw/run filled. */
static inline int placeable(const Clue *c, const Work *w, int n, const mask_t *d, int i, int s) {
    const int W = n + 1;
    int len = c->len[i], e = s + len;
    if (s < 0 || e > n || w->run[i * W + e] < len) return 0;
    /* left side: blocks 0..i-1 in cells [0, s), one background cell first if same colour */
    if (i > 0 && c->col[i - 1] == c->col[i]) {
        if (s < 1 || !(d[s - 1] & 1) || !w->fw[i * W + s - 1]) return 0;
    } else if (!w->fw[i * W + s]) {
        return 0;
    }
    /* right side: blocks i+1.. in cells [e, n) */
    if (i + 1 < c->k && c->col[i + 1] == c->col[i]) {
        if (e >= n || !(d[e] & 1) || !w->bw[(i + 1) * W + e + 1]) return 0;
    } else if (!w->bw[(i + 1) * W + e]) {
        return 0;
    }
    return 1;
}

/* Narrow d[0..n) into w->out; returns 0 when no placement fits. */
static int solve_line(const Clue *c, Work *w, int n, const mask_t *d) {
    const int k = c->k, W = n + 1;
    unsigned char *fw = w->fw, *bw = w->bw;
    int *run = w->run;
    for (int i = 0; i < k; i++) {
        mask_t bit = (mask_t)1 << c->col[i];
        int *r = run + i * W;
        r[0] = 0;
        if (i > 0 && c->col[i - 1] == c->col[i]) {
            memcpy(r, run + (i - 1) * W, sizeof(int) * W);
            continue;
        }
        for (int t = 0; t < n; t++) r[t + 1] = (d[t] & bit) ? r[t] + 1 : 0;
    }
    /* forwards */
    fw[0] = 1;
    for (int t = 0; t < n; t++) fw[t + 1] = fw[t] && (d[t] & 1);
    for (int i = 1; i <= k; i++) {
        int b = i - 1, len = c->len[b];
        unsigned char *f = fw + i * W;
        const unsigned char *prev = fw + b * W;
        int same = b > 0 && c->col[b - 1] == c->col[b];
        const int *r = run + b * W;
        f[0] = 0;
        for (int t = 1; t <= n; t++) {
            int v = f[t - 1] && (d[t - 1] & 1);
            if (!v && t >= len && r[t] >= len) {
                int s = t - len;
                v = same ? (s >= 1 && (d[s - 1] & 1) && prev[s - 1]) : prev[s];
            }
            f[t] = (unsigned char)v;
        }
    }
    if (!fw[k * W + n]) return 0;
    /* backwards */
    unsigned char *last = bw + k * W;
    last[n] = 1;
    for (int t = n - 1; t >= 0; t--) last[t] = last[t + 1] && (d[t] & 1);
    for (int i = k - 1; i >= 0; i--) {
        int len = c->len[i];
        unsigned char *g = bw + i * W;
        const unsigned char *next = bw + (i + 1) * W;
        int same = i + 1 < k && c->col[i + 1] == c->col[i];
        const int *r = run + i * W;
        g[n] = 0;
        for (int t = n - 1; t >= 0; t--) {
            int v = (d[t] & 1) && g[t + 1];
            int e = t + len;
            if (!v && e <= n && r[e] >= len) {
                v = same ? (e < n && (d[e] & 1) && next[e + 1]) : next[e];
            }
            g[t] = (unsigned char)v;
        }
    }
    /* paint: background where some i has fw[i][t] and bw[i][t+1]; colours by placements */
    mask_t *out = w->out;
    for (int t = 0; t < n; t++) {
        mask_t m = 0;
        if (d[t] & 1) {
            for (int i = 0; i <= k; i++) {
                if (fw[i * W + t] && bw[i * W + t + 1]) {
                    m = 1;
                    break;
                }
            }
        }
        out[t] = m;
    }
    int *cover = w->cover;
    for (int i = 0; i < k; i++) {
        int *cv = cover + i * W;
        memset(cv, 0, sizeof(int) * W);
        int len = c->len[i], any = 0;
        for (int s = 0; s + len <= n; s++) {
            if (placeable(c, w, n, d, i, s)) {
                cv[s] += 1;
                cv[s + len] -= 1;
                any = 1;
            }
        }
        if (!any) return 0;
        mask_t bit = (mask_t)1 << c->col[i];
        int acc = 0;
        for (int t = 0; t < n; t++) {
            acc += cv[t];
            if (acc) out[t] |= bit;
        }
    }
    for (int t = 0; t < n; t++)
        if (!out[t]) return 0;
    return 1;
}

/* ---- a cache of line results ----------------------------------------------------------- */

/* Probing solves the same line from the same masks over and over (on Light,
 * 162k line runs shrink to 12k distinct ones), so results are kept in an
 * open-addressing table keyed by (line, masks). Entries live in one arena:
 * line, ok flag, the n input masks, then (when ok) the n output masks. The
 * arena is emptied when it reaches CACHE_WORDS, which bounds the memory. */

#define CACHE_WORDS (8u << 20) /* 32 MB of masks */
#define NO_ENTRY UINT32_MAX

typedef struct {
    uint64_t *hashes;  /* per slot; 0 = empty */
    uint32_t *where;   /* per slot: arena offset */
    size_t n_slots, n_used;
    uint32_t *arena;
    size_t arena_len, arena_cap;
} Cache;

static uint64_t line_hash(int line, const mask_t *in, int n) {
    uint64_t h = 0xcbf29ce484222325ULL ^ (uint64_t)line;
    for (int t = 0; t < n; t++) h = (h ^ in[t]) * 0x100000001b3ULL;
    h ^= h >> 29;
    return h | 1;
}

static void cache_free(Cache *c) {
    PyMem_Free(c->hashes);
    PyMem_Free(c->where);
    PyMem_Free(c->arena);
    memset(c, 0, sizeof(*c));
}

static void cache_clear(Cache *c) {
    if (c->hashes) memset(c->hashes, 0, sizeof(uint64_t) * c->n_slots);
    c->n_used = 0;
    c->arena_len = 0;
}

/* Offset of the entry for (line, in), or NO_ENTRY with *slot set to where it goes. */
static uint32_t cache_find(const Cache *c, uint64_t h, int line, const mask_t *in, int n, size_t *slot) {
    if (!c->n_slots) return NO_ENTRY;
    size_t i = h & (c->n_slots - 1);
    while (c->hashes[i]) {
        if (c->hashes[i] == h) {
            uint32_t off = c->where[i];
            if (c->arena[off] == (uint32_t)line && !memcmp(c->arena + off + 2, in, sizeof(mask_t) * n)) return off;
        }
        i = (i + 1) & (c->n_slots - 1);
    }
    *slot = i;
    return NO_ENTRY;
}

static int cache_grow(Cache *c) {
    size_t n = c->n_slots ? 2 * c->n_slots : 4096;
    uint64_t *hashes = PyMem_Calloc(n, sizeof(uint64_t));
    uint32_t *where = PyMem_Malloc(n * sizeof(uint32_t));
    if (!hashes || !where) {
        PyMem_Free(hashes);
        PyMem_Free(where);
        return -1;
    }
    for (size_t i = 0; i < c->n_slots; i++) {
        if (!c->hashes[i]) continue;
        size_t j = c->hashes[i] & (n - 1);
        while (hashes[j]) j = (j + 1) & (n - 1);
        hashes[j] = c->hashes[i];
        where[j] = c->where[i];
    }
    PyMem_Free(c->hashes);
    PyMem_Free(c->where);
    c->hashes = hashes;
    c->where = where;
    c->n_slots = n;
    return 0;
}

/* Remember a result; out == NULL records a contradiction. Failing to remember is harmless. */
static void cache_store(Cache *c, uint64_t h, int line, const mask_t *in, const mask_t *out, int n) {
    size_t need = 2 + (size_t)n * (out ? 2 : 1);
    if (c->arena_len + need > CACHE_WORDS) cache_clear(c);
    if (2 * (c->n_used + 1) > c->n_slots && cache_grow(c) < 0) return;
    if (c->arena_len + need > c->arena_cap) {
        size_t cap = c->arena_cap ? 2 * c->arena_cap : 65536;
        while (cap < c->arena_len + need) cap *= 2;
        uint32_t *arena = PyMem_Realloc(c->arena, cap * sizeof(uint32_t));
        if (!arena) return;
        c->arena = arena;
        c->arena_cap = cap;
    }
    size_t slot = h & (c->n_slots - 1);
    while (c->hashes[slot]) slot = (slot + 1) & (c->n_slots - 1);
    uint32_t off = (uint32_t)c->arena_len;
    c->arena[off] = (uint32_t)line;
    c->arena[off + 1] = out != NULL;
    memcpy(c->arena + off + 2, in, sizeof(mask_t) * n);
    if (out) memcpy(c->arena + off + 2 + n, out, sizeof(mask_t) * n);
    c->arena_len += need;
    c->hashes[slot] = h;
    c->where[slot] = off;
    c->n_used++;
}

/* ---- the grid object ------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    int height, width, n_lines, n_cells;
    int *clue_start;   /* n_lines + 1 offsets into len/col */
    int *len, *col;
    int *key;          /* per line: the first line with the same length and clue (cache key) */
    int max_len, max_k;
    long long line_runs;   /* line-solver runs: cache misses */
    Work work;
    Cache cache;
    /* propagation scratch */
    int *queue;
    unsigned char *queued;
    mask_t *line_in;
    int *changed;      /* cells changed, in order */
    mask_t *old;       /* their values before */
    int n_changed, cap_changed;
    double end;        /* CLOCK_MONOTONIC deadline, <0: none */
    unsigned long steps;
    /* implications found by the last probing round: (cell, colour, other cell, colour ruled out) */
    int *impl;
    size_t n_impl, cap_impl;
} Lines;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int line_len(const Lines *g, int line) { return line < g->height ? g->width : g->height; }
static inline int line_cell(const Lines *g, int line, int t) {
    return line < g->height ? line * g->width + t : t * g->width + (line - g->height);
}
static inline Clue line_clue(const Lines *g, int line) {
    Clue c = {g->clue_start[line + 1] - g->clue_start[line], g->len + g->clue_start[line], g->col + g->clue_start[line]};
    return c;
}

static int record_change(Lines *g, int cell, mask_t before) {
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

enum { OK = 0, CONTRADICTION = 1, TIMEOUT = 2, NOMEM = 3 };

/* The narrowed masks of one line (from the cache or a fresh run), or NULL when nothing fits. */
static const mask_t *line_result(Lines *g, int line, int n, const mask_t *in) {
    int key = g->key[line];
    uint64_t h = line_hash(key, in, n);
    size_t slot;
    uint32_t off = cache_find(&g->cache, h, key, in, n, &slot);
    if (off != NO_ENTRY) return g->cache.arena[off + 1] ? g->cache.arena + off + 2 + n : NULL;
    g->line_runs++;
    Clue c = line_clue(g, line);
    const mask_t *out = solve_line(&c, &g->work, n, in) ? g->work.out : NULL;
    cache_store(&g->cache, h, key, in, out, n);
    return out;
}

/* Line logic to a fixpoint from the queued lines; changes are appended to g->changed. */
static int propagate(Lines *g, mask_t *masks, const int *lines, int n_start) {
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
        if (g->end >= 0 && (++g->steps & 63) == 0 && now() > g->end) {
            return TIMEOUT;
        }
        int n = line_len(g, line);
        for (int t = 0; t < n; t++) g->line_in[t] = masks[line_cell(g, line, t)];
        const mask_t *out = line_result(g, line, n, g->line_in);
        if (!out) return CONTRADICTION;
        for (int t = 0; t < n; t++) {
            if (out[t] == g->line_in[t]) continue;
            int cell = line_cell(g, line, t);
            if (record_change(g, cell, masks[cell]) < 0) return NOMEM;
            masks[cell] = out[t];
            int other = line < g->height ? g->height + t : t;
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

static void undo_to(Lines *g, mask_t *masks, int mark) {
    while (g->n_changed > mark) {
        g->n_changed--;
        masks[g->changed[g->n_changed]] = g->old[g->n_changed];
    }
}

static int cell_lines(const Lines *g, int cell, int *out) {
    out[0] = cell / g->width;
    out[1] = g->height + cell % g->width;
    return 2;
}

/* What a surviving probe branch implies: "cell has the colour tried" rules out, in every cell the
 * branch narrowed, each colour it lost. They hold in every solution (the branch only used line
 * logic), and SAT gets them as binary clauses: its unit propagation alone does not see them.
 * Only the last round of probing is kept (earlier rounds are redone against narrower masks);
 * at most IMPL_MAX of them. */
#define IMPL_MAX (1u << 20)

/* Room for `need` ints in a growable buffer (doubling); -1 when memory runs out. */
static int grow_ints(int **buf, size_t *cap, size_t need) {
    if (need <= *cap) return 0;
    size_t size = *cap ? 2 * *cap : 4096;
    while (size < need) size *= 2;
    int *grown = PyMem_Realloc(*buf, size * sizeof(int));
    if (!grown) return -1;
    *buf = grown;
    *cap = size;
    return 0;
}

static void record_implications(Lines *g, const mask_t *masks, int cell, int mark, int *stamp, int branch) {
    int colour = 31 - __builtin_clz(masks[cell]);
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
        int n_cand = -1, lines[2];
        for (mask_t rest = mask; rest; rest &= rest - 1) {
            int mark = g->n_changed;
            masks[cell] = rest & (~rest + 1);
            cell_lines(g, cell, lines);
            int st = propagate(g, masks, lines, 2);
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
            int i = cand[j], two[2];
            if (agreed[j] == masks[i]) continue; /* cand may list a cell twice: the first entry narrows it */
            masks[i] = agreed[j];
            cell_lines(g, i, two);
            for (int q = 0; q < 2; q++)
                if (!g->queued[two[q]]) {
                    g->queued[two[q]] = 1;
                    relines[n_re++] = two[q];
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

/* ---- Python glue ----------------------------------------------------------------------- */

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
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "ii", &l, &c)) {
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
static int get_masks(Lines *g, PyObject *obj, Py_buffer *view) {
    if (PyObject_GetBuffer(obj, view, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (view->itemsize != 4 || view->len != (Py_ssize_t)g->n_cells * 4 ||
        !view->format || (strcmp(view->format, "I") != 0 && strcmp(view->format, "=I") != 0 && strcmp(view->format, "<I") != 0)) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_ValueError, "masks must be a writable array('I') of height*width items");
        return -1;
    }
    return 0;
}

static PyObject *raise_status(int status) {
    if (status == TIMEOUT) PyErr_SetString(PyExc_TimeoutError, "deadline passed");
    else if (status == NOMEM) PyErr_NoMemory();
    return NULL;
}

static PyObject *Lines_propagate(Lines *g, PyObject *args) {
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

static PyObject *Lines_probe(Lines *g, PyObject *args) {
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

/* ---- the SAT encoding (the same CNF as Encoding in cnf.py, variable for variable) ------- */

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
    if (n == 2) return value == 31 - __builtin_clz(m) ? x : -x;
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
    for (int t = 0; t < n; t++) g->line_in[t] = f->masks[line_cell(g, line, t)];
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

static PyObject *Lines_encode(Lines *g, PyObject *args) {
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

/* ---- belief propagation ------------------------------------------------------------------ */

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

/* bp(masks, messages, colours, rounds, damping, end) -> bytes: each cell's likeliest colour.
 * `messages` (array('d') of 2 * cells * colours, zeros at first) keeps the row then the column
 * messages, so a later call goes on from where this one stopped. */
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

static PyObject *Lines_bp(Lines *g, PyObject *args) {
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
        if (m & (m - 1)) {
            open[cell / g->width] = 1;
            open[g->height + cell % g->width] = 1;
        }
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
static PyObject *Lines_ladder_phases(Lines *g, PyObject *args) {
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

/* implications() -> bytes of int32 quadruples found by the last probe (see record_implications). */
static PyObject *Lines_implications(Lines *g, PyObject *unused) {
    (void)unused;
    return PyBytes_FromStringAndSize((const char *)g->impl, (Py_ssize_t)(g->n_impl * sizeof(int)));
}

static PyObject *Lines_get_runs(Lines *g, void *closure) {
    (void)closure;
    return PyLong_FromLongLong(g->line_runs);
}

/* solve_line(clue, domain): the narrowed masks of one line, or None. For tests against line.py. */
/* The left-right overlap a person sees on a line, into out: each block lies between its first and
 * its last possible start (placeable() after solve_line has filled the tables); the cells every
 * placement covers take its colour, cells no block reaches are background. The grade (grade.py)
 * counts what this rule finds apart from complete line logic. */
static void overlap_rule(const Clue *c, const Work *w, int n, const mask_t *d, mask_t *out) {
    for (int t = 0; t < n; t++) out[t] = 1;
    for (int pass = 0; pass < 2; pass++) { /* where each block reaches, then what all its placements cover */
        for (int i = 0; i < c->k; i++) {
            int len = c->len[i], first = 0, last = n - len;
            while (first <= last && !placeable(c, w, n, d, i, first)) first++;
            while (last > first && !placeable(c, w, n, d, i, last)) last--;
            mask_t bit = (mask_t)1 << c->col[i];
            if (pass == 0)
                for (int t = first; t < last + len; t++) out[t] |= bit;
            else
                for (int t = last; t < first + len; t++) out[t] = bit;
        }
    }
    for (int t = 0; t < n; t++) out[t] &= d[t];
}

/* solve_line(clue, domain) and overlap(clue, domain): one line from Python, complete logic or the
 * overlap rule; None when no placement fits. */
static PyObject *line_query(PyObject *args, int overlap) {
    PyObject *clue_obj, *domain_obj;
    if (!PyArg_ParseTuple(args, "OO", &clue_obj, &domain_obj)) return NULL;
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
    if (!solve_line(&c, &w, n, d)) {
        result = Py_None;
        Py_INCREF(result);
        goto done;
    }
    const mask_t *out = w.out;
    if (overlap) {
        overlap_rule(&c, &w, n, d, seen);
        out = seen;
    }
    result = PyTuple_New(n);
    for (int t = 0; result && t < n; t++) PyTuple_SET_ITEM(result, t, PyLong_FromUnsignedLong(out[t]));
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
    return line_query(args, 0);
}

static PyObject *module_overlap(PyObject *self, PyObject *args) {
    (void)self;
    return line_query(args, 1);
}

/* clause_lists(flat, start, count) -> (clauses, next): up to count clauses of a flat encoding
 * (literals, 0 after each clause) from literal offset start, as lists for the SAT solver. */
static PyObject *module_clause_lists(PyObject *self, PyObject *args) {
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

static PyMethodDef module_methods[] = {
    {"clause_lists", module_clause_lists, METH_VARARGS,
     "clause_lists(flat, start, count) -> (up to count clauses as lists, offset of the next)"},
    {"solve_line", module_solve_line, METH_VARARGS, "solve_line(clue, domain) -> narrowed masks, or None"},
    {"overlap", module_overlap, METH_VARARGS, "overlap(clue, domain) -> the left-right overlap's masks, or None"},
    {NULL}};

static PyMethodDef Lines_methods[] = {
    {"propagate", (PyCFunction)Lines_propagate, METH_VARARGS,
     "propagate(masks, lines, end) -> changed cells, or None on a contradiction; TimeoutError after end"},
    {"probe", (PyCFunction)Lines_probe, METH_VARARGS,
     "probe(masks, end) -> True if solved, False if not, None on a contradiction; TimeoutError after end"},
    {"encode", (PyCFunction)Lines_encode, METH_VARARGS,
     "encode(masks, end[, implications]) -> (n_vars, flat clauses (int32, 0 after each), clause count, first variable of each cell), or None on a contradiction"},
    {"implications", (PyCFunction)Lines_implications, METH_NOARGS,
     "implications() -> bytes: int32 (cell, colour, other cell, colour ruled out) found by the last probe"},
    {"ladder_phases", (PyCFunction)Lines_ladder_phases, METH_VARARGS,
     "ladder_phases(masks, messages, colours, ladders) -> bytes: int32 phase literals of the ladder variables"},
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
