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
#include "lab.h"
#include "report.h"

/* The result each view draws; -1 for the train view, which has no result. */
static const int view_result[PL_VIEW_COUNT] = {
    [PL_VIEW_BATCH] = PL_R_BATCH, [PL_VIEW_COST] = PL_R_COST,       [PL_VIEW_ATTENTION] = PL_R_ATTENTION,
    [PL_VIEW_RNN] = PL_R_RNN,     [PL_VIEW_POOLING] = PL_R_POOLING, [PL_VIEW_LOSS] = PL_R_LOSS,
    [PL_VIEW_TRAIN] = -1,         [PL_VIEW_LAYERS] = PL_R_LAYERS,   [PL_VIEW_GENERATE] = PL_R_GENERATE,
    [PL_VIEW_MASKS] = PL_R_MASKS,
};

/* What one file gets: a result and its printer, or the train view's data. */
typedef struct {
    int json;
    PlResultKind kind;
    const void *result;
    const PlCorpus *corpus;
    const PlResultInfo *info;
    const PlReportOpts *opts;
    const PlTrainReport *train; /* non-NULL: the train view */
} Export;

static int write_export(FILE *f, void *ctx) {
    const Export *x = ctx;
    PlStatus st;
    if (x->train) st = x->json ? pl_report_train_json(f, x->train) : pl_report_train_text(f, x->train);
    else st = pl_report_print(f, x->kind, x->json, x->corpus, x->result, x->info, x->opts);
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

/* Fills x for view v (train: t and its groups, freed by the caller) and
 * hands it to write(x, ctx). */
static PlStatus with_export(PlLab *lab, PlView v, PlStatus (*write)(Export *x, void *ctx), void *ctx, PlErr *err) {
    if (v < 0 || v >= PL_VIEW_COUNT) return pl_err_set(err, PL_ERANGE, "no view %d to export", (int)v);
    const char *view = pl_view_name(v);
    Export x = {0};
    PlReportOpts o = {.full = 1, .settings_line = 1};
    x.corpus = pl_lab_corpus(lab);
    x.opts = &o;
    if (view_result[v] < 0) {
        PlTrainReport t = {0};
        PlLabGroup *groups = malloc(PL_LAB_MAX_RUNS * sizeof *groups);
        if (!groups) return pl_err_set(err, PL_ENOMEM, "out of memory for an export");
        int n = pl_lab_groups(lab, groups, PL_LAB_MAX_RUNS);
        t.groups = groups;
        t.ngroups = n < PL_LAB_MAX_RUNS ? n : PL_LAB_MAX_RUNS;
        t.runs = pl_lab_runs(lab, &t.nruns);
        t.grid = pl_lab_grid(lab);
        t.chance = *pl_lab_chance(lab);
        x.train = &t;
        PlStatus st = write(&x, ctx);
        free(groups);
        return st;
    }
    x.kind = (PlResultKind)view_result[v];
    PlResultStatus rs;
    x.result = pl_lab_result(lab, x.kind, &rs);
    if (!x.result && rs.error)
        return pl_err_set(err, PL_EINPUT, "the %s view has no result to export: %s", view, rs.error);
    if (!x.result) return pl_err_set(err, PL_EINPUT, "the %s view has not computed a result yet", view);
    x.info = rs.info;
    return write(&x, ctx);
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
