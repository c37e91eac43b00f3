/* The lab's export: a view's full data, not its screen, written through the
 * same printers the probe commands use, as DIR/padlab-VIEW-N.txt and
 * DIR/padlab-VIEW-N.json. N is the first counter that names neither file;
 * each file is written whole under a temporary name and then linked to its
 * final name, which fails when the name exists, so nothing is overwritten,
 * not even by another export that picks the same N at the same moment. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/atomic.h"
#include "app/lab/lab.h"
#include "report.h"

/* What one file gets: everything a view draws (pl_view_shows): its parts
 * drawn from the runs (train) or its main result first, then its other
 * results, each found in the lab as the view finds it. */
typedef struct {
    int json;
    PlLab *lab;
    PlView view;
    const PlCorpus *corpus;
    const PlReportOpts *opts;
    const PlTrainReport *train; /* non-NULL: the view draws parts from the runs */
} Export;

/* The parts after the first: every result when the runs come first, else
 * the results after the main one. */
static int extra_from(const Export *x) { return x->train ? 0 : 1; }

/* Whether the view draws its row's result i under the lab's settings now. */
static int drawn(const Export *x, int i) {
    const PlViewShows *v = pl_view_shows(x->view);
    return (pl_view_results(x->view, pl_lab_settings(x->lab)) >> v->results[i] & 1u) != 0;
}

/* How many parts follow the first. */
static int extras(const Export *x) {
    int n = 0;
    for (int i = extra_from(x); i < pl_view_shows(x->view)->nresults; i++) n += drawn(x, i);
    return n;
}

/* The first part, as a document of its own. */
static PlStatus write_main(FILE *f, const Export *x, int json) {
    if (x->train) return json ? pl_report_train_json(f, x->train) : pl_report_train_text(f, x->train);
    PlResultKind k = pl_view_shows(x->view)->results[0];
    PlResultStatus rs;
    const void *r = pl_lab_view_result(x->lab, x->view, k, &rs);
    return pl_report_print(f, k, json, x->corpus, r, rs.info, x->opts);
}

/* Part k after the first, in text: under a rule naming it. */
static PlStatus text_part(FILE *f, const Export *x, PlResultKind k) {
    PlResultStatus rs;
    const void *r = pl_lab_view_result(x->lab, x->view, k, &rs);
    fprintf(f, "\n---- %s ----\n", pl_result_name(k));
    if (r) return pl_report_print(f, k, 0, x->corpus, r, rs.info, x->opts);
    fprintf(f, "%s\n", rs.error ? rs.error : "not computed yet");
    return pl_report_status(f);
}

/* A whole document rendered in memory (NULL when out of memory). */
static char *render(const Export *x, PlResultKind k, int is_main) {
    char *buf = NULL;
    size_t n;
    FILE *m = open_memstream(&buf, &n);
    if (!m) return NULL;
    PlResultStatus rs;
    const void *r = is_main ? NULL : pl_lab_view_result(x->lab, x->view, k, &rs);
    PlStatus st = is_main ? write_main(m, x, 1) : pl_report_print(m, k, 1, x->corpus, r, rs.info, x->opts);
    if (fclose(m) != 0 || st) free(buf), buf = NULL;
    return buf;
}

/* Part k after the first, in JSON: its document under its name, or why it is missing. */
static PlStatus json_part(JsonW *w, const Export *x, PlResultKind k) {
    PlResultStatus rs;
    if (!pl_lab_view_result(x->lab, x->view, k, &rs)) {
        json_obj(w, pl_result_name(k));
        json_str(w, "missing", rs.error ? rs.error : "not computed yet");
        json_close(w, '}');
        return PL_OK;
    }
    char *doc = render(x, k, 0);
    if (!doc) return PL_ENOMEM;
    json_doc(w, pl_result_name(k), doc);
    free(doc);
    return PL_OK;
}

/* The first part's document with the others added under their names. */
static PlStatus write_json(FILE *f, const Export *x) {
    const PlViewShows *v = pl_view_shows(x->view);
    if (!extras(x)) return write_main(f, x, 1);
    char *doc = render(x, 0, 1);
    if (!doc) return PL_ENOMEM;
    char *end = strrchr(doc, '}'); /* reopened before its closing brace */
    if (!end) end = doc + strlen(doc);
    while (end > doc && (end[-1] == '\n' || end[-1] == ' ')) end--;
    fwrite(doc, 1, (size_t)(end - doc), f);
    int has_items = end > doc && end[-1] != '{';
    free(doc);
    JsonW w;
    json_resume(&w, f, has_items);
    PlStatus st = PL_OK;
    for (int i = extra_from(x); i < v->nresults && !st; i++)
        if (drawn(x, i)) st = json_part(&w, x, v->results[i]);
    json_end(&w);
    return st ? st : pl_report_status(f);
}

static int write_export(FILE *f, void *ctx) {
    const Export *x = ctx;
    if (x->json) return write_json(f, x) == PL_OK ? 0 : -1;
    const PlViewShows *v = pl_view_shows(x->view);
    PlStatus st = write_main(f, x, 0);
    for (int i = extra_from(x); i < v->nresults && !st; i++)
        if (drawn(x, i)) st = text_part(f, x, v->results[i]);
    return st == PL_OK ? 0 : -1;
}

/* Writes both files under the first free N. */
static PlStatus write_both(const char *dir, const char *view, Export *x, char *written, int cap, PlErr *err) {
    size_t n = strlen(dir) + strlen(view) + 48;
    char *txt = malloc(n), *json = malloc(n);
    PlStatus st = txt && json ? PL_OK : pl_err_set(err, PL_ENOMEM, "out of memory for an export");
    for (int k = 1; st == PL_OK; k++) {
        if (k > 100000) {
            st = pl_err_set(err, PL_EIO, "%s: no free name for padlab-%s-N (N up to 100000 taken)", dir, view);
            break;
        }
        snprintf(txt, n, "%s/padlab-%s-%d.txt", dir, view, k);
        snprintf(json, n, "%s/padlab-%s-%d.json", dir, view, k);
        if (access(txt, F_OK) == 0 || access(json, F_OK) == 0) continue;
        int taken;
        x->json = 0;
        st = pl_write_atomic_new(txt, write_export, x, &taken, err);
        if (st && taken) {
            st = PL_OK; /* another export took this N a moment ago */
            continue;
        }
        if (st) break;
        x->json = 1;
        st = pl_write_atomic_new(json, write_export, x, &taken, err);
        if (st) unlink(txt); /* the pair is written whole or not at all */
        if (st && taken) {
            st = PL_OK;
            continue;
        }
        if (!st) snprintf(written, (size_t)cap, "%s", txt);
        break;
    }
    free(txt);
    free(json);
    return st;
}

/* Fills x for view v (the runs: t and its groups, freed here) and hands it
 * to write(x, ctx). A view's main result must exist; its others are written
 * as missing when they are not there yet. */
static PlStatus with_export(PlLab *lab, PlView v, PlStatus (*write)(Export *x, void *ctx), void *ctx, PlErr *err) {
    if (v < 0 || v >= PL_VIEW_COUNT) return pl_err_set(err, PL_ERANGE, "no view %d to export", (int)v);
    const char *view = pl_view_name(v);
    const PlViewShows *shows = pl_view_shows(v);
    /* what the learner may see: an export is a surface like the screen */
    PlReportOpts o = {.full = 1, .settings_line = 1, .ledger = pl_lab_ledger(lab)};
    Export x = {.lab = lab, .view = v, .corpus = pl_lab_corpus(lab), .opts = &o};
    if (!shows->parts) {
        PlResultStatus rs;
        if (!pl_lab_view_result(lab, v, shows->results[0], &rs) && rs.error)
            return pl_err_set(err, PL_EINPUT, "the %s view has no result to export: %s", view, rs.error);
        if (!rs.info) return pl_err_set(err, PL_EINPUT, "the %s view has not computed a result yet", view);
        return write(&x, ctx);
    }
    PlTrainReport t = {0};
    PlLabGroup *groups = malloc(PL_LAB_MAX_RUNS * sizeof *groups);
    if (!groups) return pl_err_set(err, PL_ENOMEM, "out of memory for an export");
    int n = pl_lab_groups(lab, groups, PL_LAB_MAX_RUNS);
    t.groups = groups;
    t.ngroups = n < PL_LAB_MAX_RUNS ? n : PL_LAB_MAX_RUNS;
    t.runs = pl_lab_runs(lab, &t.nruns);
    t.grid = pl_lab_grid(lab);
    t.chance = *pl_lab_chance(lab);
    t.ledger = o.ledger;
    t.names = pl_lab_run_names(lab);
    for (int p = 0; p < PL_VIEW_PART_COUNT; p++) /* the parts the view draws now, as its figures ask */
        if (pl_lab_view_draws(lab, v, (PlViewPart)p)) t.parts |= 1u << p;
    x.train = &t;
    PlStatus st = write(&x, ctx);
    free(groups);
    return st;
}

typedef struct {
    const char *dir, *view;
    char *written;
    int cap;
    PlErr *err;
} Both;

static PlStatus both(Export *x, void *ctx) {
    Both *b = ctx;
    return write_both(b->dir, b->view, x, b->written, b->cap, b->err);
}

PlStatus pl_lab_export(PlLab *lab, PlView v, const char *dir, char *written, int cap, PlErr *err) {
    if (v < 0 || v >= PL_VIEW_COUNT) return pl_err_set(err, PL_ERANGE, "no view %d to export", (int)v);
    Both b = {dir && *dir ? dir : ".", pl_view_name(v), written, cap, err};
    return with_export(lab, v, both, &b, err);
}

typedef struct {
    int json;
    FILE *f;
    PlErr *err;
} One;

static PlStatus one(Export *x, void *ctx) {
    One *o = ctx;
    x->json = o->json;
    return write_export(o->f, x) ? pl_err_set(o->err, PL_EIO, "a write error") : PL_OK;
}

PlStatus pl_lab_write_view(PlLab *lab, PlView v, int json, FILE *f, PlErr *err) {
    One o = {json, f, err};
    return with_export(lab, v, one, &o, err);
}
