#include "ref_nn.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double ref_sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

void ref_dense(double *out, const double *x, const double *W, const double *b, int N, int I, int O) {
    for (int n = 0; n < N; n++)
        for (int o = 0; o < O; o++) {
            double s = b ? b[o] : 0.0;
            for (int i = 0; i < I; i++) s += x[n * I + i] * W[i * O + o];
            out[n * O + o] = s;
        }
}

/* pre (G) = x_t Wx + h_prev U (+ nothing else) for one row. */
static void affine(double *pre, const double *xr, const double *hp, const double *Wx, const double *U, int E, int H,
                   int G) {
    for (int j = 0; j < G; j++) {
        double s = 0.0;
        for (int e = 0; e < E; e++) s += xr[e] * Wx[e * G + j];
        for (int k = 0; hp && U && k < H; k++) s += hp[k] * U[k * G + j];
        pre[j] = s;
    }
}

static int real(const uint8_t *mask_tm, int t, int b, int B) { return !mask_tm || mask_tm[t * B + b]; }

/* At a masked step the state is carried over (zero before the first step);
 * returns 1 when it was. */
static int carried(double *ht, const double *hp, const uint8_t *mask_tm, int t, int r, int B, int H) {
    if (real(mask_tm, t, r, B)) return 0;
    for (int j = 0; j < H; j++) ht[j] = hp ? hp[j] : 0.0;
    return 1;
}

void ref_rnn(double *h, const double *x, const uint8_t *mask_tm, const double *Wx, const double *Wh, const double *b,
             int T, int B, int E, int H) {
    double pre[64];
    for (int t = 0; t < T; t++)
        for (int r = 0; r < B; r++) {
            const double *hp = t ? h + ((t - 1) * B + r) * H : NULL;
            double *ht = h + (t * B + r) * H;
            if (carried(ht, hp, mask_tm, t, r, B, H)) continue;
            affine(pre, x + (t * B + r) * E, hp, Wx, Wh, E, H, H);
            for (int j = 0; j < H; j++) ht[j] = tanh(pre[j] + b[j]);
        }
}

void ref_gru(double *h, const double *x, const uint8_t *mask_tm, const double *Wx, const double *U, const double *b,
             int T, int B, int E, int H) {
    int G = 3 * H;
    double xi[96], hu[96];
    for (int t = 0; t < T; t++)
        for (int r = 0; r < B; r++) {
            const double *hp = t ? h + ((t - 1) * B + r) * H : NULL;
            double *ht = h + (t * B + r) * H;
            if (carried(ht, hp, mask_tm, t, r, B, H)) continue;
            affine(xi, x + (t * B + r) * E, NULL, Wx, NULL, E, H, G);
            for (int j = 0; j < G; j++) {
                double s = b[G + j];
                for (int k = 0; hp && k < H; k++) s += hp[k] * U[k * G + j];
                hu[j] = s;
            }
            for (int j = 0; j < H; j++) {
                double z = ref_sigmoid(xi[j] + b[j] + hu[j]);
                double rr = ref_sigmoid(xi[H + j] + b[H + j] + hu[H + j]);
                double n = tanh(xi[2 * H + j] + b[2 * H + j] + rr * hu[2 * H + j]);
                ht[j] = z * (hp ? hp[j] : 0.0) + (1.0 - z) * n;
            }
        }
}

void ref_lstm(double *h, const double *x, const uint8_t *mask_tm, const double *Wx, const double *U, const double *b,
              int T, int B, int E, int H) {
    int G = 4 * H;
    double pre[128];
    double *c = calloc((size_t)T * B * H, sizeof *c);
    for (int t = 0; t < T; t++)
        for (int r = 0; r < B; r++) {
            size_t o = (size_t)(t * B + r) * H, op = (size_t)((t - 1) * B + r) * H;
            const double *hp = t ? h + op : NULL, *cp = t ? c + op : NULL;
            if (carried(h + o, hp, mask_tm, t, r, B, H)) {
                carried(c + o, cp, mask_tm, t, r, B, H);
                continue;
            }
            affine(pre, x + (t * B + r) * E, hp, Wx, U, E, H, G);
            for (int j = 0; j < H; j++) {
                double i = ref_sigmoid(pre[j] + b[j]), f = ref_sigmoid(pre[H + j] + b[H + j]);
                double g = tanh(pre[2 * H + j] + b[2 * H + j]), og = ref_sigmoid(pre[3 * H + j] + b[3 * H + j]);
                c[o + j] = f * (cp ? cp[j] : 0.0) + i * g;
                h[o + j] = og * tanh(c[o + j]);
            }
        }
    free(c);
}

void ref_avgpool(double *out, const double *x, const uint8_t *mask, int mode, int T, int B, int C) {
    for (int b = 0; b < B; b++) {
        int n = 0;
        for (int t = 0; t < T; t++) n += mask[b * T + t];
        double den = mode == 1 ? n : T;
        for (int c = 0; c < C; c++) {
            double s = 0.0;
            for (int t = 0; t < T; t++)
                if (mode == 0 || mask[b * T + t]) s += x[(t * B + b) * C + c];
            out[b * C + c] = den > 0 ? s / den : 0.0;
        }
    }
}

void ref_maxpool(double *out, const double *x, const uint8_t *mask, int mode, int T, int B, int C) {
    for (int b = 0; b < B; b++)
        for (int c = 0; c < C; c++) {
            double m = -HUGE_VAL;
            for (int t = 0; t < T; t++)
                if (mode == 0 || mask[b * T + t]) m = fmax(m, x[(t * B + b) * C + c]);
            out[b * C + c] = isinf(m) ? 0.0 : m;
        }
}

void ref_conv1d(double *out, const double *x, const double *W, const double *b, int T, int B, int I, int O, int K) {
    for (int t = 0; t + K <= T; t++)
        for (int r = 0; r < B; r++)
            for (int o = 0; o < O; o++) {
                double s = b[o];
                for (int k = 0; k < K; k++)
                    for (int i = 0; i < I; i++) s += x[((t + k) * B + r) * I + i] * W[(k * I + i) * O + o];
                out[(t * B + r) * O + o] = s;
            }
}

void ref_attention(double *out, const double *x, const double *Wq, const double *Wk, const double *Wv, const double *Wo,
                   const uint8_t *mask, int causal, int T, int B, int E, int NH, int D) {
    int HD = NH * D;
    double *q = malloc(sizeof(double) * T * B * HD), *k = malloc(sizeof(double) * T * B * HD);
    double *v = malloc(sizeof(double) * T * B * HD), *o = calloc((size_t)T * B * HD, sizeof(double));
    ref_dense(q, x, Wq, NULL, T * B, E, HD);
    ref_dense(k, x, Wk, NULL, T * B, E, HD);
    ref_dense(v, x, Wv, NULL, T * B, E, HD);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < NH; h++)
            for (int i = 0; i < T; i++) {
                double w[64], mx = -HUGE_VAL, sum = 0.0;
                for (int j = 0; j < T; j++) {
                    int ok = (!mask || mask[b * T + j]) && (!causal || j <= i);
                    double s = 0.0;
                    for (int d = 0; d < D; d++) s += q[(i * B + b) * HD + h * D + d] * k[(j * B + b) * HD + h * D + d];
                    w[j] = ok ? s / sqrt((double)D) : -HUGE_VAL;
                    mx = fmax(mx, w[j]);
                }
                for (int j = 0; j < T; j++) sum += w[j] = isinf(w[j]) ? 0.0 : exp(w[j] - mx);
                for (int j = 0; j < T; j++)
                    for (int d = 0; d < D; d++)
                        o[(i * B + b) * HD + h * D + d] += sum > 0 ? w[j] / sum * v[(j * B + b) * HD + h * D + d] : 0.0;
            }
    ref_dense(out, o, Wo, NULL, T * B, HD, E);
    free(q);
    free(k);
    free(v);
    free(o);
}

double ref_bce(const double *z, const uint8_t *y, int n) {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += y[i] ? -log(ref_sigmoid(z[i])) : -log(1.0 - ref_sigmoid(z[i]));
    return s / n;
}

double ref_token_ce(const double *logits, const int32_t *targets, int T, int B, int C, int norm) {
    double total = 0.0, seq_sum = 0.0;
    int count = 0, seqs = 0;
    for (int b = 0; b < B; b++) {
        double row = 0.0;
        int n = 0;
        for (int t = 0; t < T; t++) {
            int y = targets[b * T + t];
            if (y == -100) continue;
            const double *z = logits + (t * B + b) * C;
            double s = 0.0;
            for (int c = 0; c < C; c++) s += exp(z[c]);
            row += log(s) - z[y];
            n++;
        }
        total += row;
        count += n;
        if (n) seq_sum += row / n, seqs++;
    }
    if (norm == 0) return count ? total / count : 0.0;
    if (norm == 1) return seqs ? seq_sum / seqs : 0.0;
    return total / (B * T);
}
