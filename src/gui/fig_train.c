/* The train figure: validation accuracy and training loss per epoch of one
 * setting, a thin line per seed (dashed while it trains) and the median
 * thick; the ranked table of every setting's runs beside them. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figures.h"

#define MAX_GROUPS 64

/* The names of every figure of a setting's runs, for what shows them all
 * (each seed's own accuracy among them). */
static const char *group_all(const PlRunNames *w, const PlLabSettings *s, char *buf, size_t cap) {
    static const char *const stats[] = {"median", "min", "max", "seeds", "memorised", "at_chance", "runs"};
    size_t n = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof stats / sizeof stats[0] && n < cap; i++) {
        char one[160];
        n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? "," : "", pl_run_names(w, s, stats[i], one, sizeof one));
    }
    return buf;
}

static const char *setting_text(const PlLabSettings *s, char *buf, int cap) {
    char maxlen[16];
    snprintf(buf, (size_t)cap, "%s, %s padding, mask %s, maxlen %s, %s", pl_arch_name((PlArch)s->model),
             pl_side_name((PlSide)s->padding), s->mask ? "on" : "off",
             pl_setting_format(s, PL_S_MAXLEN, maxlen, sizeof maxlen), pl_batching_name((PlBatching)s->batching));
    return buf;
}

/* The setting the curves follow: what trains now, else the current
 * settings when they have runs, else the newest setting that has. */
static int followed(PlLab *lab, PlLabSettings *out) {
    const PlLabTraining *t = pl_lab_training(lab);
    if (t->active) return *out = t->settings, 1;
    PlLabGroup g[MAX_GROUPS];
    int n = pl_lab_groups(lab, g, MAX_GROUPS), best = -1;
    if (pl_lab_group_of(lab, pl_lab_settings(lab), &g[0])) return *out = g[0].settings, 1;
    n = pl_lab_groups(lab, g, MAX_GROUPS);
    for (int i = 0; i < n && i < MAX_GROUPS; i++)
        if (best < 0 || g[i].last_id > g[best].last_id) best = i;
    if (best < 0) return 0;
    *out = g[best].settings;
    return 1;
}

static void curves(GuiList *dl, PlLab *lab, GuiRect r, const PlLabCurves *c, int loss, const PlLabSettings *followed_s,
                   const PlRunNames *w) {
    const PlLabTraining *t = pl_lab_training(lab);
    int epochs = c->epochs > c->live_epochs ? c->epochs : c->live_epochs;
    if (c->live) epochs = t->job.latest[0].epochs > epochs ? t->job.latest[0].epochs : epochs;
    if (epochs < 1) epochs = 1;
    const PlChance *ch = pl_lab_chance(lab);
    int chance = !loss && pl_lab_view_draws(lab, PL_VIEW_TRAIN, PL_VIEW_PART_CHANCE);
    double lo = loss ? 0.0 : fmin(0.4, ch->share), hi = loss ? 0.0 : 1.0;
    char names[8][200], mem[160], med_names[160], seeds[160], all[1024];
    int off = pl_ledger_hides_name(dl->ledger, group_all(w, followed_s, all, sizeof all)); /* the data too */
    for (int i = 0; i < c->nruns && !off; i++) /* hidden, the axes do not follow the data either */
        for (int e = 0; e < c->runs[i]->epochs; e++) {
            double v = (double)(loss ? c->runs[i]->train_loss[e] : c->runs[i]->val_acc[e]);
            lo = fmin(lo, v), hi = fmax(hi, v);
        }
    if (c->live && !off)
        for (int i = 0; i < t->n && i < t->job.n; i++)
            for (int e = 0; e < t->job.curve_n[i]; e++) {
                double v = (double)(loss ? t->job.loss_curve[i][e] : t->job.curve[i][e]);
                lo = fmin(lo, v), hi = fmax(hi, v);
            }
    if (loss) hi = hi > 0.0 ? hi * 1.1 : 1.0;
    else lo = floor(lo * 10.0) / 10.0;
    double thin = fmax(1.0, dl->st->line * 0.6);
    GuiKey keys[8];
    pl_run_names(w, followed_s, "memorised", mem, sizeof mem);
    pl_run_names(w, followed_s, "median", med_names, sizeof med_names);
    pl_run_names(w, followed_s, "seeds", seeds, sizeof seeds);
    int nk = 0;
    for (int i = 0; i < c->nruns && nk < 5; i++, nk++) {
        /* the flag is drawn or not: hidden, not at all (its ?s would say it is there) */
        snprintf(names[nk], sizeof names[nk], "seed %d%s", c->runs[i]->settings.seed,
                 !pl_ledger_hides_name(dl->ledger, mem) && pl_lab_run_memorised(c->runs[i], pl_lab_chance(lab))
                     ? " (memorised)"
                     : "");
        keys[nk] =
            (GuiKey){names[nk], gui_series_color(c->runs[i]->settings.seed), GUI_KEY_LINE, 0, GUI_PAT_NONE, thin};
    }
    if (c->live) keys[nk++] = (GuiKey){"training", GUI_C_DIM, GUI_KEY_LINE, 1, GUI_PAT_NONE, thin};
    keys[nk++] = (GuiKey){"median", GUI_C_MEDIAN, GUI_KEY_LINE, 0, GUI_PAT_NONE, dl->st->line * 1.8};
    char chance_key[160];
    if (chance) {
        snprintf(chance_key, sizeof chance_key, "chance %s", PL_FIG("corpus.majority", "%.3f", ch->share));
        keys[nk++] = (GuiKey){chance_key, GUI_C_WARN, GUI_KEY_LINE, 1, GUI_PAT_NONE, thin};
    }
    GuiPlotSpec sp = {.title = loss ? "training loss per epoch" : "validation accuracy per epoch",
                      .xlabel = "epoch",
                      .ylabel = loss ? "binary cross-entropy" : "accuracy",
                      .x0 = 1,
                      .x1 = epochs > 1 ? epochs : 2,
                      .y0 = lo,
                      .y1 = hi,
                      .xint = 1,
                      .yfmt = loss ? GUI_FMT_NUM : GUI_FMT_PCT,
                      .keys = keys,
                      .nkeys = nk};
    GuiPlot p;
    gui_plot_begin(dl, &p, r, &sp);
    if (chance) { /* the chance line: what always answering the majority label scores */
        double cy = gui_plot_y(&p, ch->share);
        gui_line(dl, p.in.x, cy, p.in.x + p.in.w, cy, GUI_C_WARN, thin, 1);
        gui_datum(dl, "chance", 0, ch->share, pl_label_name(ch->label));
    }
    if (off) return; /* the axes alone: a curve drawn would be the figure hidden */
    double xy[2 * PL_MAX_EPOCHS];
    char name[64];
    const char *what = loss ? "loss" : "accuracy";
    for (int i = 0; i < c->nruns; i++) {
        const PlLabRun *run = c->runs[i];
        for (int e = 0; e < run->epochs; e++) {
            double v = (double)(loss ? run->train_loss[e] : run->val_acc[e]);
            xy[2 * e] = gui_plot_x(&p, e + 1), xy[2 * e + 1] = gui_plot_y(&p, v);
            snprintf(name, sizeof name, "seed %d %s", run->settings.seed, what);
            gui_datum(dl, name, e + 1, v, "finished");
        }
        snprintf(name, sizeof name, "seed %d", run->settings.seed);
        gui_poly(dl, xy, run->epochs, gui_series_color(run->settings.seed), thin, 0, name);
    }
    if (c->live)
        for (int i = 0; i < t->n && i < t->job.n; i++) {
            for (int e = 0; e < t->job.curve_n[i]; e++) {
                double v = (double)(loss ? t->job.loss_curve[i][e] : t->job.curve[i][e]);
                xy[2 * e] = gui_plot_x(&p, e + 1), xy[2 * e + 1] = gui_plot_y(&p, v);
                snprintf(name, sizeof name, "seed %d %s", t->settings.seed + i, what);
                gui_datum(dl, name, e + 1, v, "training");
            }
            snprintf(name, sizeof name, "seed %d (training)", t->settings.seed + i);
            gui_poly(dl, xy, t->job.curve_n[i], gui_series_color(t->settings.seed + i), thin, 1, name);
        }
    int me = c->live && c->live_epochs > 0 && !c->nruns ? c->live_epochs : c->epochs;
    const float *med = c->live && !c->nruns ? (loss ? c->live_median_loss : c->live_median_acc)
                                            : (loss ? c->median_loss : c->median_acc);
    for (int e = 0; e < me; e++) {
        xy[2 * e] = gui_plot_x(&p, e + 1), xy[2 * e + 1] = gui_plot_y(&p, (double)med[e]);
        gui_datum(dl, loss ? "median loss" : "median accuracy", e + 1, (double)med[e], NULL);
        double d = 4 * dl->st->unit;
        int k = c->nruns ? c->nruns : t->n;
        gui_hover(dl, (GuiRect){xy[2 * e] - 2 * d, p.in.y, 4 * d, p.in.h}, "epoch %d: median %s %s over %s", e + 1,
                  what, PL_FIG(med_names, "%.4f", (double)med[e]), PL_FIG(seeds, "%d seed%s", k, k == 1 ? "" : "s"));
    }
    gui_poly(dl, xy, me, GUI_C_MEDIAN, dl->st->line * 1.8, 0, "median");
}

/* Each setting's seeds as dots on one accuracy axis, a tick at the median:
 * the spread before any one number. */
static void seed_spread(GuiList *dl, PlLab *lab, GuiRect r, const PlLabGroup *g, int n, const PlRunNames *w) {
    char names[8][64];
    const char *np[8];
    int k = n < 8 ? n : 8;
    const PlChance *ch = pl_lab_chance(lab);
    double lo = fmin(0.5, floor(ch->share * 10.0) / 10.0);
    int nruns;
    const PlLabRun *runs = pl_lab_runs(lab, &nruns);
    for (int i = 0; i < k; i++) {
        const PlLabSettings *s = &g[i].settings;
        char maxlen[16];
        snprintf(names[i], sizeof names[i], "%s %s mask %s %s", pl_arch_name((PlArch)s->model),
                 pl_side_name((PlSide)s->padding), s->mask ? "on" : "off",
                 pl_setting_format(s, PL_S_MAXLEN, maxlen, sizeof maxlen));
        np[i] = names[i];
        lo = fmin(lo, floor((double)g[i].min * 10.0) / 10.0);
    }
    char note[300];
    snprintf(note, sizeof note, "a dot per seed (M memorised), a bar at the median, dashed: chance %s (always %s)",
             PL_FIG("corpus.majority", "%.3f", ch->share), pl_label_name(ch->label));
    GuiPlotSpec sp = {.title = "best validation accuracy of each seed",
                      .note = note,
                      .ycats = np,
                      .ncats = k,
                      .x0 = lo,
                      .x1 = 1.0,
                      .xfmt = GUI_FMT_PCT,
                      .xlabel = "accuracy"};
    GuiPlot p;
    gui_plot_begin(dl, &p, r, &sp);
    double u = dl->st->unit, d = 5 * u, cx = gui_plot_x(&p, ch->share);
    if (pl_lab_view_draws(lab, PL_VIEW_TRAIN, PL_VIEW_PART_CHANCE)) {
        gui_line(dl, cx, p.in.y, cx, p.in.y + p.in.h, GUI_C_WARN, fmax(1.0, dl->st->line * 0.6), 1);
        gui_datum(dl, "chance", 0, ch->share, pl_label_name(ch->label));
    }
    for (int i = 0; i < k; i++) {
        GuiRect band = gui_plot_cat(&p, i);
        double cy = band.y + band.h / 2, mx = gui_plot_x(&p, (double)g[i].median);
        char mem_names[160], range[320], all[1024], lo_names[160], med_names[160];
        pl_run_names(w, &g[i].settings, "memorised", mem_names, sizeof mem_names);
        pl_run_names(w, &g[i].settings, "min", lo_names, sizeof lo_names);
        pl_run_names(w, &g[i].settings, "max", range, sizeof range);
        strncat(range, ",", sizeof range - strlen(range) - 1); /* a seed's best lies between the two */
        strncat(range, lo_names, sizeof range - strlen(range) - 1);
        /* hidden, a band draws nothing: the range and the median where they are, the seeds where any is */
        if (!pl_ledger_hides_name(dl->ledger, pl_run_names(w, &g[i].settings, "median", med_names, sizeof med_names)) &&
            !pl_ledger_hides_name(dl->ledger, range)) {
            gui_line(dl, gui_plot_x(&p, (double)g[i].min), cy, gui_plot_x(&p, (double)g[i].max), cy, GUI_C_GRID, 2 * u,
                     0);
            gui_line(dl, mx, cy - band.h * 0.35, mx, cy + band.h * 0.35, GUI_C_MEDIAN, 3 * u, 0);
        }
        if (pl_ledger_hides_name(dl->ledger, group_all(w, &g[i].settings, all, sizeof all))) continue;
        for (int j = 0; j < nruns; j++) {
            if (!pl_lab_same_setting(&runs[j].settings, &g[i].settings)) continue;
            double x = gui_plot_x(&p, (double)runs[j].best_val_acc);
            int mem = pl_lab_run_memorised(&runs[j], ch);
            gui_rect(dl, (GuiRect){x - d, cy - d, 2 * d, 2 * d},
                     mem ? GUI_C_WARN : gui_series_color(runs[j].settings.seed));
            if (mem)
                gui_text(dl, x, cy - d - gui_text_h(dl, GUI_SMALL), GUI_SMALL, GUI_C_WARN, GUI_CENTER, "%s",
                         PL_FIG(mem_names, "M"));
            gui_hover(dl, (GuiRect){x - 2 * d, cy - 2 * d, 4 * d, 4 * d}, "%s, seed %d: best validation accuracy %s%s",
                      names[i], runs[j].settings.seed, PL_FIG(range, "%.4f", (double)runs[j].best_val_acc),
                      PL_FIG(mem_names, "%s", mem ? " (memorised)" : ""));
            gui_datum(dl, "best accuracy", runs[j].settings.seed, (double)runs[j].best_val_acc, names[i]);
        }
    }
}

static void runs_table(GuiList *dl, PlLab *lab, GuiRect r, const PlRunNames *w) {
    PlLabGroup g[MAX_GROUPS];
    static const char *const sorts[] = {"in the order they ran", "by median accuracy", "by time"};
    int n = pl_lab_groups(lab, g, MAX_GROUPS);
    double u = dl->st->unit, th = gui_text_h(dl, GUI_SMALL), y = r.y;
    y += gui_text_wrap(dl, r.x, y, r.w, GUI_LARGE, GUI_C_FG, GUI_LEFT, "runs, %s (o sorts)",
                       sorts[pl_lab_runs_sort(lab)]) +
         4 * u;
    char head[200];
    snprintf(head, sizeof head, "%-9s %-4s %-4s %-3s %5s %-14s %2s %5s %11s", "model", "pad", "cut", "mask", "len",
             "batching", "n", "med", "min-max");
    double flags = gui_text_w(dl, GUI_SMALL, 1, " C M"); /* the flags a row may end with, past the header */
    int narrow = gui_text_w(dl, GUI_SMALL, 1, head) + flags > r.w; /* narrow: the columns that matter, min-max kept */
    if (narrow)
        snprintf(head, sizeof head, "%-7s %-4s %-4s %4s %2s %5s %11s", "model", "pad", "mask", "len", "n", "med",
                 "min-max");
    int two = narrow && gui_text_w(dl, GUI_SMALL, 1, head) + flags > r.w; /* narrower still: each row on two lines */
    if (two) snprintf(head, sizeof head, "%-7s %-4s %-4s %4s %2s", "model", "pad", "mask", "len", "n");
    gui_text_mono(dl, r.x, y, GUI_SMALL, GUI_C_DIM, GUI_LEFT, "%s", head);
    y += th + 2 * u;
    if (two) {
        gui_text_mono(dl, r.x, y, GUI_SMALL, GUI_C_DIM, GUI_LEFT, "  %5s %11s", "med", "min-max");
        y += th + 2 * u;
    }
    double rh = (two ? 2 : 1) * (th + 2 * u);
    /* the two lines under the table, wrapped, measured first: the rows stop above them */
    PlResultStatus st;
    const PlProbeIdentity *id = pl_lab_view_result(lab, PL_VIEW_TRAIN, PL_R_IDENTITY, &st);
    char ident[400] = "";
    if (id)
        snprintf(ident, sizeof ident, "pre+mask against post+mask: from the same weights, %s logits differ by %s",
                 pl_arch_name(id->arch), PL_FIG("identity.masked", "%.1e", (double)id->masked_max_diff));
    PlLabGrid grid = pl_lab_grid(lab);
    const char *status = pl_lab_view_draws(lab, PL_VIEW_TRAIN, PL_VIEW_PART_GRID)
                             ? grid.status
                             : "g trains the padding x mask grid over the seeds";
    double foot = r.y + r.h - th * gui_wrap_lines(dl, GUI_SMALL, 0, status, r.w) -
                  (id ? th * gui_wrap_lines(dl, GUI_SMALL, 0, ident, r.w) + 2 * u : 0.0);
    if (!n)
        y += gui_text_wrap(dl, r.x, y, r.w, GUI_SMALL, GUI_C_DIM, GUI_LEFT, "%s",
                           "no run has finished yet: r trains the current settings");
    if (foot < y) foot = y; /* too short for both: the lines under what is there, never over it */
    const PlLabSettings *now = pl_lab_settings(lab);
    for (int i = 0; i < n && i < MAX_GROUPS && y + rh <= foot; i++, y += rh) {
        const PlLabSettings *s = &g[i].settings;
        GuiRect row = {r.x, y, r.w, rh};
        if (pl_lab_same_setting(s, now)) gui_rect(dl, row, GUI_C_PANEL);
        char line[1500], maxlen[16];
        int weak = pl_lab_group_verdict(lab, &g[i]) != PL_ABOVE_CHANCE;
        pl_setting_format(s, PL_S_MAXLEN, maxlen, sizeof maxlen);
        /* the row's figures, each in its column's width; the flags follow them: C the median (not above
         * chance), M the memorised seeds; the row's colour too, plain while they are hidden */
        char n_seeds[160], n_med[160], n_min[160], n_max[160], n_mem[160], all[1024];
        pl_run_names(w, s, "seeds", n_seeds, sizeof n_seeds), pl_run_names(w, s, "median", n_med, sizeof n_med);
        pl_run_names(w, s, "min", n_min, sizeof n_min), pl_run_names(w, s, "max", n_max, sizeof n_max);
        pl_run_names(w, s, "memorised", n_mem, sizeof n_mem);
        int off = pl_ledger_hides_name(dl->ledger, group_all(w, s, all, sizeof all));
        char figs[1200];
        /* a flag is drawn or not: hidden, not at all (its ?s would say it is there) */
        int flag_c = weak && !pl_ledger_hides_name(dl->ledger, n_med),
            flag_m = g[i].memorised && !pl_ledger_hides_name(dl->ledger, n_mem);
        snprintf(figs, sizeof figs, "%s-%s%s%s", PL_FIG(n_min, "%5.3f", (double)g[i].min),
                 PL_FIG(n_max, "%5.3f", (double)g[i].max), flag_c ? " C" : "", flag_m ? " M" : "");
        snprintf(line, sizeof line, "%-9.9s %-4s %-4s %-4s %5s %-14.14s %s %s %s", pl_arch_name((PlArch)s->model),
                 pl_side_name((PlSide)s->padding), pl_side_name((PlSide)s->truncating), s->mask ? "on" : "off", maxlen,
                 pl_batching_name((PlBatching)s->batching), PL_FIG(n_seeds, "%2d", g[i].n),
                 PL_FIG(n_med, "%5.3f", (double)g[i].median), figs);
        GuiColor c = (g[i].memorised || weak) && !off ? GUI_C_WARN : GUI_C_FG;
        if (narrow && !two)
            snprintf(line, sizeof line, "%-7.7s %-4s %-4s %4s %s %s %s", pl_arch_name((PlArch)s->model),
                     pl_side_name((PlSide)s->padding), s->mask ? "on" : "off", maxlen, PL_FIG(n_seeds, "%2d", g[i].n),
                     PL_FIG(n_med, "%5.3f", (double)g[i].median), figs);
        if (two) {
            snprintf(line, sizeof line, "%-7.7s %-4s %-4s %4s %s", pl_arch_name((PlArch)s->model),
                     pl_side_name((PlSide)s->padding), s->mask ? "on" : "off", maxlen, PL_FIG(n_seeds, "%2d", g[i].n));
            gui_text_mono(dl, r.x, y + th + 2 * u, GUI_SMALL, c, GUI_LEFT, "  %s %s",
                          PL_FIG(n_med, "%5.3f", (double)g[i].median), figs);
        }
        char where[96]; /* a run of another corpus says so, read against its own chance */
        pl_lab_group_corpus(lab, &g[i], where, sizeof where);
        if (!narrow && gui_text_w(dl, GUI_SMALL, 1, line) + gui_text_w(dl, GUI_SMALL, 1, where) <= r.w)
            snprintf(line + strlen(line), sizeof line - strlen(line), "%s", where);
        gui_text_mono(dl, r.x, y, GUI_SMALL, c, GUI_LEFT, "%s", line);
        char what[160];
        gui_hover(
            dl, row, "%s%s: %s, median %s (%s-%s), %s, %.1f s a run%s", setting_text(s, what, sizeof what), where,
            PL_FIG(n_seeds, "%d seed%s", g[i].n, g[i].n == 1 ? "" : "s"), PL_FIG(n_med, "%.4f", (double)g[i].median),
            PL_FIG(n_min, "%.4f", (double)g[i].min), PL_FIG(n_max, "%.4f", (double)g[i].max),
            PL_FIG(n_med, "%s", pl_chance_verdict_name(pl_lab_group_verdict(lab, &g[i]))), g[i].seconds,
            PL_FIG(n_mem, "%s", g[i].memorised ? ", memorised: training loss under 0.05, validation at chance" : ""));
        if (!off) gui_datum(dl, "median best accuracy", i, (double)g[i].median, what);
    }
    y = foot;
    if (id) y += gui_text_wrap(dl, r.x, y, r.w, GUI_SMALL, GUI_C_DIM, GUI_LEFT, "%s", ident) + 2 * u;
    gui_text_wrap(dl, r.x, y, r.w, GUI_SMALL, GUI_C_DIM, GUI_LEFT, "%s", status);
}

#define TRAIN_LOSS_ELSEWHERE "training loss per epoch: in a taller window, or e exports it"

void gui_fig_train(GuiList *dl, PlLab *lab, GuiRect r, int *current) {
    const PlLabTraining *t = pl_lab_training(lab);
    char look[500];
    PlLabSettings s = *pl_lab_settings(lab); /* with no runs at all: the current settings' (none) */
    int have = followed(lab, &s);
    const PlRunNames w = pl_lab_run_names(lab);
    PlLabCurves c;
    memset(&c, 0, sizeof c);
    if (have) pl_lab_curves(lab, &s, &c);
    char what[160] = "";
    if (have) setting_text(&s, what, sizeof what);
    if (t->active)
        snprintf(look, sizeof look, "%s %d seed%s of %s: %.0f%% done, ETA %.1f s", t->paused ? "paused:" : "training",
                 t->n, t->n > 1 ? "s" : "", what, 100.0 * t->job.fraction, t->eta);
    else if (have) {
        char seeds[160];
        snprintf(
            look, sizeof look, "%s: %s", what,
            PL_FIG(pl_run_names(&w, &s, "seeds", seeds, sizeof seeds), "%d seed%s", c.nruns, c.nruns == 1 ? "" : "s"));
    } else snprintf(look, sizeof look, "%s", t->status);
    *current = !t->active;
    char src[400], chance[200];
    const PlLabSettings *now = pl_lab_settings(lab);
    snprintf(chance, sizeof chance, "chance %s (always %s)",
             PL_FIG("corpus.majority", "%.3f", pl_lab_chance(lab)->share),
             pl_label_name(pl_lab_chance(lab)->label)); /* pl_lab_chance_text's words, the figure marked */
    if (now->seeds > 1)
        snprintf(src, sizeof src, "a retrain trains seeds %d..%d at once; read against %s", now->seed,
                 now->seed + now->seeds - 1, chance);
    else snprintf(src, sizeof src, "a retrain trains seed %d alone; read against %s", now->seed, chance);
    const PlLedger *ledger = dl->ledger;          /* the lab's, as gui_figure set it */
    if (ledger && ledger->training && !t->active) /* predict first: the runs asked about stay out of sight */
        snprintf(look + strlen(look), sizeof look - strlen(look), "%sthe runs the question asks about stay hidden",
                 look[0] ? "; " : "");
    GuiRect a = gui_fig_header(dl, r, "train: every result a spread over seeds", src, look, NULL, 1);
    double gap = 24 * dl->st->unit;
    GuiRect left = {a.x, a.y, a.w * 0.5 - gap / 2, a.h},
            right = {a.x + a.w * 0.5 + gap / 2, a.y, a.w * 0.5 - gap / 2, a.h};
    if (t->active) { /* the progress bar */
        double h = 6 * dl->st->unit;
        gui_rect(dl, (GuiRect){a.x, a.y - h - 2 * dl->st->unit, a.w, h}, GUI_C_PANEL);
        gui_rect(dl, (GuiRect){a.x, a.y - h - 2 * dl->st->unit, a.w * t->job.fraction, h}, GUI_C_GOOD);
        gui_tag(dl, "progress");
    }
    if (!pl_lab_view_draws(lab, PL_VIEW_TRAIN, PL_VIEW_PART_RUNS)) return; /* the view's row names what it draws */
    /* a curve's panel needs its title, its key and a plot of a few lines of type: too short for two, the
     * accuracy alone, the loss left to the export (a line says so) rather than drawn over it */
    double th = gui_text_h(dl, GUI_SMALL);
    if (gui_row(left, 2, 0, gap).h >= 16 * th) {
        curves(dl, lab, gui_row(left, 2, 0, gap), &c, 0, &s, &w);
        curves(dl, lab, gui_row(left, 2, 1, gap), &c, 1, &s, &w);
    } else {
        double note = gui_wrap_lines(dl, GUI_SMALL, 0, TRAIN_LOSS_ELSEWHERE, left.w) * th;
        curves(dl, lab, (GuiRect){left.x, left.y, left.w, left.h - note - th / 2}, &c, 0, &s, &w);
        gui_text_wrap(dl, left.x, left.y + left.h - note, left.w, GUI_SMALL, GUI_C_DIM, GUI_LEFT, "%s",
                      TRAIN_LOSS_ELSEWHERE);
    }
    PlLabGroup g[MAX_GROUPS];
    int n = pl_lab_groups(lab, g, MAX_GROUPS);
    /* the seeds' dots need a row of type per setting under their title and note, else their names would
     * be drawn over each other: too short, the runs table (the same medians and ranges, as numbers) takes
     * the column */
    int k = n < 8 ? n : 8;
    if (n && gui_row(right, 2, 1, gap).h >= (k + 7) * th * 1.25) {
        runs_table(dl, lab, gui_row(right, 2, 0, gap), &w);
        seed_spread(dl, lab, gui_row(right, 2, 1, gap), g, n < MAX_GROUPS ? n : MAX_GROUPS, &w);
    } else runs_table(dl, lab, right, &w);
}
