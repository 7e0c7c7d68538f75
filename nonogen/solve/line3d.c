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

/* Whether no cell is left open: counted from the open cells when the run was told them, else by looking at them. */
static int solved(const L3Box *box, const L3Run *run, int32_t trace_start) {
    if (run->open >= 0) return run->open - (run->trace_len - trace_start) <= 0;
    for (int32_t c = 0; c < box->n_cells; c++)
        if (run->grid[c] < 0) return 0;
    return 1;
}

/* A stack of lines to read: a line whose cell changed is pushed unless already waiting. */
static int run_stack(const L3Box *box, L3Run *run, int32_t *stack, uint8_t *queued) {
    int8_t known[L3_MAX_LEN], out[L3_MAX_LEN];
    int32_t top = 0, trace_start = run->trace_len;
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
    return solved(box, run, trace_start);
}

/* Synchronous passes: a pass reads, in line order, every line a cell change of the pass before touched. */
static int run_passes(const L3Box *box, L3Run *run, uint8_t *now, uint8_t *next) {
    int8_t known[L3_MAX_LEN], out[L3_MAX_LEN];
    int32_t waiting = 0, trace_start = run->trace_len;
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
    return solved(box, run, trace_start);
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

/* Whether line k decides its cell c read on the cells decided before `at` (-1 for the others). */
static int decides_at(const L3Box *box, L3Run *run, const L3Cells *cells, int32_t k, int32_t c, int64_t at,
                      int8_t *known, int8_t *out) {
    const int32_t *line = box->line_cells + box->line_start[k];
    int len = box->line_start[k + 1] - box->line_start[k], here = -1;
    for (int i = 0; i < len; i++) {
        int32_t d = line[i];
        known[i] = cells->grid[d] >= 0 && cells->when[d] < at ? cells->grid[d] : -1;
        if (d == c) here = i;
    }
    run->runs++;
    int status = run->memo ? solve_remembered(box, run, k, len, known, out)
                           : l3_solve_line(box->count[k], box->groups[k], len, known, out);
    return status == 0 && here >= 0 && out[here] >= 0;
}

/* A binary heap of cells, the earliest decided on top. */
static void heap_push(int32_t *heap, int32_t *n, const int64_t *when, int32_t c) {
    int32_t i = (*n)++;
    while (i > 0 && when[heap[(i - 1) / 2]] > when[c]) {
        heap[i] = heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    heap[i] = c;
}

static int32_t heap_pop(int32_t *heap, int32_t *n, const int64_t *when) {
    int32_t top = heap[0], last = heap[--(*n)], i = 0;
    for (;;) {
        int32_t child = 2 * i + 1;
        if (child >= *n) break;
        if (child + 1 < *n && when[heap[child + 1]] < when[heap[child]]) child++;
        if (when[heap[child]] >= when[last]) break;
        heap[i] = heap[child];
        i = child;
    }
    if (*n) heap[i] = last;
    return top;
}

/* Line k's decisions after `from` must be checked again: pushed on the heap, the line noted in start (the first time). */
static void mark(const L3Box *box, const L3Cells *cells, int32_t k, int64_t from, int64_t *marked, int32_t *start,
                 int32_t *n_marked, int32_t *heap, int32_t *n_heap) {
    if (marked[k] != INT64_MAX) return;  /* its decisions after the first mark are on the heap or checked already */
    marked[k] = from == INT64_MAX ? INT64_MAX - 1 : from;  /* marked once whatever the times: start holds n_lines */
    start[(*n_marked)++] = k;
    for (int32_t i = box->line_start[k]; i < box->line_start[k + 1]; i++) {
        int32_t d = box->line_cells[i];
        if (cells->grid[d] >= 0 && cells->attr[d] == k && cells->when[d] > from) heap_push(heap, n_heap, cells->when, d);
    }
}

static int by_number(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

int l3_retract(const L3Box *box, const uint8_t *active, int32_t line, L3Cells *cells, L3Log *log, int32_t *heap,
               int64_t *marked, int32_t *start, int32_t *n_start, int32_t *dropped, L3Memo *memo, uint32_t memo_mask,
               int64_t *runs) {
    if (line < 0 || line >= box->n_lines) return -2;
    L3Run run = {active, cells->grid, NULL, 0, 0, NULL, NULL, 0, 0, 0, memo, memo_mask, -1};
    int8_t known[L3_MAX_LEN], out[L3_MAX_LEN];
    int32_t n_heap = 0, n_marked = 0;
    log->n = *dropped = 0;
    mark(box, cells, line, INT64_MIN, marked, start, &n_marked, heap, &n_heap);  /* every decision of the clue */
    while (n_heap) {
        int32_t c = heap_pop(heap, &n_heap, cells->when), k = cells->attr[c], by = k;
        int64_t at = cells->when[c];
        int keep = active[k] && decides_at(box, &run, cells, k, c, at, known, out);
        for (int32_t j = box->cell_start[c]; !keep && j < box->cell_start[c + 1]; j++) {
            by = box->cell_lines[j];  /* another line through the cell may decide it now */
            keep = by != k && active[by] && decides_at(box, &run, cells, by, c, at, known, out);
        }
        if (keep && by == k) continue;
        int32_t n = log->n++;
        log->cell[n] = c;
        log->value[n] = cells->grid[c];
        log->when[n] = at;
        log->attr[n] = k;
        if (keep) {
            cells->attr[c] = by;
            continue;
        }
        cells->grid[c] = -1;
        cells->when[c] = INT64_MAX;
        cells->attr[c] = -1;
        (*dropped)++;
        for (int32_t j = box->cell_start[c]; j < box->cell_start[c + 1]; j++)
            mark(box, cells, box->cell_lines[j], at, marked, start, &n_marked, heap, &n_heap);
    }
    *n_start = 0;
    for (int32_t i = 0; i < n_marked; i++) {  /* the marks undone; the active marked lines kept, in line order */
        int32_t k = start[i];
        marked[k] = INT64_MAX;
        if (active[k]) start[(*n_start)++] = k;
    }
    qsort(start, (size_t)*n_start, sizeof(int32_t), by_number);
    *runs = run.runs;
    return 0;
}
