/* The katas that compute on values: a float16 fill, masked mean pooling,
 * the masked softmax, the token loss in each normalisation, and bucket
 * assignment. The values are made from the batch's own ids, so a pad cell
 * holds a value like any other and only a mask tells it apart; the expected
 * outputs are the core's (nn/pool.c, nn/attention.c, loss.c, plan.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/loss.h"
#include "core/mask.h"
#include "core/nn/nn.h"
#include "core/plan.h"
#include "task_impl.h"

/* A score from two ids and their places, a multiple of 1/8 in [-2.5, 2.5]. */
static float score_of(int32_t a, int32_t b, int i, int j) {
    return (float)(((unsigned)a * 7u + (unsigned)b * 13u + (unsigned)i * 3u + (unsigned)j) % 41u) / 8.0f - 2.5f;
}

/* ---- float16 fill ---- */

static PlStatus make_fp16(PlKCase *kc, int k, const PlCorpus *c) {
    PlKBatch b;
    PlStatus st = pl_kbatch_make(&b, kc, k, c);
    if (st) return st;
    int B = b.B, T = b.T, d[3] = {B, T, T};
    st = pl_karray_make(&kc->in[0], "scores", PL_KT_HALF, 3, d);
    if (!st) st = pl_ktask_mask_input(&kc->in[1], "attention_mask", &b, PL_KT_INT, 0);
    if (!st) st = pl_karray_make(&kc->out[0], "masked", PL_KT_HALF, 3, d);
    kc->nin = 2, kc->nout = 1;
    float s[400], out[400];
    uint8_t keys[400];
    if (!st) {
        /* scores from -31.5 to 0 in halves, exact in float16: below -16, adding finfo.min overflows */
        for (int r = 0; r < B; r++)
            for (int i = 0; i < T; i++)
                for (int j = 0; j < T; j++)
                    s[(r * T + i) * T + j] =
                        -(float)(((unsigned)b.ids[r * T + j] * 7u + (unsigned)(i + 5 * j)) % 64u) * 0.5f;
        pl_mask_key_padding(keys, b.mask, B, T);
        pl_mask_fill(out, s, keys, kc->out[0].n, -65504.0f);
        for (size_t i = 0; i < kc->out[0].n; i++) kc->in[0].v[i] = s[i], kc->out[0].v[i] = out[i];
    }
    pl_kbatch_done(&b);
    return st;
}

static void why_fp16(char *buf, size_t cap, const PlKCase *kc, int o, const int *idx, double got) {
    (void)got;
    (void)o;
    int key[2] = {idx[0], idx[2]};
    if (pl_ktask_is_pad(kc, key))
        snprintf(buf, cap,
                 "key %d is a pad: its score is filled with torch.finfo(torch.float16).min = -65504; adding it "
                 "instead overflows to -inf for any score below -16, and a row of pads becomes NaN",
                 idx[2]);
    else snprintf(buf, cap, "key %d is a real token: its score stays as it was", idx[2]);
}

const PlKTask pl_ktask_fp16 = {
    "fill_fp16",
    {{"scores", PL_KT_HALF, "B,T,T", "row,query,key"}, {"attention_mask", PL_KT_INT, "B,T", "row,key"}},
    {{"masked", PL_KT_HALF, "B,T,T", "row,query,key"}},
    2,
    1,
    PL_KBATCH_CASES,
    make_fp16,
    why_fp16};

/* ---- masked mean pooling ---- */

enum { MEAN_C = 3 };

static PlStatus make_mean(PlKCase *kc, int k, const PlCorpus *c) {
    PlKBatch b;
    PlStatus st = pl_kbatch_make(&b, kc, k, c);
    if (st) return st;
    int B = b.B, T = b.T, C = MEAN_C;
    st = pl_karray_make(&kc->in[0], "x", PL_KT_FLOAT, 3, (int[]){B, T, C});
    if (!st) st = pl_ktask_mask_input(&kc->in[1], "attention_mask", &b, PL_KT_INT, 0);
    if (!st) st = pl_karray_make(&kc->out[0], "pooled", PL_KT_FLOAT, 2, (int[]){B, C});
    kc->nin = 2, kc->nout = 1;
    float x[200], out[20]; /* x time-major (T,B,C), as the layer takes it */
    if (!st) {
        for (int r = 0; r < B; r++)
            for (int t = 0; t < T; t++)
                for (int ch = 0; ch < C; ch++) {
                    float v = (float)(((unsigned)b.ids[r * T + t] * 5u + (unsigned)(ch * 11 + t)) % 23u) / 4.0f - 2.5f;
                    x[(t * B + r) * C + ch] = v, kc->in[0].v[(r * T + t) * C + ch] = v;
                }
        pl_avgpool_forward(out, x, b.mask, PL_POOL_MASKED, T, B, C);
        for (int i = 0; i < B * C; i++) kc->out[0].v[i] = out[i];
    }
    pl_kbatch_done(&b);
    return st;
}

static void why_mean(char *buf, size_t cap, const PlKCase *kc, int o, const int *idx, double got) {
    (void)got;
    (void)o;
    const PlKArray *m = &kc->in[1];
    int T = m->shape[1], n = 0;
    for (int t = 0; t < T; t++) n += m->v[(size_t)idx[0] * T + t] != 0.0;
    if (!n)
        snprintf(buf, cap,
                 "row %d has no real token: its mean is 0 (divide by the count clamped to at least 1, "
                 "as sentence-transformers does), never 0/0",
                 idx[0]);
    else
        snprintf(buf, cap, "row %d has %d real tokens: the sum over them is divided by %d, not by the width %d", idx[0],
                 n, n, T);
}

const PlKTask pl_ktask_mean = {
    "masked_mean",
    {{"x", PL_KT_FLOAT, "B,T,C", "row,token,channel"}, {"attention_mask", PL_KT_INT, "B,T", "row,token"}},
    {{"pooled", PL_KT_FLOAT, "B,C", "row,channel"}},
    2,
    1,
    PL_KBATCH_CASES,
    make_mean,
    why_mean};

/* ---- masked softmax ---- */

static PlStatus make_softmax(PlKCase *kc, int k, const PlCorpus *c) {
    PlKBatch b;
    PlStatus st = pl_kbatch_make(&b, kc, k, c);
    if (st) return st;
    int B = b.B, T = b.T, d[3] = {B, T, T};
    st = pl_karray_make(&kc->in[0], "scores", PL_KT_FLOAT, 3, d);
    if (!st) st = pl_ktask_mask_input(&kc->in[1], "key_padding_mask", &b, PL_KT_BOOL, 1);
    if (!st) st = pl_karray_make(&kc->out[0], "weights", PL_KT_FLOAT, 3, d);
    kc->nin = 2, kc->nout = 1;
    float S[100];
    for (int r = 0; !st && r < B; r++) {
        for (int i = 0; i < T; i++)
            for (int j = 0; j < T; j++) S[i * T + j] = score_of(b.ids[r * T + i], b.ids[r * T + j], i, j);
        for (int i = 0; i < T * T; i++) kc->in[0].v[(size_t)r * T * T + i] = S[i];
        pl_attention_softmax(S, b.mask + (size_t)r * T, 0, T);
        for (int i = 0; i < T * T; i++) kc->out[0].v[(size_t)r * T * T + i] = S[i];
    }
    pl_kbatch_done(&b);
    return st;
}

static void why_softmax(char *buf, size_t cap, const PlKCase *kc, int o, const int *idx, double got) {
    (void)o;
    const PlKArray *m = &kc->in[1];
    int T = m->shape[1], seen = 0, key[2] = {idx[0], idx[2]};
    for (int t = 0; t < T; t++) seen += m->v[(size_t)idx[0] * T + t] == 0.0;
    if (!seen)
        snprintf(buf, cap,
                 "row %d has no visible key (every key a pad): its weights are all 0, as "
                 "F.scaled_dot_product_attention gives since PyTorch 2.5; torch.softmax over nothing but -inf is NaN, "
                 "and a NaN spreads to every real query through the next layer",
                 idx[0]);
    else if (pl_ktask_is_pad(kc, key))
        snprintf(buf, cap,
                 "key %d is a pad (key_padding_mask True: True = ignore); a pad key has weight %.2g, with "
                 "the mask it must be 0",
                 idx[2], got);
    else if (got == 0.0)
        snprintf(buf, cap,
                 "key %d is a real token (key_padding_mask False) and gets no weight: is the mask's polarity "
                 "inverted? PyTorch's key_padding_mask is True at the pads, the opposite of attention_mask",
                 idx[2]);
    else
        snprintf(buf, cap,
                 "the softmax runs over the row's %d real keys only (key_padding_mask False), so they sum to 1", seen);
}

const PlKTask pl_ktask_softmax = {
    "masked_softmax",
    {{"scores", PL_KT_FLOAT, "B,T,T", "row,query,key"}, {"key_padding_mask", PL_KT_BOOL, "B,T", "row,key"}},
    {{"weights", PL_KT_FLOAT, "B,T,T", "row,query,key"}},
    2,
    1,
    PL_KBATCH_CASES,
    make_softmax,
    why_softmax};

/* ---- token loss in each normalisation ---- */

enum { LOSS_C = 4 };
static const char *const loss_names[3] = {"loss_token", "loss_sequence", "loss_cells"};

static PlStatus make_loss(PlKCase *kc, int k, const PlCorpus *c) {
    PlKBatch b;
    PlStatus st = pl_kbatch_make(&b, kc, k, c);
    if (st) return st;
    int B = b.B, T = b.T, C = LOSS_C;
    st = pl_karray_make(&kc->in[0], "logits", PL_KT_FLOAT, 3, (int[]){B, T, C});
    if (!st) st = pl_karray_make(&kc->in[1], "labels", PL_KT_INT, 2, (int[]){B, T});
    kc->nin = 2, kc->nout = 3;
    float z[160];
    int32_t y[40];
    for (int r = 0; !st && r < B; r++)
        for (int t = 0; t < T; t++) {
            y[r * T + t] = b.mask[r * T + t] ? (int32_t)((unsigned)b.ids[r * T + t] % (unsigned)C) : PL_IGNORE_INDEX;
            kc->in[1].v[r * T + t] = y[r * T + t];
            for (int ch = 0; ch < C; ch++) {
                float v = (float)(((unsigned)b.ids[r * T + t] * 3u + (unsigned)(ch * 7 + t * 5)) % 17u) / 4.0f - 2.0f;
                z[(t * B + r) * C + ch] = v, kc->in[0].v[(r * T + t) * C + ch] = v;
            }
        }
    PlLossNorm norms[3] = {PL_NORM_TOKEN, PL_NORM_SEQUENCE, PL_NORM_BATCH_T};
    for (int i = 0; !st && i < 3; i++)
        st =
            pl_karray_scalar(&kc->out[i], loss_names[i], PL_KT_FLOAT, pl_token_ce(NULL, NULL, z, y, T, B, C, norms[i]));
    pl_kbatch_done(&b);
    return st;
}

static void why_loss(char *buf, size_t cap, const PlKCase *kc, int o, const int *idx, double got) {
    (void)got;
    (void)idx;
    int B = kc->in[1].shape[0], T = kc->in[1].shape[1], n = 0;
    for (size_t i = 0; i < kc->in[1].n; i++) n += kc->in[1].v[i] != PL_IGNORE_INDEX;
    if (o == 0)
        snprintf(buf, cap,
                 "the sum over the %d labels that are not -100, divided by %d (reduction='mean' with ignore_index)", n,
                 n);
    else if (o == 1)
        snprintf(
            buf, cap,
            "each row's mean over its own labels, then the mean over the rows that have any (a row of -100 only counts for none)");
    else snprintf(buf, cap, "the sum over the %d real labels divided by every cell, B*T = %d, pads included", n, B * T);
}

const PlKTask pl_ktask_loss = {
    "token_loss",
    {{"logits", PL_KT_FLOAT, "B,T,C", "row,token,class"}, {"labels", PL_KT_INT, "B,T", "row,token"}},
    {{"loss_token", PL_KT_FLOAT, "", ""}, {"loss_sequence", PL_KT_FLOAT, "", ""}, {"loss_cells", PL_KT_FLOAT, "", ""}},
    2,
    3,
    PL_KBATCH_CASES,
    make_loss,
    why_loss};

/* ---- buckets ---- */

typedef struct {
    const char *what;
    int rows, nb, bounds[3];
    int own; /* the boundaries are lengths of the rows themselves */
} BucketCase;

static const BucketCase bucket_cases[] = {
    {"corpus lengths, three boundaries", 12, 3, {100, 200, 400}, 0},
    {"a bucket left empty", 12, 3, {10, 20, 1000}, 0},
    {"one boundary", 12, 1, {150}, 0},
    {"a batch of one", 1, 2, {100, 300}, 0},
    {"lengths equal to each boundary", 12, 3, {0}, 1},
};

/* Boundaries that are rows' own lengths: the distinct ones of rows 1, 5
 * and 9, increasing, into q (at least one). */
static void own_bounds(BucketCase *q, const int *len, int n) {
    int got = 0;
    for (int i = 1; i < n && got < 3; i += 4) {
        int v = len[i], at = got;
        for (int k = 0; k < got; k++)
            if (q->bounds[k] == v) at = -1;
        if (at < 0) continue;
        while (at > 0 && q->bounds[at - 1] > v) q->bounds[at] = q->bounds[at - 1], at--;
        q->bounds[at] = v, got++;
    }
    if (!got) q->bounds[0] = n ? len[0] : 1, got = 1;
    q->nb = got;
}

static PlStatus make_buckets(PlKCase *kc, int k, const PlCorpus *c) {
    BucketCase own = bucket_cases[k], *q = &own;
    int n = q->rows < c->n ? q->rows : c->n, len[16], width[4] = {0};
    snprintf(kc->what, sizeof kc->what, "%s", q->what);
    for (int i = 0; i < n; i++) len[i] = pl_corpus_len(c, i * 3 % (c->n ? c->n : 1));
    if (q->own) own_bounds(q, len, n);
    int nk = q->nb + 1;
    PlStatus st = pl_karray_make(&kc->in[0], "lengths", PL_KT_INT, 1, &n);
    if (!st) st = pl_karray_make(&kc->in[1], "boundaries", PL_KT_INT, 1, &q->nb);
    if (!st) st = pl_karray_make(&kc->out[0], "bucket", PL_KT_INT, 1, &n);
    if (!st) st = pl_karray_make(&kc->out[1], "width", PL_KT_INT, 1, &nk);
    kc->nin = 2, kc->nout = 2;
    PlPlanOpts o = {.kind = PL_BATCH_BUCKET_LONGEST, .batch_size = n, .boundaries = q->bounds, .n_boundaries = q->nb};
    PlPlan *p = NULL;
    PlErr err;
    if (!st && n) st = pl_plan_make(len, n, &o, &p, &err);
    for (int bt = 0; !st && p && bt < p->n_batches; bt++)
        width[pl_plan_bucket_of(len[p->order[p->start[bt]]], q->bounds, q->nb)] = p->width[bt];
    for (int i = 0; !st && i < n; i++)
        kc->in[0].v[i] = len[i], kc->out[0].v[i] = pl_plan_bucket_of(len[i], q->bounds, q->nb);
    for (int i = 0; !st && i < q->nb; i++) kc->in[1].v[i] = q->bounds[i];
    for (int i = 0; !st && i < nk; i++) kc->out[1].v[i] = width[i];
    pl_plan_free(p);
    return st;
}

static void why_buckets(char *buf, size_t cap, const PlKCase *kc, int o, const int *idx, double got) {
    (void)got;
    if (o == 0) {
        int L = (int)kc->in[0].v[idx[0]];
        snprintf(buf, cap,
                 "a row of %d tokens goes in bucket k where boundaries[k-1] <= %d < boundaries[k] "
                 "(tf.data's bucket_by_sequence_length): a length equal to a boundary starts the next bucket",
                 L, L);
    } else
        snprintf(buf, cap, "bucket %d's width is the longest length among its rows (0 for a bucket no row falls in)",
                 idx[0]);
}

const PlKTask pl_ktask_buckets = {"buckets",
                                  {{"lengths", PL_KT_INT, "N", "row"}, {"boundaries", PL_KT_INT, "K", "boundary"}},
                                  {{"bucket", PL_KT_INT, "N", "row"}, {"width", PL_KT_INT, "K+1", "bucket"}},
                                  2,
                                  2,
                                  (int)(sizeof bucket_cases / sizeof bucket_cases[0]),
                                  make_buckets,
                                  why_buckets};
