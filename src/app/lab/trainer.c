/* Training in the lab. A retrain trains the current settings over several
 * seeds at once (seed, seed + 1, ...); the grid trains the padding x mask
 * 2 x 2 of the selected model over the same seeds. Both run as jobs on
 * their own threads, and every finished run joins the runs table, where a
 * setting's seeds make one row: a result is a spread, never one run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab_internal.h"

int pl_lab_run_memorised(const PlLabRun *r, const PlChance *ch) {
    if (r->chance.n_val > 0) ch = &r->chance;
    return r->epochs > 0 && r->train_loss[r->epochs - 1] < PL_MEMORISE_LOSS &&
           pl_chance_verdict(ch, (double)r->best_val_acc) != PL_ABOVE_CHANCE;
}

const PlLabTraining *pl_lab_training(const PlLab *lab) { return &lab->tr; }

/* longest: the corpus's longest review, what maxlen none trains at. */
static PlTrainConfig train_config(const PlLabSettings *s, int seed, int longest) {
    PlTrainConfig c = pl_train_config_default((PlArch)s->model);
    c.padding = (PlSide)s->padding;
    c.truncating = (PlSide)s->truncating;
    c.maxlen = pl_maxlen_of(s->maxlen, longest);
    c.batching = (PlBatching)s->batching;
    c.batch_size = s->batch;
    c.seed = (PlSeed)seed;
    c.model.mask = s->mask ? PL_SEQ_KERAS : PL_SEQ_NONE;
    c.model.pool = s->mask ? PL_POOL_MASKED : PL_POOL_UNMASKED;
    return c;
}

PlTrainConfig pl_lab_train_config(const PlLab *lab, const PlLabSettings *s, int seed) {
    return train_config(s, seed, lab->longest);
}

/* ---- jobs that were stopped finish their batch on their own ---- */

#define RETIRED_MAX 8

static void retire(PlLab *lab, PlJob *j) {
    if (!j) return;
    pl_job_cancel(j);
    for (int i = 0; i < RETIRED_MAX; i++)
        if (!lab->retired[i]) {
            lab->retired[i] = j;
            return;
        }
    pl_job_free(j); /* no room: wait for it here */
}

static void reap(PlLab *lab) {
    for (int i = 0; i < RETIRED_MAX; i++)
        if (lab->retired[i] && pl_job_poll(lab->retired[i], NULL) != PL_JOB_RUNNING) {
            pl_job_free(lab->retired[i]);
            lab->retired[i] = NULL;
        }
}

int pl_lab_train_stop_by(PlLab *lab, const struct timespec *deadline) {
    int stuck = pl_job_stop_by(lab->job, deadline) | pl_job_stop_by(lab->grid_job, deadline);
    for (int i = 0; i < RETIRED_MAX; i++) stuck |= pl_job_stop_by(lab->retired[i], deadline);
    if (stuck) return -1;
    pl_lab_train_stop(lab);
    return 0;
}

void pl_lab_train_stop(PlLab *lab) {
    pl_job_free(lab->job);
    pl_job_free(lab->grid_job);
    lab->job = lab->grid_job = NULL;
    for (int i = 0; i < RETIRED_MAX; i++) pl_job_free(lab->retired[i]), lab->retired[i] = NULL;
    free(lab->job_runs), free(lab->grid_runs);
    lab->job_runs = lab->grid_runs = NULL;
    lab->tr.active = lab->tr.paused = 0;
    lab->grid.active = 0;
}

/* ---- the runs table ---- */

int pl_lab_same_setting(const PlLabSettings *a, const PlLabSettings *b) {
    unsigned ignore = PL_S_BIT(PL_S_SEED) | PL_S_BIT(PL_S_SEEDS);
    return (pl_settings_diff(a, b) & pl_settings_cold_mask() & ~ignore) == 0;
}

static void record_run(PlLab *lab, const PlLabSettings *s, int seed, const PlTrainResult *res, int grid) {
    /* The same setting and seed again trains the same run (training is
     * deterministic): the new one replaces it, so a spread counts each seed once. */
    for (int i = 0; i < lab->nruns; i++)
        if (lab->runs[i].settings.seed == seed && pl_lab_same_setting(&lab->runs[i].settings, s)) {
            memmove(lab->runs + i, lab->runs + i + 1, sizeof lab->runs[0] * (size_t)(lab->nruns - i - 1));
            lab->nruns--;
            break;
        }
    if (lab->nruns == PL_LAB_MAX_RUNS) {
        memmove(lab->runs, lab->runs + 1, sizeof lab->runs[0] * (PL_LAB_MAX_RUNS - 1));
        lab->nruns--;
    }
    PlLabRun *r = &lab->runs[lab->nruns++];
    memset(r, 0, sizeof *r);
    r->id = lab->next_run_id++;
    r->settings = *s;
    r->settings.seed = seed;
    r->epochs = res->epochs_done;
    memcpy(r->val_acc, res->val_acc, sizeof r->val_acc);
    memcpy(r->train_loss, res->train_loss, sizeof r->train_loss);
    r->best_val_acc = res->best_val_acc;
    r->seconds = res->seconds;
    r->grid = grid;
    r->chance = lab->chance; /* the lab trains on its corpus */
    r->batches = res->batches;
}

static int cmp_float(const void *a, const void *b) {
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* The group of runs that trained settings s, over every seed. */
static int group_of(const PlLab *lab, const PlLabSettings *s, PlLabGroup *g) {
    float acc[PL_LAB_MAX_RUNS];
    memset(g, 0, sizeof *g);
    g->settings = *s;
    g->ch = lab->chance;
    for (int i = 0; i < lab->nruns; i++) {
        const PlLabRun *r = &lab->runs[i];
        if (!pl_lab_same_setting(&r->settings, s)) continue;
        if (!g->n || r->settings.seed < g->settings.seed) g->settings.seed = r->settings.seed;
        if (r->chance.n_val > 0) g->ch = r->chance; /* its corpus's, not the lab's now */
        acc[g->n++] = r->best_val_acc;
        g->memorised += pl_lab_run_memorised(r, &g->ch);
        g->at_chance += pl_chance_verdict(&g->ch, (double)r->best_val_acc) != PL_ABOVE_CHANCE;
        g->seconds += r->seconds;
        g->last_id = r->id;
    }
    g->chance = (float)g->ch.share;
    if (!g->n) return 0;
    qsort(acc, (size_t)g->n, sizeof acc[0], cmp_float);
    g->min = acc[0], g->max = acc[g->n - 1];
    g->median = g->n % 2 ? acc[g->n / 2] : 0.5f * (acc[g->n / 2 - 1] + acc[g->n / 2]);
    g->seconds /= g->n;
    return 1;
}

int pl_lab_group_of(const PlLab *lab, const PlLabSettings *s, PlLabGroup *out) { return group_of(lab, s, out); }

static int cmp_median(const void *a, const void *b) {
    float x = ((const PlLabGroup *)a)->median, y = ((const PlLabGroup *)b)->median;
    return (x < y) - (x > y);
}

static int cmp_time(const void *a, const void *b) {
    double x = ((const PlLabGroup *)a)->seconds, y = ((const PlLabGroup *)b)->seconds;
    return (x > y) - (x < y);
}

int pl_lab_groups(const PlLab *lab, PlLabGroup *out, int max) {
    int n = 0;
    for (int i = 0; i < lab->nruns && n < max; i++) {
        int seen = 0;
        for (int k = 0; k < n && !seen; k++) seen = pl_lab_same_setting(&out[k].settings, &lab->runs[i].settings);
        if (!seen) group_of(lab, &lab->runs[i].settings, &out[n++]);
    }
    if (lab->sort == 1) qsort(out, (size_t)n, sizeof *out, cmp_median);
    if (lab->sort == 2) qsort(out, (size_t)n, sizeof *out, cmp_time);
    return n;
}

const PlLabRun *pl_lab_runs(const PlLab *lab, int *n) {
    *n = lab->nruns;
    return lab->runs;
}

/* ---- a retrain over the seeds ---- */

void pl_lab_train_start(PlLab *lab) {
    retire(lab, lab->job);
    lab->job = NULL;
    int k = lab->s.seeds < 1 ? 1 : lab->s.seeds;
    free(lab->job_runs);
    lab->job_runs = calloc((size_t)k, sizeof *lab->job_runs);
    PlErr err = {0};
    if (lab->job_runs) {
        for (int i = 0; i < k; i++) lab->job_runs[i].cfg = train_config(&lab->s, lab->s.seed + i, lab->longest);
        lab->job = pl_job_start(lab->corpus, lab->job_runs, k, pl_app_cores(), lab->clock, lab->clock_ctx, &err);
    } else {
        pl_err_set(&err, PL_ENOMEM, "out of memory starting a retrain");
    }
    if (lab->grid_job && lab->tr.paused) pl_job_pause(lab->grid_job, 0); /* one pause for everything */
    memset(&lab->tr.job, 0, sizeof lab->tr.job);
    lab->tr.settings = lab->s;
    lab->tr.n = k;
    lab->tr.active = lab->job != NULL;
    lab->tr.paused = 0;
    lab->tr.eta = 0.0;
    lab->tr.failed[0] = 0;
    if (lab->job) snprintf(lab->tr.status, sizeof lab->tr.status, "retraining %d seed%s", k, k > 1 ? "s" : "");
    else snprintf(lab->tr.status, sizeof lab->tr.status, "not trained: %.170s", err.msg);
    if (!lab->job) snprintf(lab->tr.failed, sizeof lab->tr.failed, "%.190s", err.msg);
}

void pl_lab_retrain_cancel(PlLab *lab, const char *why) {
    if (!lab->job) return;
    retire(lab, lab->job);
    lab->job = NULL;
    lab->tr.active = lab->tr.paused = 0;
    snprintf(lab->tr.status, sizeof lab->tr.status, "%.190s", why);
}

static double eta_of(const PlJobView *v) {
    return v->fraction > 0.0 ? v->active_seconds * (1.0 - v->fraction) / v->fraction : 0.0;
}

const char *pl_lab_chance_text(const PlLab *lab, char *buf, int cap) {
    snprintf(buf, (size_t)cap, "chance %.3f (always %s)", lab->chance.share, pl_label_name(lab->chance.label));
    return buf;
}

const char *pl_lab_group_corpus(const PlLab *lab, const PlLabGroup *g, char *buf, int cap) {
    buf[0] = '\0';
    if (strcmp(g->settings.corpus, lab->s.corpus) != 0)
        snprintf(buf, (size_t)cap, " on %.40s%s (its chance %.3f)", g->settings.corpus,
                 strlen(g->settings.corpus) > 40 ? "..." : "", g->ch.share);
    return buf;
}

PlChanceVerdict pl_lab_group_verdict(const PlLab *lab, const PlLabGroup *g) {
    return pl_chance_verdict(g->ch.n_val > 0 ? &g->ch : &lab->chance, (double)g->median);
}

/* "trained 3 seeds: median accuracy 0.753 (0.581-0.809), chance 0.512 (always
 * positive)": what this retrain added, and the setting's spread over every
 * seed it has, against chance. */
static void say_result(PlLab *lab) {
    PlLabGroup g;
    group_of(lab, &lab->tr.settings, &g);
    int n = lab->tr.n, off;
    char *st = lab->tr.status;
    size_t cap = sizeof lab->tr.status;
    char med[96], lo[96], hi[96];
    pl_fig(med, sizeof med, "train.median", "%.3f", (double)g.median);
    pl_fig(lo, sizeof lo, "train.min", "%.3f", (double)g.min);
    pl_fig(hi, sizeof hi, "train.max", "%.3f", (double)g.max);
    if (g.n == 1) off = snprintf(st, cap, "trained 1 seed: accuracy %s", med);
    else if (g.n == n) off = snprintf(st, cap, "trained %d seeds: median accuracy %s (%s-%s)", n, med, lo, hi);
    else
        off = snprintf(st, cap, "trained %d more seed%s: over its %d seeds, median %s (%s-%s)", n, n > 1 ? "s" : "",
                       g.n, med, lo, hi);
    int n_val = lab->chance.n_val;
    if (n_val < PL_LAB_FEW_VAL) /* a lesson's hand-made corpus: no verdict can be drawn */
        off += snprintf(st + off, cap - (size_t)off, ", judged on only %d review%s", n_val, n_val == 1 ? "" : "s");
    else /* the verdict follows the median: marked with it, in one sentence whatever it says (ledger.c hides
          * each verdict in the same shape) */
        off += snprintf(st + off, cap - (size_t)off, ", %s (always %s: %.3f)",
                        PL_FIG("train.median", "%s", pl_chance_verdict_name(pl_lab_group_verdict(lab, &g))),
                        pl_label_name(lab->chance.label), lab->chance.share);
    if (g.memorised && off > 0 && (size_t)off < cap)
        snprintf(st + off, cap - (size_t)off, "%s", PL_FIG("train.memorised", ", %d memorised", g.memorised));
}

static void finish_retrain(PlLab *lab, PlJobState state) {
    PlModel *m = NULL;
    PlErr err = {0};
    PlStatus st = pl_job_finish(lab->job, lab->job_runs, &m, &err);
    int first_id = lab->next_run_id;
    if (st == PL_OK) {
        for (int i = 0; i < lab->tr.n; i++)
            record_run(lab, &lab->tr.settings, lab->tr.settings.seed + i, &lab->job_runs[i].res, 0);
        pl_lab_set_weights(lab, m, first_id, lab->tr.settings.seed);
        m = NULL;
        lab->tr.trained = 1;
        say_result(lab);
        lab->events |= PL_TRAINED_RUNS;
    } else {
        snprintf(lab->tr.status, sizeof lab->tr.status, "%.190s",
                 state == PL_JOB_CANCELED ? "training canceled" : err.msg);
        snprintf(lab->tr.failed, sizeof lab->tr.failed, "%.190s",
                 state == PL_JOB_CANCELED ? "training canceled" : err.msg);
    }
    pl_model_free(m);
    pl_job_free(lab->job);
    lab->job = NULL;
    lab->tr.active = lab->tr.paused = 0;
}

/* ---- the padding x mask grid ---- */

static const struct { int padding, mask; } grid_cells[4] = {{PL_PRE, 0}, {PL_PRE, 1}, {PL_POST, 0}, {PL_POST, 1}};

int pl_lab_grid_start(PlLab *lab) {
    if (lab->grid_job) { /* g again stops it */
        retire(lab, lab->grid_job);
        lab->grid_job = NULL;
        lab->grid.active = 0;
        snprintf(lab->grid.status, sizeof lab->grid.status, "the grid was stopped");
        return PL_LAB_HOT;
    }
    int k = lab->s.seeds < 1 ? 1 : lab->s.seeds, n = 4 * k;
    free(lab->grid_runs);
    lab->grid_runs = calloc((size_t)n, sizeof *lab->grid_runs);
    memset(&lab->grid, 0, sizeof lab->grid);
    lab->grid.base = lab->s;
    lab->grid.seeds = k;
    lab->grid.total = n;
    PlErr err = {0};
    if (lab->grid_runs) {
        for (int c = 0; c < 4; c++)
            for (int i = 0; i < k; i++) {
                PlLabSettings s = lab->s;
                s.padding = grid_cells[c].padding, s.mask = grid_cells[c].mask;
                lab->grid_runs[c * k + i].cfg = train_config(&s, s.seed + i, lab->longest);
            }
        lab->grid_job = pl_job_start(lab->corpus, lab->grid_runs, n, pl_app_cores(), lab->clock, lab->clock_ctx, &err);
    } else {
        pl_err_set(&err, PL_ENOMEM, "out of memory starting the grid");
    }
    lab->grid.active = lab->grid_job != NULL;
    if (lab->grid_job)
        snprintf(lab->grid.status, sizeof lab->grid.status, "the grid: %s, 2 x 2 x %d seed%s",
                 pl_arch_name((PlArch)lab->s.model), k, k > 1 ? "s" : "");
    else snprintf(lab->grid.status, sizeof lab->grid.status, "%.190s", err.msg);
    return PL_LAB_HOT;
}

static void finish_grid(PlLab *lab, PlJobState state) {
    PlErr err = {0};
    PlStatus st = pl_job_finish(lab->grid_job, lab->grid_runs, NULL, &err);
    int k = lab->grid.seeds;
    if (st == PL_OK) {
        for (int c = 0; c < 4; c++) {
            PlLabSettings s = lab->grid.base;
            s.padding = grid_cells[c].padding, s.mask = grid_cells[c].mask;
            for (int i = 0; i < k; i++) record_run(lab, &s, s.seed + i, &lab->grid_runs[c * k + i].res, 1);
        }
        lab->grid.done = 1;
        snprintf(lab->grid.status, sizeof lab->grid.status, "the grid is done: %d runs", 4 * k);
        if (!lab->tr.trained) /* the status line must not still say nothing was trained */
            snprintf(lab->tr.status, sizeof lab->tr.status, "the grid trained %d runs: the train view (7) shows them",
                     4 * k);
        lab->events |= PL_TRAINED_GRID;
    } else {
        snprintf(lab->grid.status, sizeof lab->grid.status, "%.190s",
                 state == PL_JOB_CANCELED ? "the grid was stopped" : err.msg);
    }
    pl_job_free(lab->grid_job);
    lab->grid_job = NULL;
    lab->grid.active = 0;
}

/* The largest difference of validation accuracy over the epochs between
 * the latest runs of a and b with the same seed; -1 when one is missing. */
static float drift(const PlLab *lab, const PlLabSettings *a, const PlLabSettings *b, int seed) {
    const PlLabRun *ra = NULL, *rb = NULL;
    for (int i = 0; i < lab->nruns; i++) {
        const PlLabRun *r = &lab->runs[i];
        if (r->settings.seed != seed) continue;
        if (pl_lab_same_setting(&r->settings, a)) ra = r;
        if (pl_lab_same_setting(&r->settings, b)) rb = r;
    }
    if (!ra || !rb) return -1.0f;
    float d = 0.0f;
    for (int e = 0; e < ra->epochs && e < rb->epochs; e++) d = fmaxf(d, fabsf(ra->val_acc[e] - rb->val_acc[e]));
    return d;
}

PlLabGrid pl_lab_grid(PlLab *lab) {
    PlLabGrid g = lab->grid;
    if (!g.total) return g;
    g.ncells = 0;
    for (int c = 0; c < 4; c++) {
        PlLabSettings s = g.base;
        s.padding = grid_cells[c].padding, s.mask = grid_cells[c].mask;
        if (group_of(lab, &s, &g.cells[g.ncells])) g.ncells++;
    }
    PlLabSettings pre = g.base, post = g.base;
    pre.padding = PL_PRE, post.padding = PL_POST, pre.mask = post.mask = 1;
    g.ndrift = 0;
    for (int i = 0; i < g.seeds && i < PL_MAX_SEEDS; i++) {
        float d = drift(lab, &pre, &post, g.base.seed + i);
        if (d >= 0.0f) g.drift[g.ndrift] = d, g.drift_seed[g.ndrift++] = g.base.seed + i;
    }
    return g;
}

/* ---- the status line ---- */

void pl_lab_set_ledger(PlLab *lab, const PlLedger *l) {
    if (l) lab->ledger = *l;
    else memset(&lab->ledger, 0, sizeof lab->ledger);
}

const PlLedger *pl_lab_ledger(const PlLab *lab) { return pl_ledger_empty(&lab->ledger) ? NULL : &lab->ledger; }

void pl_lab_clear_reading(PlLab *lab) { lab->nreading = 0; }

void pl_lab_add_reading(PlLab *lab, const char *name) {
    if (lab->nreading < PL_LAB_READING && strlen(name) < PL_FIG_NAME)
        memcpy(lab->reading[lab->nreading++], name, strlen(name) + 1);
}

int pl_lab_reads(const PlLab *lab, const char *prefix) {
    for (int i = 0; i < lab->nreading; i++)
        if (strncmp(lab->reading[i], prefix, strlen(prefix)) == 0) return 1;
    return 0;
}

const char *pl_lab_status_text(const PlLab *lab, char *buf, int cap) {
    const PlLabTraining *t = &lab->tr;
    if (!t->active && !lab->grid.active && lab->ledger.training && lab->nruns)
        snprintf(buf, (size_t)cap, "trained: the runs asked about stay hidden until you answer the question");
    else if (t->active)
        snprintf(buf, (size_t)cap, "%s %d seed%s: %.0f%%, ETA %.1f s   (* = cold: a change retrains)",
                 t->paused ? "paused:" : "training", t->n, t->n > 1 ? "s" : "", 100.0 * t->job.fraction, t->eta);
    else if (lab->grid.active)
        snprintf(buf, (size_t)cap, "%s: %d of %d runs done, ETA %.0f s", lab->grid.status, lab->grid.finished,
                 lab->grid.total, lab->grid.eta);
    else snprintf(buf, (size_t)cap, "%s", t->status);
    return buf;
}

/* ---- polling and pausing ---- */

int pl_lab_train_tick(PlLab *lab) {
    int changed = 0;
    reap(lab);
    if (lab->job) {
        PlJobState st = pl_job_poll(lab->job, &lab->tr.job);
        lab->tr.eta = eta_of(&lab->tr.job);
        if (st != PL_JOB_RUNNING) finish_retrain(lab, st);
        changed = 1;
    }
    if (lab->grid_job) {
        PlJobView v;
        PlJobState st = pl_job_poll(lab->grid_job, &v);
        lab->grid.finished = v.ended;
        lab->grid.eta = eta_of(&v);
        if (st != PL_JOB_RUNNING) finish_grid(lab, st);
        changed = 1;
    }
    return changed;
}

int pl_lab_pause_toggle(PlLab *lab) {
    if (!lab->job && !lab->grid_job) return 0;
    lab->tr.paused = !lab->tr.paused;
    if (lab->job) pl_job_pause(lab->job, lab->tr.paused);
    if (lab->grid_job) pl_job_pause(lab->grid_job, lab->tr.paused);
    snprintf(lab->tr.status, sizeof lab->tr.status, "%s",
             lab->tr.paused ? "training paused (space resumes)" : "training resumed");
    return PL_LAB_HOT;
}

void pl_lab_clock(PlLab *lab, PlRunsClockFn clock, void *ctx) { lab->clock = clock, lab->clock_ctx = ctx; }
