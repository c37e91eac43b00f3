/* The slips a wrong answer may be (diagnose.h), tried in order. */
#include "diagnose.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Whether answer a reads as x, within the question's tolerance around x. */
static int near(const PlQuantity *q, double a, double x, const PlTolerance *t) {
    double lo, hi;
    if (!isfinite(x)) return 0;
    pl_quantity_band(q, x, t, &lo, &hi);
    return a >= lo && a <= hi && !(x == 0.0 && a != 0.0 && pl_quantity_kind_of_format(q) != PL_QF_COUNT);
}

/* A determiner of q typed for it, each said in words (the quantities' helps
 * stand alone): "1300 is the real tokens of the example's batch here; the
 * question asks for the pad cells of the example's batch." */
static int determiner(PlLab *lab, const PlQuantity *q, const PlLedger *others, const char *typed, char *out, int cap) {
    char name[96], why[160], list[512];
    const char *by = pl_quantity_determiners(pl_quantity_name(q, name, sizeof name), list, sizeof list);
    for (const char *s = by; s && *s;) {
        char one[96];
        size_t k = strcspn(s, " ");
        snprintf(one, sizeof one, "%.*s", (int)k, s);
        s += k + (s[k] == ' ');
        PlQuantity d;
        double x;
        if (strchr(one, '*') || pl_ledger_hides_name(others, one) || pl_quantity_parse(one, &d, why, sizeof why) ||
            pl_quantity_value(lab, &d, &x, why, sizeof why))
            continue;
        PlQuantityFormat f = pl_quantity_kind_of_format(&d);
        /* a count is that count (736 is not the 735 terms a row would have), a share that share as written
         * (to 0.1 point: 24 is not the 23.5% of the cache's pad slots), a value within 1% */
        PlTolerance exact = f == PL_QF_COUNT   ? (PlTolerance){PL_TOL_ABSOLUTE, 0.5}
                            : f == PL_QF_SHARE ? (PlTolerance){PL_TOL_ABSOLUTE, 0.1}
                                               : (PlTolerance){PL_TOL_RELATIVE, 0.01};
        double as_d;
        if (pl_quantity_read(&d, typed, &as_d)) continue; /* read in d's own unit */
        if (!near(&d, as_d, x, &exact)) continue;
        snprintf(out, (size_t)cap, "%s is %s here; the question asks for %s.", typed, pl_quantity_help_of(&d),
                 pl_quantity_help_of(q));
        return 1;
    }
    return 0;
}

/* The complement of a share: 1 - v (told apart from v as pl_quantity_check
 * tells them). */
static int complement(const PlQuantity *q, double a, double v, const PlTolerance *t, const char *typed, char *out,
                      int cap) {
    if (pl_quantity_kind_of_format(q) != PL_QF_SHARE || fabs(1.0 - 2.0 * v) < PL_COMPLEMENT_APART ||
        !near(q, a, 1.0 - v, t))
        return 0;
    snprintf(out, (size_t)cap,
             "%s is close to the other part: the rest of the whole, 1 minus what the question asks for.", typed);
    return 1;
}

/* A figure 100 times too large or too small: a percentage typed for a
 * fraction, or the reverse. */
static int hundredfold(const PlQuantity *q, double a, double v, const PlTolerance *t, const char *typed, char *out,
                       int cap) {
    if (pl_quantity_kind_of_format(q) == PL_QF_SHARE || v == 0.0) return 0;
    if (!near(q, a, 100.0 * v, t) && !near(q, a, v / 100.0, t)) return 0;
    snprintf(out, (size_t)cap, "%s is off by a factor of 100: a percentage where a fraction is asked, or the reverse.",
             typed);
    return 1;
}

/* Per head for the total (or the reverse), where the quantity reads attention. */
static int per_head(PlLab *lab, const PlQuantity *q, double a, double v, const PlTolerance *t, const char *typed,
                    char *out, int cap) {
    PlQuantity heads;
    double h;
    char why[160];
    if (!(pl_quantity_kinds(q) & (1u << PL_R_ATTENTION)) || pl_quantity_parse("attention.heads", &heads, why, sizeof why) ||
        pl_quantity_value(lab, &heads, &h, why, sizeof why) || h < 2.0)
        return 0;
    if (near(q, a, v / h, t))
        return snprintf(out, (size_t)cap, "%s is one head's share: the question counts all %.0f heads.", typed, h), 1;
    if (near(q, a, v * h, t))
        return snprintf(out, (size_t)cap, "%s counts the %.0f heads once more than the question does.", typed, h), 1;
    return 0;
}

/* Higher or lower, and by how much. */
static void direction(double a, double v, const char *typed, char *out, int cap) {
    const char *way = v > a ? "higher" : "lower";
    double ratio = a != 0.0 && v != 0.0 ? fmax(fabs(v / a), fabs(a / v)) : 0.0;
    const char *much = (ratio >= 2.0 || (a == 0.0) != (v == 0.0)) ? "much " : "";
    snprintf(out, (size_t)cap, "%s is not it: the lab's number is %s%s.", typed, much, way);
}

double pl_misconception_value(PlLab *lab, const PlMisconception *m) {
    double v;
    char why[160];
    if (!m->measured) return m->number;
    return pl_quantity_value(lab, &m->quantity, &v, why, sizeof why) || !isfinite(v) ? (double)NAN : v;
}

/* A wrong answer the lesson expects, read as a class's tally reads it:
 * within the question's tolerance of the value the lesson names. */
static int misconception(PlLab *lab, const PlQuestion *question, const PlLedger *others, double a, const char *typed,
                         char *out, int cap) {
    char name[96];
    for (int m = 0; m < question->nmiscon; m++)
        if (!(question->miscon[m].measured &&
              pl_ledger_hides_name(others, pl_quantity_name(&question->miscon[m].quantity, name, sizeof name))) &&
            pl_quantity_same_answer(&question->answer, &question->tolerance,
                                    pl_misconception_value(lab, &question->miscon[m]), a))
            return snprintf(out, (size_t)cap, "%s: %s.", typed, question->miscon[m].text), 1;
    return 0;
}

const char *pl_diagnose(PlLab *lab, const PlQuestion *question, const PlLedger *others, double v, const char *typed,
                        char *out, int cap) {
    const PlQuantity *q = &question->answer;
    const PlTolerance *t = &question->tolerance;
    double a;
    out[0] = '\0';
    if (pl_quantity_kind_of_format(q) == PL_QF_SETTING || pl_quantity_read(q, typed, &a)) return out;
    if (misconception(lab, question, others, a, typed, out, cap) || determiner(lab, q, others, typed, out, cap) ||
        complement(q, a, v, t, typed, out, cap) || hundredfold(q, a, v, t, typed, out, cap) ||
        per_head(lab, q, a, v, t, typed, out, cap))
        return out;
    direction(a, v, typed, out, cap);
    return out;
}
