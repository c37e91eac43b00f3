/* The RNN probe: what a run of pads does to a recurrent state. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"
#include "probe_weights.h"
#include "tensor.h"

#define FIXED_MAX_STEPS 4000
#define FIXED_TOL 1e-6f

/* A copy of src's weights under another mask mode (and readout at the last position). */
static PlStatus clone(const PlModel *src, PlSeqMask mask, PlModel **out, PlErr *err) {
    PlModelConfig cfg = *pl_model_config(src);
    cfg.mask = mask;
    cfg.readout = PL_READ_LAST_POS;
    cfg.classes = 0;
    return pl_model_copy(src, &cfg, out, err);
}

static PlStatus base_model(const PlCorpus *c, const PlModel *model, PlArch cell, PlSeed seed, int zero_pad,
                           PlModel **out, PlErr *err) {
    PlStatus st;
    if (model) {
        if (!pl_arch_recurrent(pl_model_config(model)->arch))
            return pl_err_set(err, PL_ERANGE, "the rnn probe needs a recurrent model, this one is %s",
                              pl_arch_name(pl_model_config(model)->arch));
        st = pl_probe_check_vocab(pl_model_config(model)->vocab, c, err);
        if (!st) st = clone(model, PL_SEQ_NONE, out, err);
    } else {
        st = pl_probe_fresh_model(cell, c, seed, out, err);
    }
    if (!st && zero_pad)
        memset(pl_model_param(*out, PL_P_EMBEDDING, NULL), 0, (size_t)pl_model_config(*out)->embed * sizeof(float));
    return st;
}

/* Runs ids (1,T) with the model's mask mode; states into h (T,H). */
static PlStatus run(PlModel *m, const int32_t *ids, const uint8_t *mask, int T, float *h, PlErr *err) {
    PlStatus st = pl_model_forward(m, ids, mask, 1, T, err);
    if (!st) memcpy(h, pl_model_states(m), (size_t)T * pl_model_config(m)->hidden * sizeof *h);
    return st;
}

/* h*: the example's real tokens, then pads until the state stops moving. */
static PlStatus fixed_point(PlProbeRnn *r, PlModel *m, const int32_t *real, PlErr *err) {
    int T = r->L + FIXED_MAX_STEPS, H = r->H;
    int32_t *ids = calloc((size_t)T, sizeof *ids);
    uint8_t *mask = malloc((size_t)T);
    float *h = malloc((size_t)T * H * sizeof *h);
    PlStatus st = ids && mask && h ? PL_OK : pl_err_set(err, PL_ENOMEM, "out of memory for the rnn probe");
    if (!st) {
        memcpy(ids, real, (size_t)r->L * sizeof *ids);
        memset(mask, 1, (size_t)T);
        st = run(m, ids, mask, T, h, err);
    }
    if (!st) {
        int k = r->L;
        while (k + 1 < T && pl_l2_dist(h + (size_t)k * H, h + (size_t)(k - 1) * H, H) > FIXED_TOL) k++;
        memcpy(r->h_fixed, h + (size_t)k * H, (size_t)H * sizeof *h);
        r->fixed_iters = k - r->L + 1;
        r->fixed_residual = pl_l2_dist(h + (size_t)k * H, h + (size_t)(k - 1) * H, H);
        r->fixed_found = r->fixed_residual <= FIXED_TOL;
        r->fixed_norm = pl_l2_norm(r->h_fixed, H);
    }
    free(ids), free(mask), free(h);
    return st;
}

/* The real tokens with no pads at all, against the run shown (states h). */
static PlStatus alone(PlProbeRnn *r, PlModel *m, const int32_t *real, const float *h, PlErr *err) {
    int H = r->H;
    uint8_t *mask = malloc((size_t)r->L);
    float *ha = malloc((size_t)r->L * H * sizeof *ha);
    PlStatus st = mask && ha ? PL_OK : pl_err_set(err, PL_ENOMEM, "out of memory for the rnn probe");
    if (!st) {
        memset(mask, 1, (size_t)r->L);
        st = run(m, real, mask, r->L, ha, err);
    }
    if (!st) {
        r->start_shift = r->first_real > 0 ? pl_l2_norm(h + (size_t)(r->first_real - 1) * H, H) : 0.0f;
        r->pre_pad_effect = pl_l2_dist(h + (size_t)r->last_real * H, ha + (size_t)(r->L - 1) * H, H);
    }
    free(mask), free(ha);
    return st;
}

void pl_probe_rnn_free(PlProbeRnn *r) {
    if (!r) return;
    free(r->norm), free(r->dist_last), free(r->step), free(r->dist_fixed), free(r->h_fixed), free(r->states);
    memset(r, 0, sizeof *r);
}

static void trajectory(PlProbeRnn *r, const float *h) {
    int H = r->H;
    const float *last = h + (size_t)r->last_real * H;
    for (int t = 0; t < r->T; t++) {
        const float *ht = h + (size_t)t * H;
        r->norm[t] = pl_l2_norm(ht, H);
        r->dist_last[t] = pl_l2_dist(ht, last, H);
        r->step[t] = t ? pl_l2_dist(ht, ht - H, H) : pl_l2_norm(ht, H);
        r->dist_fixed[t] = pl_l2_dist(ht, r->h_fixed, H);
    }
}

PlStatus pl_probe_rnn(const PlCorpus *c, const PlProbeOpts *o, const PlModel *model, PlArch cell, int zero_pad,
                      PlProbeRnn *r, PlErr *err) {
    memset(r, 0, sizeof *r);
    if (!pl_arch_recurrent(cell)) return pl_err_set(err, PL_ERANGE, "--cell must be rnn, gru or lstm");
    if (o->example < 0 || o->example >= c->n)
        return pl_err_set(err, PL_ERANGE, "example %d is out of range (the corpus has %d, from 0)", o->example, c->n);
    PlModel *open = NULL, *masked = NULL;
    PlBatch *b = NULL;
    float *h = NULL, *hm = NULL;
    PlStatus st = base_model(c, model, cell, o->seed, zero_pad, &open, err);
    if (!st) st = clone(open, PL_SEQ_KERAS, &masked, err);
    if (!st) st = pl_probe_focus_batch(c, o, 1, &b, err);
    if (!st) {
        r->cell = pl_model_config(open)->arch, r->H = pl_model_config(open)->hidden, r->T = b->T, r->L = b->len[0];
        r->mask = o->mask, r->padding = o->padding, r->zero_pad_embedding = zero_pad;
        r->first_real = pl_pad_first_real(r->L, r->T, o->padding);
        r->last_real = r->first_real + r->L - 1;
        r->pad_embedding_norm =
            pl_l2_norm(pl_model_param_view(open, PL_P_EMBEDDING, NULL), pl_model_config(open)->embed);
        h = malloc((size_t)r->T * r->H * sizeof *h), hm = malloc((size_t)r->T * r->H * sizeof *hm);
        r->norm = malloc((size_t)r->T * sizeof *r->norm), r->dist_last = malloc((size_t)r->T * sizeof *r->dist_last);
        r->step = malloc((size_t)r->T * sizeof *r->step), r->dist_fixed = malloc((size_t)r->T * sizeof *r->dist_fixed);
        r->h_fixed = malloc((size_t)r->H * sizeof *r->h_fixed);
        r->states = malloc((size_t)r->T * r->H * sizeof *r->states);
        if (!h || !hm || !r->norm || !r->dist_last || !r->step || !r->dist_fixed || !r->h_fixed || !r->states)
            st = pl_err_set(err, PL_ENOMEM, "out of memory for the rnn probe");
    }
    if (!st) st = run(open, b->ids, b->mask, b->T, h, err);
    if (!st) st = run(masked, b->ids, b->mask, b->T, hm, err);
    if (!st) st = fixed_point(r, open, b->ids + r->first_real, err);
    if (!st) st = alone(r, o->mask ? masked : open, b->ids + r->first_real, o->mask ? hm : h, err);
    if (!st) {
        int H = r->H;
        const float *shown = o->mask ? hm : h, *last = shown + (size_t)r->last_real * H;
        const float *end = h + (size_t)(r->T - 1) * H, *carry = hm + (size_t)(r->T - 1) * H;
        trajectory(r, shown);
        memcpy(r->states, shown, (size_t)r->T * H * sizeof *r->states);
        r->last_pos_norm = pl_l2_norm(end, H);
        r->last_real_norm = pl_l2_norm(h + (size_t)r->last_real * H, H);
        r->masked_carry_norm = pl_l2_norm(carry, H);
        r->final_distance_to_last_real = pl_l2_dist(shown + (size_t)(r->T - 1) * H, last, H);
        r->masked_carry_distance = pl_l2_dist(carry, hm + (size_t)r->last_real * H, H);
        float from = pl_l2_dist(last, r->h_fixed, H), to = pl_l2_dist(shown + (size_t)(r->T - 1) * H, r->h_fixed, H);
        r->last_real_survival = !r->fixed_found ? NAN : from > 0.0f ? (to < from ? to : from) / from : 1.0f;
    }
    free(h), free(hm);
    pl_batch_free(b);
    pl_model_free(open), pl_model_free(masked);
    if (st) pl_probe_rnn_free(r);
    return st;
}
