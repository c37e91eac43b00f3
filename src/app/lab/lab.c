/* The lab's settings and commands: every change goes through pl_lab_apply,
 * which keeps the undo stack, swaps the corpus when it changes, asks the
 * result worker for what the change touched and retrains on a cold change. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/corpus_load.h"
#include "lab_internal.h"

const PlLabSettings *pl_lab_settings(const PlLab *lab) { return &lab->s; }
const PlCorpus *pl_lab_corpus(const PlLab *lab) { return lab->corpus; }
const PlChance *pl_lab_chance(const PlLab *lab) { return &lab->chance; }
int pl_lab_longest(const PlLab *lab) { return lab->longest; }

void pl_lab_notice(PlLab *lab, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(lab->notice, sizeof lab->notice, fmt, ap);
    va_end(ap);
    lab->has_notice = 1;
}

int pl_lab_take_notice(PlLab *lab, char *buf, int cap) {
    if (!lab->has_notice) return 0;
    snprintf(buf, (size_t)cap, "%s", lab->notice);
    lab->has_notice = 0;
    return 1;
}

unsigned pl_lab_take_changes(PlLab *lab) {
    unsigned c = lab->changes;
    lab->changes = 0;
    return c;
}

/* The example a corpus can show: auto resolves, and a row past the end
 * falls back to the automatic choice. */
static int resolve_example(const PlCorpus *c, int example, int maxlen) {
    if (example >= 0 && example < c->n) return example;
    return pl_probe_auto_example(c, pl_maxlen_of(maxlen, pl_corpus_longest(c)));
}

int pl_lab_example_of(const PlLab *lab, const PlLabSettings *s) {
    if (strcmp(s->corpus, lab->s.corpus) != 0) return s->example;
    return resolve_example(lab->corpus, s->example, s->maxlen);
}

static PlStatus load_corpus(const char *name, PlCorpus **c, int **lens, PlErr *err) {
    PlStatus st = pl_corpus_load(name, NULL, c, err);
    if (st) return st;
    *lens = malloc(((size_t)(*c)->n + 1) * sizeof **lens);
    if (!*lens) {
        pl_corpus_free(*c);
        *c = NULL;
        return pl_err_set(err, PL_ENOMEM, "out of memory for the lab");
    }
    pl_corpus_lengths(*c, *lens);
    return PL_OK;
}

PlLab *pl_lab_new(const PlLabSettings *s, PlErr *err) {
    PlLab *lab = calloc(1, sizeof *lab);
    PlLabRun *runs = calloc(PL_LAB_MAX_RUNS, sizeof *runs);
    if (!lab || !runs) {
        free(lab), free(runs);
        pl_err_set(err, PL_ENOMEM, "out of memory for the lab");
        return NULL;
    }
    lab->runs = runs;
    lab->next_run_id = 1;
    lab->s = *s;
    pthread_mutex_init(&lab->lock, NULL);
    pthread_cond_init(&lab->wake, NULL);
    pthread_cond_init(&lab->done, NULL);
    if (load_corpus(s->corpus, &lab->corpus, &lab->lens, err) || pl_lab_results_start(lab, err)) {
        pl_lab_free(lab);
        return NULL;
    }
    lab->chance = pl_chance_of(lab->corpus, PL_VAL_SPLIT);
    lab->longest = pl_corpus_longest(lab->corpus);
    lab->s.example = resolve_example(lab->corpus, s->example, s->maxlen);
    snprintf(lab->tr.status, sizeof lab->tr.status, "no model trained yet: r trains one");
    pl_lab_results_want(lab);
    return lab;
}

int pl_lab_close(PlLab *lab, double patience) {
    if (!lab) return 0;
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    time_t whole = (time_t)patience;
    deadline.tv_sec += whole;
    deadline.tv_nsec += (long)((patience - (double)whole) * 1e9);
    if (deadline.tv_nsec >= 1000000000L) deadline.tv_sec++, deadline.tv_nsec -= 1000000000L;
    /* both asked before either is waited for */
    int stuck = pl_lab_train_stop_by(lab, &deadline) | pl_lab_results_stop_by(lab, &deadline);
    if (stuck) return -1;
    pl_lab_free(lab);
    return 0;
}

void pl_lab_free(PlLab *lab) {
    if (!lab) return;
    pl_lab_train_stop(lab);
    pl_lab_results_stop(lab);
    pl_lab_results_drop(lab);
    pl_lab_set_weights(lab, NULL, 0, 0);
    pthread_mutex_destroy(&lab->lock);
    pthread_cond_destroy(&lab->wake);
    pthread_cond_destroy(&lab->done);
    pl_corpus_free(lab->corpus);
    free(lab->lens);
    free(lab->runs);
    free(lab->autosave);
    free(lab);
}

/* A new corpus: nothing that read the old one may go on. */
static int swap_corpus(PlLab *lab, const char *name, PlErr *err) {
    PlCorpus *c;
    int *lens;
    if (load_corpus(name, &c, &lens, err)) return -1;
    pl_lab_train_stop(lab);
    pl_lab_results_hold(lab, 1);
    pl_lab_results_drop(lab);
    pl_lab_set_weights(lab, NULL, 0, 0);
    pl_corpus_free(lab->corpus);
    free(lab->lens);
    lab->corpus = c, lab->lens = lens, lab->longest = pl_corpus_longest(c);
    lab->chance = pl_chance_of(c, PL_VAL_SPLIT);
    lab->nbatches_memo = 0; /* its digests were of the old corpus's batches */
    pl_lab_results_hold(lab, 0);
    return 0;
}

static int apply(PlLab *lab, const PlLabSettings *want, int undoable, PlErr *err) {
    PlLabSettings next = *want;
    unsigned diff = pl_settings_diff(&lab->s, &next);
    if ((diff & PL_S_BIT(PL_S_CORPUS)) && swap_corpus(lab, next.corpus, err)) return -1;
    next.example = resolve_example(lab->corpus, next.example, next.maxlen);
    diff = pl_settings_diff(&lab->s, &next);
    if (!diff) return 0;
    if (undoable && diff != PL_S_BIT(PL_S_VIEW)) {
        if (lab->nundo == PL_UNDO_DEPTH)
            memmove(lab->undo, lab->undo + 1, sizeof lab->undo[0] * (PL_UNDO_DEPTH - 1)), lab->nundo--;
        lab->undo[lab->nundo++] = lab->s;
    }
    lab->s = next;
    lab->changes |= diff;
    pl_lab_results_want(lab);
    if (!(diff & pl_settings_cold_mask())) return PL_LAB_HOT;
    if (!lab->no_autotrain) pl_lab_train_start(lab);
    return PL_LAB_COLD;
}

int pl_lab_apply(PlLab *lab, const PlLabSettings *next, PlErr *err) { return apply(lab, next, 1, err); }

void pl_lab_autotrain(PlLab *lab, int on) { lab->no_autotrain = !on; }

void pl_lab_lock(PlLab *lab, unsigned bits) { lab->locked = bits & ~PL_S_BIT(PL_S_VIEW); }
unsigned pl_lab_locked(const PlLab *lab) { return lab->locked; }

/* A learner's change of a locked setting: said, and refused. */
static int refused(PlLab *lab, unsigned bits) {
    if (!(bits & lab->locked)) return 0;
    for (int id = 0; id < PL_S_COUNT; id++)
        if (bits & lab->locked & PL_S_BIT(id)) {
            pl_lab_notice(lab, "%s is locked by the lesson", pl_settings[id].name);
            break;
        }
    return 1;
}

int pl_lab_step(PlLab *lab, PlSettingId id, int dir) {
    if (refused(lab, PL_S_BIT(id))) return 0;
    PlLabSettings next = lab->s;
    if (id == PL_S_EXAMPLE) {
        int n = lab->corpus->n;
        next.example = ((lab->s.example + (dir > 0 ? 1 : -1)) % n + n) % n;
    } else if (pl_settings[id].type == PL_ST_TEXT || pl_setting_set(&next, id, pl_setting_step(&lab->s, id, dir))) {
        return 0;
    }
    return apply(lab, &next, 1, NULL);
}

int pl_lab_set(PlLab *lab, PlSettingId id, const char *text, PlErr *err) {
    PlLabSettings next = lab->s;
    char want[160];
    if (pl_setting_parse(&next, id, text, want, sizeof want))
        return pl_err_set(err, PL_EINPUT, "%s must be %s, got '%.60s'", pl_settings[id].name, want, text), -1;
    if (id == PL_S_EXAMPLE && next.example >= lab->corpus->n)
        return pl_err_set(err, PL_ERANGE, "example must be below %d (the corpus's reviews), got %d", lab->corpus->n,
                          next.example),
               -1;
    return apply(lab, &next, 1, err);
}

static int undo(PlLab *lab) {
    if (!lab->nundo) return 0;
    PlLabSettings prev = lab->undo[lab->nundo - 1];
    prev.view = lab->s.view; /* undo changes settings, not what is on screen */
    if (refused(lab, pl_settings_diff(&lab->s, &prev))) return 0;
    lab->nundo--;
    PlErr err;
    int what = apply(lab, &prev, 0, &err);
    if (what < 0) pl_lab_notice(lab, "cannot undo: %s", err.msg);
    return what < 0 ? 0 : what;
}

static int reset(PlLab *lab) {
    PlLabSettings d = pl_settings_default();
    snprintf(d.corpus, sizeof d.corpus, "%s", lab->s.corpus);
    d.view = lab->s.view;
    PlSettingsPatch locked = {.mask = lab->locked, .values = lab->s}; /* a locked setting keeps its value */
    pl_settings_patch_apply(&d, &locked);
    return apply(lab, &d, 1, NULL);
}

static int sort_runs(PlLab *lab) {
    lab->sort = (lab->sort + 1) % 3;
    return PL_LAB_HOT;
}

int pl_lab_command(PlLab *lab, PlCommand c) {
    switch (c) {
    case PL_CMD_RUN: pl_lab_train_start(lab); return PL_LAB_COLD;
    case PL_CMD_PAUSE: return pl_lab_pause_toggle(lab);
    case PL_CMD_GRID: return pl_lab_grid_start(lab);
    case PL_CMD_SORT_RUNS: return sort_runs(lab);
    case PL_CMD_UNDO: return undo(lab);
    case PL_CMD_RESET: return reset(lab);
    default: return 0;
    }
}

void pl_lab_autosave(PlLab *lab, const char *path) {
    free(lab->autosave);
    lab->autosave = path ? strdup(path) : NULL;
}

/* What the trainer reported in a tick: the notices it calls for, and a save
 * of the session when runs were recorded. */
static void trainer_events(PlLab *lab) {
    unsigned ev = lab->events;
    lab->events = 0;
    if (ev & PL_TRAINED_GRID) pl_lab_notice(lab, "the padding x mask grid is done (train view)");
    PlErr err;
    if (ev && lab->autosave && pl_lab_save_session(lab, lab->autosave, &err))
        pl_lab_notice(lab, "the session was not saved: %s", err.msg);
}

int pl_lab_tick(PlLab *lab) {
    int changed = pl_lab_results_take(lab);
    changed |= pl_lab_train_tick(lab);
    trainer_events(lab);
    return changed;
}

int pl_lab_runs_sort(const PlLab *lab) { return lab->sort; }
