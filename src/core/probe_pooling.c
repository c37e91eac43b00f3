/* The pooling probe: dilution of a mean by pads, over the corpus and on one
 * example's embeddings. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"
#include "probe_weights.h"
#include "tensor.h"

static void corpus_weights(PlProbePooling *r, const PlCorpus *c, int maxlen) {
    double sum = 0.0, mn = 1.0;
    for (int i = 0; i < c->n; i++) {
        int L = pl_corpus_len(c, i);
        double w = (double)(L < maxlen ? L : maxlen) / maxlen;
        sum += w;
        mn = w < mn ? w : mn;
        int bin = (int)(w * PL_POOL_HIST_BINS);
        r->hist[bin < PL_POOL_HIST_BINS ? bin : PL_POOL_HIST_BINS - 1]++;
    }
    r->mean_real_weight = c->n ? sum / c->n : 0.0;
    r->min_real_weight = mn;
}

void pl_probe_pooling_free(PlProbePooling *r) {
    if (!r) return;
    free(r->avg_masked), free(r->avg_unmasked), free(r->avg_div_t), free(r->max_masked), free(r->max_unmasked);
    memset(r, 0, sizeof *r);
}

PlStatus pl_probe_pooling(const PlCorpus *c, const PlProbeOpts *o, const PlModel *model, PlProbePooling *r,
                          PlErr *err) {
    memset(r, 0, sizeof *r);
    if (o->example < 0 || o->example >= c->n)
        return pl_err_set(err, PL_ERANGE, "example %d is out of range (the corpus has %d, from 0)", o->example, c->n);
    PlModel *own = NULL;
    PlStatus st = model ? pl_probe_check_vocab(pl_model_config(model)->vocab, c, err)
                        : pl_probe_fresh_model(PL_ARCH_AVGPOOL, c, o->seed, &own, err);
    if (st) return st;
    const PlModel *m = model ? model : own;
    const float *emb = pl_model_param_view(m, PL_P_EMBEDDING, NULL);
    int E = pl_model_config(m)->embed;
    PlBatch *b = NULL;
    st = pl_probe_focus_batch(c, o, 1, &b, err);
    float *x = NULL;
    int *arg = NULL;
    if (!st) {
        r->maxlen = o->maxlen, r->E = E, r->T = b->T, r->L = b->len[0];
        r->example_weight = (float)r->L / (float)r->T;
        corpus_weights(r, c, o->maxlen);
        x = malloc((size_t)b->T * E * sizeof *x), arg = malloc((size_t)E * sizeof *arg);
        float **outs[] = {&r->avg_masked, &r->avg_unmasked, &r->avg_div_t, &r->max_masked, &r->max_unmasked};
        for (int i = 0; i < 5; i++) *outs[i] = malloc((size_t)E * sizeof(float));
        if (!x || !arg || !r->avg_masked || !r->avg_unmasked || !r->avg_div_t || !r->max_masked || !r->max_unmasked)
            st = pl_err_set(err, PL_ENOMEM, "out of memory for the pooling probe");
    }
    if (!st) {
        pl_embedding_forward(x, b->ids, emb, 1, b->T, E);
        pl_avgpool_forward(r->avg_masked, x, b->mask, PL_POOL_MASKED, b->T, 1, E);
        pl_avgpool_forward(r->avg_unmasked, x, b->mask, PL_POOL_UNMASKED, b->T, 1, E);
        pl_avgpool_forward(r->avg_div_t, x, b->mask, PL_POOL_DIV_T, b->T, 1, E);
        pl_maxpool_forward(r->max_masked, arg, x, b->mask, PL_POOL_MASKED, b->T, 1, E);
        pl_maxpool_forward(r->max_unmasked, arg, x, b->mask, PL_POOL_UNMASKED, b->T, 1, E);
        r->avg_unmasked_dist = pl_l2_dist(r->avg_unmasked, r->avg_masked, E);
        r->avg_div_t_dist = pl_l2_dist(r->avg_div_t, r->avg_masked, E);
        r->max_unmasked_dist = pl_l2_dist(r->max_unmasked, r->max_masked, E);
    }
    free(x), free(arg);
    pl_batch_free(b);
    pl_model_free(own);
    if (st) pl_probe_pooling_free(r);
    return st;
}
