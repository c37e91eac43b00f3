/* GRU with Keras's defaults (reset_after=True), time-major.
 *
 * Gate order [z r n] in every kernel and bias. The reset gate multiplies the
 * recurrent part after its product: n = tanh(x Wn + b_in + r * (h Un + b_rn)). */
#include <stdlib.h>
#include <string.h>

#include "../kernels.h"
#include "../tensor.h"
#include "nn.h"

void pl_gru_scan(float *h, float *g, float *hu, const PlScanIn *in, const uint8_t *mask, const int *nact,
                 const float *U, const float *brec, int T, int B, int H) {
    int G = 3 * H;
    size_t step = (size_t)B * H, gstep = (size_t)B * G;
    for (int t = 0; t < T; t++) {
        int n = nact ? nact[t] : B;
        float *ht = h + t * step;
        const float *hp = t ? ht - step : NULL;
        const float *X = in ? in->rows : NULL;
        const int *xi = in ? in->idx + (size_t)t * B : NULL;
        pl_kernels()->gru_step(ht, g + t * gstep, hu + t * step, hu + T * step, X, xi, hp, U, brec, n, H);
        memset(ht + (size_t)n * H, 0, (step - (size_t)n * H) * sizeof *ht);
        for (int r = 0; mask && r < n; r++) {
            if (mask[(size_t)t * B + r]) continue;
            if (hp) memcpy(ht + (size_t)r * H, hp + (size_t)r * H, (size_t)H * sizeof *ht);
            else memset(ht + (size_t)r * H, 0, (size_t)H * sizeof *ht);
        }
    }
}

void pl_gru_forward(float *h, float *g, float *hu, const float *x, const uint8_t *mask, const int *nact,
                    const float *Wx, const float *U, const float *b, int T, int B, int E, int H) {
    pl_dense_forward(g, x, Wx, b, T * B, E, 3 * H);
    pl_gru_scan(h, g, hu, NULL, mask, nact, U, b + 3 * H, T, B, H);
}

void pl_gru_scan_backward(float *dU, float *dbrec, float *dh, float *da, float *dhu, const float *h, const float *g,
                          const float *hu, const uint8_t *mask, const int *nact, const float *U, int T, int B, int H,
                          float *ut) {
    int G = 3 * H;
    size_t step = (size_t)B * H, gstep = (size_t)B * G;
    float *UT = pl_transpose_into(ut, U, H, G);
    for (int t = T - 1; t >= 0; t--) {
        int n = nact ? nact[t] : B;
        float *dht = dh + t * step, *dhp = t ? dht - step : NULL;
        float *dat = da + t * gstep, *dut = dhu;
        const float *hp = t ? h + (t - 1) * step : NULL;
        memset(dat + (size_t)n * G, 0, (gstep - (size_t)n * G) * sizeof *dat);
        pl_kernels()->gru_step_backward(dat, dut, dhp, dbrec, dht, g + t * gstep, hu + t * step, hp,
                                        mask ? mask + (size_t)t * B : NULL, n, H);
        /* dU += h_{t-1}^T dhu_t while dhu_t is in cache */
        if (dhp) pl_kernels()->gemm_tn_acc(dU, G, hp, H, dut, G, H, G, n);
        if (dhp) pl_kernels()->gemm_acc(dhp, H, dut, G, UT, H, n, H, G);
    }
}

void pl_gru_backward(float *dx, float *dWx, float *dU, float *db, float *dh, float *da, float *dhu, const float *h,
                     const float *g, const float *hu, const float *x, const uint8_t *mask, const int *nact,
                     const float *Wx, const float *U, int T, int B, int E, int H, float *ut) {
    pl_gru_scan_backward(dU, db + 3 * H, dh, da, dhu, h, g, hu, mask, nact, U, T, B, H, ut);
    pl_dense_backward(dx, dWx, db, da, x, Wx, T * B, E, 3 * H);
}
