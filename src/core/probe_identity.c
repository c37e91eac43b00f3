/* The identity probe: with the mask on, where the pads go does not matter.
 * The same rows padded pre and padded post run through one set of weights,
 * masked and unmasked; the logits (one per row) are compared. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"
#include "probe_weights.h"

/* Pooling does not see token order, and padlab's attention has no positions:
 * for these, pre and post padding hold the same multiset of tokens, so even
 * unmasked they give one answer (up to rounding). */
static int order_blind(PlArch a) { return !pl_arch_recurrent(a); }

/* The base weights: model's (checked) or fresh ones of arch. */
static PlStatus base_model(const PlCorpus *c, const PlModel *model, PlArch arch, PlSeed seed, PlModel **out,
                           PlErr *err) {
    *out = NULL;
    if (model) {
        const PlModelConfig *mc = pl_model_config(model);
        if (mc->classes > 0)
            return pl_err_set(err, PL_ERANGE,
                              "the identity probe needs a classifier (one logit per row); this model has a token head");
        return pl_probe_check_vocab(mc->vocab, c, err); /* copied below, under each mode */
    }
    return pl_probe_fresh_model(arch, c, seed, out, err);
}

/* A copy of src's weights with the mask on or off; only the mode changes. */
static PlStatus under_mode(const PlModel *src, int masked, PlModel **out, PlErr *err) {
    PlModelConfig cfg = *pl_model_config(src);
    cfg.mask = masked ? PL_SEQ_KERAS : PL_SEQ_NONE;
    cfg.pool = masked ? PL_POOL_MASKED : PL_POOL_UNMASKED;
    return pl_model_copy(src, &cfg, out, err);
}

/* logits (B) of batch b through m. */
static PlStatus logits_of(PlModel *m, const PlBatch *b, float *logits, PlErr *err) {
    PlStatus st = pl_model_forward(m, b->ids, b->mask, b->B, b->T, err);
    if (!st) memcpy(logits, pl_model_logits(m), (size_t)b->B * sizeof *logits);
    return st;
}

static PlStatus batch_padded(const PlCorpus *c, const PlProbeOpts *o, PlSide side, PlBatch **out, PlErr *err) {
    PlProbeOpts q = *o;
    q.padding = side;
    return pl_probe_focus_batch(c, &q, PL_PROBE_FOCUS_ROWS, out, err);
}

static float max_diff(const float *a, const float *b, int n) {
    float m = 0.0f;
    for (int i = 0; i < n; i++) {
        float d = fabsf(a[i] - b[i]);
        m = d > m ? d : m;
    }
    return m;
}

void pl_probe_identity_free(PlProbeIdentity *r) {
    if (!r) return;
    free(r->example), free(r->len);
    free(r->pre_masked), free(r->post_masked), free(r->pre_unmasked), free(r->post_unmasked);
    memset(r, 0, sizeof *r);
}

static int alloc_result(PlProbeIdentity *r, int B) {
    size_t n = (size_t)B;
    r->example = malloc(n * sizeof *r->example);
    r->len = malloc(n * sizeof *r->len);
    r->pre_masked = malloc(n * sizeof *r->pre_masked);
    r->post_masked = malloc(n * sizeof *r->post_masked);
    r->pre_unmasked = malloc(n * sizeof *r->pre_unmasked);
    r->post_unmasked = malloc(n * sizeof *r->post_unmasked);
    return r->example && r->len && r->pre_masked && r->post_masked && r->pre_unmasked && r->post_unmasked ? 0 : -1;
}

/* The two batches must hold the same rows at the same width, or the
 * comparison means nothing. */
static PlStatus same_rows(const PlBatch *pre, const PlBatch *post, PlErr *err) {
    int same = pre->B == post->B && pre->T == post->T;
    for (int i = 0; same && i < pre->B; i++) same = pre->row[i] == post->row[i] && pre->len[i] == post->len[i];
    return same ? PL_OK : pl_err_set(err, PL_ERANGE, "the pre- and post-padded batches hold different rows");
}

PlStatus pl_probe_identity(const PlCorpus *c, const PlProbeOpts *o, PlArch arch, const PlModel *model,
                           PlProbeIdentity *r, PlErr *err) {
    memset(r, 0, sizeof *r);
    PlModel *own = NULL, *on = NULL, *off = NULL;
    PlBatch *pre = NULL, *post = NULL;
    PlStatus st = base_model(c, model, arch, o->seed, &own, err);
    const PlModel *src = model ? model : own;
    if (!st) st = batch_padded(c, o, PL_PRE, &pre, err);
    if (!st) st = batch_padded(c, o, PL_POST, &post, err);
    if (!st) st = same_rows(pre, post, err);
    if (!st) st = under_mode(src, 1, &on, err);
    if (!st) st = under_mode(src, 0, &off, err);
    if (!st) {
        r->arch = pl_model_config(src)->arch;
        r->B = pre->B, r->T = pre->T;
        r->order_blind = order_blind(r->arch);
        if (alloc_result(r, pre->B)) st = pl_err_set(err, PL_ENOMEM, "out of memory for the identity probe");
    }
    if (!st) st = logits_of(on, pre, r->pre_masked, err);
    if (!st) st = logits_of(on, post, r->post_masked, err);
    if (!st) st = logits_of(off, pre, r->pre_unmasked, err);
    if (!st) st = logits_of(off, post, r->post_unmasked, err);
    if (!st) {
        for (int i = 0; i < r->B; i++) {
            r->example[i] = pre->row[i], r->len[i] = pre->len[i];
            r->pads += pre->T - pre->len[i];
        }
        r->masked_max_diff = max_diff(r->pre_masked, r->post_masked, r->B);
        r->unmasked_max_diff = max_diff(r->pre_unmasked, r->post_unmasked, r->B);
        float a = max_diff(r->pre_masked, r->pre_unmasked, r->B), b = max_diff(r->post_masked, r->post_unmasked, r->B);
        r->mask_effect_max_diff = a > b ? a : b;
    }
    pl_batch_free(pre), pl_batch_free(post);
    pl_model_free(own), pl_model_free(on), pl_model_free(off);
    if (st) pl_probe_identity_free(r);
    return st;
}
