/* Global average and max pooling over time, with the three ways of treating
 * pads: count them (unmasked), skip them (masked, Keras), or skip them but
 * still divide by T (the wrong denominator). */
#include <float.h>
#include <string.h>

#include "nn.h"

static int real_count(const uint8_t *mask, int b, int T) {
    int n = 0;
    for (int t = 0; t < T; t++) n += mask[(size_t)b * T + t] != 0;
    return n;
}

/* The weight each position of row b gets: 1/denominator, or 0 for a skipped pad. */
static float pos_weight(const uint8_t *mask, PlPoolMask mode, int b, int t, int T, float inv) {
    if (mode == PL_POOL_UNMASKED || !mask) return inv;
    return mask[(size_t)b * T + t] ? inv : 0.0f;
}

static float row_inv(const uint8_t *mask, PlPoolMask mode, int b, int T) {
    if (mode != PL_POOL_MASKED || !mask) return 1.0f / (float)T;
    int n = real_count(mask, b, T);
    return n ? 1.0f / (float)n : 0.0f;
}

void pl_avgpool_forward(float *out, const float *x, const uint8_t *mask, PlPoolMask mode, int T, int B, int C) {
    memset(out, 0, (size_t)B * C * sizeof *out);
    for (int t = 0; t < T; t++)
        for (int b = 0; b < B; b++) {
            float w = pos_weight(mask, mode, b, t, T, row_inv(mask, mode, b, T)), *o = out + (size_t)b * C;
            if (w == 0.0f) continue;
            const float *xr = x + ((size_t)t * B + b) * C;
            for (int c = 0; c < C; c++) o[c] += w * xr[c];
        }
}

void pl_avgpool_backward(float *dx, const float *dout, const uint8_t *mask, PlPoolMask mode, int T, int B, int C) {
    for (int b = 0; b < B; b++) {
        float inv = row_inv(mask, mode, b, T);
        const float *d = dout + (size_t)b * C;
        for (int t = 0; t < T; t++) {
            float w = pos_weight(mask, mode, b, t, T, inv), *dr = dx + ((size_t)t * B + b) * C;
            for (int c = 0; c < C; c++) dr[c] = w * d[c];
        }
    }
}

/* out[0..C) += w * row[0..C); the two never overlap. */
static inline void axpy(float *restrict out, const float *restrict row, float w, int C) {
    for (int c = 0; c < C; c++) out[c] += w * row[c];
}

/* Both run per token of every batch: built for the widest vector unit here. */
__attribute__((target_clones("avx512f", "avx2", "default"))) void pl_embed_avgpool_forward(
    float *out, const int32_t *ids, const uint8_t *mask, PlPoolMask mode, const float *W, int B, int T, int C) {
    for (int b = 0; b < B; b++) {
        float inv = row_inv(mask, mode, b, T), *o = out + (size_t)b * C;
        memset(o, 0, (size_t)C * sizeof *o);
        const int32_t *row_ids = ids + (size_t)b * T;
        for (int t = 0; t < T; t++) {
            /* The rows are scattered over the table: ask for one a few steps ahead. */
            if (t + 8 < T) __builtin_prefetch(W + (size_t)row_ids[t + 8] * C);
            float w = pos_weight(mask, mode, b, t, T, inv);
            if (w != 0.0f) axpy(o, W + (size_t)row_ids[t] * C, w, C);
        }
    }
}

__attribute__((target_clones("avx512f", "avx2", "default"))) void pl_embed_avgpool_backward(
    float *dW, const float *dout, const int32_t *ids, const uint8_t *mask, PlPoolMask mode, int B, int T, int C,
    int skip_id0) {
    for (int b = 0; b < B; b++) {
        float inv = row_inv(mask, mode, b, T);
        const float *d = dout + (size_t)b * C;
        for (int t = 0; t < T; t++) {
            int32_t id = ids[(size_t)b * T + t];
            float w = pos_weight(mask, mode, b, t, T, inv);
            if (w == 0.0f || (skip_id0 && id == 0)) continue;
            axpy(dW + (size_t)id * C, d, w, C);
        }
    }
}

void pl_maxpool_forward(float *out, int *arg, const float *x, const uint8_t *mask, PlPoolMask mode, int T, int B,
                        int C) {
    for (int b = 0; b < B; b++)
        for (int c = 0; c < C; c++) {
            float best = -FLT_MAX;
            int at = -1;
            for (int t = 0; t < T; t++) {
                if (mode != PL_POOL_UNMASKED && mask && !mask[(size_t)b * T + t]) continue;
                float v = x[((size_t)t * B + b) * C + c];
                if (at < 0 || v > best) best = v, at = t;
            }
            out[(size_t)b * C + c] = at < 0 ? 0.0f : best;
            arg[(size_t)b * C + c] = at;
        }
}

void pl_maxpool_backward(float *dx, const float *dout, const int *arg, int T, int B, int C) {
    memset(dx, 0, (size_t)T * B * C * sizeof *dx);
    for (int b = 0; b < B; b++)
        for (int c = 0; c < C; c++) {
            int t = arg[(size_t)b * C + c];
            if (t >= 0) dx[((size_t)t * B + b) * C + c] = dout[(size_t)b * C + c];
        }
}
