/* The hot kernels, written once on GCC vector types. Included by one file
 * per vector level (kernels_base.c, kernels_avx2.c, kernels_avx512.c) after
 * it sets PL_K_BYTES (the vector width), PL_K_TABLE (the table's name),
 * PL_K_NAME and its target; every function here is static to that file.
 *
 * Shapes: the vector kernels run over flat arrays of n floats; a tail
 * shorter than a vector goes through a zero-padded vector, so the tail and
 * the body round alike. The products are row-major, C (M,N) += A (M,K) B
 * (K,N), in register tiles of 4 rows by 2 vectors, summed over k in order. */
#include <math.h>
#include <stdint.h>
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "kernels.h"
#include "tanh_fit.h"

typedef float VF __attribute__((vector_size(PL_K_BYTES)));
typedef int32_t VI __attribute__((vector_size(PL_K_BYTES)));
enum { L = PL_K_BYTES / 4 };

/* The kernels are not instrumented in the sanitizer build, as OpenBLAS is
 * not: instrumented, they slowed the sanitized suite past its time limits.
 * The unsanitized suite checks them against plain references. */
#define KFN static __attribute__((no_sanitize("address", "undefined")))
#define INL KFN inline __attribute__((always_inline))

INL VF vload(const float *p) {
    VF v;
    memcpy(&v, p, sizeof v);
    return v;
}
INL void vstore(float *p, VF v) { memcpy(p, &v, sizeof v); }
/* x - 0 is x for every x (a zero added would turn -0 into +0), so this folds to a broadcast. */
INL VF vsplat(float x) { return x - (VF){0}; }
/* Bitwise choice: a where m is all ones, b where it is zero (no branch). */
INL VF vsel(VI m, VF a, VF b) { return (VF)((m & (VI)a) | (~m & (VI)b)); }
INL VF vabs(VF a) { return (VF)((VI)a & 0x7fffffff); }
/* a clamped to [-c, c] (c > 0), a NaN kept: x86's max and min return their
 * second operand when either is NaN, so with the bound first each is
 * exactly vsel(a < -c, -c, a) and vsel(a > c, c, a), in one instruction. */
INL VF vclamp(VF a, VF c) {
#if defined(__x86_64__) && PL_K_BYTES == 16
    return (VF)_mm_min_ps((__m128)c, _mm_max_ps((__m128)-c, (__m128)a));
#elif defined(__x86_64__) && PL_K_BYTES == 32
    return (VF)_mm256_min_ps((__m256)c, _mm256_max_ps((__m256)-c, (__m256)a));
#elif defined(__x86_64__) && PL_K_BYTES == 64
    return (VF)_mm512_min_ps((__m512)c, _mm512_max_ps((__m512)-c, (__m512)a));
#else
    VF x = vsel(a > c, c, a);
    return vsel(a < -c, -c, x);
#endif
}
/* *p, or zeros for a NULL p (a first step's previous state). */
INL VF vload_or0(const float *p) { return p ? vload(p) : vsplat(0.0f); }

/* tensor.c's tanh_rational, lane by lane (tanh_fit.h): +-1 beyond 7.9, x
 * itself below 4e-4. */
INL VF v_tanh(VF a) {
    VF x = vclamp(a, vsplat(PL_TANH_LIMIT)), r;
    PL_TANH_RATIO(VF, x, r);
    return vsel(vabs(a) < PL_TANH_LINEAR, a, r);
}

INL VF v_sigmoid(VF a) { return 0.5f + 0.5f * v_tanh(0.5f * a); }

/* ---- elementwise ------------------------------------------------------------ */

KFN void k_tanh(float *y, const float *x, size_t n) {
    size_t i = 0;
    for (; i + L <= n; i += L) vstore(y + i, v_tanh(vload(x + i)));
    if (i == n) return;
    float buf[L] = {0};
    memcpy(buf, x + i, (n - i) * sizeof *buf);
    vstore(buf, v_tanh(vload(buf)));
    memcpy(y + i, buf, (n - i) * sizeof *buf);
}

KFN void k_sigmoid(float *y, const float *x, size_t n) {
    size_t i = 0;
    for (; i + L <= n; i += L) vstore(y + i, v_sigmoid(vload(x + i)));
    if (i == n) return;
    float buf[L] = {0};
    memcpy(buf, x + i, (n - i) * sizeof *buf);
    vstore(buf, v_sigmoid(vload(buf)));
    memcpy(y + i, buf, (n - i) * sizeof *buf);
}

KFN void k_dtanh(float *da, const float *dh, const float *h, size_t n) {
    for (size_t i = 0; i < n; i++) da[i] = dh[i] * (1.0f - h[i] * h[i]);
}

KFN void k_add(float *restrict y, const float *restrict x, size_t n) {
    for (size_t i = 0; i < n; i++) y[i] += x[i];
}

KFN void k_add_rows(float *y, const int *to, const float *x, size_t rows, int w, int skip) {
    for (size_t r = 0; r < rows; r++) {
        if (to[r] == skip) continue;
        float *restrict yr = y + (size_t)to[r] * w;
        const float *restrict xr = x + r * w;
        int i = 0;
        for (; i + L <= w; i += L) vstore(yr + i, vload(yr + i) + vload(xr + i));
        for (; i < w; i++) yr[i] += xr[i];
    }
}

KFN void k_adam(float *restrict w, float *restrict g, float *restrict m, float *restrict v, size_t n, float alpha,
                float b1, float b2, float eps) {
    float c1 = 1.0f - b1, c2 = 1.0f - b2;
    for (size_t i = 0; i < n; i++) {
        float gi = g[i];
        float mi = m[i] + (gi - m[i]) * c1;
        float vi = v[i] + (gi * gi - v[i]) * c2;
        m[i] = mi;
        v[i] = vi;
        w[i] -= alpha * mi / (sqrtf(vi) + eps);
        g[i] = 0.0f;
    }
}

/* ---- small products ---------------------------------------------------------- */

/* C (mr, nv*L) += A (mr,K) B (K, nv*L), then tanh when act; with ta, A is
 * stored transposed, (K, mr). mr, nv, act and ta are constants at every
 * call, so the tile lives in registers. */
/* The rows a product starts from: C's own, or (rows not NULL) row xi[i] of
 * rows (row stride ld), already offset to the tile's first column. */
typedef struct {
    const float *rows;
    const int *xi;
    int ld;
} Init;

INL const float *init_row(Init x, const float *C, int ldc, int i) {
    return x.rows ? x.rows + (size_t)x.xi[i] * x.ld : C + (size_t)i * ldc;
}

INL void tile(float *C, int ldc, Init x, const float *A, int lda, const float *B, int ldb, int K, int mr, int nv,
              int act, int ta) {
    VF c[4][2];
#pragma GCC unroll 4
    for (int i = 0; i < mr; i++)
#pragma GCC unroll 2
        for (int j = 0; j < nv; j++) c[i][j] = vload(init_row(x, C, ldc, i) + j * L);
    for (int k = 0; k < K; k++) {
        const float *bk = B + (size_t)k * ldb;
        VF b0 = vload(bk), b1 = nv > 1 ? vload(bk + L) : b0;
#pragma GCC unroll 4
        for (int i = 0; i < mr; i++) {
            VF a = vsplat(ta ? A[(size_t)k * lda + i] : A[(size_t)i * lda + k]);
            c[i][0] += a * b0;
            if (nv > 1) c[i][1] += a * b1;
        }
    }
#pragma GCC unroll 4
    for (int i = 0; i < mr; i++)
#pragma GCC unroll 2
        for (int j = 0; j < nv; j++) vstore(C + (size_t)i * ldc + j * L, act ? v_tanh(c[i][j]) : c[i][j]);
}

/* Every row of one column block of nv vectors. */
INL void tile_rows(float *C, int ldc, Init x, const float *A, int lda, const float *B, int ldb, int M, int K, int nv,
                   int act, int ta) {
    int i = 0;
#define A_AT(i) (ta ? A + (i) : A + (size_t)(i)*lda)
#define X_AT(i) ((Init){x.rows, x.rows ? x.xi + (i) : NULL, x.ld})
    for (; i + 4 <= M; i += 4) tile(C + (size_t)i * ldc, ldc, X_AT(i), A_AT(i), lda, B, ldb, K, 4, nv, act, ta);
    float *Ci = C + (size_t)i * ldc;
    const float *Ai = A_AT(i);
    Init xi = X_AT(i);
#undef A_AT
#undef X_AT
    switch (M - i) {
    case 3: tile(Ci, ldc, xi, Ai, lda, B, ldb, K, 3, nv, act, ta); break;
    case 2: tile(Ci, ldc, xi, Ai, lda, B, ldb, K, 2, nv, act, ta); break;
    case 1: tile(Ci, ldc, xi, Ai, lda, B, ldb, K, 1, nv, act, ta); break;
    default: break;
    }
}

/* The columns past the last whole vector, one by one. */
KFN void tail_cols(float *C, int ldc, const float *A, int lda, const float *B, int ldb, int M, int N0, int N, int K,
                   int act, int ta) {
    for (int i = 0; i < M; i++) {
        float *ci = C + (size_t)i * ldc;
        for (int j = N0; j < N; j++) {
            float s = ci[j];
            for (int k = 0; k < K; k++)
                s += (ta ? A[(size_t)k * lda + i] : A[(size_t)i * lda + k]) * B[(size_t)k * ldb + j];
            ci[j] = s;
        }
        if (act) k_tanh(ci + N0, ci + N0, (size_t)(N - N0));
    }
}

/* x.rows given: N is whole vectors (the tail reads C). */
INL void gemm_run_from(float *C, int ldc, Init x, const float *A, int lda, const float *B, int ldb, int M, int N, int K,
                       int act, int ta) {
    int j = 0;
#define X_COL(j) ((Init){x.rows ? x.rows + (j) : NULL, x.xi, x.ld})
    for (; j + 2 * L <= N; j += 2 * L) tile_rows(C + j, ldc, X_COL(j), A, lda, B + j, ldb, M, K, 2, act, ta);
    for (; j + L <= N; j += L) tile_rows(C + j, ldc, X_COL(j), A, lda, B + j, ldb, M, K, 1, act, ta);
#undef X_COL
    if (j < N) tail_cols(C, ldc, A, lda, B, ldb, M, j, N, K, act, ta);
}

INL void gemm_run(float *C, int ldc, const float *A, int lda, const float *B, int ldb, int M, int N, int K, int act,
                  int ta) {
    gemm_run_from(C, ldc, (Init){NULL, NULL, 0}, A, lda, B, ldb, M, N, K, act, ta);
}

KFN void k_gemm_acc(float *C, int ldc, const float *A, int lda, const float *B, int ldb, int M, int N, int K) {
    gemm_run(C, ldc, A, lda, B, ldb, M, N, K, 0, 0);
}

KFN void k_gemm_tn_acc(float *C, int ldc, const float *A, int lda, const float *B, int ldb, int M, int N, int K) {
    gemm_run(C, ldc, A, lda, B, ldb, M, N, K, 0, 1);
}

KFN void k_gemm_tanh(float *C, int ldc, const float *A, int lda, const float *B, int ldb, int M, int N, int K) {
    if (!A) {
        for (int i = 0; i < M; i++) k_tanh(C + (size_t)i * ldc, C + (size_t)i * ldc, (size_t)N);
        return;
    }
    gemm_run(C, ldc, A, lda, B, ldb, M, N, K, 1, 0);
}

KFN void k_gemm_tanh_rows(float *C, int ldc, const float *X, const int *xi, int ldx, const float *A, int lda,
                          const float *B, int ldb, int M, int N, int K) {
    if (!A || N % L) {
        for (int i = 0; i < M; i++) memcpy(C + (size_t)i * ldc, X + (size_t)xi[i] * ldx, (size_t)N * sizeof *C);
        k_gemm_tanh(C, ldc, A, lda, B, ldb, M, N, K);
        return;
    }
    gemm_run_from(C, ldc, (Init){X, xi, ldx}, A, lda, B, ldb, M, N, K, 1, 0);
}

/* ---- the gated cells' elementwise parts, one row of a step -------------------
 * Layouts as gru.c and lstm.c state them: GRU gates [z r n] with hu = h U +
 * b_rec, LSTM gates [i f c o]. A NULL previous state reads as zeros. */

/* g (3H): x Wx + b_in on entry, [z r n] on exit; ht = z*hp + (1-z)*n. */
KFN void k_gru_row(float *restrict ht, float *restrict g, const float *restrict hu, const float *restrict hp, int H) {
    for (int j = 0; j < 2 * H; j++) g[j] += hu[j];
    k_sigmoid(g, g, (size_t)2 * H);
    for (int j = 0; j < H; j++) g[2 * H + j] += g[H + j] * hu[2 * H + j];
    k_tanh(g + 2 * H, g + 2 * H, (size_t)H);
    for (int j = 0; j < H; j++) {
        float z = g[j], prev = hp ? hp[j] : 0.0f;
        ht[j] = z * prev + (1.0f - z) * g[2 * H + j];
    }
}

/* da (3H) and dhu (3H) from dh; dhp += z * dh (dhp may be NULL); hun (H) is
 * h Un + b_rn. */
KFN void k_gru_row_backward(float *restrict da, float *restrict dhu, float *restrict dhp, const float *restrict dh,
                            const float *restrict g, const float *restrict hun, const float *restrict hp, int H) {
    for (int j = 0; j < H; j++) {
        float z = g[j], r = g[H + j], nn = g[2 * H + j], prev = hp ? hp[j] : 0.0f;
        float dz = dh[j] * (prev - nn);
        float dan = dh[j] * (1.0f - z) * (1.0f - nn * nn);
        float dr = dan * hun[j];
        da[j] = dz * z * (1.0f - z);
        da[H + j] = dr * r * (1.0f - r);
        da[2 * H + j] = dan;
        dhu[j] = da[j];
        dhu[H + j] = da[H + j];
        dhu[2 * H + j] = dan * r;
    }
    if (dhp)
        for (int j = 0; j < H; j++) dhp[j] += dh[j] * g[j];
}

/* g (4H): x Wx + b + h U on entry, the activated gates on exit; the cell
 * ct = f*cp + i*c and ht = o*tanh(ct). */
KFN void k_lstm_row(float *restrict ht, float *restrict ct, float *restrict g, const float *restrict cp, int H) {
    k_sigmoid(g, g, (size_t)2 * H);
    k_tanh(g + 2 * H, g + 2 * H, (size_t)H);
    k_sigmoid(g + 3 * H, g + 3 * H, (size_t)H);
    for (int j = 0; j < H; j++) ct[j] = g[H + j] * (cp ? cp[j] : 0.0f) + g[j] * g[2 * H + j];
    k_tanh(ht, ct, (size_t)H);
    for (int j = 0; j < H; j++) ht[j] *= g[3 * H + j];
}

/* da (4H) from dh and the carried dc (H), which becomes dc_{t-1}. */
KFN void k_lstm_row_backward(float *restrict da, float *restrict dc, const float *restrict dh, const float *restrict g,
                             const float *restrict c, const float *restrict cp, int H) {
    float *tcs = da + 3 * H; /* tanh(c), each read before its slot is written */
    k_tanh(tcs, c, (size_t)H);
    for (int j = 0; j < H; j++) {
        float i = g[j], f = g[H + j], gg = g[2 * H + j], o = g[3 * H + j], tc = tcs[j];
        float dct = dc[j] + dh[j] * o * (1.0f - tc * tc);
        da[j] = dct * gg * i * (1.0f - i);
        da[H + j] = dct * (cp ? cp[j] : 0.0f) * f * (1.0f - f);
        da[2 * H + j] = dct * i * (1.0f - gg * gg);
        da[3 * H + j] = dh[j] * tc * o * (1.0f - o);
        dc[j] = dct * f;
    }
}

/* ---- the gated cells' steps ---------------------------------------------------
 * A step for rows 0..n-1: the recurrent product of all rows and gates (its
 * operands in L1, its accumulators in registers), then the rows' gates, each
 * over whole rows of vectors. (Fusing the gates into the product's register
 * tile measured slower: the few activations per tile form chains of
 * dependent operations, where a whole row gives the vector units many
 * independent ones.) hp (and cp) NULL reads as zeros (the first step). */

/* The gates of one GRU row, one column block j..j+L of each: the row's
 * blocks are independent, so the vector units overlap their chains. */
INL void gru_gates(float *ht, float *g, float *hun, const float *x, const float *hu, const float *hp, int j, int H) {
    VF z = v_sigmoid(vload(x + j) + vload(hu + j)), r = v_sigmoid(vload(x + H + j) + vload(hu + H + j));
    VF un = vload(hu + 2 * H + j), nn = v_tanh(vload(x + 2 * H + j) + r * un);
    vstore(hun + j, un);
    vstore(g + j, z), vstore(g + H + j, r), vstore(g + 2 * H + j, nn);
    vstore(ht + j, z * vload_or0(hp ? hp + j : NULL) + (1.0f - z) * nn);
}

/* rows (n,G) = X[xi[r]], the projected input where the step kernels cannot read it in place. */
KFN void copy_rows(float *rows, const float *X, const int *xi, int n, int G) {
    for (int r = 0; r < n; r++) memcpy(rows + (size_t)r * G, X + (size_t)xi[r] * G, (size_t)G * sizeof *rows);
}

KFN void k_gru_step(float *ht, float *g, float *hun, float *hu, const float *X, const int *xi, const float *hp,
                    const float *U, const float *brec, int n, int H) {
    int G = 3 * H;
    if (X && H % L) copy_rows(g, X, xi, n, G), X = NULL;
    for (int r = 0; r < n; r++) memcpy(hu + (size_t)r * G, brec, (size_t)G * sizeof *hu);
    if (hp) gemm_run(hu, G, hp, H, U, G, n, G, H, 0, 0);
    for (int r = 0; r < n; r++) {
        float *htr = ht + (size_t)r * H, *gr = g + (size_t)r * G;
        float *hunr = hun + (size_t)r * H;
        const float *hur = hu + (size_t)r * G, *hpr = hp ? hp + (size_t)r * H : NULL;
        const float *xr = X ? X + (size_t)xi[r] * G : gr;
        if (H % L) k_gru_row(htr, gr, hur, hpr, H), memcpy(hunr, hur + 2 * H, (size_t)H * sizeof *hunr);
        else
            for (int j = 0; j < H; j += L) gru_gates(htr, gr, hunr, xr, hur, hpr, j, H);
    }
}

/* The gates, cell and state of one LSTM row, one column block of each. */
INL void lstm_gates(float *ht, float *ct, float *g, const float *cp, int j, int H) {
    VF i = v_sigmoid(vload(g + j)), f = v_sigmoid(vload(g + H + j));
    VF c = v_tanh(vload(g + 2 * H + j)), o = v_sigmoid(vload(g + 3 * H + j));
    vstore(g + j, i), vstore(g + H + j, f), vstore(g + 2 * H + j, c), vstore(g + 3 * H + j, o);
    VF cn = f * vload_or0(cp ? cp + j : NULL) + i * c;
    vstore(ct + j, cn);
    vstore(ht + j, v_tanh(cn) * o);
}

KFN void k_lstm_step(float *ht, float *ct, float *g, const float *X, const int *xi, const float *hp, const float *cp,
                     const float *U, int n, int H) {
    int G = 4 * H;
    if (X && (!hp || H % L)) copy_rows(g, X, xi, n, G), X = NULL;
    if (hp) gemm_run_from(g, G, (Init){X, xi, G}, hp, H, U, G, n, G, H, 0, 0);
    for (int r = 0; r < n; r++) {
        float *htr = ht + (size_t)r * H, *ctr = ct + (size_t)r * H, *gr = g + (size_t)r * G;
        const float *cpr = cp ? cp + (size_t)r * H : NULL;
        if (H % L) k_lstm_row(htr, ctr, gr, cpr, H);
        else
            for (int j = 0; j < H; j += L) lstm_gates(htr, ctr, gr, cpr, j, H);
    }
}

/* ---- the gated cells' steps backward ---------------------------------------
 * Rows 0..n-1 of one step, back through the gates: keep (n) NULL or 1 for a
 * real row; a 0 row is a carried step (Keras's mask), its da (and dhu) zero
 * and its dh passed on whole to dhp. dhp NULL: the first step. The rows past
 * n are the caller's. */

/* One GRU row, the columns j..j+L of each gate; dbrec += dhu. */
INL void gru_back_block(float *da, float *dhu, float *dhp, float *dbrec, const float *dh, const float *g,
                        const float *hun, const float *hp, int j, int H) {
    VF z = vload(g + j), r = vload(g + H + j), nn = vload(g + 2 * H + j), d = vload(dh + j);
    VF dz = d * (vload_or0(hp ? hp + j : NULL) - nn);
    VF dan = d * (1.0f - z) * (1.0f - nn * nn);
    VF dr = dan * vload(hun + j);
    VF daz = dz * z * (1.0f - z), dar = dr * r * (1.0f - r), dun = dan * r;
    vstore(da + j, daz), vstore(da + H + j, dar), vstore(da + 2 * H + j, dan);
    vstore(dhu + j, daz), vstore(dhu + H + j, dar), vstore(dhu + 2 * H + j, dun);
    vstore(dbrec + j, vload(dbrec + j) + daz);
    vstore(dbrec + H + j, vload(dbrec + H + j) + dar);
    vstore(dbrec + 2 * H + j, vload(dbrec + 2 * H + j) + dun);
    if (dhp) vstore(dhp + j, vload(dhp + j) + d * z);
}

/* A carried row: no gradient into the gates, dh passes through. */
KFN void carry_row(float *da, float *dhu, float *dhp, const float *dh, int G, int H) {
    memset(da, 0, (size_t)G * sizeof *da);
    if (dhu) memset(dhu, 0, (size_t)G * sizeof *dhu);
    if (dhp) k_add(dhp, dh, (size_t)H);
}

KFN void k_gru_step_backward(float *da, float *dhu, float *dhp, float *dbrec, const float *dh, const float *g,
                             const float *hun, const float *hp, const uint8_t *keep, int n, int H) {
    int G = 3 * H;
    for (int r = 0; r < n; r++) {
        size_t o = (size_t)r * H, og = (size_t)r * G;
        float *dhpr = dhp ? dhp + o : NULL;
        const float *hpr = hp ? hp + o : NULL;
        if (keep && !keep[r]) {
            carry_row(da + og, dhu + og, dhpr, dh + o, G, H);
            continue;
        }
        if (H % L) {
            k_gru_row_backward(da + og, dhu + og, dhpr, dh + o, g + og, hun + o, hpr, H);
            k_add(dbrec, dhu + og, (size_t)G);
            continue;
        }
        for (int j = 0; j < H; j += L)
            gru_back_block(da + og, dhu + og, dhpr, dbrec, dh + o, g + og, hun + o, hpr, j, H);
    }
}

/* One LSTM row, the columns j..j+L of each gate. */
INL void lstm_back_block(float *da, float *dc, const float *dh, const float *g, const float *c, const float *cp, int j,
                         int H) {
    VF i = vload(g + j), f = vload(g + H + j), gg = vload(g + 2 * H + j), o = vload(g + 3 * H + j);
    VF tc = v_tanh(vload(c + j)), d = vload(dh + j);
    VF dct = vload(dc + j) + d * o * (1.0f - tc * tc);
    vstore(da + j, dct * gg * i * (1.0f - i));
    vstore(da + H + j, dct * vload_or0(cp ? cp + j : NULL) * f * (1.0f - f));
    vstore(da + 2 * H + j, dct * i * (1.0f - gg * gg));
    vstore(da + 3 * H + j, d * tc * o * (1.0f - o));
    vstore(dc + j, dct * f);
}

/* dhp, when given, gets the carried rows' dh (the product with U is the caller's). */
KFN void k_lstm_step_backward(float *da, float *dc, float *dhp, const float *dh, const float *g, const float *c,
                              const float *cp, const uint8_t *keep, int n, int H) {
    int G = 4 * H;
    for (int r = 0; r < n; r++) {
        size_t o = (size_t)r * H, og = (size_t)r * G;
        const float *cpr = cp ? cp + o : NULL;
        if (keep && !keep[r]) {
            carry_row(da + og, NULL, dhp ? dhp + o : NULL, dh + o, G, H);
            continue;
        }
        if (H % L) {
            k_lstm_row_backward(da + og, dc + o, dh + o, g + og, c + o, cpr, H);
            continue;
        }
        for (int j = 0; j < H; j += L) lstm_back_block(da + og, dc + o, dh + o, g + og, c + o, cpr, j, H);
    }
}

const PlKernels PL_K_TABLE = {
    .name = PL_K_NAME,
    .tanh = k_tanh,
    .sigmoid = k_sigmoid,
    .gemm_acc = k_gemm_acc,
    .gemm_tanh = k_gemm_tanh,
    .gemm_tanh_rows = k_gemm_tanh_rows,
    .gemm_tn_acc = k_gemm_tn_acc,
    .dtanh = k_dtanh,
    .add = k_add,
    .add_rows = k_add_rows,
    .gru_step = k_gru_step,
    .gru_step_backward = k_gru_step_backward,
    .lstm_step = k_lstm_step,
    .lstm_step_backward = k_lstm_step_backward,
    .adam = k_adam,
};
