/* The attention probe: what a padding mask does to scaled dot-product
 * attention, measured on a real batch. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn/attend.h"
#include "probe.h"
#include "probe_weights.h"
#include "tensor.h"

/* The attention layer over batch b with the probe's weights: the outputs
 * land in u->y (T,B,E); keep, wsum, wsel and n as pl_attend_layer's. The
 * inputs are embeddings without positions, so repeated tokens share one
 * query. Returns -1 when out of memory. */
static int attend(PlAttendBufs *u, const PlAttnWeights *w, const PlBatch *b, const PlAttend *a, float *keep,
                  float *wsum, float *wsel, PlAttendCounts *n) {
    if (pl_attend_bufs_reserve(u, b->T, b->B, w->E, w->NH, w->D)) return -1;
    pl_embedding_forward(u->x, b->ids, w->emb, b->B, b->T, w->E);
    pl_attend_layer(u, keep, wsum, wsel, n, b->ids, w->wq, w->wk, w->wv, w->wo, w->E, a);
    return 0;
}

/* Row r of b as a batch of its own (views into b). */
static PlBatch row_view(const PlBatch *b, int r) {
    PlBatch one = *b;
    one.B = 1;
    one.ids = b->ids + (size_t)r * b->T;
    one.mask = b->mask + (size_t)r * b->T;
    one.len = b->len + r;
    one.orig_len = b->orig_len ? b->orig_len + r : NULL;
    one.row = b->row ? b->row + r : NULL;
    one.labels = NULL;
    return one;
}

/* Index of the k-th real position of row r. */
static int real_pos(const PlBatch *b, int r, int k) { return b->padding == PL_POST ? k : b->T - b->len[r] + k; }

/* Largest difference between the outputs of row ra of ya and row rb of yb
 * over their real tokens, matched in order. */
static float real_diff(const float *ya, const PlBatch *a, int ra, const float *yb, const PlBatch *b, int rb, int E) {
    float m = 0.0f;
    int L = a->len[ra] < b->len[rb] ? a->len[ra] : b->len[rb];
    for (int k = 0; k < L; k++) {
        const float *u = ya + ((size_t)real_pos(a, ra, k) * a->B + ra) * E;
        const float *v = yb + ((size_t)real_pos(b, rb, k) * b->B + rb) * E;
        float d = pl_max_abs_diff(u, v, (size_t)E);
        m = d > m ? d : m;
    }
    return m;
}

void pl_probe_attention_free(PlProbeAttention *r) {
    if (!r) return;
    free(r->real), free(r->scores), free(r->bias), free(r->weights), free(r->leak);
    free(r->visible), free(r->head_pad_share), free(r->row_sum), free(r->wrong_fix_sum), free(r->cu_seqlens);
    memset(r, 0, sizeof *r);
}

/* The buffers of one probe run: main holds the run over the batch, whose
 * outputs the later checks reuse; aux and one hold the runs on a single row
 * or on the real tokens alone. */
typedef struct {
    PlAttendBufs main, aux, one;
    const PlAttnWeights *w;
    int causal;
} Runs;

static void runs_done(Runs *u) {
    pl_attend_bufs_done(&u->main), pl_attend_bufs_done(&u->aux), pl_attend_bufs_done(&u->one);
}

/* Which earlier query of the example each query repeats (same[i] <= i, i
 * itself when none): the same token, seeing the same keys, whose weights
 * the main run copied; NULL under causal, where each query sees other keys. */
static const int *example_repeats(const PlProbeAttention *r, const PlAttendBufs *m) {
    return r->causal ? NULL : m->same + (size_t)r->row * r->T;
}

/* Scores of the example row, head by head: q k^T / sqrt(D), unmasked, from
 * the main run's projections. Every row is computed, repeats too: the
 * product that makes q need not give one token at two positions the same
 * bits (computed afresh, a repeat's weights came out an ulp apart in the
 * tests), and its scores would differ with them. */
static void example_scores(PlProbeAttention *r, const PlAttendBufs *m, const PlAttnWeights *w, const PlBatch *b) {
    int T = b->T, HD = w->NH * w->D, ld = b->B * HD;
    for (int h = 0; h < w->NH; h++) {
        size_t off = (size_t)r->row * HD + (size_t)h * w->D;
        pl_gemm(0, 1, T, T, w->D, 1.0f / sqrtf((float)w->D), m->q + off, ld, m->k + off, ld, 0.0f,
                r->scores + (size_t)h * T * T, T);
    }
}

/* The example's row sums and pad weight come from the main run's sums
 * (row_sum, leak: every key, the pad keys); the largest pad weight from its
 * kept weights. */
static void weight_metrics(PlProbeAttention *r, const PlAttendCounts *n, const float *y, const PlBatch *b, int NH,
                           int E, const int *same) {
    int T = b->T, real_queries = 0;
    r->wrong_fix_min_sum = INFINITY;
    r->nan_count = (int)n->nan, r->empty_rows = (int)n->empty;
    for (size_t i = 0; i < (size_t)b->B * T * E; i++) r->nan_count += isnan(y[i]);
    for (int h = 0; h < NH; h++) {
        int real_h = 0;
        for (int i = 0; i < T; i++) {
            if (!r->real[i]) continue;
            const float *w = r->weights + ((size_t)h * T + i) * T;
            /* A repeat's row is a copy of one already read when that one is real. */
            for (int j = 0; (!same || same[i] == i || !r->real[same[i]]) && j < T; j++)
                if (!r->real[j] && w[j] > r->pad_weight_max) r->pad_weight_max = w[j];
            float sum = r->row_sum[h * T + i], leak = r->leak[h * T + i];
            r->leak_total += leak;
            r->head_pad_share[h] += leak;
            real_queries++, real_h++;
            float e = fabsf(sum - 1.0f);
            r->row_sum_error_max = e > r->row_sum_error_max ? e : r->row_sum_error_max;
            if (r->wrong_fix_sum[h * T + i] < r->wrong_fix_min_sum) r->wrong_fix_min_sum = r->wrong_fix_sum[h * T + i];
        }
        r->head_pad_share[h] = real_h ? r->head_pad_share[h] / (float)real_h : 0.0f;
    }
    r->pad_share = real_queries ? r->leak_total / (float)real_queries : 0.0f;
}

/* Row ra of a and row rb of b are the same padded row. */
static int same_row(const PlBatch *a, int ra, const PlBatch *b, int rb) {
    int T = a->T;
    return T == b->T && a->padding == b->padding &&
           memcmp(a->ids + (size_t)ra * T, b->ids + (size_t)rb * T, (size_t)T * sizeof *a->ids) == 0 &&
           memcmp(a->mask + (size_t)ra * T, b->mask + (size_t)rb * T, (size_t)T) == 0;
}

/* The example next to the corpus's shortest and longest other review.
 * Attention mixes no rows, so a partner changes the example only through
 * the width it pads the pair to: the example row runs alone at that width,
 * or, when the main batch already holds it padded so, is read from there. */
static PlStatus invariance(PlProbeAttention *r, const PlCorpus *c, const PlProbeOpts *o, Runs *u, const PlBatch *b,
                           PlErr *err) {
    const PlAttnWeights *w = u->w;
    int lo = -1, hi = -1;
    for (int i = 0; i < c->n; i++) {
        if (i == o->example) continue;
        if (lo < 0 || pl_corpus_len(c, i) < pl_corpus_len(c, lo)) lo = i;
        if (hi < 0 || pl_corpus_len(c, i) > pl_corpus_len(c, hi)) hi = i;
    }
    if (lo < 0) return PL_OK; /* a one-review corpus has no partner */
    PlBatch *pair[2] = {NULL, NULL};
    PlProbeOpts q = *o;
    int rows_s[2] = {o->example, lo}, rows_l[2] = {o->example, hi};
    q.batch = rows_s, q.nbatch = 2;
    q.width = 0, q.batching = PL_BATCH_DYNAMIC; /* each pair as wide as its longer row */
    PlStatus st = pl_probe_batch_make(c, &q, &pair[0], err);
    q.batch = rows_l;
    if (!st) st = pl_probe_batch_make(c, &q, &pair[1], err);
    const float *y[2] = {NULL, NULL};
    PlBatch one[2];
    int at[2] = {0, 0};
    for (int k = 0; k < 2 && !st; k++) {
        if (same_row(pair[k], 0, b, r->row)) {
            y[k] = u->main.y, one[k] = *b, at[k] = r->row;
            continue;
        }
        one[k] = row_view(pair[k], 0);
        PlAttendBufs *buf = k ? &u->one : &u->aux;
        PlAttend a = {.T = one[k].T,
                      .B = 1,
                      .NH = w->NH,
                      .D = w->D,
                      .causal = r->causal,
                      .mask = o->mask ? one[k].mask : NULL,
                      .query = one[k].mask};
        if (attend(buf, w, &one[k], &a, NULL, NULL, NULL, NULL))
            st = pl_err_set(err, PL_ENOMEM, "out of memory for the attention probe");
        y[k] = buf->y;
    }
    if (!st) {
        r->batch_invariance_max_diff = real_diff(y[0], &one[0], at[0], y[1], &one[1], at[1], w->E);
        r->short_partner = lo, r->long_partner = hi, r->short_width = pair[0]->T, r->long_width = pair[1]->T;
    }
    pl_batch_free(pair[0]), pl_batch_free(pair[1]);
    return st;
}

/* Each row alone, on its real tokens (varlen attention over cu_seqlens),
 * against the masked padded batch at its real tokens: the main run when it
 * had the mask on, else a masked run of the real queries. */
static PlStatus packed(PlProbeAttention *r, const PlBatch *b, Runs *u, PlErr *err) {
    const PlAttnWeights *w = u->w;
    const float *ym = u->main.y;
    if (!r->mask) {
        PlAttend a = {
            .T = b->T, .B = b->B, .NH = w->NH, .D = w->D, .causal = r->causal, .mask = b->mask, .query = b->mask};
        if (attend(&u->aux, w, b, &a, NULL, NULL, NULL, NULL))
            return pl_err_set(err, PL_ENOMEM, "out of memory for the attention probe");
        ym = u->aux.y;
    }
    r->cu_seqlens[0] = 0;
    for (int i = 0; i < b->B; i++) {
        int L = b->len[i];
        r->cu_seqlens[i + 1] = r->cu_seqlens[i] + L;
        r->packed_cells += (int64_t)L * L;
        if (L == 0) continue;
        PlBatch one = {1,    L,    b->ids + (size_t)i * b->T + (b->padding == PL_POST ? 0 : b->T - L),
                       NULL, &L,   &L,
                       NULL, NULL, PL_POST};
        PlAttend a = {.T = L, .B = 1, .NH = w->NH, .D = w->D, .causal = r->causal};
        if (attend(&u->one, w, &one, &a, NULL, NULL, NULL, NULL))
            return pl_err_set(err, PL_ENOMEM, "out of memory for the attention probe");
        float d = real_diff(ym, b, i, u->one.y, &one, 0, w->E);
        r->packed_vs_padded_max_diff = d > r->packed_vs_padded_max_diff ? d : r->packed_vs_padded_max_diff;
    }
    r->padded_cells = (int64_t)b->B * b->T * b->T;
    return PL_OK;
}

static int alloc_result(PlProbeAttention *r, int NH, int T, int B) {
    size_t tt = (size_t)T * T;
    r->real = malloc((size_t)T);
    /* The T x T matrices are written whole (scores by one product per head). */
    r->scores = pl_alloc_big((size_t)NH * tt * sizeof *r->scores);
    r->bias = pl_alloc_big(tt * sizeof *r->bias);
    r->weights = pl_alloc_big((size_t)NH * tt * sizeof *r->weights);
    r->leak = calloc((size_t)NH * T, sizeof *r->leak);
    r->visible = calloc((size_t)T, sizeof *r->visible);
    r->head_pad_share = calloc((size_t)NH, sizeof *r->head_pad_share);
    r->row_sum = calloc((size_t)NH * T, sizeof *r->row_sum);
    r->wrong_fix_sum = calloc((size_t)NH * T, sizeof *r->wrong_fix_sum);
    r->cu_seqlens = calloc((size_t)B + 1, sizeof *r->cu_seqlens);
    return r->real && r->scores && r->bias && r->weights && r->leak && r->visible && r->head_pad_share && r->row_sum &&
                   r->wrong_fix_sum && r->cu_seqlens
               ? 0
               : -1;
}

typedef float F8 __attribute__((vector_size(8 * sizeof(float))));
typedef int32_t I8 __attribute__((vector_size(8 * sizeof(int32_t))));

/* Sum of w (n) where keep is set, in eight running sums (a sum in one
 * chain waits on every add), the eight lanes of one vector: lane l adds
 * w[j + l], or +0 where keep is clear, block by block. */
static float sum_where(const float *w, const uint8_t *keep, int n) {
    F8 part = {0.0f};
    int j = 0;
    for (; j + 8 <= n; j += 8) {
        F8 v;
        I8 k;
        memcpy(&v, w + j, sizeof v);
        for (int l = 0; l < 8; l++) k[l] = keep[j + l];
        part += (F8)((I8)v & (k != 0));
    }
    float s = ((part[0] + part[1]) + (part[2] + part[3])) + ((part[4] + part[5]) + (part[6] + part[7]));
    for (; j < n; j++) s += keep[j] ? w[j] : 0.0f;
    return s;
}

/* The example's mask, the additive mask it got, and the wrong fix: the
 * unmasked weights with the pad keys zeroed afterwards, not renormalised.
 * With the mask off the kept weights are the unmasked ones; with it on, the
 * example row runs once more without it, keeping only the sums over its
 * real keys. Returns -1 when out of memory. */
static int example_views(PlProbeAttention *r, Runs *u, const PlBatch *b) {
    int T = b->T, NH = u->w->NH;
    for (int t = 0; t < T; t++) r->real[t] = b->mask[(size_t)r->row * T + t];
    /* Query i sees the keys the mask keeps, and under causal those up to i. */
    for (int j = 0; j < T; j++) r->bias[j] = !r->mask || r->real[j] ? 0.0f : -INFINITY;
    for (int i = 1; i < T; i++) memcpy(r->bias + (size_t)i * T, r->bias, (size_t)T * sizeof *r->bias);
    if (r->causal)
        for (int i = 0; i < T; i++)
            for (int j = i + 1; j < T; j++) r->bias[(size_t)i * T + j] = -INFINITY;
    for (int i = 0; i < T; i++)
        for (int j = 0; j < T; j++) r->visible[i] += !isinf(r->bias[(size_t)i * T + j]);
    if (r->mask) {
        PlBatch one = row_view(b, r->row);
        PlAttend a = {.T = T, .B = 1, .NH = NH, .D = u->w->D, .causal = r->causal, .sel = r->real};
        return attend(&u->aux, u->w, &one, &a, NULL, NULL, r->wrong_fix_sum, NULL);
    }
    const int *same = example_repeats(r, &u->main);
    for (int h = 0; h < NH; h++)
        for (int i = 0; i < T; i++)
            r->wrong_fix_sum[h * T + i] = same && same[i] != i
                                              ? r->wrong_fix_sum[h * T + same[i]]
                                              : sum_where(r->weights + ((size_t)h * T + i) * T, r->real, T);
    return 0;
}

/* The largest |a[i]|, in double; infinity when one is NaN. */
static double max_abs(const float *a, size_t n) {
    double m = 0.0;
    for (size_t i = 0; i < n; i++) {
        double x = fabs((double)a[i]);
        if (!(x <= m)) m = x == x ? x : HUGE_VAL;
    }
    return m;
}

/* Whether the unmasked run may leave out every row but the example's. The
 * other rows count only toward the NaN and empty-query figures, and add
 * nothing to them when no score or output can overflow: then every query
 * sees a key, its weights are finite and sum to about 1, and its output is
 * finite. Bounds the scores by scale * D * |q|max * |k|max, each of q, k, v
 * by E * |x|max * |W|max, and an output by HD * 2 |v|max * |Wo|max. */
static int others_add_nothing(const PlAttnWeights *w) {
    size_t ehd = (size_t)w->E * w->NH * w->D;
    double x = max_abs(w->emb, (size_t)w->V * w->E), E = w->E, D = w->D;
    double q = E * x * max_abs(w->wq, ehd), k = E * x * max_abs(w->wk, ehd), v = E * x * max_abs(w->wv, ehd);
    double score = sqrt(D) * q * k, out = (double)w->NH * D * 2.0 * v * max_abs(w->wo, ehd);
    return score < 1e30 && out < 1e30;
}

PlStatus pl_probe_attention(const PlCorpus *c, const PlProbeOpts *o, const PlModel *model, int heads, int dhead,
                            int causal, PlProbeAttention *r, PlErr *err) {
    memset(r, 0, sizeof *r);
    if (heads < 1 || dhead < 1 || heads * dhead > 1024)
        return pl_err_set(err, PL_ERANGE, "heads and dhead must be >= 1 (heads x dhead <= 1024)");
    PlAttnWeights w;
    PlBatch *b = NULL;
    Runs u;
    memset(&u, 0, sizeof u);
    u.w = &w, u.causal = causal;
    PlAttendCounts n = {0, 0};
    uint8_t *pads = NULL, *query = NULL;
    float *wsum = NULL, *wpad = NULL;
    PlStatus st = pl_attn_weights_init(&w, c, model, heads, dhead, o->seed, err);
    if (!st) st = pl_probe_focus_batch(c, o, PL_PROBE_FOCUS_ROWS, &b, err);
    if (!st) {
        r->T = b->T, r->B = b->B, r->heads = w.NH, r->dhead = w.D, r->causal = causal, r->mask = o->mask;
        r->row = pl_batch_row_of(b, o->example);
        r->L = b->len[r->row];
        /* The run the view shows: every row and query (the masked run's
         * outputs serve the packed check; unmasked, the example's row alone
         * when the others cannot add a NaN or an empty query), the example's
         * weights kept, and each query's sums over every key and over the pads. */
        size_t nsum = (size_t)b->B * w.NH * b->T, cells = nsum / w.NH;
        int alone = !o->mask && others_add_nothing(&w);
        pads = malloc(cells), query = alone ? calloc(cells, 1) : NULL;
        wsum = malloc(nsum * sizeof *wsum), wpad = malloc(nsum * sizeof *wpad);
        if (alloc_result(r, w.NH, b->T, b->B) || !pads || (alone && !query) || !wsum || !wpad) {
            st = pl_err_set(err, PL_ENOMEM, "out of memory for the attention probe");
        } else {
            for (size_t i = 0; i < cells; i++) pads[i] = !b->mask[i];
            if (query) memset(query + (size_t)r->row * b->T, 1, (size_t)b->T);
            PlAttend a = {.T = b->T,
                          .B = b->B,
                          .NH = w.NH,
                          .D = w.D,
                          .causal = causal,
                          .mask = o->mask ? b->mask : NULL,
                          .query = query,
                          .sel = pads,
                          .keep_row = r->row};
            if (attend(&u.main, &w, b, &a, r->weights, wsum, wpad, &n))
                st = pl_err_set(err, PL_ENOMEM, "out of memory for the attention probe");
        }
    }
    if (!st) {
        size_t at = (size_t)r->row * w.NH * b->T, len = (size_t)w.NH * b->T;
        memcpy(r->row_sum, wsum + at, len * sizeof *wsum);
        memcpy(r->leak, wpad + at, len * sizeof *wpad);
        example_scores(r, &u.main, &w, b);
        if (example_views(r, &u, b)) st = pl_err_set(err, PL_ENOMEM, "out of memory for the attention probe");
    }
    if (!st) {
        weight_metrics(r, &n, u.main.y, b, w.NH, w.E, example_repeats(r, &u.main));
        st = invariance(r, c, o, &u, b, err);
    }
    if (!st) st = packed(r, b, &u, err);
    runs_done(&u);
    free(pads), free(query), free(wsum), free(wpad);
    pl_batch_free(b);
    pl_attn_weights_done(&w);
    if (st) pl_probe_attention_free(r);
    return st;
}
