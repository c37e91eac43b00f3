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

/* Counted terms of row b. */
static int row_terms(const int32_t *targets, int T, int b) {
    int n = 0;
    for (int t = 0; t < T; t++) n += targets[(size_t)b * T + t] != PL_IGNORE_INDEX;
    return n;
}

/* Rows whose weights are kept on the stack; a larger batch recounts its rows
 * instead, so the loss never allocates (and so never fails). */
enum { CE_STACK_ROWS = 1024 };

typedef struct {
    PlLossNorm norm;
    int T, B, total, seqs;
    const int32_t *targets;
    float w[CE_STACK_ROWS]; /* per row, when B <= CE_STACK_ROWS */
} TermWeights;

static float weight_of(const TermWeights *tw, int n) {
    if (tw->norm == PL_NORM_TOKEN) return tw->total ? 1.0f / (float)tw->total : 0.0f;
    if (tw->norm == PL_NORM_BATCH_T) return 1.0f / (float)(tw->B * tw->T);
    return n > 0 ? 1.0f / ((float)n * (float)tw->seqs) : 0.0f;
}

/* The weight each counted term of a row gets under the normalisation. */
static void term_weights(TermWeights *tw, const int32_t *targets, int T, int B, PlLossNorm norm) {
    tw->norm = norm, tw->T = T, tw->B = B, tw->targets = targets, tw->total = 0, tw->seqs = 0;
    for (int b = 0; b < B; b++) {
        int n = row_terms(targets, T, b);
        if (b < CE_STACK_ROWS) tw->w[b] = (float)n;
        tw->total += n;
        tw->seqs += n > 0;
    }
    for (int b = 0; b < B && b < CE_STACK_ROWS; b++) tw->w[b] = weight_of(tw, (int)tw->w[b]);
}

static float row_weight(const TermWeights *tw, int b) {
    return b < CE_STACK_ROWS ? tw->w[b] : weight_of(tw, row_terms(tw->targets, tw->T, b));
}

float pl_token_ce(float *dlogits, float *terms, const float *logits, const int32_t *targets, int T, int B, int C,
                  PlLossNorm norm) {
    TermWeights tw;
    term_weights(&tw, targets, T, B, norm);
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
            float mx = z[0], sum = 0.0f, wb = row_weight(&tw, b);
            for (int c = 1; c < C; c++) mx = fmaxf(mx, z[c]);
            /* The exponentials go straight into dz, scaled below. */
            if (dz)
                for (int c = 0; c < C; c++) sum += dz[c] = expf(z[c] - mx);
            else
                for (int c = 0; c < C; c++) sum += expf(z[c] - mx);
            float term = logf(sum) + mx - z[y];
            if (terms) terms[(size_t)b * T + t] = term;
            loss += (double)(wb * term);
            float inv = wb / sum;
            for (int c = 0; dz && c < C; c++) dz[c] *= inv;
            if (dz) dz[y] -= wb;
        }
    return (float)loss;
}
