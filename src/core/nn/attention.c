/* Scaled dot-product self-attention, single- or multi-head, with key padding
 * and causal masks. A masked score is left out of the softmax entirely (the
 * additive -inf bias, without ever forming inf - inf); a query row that can
 * see no key gets all-zero weights, so nothing turns into NaN. */
#include <math.h>
#include <string.h>

#include "../tensor.h"
#include "nn.h"

/* Softmax of each row of S (T,T) over its allowed keys, in place (nn.h).
 * The test is hoisted out of the inner loops; the arithmetic is the plain
 * loop's (a skipped key added 0.0f, which changes no sum). Static, so that
 * the layer's copy is compiled inline as before: the goldens' bits hold. */
static void masked_softmax(float *S, const uint8_t *m, int causal, int T) {
    for (int i = 0; i < T; i++) {
        float *row = S + (size_t)i * T, mx = -INFINITY, sum = 0.0f;
        int n = causal ? i + 1 : T;
        for (int j = 0; j < n; j++)
            if ((!m || m[j]) && row[j] > mx) mx = row[j];
        for (int j = 0; j < n; j++) {
            row[j] = !m || m[j] ? expf(row[j] - mx) : 0.0f;
            sum += row[j];
        }
        for (int j = n; j < T; j++) row[j] = 0.0f;
        float inv = sum > 0.0f ? 1.0f / sum : 0.0f;
        for (int j = 0; j < T; j++) row[j] *= inv;
    }
}

void pl_attention_softmax(float *S, const uint8_t *m, int causal, int T) { masked_softmax(S, m, causal, T); }

long pl_attention_scratch(const PlAttnShape *s) { return 4L * s->T * s->B * s->NH * s->D + (long)s->T * s->T; }

void pl_attention_forward(float *out, float *q, float *k, float *v, float *p, float *o, const float *x, const float *Wq,
                          const float *Wk, const float *Wv, const float *Wo, const PlAttnShape *s) {
    int T = s->T, B = s->B, HD = s->NH * s->D, ld = B * HD;
    float scale = 1.0f / sqrtf((float)s->D);
    pl_dense_forward(q, x, Wq, NULL, T * B, s->E, HD);
    pl_dense_forward(k, x, Wk, NULL, T * B, s->E, HD);
    pl_dense_forward(v, x, Wv, NULL, T * B, s->E, HD);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < s->NH; h++) {
            size_t off = (size_t)b * HD + (size_t)h * s->D;
            float *P = p + ((size_t)b * s->NH + h) * T * T;
            pl_gemm(0, 1, T, T, s->D, scale, q + off, ld, k + off, ld, 0.0f, P, T);
            masked_softmax(P, s->mask ? s->mask + (size_t)b * T : NULL, s->causal, T);
            pl_gemm(0, 0, T, s->D, T, 1.0f, P, T, v + off, ld, 0.0f, o + off, ld);
        }
    pl_dense_forward(out, o, Wo, NULL, T * B, HD, s->E);
}

/* dS = P * (dP - rowsum(dP * P)), in place in dP. */
static void softmax_backward(float *dP, const float *P, int T) {
    for (int i = 0; i < T; i++) {
        float dot = 0.0f;
        for (int j = 0; j < T; j++) dot += dP[(size_t)i * T + j] * P[(size_t)i * T + j];
        for (int j = 0; j < T; j++) dP[(size_t)i * T + j] = P[(size_t)i * T + j] * (dP[(size_t)i * T + j] - dot);
    }
}

void pl_attention_backward(float *dx, float *dWq, float *dWk, float *dWv, float *dWo, float *scratch, const float *dout,
                           const float *q, const float *k, const float *v, const float *p, const float *o,
                           const float *x, const float *Wq, const float *Wk, const float *Wv, const float *Wo,
                           const PlAttnShape *s) {
    int T = s->T, B = s->B, HD = s->NH * s->D, ld = B * HD;
    size_t n = (size_t)T * B * HD;
    float scale = 1.0f / sqrtf((float)s->D);
    float *dq = scratch, *dk = dq + n, *dv = dk + n, *dO = dv + n, *dP = dO + n;
    pl_dense_backward(dO, dWo, NULL, dout, o, Wo, T * B, HD, s->E);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < s->NH; h++) {
            size_t off = (size_t)b * HD + (size_t)h * s->D;
            const float *P = p + ((size_t)b * s->NH + h) * T * T;
            pl_gemm(0, 1, T, T, s->D, 1.0f, dO + off, ld, v + off, ld, 0.0f, dP, T);
            pl_gemm(1, 0, T, s->D, T, 1.0f, P, T, dO + off, ld, 0.0f, dv + off, ld);
            softmax_backward(dP, P, T);
            pl_gemm(0, 0, T, s->D, T, scale, dP, T, k + off, ld, 0.0f, dq + off, ld);
            pl_gemm(1, 0, T, s->D, T, scale, dP, T, q + off, ld, 0.0f, dk + off, ld);
        }
    pl_dense_backward(dx, dWq, NULL, dq, x, Wq, T * B, s->E, HD);
    if (dx) {
        /* dx = dq Wq^T + dk Wk^T + dv Wv^T */
        pl_gemm(0, 1, T * B, s->E, HD, 1.0f, dk, HD, Wk, HD, 1.0f, dx, s->E);
        pl_gemm(0, 1, T * B, s->E, HD, 1.0f, dv, HD, Wv, HD, 1.0f, dx, s->E);
    }
    pl_gemm(1, 0, s->E, HD, T * B, 1.0f, x, s->E, dk, HD, 1.0f, dWk, HD);
    pl_gemm(1, 0, s->E, HD, T * B, 1.0f, x, s->E, dv, HD, 1.0f, dWv, HD);
}
