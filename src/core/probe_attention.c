/* The attention probe: what a padding mask does to scaled dot-product
 * attention, measured on a real batch. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"
#include "tensor.h"

/* The weights the probe runs with: an attention model's own, or a fresh
 * attention model's (its embedding replaced by the given model's when the
 * widths match). */
typedef struct {
    PlModel *own;
    const float *emb, *wq, *wk, *wv, *wo;
    int V, E, NH, D;
} Weights;

static PlStatus weights_init(Weights *w, const PlCorpus *c, const PlModel *model, int heads, int dhead,
                             uint64_t seed, PlErr *err) {
    memset(w, 0, sizeof *w);
    PlModelConfig cfg = pl_model_config_default(PL_ARCH_ATTENTION);
    cfg.vocab = c->num_words;
    cfg.heads = heads;
    cfg.dhead = dhead;
    if (model) {
        const PlModelConfig *mc = pl_model_config(model);
        cfg.vocab = mc->vocab;
        cfg.embed = mc->embed;
        if (mc->arch == PL_ARCH_ATTENTION) cfg.heads = mc->heads, cfg.dhead = mc->dhead;
    }
    if (cfg.vocab < c->num_words)
        return pl_err_set(err, PL_ERANGE, "the model knows %d ids but the corpus keeps %d (use --num-words %d)", cfg.vocab,
                          c->num_words, cfg.vocab);
    PlStatus st = pl_model_new(&cfg, seed, &w->own, err);
    if (st) return st;
    PlModel *src = model ? (PlModel *)model : w->own;
    w->emb = pl_model_block(src, "embedding", NULL);
    PlModel *att = model && pl_model_config(model)->arch == PL_ARCH_ATTENTION ? (PlModel *)model : w->own;
    w->wq = pl_model_block(att, "wq", NULL);
    w->wk = pl_model_block(att, "wk", NULL);
    w->wv = pl_model_block(att, "wv", NULL);
    w->wo = pl_model_block(att, "wo", NULL);
    w->V = cfg.vocab, w->E = cfg.embed, w->NH = cfg.heads, w->D = cfg.dhead;
    return PL_OK;
}

/* Attention over batch b: y (T,B,E) and weights p (B,NH,T,T), new arrays. */
static int attend(const Weights *w, const PlBatch *b, int mask, int causal, float **y, float **p) {
    int T = b->T, B = b->B, HD = w->NH * w->D;
    size_t cells = (size_t)T * B;
    float *x = malloc(cells * w->E * sizeof *x), *q = malloc(cells * HD * sizeof *q);
    float *k = malloc(cells * HD * sizeof *k), *v = malloc(cells * HD * sizeof *v), *o = malloc(cells * HD * sizeof *o);
    *y = malloc(cells * w->E * sizeof **y);
    *p = malloc((size_t)B * w->NH * T * T * sizeof **p);
    int ok = x && q && k && v && o && *y && *p;
    if (ok) {
        pl_embedding_forward(x, b->ids, w->emb, B, T, w->E);
        PlAttnShape s = {T, B, w->E, w->NH, w->D, causal, mask ? b->mask : NULL};
        pl_attention_forward(*y, q, k, v, *p, o, x, w->wq, w->wk, w->wv, w->wo, &s);
    }
    free(x), free(q), free(k), free(v), free(o);
    if (!ok) free(*y), free(*p), *y = *p = NULL;
    return ok ? 0 : -1;
}

/* Index of the k-th real position of row r. */
static int real_pos(const PlBatch *b, int r, int k) {
    return b->padding == PL_POST ? k : b->T - b->len[r] + k;
}

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
    free(r->row_sum), free(r->wrong_fix_sum), free(r->cu_seqlens);
    memset(r, 0, sizeof *r);
}

static int find_row(const PlBatch *b, int example) {
    for (int i = 0; i < b->B; i++)
        if (b->row[i] == example) return i;
    return 0;
}

/* Scores of the example row, head by head: q k^T / sqrt(D), unmasked. */
static void example_scores(PlProbeAttention *r, const Weights *w, const PlBatch *b) {
    int T = b->T, HD = w->NH * w->D;
    float *x = malloc((size_t)T * w->E * sizeof *x), *q = malloc((size_t)T * HD * sizeof *q), *k = malloc((size_t)T * HD * sizeof *k);
    if (!x || !q || !k) goto done;
    for (int t = 0; t < T; t++)
        memcpy(x + (size_t)t * w->E, w->emb + (size_t)b->ids[(size_t)r->row * T + t] * w->E, (size_t)w->E * sizeof *x);
    pl_dense_forward(q, x, w->wq, NULL, T, w->E, HD);
    pl_dense_forward(k, x, w->wk, NULL, T, w->E, HD);
    for (int h = 0; h < w->NH; h++)
        pl_gemm(0, 1, T, T, w->D, 1.0f / sqrtf((float)w->D), q + h * w->D, HD, k + h * w->D, HD, 0.0f, r->scores + (size_t)h * T * T, T);
done:
    free(x), free(q), free(k);
}

static void weight_metrics(PlProbeAttention *r, const float *p, const float *y, const PlBatch *b, int NH, int E) {
    int T = b->T;
    r->wrong_fix_min_sum = INFINITY;
    for (size_t i = 0; i < (size_t)b->B * NH * T * T; i++) r->nan_count += isnan(p[i]);
    for (size_t i = 0; i < (size_t)b->B * T * E; i++) r->nan_count += isnan(y[i]);
    for (size_t q = 0; q < (size_t)b->B * NH * T; q++) {
        float s = 0.0f;
        for (int j = 0; j < T; j++) s += p[q * T + j];
        r->empty_rows += s == 0.0f;
    }
    for (int h = 0; h < NH; h++)
        for (int i = 0; i < T; i++) {
            const float *w = r->weights + ((size_t)h * T + i) * T;
            float sum = 0.0f, leak = 0.0f;
            for (int j = 0; j < T; j++) {
                sum += w[j];
                if (!r->real[j]) {
                    leak += w[j];
                    if (r->real[i] && w[j] > r->pad_weight_max) r->pad_weight_max = w[j];
                }
            }
            r->row_sum[h * T + i] = sum;
            r->leak[h * T + i] = leak;
            if (!r->real[i]) continue;
            r->leak_total += leak;
            float e = fabsf(sum - 1.0f);
            r->row_sum_error_max = e > r->row_sum_error_max ? e : r->row_sum_error_max;
            if (r->wrong_fix_sum[h * T + i] < r->wrong_fix_min_sum) r->wrong_fix_min_sum = r->wrong_fix_sum[h * T + i];
        }
}

/* The example next to the corpus's shortest and longest other review. */
static PlStatus invariance(PlProbeAttention *r, const PlCorpus *c, const PlProbeOpts *o, const Weights *w, PlErr *err) {
    int lo = -1, hi = -1;
    for (int i = 0; i < c->n; i++) {
        if (i == o->example) continue;
        if (lo < 0 || pl_corpus_len(c, i) < pl_corpus_len(c, lo)) lo = i;
        if (hi < 0 || pl_corpus_len(c, i) > pl_corpus_len(c, hi)) hi = i;
    }
    if (lo < 0) return PL_OK; /* a one-review corpus has no partner */
    PlBatch *bs = NULL, *bl = NULL;
    float *ys = NULL, *ps = NULL, *yl = NULL, *pl = NULL;
    PlProbeOpts q = *o;
    int rows_s[2] = {o->example, lo}, rows_l[2] = {o->example, hi};
    q.batch = rows_s, q.nbatch = 2;
    PlStatus st = pl_probe_batch_make(c, &q, &bs, err);
    q.batch = rows_l;
    if (!st) st = pl_probe_batch_make(c, &q, &bl, err);
    if (!st && (attend(w, bs, o->mask, r->causal, &ys, &ps) || attend(w, bl, o->mask, r->causal, &yl, &pl)))
        st = pl_err_set(err, PL_ENOMEM, "out of memory for the attention probe");
    if (!st) {
        r->batch_invariance_max_diff = real_diff(ys, bs, 0, yl, bl, 0, w->E);
        r->short_partner = lo, r->long_partner = hi, r->short_width = bs->T, r->long_width = bl->T;
    }
    pl_batch_free(bs), pl_batch_free(bl);
    free(ys), free(ps), free(yl), free(pl);
    return st;
}

/* Each row alone, on its real tokens (varlen attention over cu_seqlens),
 * against the masked padded batch. */
static PlStatus packed(PlProbeAttention *r, const PlBatch *b, const Weights *w, PlErr *err) {
    float *ym = NULL, *pm = NULL;
    if (attend(w, b, 1, r->causal, &ym, &pm)) return pl_err_set(err, PL_ENOMEM, "out of memory for the attention probe");
    r->cu_seqlens[0] = 0;
    for (int i = 0; i < b->B; i++) {
        int L = b->len[i];
        r->cu_seqlens[i + 1] = r->cu_seqlens[i] + L;
        r->packed_cells += (int64_t)L * L;
        if (L == 0) continue;
        PlBatch one = {1, L, b->ids + (size_t)i * b->T + (b->padding == PL_POST ? 0 : b->T - L), NULL, &L, &L, NULL, NULL, PL_POST};
        uint8_t *ones = malloc((size_t)L);
        float *y1 = NULL, *p1 = NULL;
        if (ones) memset(ones, 1, (size_t)L);
        one.mask = ones;
        if (!ones || attend(w, &one, 1, r->causal, &y1, &p1)) {
            free(ones), free(ym), free(pm);
            return pl_err_set(err, PL_ENOMEM, "out of memory for the attention probe");
        }
        float d = real_diff(ym, b, i, y1, &one, 0, w->E);
        r->packed_vs_padded_max_diff = d > r->packed_vs_padded_max_diff ? d : r->packed_vs_padded_max_diff;
        free(ones), free(y1), free(p1);
    }
    r->padded_cells = (int64_t)b->B * b->T * b->T;
    free(ym), free(pm);
    return PL_OK;
}

static int alloc_result(PlProbeAttention *r, int NH, int T, int B) {
    size_t tt = (size_t)T * T;
    r->real = malloc((size_t)T);
    r->scores = calloc((size_t)NH * tt, sizeof *r->scores);
    r->bias = malloc(tt * sizeof *r->bias);
    r->weights = malloc((size_t)NH * tt * sizeof *r->weights);
    r->leak = calloc((size_t)NH * T, sizeof *r->leak);
    r->row_sum = calloc((size_t)NH * T, sizeof *r->row_sum);
    r->wrong_fix_sum = calloc((size_t)NH * T, sizeof *r->wrong_fix_sum);
    r->cu_seqlens = calloc((size_t)B + 1, sizeof *r->cu_seqlens);
    return r->real && r->scores && r->bias && r->weights && r->leak && r->row_sum && r->wrong_fix_sum && r->cu_seqlens ? 0 : -1;
}

/* The example's weights, the additive mask it got, and the wrong fix. */
static void example_views(PlProbeAttention *r, const PlBatch *b, const float *p, const float *p_open, int NH) {
    int T = b->T;
    for (int t = 0; t < T; t++) r->real[t] = b->mask[(size_t)r->row * T + t];
    for (int i = 0; i < T; i++)
        for (int j = 0; j < T; j++) {
            int ok = (!r->mask || r->real[j]) && (!r->causal || j <= i);
            r->bias[(size_t)i * T + j] = ok ? 0.0f : -INFINITY;
        }
    for (int h = 0; h < NH; h++) {
        memcpy(r->weights + (size_t)h * T * T, p + ((size_t)r->row * NH + h) * T * T, (size_t)T * T * sizeof *p);
        for (int i = 0; i < T; i++) {
            const float *w = p_open + (((size_t)r->row * NH + h) * T + i) * T;
            float s = 0.0f;
            for (int j = 0; j < T; j++) s += r->real[j] ? w[j] : 0.0f;
            r->wrong_fix_sum[h * T + i] = s;
        }
    }
}

PlStatus pl_probe_attention(const PlCorpus *c, const PlProbeOpts *o, const PlModel *model, int heads,
                            int dhead, int causal, PlProbeAttention *r, PlErr *err) {
    memset(r, 0, sizeof *r);
    if (heads < 1 || dhead < 1 || heads * dhead > 1024) return pl_err_set(err, PL_ERANGE, "heads and dhead must be >= 1 (heads x dhead <= 1024)");
    Weights w;
    PlBatch *b = NULL;
    float *y = NULL, *p = NULL, *yo = NULL, *po = NULL;
    PlStatus st = weights_init(&w, c, model, heads, dhead, o->seed, err);
    if (!st) st = pl_probe_batch_make(c, o, &b, err);
    if (!st) {
        r->T = b->T, r->B = b->B, r->heads = w.NH, r->dhead = w.D, r->causal = causal, r->mask = o->mask;
        r->row = find_row(b, o->example);
        r->L = b->len[r->row];
        if (alloc_result(r, w.NH, b->T, b->B) || attend(&w, b, o->mask, causal, &y, &p) || attend(&w, b, 0, causal, &yo, &po))
            st = pl_err_set(err, PL_ENOMEM, "out of memory for the attention probe");
    }
    if (!st) {
        example_scores(r, &w, b);
        example_views(r, b, p, po, w.NH);
        weight_metrics(r, p, y, b, w.NH, w.E);
        st = invariance(r, c, o, &w, err);
    }
    if (!st) st = packed(r, b, &w, err);
    free(y), free(p), free(yo), free(po);
    pl_batch_free(b);
    pl_model_free(w.own);
    if (st) pl_probe_attention_free(r);
    return st;
}
