/* SimpleRNN (tanh), Keras semantics, time-major.
 *
 * The input projection x Wx + b of every step is one large product; only
 * h_{t-1} Wh runs step by step, fused with the tanh. Backward does the same
 * in reverse: the step loop carries dh back through Wh and adds each step's
 * share of the recurrent weights' gradient while that step is in cache; the
 * input projection's gradients are large products over all steps. */
#include <stdlib.h>
#include <string.h>

#include "../kernels.h"
#include "../tensor.h"
#include "nn.h"

void pl_rnn_scan(float *h, const PlScanIn *in, const uint8_t *mask, const int *nact, const float *Wh, int T, int B,
                 int H) {
    const PlKernels *k = pl_kernels();
    size_t step = (size_t)B * H;
    for (int t = 0; t < T; t++) {
        int n = nact ? nact[t] : B;
        float *ht = h + t * step;
        const float *hp = t ? ht - step : NULL;
        if (in) k->gemm_tanh_rows(ht, H, in->rows, in->idx + (size_t)t * B, H, hp, H, Wh, H, n, H, H);
        else k->gemm_tanh(ht, H, hp, H, Wh, H, n, H, H); /* tanh(ht + hp Wh), fused in registers */
        memset(ht + (size_t)n * H, 0, (step - (size_t)n * H) * sizeof *ht);
        if (!mask) continue;
        for (int r = 0; r < n; r++) {
            if (mask[(size_t)t * B + r]) continue;
            if (hp) memcpy(ht + (size_t)r * H, hp + (size_t)r * H, (size_t)H * sizeof *ht);
            else memset(ht + (size_t)r * H, 0, (size_t)H * sizeof *ht);
        }
    }
}

void pl_rnn_forward(float *h, const float *x, const uint8_t *mask, const int *nact, const float *Wx, const float *Wh,
                    const float *b, int T, int B, int E, int H) {
    pl_dense_forward(h, x, Wx, b, T * B, E, H); /* x_t Wx + b, completed step by step */
    pl_rnn_scan(h, NULL, mask, nact, Wh, T, B, H);
}

void pl_rnn_scan_backward(float *dWh, float *dh, float *da, const float *h, const uint8_t *mask, const int *nact,
                          const float *Wh, int T, int B, int H, float *ut) {
    const PlKernels *k = pl_kernels();
    size_t step = (size_t)B * H;
    float *WhT = pl_transpose_into(ut, Wh, H, H);
    for (int t = T - 1; t >= 0; t--) {
        int n = nact ? nact[t] : B;
        const float *ht = h + t * step;
        float *dht = dh + t * step, *dat = da + t * step;
        k->dtanh(dat, dht, ht, (size_t)n * H);
        memset(dat + (size_t)n * H, 0, (step - (size_t)n * H) * sizeof *dat);
        for (int r = 0; mask && r < n; r++)
            if (!mask[(size_t)t * B + r]) memset(dat + (size_t)r * H, 0, (size_t)H * sizeof *dat);
        if (t == 0) break;
        /* dWh += h_{t-1}^T da_t while da_t is still in L1 */
        k->gemm_tn_acc(dWh, H, ht - step, H, dat, H, H, H, n);
        float *dhp = dht - step;
        k->gemm_acc(dhp, H, dat, H, WhT, H, n, H, H);
        for (int r = 0; mask && r < n; r++)
            if (!mask[(size_t)t * B + r])
                for (int j = 0; j < H; j++) dhp[(size_t)r * H + j] += dht[(size_t)r * H + j];
    }
}

void pl_rnn_backward(float *dx, float *dWx, float *dWh, float *db, float *dh, float *da, const float *h, const float *x,
                     const uint8_t *mask, const int *nact, const float *Wx, const float *Wh, int T, int B, int E, int H,
                     float *ut) {
    pl_rnn_scan_backward(dWh, dh, da, h, mask, nact, Wh, T, B, H, ut);
    pl_dense_backward(dx, dWx, db, da, x, Wx, T * B, E, H);
}
