/* LSTM with Keras's defaults, time-major: gate order [i f c o], sigmoid
 * recurrent activation, tanh activation. */
#include <stdlib.h>
#include <string.h>

#include "../kernels.h"
#include "../tensor.h"
#include "nn.h"

void pl_lstm_scan(float *h, float *c, float *g, const PlScanIn *in, const uint8_t *mask, const int *nact,
                  const float *U, int T, int B, int H) {
    int G = 4 * H;
    size_t step = (size_t)B * H, gstep = (size_t)B * G;
    for (int t = 0; t < T; t++) {
        int n = nact ? nact[t] : B;
        float *ht = h + t * step, *ct = c + t * step;
        const float *hp = t ? ht - step : NULL, *cp = t ? ct - step : NULL;
        const float *X = in ? in->rows : NULL;
        const int *xi = in ? in->idx + (size_t)t * B : NULL;
        pl_kernels()->lstm_step(ht, ct, g + t * gstep, X, xi, hp, cp, U, n, H);
        size_t tail = (step - (size_t)n * H) * sizeof *ht;
        memset(ht + (size_t)n * H, 0, tail);
        memset(ct + (size_t)n * H, 0, tail);
        for (int r = 0; mask && r < n; r++) {
            if (mask[(size_t)t * B + r]) continue;
            size_t o = (size_t)r * H, sz = (size_t)H * sizeof *ht;
            if (hp) {
                memcpy(ht + o, hp + o, sz);
                memcpy(ct + o, cp + o, sz);
            } else {
                memset(ht + o, 0, sz);
                memset(ct + o, 0, sz);
            }
        }
    }
}

void pl_lstm_forward(float *h, float *c, float *g, const float *x, const uint8_t *mask, const int *nact,
                     const float *Wx, const float *U, const float *b, int T, int B, int E, int H) {
    pl_dense_forward(g, x, Wx, b, T * B, E, 4 * H);
    pl_lstm_scan(h, c, g, NULL, mask, nact, U, T, B, H);
}

void pl_lstm_scan_backward(float *dU, float *dh, float *da, float *dc, const float *h, const float *c, const float *g,
                           const uint8_t *mask, const int *nact, const float *U, int T, int B, int H, float *ut) {
    int G = 4 * H;
    size_t step = (size_t)B * H, gstep = (size_t)B * G;
    float *UT = pl_transpose_into(ut, U, H, G);
    memset(dc, 0, step * sizeof *dc);
    for (int t = T - 1; t >= 0; t--) {
        int n = nact ? nact[t] : B;
        float *dht = dh + t * step, *dhp = t ? dht - step : NULL, *dat = da + t * gstep;
        const float *cp = t ? c + (t - 1) * step : NULL;
        memset(dat + (size_t)n * G, 0, (gstep - (size_t)n * G) * sizeof *dat);
        pl_kernels()->lstm_step_backward(dat, dc, dhp, dht, g + t * gstep, c + t * step, cp,
                                         mask ? mask + (size_t)t * B : NULL, n, H);
        /* dU += h_{t-1}^T da_t while da_t is in cache */
        if (dhp) pl_kernels()->gemm_tn_acc(dU, G, h + (t - 1) * step, H, dat, G, H, G, n);
        if (dhp) pl_kernels()->gemm_acc(dhp, H, dat, G, UT, H, n, H, G);
    }
}

void pl_lstm_backward(float *dx, float *dWx, float *dU, float *db, float *dh, float *da, float *dc, const float *h,
                      const float *c, const float *g, const float *x, const uint8_t *mask, const int *nact,
                      const float *Wx, const float *U, int T, int B, int E, int H, float *ut) {
    pl_lstm_scan_backward(dU, dh, da, dc, h, c, g, mask, nact, U, T, B, H, ut);
    pl_dense_backward(dx, dWx, db, da, x, Wx, T * B, E, 4 * H);
}
