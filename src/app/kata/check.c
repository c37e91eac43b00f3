/* Cell by cell, the first wrong cell named (check.h). */
#include "check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* "row 3, key 7" for the cell at idx of an array with axes "row,key". */
static void cell_name(char *buf, size_t cap, const char *axes, const int *idx, int ndim) {
    char copy[80], *save = NULL, *a = NULL;
    snprintf(copy, sizeof copy, "%s", axes);
    buf[0] = '\0';
    for (int k = 0; k < ndim; k++) {
        a = strtok_r(k ? NULL : copy, ",", &save);
        snprintf(buf + strlen(buf), cap - strlen(buf), ", %s %d", a ? a : "index", idx[k]);
    }
}

static void show(char *buf, size_t cap, PlKType t, double v) {
    if (t == PL_KT_BOOL) snprintf(buf, cap, "%s", v != 0.0 ? "True" : "False");
    else if (isinf(v)) snprintf(buf, cap, "%s", v < 0 ? "-inf" : "inf");
    else snprintf(buf, cap, "%.7g", v);
}

static int close_enough(PlKType t, double got, double want) {
    if (t == PL_KT_INT || t == PL_KT_BOOL) return got == want;
    if (isnan(got)) return 0;
    if (isinf(want) || isinf(got)) return got == want;
    double rtol = t == PL_KT_HALF ? 1e-3 : PL_KCHECK_RTOL;
    return fabs(got - want) <= PL_KCHECK_ATOL + rtol * fabs(want);
}

typedef struct {
    const PlKTask *t;
    const PlKCase *kc;
    int number, o;
    char *msg;
    size_t cap;
    int idx[PL_KARRAY_MAX_DIM];
} Walk;

static PlKVerdict wrong(Walk *w, int depth, const char *fmt, const char *a, const char *b) {
    char where[160], head[240], what[300];
    cell_name(where, sizeof where, w->t->out[w->o].axes, w->idx, depth);
    snprintf(head, sizeof head, "case %d (%s)%s", w->number, w->kc->what, where);
    snprintf(what, sizeof what, fmt, w->t->out[w->o].name, a, b);
    snprintf(w->msg, w->cap, "%s: %s", head, what);
    return PL_KCHECK_WRONG;
}

/* Cell at flat index at of the expected array, against got. */
static PlKVerdict cell(Walk *w, int depth, size_t at, const PlJson *got) {
    const PlKArray *e = &w->kc->out[w->o];
    char g[40], x[40], why[400];
    if (got->t != PL_J_NUM && got->t != PL_J_BOOL) return wrong(w, depth, "%s holds %s here, expected a number%s", pl_json_kind(got->t), "");
    if (e->care && !e->care[at]) return PL_KCHECK_PASS;
    if (close_enough(e->type, got->num, e->v[at])) return PL_KCHECK_PASS;
    show(g, sizeof g, e->type, got->num), show(x, sizeof x, e->type, e->v[at]);
    if (isnan(got->num)) snprintf(g, sizeof g, "NaN");
    wrong(w, depth, "%s is %s, expected %s", g, x);
    w->t->why(why, sizeof why, w->kc, w->o, w->idx, got->num);
    snprintf(w->msg + strlen(w->msg), w->cap - strlen(w->msg), ": %s", why);
    return PL_KCHECK_WRONG;
}

static PlKVerdict dims(Walk *w, int depth, size_t at, const PlJson *got) {
    const PlKArray *e = &w->kc->out[w->o];
    if (depth == e->ndim) return cell(w, depth, at, got);
    char n[32], want[32];
    if (got->t != PL_J_ARR) return wrong(w, depth, "%s holds %s here, expected a list%s", pl_json_kind(got->t), "");
    if (got->n != e->shape[depth]) {
        snprintf(n, sizeof n, "%d", got->n), snprintf(want, sizeof want, "%d", e->shape[depth]);
        return wrong(w, depth, "%s has %s entries here, expected %s", n, want);
    }
    size_t stride = 1;
    for (int k = depth + 1; k < e->ndim; k++) stride *= (size_t)e->shape[k];
    for (int i = 0; i < got->n; i++) {
        w->idx[depth] = i;
        PlKVerdict v = dims(w, depth + 1, at + (size_t)i * stride, &got->items[i]);
        if (v) return v;
    }
    return PL_KCHECK_PASS;
}

PlKVerdict pl_kcheck_case(const PlKTask *t, const PlKCase *kc, int number, const PlJson *got, char *msg, size_t cap) {
    if (got->t != PL_J_OBJ) {
        snprintf(msg, cap, "case %d (%s): the output is %s, expected an object {\"%s\": ...}", number, kc->what,
                 pl_json_kind(got->t), t->out[0].name);
        return PL_KCHECK_WRONG;
    }
    for (int o = 0; o < t->nout; o++) {
        const PlJson *v = pl_json_get(got, t->out[o].name);
        if (!v) {
            snprintf(msg, cap, "case %d (%s): the output has no \"%s\"", number, kc->what, t->out[o].name);
            return PL_KCHECK_WRONG;
        }
        Walk w = {t, kc, number, o, msg, cap, {0}};
        PlKVerdict r = dims(&w, 0, 0, v);
        if (r) return r;
    }
    return PL_KCHECK_PASS;
}
