/* The lab's results, computed on a worker thread (the kinds of result and
 * how each is computed are in results.c).
 *
 * Each kind of result has a slot. The UI thread says what each slot should
 * hold (its wanted key: the settings the result depends on and the weights
 * it reads) and takes finished results; the worker computes, one result at
 * a time, the slot that was asked for most recently and is out of date.
 * A result the UI holds is freed only by the UI thread, so a view's result
 * never changes under it while it draws. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/assert.h"
#include "lab_internal.h"

/* ---- keys ---- */

/* The key of kind k under settings s and the weights w; lock held. */
static PlResultKey key_of(PlResultKind k, const PlLabSettings *s, const PlWeights *w) {
    PlResultKey key;
    memset(&key, 0, sizeof key);
    key.s = pl_settings_default();
    for (int id = 0; id < PL_S_COUNT; id++) {
        if (!(pl_result_deps(k) & PL_S_BIT(id))) continue;
        if (pl_settings[id].type == PL_ST_TEXT) memcpy(key.s.corpus, s->corpus, sizeof key.s.corpus);
        else pl_setting_set(&key.s, (PlSettingId)id, pl_setting_get(s, (PlSettingId)id));
    }
    if (w && pl_result_reads(k, s, w->model)) key.weights_run = w->run_id;
    key.full = *s;
    key.valid = 1;
    return key;
}

static int same_key(const PlResultKey *a, const PlResultKey *b) {
    return a->valid == b->valid && a->weights_run == b->weights_run && pl_settings_diff(&a->s, &b->s) == 0;
}

/* What the slot will hold once the incoming result is taken. */
static const PlResultKey *latest_key(const PlSlot *slot) { return slot->has_incoming ? &slot->in_key : &slot->key; }

static void weights_release(PlLab *lab, PlWeights *w) {
    (void)lab;
    if (w && --w->refs == 0) {
        pl_model_free(w->model);
        free(w);
    }
}

void pl_lab_results_want(PlLab *lab) {
    pthread_mutex_lock(&lab->lock);
    for (int k = 0; k < PL_R_COUNT; k++) lab->slots[k].want = key_of((PlResultKind)k, &lab->s, lab->weights);
    lab->gen++;
    pthread_cond_broadcast(&lab->wake);
    pthread_mutex_unlock(&lab->lock);
}

/* Names the lab's trained model w in info when the result does not read it,
 * so that its header says why its weights are fresh; clears it otherwise.
 * The result's numbers do not depend on that model, so a new one changes
 * only this note. */
static void note_unread(PlResultInfo *info, const PlWeights *w) {
    int unread = w && !info->weights_run && pl_result_lacks(info->kind) &&
                 !pl_result_reads(info->kind, &info->settings, w->model);
    info->unread_run = unread ? w->run_id : 0;
    info->unread_seed = unread ? w->seed : 0;
    info->unread_arch = unread ? (int)pl_model_config(w->model)->arch : 0;
}

void pl_lab_set_weights(PlLab *lab, PlModel *m, int run_id, int seed) {
    PlWeights *w = NULL;
    if (m && (w = calloc(1, sizeof *w))) *w = (PlWeights){m, 1, run_id, seed};
    else pl_model_free(m);
    pthread_mutex_lock(&lab->lock);
    weights_release(lab, lab->weights);
    lab->weights = w;
    for (int k = 0; k < PL_R_COUNT; k++) note_unread(&lab->slots[k].info, w);
    pthread_mutex_unlock(&lab->lock);
    if (lab->worker_started) pl_lab_results_want(lab);
}

/* ---- what a well-kept cache looks like ---- */

/* Slot k's own invariants: a result it holds is of kind k and has a key;
 * a failed one holds none; an incoming result is there exactly when it
 * did not fail; it was asked for in no generation to come. */
static int slot_is_consistent(const PlLab *lab, int k) {
    const PlSlot *slot = &lab->slots[k];
    if (slot->data && (slot->failed || !slot->key.valid || slot->info.kind != (PlResultKind)k)) return 0;
    if (!slot->has_incoming) return slot->incoming == NULL && slot->demand <= lab->gen;
    if (!slot->in_key.valid || slot->in_info.kind != (PlResultKind)k) return 0;
    if ((slot->incoming == NULL) != (slot->in_failed != 0)) return 0;
    return slot->demand <= lab->gen;
}

/* The whole cache; lock held. The one worker computes one slot at a time:
 * at most one is busy, and one is while the worker says it computes. */
static int cache_is_consistent(const PlLab *lab) {
    int busy = 0;
    for (int k = 0; k < PL_R_COUNT; k++) {
        if (!slot_is_consistent(lab, k)) return 0;
        busy += lab->slots[k].busy != 0;
    }
    if (busy != (lab->computing != 0)) return 0;
    if (lab->asked >> PL_R_COUNT || lab->drew >> PL_VIEW_PART_COUNT) return 0;
    return !lab->weights || lab->weights->refs >= 1;
}

int pl_lab_cache_is_consistent(PlLab *lab) {
    pthread_mutex_lock(&lab->lock);
    int ok = cache_is_consistent(lab);
    pthread_mutex_unlock(&lab->lock);
    return ok;
}

/* ---- the worker ---- */

/* The slot to compute next, or -1; lock held. Only results asked for since
 * the change before the last count: one that no view has drawn for a while
 * is not worth the worker's time. */
static int next_job(const PlLab *lab) {
    int best = -1;
    for (int k = 0; k < PL_R_COUNT; k++) {
        const PlSlot *slot = &lab->slots[k];
        if (slot->busy || slot->demand == 0 || slot->demand < lab->gen - 1) continue;
        if (same_key(latest_key(slot), &slot->want)) continue;
        if (best < 0 || slot->demand > lab->slots[best].demand) best = k;
    }
    return best;
}

static PlStatus compute(PlLab *lab, PlResultKind k, const PlResultKey *key, const PlWeights *w, void **out,
                        PlResultInfo *info, PlErr *err) {
    const PlModel *m = key->weights_run && w ? w->model : NULL;
    PlStatus st = pl_result_compute(lab->corpus, lab->lens, k, &key->full, NULL, m, out, info, err);
    if (m) {
        info->weights_run = w->run_id;
        info->weights_seed = w->seed;
        info->weights_arch = pl_model_config(m)->arch;
    }
    return st;
}

/* Hands a finished computation to its slot; lock held. */
static void deliver(PlLab *lab, PlResultKind k, const PlResultKey *key, void *out, const PlResultInfo *info,
                    PlStatus st, const PlErr *err) {
    PlSlot *slot = &lab->slots[k];
    if (slot->has_incoming) pl_result_free(k, slot->incoming);
    slot->incoming = st ? NULL : out;
    slot->in_key = *key;
    slot->in_info = *info;
    slot->in_failed = st != PL_OK;
    snprintf(slot->in_error, sizeof slot->in_error, "%.250s", st ? err->msg : "");
    slot->has_incoming = 1;
    slot->busy = 0;
}

static void *worker_main(void *arg) {
    PlLab *lab = arg;
    pthread_mutex_lock(&lab->lock);
    for (;;) {
        int k = -1;
        while (!lab->quit && (lab->hold || (k = next_job(lab)) < 0)) pthread_cond_wait(&lab->wake, &lab->lock);
        if (lab->quit) break;
        PlSlot *slot = &lab->slots[k];
        PlResultKey key = slot->want;
        PlWeights *w = key.weights_run ? lab->weights : NULL;
        if (w) w->refs++;
        slot->busy = 1;
        lab->computing = 1;
        pthread_mutex_unlock(&lab->lock);
        PlErr err = {0};
        PlResultInfo info;
        void *out = NULL;
        PlStatus st = compute(lab, (PlResultKind)k, &key, w, &out, &info, &err);
        pthread_mutex_lock(&lab->lock);
        weights_release(lab, w);
        deliver(lab, (PlResultKind)k, &key, out, &info, st, &err);
        lab->computing = 0;
        pl_assert(cache_is_consistent(lab)); /* handed over: the UI takes it next */
        pthread_cond_broadcast(&lab->done);
    }
    pthread_mutex_unlock(&lab->lock);
    return NULL;
}

int pl_lab_results_start(PlLab *lab, PlErr *err) {
    if (pthread_create(&lab->worker, NULL, worker_main, lab) != 0)
        return pl_err_set(err, PL_ENOMEM, "cannot start the lab's worker thread"), -1;
    lab->worker_started = 1;
    return 0;
}

void pl_lab_results_stop(PlLab *lab) {
    if (!lab->worker_started) return;
    pthread_mutex_lock(&lab->lock);
    lab->quit = 1;
    pthread_cond_broadcast(&lab->wake);
    pthread_mutex_unlock(&lab->lock);
    pthread_join(lab->worker, NULL);
    lab->worker_started = 0;
}

int pl_lab_results_stop_by(PlLab *lab, const struct timespec *deadline) {
    if (!lab->worker_started) return 0;
    if (pthread_mutex_timedlock(&lab->lock, deadline) != 0) return -1;
    lab->quit = 1;
    pthread_cond_broadcast(&lab->wake);
    int rc = 0;
    while (lab->computing && rc == 0) rc = pthread_cond_timedwait(&lab->done, &lab->lock, deadline);
    int idle = !lab->computing;
    pthread_mutex_unlock(&lab->lock);
    if (!idle) return -1;
    pl_lab_results_stop(lab); /* between results, with quit set: it leaves at once */
    return 0;
}

void pl_lab_results_hold(PlLab *lab, int hold) {
    pthread_mutex_lock(&lab->lock);
    lab->hold = hold;
    while (hold && lab->computing) pthread_cond_wait(&lab->done, &lab->lock);
    pthread_cond_broadcast(&lab->wake);
    pthread_mutex_unlock(&lab->lock);
}

void pl_lab_results_drop(PlLab *lab) {
    pthread_mutex_lock(&lab->lock);
    for (int k = 0; k < PL_R_COUNT; k++) {
        PlSlot *slot = &lab->slots[k];
        pl_result_free((PlResultKind)k, slot->data);
        if (slot->has_incoming) pl_result_free((PlResultKind)k, slot->incoming);
        PlResultKey want = slot->want;
        long demand = slot->demand;
        memset(slot, 0, sizeof *slot);
        slot->want = want, slot->demand = demand;
    }
    pl_assert(cache_is_consistent(lab));
    pthread_mutex_unlock(&lab->lock);
}

int pl_lab_results_take(PlLab *lab) {
    int changed = 0;
    pthread_mutex_lock(&lab->lock);
    for (int k = 0; k < PL_R_COUNT; k++) {
        PlSlot *slot = &lab->slots[k];
        if (!slot->has_incoming) continue;
        pl_result_free((PlResultKind)k, slot->data);
        slot->data = slot->incoming;
        slot->key = slot->in_key;
        slot->info = slot->in_info;
        note_unread(&slot->info, lab->weights);
        slot->failed = slot->in_failed;
        memcpy(slot->error, slot->in_error, sizeof slot->error);
        slot->incoming = NULL;
        slot->has_incoming = 0;
        changed = 1;
    }
    pl_assert(cache_is_consistent(lab)); /* taken: what the views draw next */
    pthread_mutex_unlock(&lab->lock);
    return changed;
}

const void *pl_lab_result(PlLab *lab, PlResultKind k, PlResultStatus *st) {
    PlSlot *slot = &lab->slots[k];
    pthread_mutex_lock(&lab->lock);
    slot->demand = lab->gen;
    lab->asked |= 1u << k;
    int stale = !same_key(&slot->key, &slot->want);
    if (stale && !slot->busy) pthread_cond_broadcast(&lab->wake);
    pthread_mutex_unlock(&lab->lock);
    if (st) {
        st->info = slot->data || slot->failed ? &slot->info : NULL;
        st->stale = stale;
        st->error = slot->failed ? slot->error : NULL;
    }
    return slot->failed ? NULL : slot->data;
}

const void *pl_lab_view_result(PlLab *lab, PlView v, PlResultKind k, PlResultStatus *st) {
    if (pl_view_results(v, &lab->s) & (1u << k)) return pl_lab_result(lab, k, st);
    pthread_mutex_lock(&lab->lock);
    lab->asked |= 1u << k; /* asked all the same: the tests see a view reach past its row */
    pthread_mutex_unlock(&lab->lock);
    snprintf(lab->refused, sizeof lab->refused, "the %s view does not show the %s result", pl_view_name(v),
             pl_result_name(k));
    if (st) *st = (PlResultStatus){NULL, 0, lab->refused};
    return NULL;
}

unsigned pl_lab_asked(PlLab *lab) {
    pthread_mutex_lock(&lab->lock);
    unsigned a = lab->asked;
    lab->asked = 0;
    pthread_mutex_unlock(&lab->lock);
    return a;
}

/* Whether part p has something to show: the grid once one was started. */
static int part_has_data(PlLab *lab, PlViewPart p) { return p != PL_VIEW_PART_GRID || lab->grid.total > 0; }

int pl_lab_view_draws(PlLab *lab, PlView v, PlViewPart p) {
    if (v < 0 || v >= PL_VIEW_COUNT || p < 0 || p >= PL_VIEW_PART_COUNT) return 0;
    if (!(pl_view_shows(v)->parts & (1u << p)) || !part_has_data(lab, p)) return 0;
    pthread_mutex_lock(&lab->lock);
    lab->drew |= 1u << p;
    pthread_mutex_unlock(&lab->lock);
    return 1;
}

unsigned pl_lab_drew(PlLab *lab) {
    pthread_mutex_lock(&lab->lock);
    unsigned d = lab->drew;
    lab->drew = 0;
    pthread_mutex_unlock(&lab->lock);
    return d;
}

void pl_lab_demand(PlLab *lab, unsigned kinds_mask) {
    pthread_mutex_lock(&lab->lock);
    for (int k = 0; k < PL_R_COUNT; k++)
        if (kinds_mask & (1u << k)) lab->slots[k].demand = lab->gen;
    pthread_cond_broadcast(&lab->wake);
    pthread_mutex_unlock(&lab->lock);
}

static int all_current(PlLab *lab, unsigned kinds_mask) {
    int ok = 1;
    pthread_mutex_lock(&lab->lock);
    for (int k = 0; k < PL_R_COUNT; k++) {
        if (!(kinds_mask & (1u << k))) continue;
        PlSlot *slot = &lab->slots[k];
        slot->demand = lab->gen;
        if (!same_key(&slot->key, &slot->want)) ok = 0;
    }
    if (!ok) pthread_cond_broadcast(&lab->wake);
    pthread_mutex_unlock(&lab->lock);
    return ok;
}

int pl_lab_wait(PlLab *lab, unsigned kinds_mask, double timeout) {
    double until = pl_app_clock() + timeout;
    for (;;) {
        pl_lab_results_take(lab);
        if (all_current(lab, kinds_mask)) return 0;
        if (pl_app_clock() > until) return -1;
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 20 * 1000 * 1000;
        if (ts.tv_nsec >= 1000000000L) ts.tv_sec++, ts.tv_nsec -= 1000000000L;
        pthread_mutex_lock(&lab->lock);
        pthread_cond_timedwait(&lab->done, &lab->lock, &ts); /* a result came in, or 20 ms passed */
        pthread_mutex_unlock(&lab->lock);
    }
}
