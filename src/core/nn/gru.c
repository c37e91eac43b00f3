/* GRU with Keras's defaults (reset_after=True), time-major.
 *
 * Gate order [z r n] in every kernel and bias. The reset gate multiplies the
 * recurrent part after its product: n = tanh(x Wn + b_in + r * (h Un + b_rn)). */
#include <stdlib.h>
#include <string.h>

#include "../kernels.h"
#include "../tensor.h"
#include "nn.h"

/* One step for rows 0..n-1: g holds x Wx + b_in for this step on entry and
 * [z r n] on exit; hu gets h_{t-1} U + b_rec. */
static void gru_step(float *ht, float *g, float *hu, const float *hp, const float *U,
                     const float *brec, int n, int H) {
    int G = 3 * H;
    for (int r = 0; r < n; r++) memcpy(hu + (size_t)r * G, brec, (size_t)G * sizeof *hu);
    if (hp) pl_kernels()->gemm_acc(hu, G, hp, H, U, G, n, G, H);
    for (int r = 0; r < n; r++) {
        float *gr = g + (size_t)r * G;
        const float *ur = hu + (size_t)r * G;
        for (int j = 0; j < 2 * H; j++) gr[j] += ur[j];
        pl_sigmoid_vec(gr, gr, (size_t)2 * H);
        for (int j = 0; j < H; j++) gr[2 * H + j] += gr[H + j] * ur[2 * H + j];
        pl_tanh_vec(gr + 2 * H, gr + 2 * H, (size_t)H);
        for (int j = 0; j < H; j++) {
            float z = gr[j], prev = hp ? hp[(size_t)r * H + j] : 0.0f;
            ht[(size_t)r * H + j] = z * prev + (1.0f - z) * gr[2 * H + j];
        }
    }
}

void pl_gru_scan(float *h, float *g, float *hu, const uint8_t *mask, const int *nact, const float *U,
                 const float *brec, int T, int B, int H) {
    int G = 3 * H;
    size_t step = (size_t)B * H, gstep = (size_t)B * G;
    for (int t = 0; t < T; t++) {
        int n = nact ? nact[t] : B;
        float *ht = h + t * step;
        const float *hp = t ? ht - step : NULL;
        gru_step(ht, g + t * gstep, hu + t * gstep, hp, U, brec, n, H);
        memset(ht + (size_t)n * H, 0, (step - (size_t)n * H) * sizeof *ht);
        for (int r = 0; mask && r < n; r++) {
            if (mask[(size_t)t * B + r]) continue;
            if (hp) memcpy(ht + (size_t)r * H, hp + (size_t)r * H, (size_t)H * sizeof *ht);
            else memset(ht + (size_t)r * H, 0, (size_t)H * sizeof *ht);
        }
    }
}

/* Gradients of one row of one step: da (input side) and dhu (recurrent side)
 * from dh; adds the direct path z * dh into dhp. */
static void gru_row_backward(float *da, float *dhu, float *dhp, const float *dh, const float *g,
                             const float *hu, const float *hp, int H) {
    for (int j = 0; j < H; j++) {
        float z = g[j], r = g[H + j], nn = g[2 * H + j], prev = hp ? hp[j] : 0.0f;
        float dz = dh[j] * (prev - nn);
        float dan = dh[j] * (1.0f - z) * (1.0f - nn * nn);
        float dr = dan * hu[2 * H + j];
        da[j] = dz * z * (1.0f - z);
        da[H + j] = dr * r * (1.0f - r);
        da[2 * H + j] = dan;
        dhu[j] = da[j];
        dhu[H + j] = da[H + j];
        dhu[2 * H + j] = dan * r;
        if (dhp) dhp[j] += dh[j] * z;
    }
}

void pl_gru_forward(float *h, float *g, float *hu, const float *x, const uint8_t *mask,
                    const int *nact, const float *Wx, const float *U, const float *b, int T, int B,
                    int E, int H) {
    pl_dense_forward(g, x, Wx, b, T * B, E, 3 * H);
    pl_gru_scan(h, g, hu, mask, nact, U, b + 3 * H, T, B, H);
}

void pl_gru_scan_backward(float *dU, float *dbrec, float *dh, float *da, float *dhu, const float *h,
                          const float *g, const float *hu, const uint8_t *mask, const int *nact,
                          const float *U, int T, int B, int H) {
    int G = 3 * H;
    size_t step = (size_t)B * H, gstep = (size_t)B * G;
    float *UT = pl_transpose_new(U, H, G);
    for (int t = T - 1; t >= 0; t--) {
        int n = nact ? nact[t] : B;
        float *dht = dh + t * step, *dhp = t ? dht - step : NULL;
        float *dat = da + t * gstep, *dut = dhu + t * gstep;
        const float *hp = t ? h + (t - 1) * step : NULL;
        memset(dat, 0, gstep * sizeof *dat);
        memset(dut, 0, gstep * sizeof *dut);
        for (int r = 0; r < n; r++) {
            size_t o = (size_t)r * H, og = (size_t)r * G;
            if (mask && !mask[(size_t)t * B + r]) {
                for (int j = 0; dhp && j < H; j++) dhp[o + j] += dht[o + j];
                continue;
            }
            gru_row_backward(dat + og, dut + og, dhp ? dhp + o : NULL, dht + o, g + t * gstep + og,
                             hu + t * gstep + og, hp ? hp + o : NULL, H);
        }
        if (dhp && UT) pl_kernels()->gemm_acc(dhp, H, dut, G, UT, H, n, H, G);
        else if (dhp) pl_gemm(0, 1, n, H, G, 1.0f, dut, G, U, G, 1.0f, dhp, H);
    }
    free(UT);
    for (size_t i = 0; i < (size_t)T * B; i++)
        for (int j = 0; j < G; j++) dbrec[j] += dhu[i * G + j];
    if (T > 1) pl_gemm(1, 0, H, G, (T - 1) * B, 1.0f, h, H, dhu + gstep, G, 1.0f, dU, G);
}

void pl_gru_backward(float *dx, float *dWx, float *dU, float *db, float *dh, float *da, float *dhu,
                     const float *h, const float *g, const float *hu, const float *x,
                     const uint8_t *mask, const int *nact, const float *Wx, const float *U, int T,
                     int B, int E, int H) {
    pl_gru_scan_backward(dU, db + 3 * H, dh, da, dhu, h, g, hu, mask, nact, U, T, B, H);
    pl_dense_backward(dx, dWx, db, da, x, Wx, T * B, E, 3 * H);
}
