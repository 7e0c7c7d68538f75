/* Picross 3D line logic: one line by dynamic programming over bit sets, and the fixpoint (see line3d.h). */
#include "line3d.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t lo, hi;
} bits_t;

static inline bits_t b_or(bits_t a, bits_t b) { return (bits_t){a.lo | b.lo, a.hi | b.hi}; }
static inline bits_t b_and(bits_t a, bits_t b) { return (bits_t){a.lo & b.lo, a.hi & b.hi}; }
static inline bits_t b_shl1(bits_t a) { return (bits_t){a.lo << 1, (a.hi << 1) | (a.lo >> 63)}; }
static inline bits_t b_shr1(bits_t a) { return (bits_t){(a.lo >> 1) | (a.hi << 63), a.hi >> 1}; }
static inline int b_any(bits_t a) { return (a.lo | a.hi) != 0; }

static inline bits_t b_upto(int n) { /* bits 0..n */
    if (n >= 127) return (bits_t){~0ULL, ~0ULL};
    if (n >= 63) return (bits_t){~0ULL, (n == 63) ? 0 : ((1ULL << (n - 63)) - 1)};
    return (bits_t){(2ULL << n) - 1, 0};
}

static inline bits_t b_bit(int n) { return n < 64 ? (bits_t){1ULL << n, 0} : (bits_t){0, 1ULL << (n - 64)}; }

/* State s = k * 2 + l: k groups so far (capped at 3), l whether the previous cell is kept.
 * A kept cell moves (k, 0) to (min(3, k + 1), 1) and (k, 1) to (k, 1); a plain clue allows k <= 1,
 * a circle k <= 2. An empty cell moves (k, l) to (k, 0). */
static inline int next_k(int k, int l) { return l ? k : (k < 3 ? k + 1 : 3); }

int l3_solve_line(int count, int groups, int len, const int8_t *known, int8_t *out) {
    bits_t fw[(L3_MAX_LEN + 1) * 8];
    int kmax = groups == 1 ? 1 : (groups == 2 ? 2 : 3);
    int want = count == 0 ? 0 : (groups < 3 ? groups : 3);
    bits_t cmask = b_upto(count), zero = {0, 0};
    if (len > L3_MAX_LEN || count > len) return -1;
    for (int s = 0; s < 8; s++) fw[s] = zero;
    fw[0] = b_bit(0);
    for (int i = 0; i < len; i++) {
        bits_t *f = fw + i * 8, *g = fw + (i + 1) * 8;
        for (int s = 0; s < 8; s++) g[s] = zero;
        if (known[i] != 1)
            for (int k = 0; k < 4; k++) g[k * 2] = b_or(f[k * 2], f[k * 2 + 1]);
        if (known[i] != 0)
            for (int s = 0; s < 8; s++) {
                int k = next_k(s >> 1, s & 1);
                if (k <= kmax) g[k * 2 + 1] = b_or(g[k * 2 + 1], b_and(b_shl1(f[s]), cmask));
            }
    }
    bits_t bw[8], nb[8], end = b_bit(count);
    for (int s = 0; s < 8; s++) bw[s] = (s >> 1) == want ? end : zero;
    int any = 0;
    for (int s = 0; s < 8; s++) any |= b_any(b_and(fw[len * 8 + s], bw[s]));
    if (!any) return -1;
    for (int i = len - 1; i >= 0; i--) {
        bits_t *f = fw + i * 8;
        int can0 = 0, can1 = 0;
        for (int s = 0; s < 8; s++) {
            bits_t back = zero;
            if (known[i] != 1) {
                bits_t b0 = bw[(s >> 1) * 2];
                back = b0;
                can0 |= b_any(b_and(f[s], b0));
            }
            if (known[i] != 0) {
                int k = next_k(s >> 1, s & 1);
                if (k <= kmax) {
                    bits_t b1 = b_shr1(bw[k * 2 + 1]);
                    back = b_or(back, b1);
                    can1 |= b_any(b_and(f[s], b1));
                }
            }
            nb[s] = back;
        }
        out[i] = can0 && can1 ? -1 : (int8_t)can1;
        memcpy(bw, nb, sizeof bw);
    }
    return 0;
}

static inline uint64_t mix(uint64_t h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    return h ^ (h >> 33);
}

/* l3_solve_line for line k of the box, answered from run->memo when it holds this line in this state. The memo
 * keeps exactly what the solver answered, so a run with it decides the same cells in the same order. */
static int solve_remembered(const L3Box *box, L3Run *run, int32_t k, int len, const int8_t *known, int8_t *out) {
    uint64_t in1[2] = {0, 0}, in0[2] = {0, 0};
    for (int i = 0; i < len; i++) {
        if (known[i] == 1) in1[i >> 6] |= 1ULL << (i & 63);
        else if (known[i] == 0) in0[i >> 6] |= 1ULL << (i & 63);
    }
    uint64_t h = mix((uint64_t)k * 0x9e3779b97f4a7c15ULL ^ in1[0] ^ mix(in0[0] ^ mix(in1[1] ^ mix(in0[1]))));
    L3Memo *m = run->memo + (h & run->memo_mask);
    if (m->line == k + 1 && m->len == len && m->in1[0] == in1[0] && m->in1[1] == in1[1] && m->in0[0] == in0[0]
        && m->in0[1] == in0[1]) {
        if (m->dead) return -1;
        for (int i = 0; i < len; i++) {
            uint64_t bit = 1ULL << (i & 63);
            out[i] = (m->out1[i >> 6] & bit) ? 1 : ((m->out0[i >> 6] & bit) ? 0 : -1);
        }
        return 0;
    }
    int status = l3_solve_line(box->count[k], box->groups[k], len, known, out);
    *m = (L3Memo){k + 1, (int16_t)len, (int8_t)(status < 0), 0, {in1[0], in1[1]}, {in0[0], in0[1]}, {0, 0}, {0, 0}};
    for (int i = 0; status == 0 && i < len; i++) {
        if (out[i] == 1) m->out1[i >> 6] |= 1ULL << (i & 63);
        else if (out[i] == 0) m->out0[i >> 6] |= 1ULL << (i & 63);
    }
    return status;
}

/* Reads line k; writes what it decides into the grid and the trace. Returns cells changed or -1. */
static int read_line(const L3Box *box, L3Run *run, int32_t k, int8_t *known, int8_t *out) {
    const int32_t *cells = box->line_cells + box->line_start[k];
    int len = box->line_start[k + 1] - box->line_start[k], changed = 0;
    for (int i = 0; i < len; i++) known[i] = run->grid[cells[i]];
    run->runs++;
    int status = run->memo ? solve_remembered(box, run, k, len, known, out)
                           : l3_solve_line(box->count[k], box->groups[k], len, known, out);
    if (status < 0) return -1;
    for (int i = 0; i < len; i++)
        if (out[i] != known[i]) {
            run->grid[cells[i]] = out[i];
            run->trace_cells[run->trace_len] = cells[i];
            run->trace_lines[run->trace_len++] = k;
            changed++;
        }
    return changed;
}

static int solved(const L3Box *box, const int8_t *grid) {
    for (int32_t c = 0; c < box->n_cells; c++)
        if (grid[c] < 0) return 0;
    return 1;
}

/* A stack of lines to read: a line whose cell changed is pushed unless already waiting. */
static int run_stack(const L3Box *box, L3Run *run, int32_t *stack, uint8_t *queued) {
    int8_t known[L3_MAX_LEN], out[L3_MAX_LEN];
    int32_t top = 0;
    for (int32_t i = 0; i < run->n_start; i++) {
        int32_t k = run->start[i];
        if (run->active[k] && !queued[k]) {
            queued[k] = 1;
            stack[top++] = k;
        }
    }
    while (top) {
        int32_t k = stack[--top], before = run->trace_len;
        queued[k] = 0;
        if (read_line(box, run, k, known, out) < 0) return -1;
        for (int32_t t = before; t < run->trace_len; t++) {
            int32_t c = run->trace_cells[t];
            for (int32_t j = box->cell_start[c]; j < box->cell_start[c + 1]; j++) {
                int32_t o = box->cell_lines[j];
                if (!queued[o] && run->active[o]) {
                    queued[o] = 1;
                    stack[top++] = o;
                }
            }
        }
    }
    return solved(box, run->grid);
}

/* Synchronous passes: a pass reads, in line order, every line a cell change of the pass before touched. */
static int run_passes(const L3Box *box, L3Run *run, uint8_t *now, uint8_t *next) {
    int8_t known[L3_MAX_LEN], out[L3_MAX_LEN];
    int32_t waiting = 0;
    for (int32_t i = 0; i < run->n_start; i++) {
        int32_t k = run->start[i];
        if (run->active[k] && !now[k]) {
            now[k] = 1;
            waiting++;
        }
    }
    while (waiting) {
        run->passes++;
        memset(next, 0, (size_t)box->n_lines);
        for (int32_t k = 0; k < box->n_lines; k++) {
            if (!now[k]) continue;
            int32_t before = run->trace_len;
            if (read_line(box, run, k, known, out) < 0) {
                run->runs += waiting - 1;  /* the pass is counted whole, as line3d.py counts it */
                return -1;
            }
            waiting--;
            for (int32_t t = before; t < run->trace_len; t++) {
                int32_t c = run->trace_cells[t];
                for (int32_t j = box->cell_start[c]; j < box->cell_start[c + 1]; j++) next[box->cell_lines[j]] = 1;
            }
        }
        for (int32_t k = 0; k < box->n_lines; k++) {
            now[k] = next[k] && run->active[k];
            waiting += now[k];
        }
    }
    return solved(box, run->grid);
}

int l3_run(const L3Box *box, L3Run *run) {
    size_t n = (size_t)box->n_lines;
    int32_t *stack = malloc(n * sizeof(int32_t) + 1);
    uint8_t *flags = calloc(2 * n + 1, 1);
    int status = -2;
    if (stack && flags)
        status = run->synchronous ? run_passes(box, run, flags, flags + n) : run_stack(box, run, stack, flags);
    free(stack);
    free(flags);
    return status;
}

/* Whether line k, read on the grid as it is, decides cell c (one of its cells). */
static int decides(const L3Box *box, L3Run *run, int32_t k, int32_t c, int8_t *known, int8_t *out) {
    const int32_t *cells = box->line_cells + box->line_start[k];
    int len = box->line_start[k + 1] - box->line_start[k], at = -1;
    for (int i = 0; i < len; i++) {
        known[i] = run->grid[cells[i]];
        if (cells[i] == c) at = i;
    }
    run->runs++;
    int status = run->memo ? solve_remembered(box, run, k, len, known, out)
                           : l3_solve_line(box->count[k], box->groups[k], len, known, out);
    return status == 0 && at >= 0 && out[at] >= 0;
}

int32_t l3_retract(const L3Box *box, const uint8_t *active, int32_t line, int8_t *grid, int32_t *trace_cells,
                   int32_t *trace_lines, int32_t trace_len, int32_t *start, int32_t *n_start, L3Memo *memo,
                   uint32_t memo_mask, int64_t *runs) {
    int32_t first = trace_len;  /* the first read by a line without its clue: the reads before it stand */
    for (int32_t t = 0; t < trace_len; t++) {
        if (trace_cells[t] < 0 || trace_cells[t] >= box->n_cells || trace_lines[t] < 0
            || trace_lines[t] >= box->n_lines)
            return -2;
        if (first == trace_len && !active[trace_lines[t]]) first = t;
    }
    (void)line;  /* inactive already: its reads are checked again like those of any line without its clue */
    uint8_t *dirty = calloc((size_t)box->n_lines + 1, 1);  /* one of the line's cells was dropped */
    int8_t *value = malloc((size_t)(trace_len - first) + 1);
    if (!dirty || !value) {
        free(dirty);
        free(value);
        return -1;
    }
    for (int32_t t = first; t < trace_len; t++) {
        value[t - first] = grid[trace_cells[t]];
        grid[trace_cells[t]] = -1;
    }
    L3Run run = {active, grid, NULL, 0, 0, NULL, NULL, 0, 0, 0, memo, memo_mask};
    int8_t known[L3_MAX_LEN], out[L3_MAX_LEN], own_known[L3_MAX_LEN], own[L3_MAX_LEN];
    int32_t kept = first;
    for (int32_t t = first; t < trace_len;) {
        int32_t k = trace_lines[t], end = t;
        while (end < trace_len && trace_lines[end] == k) end++;  /* one read of line k */
        int clean = active[k] && !dirty[k];  /* k reads what it read then: it decides the same cells */
        int status = -1;
        const int32_t *cells = box->line_cells + box->line_start[k];
        int len = box->line_start[k + 1] - box->line_start[k];
        if (!clean && active[k]) {  /* read again as it stands: what it still decides stays */
            for (int i = 0; i < len; i++) own_known[i] = grid[cells[i]];
            run.runs++;
            status = memo ? solve_remembered(box, &run, k, len, own_known, own)
                          : l3_solve_line(box->count[k], box->groups[k], len, own_known, own);
        }
        for (int32_t e = t; e < end; e++) {
            int32_t c = trace_cells[e], by = k;
            int keep = clean;
            if (!keep && status == 0)
                for (int i = 0; i < len; i++)
                    if (cells[i] == c) keep = own[i] >= 0;
            for (int32_t j = box->cell_start[c]; !keep && j < box->cell_start[c + 1]; j++) {
                by = box->cell_lines[j];  /* another line through the cell may decide it now */
                keep = by != k && active[by] && decides(box, &run, by, c, known, out);
            }
            if (keep) {
                grid[c] = value[e - first];
                trace_cells[kept] = c;
                trace_lines[kept++] = by;
            } else {
                for (int32_t j = box->cell_start[c]; j < box->cell_start[c + 1]; j++) dirty[box->cell_lines[j]] = 1;
            }
        }
        t = end;
    }
    *n_start = 0;
    for (int32_t k = 0; k < box->n_lines; k++)
        if (dirty[k] && active[k]) start[(*n_start)++] = k;
    *runs = run.runs;
    free(dirty);
    free(value);
    return kept;
}
