/* Self-attention one query at a time (see attend.h).
 *
 * For each batch row b and head h the keys the mask lets through are
 * gathered once: idx (n) their positions, K in blocks of LANES keys (block,
 * D, LANES) so that one vector holds one dimension of LANES keys, V (n, Dp)
 * with D rounded up to Dp, a multiple of LANES. A query's scores, exps and
 * weights then live in one row s of scratch.
 *
 * The kernel (attend_lanes.h) is built three times, for SSE2 (4 lanes, any
 * x86-64; plain C vectors elsewhere), AVX2 with FMA (8) and AVX-512 (16),
 * each with vectors one register wide (one width for all, as target_clones
 * would give, compiles to split registers and runs five times slower on
 * AVX2); pl_attend runs the widest the CPU has. The choice depends
 * on the machine alone, so one machine gets the same numbers on every run;
 * machines with different widths differ in the last bits of a sum. */
#include "attend.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn.h"

/* The carved scratch of one call, sized for 16 lanes (enough for any width). */
typedef struct {
    int *idx;       /* (T) the positions of the keys the mask lets through */
    int32_t *selm;  /* (nb*16) -1 where that key is one a->sel marks */
    uint8_t *done;  /* (T) queries computed in this row and head */
    uint8_t *empty; /* (T) computed queries with all-zero weights */
    int *nan;       /* (T) NaN among each computed query's weights */
    float *K;       /* (nb, D, LANES) */
    float *V;       /* (T, Dp) */
    float *s;       /* (nb*16) one query's scores, then weights */
} Scratch;

static size_t round64(size_t n) { return (n + 63) & ~(size_t)63; }

static size_t carve(const PlAttend *a, char *base, Scratch *w) {
    size_t T = (size_t)a->T, nb = (T + 15) / 16, Dp = ((size_t)a->D + 15) / 16 * 16;
    size_t sizes[8] = {T * sizeof(int),
                       nb * 16 * sizeof(int32_t),
                       T,
                       T,
                       T * sizeof(int),
                       nb * 16 * (size_t)a->D * sizeof(float),
                       T * Dp * sizeof(float),
                       nb * 16 * sizeof(float)};
    void **slots[8] = {(void **)&w->idx, (void **)&w->selm, (void **)&w->done, (void **)&w->empty,
                       (void **)&w->nan, (void **)&w->K,    (void **)&w->V,    (void **)&w->s};
    size_t at = 0;
    for (int i = 0; i < 8; i++) {
        if (base) *slots[i] = base + at;
        at += round64(sizes[i]);
    }
    return at + 64; /* room to align the base */
}

size_t pl_attend_scratch(const PlAttend *a) {
    Scratch w;
    return carve(a, NULL, &w);
}

/* lane_ones + 16 - n: n set lanes, then clear ones. */
static const int32_t lane_ones[32] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};

#define LANES 4
#define VARIANT(name) name##_sse2
#define TARGET
#include "attend_lanes.h"
#undef LANES
#undef VARIANT
#undef TARGET

#if defined(__x86_64__) || defined(__i386__)
#define PL_ATTEND_X86 1
#define LANES 8
#define VARIANT(name) name##_avx2
#define TARGET __attribute__((target("avx2,fma")))
#include "attend_lanes.h"
#undef LANES
#undef VARIANT
#undef TARGET

#define LANES 16
#define VARIANT(name) name##_avx512
#define TARGET __attribute__((target("avx512f,avx2,fma")))
#include "attend_lanes.h"
#undef LANES
#undef VARIANT
#undef TARGET
#endif

int pl_attend_lanes_ok(int lanes) {
#ifdef PL_ATTEND_X86
    int avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    if (lanes == 16) return avx2 && __builtin_cpu_supports("avx512f");
    if (lanes == 8) return avx2;
#endif
    return lanes == 4;
}

void pl_attend(float *o, float *keep, float *wsum, float *wsel, PlAttendCounts *counts, void *scratch, const float *q,
               const float *k, const float *v, const PlAttend *a) {
    Scratch w;
    carve(a, (char *)scratch + (64 - (uintptr_t)scratch % 64) % 64, &w);
    int lanes = a->lanes && pl_attend_lanes_ok(a->lanes) ? a->lanes
                : pl_attend_lanes_ok(16)                 ? 16
                : pl_attend_lanes_ok(8)                  ? 8
                                                         : 4;
#ifdef PL_ATTEND_X86
    if (lanes == 16) attend_avx512(o, keep, wsum, wsel, counts, &w, q, k, v, a);
    else if (lanes == 8) attend_avx2(o, keep, wsum, wsel, counts, &w, q, k, v, a);
    else
#endif
        attend_sse2(o, keep, wsum, wsel, counts, &w, q, k, v, a);
}

static int cmp_i64(const void *x, const void *y) {
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

void pl_attend_same_ids(int *same, const int32_t *ids, const uint8_t *query, int B, int T, int64_t *scratch) {
    for (int b = 0; b < B; b++) {
        const int32_t *row = ids + (size_t)b * T;
        int *out = same + (size_t)b * T, n = 0;
        for (int i = 0; i < T; i++) {
            out[i] = i;
            if (!query || query[(size_t)b * T + i]) scratch[n++] = (int64_t)row[i] * ((int64_t)1 << 32) + i;
        }
        /* Sorted by id, then position: each run of one id starts at its first query. */
        qsort(scratch, (size_t)n, sizeof *scratch, cmp_i64);
        for (int p = 1, first = n ? (int)(scratch[0] & 0xffffffff) : 0; p < n; p++) {
            int i = (int)(scratch[p] & 0xffffffff);
            if (row[i] == row[first]) out[i] = first;
            else first = i;
        }
    }
}

void pl_attend_bufs_done(PlAttendBufs *w) {
    if (!w) return;
    free(w->x), free(w->q), free(w->k), free(w->v), free(w->o), free(w->y);
    free(w->same), free(w->ids_scratch), free(w->scratch);
    memset(w, 0, sizeof *w);
}

/* Grows *p to at least n bytes; 0, or -1 with *p untouched. */
static int grow(void *p, size_t n, size_t have) {
    if (n <= have) return 0;
    void *q = realloc(*(void **)p, n);
    if (!q) return -1;
    *(void **)p = q;
    return 0;
}

int pl_attend_bufs_reserve(PlAttendBufs *w, int T, int B, int E, int NH, int D) {
    size_t cells = (size_t)T * B, ce = cells * E, chd = cells * NH * D;
    PlAttend a = {.T = T, .B = B, .NH = NH, .D = D};
    size_t sb = pl_attend_scratch(&a);
    if (grow(&w->x, ce * sizeof(float), w->cells_e * sizeof(float)) ||
        grow(&w->y, ce * sizeof(float), w->cells_e * sizeof(float)))
        return -1;
    w->cells_e = ce > w->cells_e ? ce : w->cells_e;
    if (grow(&w->q, chd * sizeof(float), w->cells_hd * sizeof(float)) ||
        grow(&w->k, chd * sizeof(float), w->cells_hd * sizeof(float)) ||
        grow(&w->v, chd * sizeof(float), w->cells_hd * sizeof(float)) ||
        grow(&w->o, chd * sizeof(float), w->cells_hd * sizeof(float)))
        return -1;
    w->cells_hd = chd > w->cells_hd ? chd : w->cells_hd;
    /* same is (B,T) and ids_scratch (T); cells >= T bounds both. */
    if (grow(&w->same, cells * sizeof(int), w->cells * sizeof(int)) ||
        grow(&w->ids_scratch, cells * sizeof(int64_t), w->cells * sizeof(int64_t)))
        return -1;
    w->cells = cells > w->cells ? cells : w->cells;
    if (grow(&w->scratch, sb, w->scratch_bytes)) return -1;
    w->scratch_bytes = sb > w->scratch_bytes ? sb : w->scratch_bytes;
    return 0;
}

void pl_attend_layer(PlAttendBufs *w, float *keep, float *wsum, float *wsel, PlAttendCounts *counts, const int32_t *ids,
                     const float *Wq, const float *Wk, const float *Wv, const float *Wo, int E, const PlAttend *a) {
    int N = a->T * a->B, HD = a->NH * a->D;
    pl_dense_forward(w->q, w->x, Wq, NULL, N, E, HD);
    pl_dense_forward(w->k, w->x, Wk, NULL, N, E, HD);
    pl_dense_forward(w->v, w->x, Wv, NULL, N, E, HD);
    PlAttend s = *a;
    if (ids && !a->causal) {
        pl_attend_same_ids(w->same, ids, a->query, a->B, a->T, w->ids_scratch);
        s.same = w->same;
    }
    if (a->query) memset(w->o, 0, (size_t)N * HD * sizeof *w->o);
    pl_attend(w->o, keep, wsum, wsel, counts, w->scratch, w->q, w->k, w->v, &s);
    pl_dense_forward(w->y, w->o, Wo, NULL, N, HD, E);
}
