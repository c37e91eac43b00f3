#include "lab.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const view_names[PL_VIEW_COUNT] = {"batch", "cost", "attention", "rnn", "pooling",
                                                      "loss", "train", "layers", "generate"};

const char *pl_view_name(PlView v) { return view_names[v]; }

int pl_view_parse(const char *s, PlView *out) {
    for (int i = 0; i < PL_VIEW_COUNT; i++)
        if (strcmp(s, view_names[i]) == 0) return *out = (PlView)i, 0;
    return -1;
}

const PlBatching pl_lab_batchings[PL_LAB_BATCHINGS] = {PL_BATCH_STATIC, PL_BATCH_DYNAMIC, PL_BATCH_MULTIPLE,
                                                       PL_BATCH_TF_BUCKET, PL_BATCH_PACKED};
const PlArch pl_lab_models[PL_LAB_MODELS] = {PL_ARCH_RNN, PL_ARCH_GRU, PL_ARCH_LSTM, PL_ARCH_AVGPOOL, PL_ARCH_ATTENTION};

PlLabSettings pl_lab_settings_default(void) {
    PlLabSettings s;
    memset(&s, 0, sizeof s);
    snprintf(s.corpus, sizeof s.corpus, "builtin");
    s.padding = PL_PRE;
    s.truncating = PL_PRE;
    s.maxlen = 200;
    s.batching = PL_BATCH_STATIC;
    s.model = PL_ARCH_RNN;
    s.conv = PL_MASK_KERAS;
    s.view = PL_VIEW_BATCH;
    return s;
}

struct PlLab {
    PlLabSettings s;
    PlCorpus *corpus;
    int *lens;
    unsigned have;         /* a bit per view whose result is current */
    unsigned changes;
    PlProbeBatch batch;
    PlLabCost cost;
    PlProbeAttention attn;
    PlProbeRnn rnn;
    PlProbePooling pool;
    PlProbeLoss loss;
    PlProbeLayers layers;
    PlProbeGenerate gen;
    PlJob *job;
    PlLabSettings job_settings;
    double job_start;
    PlLabTraining tr;
    PlModel *trained;      /* the last finished run's model */
    PlLabRun runs[PL_LAB_MAX_RUNS];
    int nruns, sort;
    pthread_t grid_thread;
    pthread_mutex_t grid_lock;
    int grid_started, grid_cancel;
    int grid_seen_done;   /* the grid's done flag as the last tick saw it */
    PlLabGrid grid;
};

static void drop_results(PlLab *lab) {
    pl_probe_batch_free(&lab->batch);
    pl_probe_attention_free(&lab->attn);
    pl_probe_rnn_free(&lab->rnn);
    pl_probe_pooling_free(&lab->pool);
    pl_probe_loss_free(&lab->loss);
    pl_probe_generate_free(&lab->gen);
    lab->have = 0;
}

PlLab *pl_lab_new(const PlLabSettings *s, PlErr *err) {
    PlLab *lab = calloc(1, sizeof *lab);
    if (!lab) {
        pl_err_set(err, PL_ENOMEM, "out of memory for the lab");
        return NULL;
    }
    lab->s = *s;
    if (pl_corpus_load(s->corpus, NULL, &lab->corpus, err)) {
        free(lab);
        return NULL;
    }
    lab->lens = malloc((size_t)lab->corpus->n * sizeof *lab->lens);
    if (!lab->lens) {
        pl_lab_free(lab);
        pl_err_set(err, PL_ENOMEM, "out of memory for the lab");
        return NULL;
    }
    pl_corpus_lengths(lab->corpus, lab->lens);
    pthread_mutex_init(&lab->grid_lock, NULL);
    if (lab->s.example >= lab->corpus->n) lab->s.example = 0;
    if (!s->example) /* start on a review shorter than maxlen, so its pads are there to see */
        for (int i = 0; i < lab->corpus->n; i++)
            if (lab->lens[i] < lab->s.maxlen / 2) {
                lab->s.example = i;
                break;
            }
    snprintf(lab->tr.status, sizeof lab->tr.status, "no model trained yet: r trains one");
    return lab;
}

static void grid_join(PlLab *lab);

void pl_lab_free(PlLab *lab) {
    if (!lab) return;
    grid_join(lab);
    pthread_mutex_destroy(&lab->grid_lock);
    pl_job_free(lab->job);
    drop_results(lab);
    pl_model_free(lab->trained);
    pl_corpus_free(lab->corpus);
    free(lab->lens);
    free(lab);
}

const PlLabSettings *pl_lab_settings(const PlLab *lab) { return &lab->s; }
const PlCorpus *pl_lab_corpus(const PlLab *lab) { return lab->corpus; }
const PlLabTraining *pl_lab_training(const PlLab *lab) { return &lab->tr; }
int pl_lab_runs_sort(const PlLab *lab) { return lab->sort; }

/* ---- training in the background ---- */

static PlTrainConfig train_config(const PlLabSettings *s) {
    PlTrainConfig c = pl_train_config_default(s->model);
    c.padding = s->padding;
    c.truncating = s->truncating;
    c.maxlen = s->maxlen;
    c.batching = s->batching;
    c.seed = (uint64_t)s->seed;
    c.model.mask = s->mask ? PL_SEQ_KERAS : PL_SEQ_NONE;
    c.model.pool = s->mask ? PL_POOL_MASKED : PL_POOL_UNMASKED;
    return c;
}

static void start_training(PlLab *lab) {
    pl_job_free(lab->job);
    lab->job = NULL;
    PlTrainConfig cfg = train_config(&lab->s);
    PlErr err;
    if (lab->tr.curve_n) {
        memcpy(lab->tr.prev_curve, lab->tr.curve, sizeof lab->tr.curve);
        lab->tr.prev_n = lab->tr.curve_n;
    }
    lab->tr.curve_n = 0;
    lab->tr.paused = 0;
    lab->job = pl_job_start(lab->corpus, &cfg, &err);
    lab->tr.active = lab->job != NULL;
    lab->job_settings = lab->s;
    lab->job_start = pl_app_clock();
    memset(&lab->tr.progress, 0, sizeof lab->tr.progress);
    snprintf(lab->tr.status, sizeof lab->tr.status, "%.150s", lab->job ? "training started" : err.msg);
}

static int cmp_runs_acc(const void *a, const void *b) {
    float x = ((const PlLabRun *)a)->best_val_acc, y = ((const PlLabRun *)b)->best_val_acc;
    return (x < y) - (x > y);
}

static int cmp_runs_time(const void *a, const void *b) {
    double x = ((const PlLabRun *)a)->seconds, y = ((const PlLabRun *)b)->seconds;
    return (x > y) - (x < y);
}

static void sort_runs(PlLab *lab) {
    if (lab->sort == 1) qsort(lab->runs, (size_t)lab->nruns, sizeof lab->runs[0], cmp_runs_acc);
    if (lab->sort == 2) qsort(lab->runs, (size_t)lab->nruns, sizeof lab->runs[0], cmp_runs_time);
}

static void record_run(PlLab *lab, const PlTrainResult *res) {
    if (lab->nruns == PL_LAB_MAX_RUNS) {
        memmove(lab->runs, lab->runs + 1, sizeof lab->runs[0] * (PL_LAB_MAX_RUNS - 1));
        lab->nruns--;
    }
    PlLabRun *r = &lab->runs[lab->nruns++];
    r->settings = lab->job_settings;
    r->epochs = res->epochs_done;
    memcpy(r->val_acc, res->val_acc, sizeof r->val_acc);
    r->best_val_acc = res->best_val_acc;
    r->seconds = res->seconds;
    sort_runs(lab);
}

static void finish_job(PlLab *lab, PlJobState state) {
    PlTrainResult res;
    PlModel *m = NULL;
    PlErr err;
    PlStatus st = pl_job_finish(lab->job, &res, &m, &err);
    if (st == PL_OK) {
        record_run(lab, &res);
        pl_model_free(lab->trained);
        lab->trained = m;
        m = NULL;
        drop_results(lab); /* the probes now read the trained weights */
        snprintf(lab->tr.status, sizeof lab->tr.status, "trained: best validation accuracy %.3f in %.2f s", (double)res.best_val_acc,
                 res.seconds);
    } else {
        snprintf(lab->tr.status, sizeof lab->tr.status, "%.150s", state == PL_JOB_CANCELED ? "training canceled" : err.msg);
    }
    pl_model_free(m);
    pl_job_free(lab->job);
    lab->job = NULL;
    lab->tr.active = 0;
}

/* 1 while the grid runs and once more when it has just ended. */
static int grid_tick(PlLab *lab) {
    PlLabGrid g = pl_lab_grid(lab);
    int changed = g.active || g.done != lab->grid_seen_done;
    lab->grid_seen_done = g.done;
    return changed;
}

int pl_lab_tick(PlLab *lab) {
    int grid = grid_tick(lab);
    if (!lab->job) return grid;
    PlProgress p;
    PlJobState st = pl_job_poll(lab->job, &p);
    lab->tr.curve_n = pl_job_curve(lab->job, lab->tr.curve, PL_MAX_EPOCHS);
    lab->tr.progress = p;
    if (p.batches > 0) {
        double done = ((p.epoch - 1) * (double)p.batches + p.batch) / ((double)p.epochs * p.batches);
        double spent = pl_app_clock() - lab->job_start;
        lab->tr.eta = done > 0.0 ? spent * (1.0 - done) / done : 0.0;
    }
    if (st != PL_JOB_RUNNING) finish_job(lab, st);
    return 1;
}

/* ---- the padding x mask grid, on its own thread ---- */

static int grid_progress(int run, const PlProgress *p, void *ctx) {
    PlLab *lab = ctx;
    (void)run;
    pthread_mutex_lock(&lab->grid_lock);
    if (p->val_acc >= 0.0f && p->epoch == p->epochs) lab->grid.finished++;
    int stop = lab->grid_cancel;
    pthread_mutex_unlock(&lab->grid_lock);
    return stop;
}

static void *grid_main(void *arg) {
    PlLab *lab = arg;
    static const uint64_t seeds[PL_LAB_GRID_SEEDS] = {0, 1, 2};
    PlExperimentOpts o = {5, lab->s.maxlen, seeds, PL_LAB_GRID_SEEDS};
    PlRun *runs = NULL;
    PlSummary *sum = NULL;
    int n = 0, ns = 0;
    PlErr err;
    PlStatus st = pl_experiment_plan(pl_experiment_find("padding"), &o, lab->corpus, &runs, &n, &err);
    if (!st) st = pl_runs_execute(runs, n, lab->corpus, 1, grid_progress, lab, NULL, &err);
    if (!st) st = pl_experiment_summarise(runs, n, 0, &sum, &ns, &err);
    pthread_mutex_lock(&lab->grid_lock);
    lab->grid.active = 0;
    lab->grid.done = st == PL_OK;
    lab->grid.n = ns < 4 ? ns : 4;
    if (sum) memcpy(lab->grid.summary, sum, sizeof(PlSummary) * (size_t)lab->grid.n);
    snprintf(lab->grid.status, sizeof lab->grid.status, "%.150s", st ? err.msg : "the 2 x 2 grid is done");
    pthread_mutex_unlock(&lab->grid_lock);
    free(runs);
    free(sum);
    return NULL;
}

static void grid_join(PlLab *lab) {
    if (!lab->grid_started) return;
    pthread_mutex_lock(&lab->grid_lock);
    lab->grid_cancel = 1;
    pthread_mutex_unlock(&lab->grid_lock);
    pthread_join(lab->grid_thread, NULL);
    lab->grid_started = 0;
    lab->grid_cancel = 0;
}

static int grid_start(PlLab *lab) {
    PlLabGrid g = pl_lab_grid(lab);
    if (g.active) return 0;
    grid_join(lab);
    memset(&lab->grid, 0, sizeof lab->grid);
    lab->grid.active = 1;
    lab->grid.total = 4 * PL_LAB_GRID_SEEDS;
    snprintf(lab->grid.status, sizeof lab->grid.status, "running the 2 x 2 grid over %d seeds", PL_LAB_GRID_SEEDS);
    if (pthread_create(&lab->grid_thread, NULL, grid_main, lab) != 0) {
        lab->grid.active = 0;
        snprintf(lab->grid.status, sizeof lab->grid.status, "cannot start a thread for the grid");
        return 0;
    }
    lab->grid_started = 1;
    return PL_LAB_HOT;
}

PlLabGrid pl_lab_grid(PlLab *lab) {
    pthread_mutex_lock(&lab->grid_lock);
    PlLabGrid g = lab->grid;
    pthread_mutex_unlock(&lab->grid_lock);
    return g;
}

/* ---- actions ---- */

static int maxlen_step(int maxlen, int up) {
    int step = maxlen < 100 || (!up && maxlen <= 100) ? 10 : maxlen < 400 || (!up && maxlen <= 400) ? 50 : 100;
    int next = up ? maxlen + step : maxlen - step;
    return next < 10 ? 10 : next > 2000 ? 2000 : next;
}

static int index_of_batching(PlBatching b) {
    for (int i = 0; i < PL_LAB_BATCHINGS; i++)
        if (pl_lab_batchings[i] == b) return i;
    return 0;
}

static int index_of_model(PlArch a) {
    for (int i = 0; i < PL_LAB_MODELS; i++)
        if (pl_lab_models[i] == a) return i;
    return 0;
}

/* Applies a cold setting change: the probes recompute, the model retrains. */
static int cold(PlLab *lab, unsigned change) {
    lab->changes |= change;
    drop_results(lab);
    start_training(lab);
    return PL_LAB_COLD;
}

static int hot(PlLab *lab, unsigned change) {
    lab->changes |= change;
    drop_results(lab);
    return PL_LAB_HOT;
}

static int example_step(PlLab *lab, int d) {
    int n = lab->corpus->n;
    lab->s.example = (lab->s.example + d + n) % n;
    return hot(lab, PL_CHG_EXAMPLE);
}

static int pause_toggle(PlLab *lab) {
    if (!lab->job) return 0;
    lab->tr.paused = !lab->tr.paused;
    pl_job_pause(lab->job, lab->tr.paused);
    snprintf(lab->tr.status, sizeof lab->tr.status, "%s", lab->tr.paused ? "training paused (space resumes)" : "training resumed");
    return PL_LAB_HOT;
}

int pl_lab_act(PlLab *lab, PlAction a) {
    PlLabSettings *s = &lab->s;
    switch (a) {
    case PL_ACT_PADDING: s->padding = s->padding == PL_PRE ? PL_POST : PL_PRE; return cold(lab, PL_CHG_PADDING);
    case PL_ACT_TRUNCATING: s->truncating = s->truncating == PL_PRE ? PL_POST : PL_PRE; return cold(lab, PL_CHG_TRUNCATING);
    case PL_ACT_MASK: s->mask = !s->mask; return cold(lab, PL_CHG_MASK);
    case PL_ACT_MAXLEN_UP:
    case PL_ACT_MAXLEN_DOWN: {
        int next = maxlen_step(s->maxlen, a == PL_ACT_MAXLEN_UP);
        if (next == s->maxlen) return 0;
        s->maxlen = next;
        return cold(lab, PL_CHG_MAXLEN);
    }
    case PL_ACT_BATCHING: s->batching = pl_lab_batchings[(index_of_batching(s->batching) + 1) % PL_LAB_BATCHINGS]; return cold(lab, PL_CHG_BATCHING);
    case PL_ACT_MODEL: s->model = pl_lab_models[(index_of_model(s->model) + 1) % PL_LAB_MODELS]; return cold(lab, PL_CHG_MODEL);
    case PL_ACT_CONVENTION: s->conv = (PlMaskConv)((s->conv + 1) % 4); return hot(lab, PL_CHG_CONV);
    case PL_ACT_NEXT_EXAMPLE: return example_step(lab, 1);
    case PL_ACT_PREV_EXAMPLE: return example_step(lab, -1);
    case PL_ACT_RUN: start_training(lab); return PL_LAB_COLD;
    case PL_ACT_PAUSE: return pause_toggle(lab);
    case PL_ACT_NEXT_VIEW: pl_lab_set_view(lab, (PlView)((s->view + 1) % PL_VIEW_COUNT)); return PL_LAB_HOT;
    case PL_ACT_PREV_VIEW: pl_lab_set_view(lab, (PlView)((s->view + PL_VIEW_COUNT - 1) % PL_VIEW_COUNT)); return PL_LAB_HOT;
    case PL_ACT_SORT_RUNS: lab->sort = (lab->sort + 1) % 3; sort_runs(lab); return PL_LAB_HOT;
    case PL_ACT_NEXT_SEED: s->seed = (s->seed + 1) % 1000; return cold(lab, PL_CHG_SEED);
    case PL_ACT_GRID: return grid_start(lab);
    default: return 0;
    }
}

void pl_lab_set_view(PlLab *lab, PlView v) {
    if (v < 0 || v >= PL_VIEW_COUNT || v == lab->s.view) return;
    lab->s.view = v;
    lab->changes |= PL_CHG_VIEW;
}

unsigned pl_lab_take_changes(PlLab *lab) {
    unsigned c = lab->changes;
    lab->changes = 0;
    return c;
}

const PlLabRun *pl_lab_runs(const PlLab *lab, int *n) {
    *n = lab->nruns;
    return lab->runs;
}

void pl_lab_set_runs(PlLab *lab, const PlLabRun *runs, int n) {
    lab->nruns = n < PL_LAB_MAX_RUNS ? n : PL_LAB_MAX_RUNS;
    memcpy(lab->runs, runs, sizeof lab->runs[0] * (size_t)lab->nruns);
}

/* ---- results, computed when a view asks ---- */

static PlProbeOpts probe_opts(const PlLab *lab) {
    PlProbeOpts o = pl_probe_opts_default();
    o.example = lab->s.example;
    o.maxlen = lab->s.maxlen;
    o.padding = lab->s.padding;
    o.truncating = lab->s.truncating;
    o.mask = lab->s.mask;
    o.conv = lab->s.conv;
    o.seed = (uint64_t)lab->s.seed;
    return o;
}

#define RESULT(view, field, call)                                  \
    do {                                                           \
        if (lab->have & (1u << (view))) return &lab->field;        \
        PlProbeOpts o = probe_opts(lab);                           \
        if (call) return NULL;                                     \
        lab->have |= 1u << (view);                                 \
        return &lab->field;                                        \
    } while (0)

const PlProbeBatch *pl_lab_batch(PlLab *lab, PlErr *err) { RESULT(PL_VIEW_BATCH, batch, pl_probe_batch(lab->corpus, &o, &lab->batch, err)); }

const PlProbeAttention *pl_lab_attention(PlLab *lab, PlErr *err) {
    RESULT(PL_VIEW_ATTENTION, attn, pl_probe_attention(lab->corpus, &o, lab->trained, 2, 16, 0, &lab->attn, err));
}

const PlProbeRnn *pl_lab_rnn(PlLab *lab, PlErr *err) {
    const PlModel *m = lab->trained && pl_arch_recurrent(pl_model_config(lab->trained)->arch) ? lab->trained : NULL;
    PlArch cell = pl_arch_recurrent(lab->s.model) ? lab->s.model : PL_ARCH_RNN;
    RESULT(PL_VIEW_RNN, rnn, pl_probe_rnn(lab->corpus, &o, m, cell, 0, &lab->rnn, err));
}

const PlProbePooling *pl_lab_pooling(PlLab *lab, PlErr *err) {
    RESULT(PL_VIEW_POOLING, pool, pl_probe_pooling(lab->corpus, &o, lab->trained, &lab->pool, err));
}

const PlProbeLoss *pl_lab_loss(PlLab *lab, PlErr *err) { RESULT(PL_VIEW_LOSS, loss, pl_probe_loss(lab->corpus, &o, NULL, &lab->loss, err)); }

const PlProbeLayers *pl_lab_layers(PlLab *lab, PlErr *err) {
    RESULT(PL_VIEW_LAYERS, layers, pl_probe_layers(lab->corpus, &o, lab->trained, &lab->layers, err));
}

const PlProbeGenerate *pl_lab_generate(PlLab *lab, PlErr *err) {
    RESULT(PL_VIEW_GENERATE, gen, pl_probe_generate(lab->corpus, &o, &lab->gen, err));
}

static PlStatus compute_cost(PlLab *lab, PlErr *err) {
    PlLabCost *k = &lab->cost;
    const PlLabSettings *s = &lab->s;
    int n = lab->corpus->n;
    int quarters[3], nq = pl_plan_quarter_bounds(s->maxlen, quarters);
    /* The same batches training uses (for packed: the accounting of the packed RNN). */
    PlPlanOpts po = {.kind = s->batching, .batch_size = 32, .maxlen = s->maxlen, .boundaries = quarters, .n_boundaries = nq};
    PlPlan *p;
    PlStatus st = pl_plan_make(lab->lens, n, &po, &p, err);
    if (st) return st;
    pl_cost_of_plan(&k->cost, p, lab->lens);
    pl_plan_free(p);
    k->padding_share = pl_cost_padding_share(&k->cost);
    k->kept_share = pl_cost_kept_share(&k->cost);
    k->truncated_share = pl_cost_truncated_share(&k->cost);
    k->sweep_at = 0;
    for (int i = 0; i < PL_LAB_SWEEP; i++) {
        PlMaxlenRow row;
        k->sweep_maxlen[i] = 25 * (i + 1);
        pl_maxlen_row(lab->lens, n, k->sweep_maxlen[i], &row);
        k->sweep_padding[i] = row.padding_share;
        k->sweep_kept[i] = row.kept_share;
        if (abs(k->sweep_maxlen[i] - s->maxlen) < abs(k->sweep_maxlen[k->sweep_at] - s->maxlen)) k->sweep_at = i;
    }
    PlCompareOpts co = {32, s->maxlen, pl_default_boundaries, PL_DEFAULT_NBOUNDS, pl_default_bucket_sizes, 0};
    return pl_cost_compare(lab->lens, n, &co, k->strategies, &k->nstrategies, err);
}

const PlLabCost *pl_lab_cost(PlLab *lab, PlErr *err) {
    if (!(lab->have & (1u << PL_VIEW_COST))) {
        if (compute_cost(lab, err)) return NULL;
        lab->have |= 1u << PL_VIEW_COST;
    }
    return &lab->cost;
}
