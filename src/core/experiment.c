#include "experiment.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

#define STR(k, s) ((PlSetupVal){(k), PL_VAL_STR, (s), 0})
#define BOOL(k, b) ((PlSetupVal){(k), PL_VAL_BOOL, NULL, (b)})
#define INT(k, i) ((PlSetupVal){(k), PL_VAL_INT, NULL, (i)})

/* Adds the runs of one setup, one per seed. */
static int add_setup(PlRun *runs, int at, int max, const PlExperimentOpts *o, const PlTrainConfig *cfg,
                     const PlSetupVal *vals, int nv) {
    int setup_index = at / (o->n_seeds ? o->n_seeds : 1);
    for (int s = 0; s < o->n_seeds && at < max; s++, at++) {
        PlRun *r = &runs[at];
        memset(r, 0, sizeof *r);
        for (int i = 0; i < nv; i++) r->setup.v[i] = vals[i];
        r->setup.n = nv;
        r->setup_index = setup_index;
        r->cfg = *cfg;
        r->cfg.epochs = o->epochs;
        r->cfg.seed = o->seeds[s];
    }
    return at;
}

static PlTrainConfig base(PlArch arch, const PlExperimentOpts *o) {
    PlTrainConfig c = pl_train_config_default(arch);
    c.maxlen = o->maxlen;
    return c;
}

/* Embedding(10000,32) -> SimpleRNN(32) -> Dense(1): pre/post x mask off/on. */
static int plan_padding(const PlExperimentOpts *o, PlRun *runs, int max) {
    int n = 0;
    for (int post = 0; post <= 1; post++)
        for (int mask = 0; mask <= 1; mask++) {
            PlTrainConfig c = base(PL_ARCH_RNN, o);
            c.padding = post ? PL_POST : PL_PRE;
            c.model.mask = mask ? PL_SEQ_KERAS : PL_SEQ_NONE;
            PlSetupVal v[] = {STR("padding", post ? "post" : "pre"), BOOL("mask", mask)};
            n = add_setup(runs, n, max, o, &c, v, 2);
        }
    return n;
}

/* Embedding -> global average pooling -> Dense(1), three ways of counting pads. */
static int plan_pooling(const PlExperimentOpts *o, PlRun *runs, int max) {
    static const char *const names[] = {"unmasked", "masked", "divide_by_T"};
    int n = 0;
    for (int k = 0; k < 3; k++) {
        PlTrainConfig c = base(PL_ARCH_AVGPOOL, o);
        c.model.pool = (PlPoolMask)k;
        PlSetupVal v[] = {STR("pooling", names[k])};
        n = add_setup(runs, n, max, o, &c, v, 1);
    }
    return n;
}

/* SimpleRNN vs GRU vs LSTM, post padding, mask off/on. */
static int plan_cells(const PlExperimentOpts *o, PlRun *runs, int max) {
    static const PlArch cells[] = {PL_ARCH_RNN, PL_ARCH_GRU, PL_ARCH_LSTM};
    int n = 0;
    for (int k = 0; k < 3; k++)
        for (int mask = 0; mask <= 1; mask++) {
            PlTrainConfig c = base(cells[k], o);
            c.padding = PL_POST;
            c.model.mask = mask ? PL_SEQ_KERAS : PL_SEQ_NONE;
            PlSetupVal v[] = {STR("cell", pl_arch_name(cells[k])), STR("padding", "post"), BOOL("mask", mask)};
            n = add_setup(runs, n, max, o, &c, v, 3);
        }
    return n;
}

/* Accuracy and time against maxlen, for the pooling and RNN models. */
static int plan_maxlen(const PlExperimentOpts *o, PlRun *runs, int max) {
    static const int maxlens[] = {50, 100, 200, 400};
    static const PlArch models[] = {PL_ARCH_AVGPOOL, PL_ARCH_RNN};
    int n = 0;
    for (int m = 0; m < 2; m++)
        for (int k = 0; k < 4; k++) {
            PlTrainConfig c = base(models[m], o);
            c.maxlen = maxlens[k];
            c.model.mask = PL_SEQ_KERAS;
            c.model.pool = PL_POOL_MASKED;
            PlSetupVal v[] = {STR("model", pl_arch_name(models[m])), INT("maxlen", maxlens[k]), BOOL("mask", 1)};
            n = add_setup(runs, n, max, o, &c, v, 3);
        }
    return n;
}

/* The same masked SimpleRNN trained on four kinds of batches: they compute the
 * same function, so what differs is the work done. */
static int plan_batching(const PlExperimentOpts *o, PlRun *runs, int max) {
    static const PlBatching kinds[] = {PL_BATCH_STATIC, PL_BATCH_DYNAMIC, PL_BATCH_TF_BUCKET, PL_BATCH_PACKED};
    int n = 0;
    for (int k = 0; k < 4; k++) {
        PlTrainConfig c = base(PL_ARCH_RNN, o);
        c.batching = kinds[k];
        c.model.mask = PL_SEQ_KERAS;
        PlSetupVal v[] = {STR("batching", pl_batching_name(kinds[k])), BOOL("mask", 1)};
        n = add_setup(runs, n, max, o, &c, v, 2);
    }
    return n;
}

/* Which part of a long review the model reads: its end, its start, or all of
 * it in overlapping windows whose predictions are averaged. */
static int plan_truncation(const PlExperimentOpts *o, PlRun *runs, int max) {
    static const PlArch models[] = {PL_ARCH_AVGPOOL, PL_ARCH_RNN};
    static const char *const ways[] = {"pre", "post", "window"};
    int n = 0;
    for (int m = 0; m < 2; m++)
        for (int k = 0; k < 3; k++) {
            PlTrainConfig c = base(models[m], o);
            c.model.mask = PL_SEQ_KERAS;
            c.model.pool = PL_POOL_MASKED;
            c.truncating = k == 1 ? PL_POST : PL_PRE;
            c.window_stride = k == 2 ? (o->maxlen + 1) / 2 : 0;
            PlSetupVal v[] = {STR("model", pl_arch_name(models[m])), STR("truncating", ways[k])};
            n = add_setup(runs, n, max, o, &c, v, 2);
        }
    return n;
}

/* Next-token prediction at every position (64 classes: the 63 most frequent
 * ids, the rest shared), post padding: the three normalisations with pads
 * ignored, and the per-token loss with the pad targets left in. */
static int plan_loss(const PlExperimentOpts *o, PlRun *runs, int max) {
    static const PlLossNorm norms[] = {PL_NORM_TOKEN, PL_NORM_SEQUENCE, PL_NORM_BATCH_T, PL_NORM_TOKEN};
    int n = 0;
    for (int k = 0; k < 4; k++) {
        PlTrainConfig c = base(PL_ARCH_RNN, o);
        c.padding = PL_POST;
        c.token_task = 1;
        c.model.classes = 64;
        c.norm = norms[k];
        c.pads_in_loss = k == 3;
        PlSetupVal v[] = {STR("normalisation", pl_loss_norm_name(norms[k])), BOOL("pads_in_loss", k == 3)};
        n = add_setup(runs, n, max, o, &c, v, 2);
    }
    return n;
}

static const PlExperiment exp_padding = {"padding", "SimpleRNN: padding pre/post x mask off/on", 0, 0, plan_padding};
static const PlExperiment exp_pooling = {"pooling", "average pooling: unmasked vs masked vs divide-by-T", 1, 0,
                                         plan_pooling};
static const PlExperiment exp_cells = {"cells", "SimpleRNN vs GRU vs LSTM, post padding, mask off/on", 0, 0,
                                       plan_cells};
static const PlExperiment exp_maxlen = {"maxlen", "accuracy and time against maxlen (pooling, RNN)", 1, 0, plan_maxlen};
static const PlExperiment exp_batching = {"batching", "static vs dynamic vs bucketed vs packed batches", 0, 0,
                                          plan_batching};
static const PlExperiment exp_truncation = {"truncation", "truncating pre vs post vs sliding windows", 0, 0,
                                            plan_truncation};
static const PlExperiment exp_loss = {"loss", "next-token loss: per token vs per sequence vs batch x T, pads in or out",
                                      0, 1, plan_loss};

const PlExperiment *const pl_experiments[] = {&exp_padding,  &exp_pooling,    &exp_cells, &exp_maxlen,
                                              &exp_batching, &exp_truncation, &exp_loss,  NULL};

const PlExperiment *pl_experiment_find(const char *name) {
    for (int i = 0; pl_experiments[i]; i++)
        if (strcmp(pl_experiments[i]->name, name) == 0) return pl_experiments[i];
    return NULL;
}

/* Mean weight on real tokens, min(L, maxlen) / maxlen, over the corpus. */
static double dilution(const PlCorpus *c, int maxlen) {
    double sum = 0.0;
    for (int i = 0; i < c->n; i++) {
        int L = pl_corpus_len(c, i);
        sum += (double)(L < maxlen ? L : maxlen) / maxlen;
    }
    return c->n ? sum / c->n : 0.0;
}

PlStatus pl_experiment_plan(const PlExperiment *e, const PlExperimentOpts *o, const PlCorpus *c, PlRun **runs, int *n,
                            PlErr *err) {
    *runs = NULL;
    *n = 0;
    if (o->n_seeds < 1 || o->epochs < 1 || o->epochs > PL_MAX_EPOCHS || o->maxlen < 2)
        return pl_err_set(err, PL_ERANGE, "an experiment needs seeds, 1 to %d epochs and maxlen >= 2", PL_MAX_EPOCHS);
    int max = 64 * o->n_seeds;
    PlRun *r = calloc((size_t)max, sizeof *r);
    if (!r) return pl_err_set(err, PL_ENOMEM, "out of memory planning %s", e->name);
    *n = e->plan(o, r, max);
    for (int i = 0; c && i < *n; i++) r[i].dilution = dilution(c, r[i].cfg.maxlen);
    *runs = r;
    return PL_OK;
}

static void summarise_one(PlSummary *s, const PlRun *runs, int n, int setup, int by_loss) {
    double acc[1024];
    int k = 0;
    double secs = 0.0, steps = 0.0;
    for (int i = 0; i < n && k < 1024; i++) {
        if (runs[i].setup_index != setup || runs[i].status != PL_OK) continue;
        acc[k++] = by_loss ? runs[i].res.best_val_loss : runs[i].res.best_val_acc;
        secs += runs[i].res.seconds / (runs[i].res.epochs_done ? runs[i].res.epochs_done : 1);
        steps += (double)runs[i].res.steps;
        s->setup = runs[i].setup;
        s->dilution = runs[i].dilution;
    }
    s->n = k;
    if (!k) return;
    s->median = pl_median(acc, k);
    double sum = 0.0, ss = 0.0;
    for (int i = 0; i < k; i++) sum += acc[i];
    s->mean = sum / k;
    for (int i = 0; i < k; i++) ss += (acc[i] - s->mean) * (acc[i] - s->mean);
    s->std = k > 1 ? sqrt(ss / (k - 1)) : 0.0;
    s->min = acc[0];
    s->max = acc[k - 1];
    s->seconds_per_epoch = secs / k;
    s->steps = (int64_t)(steps / k);
}

PlStatus pl_experiment_summarise(const PlRun *runs, int n, int by_loss, PlSummary **out, int *nsum, PlErr *err) {
    int setups = 0;
    for (int i = 0; i < n; i++) setups = runs[i].setup_index + 1 > setups ? runs[i].setup_index + 1 : setups;
    PlSummary *s = calloc((size_t)(setups ? setups : 1), sizeof *s);
    if (!s) return pl_err_set(err, PL_ENOMEM, "out of memory summarising");
    for (int k = 0; k < setups; k++) {
        s[k].setup = runs[0].setup;
        summarise_one(&s[k], runs, n, k, by_loss);
    }
    *out = s;
    *nsum = setups;
    return PL_OK;
}

const char *pl_setup_text(const PlSetupVal *v, char *buf, int cap) {
    if (v->kind == PL_VAL_STR) snprintf(buf, (size_t)cap, "%s", v->str);
    else if (v->kind == PL_VAL_BOOL) snprintf(buf, (size_t)cap, "%s", v->num ? "true" : "false");
    else snprintf(buf, (size_t)cap, "%d", v->num);
    return buf;
}
