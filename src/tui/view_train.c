/* The train view: training shown as what it is, a spread over seeds. Each
 * setting's seeds are points on one axis with their median; the retrain in
 * progress shows each seed's curve; the grid and the runs table group a
 * setting's seeds in one row. */
#include <stdio.h>
#include <string.h>

#include "views.h"

#define AXIS_LO 0.5
#define AXIS_HI 1.0
#define MAX_GROUPS 64

static double axis_frac(double v) {
    double f = (v - AXIS_LO) / (AXIS_HI - AXIS_LO);
    return f < 0 ? 0 : f > 1 ? 1 : f;
}

static int axis_col(double v, int w) { return (int)(axis_frac(v) * (w - 1) + 0.5); }

static const char *setting_text(const PlLabSettings *s, char *buf, int cap) {
    char maxlen[16];
    snprintf(buf, (size_t)cap, "%s %s mask %s %s %s", pl_arch_name((PlArch)s->model), pl_side_name((PlSide)s->padding),
             s->mask ? "on" : "off", pl_setting_format(s, PL_S_MAXLEN, maxlen, sizeof maxlen),
             pl_batching_name((PlBatching)s->batching));
    return buf;
}

/* The names a figure q of the runs of settings s carries (pl_run_names). */
static const char *names_of(PlLab *lab, const PlLabSettings *s, const char *q, char *buf, int cap) {
    PlRunNames w = pl_lab_run_names(lab);
    return pl_run_names(&w, s, q, buf, (size_t)cap);
}

/* One setting's seeds as digits on the 0.5 .. 1.0 axis, | at the median:
 * while the ledger hides its figures, the axis alone. */
static void seed_strip(TuiPane *p, int row, PlLab *lab, const PlLabGroup *g, int label_w, int chance) {
    int n, w = p->box.w - label_w - 22;
    char label[96], med[96], lo[96], hi[96], verdict[96], each[96];
    const PlLabRun *runs = pl_lab_runs(lab, &n);
    names_of(lab, &g->settings, "median", med, sizeof med);
    names_of(lab, &g->settings, "runs", each, sizeof each);
    names_of(lab, &g->settings, "min", lo, sizeof lo);
    names_of(lab, &g->settings, "max", hi, sizeof hi);
    names_of(lab, &g->settings, "over_chance", verdict, sizeof verdict);
    int hidden = tui_hidden(med), seeds_hidden = hidden || tui_hidden(each) || tui_hidden(lo) || tui_hidden(hi);
    pane_put(p, row, 0, label_w - 1, "%s", setting_text(&g->settings, label, sizeof label));
    for (int c = 0; c < w; c++) pane_putc(p, TUI_DIM, row, label_w + c, 1, "%s", tui_glyph(TUI_G_PAD));
    if (chance) pane_putc(p, TUI_WARN, row, label_w + axis_col(g->chance, w), 1, ":");
    if (!hidden) pane_putc(p, TUI_GOOD, row, label_w + axis_col(g->median, w), 1, "|");
    for (int i = 0; i < n && !seeds_hidden; i++) {
        if (!pl_lab_same_setting(&runs[i].settings, &g->settings)) continue;
        int mem = pl_lab_run_memorised(&runs[i], pl_lab_chance(lab));
        pane_putc(p, mem ? TUI_WARN : TUI_REAL, row, label_w + axis_col(runs[i].best_val_acc, w), 1, mem ? "M" : "%d",
                  runs[i].settings.seed % 10);
    }
    /* the C flag is drawn or not: hidden, not at all (its ?s would still say it is there) */
    pane_put(p, row, label_w + w + 1, 21, "%s %s-%s%s", PL_FIG(med, "%.3f", (double)g->median),
             PL_FIG(lo, "%.3f", (double)g->min), PL_FIG(hi, "%.3f", (double)g->max),
             tui_hidden(verdict) || pl_lab_group_verdict(lab, g) == PL_ABOVE_CHANCE ? "" : " C");
}

/* The retrain running (or the last one): each seed's validation accuracy
 * per epoch; while the ledger hides figures of training, the axes alone. */
static void seed_curves(TuiPane *p, int *row, PlLab *lab, const PlLabTraining *t, const PlChance *ch) {
    const PlJobView *v = &t->job;
    int epochs = 0, h = 5, step;
    char med[96], each[96];
    int hidden = tui_hidden(names_of(lab, &t->settings, "median", med, sizeof med)) ||
                 tui_hidden(names_of(lab, &t->settings, "runs", each, sizeof each));
    for (int i = 0; i < t->n && i < v->n; i++) epochs = v->latest[i].epochs > epochs ? v->latest[i].epochs : epochs;
    if (!t->active || epochs < 1) return;
    step = (p->box.w - 8) / epochs;
    step = step > 10 ? 10 : step < 2 ? 2 : step;
    *row += pane_wrap(p, TUI_NORMAL, *row, 0, "validation accuracy per epoch, one digit per seed:");
    pane_putc(p, TUI_DIM, *row, 0, 5, "%.2f", AXIS_HI);
    pane_putc(p, TUI_DIM, *row + h - 1, 0, 5, "%.2f", AXIS_LO);
    int chance_row = *row + h - 1 - (int)(axis_frac(ch->share) * (h - 1) + 0.5);
    for (int c = 6; c < 6 + epochs * step && c < p->box.w; c++) pane_putc(p, TUI_WARN, chance_row, c, 1, ":");
    for (int i = 0; i < t->n && i < v->n && !hidden; i++)
        for (int e = 0; e < v->curve_n[i]; e++) {
            double f = axis_frac((double)v->curve[i][e]);
            pane_putc(p, TUI_REAL, *row + h - 1 - (int)(f * (h - 1) + 0.5), 6 + e * step + i % 2, 1, "%d",
                      (t->settings.seed + i) % 10);
        }
    for (int e = 0; e < epochs; e++) pane_putc(p, TUI_DIM, *row + h, 6 + e * step, step, "%d", e + 1);
    pane_putc(p, TUI_WARN, *row + h + 1, 0, p->box.w, ": the chance line, %s (always %s)",
              PL_FIG("corpus.majority", "%.3f", ch->share), pl_label_name(ch->label));
    *row += h + 3;
}

static void progress(TuiPane *p, int *row, const PlLabTraining *t) {
    if (!t->active) {
        *row += pane_wrap(p, TUI_NORMAL, *row, 0, "%s", t->status);
        return;
    }
    const PlJobView *v = &t->job;
    *row +=
        pane_wrap(p, TUI_NORMAL, *row, 0, "%s %d seed%s: %.0f%% done, %d finished, ETA %.1f s",
                  t->paused ? "PAUSED" : "training", t->n, t->n > 1 ? "s" : "", 100.0 * v->fraction, v->ended, t->eta);
    pane_bar(p, (*row)++, 0, p->box.w - 2 > 50 ? 50 : p->box.w - 2, v->fraction, TUI_GOOD);
}

#define RECENT_SHOWN 4

static void recent_settings(TuiPane *p, int *row, PlLab *lab) {
    PlLabGroup g[MAX_GROUPS];
    int n = pl_lab_groups(lab, g, MAX_GROUPS), shown[RECENT_SHOWN], ns = 0, label_w = 34, memorised = 0, at_chance = 0,
        elsewhere = 0;
    char chance[64];
    if (!n) return;
    int with_chance = pl_lab_view_draws(lab, PL_VIEW_TRAIN, PL_VIEW_PART_CHANCE);
    for (int k = 0; k < RECENT_SHOWN; k++) { /* the most recent settings: a whole padding x mask grid */
        int best = -1;
        for (int i = 0; i < n; i++) {
            int used = 0;
            for (int j = 0; j < ns; j++) used |= shown[j] == i;
            if (!used && (best < 0 || g[i].last_id > g[best].last_id)) best = i;
        }
        if (best >= 0) shown[ns++] = best;
    }
    *row += pane_wrap(p, TUI_NORMAL, *row, 0, "each seed's best validation accuracy on %.1f..%.1f, | the median, : %s",
                      AXIS_LO, AXIS_HI, pl_lab_chance_text(lab, chance, sizeof chance));
    for (int k = 0; k < ns; k++) { /* what the C and M flags mean is said when a row shows one */
        char q[96];
        const PlLabGroup *gk = &g[shown[k]];
        seed_strip(p, (*row)++, lab, gk, label_w, with_chance);
        memorised += !tui_hidden(names_of(lab, &gk->settings, "memorised", q, sizeof q)) && gk->memorised;
        int c = !tui_hidden(names_of(lab, &gk->settings, "over_chance", q, sizeof q)) &&
                pl_lab_group_verdict(lab, gk) != PL_ABOVE_CHANCE;
        char where[96]; /* a run of another corpus is at its own chance, not this one's */
        if (c && *pl_lab_group_corpus(lab, gk, where, sizeof where)) elsewhere++;
        else at_chance += c;
    }
    const PlChance *ch = pl_lab_chance(lab);
    if (at_chance && ch->n_val < PL_LAB_FEW_VAL)
        *row += pane_wrap(p, TUI_WARN, *row, 0, "C: %s, too few to tell any accuracy from %s",
                          PL_FIG("corpus.validation", "%d validation review%s", ch->n_val,
                                 ch->n_val == 1 && !tui_hidden("corpus.validation") ? "" : "s"),
                          PL_FIG("corpus.majority", "%.3f", ch->share));
    else if (at_chance) {
        *row +=
            pane_wrap(p, TUI_WARN, *row, 0, "C at chance: the median is within noise (%s) of %s,",
                      PL_FIG("corpus.chance_noise", "%.3f", ch->noise), PL_FIG("corpus.majority", "%.3f", ch->share));
        *row += pane_wrap(p, TUI_WARN, *row, 2, "no better than answering %s every time", pl_label_name(ch->label));
    }
    if (elsewhere)
        *row += pane_wrap(p, TUI_WARN, *row, 0,
                          "C on another corpus: within noise of that corpus's own chance (the runs table names both)");
    if (memorised)
        *row += pane_wrap(p, TUI_WARN, *row, 0,
                          "M memorised: training loss under %.2f, validation at chance:", (double)PL_MEMORISE_LOSS);
    if (memorised)
        *row += pane_wrap(p, TUI_WARN, *row, 2, "it learned the training reviews by heart, not what carries over");
    (*row)++;
}

static void grid(TuiPane *p, int *row, PlLab *lab) {
    PlLabGrid g = pl_lab_grid(lab);
    if (!pl_lab_view_draws(lab, PL_VIEW_TRAIN, PL_VIEW_PART_GRID)) {
        int seeds = pl_lab_settings(lab)->seeds;
        *row += pane_wrap(p, TUI_NORMAL, *row, 0, "g runs the padding x mask grid of %s over %d seed%s",
                          pl_arch_name((PlArch)pl_lab_settings(lab)->model), seeds, seeds == 1 ? "" : "s");
        return;
    }
    if (g.active)
        *row += pane_wrap(p, TUI_NORMAL, *row, 0, "%s: %d of %d runs done, ETA %.0f s (g stops it)", g.status,
                          g.finished, g.total, g.eta);
    else *row += pane_wrap(p, TUI_NORMAL, *row, 0, "%s", g.status);
    pane_putc(p, TUI_DIM, (*row)++, 0, p->box.w, "%-24s %5s %6s %6s %6s %5s %-12s", "grid", "seeds", "median", "min",
              "max", "mem.", "vs chance");
    for (int c = 0; c < g.ncells; c++) {
        const PlLabGroup *k = &g.cells[c];
        char what[64], q[6][96];
        static const char *const fig[6] = {"seeds", "median", "min", "max", "memorised", "over_chance"};
        for (int f = 0; f < 6; f++) names_of(lab, &k->settings, fig[f], q[f], sizeof q[f]);
        snprintf(what, sizeof what, "%s %s mask %s", pl_arch_name((PlArch)k->settings.model),
                 pl_side_name((PlSide)k->settings.padding), k->settings.mask ? "on" : "off");
        /* the verdict's words are drawn or not: their ?s would keep their shape */
        char d[5][32]; /* each cell drawn, then padded: a hidden one keeps its column */
        pane_put(p, (*row)++, 0, p->box.w, "%-24s %s %s %s %s %s %-12s", what,
                 tui_cell(PL_FIG(q[0], "%d", k->n), 5, d[0], 32),
                 tui_cell(PL_FIG(q[1], "%.3f", (double)k->median), 6, d[1], 32),
                 tui_cell(PL_FIG(q[2], "%.3f", (double)k->min), 6, d[2], 32),
                 tui_cell(PL_FIG(q[3], "%.3f", (double)k->max), 6, d[3], 32),
                 tui_cell(PL_FIG(q[4], "%d", k->memorised), 5, d[4], 32),
                 tui_hidden(q[5]) ? "" : pl_chance_verdict_name(pl_lab_group_verdict(lab, k)));
    }
}

static void identity(TuiPane *p, int *row, PlLab *lab) {
    PlResultStatus st;
    const PlProbeIdentity *r = pl_lab_view_result(lab, PL_VIEW_TRAIN, PL_R_IDENTITY, &st);
    PlLabGrid g = pl_lab_grid(lab);
    if (r)
        *row += pane_wrap(p, TUI_NORMAL, *row, 0,
                          "pre+mask against post+mask: from the same weights, %s logits differ by %s",
                          pl_arch_name(r->arch), PL_FIG("identity.masked", "%.1e", (double)r->masked_max_diff));
    if (!g.ndrift) return;
    char line[1536] = ""; /* each seed's gap, marked: the largest of them is grid.drift */
    for (int i = 0; i < g.ndrift && strlen(line) < sizeof line - 64; i++) {
        char gap[64];
        snprintf(line + strlen(line), sizeof line - strlen(line), "%sseed %d %s", i ? ", " : "", g.drift_seed[i],
                 pl_fig(gap, sizeof gap, "grid.drift", "%.3f", (double)g.drift[i]));
    }
    *row += pane_wrap(p, TUI_NORMAL, *row, 0, "trained, their accuracy differs by up to:");
    *row += pane_wrap(p, TUI_NORMAL, *row, 2, "%s", line);
    /* what the gap is follows the runs: a twin at chance beside one that learned is a collapse */
    const PlLabGroup *pre = &g.cells[1], *post = &g.cells[3];
    int fell = g.ncells == 4 && (pre->at_chance > 0 || post->at_chance > 0) &&
               !(pre->at_chance == pre->n && post->at_chance == post->n);
    *row += pane_wrap(
        p, TUI_DIM, *row, 2, "%s",
        PL_FIG("grid.drift", "%s",
               fell ? "a run fell back to chance while its twin learned: a collapse, not rounding"
                    : "the same computation from one start: rounding a chaotic model amplifies, no real gap"));
}

static void runs_table(TuiPane *p, int *row, PlLab *lab) {
    PlLabGroup g[MAX_GROUPS];
    static const char *const sorts[] = {"in the order they ran", "by median accuracy", "by time"};
    int n = pl_lab_groups(lab, g, MAX_GROUPS);
    *row += pane_wrap(p, TUI_NORMAL, *row, 0,
                      "runs: a row per setting over its seeds, %s (o sorts):", sorts[pl_lab_runs_sort(lab)]);
    pane_putc(p, TUI_DIM, (*row)++, 0, p->box.w, "%-9s %-4s %-4s %-3s %5s %-13s %3s %2s %5s %11s %6s", "model", "pad",
              "cut", "mask", "len", "batching", "bs", "n", "med", "min-max", "time");
    for (int i = 0; i < n; i++, (*row)++) {
        const PlLabSettings *s = &g[i].settings;
        char maxlen[16], q[6][96];
        static const char *const fig[6] = {"seeds", "median", "min", "max", "over_chance", "memorised"};
        for (int f = 0; f < 6; f++) names_of(lab, s, fig[f], q[f], sizeof q[f]);
        /* the C and M flags, and the colour they give the row, are drawn or not: their ?s would say they are there */
        int weak = !tui_hidden(q[4]) && pl_lab_group_verdict(lab, &g[i]) != PL_ABOVE_CHANCE,
            mem = !tui_hidden(q[5]) && g[i].memorised;
        char where[96]; /* a run of another corpus says so, read against its own chance */
        pane_putc(p, mem || weak ? TUI_WARN : TUI_NORMAL, *row, 0, p->box.w,
                  "%-9.9s %-4s %-4s %-3s %5s %-13.13s %3d %s %s %s-%s %5.1fs%s%s%s", pl_arch_name((PlArch)s->model),
                  pl_side_name((PlSide)s->padding), pl_side_name((PlSide)s->truncating), s->mask ? "on" : "off",
                  pl_setting_format(s, PL_S_MAXLEN, maxlen, sizeof maxlen), pl_batching_name((PlBatching)s->batching),
                  s->batch, PL_FIG(q[0], "%2d", g[i].n), PL_FIG(q[1], "%5.3f", (double)g[i].median),
                  PL_FIG(q[2], "%5.3f", (double)g[i].min), PL_FIG(q[3], "%5.3f", (double)g[i].max), g[i].seconds,
                  weak ? " C" : "", mem ? " M" : "", pl_lab_group_corpus(lab, &g[i], where, sizeof where));
    }
}

void tui_view_train(PlLab *lab, TuiPane *p) {
    const PlLabTraining *t = pl_lab_training(lab);
    char src[160];
    const PlLabSettings *s = pl_lab_settings(lab);
    if (s->seeds > 1)
        snprintf(src, sizeof src, "a retrain trains seeds %d..%d at once; C at chance, M memorised", s->seed,
                 s->seed + s->seeds - 1);
    else snprintf(src, sizeof src, "a retrain trains seed %d alone; C at chance, M memorised", s->seed);
    tui_header(p, "train: every result a spread over seeds", src, "the spread of the seeds before any one number", NULL,
               1);
    int row = p->fixed;
    const PlLedger *ledger = pl_lab_ledger(lab);
    if (ledger && ledger->training && !t->active) /* predict first: the runs asked about stay out of sight */
        row +=
            pane_wrap(p, TUI_NORMAL, row, 0, "The runs the question asks about stay hidden (?) until you answer it.");
    progress(p, &row, t);
    row++;
    int runs = pl_lab_view_draws(lab, PL_VIEW_TRAIN, PL_VIEW_PART_RUNS); /* the view's row names what it draws */
    if (runs) seed_curves(p, &row, lab, t, pl_lab_chance(lab));
    if (runs) recent_settings(p, &row, lab);
    grid(p, &row, lab);
    identity(p, &row, lab);
    row++;
    if (runs) runs_table(p, &row, lab);
}
