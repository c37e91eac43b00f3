/* LSTM with Keras's defaults, time-major: gate order [i f c o], sigmoid
 * recurrent activation, tanh activation. */
#include <stdlib.h>
#include <string.h>

#include "../kernels.h"
#include "../tensor.h"
#include "nn.h"

/* One step for rows 0..n-1: g holds x Wx + b on entry, the activated gates
 * on exit. */
static void lstm_step(float *ht, float *ct, float *g, const float *hp, const float *cp, const float *U, int n, int H) {
    const PlKernels *k = pl_kernels();
    int G = 4 * H;
    if (hp) k->gemm_acc(g, G, hp, H, U, G, n, G, H);
    for (int r = 0; r < n; r++)
        k->lstm_row(ht + (size_t)r * H, ct + (size_t)r * H, g + (size_t)r * G, cp ? cp + (size_t)r * H : NULL, H);
}

void pl_lstm_scan(float *h, float *c, float *g, const uint8_t *mask, const int *nact, const float *U, int T, int B,
                  int H) {
    int G = 4 * H;
    size_t step = (size_t)B * H, gstep = (size_t)B * G;
    for (int t = 0; t < T; t++) {
        int n = nact ? nact[t] : B;
        float *ht = h + t * step, *ct = c + t * step;
        const float *hp = t ? ht - step : NULL, *cp = t ? ct - step : NULL;
        lstm_step(ht, ct, g + t * gstep, hp, cp, U, n, H);
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
    pl_lstm_scan(h, c, g, mask, nact, U, T, B, H);
}

void pl_lstm_scan_backward(float *dU, float *dh, float *da, float *dc, const float *h, const float *c, const float *g,
                           const uint8_t *mask, const int *nact, const float *U, int T, int B, int H) {
    int G = 4 * H;
    size_t step = (size_t)B * H, gstep = (size_t)B * G;
    float *UT = pl_transpose_new(U, H, G);
    memset(dc, 0, step * sizeof *dc);
    for (int t = T - 1; t >= 0; t--) {
        int n = nact ? nact[t] : B;
        float *dht = dh + t * step, *dhp = t ? dht - step : NULL, *dat = da + t * gstep;
        const float *cp = t ? c + (t - 1) * step : NULL;
        memset(dat, 0, gstep * sizeof *dat);
        for (int r = 0; r < n; r++) {
            size_t o = (size_t)r * H;
            if (mask && !mask[(size_t)t * B + r]) {
                for (int j = 0; dhp && j < H; j++) dhp[o + j] += dht[o + j];
                continue;
            }
            pl_kernels()->lstm_row_backward(dat + (size_t)r * G, dc + o, dht + o, g + t * gstep + (size_t)r * G,
                                            c + t * step + o, cp ? cp + o : NULL, H);
        }
        /* dU += h_{t-1}^T da_t while da_t is in cache */
        if (dhp) pl_kernels()->gemm_tn_acc(dU, G, h + (t - 1) * step, H, dat, G, H, G, n);
        if (dhp && UT) pl_kernels()->gemm_acc(dhp, H, dat, G, UT, H, n, H, G);
        else if (dhp) pl_gemm(0, 1, n, H, G, 1.0f, dat, G, U, G, 1.0f, dhp, H);
    }
    free(UT);
}

void pl_lstm_backward(float *dx, float *dWx, float *dU, float *db, float *dh, float *da, float *dc, const float *h,
                      const float *c, const float *g, const float *x, const uint8_t *mask, const int *nact,
                      const float *Wx, const float *U, int T, int B, int E, int H) {
    pl_lstm_scan_backward(dU, dh, da, dc, h, c, g, mask, nact, U, T, B, H);
    pl_dense_backward(dx, dWx, db, da, x, Wx, T * B, E, 4 * H);
}
