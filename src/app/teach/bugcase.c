/* A bug case on its lab (see bugcase.h): the buggy settings, then the fixed
 * ones, each phase reading its quantities once the lab has computed them. */
#include "bugcase.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lesson.h"
#include "app/lab/worker.h"

#define MIN_TRAIN_SEEDS 3

struct PlBugRun {
    const PlDeck *deck;
    const PlDeckItem *it;
    PlLab *lab;
    PlLabSettings bug, fix;
    PlBugState st;
};

PlLab *pl_bug_run_lab(PlBugRun *r) { return r->lab; }
const PlBugState *pl_bug_run_state(const PlBugRun *r) { return &r->st; }
const PlLabSettings *pl_bug_run_settings(const PlBugRun *r, int fixed) { return fixed ? &r->fix : &r->bug; }

/* "inline:ROWS" as the corpus of s. */
static void inline_corpus(PlLabSettings *s, const char *rows) {
    if (rows) snprintf(s->corpus, sizeof s->corpus, "inline:%.500s", rows);
}

static void make_settings(PlBugRun *r, const PlLabSettings *base) {
    const PlDeckItem *it = r->it;
    r->bug = *base;
    pl_settings_patch_apply(&r->bug, r->deck->setup_patch);
    pl_settings_patch_apply(&r->bug, it->bug_patch);
    inline_corpus(&r->bug, it->bug_inline);
    r->bug.view = it->view;
    if (it->trains && r->bug.seeds < MIN_TRAIN_SEEDS) r->bug.seeds = MIN_TRAIN_SEEDS;
    r->fix = r->bug;
    pl_settings_patch_apply(&r->fix, it->fix_patch);
    inline_corpus(&r->fix, it->fix_inline);
    if (it->trains && r->fix.seeds < MIN_TRAIN_SEEDS) r->fix.seeds = MIN_TRAIN_SEEDS;
}

PlBugRun *pl_bug_run_new(const PlDeck *deck, const PlDeckItem *it, const PlLabSettings *base, PlErr *err) {
    PlBugRun *r = calloc(1, sizeof *r);
    if (!r) return pl_err_set(err, PL_ENOMEM, "out of memory for a bug case"), NULL;
    r->deck = deck, r->it = it;
    make_settings(r, base);
    if (!(r->lab = pl_lab_new(&r->bug, err))) {
        free(r);
        return NULL;
    }
    pl_lab_autotrain(r->lab, 0);
    if (it->trains) pl_lab_command(r->lab, PL_CMD_RUN);
    r->st.phase = PL_BUG_COMPUTING;
    snprintf(r->st.message, sizeof r->st.message, "the lab runs the buggy setup");
    return r;
}

void pl_bug_run_free(PlBugRun *r) {
    if (!r) return;
    /* leaving a case (or the drill) never waits on its lab beyond a second:
     * a lab still inside a batch is left to end on its own */
    pl_lab_close(r->lab, 1.0);
    free(r);
}

/* ---- reading the values ---- */

/* The quantity's value now: 0 with out filled (out->none when the figure
 * has no value in a computed result: a fixed point that was not found), -1
 * while it is not computed yet, or -2 when its computation failed (why says
 * why: it would never come). */
static int read_value(PlBugRun *r, const PlQuantity *q, PlBugValue *out, char *why, int cap) {
    double v;
    unsigned kinds = pl_quantity_kinds(q);
    memset(out, 0, sizeof *out);
    if (kinds) {
        int k = 0;
        while (!(kinds & (1u << k))) k++;
        PlResultStatus st;
        const void *res = pl_lab_result(r->lab, (PlResultKind)k, &st);
        if (!res && st.error && !st.stale)
            return snprintf(why, (size_t)cap, "the %s view could not be computed: %.150s",
                            pl_result_name((PlResultKind)k), st.error),
                   -2;
        if (!res || st.stale)
            return snprintf(why, (size_t)cap, "the %s view is computing", pl_result_name((PlResultKind)k)), -1;
        if (pl_quantity_value_in(q, res, pl_lab_settings(r->lab), &v)) return out->have = out->none = 1, 0;
    } else if (pl_quantity_value(r->lab, q, &v, why, cap)) {
        return -1;
    }
    out->have = 1, out->value = v, out->min = out->max = v;
    PlLabGroup g;
    if (pl_deck_quantity_trains(q) && pl_lab_group_of(r->lab, pl_lab_settings(r->lab), &g))
        out->min = g.min, out->max = g.max, out->seeds = g.n;
    return 0;
}

/* "computing: WHY" while a value is on its way, else WHY alone. */
static int phase_message(PlBugRun *r, int got, const char *why) {
    snprintf(r->st.message, sizeof r->st.message, "%s%.250s", got == -1 ? "computing: " : "", why);
    return got == -1 ? 0 : -1;
}

/* The values of a phase: the main one and the also: ones. 1 when all are in,
 * 0 while some are computing, -1 when one failed (the message says why). */
static int read_phase(PlBugRun *r, const PlQuantity *main, PlBugValue *v, PlBugValue *also) {
    char why[200];
    int got;
    if (!v->have && (got = read_value(r, main, v, why, sizeof why))) return phase_message(r, got, why);
    for (int i = 0; i < r->it->nalso; i++)
        if (!also[i].have && (got = read_value(r, &r->it->also[i], &also[i], why, sizeof why)))
            return phase_message(r, got, why);
    return 1;
}

static unsigned kinds_read(const PlBugRun *r) {
    unsigned k = pl_quantity_kinds(&r->it->symptom) | pl_quantity_kinds(&r->it->fixed) | pl_deck_item_kinds(r->it);
    for (int i = 0; i < r->it->nalso; i++) k |= pl_quantity_kinds(&r->it->also[i]);
    return k;
}

/* The training of a case that trains: 1 while it runs (the message says how
 * far), -1 when it ended without runs. */
static int training(PlBugRun *r) {
    const PlLabTraining *t = pl_lab_training(r->lab);
    if (!r->it->trains) return 0;
    if (t->active) {
        snprintf(r->st.message, sizeof r->st.message, "training %d seeds %s: %.0f%%", t->n,
                 r->st.phase == PL_BUG_COMPUTING ? "under the bug" : "with the fix", 100.0 * t->job.fraction);
        return 1;
    }
    PlLabGroup g;
    if (!pl_lab_group_of(r->lab, pl_lab_settings(r->lab), &g)) {
        snprintf(r->st.message, sizeof r->st.message, "the training did not finish: %.250s", t->status);
        return -1;
    }
    return 0;
}

/* Whether the fixed value moved from the symptom's the way the case says:
 * lower, higher, or (expect: changed, a fix whose direction is nobody's
 * claim, such as the loss of fresh weights) away by more than rounding. */
static int moved_as_said(const PlBugRun *r) {
    const PlBugState *s = &r->st;
    double a = s->symptom.value, b = s->fixed.value;
    if (s->symptom.none || s->fixed.none) return 0;
    if (r->it->expect == 0) return fabs(b - a) > 1e-6 * (fabs(a) + fabs(b));
    return r->it->expect < 0 ? b < a : b > a;
}

int pl_bug_run_tick(PlBugRun *r) {
    PlBugState *s = &r->st;
    int changed = pl_lab_tick(r->lab);
    if (s->phase != PL_BUG_COMPUTING && s->phase != PL_BUG_FIXING) return changed;
    pl_lab_demand(r->lab, kinds_read(r));
    int t = training(r);
    if (t < 0) return s->phase = PL_BUG_FAILED, 1;
    if (t > 0) return changed;
    int fixing = s->phase == PL_BUG_FIXING;
    int in = read_phase(r, fixing ? &r->it->fixed : &r->it->symptom, fixing ? &s->fixed : &s->symptom,
                        fixing ? s->also_fix : s->also_bug);
    if (in < 0) return s->phase = PL_BUG_FAILED, 1;
    if (!in) return changed;
    if (fixing) {
        s->holds = moved_as_said(r);
        s->phase = PL_BUG_FIXED;
        snprintf(s->message, sizeof s->message, "%s",
                 s->holds             ? "the fix took effect"
                 : r->it->expect == 0 ? "the fix did not change the value"
                                      : "the fix did not move the value the way the case says");
    } else {
        s->phase = PL_BUG_SHOWN;
        s->message[0] = '\0';
    }
    return 1;
}

int pl_bug_run_fix(PlBugRun *r, PlErr *err) {
    if (r->st.phase != PL_BUG_SHOWN) return pl_err_set(err, PL_ERANGE, "the fix comes once the symptom is shown"), -1;
    if (pl_lab_apply(r->lab, &r->fix, err) < 0) return -1;
    if (r->it->trains) pl_lab_command(r->lab, PL_CMD_RUN);
    r->st.phase = PL_BUG_FIXING;
    snprintf(r->st.message, sizeof r->st.message, "the lab runs the fixed setup");
    return 0;
}

int pl_bug_run_wait(PlBugRun *r, double timeout) {
    double t0 = pl_app_clock();
    while (pl_app_clock() - t0 < timeout) {
        pl_bug_run_tick(r);
        PlBugPhase p = r->st.phase;
        if (p == PL_BUG_SHOWN || p == PL_BUG_FIXED || p == PL_BUG_FAILED) return 0;
        usleep(5000);
    }
    return -1;
}

const char *pl_bug_value_format(const PlQuantity *q, const PlBugValue *v, char *buf, int cap) {
    char a[48], lo[48], hi[48];
    if (!v->have) return snprintf(buf, (size_t)cap, "..."), buf;
    if (v->none) return snprintf(buf, (size_t)cap, "n/a (no value here)"), buf;
    pl_quantity_format(q, v->value, a, sizeof a);
    if (!v->seeds) return snprintf(buf, (size_t)cap, "%s", a), buf;
    snprintf(buf, (size_t)cap, "%s (%s-%s, %d seeds)", a, pl_quantity_format(q, v->min, lo, sizeof lo),
             pl_quantity_format(q, v->max, hi, sizeof hi), v->seeds);
    return buf;
}
