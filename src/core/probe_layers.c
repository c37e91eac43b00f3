/* The layers probe: perturb only the pads, and see which layers notice. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn/attend.h"
#include "probe.h"
#include "probe_weights.h"
#include "rng.h"
#include "tensor.h"

typedef struct {
    const PlBatch *b;
    int E, H;
    const float *x, *xp;    /* (T,B,E) the embedded batch, and the same with its pads perturbed */
    const uint8_t *mask_tm; /* (T,B) */
    PlRng rng;
    int oom; /* a layer's buffers could not be had: the probe fails */
} Ctx;

/* Largest change between two (T,B,C) tensors at the real positions. */
static float real_change(const Ctx *k, const float *a, const float *b, int C) {
    float m = 0.0f;
    for (int t = 0; t < k->b->T; t++)
        for (int r = 0; r < k->b->B; r++) {
            if (!k->b->mask[(size_t)r * k->b->T + t]) continue;
            size_t at = ((size_t)t * k->b->B + r) * C;
            float d = pl_max_abs_diff(a + at, b + at, (size_t)C);
            m = d > m ? d : m;
        }
    return m;
}

static float *rand_block(PlRng *rng, size_t n, float scale) {
    float *w = malloc(n * sizeof *w + 1);
    for (size_t i = 0; w && i < n; i++) w[i] = scale * (2.0f * (float)pl_rng_uniform(rng) - 1.0f);
    return w;
}

/* A recurrent layer with or without the Keras mask: states at real positions
 * and the last-position readout. */
static float recurrent_leak(Ctx *k, PlArch cell, int use_mask) {
    int T = k->b->T, B = k->b->B, E = k->E, H = k->H, gates = cell == PL_ARCH_GRU ? 3 : cell == PL_ARCH_LSTM ? 4 : 1;
    int G = gates * H;
    size_t n = (size_t)T * B;
    float *Wx = rand_block(&k->rng, (size_t)E * G, 0.3f), *U = rand_block(&k->rng, (size_t)H * G, 0.3f),
          *bias = rand_block(&k->rng, 2 * (size_t)G, 0.1f);
    float *h = malloc(n * H * sizeof *h), *hp = malloc(n * H * sizeof *hp), *g = malloc(n * G * sizeof *g),
          *u = malloc((n + (size_t)B) * G * sizeof *u); /* the LSTM's cell, or the GRU's hu (nn.h) */
    float leak = NAN;
    const uint8_t *mk = use_mask ? k->mask_tm : NULL;
    if (Wx && U && bias && h && hp && g && u) {
        for (int pass = 0; pass < 2; pass++) {
            const float *x = pass ? k->xp : k->x;
            float *out = pass ? hp : h;
            if (cell == PL_ARCH_RNN) pl_rnn_forward(out, x, mk, NULL, Wx, U, bias, T, B, E, H);
            else if (cell == PL_ARCH_GRU) pl_gru_forward(out, g, u, x, mk, NULL, Wx, U, bias, T, B, E, H);
            else pl_lstm_forward(out, u, g, x, mk, NULL, Wx, U, bias, T, B, E, H);
        }
        leak = real_change(k, h, hp, H);
        float readout = pl_max_abs_diff(h + (size_t)(T - 1) * B * H, hp + (size_t)(T - 1) * B * H, (size_t)B * H);
        leak = readout > leak ? readout : leak;
    } else {
        k->oom = 1;
    }
    free(Wx), free(U), free(bias), free(h), free(hp), free(g), free(u);
    return leak;
}

static float pool_leak(Ctx *k, int max, PlPoolMask mode) {
    int T = k->b->T, B = k->b->B, E = k->E;
    float *a = malloc((size_t)B * E * sizeof *a), *b = malloc((size_t)B * E * sizeof *b);
    int *arg = malloc((size_t)B * E * sizeof *arg);
    float leak = NAN;
    if (a && b && arg) {
        if (max) {
            pl_maxpool_forward(a, arg, k->x, k->b->mask, mode, T, B, E);
            pl_maxpool_forward(b, arg, k->xp, k->b->mask, mode, T, B, E);
        } else {
            pl_avgpool_forward(a, k->x, k->b->mask, mode, T, B, E);
            pl_avgpool_forward(b, k->xp, k->b->mask, mode, T, B, E);
        }
        leak = pl_max_abs_diff(a, b, (size_t)B * E);
    } else {
        k->oom = 1;
    }
    free(a), free(b), free(arg);
    return leak;
}

/* Dense per position, conv1d (windows touching a real token), flatten. */
static void position_layers(Ctx *k, PlProbeLayers *r) {
    int T = k->b->T, B = k->b->B, E = k->E, K = 3, To = T - K + 1;
    size_t n = (size_t)T * B;
    float *W = rand_block(&k->rng, (size_t)K * E * E, 0.3f), *bias = rand_block(&k->rng, (size_t)E, 0.1f);
    float *a = malloc(n * E * sizeof *a), *b = malloc(n * E * sizeof *b);
    if (!W || !bias || !a || !b) {
        k->oom = 1;
        goto done;
    }
    pl_dense_forward(a, k->x, W, bias, (int)n, E, E);
    pl_dense_forward(b, k->xp, W, bias, (int)n, E, E);
    r->rows[r->n++] = (PlLayerLeak){"dense", "none", real_change(k, a, b, E)};
    float conv = 0.0f;
    if (To > 0) {
        pl_conv1d_forward(a, k->x, W, bias, T, B, E, E, K);
        pl_conv1d_forward(b, k->xp, W, bias, T, B, E, E, K);
        for (int t = 0; t < To; t++)
            for (int row = 0; row < B; row++) {
                int touches = 0;
                for (int j = 0; j < K; j++) touches |= k->b->mask[(size_t)row * T + t + j];
                size_t at = ((size_t)t * B + row) * E;
                float d = touches ? pl_max_abs_diff(a + at, b + at, (size_t)E) : 0.0f;
                conv = d > conv ? d : conv;
            }
    }
    r->rows[r->n++] = (PlLayerLeak){"conv1d", "none", conv};
    pl_flatten_forward(a, k->x, T, B, E);
    pl_flatten_forward(b, k->xp, T, B, E);
    r->rows[r->n++] = (PlLayerLeak){"flatten", "none", pl_max_abs_diff(a, b, n * E)};
done:
    free(W), free(bias), free(a), free(b);
}

/* Attention leaks only through real queries, so only they run (pl_attend);
 * a real position's input is its token's embedding in both runs, so
 * repeated tokens share one query. */
static float attention_leak(Ctx *k, int use_mask) {
    int T = k->b->T, B = k->b->B, E = k->E, NH = 2, D = 8, HD = NH * D;
    size_t n = (size_t)T * B;
    float *w = rand_block(&k->rng, 4 * (size_t)E * HD, 0.3f), *ya = malloc(n * E * sizeof *ya);
    PlAttendBufs u = {0};
    float leak = NAN;
    if (w && ya && !pl_attend_bufs_reserve(&u, T, B, E, NH, D)) {
        PlAttend a = {.T = T, .B = B, .NH = NH, .D = D, .mask = use_mask ? k->b->mask : NULL, .query = k->b->mask};
        const float *Wq = w, *Wk = w + (size_t)E * HD, *Wv = w + 2 * (size_t)E * HD, *Wo = w + 3 * (size_t)E * HD;
        memcpy(u.x, k->x, n * E * sizeof *u.x);
        pl_attend_layer(&u, NULL, NULL, NULL, NULL, k->b->ids, Wq, Wk, Wv, Wo, E, &a);
        memcpy(ya, u.y, n * E * sizeof *ya);
        memcpy(u.x, k->xp, n * E * sizeof *u.x);
        pl_attend_layer(&u, NULL, NULL, NULL, NULL, k->b->ids, Wq, Wk, Wv, Wo, E, &a);
        leak = real_change(k, ya, u.y, E);
    } else {
        k->oom = 1;
    }
    free(w), free(ya);
    pl_attend_bufs_done(&u);
    return leak;
}

static void fill_rows(Ctx *k, PlProbeLayers *r, const int32_t *ids_perturbed, const float *emb) {
    const PlBatch *b = k->b;
    float *xe = malloc((size_t)b->T * b->B * k->E * sizeof *xe);
    if (xe) {
        pl_embedding_forward(xe, ids_perturbed, emb, b->B, b->T, k->E);
        r->rows[r->n++] = (PlLayerLeak){"embedding", "none", real_change(k, k->x, xe, k->E)};
    } else {
        k->oom = 1;
    }
    free(xe);
    static const PlArch cells[] = {PL_ARCH_RNN, PL_ARCH_GRU, PL_ARCH_LSTM};
    for (int i = 0; i < 3; i++)
        for (int m = 1; m >= 0; m--)
            r->rows[r->n++] = (PlLayerLeak){pl_arch_name(cells[i]), m ? "on" : "off", recurrent_leak(k, cells[i], m)};
    r->rows[r->n++] = (PlLayerLeak){"avgpool", "on", pool_leak(k, 0, PL_POOL_MASKED)};
    r->rows[r->n++] = (PlLayerLeak){"avgpool", "off", pool_leak(k, 0, PL_POOL_UNMASKED)};
    r->rows[r->n++] = (PlLayerLeak){"maxpool", "on", pool_leak(k, 1, PL_POOL_MASKED)};
    r->rows[r->n++] = (PlLayerLeak){"maxpool", "off", pool_leak(k, 1, PL_POOL_UNMASKED)};
    position_layers(k, r);
    r->rows[r->n++] = (PlLayerLeak){"attention", "on", attention_leak(k, 1)};
    r->rows[r->n++] = (PlLayerLeak){"attention", "off", attention_leak(k, 0)};
}

void pl_probe_layers_free(PlProbeLayers *r) {
    if (r) memset(r, 0, sizeof *r);
}

PlStatus pl_probe_layers(const PlCorpus *c, const PlProbeOpts *o, const PlModel *model, PlProbeLayers *r, PlErr *err) {
    memset(r, 0, sizeof *r);
    PlModel *own = NULL;
    PlBatch *b = NULL;
    PlStatus st = model ? pl_probe_check_vocab(pl_model_config(model)->vocab, c, err)
                        : pl_probe_fresh_model(PL_ARCH_AVGPOOL, c, o->seed, &own, err);
    if (!st) st = pl_probe_focus_batch(c, o, PL_PROBE_FOCUS_ROWS, &b, err);
    if (st) {
        pl_model_free(own);
        return st;
    }
    const PlModel *m = model ? model : own;
    const float *emb = pl_model_param_view(m, PL_P_EMBEDDING, NULL);
    Ctx k = {b, pl_model_config(m)->embed, 16, NULL, NULL, NULL, {{0}}, 0};
    pl_rng_seed(&k.rng, o->seed ^ 0x1a7e5ULL);
    size_t n = (size_t)b->T * b->B;
    float *x = malloc(n * k.E * sizeof *x), *xp = malloc(n * k.E * sizeof *xp);
    uint8_t *mt = malloc(n);
    int32_t *ids2 = malloc(n * sizeof *ids2);
    if (x && xp && mt && ids2) {
        pl_embedding_forward(x, b->ids, emb, b->B, b->T, k.E);
        memcpy(xp, x, n * k.E * sizeof *xp);
        memcpy(ids2, b->ids, n * sizeof *ids2);
        for (int t = 0; t < b->T; t++)
            for (int row = 0; row < b->B; row++) {
                size_t bt = (size_t)row * b->T + t;
                mt[(size_t)t * b->B + row] = b->mask[bt];
                if (b->mask[bt]) continue;
                r->pads++;
                ids2[bt] = 3 + (int32_t)pl_rng_below(&k.rng, (uint64_t)(c->num_words - 3));
                for (int e = 0; e < k.E; e++) xp[((size_t)t * b->B + row) * k.E + e] = (float)pl_rng_normal(&k.rng);
            }
        k.x = x, k.xp = xp, k.mask_tm = mt;
        r->B = b->B, r->T = b->T, r->E = k.E;
        fill_rows(&k, r, ids2, emb);
    }
    if (!(x && xp && mt && ids2) || k.oom) {
        memset(r, 0, sizeof *r);
        st = pl_err_set(err, PL_ENOMEM, "out of memory for the layers probe");
    }
    free(x), free(xp), free(mt), free(ids2);
    pl_batch_free(b);
    pl_model_free(own);
    return st;
}
