/* One line: the solver (dynamic programming, see linelogic.h), the overlap rule a person uses,
 * the solver's work buffers, and the cache of line results that propagation asks through. */
#include "linelogic.h"

int work_reserve(Work *w, int len, int k) {
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
    int *lo = PyMem_Realloc(w->lo, (size_t)(K + 1) * sizeof(int));
    if (lo) w->lo = lo;
    int *hi = PyMem_Realloc(w->hi, (size_t)(K + 1) * sizeof(int));
    if (hi) w->hi = hi;
    mask_t *out = PyMem_Realloc(w->out, (size_t)(L + 2) * sizeof(mask_t));
    if (out) w->out = out;
    uint64_t *starts = PyMem_Realloc(w->starts, (size_t)(K + 1) * sizeof(uint64_t));
    if (starts) w->starts = starts;
    uint64_t *rows = PyMem_Realloc(w->rows, (size_t)4 * (K + 1) * sizeof(uint64_t));
    if (rows) w->rows = rows;
    if (!fw || !bw || !run || !lo || !hi || !out || !starts || !rows) return -1;
    w->cap_len = L;
    w->cap_k = K;
    return 0;
}

void work_free(Work *w) {
    PyMem_Free(w->fw);
    PyMem_Free(w->bw);
    PyMem_Free(w->run);
    PyMem_Free(w->lo);
    PyMem_Free(w->hi);
    PyMem_Free(w->out);
    PyMem_Free(w->starts);
    PyMem_Free(w->rows);
    memset(w, 0, sizeof(*w));
}

/* Narrow d[0..n) into w->out; returns 0 when no placement fits. Lines under 64 cells go to
 * solve_line_bits (linebits.c), which computes the same a word at a time. Row i of fw and bw is only
 * read inside its window (window_first, window_last): fw is 0 before it, bw after it; outside them the
 * tables hold stale values that nothing reads. */
int solve_line(const Clue *c, Work *w, int n, const mask_t *d) {
    if (n < 64 && !w->cells_only) return solve_line_bits(c, w, n, d);
    w->bits = 0;
    const int k = c->k, W = n + 1;
    unsigned char *fw = w->fw, *bw = w->bw;
    int *run = w->run, *lo = w->lo, *hi = w->hi;
    if (!block_windows(c, n, lo, hi)) return 0;
    for (int i = 0; i < k; i++) { /* run of cells allowing the block's colour, counted from its first start */
        mask_t bit = (mask_t)1 << c->col[i];
        int *r = run + i * W, end = hi[i] + c->len[i];
        r[lo[i]] = 0;
        for (int t = lo[i]; t < end; t++) r[t + 1] = (d[t] & bit) ? r[t] + 1 : 0;
    }
    /* forwards */
    fw[0] = 1;
    for (int t = 0, last = window_last(c, hi, n, 0); t < last; t++) fw[t + 1] = fw[t] && (d[t] & 1);
    for (int i = 1; i <= k; i++) {
        int b = i - 1, len = c->len[b], first = window_first(c, lo, i), last = window_last(c, hi, n, i);
        unsigned char *f = fw + i * W;
        const unsigned char *prev = fw + b * W;
        int same = b > 0 && c->col[b - 1] == c->col[b], latest_end = hi[b] + len;
        const int *r = run + b * W;
        for (int t = first; t <= last; t++) {
            int v = t > first && f[t - 1] && (d[t - 1] & 1);
            if (!v && t <= latest_end && r[t] >= len) {
                int s = t - len;
                v = same ? ((d[s - 1] & 1) && prev[s - 1]) : prev[s];
            }
            f[t] = (unsigned char)v;
        }
    }
    if (!fw[k * W + n]) return 0;
    /* backwards */
    unsigned char *tail = bw + k * W;
    tail[n] = 1;
    for (int t = n - 1, first = window_first(c, lo, k); t >= first; t--) tail[t] = tail[t + 1] && (d[t] & 1);
    for (int i = k - 1; i >= 0; i--) {
        int len = c->len[i], first = window_first(c, lo, i), last = window_last(c, hi, n, i);
        unsigned char *g = bw + i * W;
        const unsigned char *next = bw + (i + 1) * W;
        int same = i + 1 < k && c->col[i + 1] == c->col[i];
        const int *r = run + i * W;
        for (int t = last; t >= first; t--) {
            int v = t < last && (d[t] & 1) && g[t + 1];
            int e = t + len;
            if (!v && t >= lo[i] && r[e] >= len) v = same ? ((d[e] & 1) && next[e + 1]) : next[e];
            g[t] = (unsigned char)v;
        }
    }
    /* paint: background where some i has fw[i][t] and bw[i][t+1]; colours by placements */
    mask_t *out = w->out;
    memset(out, 0, sizeof(mask_t) * n);
    for (int i = 0; i <= k; i++) {
        const unsigned char *f = fw + i * W, *g = bw + i * W + 1;
        for (int t = window_first(c, lo, i), last = window_last(c, hi, n, i); t < last; t++)
            if (f[t] && g[t] && (d[t] & 1)) out[t] = 1;
    }
    for (int i = 0; i < k; i++) {
        int len = c->len[i], painted = 0, any = 0;
        mask_t bit = (mask_t)1 << c->col[i];
        for (int s = lo[i]; s <= hi[i]; s++) {
            if (!placeable(c, w, n, d, i, s)) continue;
            any = 1;
            for (int t = s > painted ? s : painted; t < s + len; t++) out[t] |= bit;
            painted = s + len;
        }
        if (!any) return 0;
    }
    for (int t = 0; t < n; t++)
        if (!out[t]) return 0;
    return 1;
}

/* The first and the last start of block i that placeable() allows, looked for from 0 up and from n - len down
 * (none: first = n - len + 1, last = n - len). Under 64 cells the starts are the bits of a word (solve_line_bits):
 * its lowest and highest bit in that range, where the scans took a fifth of grading an easy puzzle. */
static void reach(const Clue *c, const Work *w, int n, const mask_t *d, int i, int *first_out, int *last_out) {
    int first = 0, last = n - c->len[i];
    if (w->bits && last >= 0 && last < 64) {
        uint64_t s = w->starts[i] & (((uint64_t)2 << last) - 1);
        if (s) {
            first = __builtin_ctzll(s);
            last = 63 - __builtin_clzll(s);
        } else {
            first = last + 1;
        }
    } else {
        while (first <= last && !placeable(c, w, n, d, i, first)) first++;
        while (last > first && !placeable(c, w, n, d, i, last)) last--;
    }
    *first_out = first;
    *last_out = last;
}

/* The left-right overlap a person sees on a line, into out: each block lies between its first and
 * its last possible start (placeable() after solve_line has filled the tables); the cells every
 * placement covers take its colour, cells no block reaches are background. The grade (grade.py)
 * counts what this rule finds apart from complete line logic. */
void overlap_rule(const Clue *c, const Work *w, int n, const mask_t *d, mask_t *out) {
    for (int t = 0; t < n; t++) out[t] = 1;
    for (int pass = 0; pass < 2; pass++) { /* where each block reaches, then what all its placements cover */
        for (int i = 0; i < c->k; i++) {
            int len = c->len[i], first, last;
            reach(c, w, n, d, i, &first, &last);
            mask_t bit = (mask_t)1 << c->col[i];
            if (pass == 0)
                for (int t = first; t < last + len; t++) out[t] |= bit;
            else
                for (int t = last; t < first + len; t++) out[t] = bit;
        }
    }
    for (int t = 0; t < n; t++) out[t] &= d[t];
}

/* ---- a cache of line results ----------------------------------------------------------- */

/* Probing solves the same line from the same masks over and over (on Light,
 * 162k line runs shrink to 12k distinct ones), so results are kept in an
 * open-addressing table keyed by (line, masks). Entries live in one arena:
 * line, ok flag, the n input masks, then (when ok) the n output masks. The
 * arena is emptied when it reaches CACHE_WORDS, which bounds the memory. */

#define CACHE_WORDS (8u << 20) /* 32 MB of masks */
#define NO_ENTRY UINT32_MAX

static uint64_t line_hash(int line, const mask_t *in, int n) {
    uint64_t h = 0xcbf29ce484222325ULL ^ (uint64_t)line;
    for (int t = 0; t < n; t++) h = (h ^ in[t]) * 0x100000001b3ULL;
    h ^= h >> 29;
    return h | 1;
}

void cache_free(Cache *c) {
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

/* The narrowed masks of one line (from the cache or a fresh run), or NULL when nothing fits. */
const mask_t *line_result(Lines *g, int line, int n, const mask_t *in) {
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
