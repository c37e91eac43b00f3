#include "loss.h"

#include <math.h>
#include <stdlib.h>

#include "mask.h"

float pl_bce_logits(float *dz, const float *z, const uint8_t *y, int n) {
    double total = 0.0;
    for (int i = 0; i < n; i++) {
        float zi = z[i], yi = y[i] ? 1.0f : 0.0f;
        total += (double)(fmaxf(zi, 0.0f) - zi * yi + log1pf(expf(-fabsf(zi))));
        if (dz) {
            float s = zi >= 0.0f ? 1.0f / (1.0f + expf(-zi)) : expf(zi) / (1.0f + expf(zi));
            dz[i] = (s - yi) / (float)n;
        }
    }
    return n ? (float)(total / n) : 0.0f;
}

void pl_next_token_targets(int32_t *targets, const int32_t *ids, const uint8_t *mask, int B, int T, int C,
                           int pads_count) {
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++) {
            size_t i = (size_t)b * T + t;
            int next_real = t + 1 < T && mask[i + 1];
            int counts = t + 1 < T && (mask[i] || pads_count) && (next_real || pads_count);
            int32_t next = next_real ? ids[i + 1] : 0;
            targets[i] = !counts ? PL_IGNORE_INDEX : next < C - 1 ? next : C - 1;
        }
}

const char *pl_loss_norm_name(PlLossNorm n) {
    static const char *const names[] = {"per_token", "per_sequence", "batch_t"};
    return names[n];
}

/* The weight each counted term of row b gets under the normalisation. */
static void term_weights(float *w, const int32_t *targets, int T, int B, PlLossNorm norm) {
    int total = 0, seqs = 0;
    for (int b = 0; b < B; b++) {
        int n = 0;
        for (int t = 0; t < T; t++) n += targets[(size_t)b * T + t] != PL_IGNORE_INDEX;
        w[b] = (float)n;
        total += n;
        seqs += n > 0;
    }
    for (int b = 0; b < B; b++) {
        if (norm == PL_NORM_TOKEN) w[b] = total ? 1.0f / (float)total : 0.0f;
        else if (norm == PL_NORM_BATCH_T) w[b] = 1.0f / (float)(B * T);
        else w[b] = w[b] > 0.0f ? 1.0f / (w[b] * (float)seqs) : 0.0f;
    }
}

float pl_token_ce(float *dlogits, float *terms, const float *logits, const int32_t *targets, int T,
                  int B, int C, PlLossNorm norm) {
    float *w = malloc((size_t)(B ? B : 1) * sizeof *w), *ex = malloc((size_t)C * sizeof *ex);
    if (!w || !ex) {
        free(w);
        free(ex);
        return NAN;
    }
    term_weights(w, targets, T, B, norm);
    double loss = 0.0;
    for (int t = 0; t < T; t++)
        for (int b = 0; b < B; b++) {
            const float *z = logits + ((size_t)t * B + b) * C;
            float *dz = dlogits ? dlogits + ((size_t)t * B + b) * C : NULL;
            int32_t y = targets[(size_t)b * T + t];
            if (terms) terms[(size_t)b * T + t] = 0.0f;
            if (y == PL_IGNORE_INDEX || y < 0 || y >= C) {
                for (int c = 0; dz && c < C; c++) dz[c] = 0.0f;
                continue;
            }
            float mx = z[0], sum = 0.0f;
            for (int c = 1; c < C; c++) mx = fmaxf(mx, z[c]);
            for (int c = 0; c < C; c++) sum += ex[c] = expf(z[c] - mx);
            float term = logf(sum) + mx - z[y];
            if (terms) terms[(size_t)b * T + t] = term;
            loss += (double)(w[b] * term);
            float inv = w[b] / sum;
            for (int c = 0; dz && c < C; c++) dz[c] = ex[c] * inv;
            if (dz) dz[y] -= w[b];
        }
    free(w);
    free(ex);
    return (float)loss;
}
