/* The masks probe: one batch's padding mask written in the four conventions
 * people meet (Keras, PyTorch key_padding_mask, Hugging Face attention_mask,
 * the additive bias), and what attention does when one library's mask is
 * handed to another: Hugging Face's 1 = keep passed as PyTorch's 1 = ignore.
 *
 * Layout: every (B,T) array is batch-major, cell (b,t) at b*T + t; a run's
 * per-query weight sums are (B,NH,T) as pl_attend leaves them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn/attend.h"
#include "probe.h"
#include "probe_weights.h"

enum { RUN_RIGHT, RUN_NONE, RUN_INVERTED, NRUNS };

/* PyTorch's reading of a key_padding_mask (1 = ignore) as padlab's attention
 * mask (1 = may be attended): its negation, cell by cell. */
static void attend_from_key_padding(uint8_t *attend, const uint8_t *key_padding_mask, size_t n) {
    for (size_t i = 0; i < n; i++) attend[i] = !key_padding_mask[i];
}

/* Self-attention over the embedded batch with the attend mask (B,T) or none:
 * per query, wsum and wpad (B,NH,T) get its weights summed over every key
 * and over the pad keys (pads: (B,T) 1 at a pad). Adds the NaN it finds
 * among the weights and outputs to *nan. Repeated tokens share a query (the
 * inputs have no positions). Returns -1 when out of memory. */
static int attend(PlAttendBufs *u, const PlAttnWeights *w, const PlBatch *b, const uint8_t *mask, const uint8_t *pads,
                  float *wsum, float *wpad, int *nan) {
    int T = b->T, B = b->B;
    size_t cells = (size_t)T * B;
    if (pl_attend_bufs_reserve(u, T, B, w->E, w->NH, w->D)) return -1;
    pl_embedding_forward(u->x, b->ids, w->emb, B, T, w->E);
    PlAttend a = {.T = T, .B = B, .NH = w->NH, .D = w->D, .mask = mask, .sel = pads};
    PlAttendCounts n = {0, 0};
    pl_attend_layer(u, NULL, wsum, wpad, &n, b->ids, w->wq, w->wk, w->wv, w->wo, w->E, &a);
    *nan += (int)n.nan;
    for (size_t i = 0; i < cells * w->E; i++) *nan += isnan(u->y[i]);
    return 0;
}

/* Sums, over the real queries of row i and the heads, the share of each
 * query's weight that lands on pad keys (pad weight / all its weight). A
 * query with no weight at all (it sees no key) is not counted. The two sums
 * are taken in the same order (pl_attend's wsum and wsel), so a query that
 * sees only pads scores exactly 1 and one that sees no pad exactly 0. */
static void row_shares(const float *wsum, const float *wpad, const PlBatch *b, int i, int NH, double *sum, long *n) {
    int T = b->T;
    const uint8_t *real = b->mask + (size_t)i * T;
    for (int h = 0; h < NH; h++)
        for (int qi = 0; qi < T; qi++) {
            if (!real[qi]) continue;
            size_t at = ((size_t)i * NH + h) * T + qi;
            float pad = wpad[at], all = wsum[at];
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
    return r->example && r->len && r->pads && r->ids && r->keras && r->torch && r->hf && r->additive && r->row_share
               ? 0
               : -1;
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
        r->real_pad_ids += r->keras[i] == 1 && b->ids[i] == PL_PAD_ID;
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
static void shares(PlProbeMasks *r, const PlBatch *b, const float *wsum, const float *wpad, int k, int NH) {
    double total = 0.0;
    long count = 0;
    for (int i = 0; i < b->B; i++) {
        int padded = r->pads[i] > 0 && r->len[i] > 0;
        double s = 0.0;
        long n = 0;
        row_shares(wsum, wpad, b, i, NH, &s, &n);
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
    PlAttnWeights w;
    PlBatch *b = NULL;
    PlAttendBufs u = {0};
    float *wsum = NULL, *wpad = NULL;
    uint8_t *right = NULL, *inverted = NULL;
    PlStatus st = pl_attn_weights_init(&w, c, model, pl_model_config_default(PL_ARCH_ATTENTION).heads,
                                       pl_model_config_default(PL_ARCH_ATTENTION).dhead, o->seed, err);
    if (!st) st = pl_probe_focus_batch(c, o, PL_PROBE_FOCUS_ROWS, &b, err);
    if (!st) {
        size_t n = (size_t)b->B * b->T, nq = (size_t)b->B * w.NH * b->T;
        r->B = b->B, r->T = b->T, r->heads = w.NH, r->dhead = w.D;
        r->row = pl_batch_row_of(b, o->example);
        right = malloc(n), inverted = malloc(n);
        wsum = malloc(nq * sizeof *wsum), wpad = malloc(nq * sizeof *wpad);
        if (alloc_result(r, b->B, b->T) || !right || !inverted || !wsum || !wpad)
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
            if (attend(&u, &w, b, masks[k], r->torch, wsum, wpad, &r->nan_count))
                st = pl_err_set(err, PL_ENOMEM, "out of memory for the masks probe");
            else shares(r, b, wsum, wpad, k, w.NH);
        }
    }
    pl_attend_bufs_done(&u);
    free(wsum), free(wpad);
    free(right), free(inverted);
    pl_batch_free(b);
    pl_attn_weights_done(&w);
    if (st) pl_probe_masks_free(r);
    return st;
}
