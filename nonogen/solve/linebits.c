/* One line of fewer than 64 cells, solved with the cells as the bits of a word: the same dynamic
 * programming as solve_line in line.c (see linelogic.h), a table row at a time instead of a cell at
 * a time. A row of fw or bw is a word whose bit t is the entry for t: the entries that come from
 * placing a block are a shift and an AND, and the entries that come from background cells are a
 * fill along runs of cells that allow the background (six shifts, Kogge-Stone). A 30-cell line of
 * a colour puzzle takes about a fifth of the cell-by-cell time. */
#include "linelogic.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif

typedef uint64_t bits_t;

/* f[t] = f[t] | (f[t-1] & pass[t]), rippled upwards through runs of pass. */
static inline bits_t fill_up(bits_t f, bits_t pass) {
    f |= (f << 1) & pass;
    pass &= pass << 1;
    f |= (f << 2) & pass;
    pass &= pass << 2;
    f |= (f << 4) & pass;
    pass &= pass << 4;
    f |= (f << 8) & pass;
    pass &= pass << 8;
    f |= (f << 16) & pass;
    pass &= pass << 16;
    return f | ((f << 32) & pass);
}

/* g[t] = g[t] | (g[t+1] & pass[t]), rippled downwards through runs of pass. */
static inline bits_t fill_down(bits_t g, bits_t pass) {
    g |= (g >> 1) & pass;
    pass &= pass >> 1;
    g |= (g >> 2) & pass;
    pass &= pass >> 2;
    g |= (g >> 4) & pass;
    pass &= pass >> 4;
    g |= (g >> 8) & pass;
    pass &= pass >> 8;
    g |= (g >> 16) & pass;
    pass &= pass >> 16;
    return g | ((g >> 32) & pass);
}

/* Bits t of the cells that allow colour a. With SSE2 (every x86-64) four cells at a time: bit a of
 * each mask shifted to the top, where movemask gathers the four into the low bits (this loop was a
 * third of the solver's time). */
static bits_t allowing(const mask_t *d, int n, int a) {
    bits_t out = 0;
    int t = 0;
#ifdef __SSE2__
    const __m128i to_top = _mm_cvtsi32_si128(31 - a);
    for (; t + 4 <= n; t += 4) {
        __m128i top = _mm_sll_epi32(_mm_loadu_si128((const __m128i *)(d + t)), to_top);
        out |= (bits_t)(unsigned)_mm_movemask_ps(_mm_castsi128_ps(top)) << t;
    }
#endif
    for (; t < n; t++) out |= (bits_t)((d[t] >> a) & 1) << t;
    return out;
}

#ifdef __SSE2__
/* Row k: lanes 0..3 hold bits 0..3 of k, the masks of four cells from four bits of a word. */
static const uint32_t NIBBLE[16][4] = {
    {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {1, 1, 0, 0}, {0, 0, 1, 0}, {1, 0, 1, 0}, {0, 1, 1, 0}, {1, 1, 1, 0},
    {0, 0, 0, 1}, {1, 0, 0, 1}, {0, 1, 0, 1}, {1, 1, 0, 1}, {0, 0, 1, 1}, {1, 0, 1, 1}, {0, 1, 1, 1}, {1, 1, 1, 1},
};
#endif

/* out[t]: bit 0 when cell t may be background (bit t of bg), bit a when it may take colour a (bit t of
 * colour_cells[a], for the colours in used). With SSE2 four cells at a time, from a table. */
static void paint(mask_t *out, int n, bits_t bg, const bits_t *colour_cells, uint32_t used) {
    int t = 0;
#ifdef __SSE2__
    for (; t + 4 <= n; t += 4) {
        __m128i v = _mm_loadu_si128((const __m128i *)NIBBLE[bg >> t & 15]);
        for (uint32_t rest = used; rest; rest &= rest - 1) {
            int a = __builtin_ctz(rest);
            __m128i bit = _mm_loadu_si128((const __m128i *)NIBBLE[colour_cells[a] >> t & 15]);
            v = _mm_or_si128(v, _mm_sll_epi32(bit, _mm_cvtsi32_si128(a)));
        }
        _mm_storeu_si128((__m128i *)(out + t), v);
    }
#endif
    for (; t < n; t++) {
        mask_t m = (mask_t)(bg >> t & 1);
        for (uint32_t rest = used; rest; rest &= rest - 1) {
            int a = __builtin_ctz(rest);
            m |= (mask_t)(colour_cells[a] >> t & 1) << a;
        }
        out[t] = m;
    }
}

/* solve_line for n < 64 (the caller checks): w->out as solve_line gives it, and w->starts[i] the
 * starts of block i that some solution of the line uses (what placeable() reads afterwards). */
int solve_line_bits(const Clue *c, Work *w, int n, const mask_t *d) {
    const int k = c->k;
    const bits_t cells = ((bits_t)1 << n) - 1, ends = cells | ((bits_t)1 << n); /* cells 0..n-1, ends 0..n */
    bits_t *F = w->rows, *G = F + (k + 1), *P = G + (k + 1), *R = P + (k + 1), *starts = w->starts;
    bits_t A[32], colour_cells[32], B = allowing(d, n, 0);
    uint32_t known = 0, used = 0;
    w->bits = 1;
    for (int i = 0; i < k; i++) { /* P[i]: starts whose len cells all allow the block's colour */
        int a = c->col[i];
        if (!(known >> a & 1)) {
            A[a] = allowing(d, n, a);
            colour_cells[a] = 0;
            known |= 1u << a;
        }
        bits_t p = A[a];
        for (int j = 1; j < c->len[i]; j++) p &= A[a] >> j;
        P[i] = p;
    }
    /* forwards: F[i] bit t = the first t cells can hold exactly blocks 0..i-1 */
    bits_t not_bg = ~B & cells;
    int first_filled = not_bg ? __builtin_ctzll(not_bg) : n;
    F[0] = (((bits_t)2 << first_filled) - 1) & ends;
    for (int i = 1; i <= k; i++) {
        int b = i - 1;
        bits_t left = (b > 0 && c->col[b - 1] == c->col[b]) ? (F[b] & B) << 1 : F[b];
        F[i] = fill_up((left & P[b]) << c->len[b], B << 1) & ends;
    }
    if (!(F[k] >> n & 1)) return 0;
    /* backwards: G[i] bit t = cells t.. can hold exactly blocks i..k-1; R[i]: starts whose right side fits */
    int after_filled = not_bg ? 64 - __builtin_clzll(not_bg) : 0;
    G[k] = ends & ~(((bits_t)1 << after_filled) - 1);
    for (int i = k - 1; i >= 0; i--) {
        int same = i + 1 < k && c->col[i + 1] == c->col[i];
        R[i] = (same ? (G[i + 1] >> 1) & B : G[i + 1]) >> c->len[i];
        G[i] = fill_down(P[i] & R[i], B);
    }
    /* paint: background between blocks i-1 and i; each block's colour over its possible placements */
    bits_t bg = 0, painted;
    for (int i = 0; i <= k; i++) bg |= F[i] & (G[i] >> 1);
    bg &= B;
    painted = bg;
    for (int i = 0; i < k; i++) {
        bits_t left = (i > 0 && c->col[i - 1] == c->col[i]) ? (F[i] & B) << 1 : F[i];
        bits_t s = left & P[i] & R[i], cover = s;
        if (!s) return 0;
        starts[i] = s;
        for (int j = 1; j < c->len[i]; j++) cover |= s << j;
        colour_cells[c->col[i]] |= cover;
        used |= 1u << c->col[i];
        painted |= cover;
    }
    if (painted != cells) return 0;
    paint(w->out, n, bg, colour_cells, used);
    return 1;
}
