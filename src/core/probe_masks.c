/* The masks probe: one batch's padding mask written in the four conventions
 * people meet (Keras, PyTorch key_padding_mask, Hugging Face attention_mask,
 * the additive bias), and what attention does when one library's mask is
 * handed to another: Hugging Face's 1 = keep passed as PyTorch's 1 = ignore.
 *
 * Layout: every (B,T) array is batch-major, cell (b,t) at b*T + t; the
 * attention weights of a run are (B,NH,T,T) as pl_attention_forward leaves
 * them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"

enum { RUN_RIGHT, RUN_NONE, RUN_INVERTED, NRUNS };

/* The weights the probe runs with, as the attention probe picks them: an
 * attention model's own, or a fresh attention model's (with the embedding of
 * the given model, when there is one). */
typedef struct {
    PlModel *own;
    const float *emb, *wq, *wk, *wv, *wo;
    int E, NH, D;
} Weights;

static PlStatus weights_init(Weights *w, const PlCorpus *c, const PlModel *model, uint64_t seed, PlErr *err) {
    memset(w, 0, sizeof *w);
    PlModelConfig cfg = pl_model_config_default(PL_ARCH_ATTENTION);
    cfg.vocab = c->num_words;
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
    PlModel *att = model && pl_model_config(model)->arch == PL_ARCH_ATTENTION ? (PlModel *)model : w->own;
    w->emb = pl_model_block(src, "embedding", NULL);
    w->wq = pl_model_block(att, "wq", NULL);
    w->wk = pl_model_block(att, "wk", NULL);
    w->wv = pl_model_block(att, "wv", NULL);
    w->wo = pl_model_block(att, "wo", NULL);
    w->E = cfg.embed, w->NH = cfg.heads, w->D = cfg.dhead;
    return PL_OK;
}

/* PyTorch's reading of a key_padding_mask (1 = ignore) as padlab's attention
 * mask (1 = may be attended): its negation, cell by cell. */
static void attend_from_key_padding(uint8_t *attend, const uint8_t *key_padding_mask, size_t n) {
    for (size_t i = 0; i < n; i++) attend[i] = !key_padding_mask[i];
}

/* Self-attention over the embedded batch with the attend mask (B,T) or none;
 * p (B,NH,T,T) gets the weights. Adds the NaN it finds to *nan. Returns -1
 * when out of memory. */
static int attend(const Weights *w, const PlBatch *b, const uint8_t *mask, float *p, int *nan) {
    int T = b->T, B = b->B, HD = w->NH * w->D;
    size_t cells = (size_t)T * B;
    float *x = malloc(cells * w->E * sizeof *x), *y = malloc(cells * w->E * sizeof *y);
    float *q = malloc(cells * HD * sizeof *q), *k = malloc(cells * HD * sizeof *k);
    float *v = malloc(cells * HD * sizeof *v), *o = malloc(cells * HD * sizeof *o);
    int ok = x && y && q && k && v && o;
    if (ok) {
        pl_embedding_forward(x, b->ids, w->emb, B, T, w->E);
        PlAttnShape s = {T, B, w->E, w->NH, w->D, 0, mask};
        pl_attention_forward(y, q, k, v, p, o, x, w->wq, w->wk, w->wv, w->wo, &s);
        for (size_t i = 0; i < cells * w->E; i++) *nan += isnan(y[i]);
        for (size_t i = 0; i < (size_t)B * w->NH * T * T; i++) *nan += isnan(p[i]);
    }
    free(x), free(y), free(q), free(k), free(v), free(o);
    return ok ? 0 : -1;
}

/* Sums, over the real queries of row i and the heads, the share of each
 * query's weight that lands on pad keys (pad weight / all its weight). A
 * query with no weight at all (it sees no key) is not counted. The share is
 * a ratio of two sums taken in the same order, so a query that sees only
 * pads scores exactly 1 and one that sees no pad exactly 0. */
static void row_shares(const float *p, const PlBatch *b, int i, int NH, double *sum, long *n) {
    int T = b->T;
    const uint8_t *real = b->mask + (size_t)i * T;
    for (int h = 0; h < NH; h++)
        for (int qi = 0; qi < T; qi++) {
            if (!real[qi]) continue;
            const float *w = p + (((size_t)i * NH + h) * T + qi) * T;
            float pad = 0.0f, all = 0.0f;
            for (int j = 0; j < T; j++) {
                all += w[j];
                pad += real[j] ? 0.0f : w[j];
            }
            if (all == 0.0f) continue;
            *sum += (double)(pad / all);
            ++*n;
        }
}

void pl_probe_masks_free(PlProbeMasks *r) {
    if (!r) return;
    free(r->example), free(r->len), free(r->pads), free(r->ids);
    free(r->keras), free(r->torch), free(r->hf), free(r->additive);
    free(r->row_share);
    memset(r, 0, sizeof *r);
}

static int alloc_result(PlProbeMasks *r, int B, int T) {
    size_t n = (size_t)B * T;
    r->example = malloc((size_t)B * sizeof *r->example);
    r->len = malloc((size_t)B * sizeof *r->len);
    r->pads = malloc((size_t)B * sizeof *r->pads);
    r->ids = malloc(n * sizeof *r->ids);
    r->keras = malloc(n), r->torch = malloc(n), r->hf = malloc(n);
    r->additive = malloc(n * sizeof *r->additive);
    r->row_share = malloc((size_t)B * NRUNS * sizeof *r->row_share);
    return r->example && r->len && r->pads && r->ids && r->keras && r->torch && r->hf && r->additive && r->row_share ? 0 : -1;
}

static int find_row(const PlBatch *b, int example) {
    for (int i = 0; i < b->B; i++)
        if (b->row[i] == example) return i;
    return 0;
}

/* The four masks from the one padding mask, and what each says to keep. */
static void conventions(PlProbeMasks *r, const PlBatch *b) {
    size_t n = (size_t)b->B * b->T;
    pl_mask_bool(r->keras, b->mask, n, PL_MASK_KERAS);
    pl_mask_bool(r->torch, b->mask, n, PL_MASK_TORCH);
    pl_mask_bool(r->hf, b->mask, n, PL_MASK_HF);
    pl_mask_additive(r->additive, b->mask, n);
    memcpy(r->ids, b->ids, n * sizeof *r->ids);
    for (size_t i = 0; i < n; i++) {
        r->keep[PL_MASK_KERAS] += r->keras[i] == 1;
        r->keep[PL_MASK_TORCH] += r->torch[i] == 0;
        r->keep[PL_MASK_HF] += r->hf[i] == 1;
        r->keep[PL_MASK_ADDITIVE] += r->additive[i] == 0.0f;
    }
    for (int i = 0; i < b->B; i++) {
        r->example[i] = b->row[i];
        r->len[i] = b->len[i];
        r->pads[i] = b->T - b->len[i];
        r->real_tokens += b->len[i];
    }
    r->agree = 1;
    for (int k = 0; k < 4; k++) r->agree &= r->keep[k] == r->real_tokens;
}

/* Run k's shares (weights p), per row and over the padded rows; the row
 * counts are taken with the first run. */
static void shares(PlProbeMasks *r, const PlBatch *b, const float *p, int k, int NH) {
    double total = 0.0;
    long count = 0;
    for (int i = 0; i < b->B; i++) {
        int padded = r->pads[i] > 0 && r->len[i] > 0;
        double s = 0.0;
        long n = 0;
        row_shares(p, b, i, NH, &s, &n);
        r->row_share[(size_t)i * NRUNS + k] = n ? (float)(s / (double)n) : NAN;
        if (padded) total += s, count += n;
        if (k) continue;
        if (padded) r->padded_rows++, r->padded_queries += r->len[i];
        if (!r->pads[i]) r->blind_rows++, r->blind_queries += b->T;
    }
    float *out[NRUNS] = {&r->share_right, &r->share_none, &r->share_inverted};
    *out[k] = count ? (float)(total / (double)count) : NAN;
}

PlStatus pl_probe_masks(const PlCorpus *c, const PlProbeOpts *o, const PlModel *model, PlProbeMasks *r, PlErr *err) {
    memset(r, 0, sizeof *r);
    Weights w;
    PlBatch *b = NULL;
    float *p = NULL;
    uint8_t *right = NULL, *inverted = NULL;
    PlStatus st = weights_init(&w, c, model, o->seed, err);
    if (!st) st = pl_probe_batch_make(c, o, &b, err);
    if (!st) {
        size_t n = (size_t)b->B * b->T, np = (size_t)b->B * w.NH * b->T * b->T;
        r->B = b->B, r->T = b->T, r->heads = w.NH, r->dhead = w.D;
        r->row = find_row(b, o->example);
        right = malloc(n), inverted = malloc(n);
        p = malloc(np * sizeof *p);
        if (alloc_result(r, b->B, b->T) || !right || !inverted || !p)
            st = pl_err_set(err, PL_ENOMEM, "out of memory for the masks probe");
    }
    if (!st) {
        size_t n = (size_t)b->B * b->T;
        conventions(r, b);
        /* The right call: PyTorch's own key_padding_mask. The bug: the
         * attention_mask a Hugging Face tokenizer returned, in its place. */
        attend_from_key_padding(right, r->torch, n);
        attend_from_key_padding(inverted, r->hf, n);
        const uint8_t *masks[NRUNS] = {right, NULL, inverted};
        for (int k = 0; k < NRUNS && !st; k++) {
            if (attend(&w, b, masks[k], p, &r->nan_count)) st = pl_err_set(err, PL_ENOMEM, "out of memory for the masks probe");
            else shares(r, b, p, k, w.NH);
        }
    }
    free(p);
    free(right), free(inverted);
    pl_batch_free(b);
    pl_model_free(w.own);
    if (st) pl_probe_masks_free(r);
    return st;
}
