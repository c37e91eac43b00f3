/* A question's tally: counts per round, the histogram or the bars, the lab's
 * value and its band, the right answers and the most common wrong one. */
#include <math.h>
#include <string.h>

#include "class_internal.h"

/* The bin of x: [edge0 + k * width, edge0 + (k + 1) * width), the last one
 * closed (it holds the range's top). */
static int bin_of(const PlClassTally *t, double x) {
    int k = (int)floor((x - t->edge0) / t->width);
    return k < 0 ? 0 : k >= t->nbins ? t->nbins - 1 : k;
}

/* The histogram's range: every answer held, and the band once revealed. */
static void number_range(const ClassQuestion *q, int n, PlClassTally *t) {
    double lo = INFINITY, hi = -INFINITY;
    for (int r = 0; r < q->rounds; r++)
        for (int i = 0; i < n; i++)
            if (q->votes[r][i].has) lo = fmin(lo, q->votes[r][i].num), hi = fmax(hi, q->votes[r][i].num);
    if (q->revealed) lo = fmin(lo, t->band_lo), hi = fmax(hi, t->band_hi);
    if (lo > hi) return; /* nothing to draw */
    t->nbins = hi > lo ? PL_CLASS_BINS : 1;
    t->edge0 = hi > lo ? lo : lo - 0.5;
    t->width = hi > lo ? (hi - lo) / PL_CLASS_BINS : 1.0;
}

static int vote_right(const ClassQuestion *q, const ClassVote *v) {
    if (q->kind == PL_CLASS_CHOICE) return v->choice == q->right;
    return q->revealed && pl_quantity_check(&q->qty, q->value, v->text, &q->tol) == 1;
}

/* Round 1's most common wrong answer: the most given, ties to the smaller
 * number or the earlier choice. */
static void most_wrong(const ClassQuestion *q, int n, PlClassTally *t) {
    int best = -1, best_n = 0;
    for (int i = 0; i < n; i++) {
        const ClassVote *v = &q->votes[0][i];
        if (!v->has || vote_right(q, v) || (q->kind == PL_CLASS_NUMBER && !q->revealed)) continue;
        int same = 0;
        for (int j = 0; j < n; j++) {
            const ClassVote *w = &q->votes[0][j];
            same += w->has && (q->kind == PL_CLASS_CHOICE ? w->choice == v->choice : w->num == v->num);
        }
        const ClassVote *b = best >= 0 ? &q->votes[0][best] : NULL;
        int smaller = b && (q->kind == PL_CLASS_CHOICE ? v->choice < b->choice : v->num < b->num);
        if (same > best_n || (same == best_n && smaller)) best = i, best_n = same;
    }
    if (best < 0) return;
    const ClassVote *v = &q->votes[0][best];
    t->wrong_count = best_n;
    if (q->kind == PL_CLASS_CHOICE)
        snprintf(t->wrong, sizeof t->wrong, "%c. %s", 'a' + v->choice, q->choices[v->choice]);
    else pl_quantity_format(&q->qty, v->num, t->wrong, sizeof t->wrong);
}

void class_tally_locked(PlClass *c, int qi, PlClassTally *t) {
    const ClassQuestion *q = &c->qs[qi];
    int n = c->nstudents;
    memset(t, 0, sizeof *t);
    t->kind = q->kind, t->rounds = q->rounds, t->revealed = q->revealed;
    t->nchoices = q->nchoices, t->right_choice = q->right;
    t->unit = q->kind == PL_CLASS_NUMBER && pl_quantity_kind_of_format(&q->qty) == PL_QF_SHARE ? 100.0 : 1.0;
    if (q->kind == PL_CLASS_NUMBER && q->revealed) {
        t->value = q->value;
        pl_quantity_band(&q->qty, q->value, &q->tol, &t->band_lo, &t->band_hi);
        pl_quantity_format(&q->qty, q->value, t->value_text, sizeof t->value_text);
    }
    if (q->kind == PL_CLASS_NUMBER) number_range(q, n, t);
    for (int r = 0; r < q->rounds; r++)
        for (int i = 0; i < n; i++) {
            const ClassVote *v = &q->votes[r][i];
            if (!v->has) continue;
            t->answered[r]++;
            t->right[r] += vote_right(q, v);
            if (q->kind == PL_CLASS_CHOICE) t->chosen[r][v->choice]++;
            else t->bins[r][bin_of(t, v->num)]++;
        }
    if (q->kind == PL_CLASS_NUMBER && q->revealed && t->nbins) {
        t->value_bin = bin_of(t, t->value);
        double nudge = 1e-9 * t->width; /* the band's edges carry a rounding's slack: 10.99999999999 is 11 */
        t->band_bin_lo = bin_of(t, t->band_lo + nudge), t->band_bin_hi = bin_of(t, t->band_hi);
    }
    most_wrong(q, n, t);
}

int pl_class_tally(PlClass *c, int qi, PlClassTally *t) {
    pthread_mutex_lock(&c->mu);
    int ok = qi >= 0 && qi < c->nq;
    if (ok) class_tally_locked(c, qi, t);
    pthread_mutex_unlock(&c->mu);
    return ok ? 0 : -1;
}

int pl_class_tally_label(const PlClassTally *t, int i, char *out, int cap) {
    if (t->kind == PL_CLASS_CHOICE) return snprintf(out, (size_t)cap, "%c.", 'a' + i), i == t->right_choice;
    const char *pc = t->unit > 1 ? "%" : "";
    snprintf(out, (size_t)cap, "%.4g%s to %.4g%s", (t->edge0 + i * t->width) * t->unit, pc,
             (t->edge0 + (i + 1) * t->width) * t->unit, pc);
    return i >= t->band_bin_lo && i <= t->band_bin_hi;
}

int pl_class_tally_count(const PlClassTally *t, int r, int i) {
    return t->kind == PL_CLASS_CHOICE ? t->chosen[r][i] : t->bins[r][i];
}

int pl_class_tally_rows(const PlClassTally *t, int *most) {
    int rows = t->kind == PL_CLASS_CHOICE ? t->nchoices : t->nbins;
    *most = 1;
    for (int r = 0; r < t->rounds; r++)
        for (int i = 0; i < rows; i++)
            if (pl_class_tally_count(t, r, i) > *most) *most = pl_class_tally_count(t, r, i);
    return rows;
}
