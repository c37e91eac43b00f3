/* The train view's data: the runs table (a row per setting, its seeds
 * grouped), every finished run, and the padding x mask grid. The columns
 * of a setting are the cold settings of the registry that a run trains
 * with (the corpus, the seed and the seed count aside). */
#include "report.h"

#include <string.h>

/* The settings a row shows: cold, and not the corpus or the seeds. */
static int shown(int id) { return pl_settings[id].cold && id != PL_S_CORPUS && id != PL_S_SEED && id != PL_S_SEEDS; }

static void setting_cells(OutTable *t, const PlLabSettings *s) {
    for (int id = 0; id < PL_S_COUNT; id++) {
        char v[600];
        if (shown(id)) out_table_cell(t, "%s", pl_setting_format(s, (PlSettingId)id, v, sizeof v));
    }
}

/* Whether the runs come from more than one corpus: then every table says
 * which, and each row is read against its own corpus's chance. */
static int many_corpora(const PlTrainReport *t) {
    for (int i = 1; i < t->nruns; i++)
        if (strcmp(t->runs[i].settings.corpus, t->runs[0].settings.corpus) != 0) return 1;
    return 0;
}

/* The chance a group or a run is read against: its corpus's. */
static const PlChance *chance_of(const PlTrainReport *t, const PlChance *own) {
    return own->n_val > 0 ? own : &t->chance;
}

/* The head of a table: the corpus when there are several, the setting
 * columns, then extra. Returns the columns. */
static int table_head(const char **head, int cap, const char *const *extra, int nextra, int corpus) {
    int n = 0;
    if (corpus) head[n++] = "corpus";
    for (int id = 0; id < PL_S_COUNT && n < cap; id++)
        if (shown(id)) head[n++] = pl_settings[id].name;
    for (int i = 0; i < nextra && n < cap; i++) head[n++] = extra[i];
    return n;
}

/* A cell of a training figure, drawn through the report's ledger. */
static void fig_cell(OutTable *tab, const PlTrainReport *t, const char *names, const char *fmt, double v) {
    char drawn[128], text[64];
    snprintf(text, sizeof text, fmt, v);
    out_table_cell(tab, "%s", pl_fig_drawn(drawn, sizeof drawn, t->ledger, names, "%s", text));
}

/* The names of a figure of the runs of settings s (pl_run_names). */
typedef char Names[160];
static const char *nm(const PlTrainReport *t, const PlLabSettings *s, const char *stat, char *buf) {
    return pl_run_names(&t->names, s, stat, buf, sizeof(Names));
}

/* The names of one seed's own figure, which is also figure `stat` of the
 * runs (a seed's best lies between the lowest and the highest). */
typedef char SeedNames[2 * sizeof(Names)];
static const char *each_seed(const PlTrainReport *t, const PlLabSettings *s, const char *stat, char *buf) {
    Names a, b;
    snprintf(buf, sizeof(SeedNames), "%s,%s", nm(t, s, stat, a), nm(t, s, "runs", b));
    return buf;
}

static int groups_text(FILE *f, const PlTrainReport *t) {
    static const char *const extra[] = {"runs", "memorised", "median", "min", "max", "vs chance", "s/run"};
    const char *head[PL_S_COUNT + 9];
    int corpus = many_corpora(t), nc = table_head(head, PL_S_COUNT + 9, extra, 7, corpus);
    OutTable tab;
    out_table_init(&tab, nc, head);
    for (int i = 0; i < t->ngroups; i++) {
        const PlLabGroup *g = &t->groups[i];
        if (corpus) out_table_cell(&tab, "%s", g->settings.corpus);
        setting_cells(&tab, &g->settings);
        char v[128];
        Names q;
        out_table_cell(&tab, "%d", g->n);
        fig_cell(&tab, t, nm(t, &g->settings, "memorised", q), "%.0f", g->memorised);
        fig_cell(&tab, t, nm(t, &g->settings, "median", q), "%.4f", (double)g->median);
        fig_cell(&tab, t, nm(t, &g->settings, "min", q), "%.4f", (double)g->min);
        fig_cell(&tab, t, nm(t, &g->settings, "max", q), "%.4f", (double)g->max);
        nm(t, &g->settings, "at_chance", q);
        out_table_cell(
            &tab, "%s",
            pl_fig_drawn(v, sizeof v, t->ledger, q, "%s",
                         pl_chance_verdict_name(pl_chance_verdict(chance_of(t, &g->ch), (double)g->median))));
        out_table_cell(&tab, "%.2f", g->seconds);
    }
    int bad = out_table_print(&tab, f, OUT_TABLE, 2);
    out_table_done(&tab);
    return bad;
}

/* A run's curve, one value a epoch: what the window's curves draw. */
static const char *per_epoch(const float *v, int epochs, char *buf, size_t cap) {
    buf[0] = '\0';
    for (int e = 0; e < epochs && e < PL_MAX_EPOCHS; e++)
        snprintf(buf + strlen(buf), cap - strlen(buf), "%s%.3f", e ? " " : "", (double)v[e]);
    return buf;
}

static int runs_text(FILE *f, const PlTrainReport *t) {
    static const char *const extra[] = {"run", "seed", "best", "val_acc by epoch", "train_loss by epoch", "s", "from"};
    const char *head[PL_S_COUNT + 9];
    int corpus = many_corpora(t), nc = table_head(head, PL_S_COUNT + 9, extra, 7, corpus);
    OutTable tab;
    out_table_init(&tab, nc, head);
    for (int i = 0; i < t->nruns; i++) {
        const PlLabRun *r = &t->runs[i];
        char accs[PL_MAX_EPOCHS * 12 + 1], losses[PL_MAX_EPOCHS * 12 + 1];
        if (corpus) out_table_cell(&tab, "%s", r->settings.corpus);
        setting_cells(&tab, &r->settings);
        out_table_cell(&tab, "%d", r->id);
        out_table_cell(&tab, "%d", r->settings.seed);
        char v[PL_MAX_EPOCHS * 12 + 256];
        Names q;
        SeedNames e;
        fig_cell(&tab, t, each_seed(t, &r->settings, "max", e), "%.4f", (double)r->best_val_acc);
        each_seed(t, &r->settings, "median", e);
        per_epoch(r->val_acc, r->epochs, accs, sizeof accs);
        out_table_cell(&tab, "%s", pl_fig_drawn(v, sizeof v, t->ledger, e, "%s", accs));
        per_epoch(r->train_loss, r->epochs, losses, sizeof losses);
        out_table_cell(&tab, "%s", pl_fig_drawn(v, sizeof v, t->ledger, e, "%s", losses));
        out_table_cell(&tab, "%.2f", r->seconds);
        /* a flag is written or not: hidden, not at all (its ?s would say it is there) */
        const char *mem = nm(t, &r->settings, "memorised", q);
        out_table_cell(&tab, "%s%s", r->grid ? "grid" : "retrain",
                       !pl_ledger_hides_name(t->ledger, mem) && pl_lab_run_memorised(r, chance_of(t, &r->chance))
                           ? ", memorised"
                           : "");
    }
    int bad = out_table_print(&tab, f, OUT_TABLE, 2);
    out_table_done(&tab);
    return bad;
}

static void grid_text(FILE *f, const PlLabGrid *g, const PlChance *ch, const PlLedger *l) {
    static const char *const cell_name[] = {"pre, mask off", "pre, mask on", "post, mask off", "post, mask on"};
    static const char *const cell_arg[] = {"pre off", "pre on", "post off", "post on"};
    char model[64];
    fprintf(f, "\nthe padding x mask grid of %s over %d seed%s: %s, %d of %d runs finished\n",
            pl_setting_format(&g->base, PL_S_MODEL, model, sizeof model), g->seeds, g->seeds == 1 ? "" : "s",
            g->done     ? "done"
            : g->active ? "running"
                        : "stopped",
            g->finished, g->total);
    for (int i = 0; i < g->ncells && i < 4; i++) {
        const PlLabGroup *c = &g->cells[i];
        char q[64], lo[64], hi[64];
        snprintf(q, sizeof q, "grid.median(%s)", cell_arg[i]);
        snprintf(lo, sizeof lo, "grid.min(%s)", cell_arg[i]);
        snprintf(hi, sizeof hi, "grid.max(%s)", cell_arg[i]);
        if (c->n) { /* each figure by its own name: the lowest and highest give a spread asked alone */
            fprintf(f, "  %-15s median ", cell_name[i]);
            pl_fig_fprintf(f, l, q, "%.4f", (double)c->median);
            fputs(" (", f), pl_fig_fprintf(f, l, lo, "%.4f", (double)c->min);
            fputc('-', f), pl_fig_fprintf(f, l, hi, "%.4f", (double)c->max);
            fprintf(f, " over %d run%s), ", c->n, c->n == 1 ? "" : "s");
            pl_fig_fprintf(f, l, q, "%s", pl_chance_verdict_name(pl_chance_verdict(ch, (double)c->median)));
            fputc('\n', f);
        } else fprintf(f, "  %-15s no run yet\n", cell_name[i]);
    }
    for (int i = 0; i < g->ndrift; i++) {
        fprintf(f, "  seed %d: pre+mask and post+mask differ by at most ", g->drift_seed[i]);
        pl_fig_fprintf(f, l, "grid.drift", "%.4f", (double)g->drift[i]);
        fputs(" in validation accuracy over the epochs\n", f);
    }
}

static int has(const PlTrainReport *t, PlViewPart p) { return (t->parts >> p) & 1u; }

PlStatus pl_report_train_text(FILE *f, const PlTrainReport *t) {
    if (has(t, PL_VIEW_PART_RUNS))
        fprintf(f, "the runs table: %d setting%s, %d finished run%s\n", t->ngroups, t->ngroups == 1 ? "" : "s",
                t->nruns, t->nruns == 1 ? "" : "s");
    if (has(t, PL_VIEW_PART_CHANCE))
        fprintf(f,
                "chance: %.4f, what always answering %s scores on the %d validation reviews; within %.4f of it is at "
                "chance%s\n\n",
                t->chance.share, pl_label_name(t->chance.label), t->chance.n_val, t->chance.noise,
                many_corpora(t) ? " (the lab's corpus; a run of another corpus is read against that corpus's)" : "");
    if (has(t, PL_VIEW_PART_RUNS) && t->ngroups) {
        if (groups_text(f, t)) return PL_ENOMEM;
        fprintf(f, "\nevery run, in the order it finished:\n");
        if (runs_text(f, t)) return PL_ENOMEM;
    } else if (has(t, PL_VIEW_PART_RUNS)) {
        fprintf(f, "no run has finished yet\n");
    }
    if (has(t, PL_VIEW_PART_GRID)) grid_text(f, &t->grid, &t->chance, t->ledger);
    return pl_report_status(f);
}

static void json_settings(JsonW *w, const char *key, const PlLabSettings *s) {
    json_obj(w, key);
    for (int id = 0; id < PL_S_COUNT; id++) {
        char v[600];
        if (!shown(id)) continue;
        if (pl_setting_is_number(s, (PlSettingId)id))
            json_int(w, pl_settings[id].name, pl_setting_get(s, (PlSettingId)id));
        else json_str(w, pl_settings[id].name, pl_setting_format(s, (PlSettingId)id, v, sizeof v));
    }
    json_close(w, '}');
}

void pl_report_json_chance(JsonW *w, const PlChance *ch) {
    json_obj(w, "chance");
    json_num(w, "share", ch->share);
    json_str(w, "label", pl_label_name(ch->label));
    json_int(w, "n_val", ch->n_val);
    json_num(w, "noise", ch->noise);
    json_close(w, '}');
}

static void json_group(JsonW *w, const char *key, const PlLabGroup *g, const PlTrainReport *t) {
    const PlChance *ch = g->ch.n_val > 0 ? &g->ch : &t->chance; /* its own corpus's */
    const PlLabSettings *s = &g->settings;
    Names q;
    json_obj(w, key);
    json_str(w, "corpus", g->settings.corpus);
    json_settings(w, "settings", &g->settings);
    json_int(w, "n", g->n);
    json_fig_int(w, "memorised", nm(t, s, "memorised", q), g->memorised);
    json_fig(w, "median", nm(t, s, "median", q), (double)g->median);
    json_fig(w, "min", nm(t, s, "min", q), (double)g->min);
    json_fig(w, "max", nm(t, s, "max", q), (double)g->max);
    if (pl_ledger_hides_name(w->ledger, nm(t, s, "at_chance", q))) json_fig(w, "vs_chance", q, 0.0);
    else json_str(w, "vs_chance", pl_chance_verdict_name(pl_chance_verdict(ch, (double)g->median)));
    json_num(w, "chance", ch->share);
    json_num(w, "seconds", g->seconds);
    json_int(w, "last_id", g->last_id);
    json_close(w, '}');
}

static void json_runs(JsonW *w, const PlTrainReport *t) {
    json_arr(w, "groups");
    for (int i = 0; i < t->ngroups; i++) json_group(w, NULL, &t->groups[i], t);
    json_close(w, ']');
    json_arr(w, "runs");
    for (int i = 0; i < t->nruns; i++) {
        const PlLabRun *r = &t->runs[i];
        const PlChance *ch = chance_of(t, &r->chance);
        json_obj(w, NULL);
        json_int(w, "id", r->id);
        json_str(w, "corpus", r->settings.corpus);
        json_settings(w, "settings", &r->settings);
        json_int(w, "seed", r->settings.seed);
        json_int(w, "epochs", r->epochs);
        SeedNames e;
        int hidden = pl_ledger_hides_name(w->ledger, each_seed(t, &r->settings, "median", e));
        if (hidden) json_fig(w, "val_acc", e, 0.0), json_fig(w, "train_loss", e, 0.0);
        else {
            pl_report_json_floats(w, "val_acc", r->val_acc, r->epochs);
            pl_report_json_floats(w, "train_loss", r->train_loss, r->epochs);
        }
        SeedNames b;
        json_fig(w, "best_val_acc", each_seed(t, &r->settings, "max", b), (double)r->best_val_acc);
        json_num(w, "seconds", r->seconds);
        json_bool(w, "grid", r->grid);
        if (hidden) json_fig(w, "vs_chance", e, 0.0), json_fig(w, "memorised", e, 0.0);
        else {
            json_str(w, "vs_chance", pl_chance_verdict_name(pl_chance_verdict(ch, (double)r->best_val_acc)));
            json_bool(w, "memorised", pl_lab_run_memorised(r, ch));
        }
        json_close(w, '}');
    }
    json_close(w, ']');
}

/* The grid, running, stopped or done: "done" false and "finished" below
 * "total" say which. */
static void json_grid(JsonW *w, const PlLabGrid *g, const PlTrainReport *t) {
    json_obj(w, "grid");
    json_bool(w, "done", g->done);
    json_int(w, "finished", g->finished);
    json_int(w, "total", g->total);
    json_int(w, "seeds", g->seeds);
    json_settings(w, "base", &g->base);
    json_arr(w, "cells");
    for (int i = 0; i < g->ncells && i < 4; i++) json_group(w, NULL, &g->cells[i], t);
    json_close(w, ']');
    json_arr(w, "drift");
    for (int i = 0; i < g->ndrift; i++) {
        json_obj(w, NULL);
        json_int(w, "seed", g->drift_seed[i]);
        json_fig(w, "max_diff", "grid.drift", (double)g->drift[i]);
        json_close(w, '}');
    }
    json_close(w, ']');
    json_close(w, '}');
}

PlStatus pl_report_train_json(FILE *f, const PlTrainReport *t) {
    JsonW w;
    json_begin(&w, f);
    w.ledger = t->ledger;
    if (has(t, PL_VIEW_PART_RUNS)) {
        json_obj(&w, "summary");
        json_int(&w, "settings", t->ngroups);
        json_int(&w, "runs", t->nruns);
        json_bool(&w, "grid", has(t, PL_VIEW_PART_GRID));
        json_close(&w, '}');
    }
    if (has(t, PL_VIEW_PART_CHANCE)) pl_report_json_chance(&w, &t->chance);
    if (has(t, PL_VIEW_PART_RUNS)) json_runs(&w, t);
    if (has(t, PL_VIEW_PART_GRID)) json_grid(&w, &t->grid, t);
    json_end(&w);
    return pl_report_status(f);
}
