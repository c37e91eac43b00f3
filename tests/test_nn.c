/* The layers: every fast float kernel against its naive double twin
 * (forward), and its backward pass against central finite differences of
 * that twin, in double precision. The loss is sum(c * output) for fixed
 * random c, so the upstream gradient is c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/loss.h"
#include "core/nn/attend.h"
#include "core/nn/nn.h"
#include "core/rng.h"
#include "core/tensor.h"
#include "ref_nn.h"
#include "suites.h"

#define MAXB 6

typedef struct Case Case;
struct Case {
    int nblocks;
    int size[MAXB];
    int nout;
    int T, B, E, H, K, O, NH, D, mode, causal;
    const uint8_t *mask;    /* (B,T) */
    const uint8_t *mask_tm; /* (T,B) */
    int use_mask;
    void (*ref)(const Case *c, double *out, double *const *blk);
    void (*fwd)(Case *c, float *out, float *const *blk);
    void (*bwd)(Case *c, float *const *grad, const float *dout, float *const *blk);
    float *cache[8];
};

static double ref_loss(const Case *c, double *const *blk, const double *coef) {
    double *out = malloc(sizeof(double) * (size_t)c->nout), s = 0.0;
    c->ref(c, out, blk);
    for (int i = 0; i < c->nout; i++) s += coef[i] * out[i];
    free(out);
    return s;
}

/* Checks forward agreement and every gradient entry; returns the worst
 * gradient error (also asserted inside). */
static void run_case(Case *c, uint64_t seed, double fwd_tol) {
    PlRng rng;
    pl_rng_seed(&rng, seed);
    double *blk[MAXB];
    float *fb[MAXB], *fg[MAXB];
    for (int k = 0; k < c->nblocks; k++) {
        blk[k] = malloc(sizeof(double) * (size_t)c->size[k]);
        fb[k] = malloc(sizeof(float) * (size_t)c->size[k]);
        fg[k] = calloc((size_t)c->size[k], sizeof(float));
        for (int i = 0; i < c->size[k]; i++) fb[k][i] = (float)(blk[k][i] = pl_rng_uniform(&rng) - 0.5);
    }
    double *coef = malloc(sizeof(double) * (size_t)c->nout), *ro = malloc(sizeof(double) * (size_t)c->nout);
    float *fo = malloc(sizeof(float) * (size_t)c->nout), *fc = malloc(sizeof(float) * (size_t)c->nout);
    for (int i = 0; i < c->nout; i++) fc[i] = (float)(coef[i] = pl_rng_uniform(&rng) - 0.5);
    c->ref(c, ro, blk);
    c->fwd(c, fo, fb);
    for (int i = 0; i < c->nout; i++)
        ck_assert_msg(fabs((double)fo[i] - ro[i]) <= fwd_tol, "forward out[%d] = %.7f, naive %.7f", i, (double)fo[i],
                      ro[i]);
    c->bwd(c, fg, fc, fb);
    const double eps = 1e-5;
    for (int k = 0; k < c->nblocks; k++)
        for (int i = 0; i < c->size[k]; i++) {
            double keep = blk[k][i];
            blk[k][i] = keep + eps;
            double up = ref_loss(c, blk, coef);
            blk[k][i] = keep - eps;
            double down = ref_loss(c, blk, coef);
            blk[k][i] = keep;
            double fd = (up - down) / (2 * eps), got = (double)fg[k][i];
            ck_assert_msg(fabs(got - fd) <= 2e-4 + 2e-3 * fabs(fd),
                          "block %d [%d]: backward %.7f, finite difference %.7f", k, i, got, fd);
        }
    for (int k = 0; k < c->nblocks; k++) free(blk[k]), free(fb[k]), free(fg[k]);
    for (int k = 0; k < 8; k++) free(c->cache[k]), c->cache[k] = NULL;
    free(coef);
    free(ro);
    free(fo);
    free(fc);
}

static float *scratch(Case *c, int slot, size_t n) {
    free(c->cache[slot]);
    return c->cache[slot] = calloc(n ? n : 1, sizeof(float));
}

/* Mixed padding for B = 3, T = 5: a full row, a post-padded and a pre-padded one. */
static const uint8_t mask35[] = {1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1};
static uint8_t mask35_tm[15];

static void set_masks(void) {
    for (int b = 0; b < 3; b++)
        for (int t = 0; t < 5; t++) mask35_tm[t * 3 + b] = mask35[b * 5 + t];
}

/* ---- dense ---- */
static void dense_ref(const Case *c, double *out, double *const *p) {
    ref_dense(out, p[0], p[1], p[2], c->B, c->E, c->O);
}
static void dense_fwd(Case *c, float *out, float *const *p) {
    pl_dense_forward(out, p[0], p[1], p[2], c->B, c->E, c->O);
}
static void dense_bwd(Case *c, float *const *g, const float *d, float *const *p) {
    pl_dense_backward(g[0], g[1], g[2], d, p[0], p[1], c->B, c->E, c->O);
}

START_TEST(test_dense_matches_its_twin_and_finite_differences) {
    Case c = {.nblocks = 3,
              .size = {4 * 5, 5 * 3, 3},
              .nout = 4 * 3,
              .B = 4,
              .E = 5,
              .O = 3,
              .ref = dense_ref,
              .fwd = dense_fwd,
              .bwd = dense_bwd};
    run_case(&c, 1, 1e-5);
}
END_TEST

/* ---- recurrent layers: x, Wx, U, b ---- */
static void rnn_ref(const Case *c, double *out, double *const *p) {
    ref_rnn(out, p[0], c->use_mask ? c->mask_tm : NULL, p[1], p[2], p[3], c->T, c->B, c->E, c->H);
}
static void rnn_fwd(Case *c, float *out, float *const *p) {
    pl_rnn_forward(out, p[0], c->use_mask ? c->mask_tm : NULL, NULL, p[1], p[2], p[3], c->T, c->B, c->E, c->H);
    c->cache[0] = malloc(sizeof(float) * (size_t)c->nout);
    memcpy(c->cache[0], out, sizeof(float) * (size_t)c->nout);
}
static void rnn_bwd(Case *c, float *const *g, const float *d, float *const *p) {
    float *dh = scratch(c, 1, (size_t)c->nout), *da = scratch(c, 2, (size_t)c->nout);
    memcpy(dh, d, sizeof(float) * (size_t)c->nout);
    pl_rnn_backward(g[0], g[1], g[2], g[3], dh, da, c->cache[0], p[0], c->use_mask ? c->mask_tm : NULL, NULL, p[1],
                    p[2], c->T, c->B, c->E, c->H, scratch(c, 6, (size_t)c->H * c->H));
}

static Case recurrent_case(int gates, int bias_rows, int use_mask) {
    int T = 5, B = 3, E = 4, H = 3, G = gates * H;
    Case c = {.nblocks = 4,
              .size = {T * B * E, E * G, H * G, bias_rows * G},
              .nout = T * B * H,
              .T = T,
              .B = B,
              .E = E,
              .H = H,
              .mask = mask35,
              .mask_tm = mask35_tm,
              .use_mask = use_mask};
    return c;
}

START_TEST(test_simple_rnn_matches_its_twin_without_mask) {
    set_masks();
    Case c = recurrent_case(1, 1, 0);
    c.ref = rnn_ref, c.fwd = rnn_fwd, c.bwd = rnn_bwd;
    run_case(&c, 2, 2e-6);
}
END_TEST

START_TEST(test_simple_rnn_carries_state_over_masked_steps) {
    set_masks();
    Case c = recurrent_case(1, 1, 1);
    c.ref = rnn_ref, c.fwd = rnn_fwd, c.bwd = rnn_bwd;
    run_case(&c, 3, 2e-6);
}
END_TEST

static void gru_ref(const Case *c, double *out, double *const *p) {
    ref_gru(out, p[0], c->use_mask ? c->mask_tm : NULL, p[1], p[2], p[3], c->T, c->B, c->E, c->H);
}
static void gru_fwd(Case *c, float *out, float *const *p) {
    size_t G = (size_t)c->T * c->B * 3 * c->H;
    float *g = scratch(c, 1, G), *hu = scratch(c, 2, (size_t)(c->T + 3) * c->B * c->H);
    pl_gru_forward(out, g, hu, p[0], c->use_mask ? c->mask_tm : NULL, NULL, p[1], p[2], p[3], c->T, c->B, c->E, c->H);
    memcpy(scratch(c, 0, (size_t)c->nout), out, sizeof(float) * (size_t)c->nout);
}
static void gru_bwd(Case *c, float *const *g, const float *d, float *const *p) {
    size_t G = (size_t)c->T * c->B * 3 * c->H;
    float *dh = scratch(c, 3, (size_t)c->nout), *da = scratch(c, 4, G), *dhu = scratch(c, 5, G);
    memcpy(dh, d, sizeof(float) * (size_t)c->nout);
    pl_gru_backward(g[0], g[1], g[2], g[3], dh, da, dhu, c->cache[0], c->cache[1], c->cache[2], p[0],
                    c->use_mask ? c->mask_tm : NULL, NULL, p[1], p[2], c->T, c->B, c->E, c->H,
                    scratch(c, 6, (size_t)c->H * 3 * c->H));
}

START_TEST(test_gru_matches_its_twin_with_and_without_mask) {
    set_masks();
    for (int m = 0; m <= 1; m++) {
        Case c = recurrent_case(3, 2, m);
        c.ref = gru_ref, c.fwd = gru_fwd, c.bwd = gru_bwd;
        run_case(&c, 4 + (uint64_t)m, 2e-6);
    }
}
END_TEST

static void lstm_ref(const Case *c, double *out, double *const *p) {
    ref_lstm(out, p[0], c->use_mask ? c->mask_tm : NULL, p[1], p[2], p[3], c->T, c->B, c->E, c->H);
}
static void lstm_fwd(Case *c, float *out, float *const *p) {
    size_t n = (size_t)c->nout;
    float *cc = scratch(c, 1, n), *g = scratch(c, 2, 4 * n);
    pl_lstm_forward(out, cc, g, p[0], c->use_mask ? c->mask_tm : NULL, NULL, p[1], p[2], p[3], c->T, c->B, c->E, c->H);
    memcpy(scratch(c, 0, n), out, sizeof(float) * n);
}
static void lstm_bwd(Case *c, float *const *g, const float *d, float *const *p) {
    size_t n = (size_t)c->nout;
    float *dh = scratch(c, 3, n), *da = scratch(c, 4, 4 * n), *dc = scratch(c, 5, (size_t)c->B * c->H);
    memcpy(dh, d, sizeof(float) * n);
    pl_lstm_backward(g[0], g[1], g[2], g[3], dh, da, dc, c->cache[0], c->cache[1], c->cache[2], p[0],
                     c->use_mask ? c->mask_tm : NULL, NULL, p[1], p[2], c->T, c->B, c->E, c->H,
                     scratch(c, 6, (size_t)c->H * 4 * c->H));
}

START_TEST(test_lstm_matches_its_twin_with_and_without_mask) {
    set_masks();
    for (int m = 0; m <= 1; m++) {
        Case c = recurrent_case(4, 1, m);
        c.ref = lstm_ref, c.fwd = lstm_fwd, c.bwd = lstm_bwd;
        run_case(&c, 6 + (uint64_t)m, 2e-6);
    }
}
END_TEST

/* ---- pooling: x only ---- */
static void avg_ref(const Case *c, double *out, double *const *p) {
    ref_avgpool(out, p[0], c->mask, c->mode, c->T, c->B, c->E);
}
static void avg_fwd(Case *c, float *out, float *const *p) {
    pl_avgpool_forward(out, p[0], c->mask, (PlPoolMask)c->mode, c->T, c->B, c->E);
}
static void avg_bwd(Case *c, float *const *g, const float *d, float *const *p) {
    (void)p;
    pl_avgpool_backward(g[0], d, c->mask, (PlPoolMask)c->mode, c->T, c->B, c->E);
}
static void max_ref(const Case *c, double *out, double *const *p) {
    ref_maxpool(out, p[0], c->mask, c->mode, c->T, c->B, c->E);
}
static void max_fwd(Case *c, float *out, float *const *p) {
    free(c->cache[0]);
    c->cache[0] = malloc(sizeof(int) * (size_t)c->nout);
    pl_maxpool_forward(out, (int *)c->cache[0], p[0], c->mask, (PlPoolMask)c->mode, c->T, c->B, c->E);
}
static void max_bwd(Case *c, float *const *g, const float *d, float *const *p) {
    (void)p;
    pl_maxpool_backward(g[0], d, (const int *)c->cache[0], c->T, c->B, c->E);
}

START_TEST(test_pooling_matches_its_twin_in_every_mask_mode) {
    for (int mode = 0; mode < 3; mode++) {
        Case a = {.nblocks = 1,
                  .size = {5 * 3 * 4},
                  .nout = 3 * 4,
                  .T = 5,
                  .B = 3,
                  .E = 4,
                  .mode = mode,
                  .mask = mask35,
                  .ref = avg_ref,
                  .fwd = avg_fwd,
                  .bwd = avg_bwd};
        run_case(&a, 10 + (uint64_t)mode, 1e-6);
        Case m = a;
        m.ref = max_ref, m.fwd = max_fwd, m.bwd = max_bwd, m.mode = mode == 2 ? 1 : mode;
        run_case(&m, 20 + (uint64_t)mode, 1e-6);
    }
}
END_TEST

START_TEST(test_fused_embedding_pooling_equals_lookup_then_pooling) {
    const int32_t ids[15] = {1, 4, 2, 3, 0, 1, 3, 0, 0, 0, 0, 0, 1, 2, 4};
    PlRng rng;
    pl_rng_seed(&rng, 70);
    float W[5 * 4], x[5 * 3 * 4], a[12], b[12], dx[60], dWa[20] = {0}, dWb[20] = {0}, d[12];
    for (int i = 0; i < 20; i++) W[i] = (float)pl_rng_uniform(&rng) - 0.5f;
    for (int i = 0; i < 12; i++) d[i] = (float)pl_rng_uniform(&rng) - 0.5f;
    for (int mode = 0; mode < 3; mode++) {
        pl_embedding_forward(x, ids, W, 3, 5, 4);
        pl_avgpool_forward(a, x, mask35, (PlPoolMask)mode, 5, 3, 4);
        pl_embed_avgpool_forward(b, ids, mask35, (PlPoolMask)mode, W, 3, 5, 4);
        ck_assert(pl_max_abs_diff(a, b, 12) < 1e-6f);
        pl_avgpool_backward(dx, d, mask35, (PlPoolMask)mode, 5, 3, 4);
        pl_embedding_backward(dWa, dx, ids, 3, 5, 4, 0);
        pl_embed_avgpool_backward(dWb, d, ids, mask35, (PlPoolMask)mode, 3, 5, 4, 0);
        ck_assert(pl_max_abs_diff(dWa, dWb, 20) < 1e-6f);
    }
}
END_TEST

/* ---- conv1d: x, W, b ---- */
static void conv_ref(const Case *c, double *out, double *const *p) {
    ref_conv1d(out, p[0], p[1], p[2], c->T, c->B, c->E, c->O, c->K);
}
static void conv_fwd(Case *c, float *out, float *const *p) {
    pl_conv1d_forward(out, p[0], p[1], p[2], c->T, c->B, c->E, c->O, c->K);
}
static void conv_bwd(Case *c, float *const *g, const float *d, float *const *p) {
    pl_conv1d_backward(g[0], g[1], g[2], d, p[0], p[1], c->T, c->B, c->E, c->O, c->K);
}

START_TEST(test_conv1d_matches_its_twin) {
    Case c = {.nblocks = 3,
              .size = {6 * 2 * 3, 3 * 3 * 4, 4},
              .nout = 4 * 2 * 4,
              .T = 6,
              .B = 2,
              .E = 3,
              .O = 4,
              .K = 3,
              .ref = conv_ref,
              .fwd = conv_fwd,
              .bwd = conv_bwd};
    run_case(&c, 30, 1e-5);
}
END_TEST

/* ---- flatten ---- */
static void flat_ref(const Case *c, double *out, double *const *p) {
    for (int t = 0; t < c->T; t++)
        for (int b = 0; b < c->B; b++)
            for (int e = 0; e < c->E; e++) out[(b * c->T + t) * c->E + e] = p[0][(t * c->B + b) * c->E + e];
}
static void flat_fwd(Case *c, float *out, float *const *p) { pl_flatten_forward(out, p[0], c->T, c->B, c->E); }
static void flat_bwd(Case *c, float *const *g, const float *d, float *const *p) {
    (void)p;
    pl_flatten_backward(g[0], d, c->T, c->B, c->E);
}

START_TEST(test_flatten_lays_steps_end_to_end) {
    Case c = {.nblocks = 1,
              .size = {4 * 2 * 3},
              .nout = 24,
              .T = 4,
              .B = 2,
              .E = 3,
              .ref = flat_ref,
              .fwd = flat_fwd,
              .bwd = flat_bwd};
    run_case(&c, 31, 1e-7);
}
END_TEST

/* ---- attention: x, Wq, Wk, Wv, Wo ---- */
static PlAttnShape attn_shape(const Case *c) {
    return (PlAttnShape){c->T, c->B, c->E, c->NH, c->D, c->causal, c->use_mask ? c->mask : NULL};
}
static void attn_ref(const Case *c, double *out, double *const *p) {
    ref_attention(out, p[0], p[1], p[2], p[3], p[4], c->use_mask ? c->mask : NULL, c->causal, c->T, c->B, c->E, c->NH,
                  c->D);
}
static void attn_fwd(Case *c, float *out, float *const *p) {
    size_t n = (size_t)c->T * c->B * c->NH * c->D;
    PlAttnShape s = attn_shape(c);
    float *q = scratch(c, 0, n), *k = scratch(c, 1, n), *v = scratch(c, 2, n), *o = scratch(c, 3, n);
    float *pw = scratch(c, 4, (size_t)c->B * c->NH * c->T * c->T);
    pl_attention_forward(out, q, k, v, pw, o, p[0], p[1], p[2], p[3], p[4], &s);
}
static void attn_bwd(Case *c, float *const *g, const float *d, float *const *p) {
    PlAttnShape s = attn_shape(c);
    float *sc = scratch(c, 5, (size_t)pl_attention_scratch(&s));
    pl_attention_backward(g[0], g[1], g[2], g[3], g[4], sc, d, c->cache[0], c->cache[1], c->cache[2], c->cache[4],
                          c->cache[3], p[0], p[1], p[2], p[3], p[4], &s);
}

START_TEST(test_attention_matches_its_twin_with_padding_and_causal_masks) {
    int T = 5, B = 3, E = 4, NH = 2, D = 3, HD = NH * D;
    for (int variant = 0; variant < 4; variant++) {
        Case c = {.nblocks = 5,
                  .size = {T * B * E, E * HD, E * HD, E * HD, HD * E},
                  .nout = T * B * E,
                  .T = T,
                  .B = B,
                  .E = E,
                  .NH = NH,
                  .D = D,
                  .mask = mask35,
                  .use_mask = variant & 1,
                  .causal = variant >> 1,
                  .ref = attn_ref,
                  .fwd = attn_fwd,
                  .bwd = attn_bwd};
        run_case(&c, 40 + (uint64_t)variant, 2e-6);
    }
}
END_TEST

/* ---- attention one query at a time, against the full layer ----
 * pl_attention_forward keeps every weight and is checked against the double
 * twin above; pl_attend must give its numbers on every query it computes:
 * with and without the key mask and the causal mask, on every query or a
 * chosen few, with repeated queries copied from the first, at every vector
 * width this CPU has (SSE2 always). Rows: a full one, a post-padded, a
 * pre-padded and an all-pad row; T = 70 is four blocks of 16 keys and a
 * part, so every path of the kernel runs. */
START_TEST(test_attend_matches_full_attention_on_the_queries_it_computes) {
    enum { T = 70, B = 4, E = 6, V = 9, NH = 2 };
    static const int lens[B] = {T, 23, 50, 0};
    PlRng rng;
    pl_rng_seed(&rng, 77);
    int32_t ids[B * T];
    uint8_t mask[B * T], pads[B * T], query[B * T];
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++) {
            int real = b == 2 ? t >= T - lens[b] : t < lens[b];
            ids[b * T + t] = real ? 1 + (int32_t)pl_rng_below(&rng, V - 1) : 0;
            mask[b * T + t] = (uint8_t)real, pads[b * T + t] = (uint8_t)!real;
            query[b * T + t] = (uint8_t)(t % 3 == 0 || t == T - 1);
        }
    float emb[V * E], x[T * B * E];
    for (int i = 0; i < V * E; i++) emb[i] = 2.0f * (float)pl_rng_uniform(&rng) - 1.0f;
    pl_embedding_forward(x, ids, emb, B, T, E);
    for (int run = 0; run < 6; run++) {
        int D = run % 2 ? 20 : 5, lanes = 4 << (run / 2), HD = NH * D;
        if (!pl_attend_lanes_ok(lanes)) continue;
        size_t n = (size_t)T * B * HD;
        float *W = malloc(4 * (size_t)E * HD * sizeof *W), *q = malloc(n * sizeof *q), *k = malloc(n * sizeof *k);
        float *v = malloc(n * sizeof *v), *o = malloc(n * sizeof *o), *y = malloc((size_t)T * B * E * sizeof *y);
        float *p = malloc((size_t)B * NH * T * T * sizeof *p), *keep = malloc((size_t)NH * T * T * sizeof *keep);
        float *wsum = malloc((size_t)B * NH * T * sizeof *wsum), *wsel = malloc((size_t)B * NH * T * sizeof *wsel);
        for (int i = 0; i < 4 * E * HD; i++) W[i] = 2.0f * (float)pl_rng_uniform(&rng) - 1.0f;
        const float *Wq = W, *Wk = W + E * HD, *Wv = W + 2 * E * HD, *Wo = W + 3 * E * HD;
        PlAttendBufs w = {0};
        ck_assert_int_eq(pl_attend_bufs_reserve(&w, T, B, E, NH, D), 0);
        for (int variant = 0; variant < 8; variant++) {
            int use_mask = variant & 1, causal = (variant >> 1) & 1, some = variant >> 2;
            PlAttnShape s = {T, B, E, NH, D, causal, use_mask ? mask : NULL};
            pl_attention_forward(y, q, k, v, p, o, x, Wq, Wk, Wv, Wo, &s);
            PlAttend a = {.T = T,
                          .B = B,
                          .NH = NH,
                          .D = D,
                          .causal = causal,
                          .mask = use_mask ? mask : NULL,
                          .query = some ? query : NULL,
                          .sel = pads,
                          .keep_row = 2,
                          .lanes = lanes};
            PlAttendCounts counts = {0, 0};
            long empty = 0;
            memcpy(w.x, x, sizeof x);
            pl_attend_layer(&w, keep, wsum, wsel, &counts, ids, Wq, Wk, Wv, Wo, E, &a);
            for (int b = 0; b < B; b++)
                for (int i = 0; i < T; i++) {
                    size_t at = (size_t)i * B + b;
                    if (some && !query[b * T + i]) {
                        for (int e = 0; e < E; e++) ck_assert(w.y[at * E + e] == 0.0f);
                        continue;
                    }
                    for (int c = 0; c < HD; c++)
                        ck_assert_msg(fabsf(w.o[at * HD + c] - o[at * HD + c]) <=
                                          2e-6f * (1.0f + fabsf(o[at * HD + c])),
                                      "lanes %d D %d variant %d o[%d,%d,%d] %.7f, full %.7f", lanes, D, variant, i, b,
                                      c, (double)w.o[at * HD + c], (double)o[at * HD + c]);
                    for (int e = 0; e < E; e++)
                        ck_assert(fabsf(w.y[at * E + e] - y[at * E + e]) <= 1e-5f * (1.0f + fabsf(y[at * E + e])));
                    for (int h = 0; h < NH; h++) {
                        const float *pr = p + (((size_t)b * NH + h) * T + i) * T;
                        double all = 0.0, pad = 0.0;
                        for (int j = 0; j < T; j++) all += (double)pr[j], pad += pads[b * T + j] ? (double)pr[j] : 0.0;
                        empty += all == 0.0;
                        size_t si = ((size_t)b * NH + h) * T + i;
                        ck_assert(fabs((double)wsum[si] - all) <= 2e-6 && fabs((double)wsel[si] - pad) <= 2e-6);
                        if (use_mask) ck_assert(wsel[si] == 0.0f); /* the pads are never seen */
                        if (b != 2) continue;
                        for (int j = 0; j < T; j++) {
                            float got = keep[((size_t)h * T + i) * T + j];
                            ck_assert_msg(fabsf(got - pr[j]) <= 1e-6f, "weight %d,%d,%d: %.7g, full %.7g", h, i, j,
                                          (double)got, (double)pr[j]);
                            if (pr[j] == 0.0f && ((use_mask && !mask[b * T + j]) || (causal && j > i)))
                                ck_assert(got == 0.0f);
                        }
                    }
                }
            ck_assert_int_eq(counts.nan, 0);
            ck_assert_int_eq(counts.empty, empty);
        }
        /* Scores hundreds apart: far keys underflow to zero weight, never to
         * NaN. A score that large carries a rounding error of 1e-5 into its
         * exp, so the match is looser. */
        for (int i = 0; i < 4 * E * HD; i++) W[i] *= 8.0f;
        PlAttnShape wide = {T, B, E, NH, D, 0, mask};
        pl_attention_forward(y, q, k, v, p, o, x, Wq, Wk, Wv, Wo, &wide);
        PlAttend aw = {.T = T, .B = B, .NH = NH, .D = D, .mask = mask, .sel = pads, .lanes = lanes};
        PlAttendCounts cw = {0, 0};
        memcpy(w.x, x, sizeof x);
        pl_attend_layer(&w, NULL, wsum, NULL, &cw, ids, Wq, Wk, Wv, Wo, E, &aw);
        ck_assert_int_eq(cw.nan, 0);
        ck_assert_int_eq(cw.empty, NH * T); /* the all-pad row */
        for (size_t i = 0; i < n; i++) ck_assert(fabsf(w.o[i] - o[i]) <= 1e-3f * (1.0f + fabsf(o[i])));
        for (int i = 0; i < (B - 1) * NH * T; i++) ck_assert(fabsf(wsum[i] - 1.0f) <= 1e-6f);
        for (int i = 0; i < 4 * E * HD; i++) W[i] /= 8.0f;
        /* The inverted mask: keys are the pads alone, so a query's sum over
         * the pads is its whole sum, to the bit. */
        uint8_t inverted[B * T];
        for (int i = 0; i < B * T; i++) inverted[i] = pads[i];
        PlAttend a = {.T = T, .B = B, .NH = NH, .D = D, .mask = inverted, .sel = pads, .lanes = lanes};
        memcpy(w.x, x, sizeof x);
        pl_attend_layer(&w, NULL, wsum, wsel, NULL, ids, Wq, Wk, Wv, Wo, E, &a);
        for (int i = 0; i < B * NH * T; i++) ck_assert(wsel[i] == wsum[i]);
        pl_attend_bufs_done(&w);
        pl_attend_bufs_done(&w); /* twice is harmless */
        free(W), free(q), free(k), free(v), free(o), free(y), free(p), free(keep), free(wsum), free(wsel);
    }
}
END_TEST

START_TEST(test_attend_same_ids_points_repeats_at_their_first_query) {
    static const int32_t ids[2 * 6] = {5, 3, 5, 0, 0, 3, 7, 7, 7, 1, 2, 1};
    static const uint8_t query[2 * 6] = {1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 0, 1};
    static const int want_all[2 * 6] = {0, 1, 0, 3, 3, 1, 6, 6, 6, 9, 10, 9};
    static const int want_some[2 * 6] = {0, 1, 0, 3, 3, 1, 0, 1, 1, 3, 4, 3};
    int same[12];
    int64_t scratch[6];
    pl_attend_same_ids(same, ids, NULL, 2, 6, scratch);
    for (int i = 0; i < 12; i++) ck_assert_int_eq(same[i], want_all[i] % 6);
    pl_attend_same_ids(same, ids, query, 2, 6, scratch); /* the first among the queries chosen */
    for (int i = 0; i < 12; i++) ck_assert_int_eq(same[i], want_some[i]);
}
END_TEST

/* ---- packing ---- */
START_TEST(test_packed_rnn_equals_keras_masked_rnn_at_real_steps) {
    set_masks();
    int T = 5, B = 3, E = 4, H = 3;
    PlRng rng;
    pl_rng_seed(&rng, 50);
    float x[60], Wx[12], Wh[9], b[3], h[45], xp[60], hs[45], hp[45];
    float *all[] = {x, Wx, Wh, b};
    int sizes[] = {60, 12, 9, 3};
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < sizes[k]; i++) all[k][i] = (float)pl_rng_uniform(&rng) - 0.5f;
    pl_rnn_forward(h, x, mask35_tm, NULL, Wx, Wh, b, T, B, E, H);
    PlPack pk;
    ck_assert_int_eq(pl_pack_init(&pk, mask35, B, T), 0);
    ck_assert_int_eq(pk.K, 5);
    ck_assert_int_eq(pk.perm[0], 0); /* the full row first, then the two rows of 3 in order */
    ck_assert_int_eq(pk.perm[1], 1);
    ck_assert_int_eq(pk.nact[3], 1);
    pl_pack_gather(xp, x, &pk, E);
    pl_rnn_forward(hs, xp, NULL, pk.nact, Wx, Wh, b, pk.K, B, E, H);
    pl_pack_scatter(hp, hs, &pk, H);
    for (int t = 0; t < T; t++)
        for (int r = 0; r < B; r++)
            for (int j = 0; j < H; j++) {
                float want = mask35[r * T + t] ? h[(t * B + r) * H + j] : 0.0f;
                ck_assert_msg(fabsf(hp[(t * B + r) * H + j] - want) < 1e-6f, "t %d row %d", t, r);
            }
    pl_pack_done(&pk);
}
END_TEST

/* ---- losses ---- */
START_TEST(test_bce_from_logits_matches_its_twin_and_is_stable) {
    float z[4] = {-3.0f, 0.5f, 2.0f, 40.0f}, dz[4];
    double zd[4] = {-3.0, 0.5, 2.0, 40.0};
    uint8_t y[4] = {0, 1, 0, 1};
    float loss = pl_bce_logits(dz, z, y, 4);
    ck_assert(fabs((double)loss - ref_bce(zd, y, 4)) < 1e-6);
    for (int i = 0; i < 4; i++) {
        double up[4], down[4];
        memcpy(up, zd, sizeof up);
        memcpy(down, zd, sizeof down);
        up[i] += 1e-6;
        down[i] -= 1e-6;
        double fd = (ref_bce(up, y, 4) - ref_bce(down, y, 4)) / 2e-6;
        ck_assert_msg(fabs((double)dz[i] - fd) < 1e-5, "dz[%d] %.7f fd %.7f", i, (double)dz[i], fd);
    }
    float big[1] = {-1000.0f};
    uint8_t one[1] = {1};
    ck_assert(fabs((double)pl_bce_logits(NULL, big, one, 1) - 1000.0) < 1e-3); /* no inf, no NaN */
}
END_TEST

START_TEST(test_token_cross_entropy_normalisations_match_their_twin) {
    int T = 4, B = 2, C = 3;
    int32_t targets[8] = {1, 2, -100, -100, 0, 1, 2, 0};
    PlRng rng;
    pl_rng_seed(&rng, 60);
    float z[24], dz[24];
    double zd[24];
    for (int i = 0; i < 24; i++) z[i] = (float)(zd[i] = pl_rng_uniform(&rng) * 2 - 1);
    for (int norm = 0; norm < 3; norm++) {
        float loss = pl_token_ce(dz, NULL, z, targets, T, B, C, (PlLossNorm)norm);
        ck_assert(fabs((double)loss - ref_token_ce(zd, targets, T, B, C, norm)) < 1e-6);
        for (int i = 0; i < 24; i++) {
            double keep = zd[i];
            zd[i] = keep + 1e-6;
            double up = ref_token_ce(zd, targets, T, B, C, norm);
            zd[i] = keep - 1e-6;
            double down = ref_token_ce(zd, targets, T, B, C, norm);
            zd[i] = keep;
            ck_assert_msg(fabs((double)dz[i] - (up - down) / 2e-6) < 1e-5, "norm %d logit %d", norm, i);
        }
    }
}
END_TEST

START_TEST(test_fast_activations_agree_with_libm) {
    double worst = 0.0;
    for (double x = -12.0; x <= 12.0; x += 1e-3) {
        worst = fmax(worst, fabs((double)pl_tanhf((float)x) - tanh(x)));
        worst = fmax(worst, fabs((double)pl_sigmoidf((float)x) - ref_sigmoid(x)));
    }
    ck_assert_msg(worst < 5e-7, "worst error %.3g", worst);
}
END_TEST

Suite *nn_suite(void) {
    Suite *s = suite_create("nn");
    TCase *tc = tcase_create("layers");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_dense_matches_its_twin_and_finite_differences);
    tcase_add_test(tc, test_simple_rnn_matches_its_twin_without_mask);
    tcase_add_test(tc, test_simple_rnn_carries_state_over_masked_steps);
    tcase_add_test(tc, test_gru_matches_its_twin_with_and_without_mask);
    tcase_add_test(tc, test_lstm_matches_its_twin_with_and_without_mask);
    tcase_add_test(tc, test_pooling_matches_its_twin_in_every_mask_mode);
    tcase_add_test(tc, test_fused_embedding_pooling_equals_lookup_then_pooling);
    tcase_add_test(tc, test_conv1d_matches_its_twin);
    tcase_add_test(tc, test_flatten_lays_steps_end_to_end);
    tcase_add_test(tc, test_attention_matches_its_twin_with_padding_and_causal_masks);
    tcase_add_test(tc, test_attend_matches_full_attention_on_the_queries_it_computes);
    tcase_add_test(tc, test_attend_same_ids_points_repeats_at_their_first_query);
    tcase_add_test(tc, test_packed_rnn_equals_keras_masked_rnn_at_real_steps);
    tcase_add_test(tc, test_fast_activations_agree_with_libm);
    suite_add_tcase(s, tc);
    tc = tcase_create("losses");
    tcase_add_test(tc, test_bce_from_logits_matches_its_twin_and_is_stable);
    tcase_add_test(tc, test_token_cross_entropy_normalisations_match_their_twin);
    suite_add_tcase(s, tc);
    return s;
}
