/* The cost figure: the corpus's lengths with maxlen across them, padding and
 * kept share over maxlen with the point where the pads paid equal the words
 * cut, and what each batching strategy computes. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "app/report/report.h"
#include "figures.h"

/* Each number this figure writes is marked with its quantity's name
 * (app/lab/ledger.h), so that a lesson's open question shows as ?s; a
 * drawing that shows a quantity without writing it (a curve, a bar's pad
 * part) asks the ledger first and leaves the plot empty while it hides it. */

static int hidden(const GuiList *dl, const char *names) { return pl_ledger_hides_name(dl->ledger, names); }

#define FIG PL_FIG /* names "" writes a number that is no quantity: never hidden */

/* Appends ",name" (or name, to an empty list) to names (cap bytes). */
static void add_name(char *names, size_t cap, const char *name) {
    size_t n = strlen(names);
    if (*name) snprintf(names + n, cap - n, "%s%s", n ? "," : "", name);
}

enum { WHY = 160 }; /* room for the names of one sweep point's figure */

/* The sweep point at maxlen (25, 50, ... 800), or -1: where a figure of the
 * current settings is also one of the sweep's. */
static int sweep_point(int maxlen) {
    return maxlen >= 25 && maxlen <= 25 * PL_LAB_SWEEP && maxlen % 25 == 0 ? maxlen : -1;
}

/* maxlen: where the marker goes; shown: how its label names it ("200", "none (longest: 2474)"). */
/* "reviews", or "review" for one (a hidden count keeps the plural, which would give it away). */
static const char *reviews_word(const GuiList *dl, const PlLabCost *k) {
    return k->len_over_maxlen == 1 && !hidden(dl, "cost.truncated_share") ? "review" : "reviews";
}

/* The maxlen marker's label: the reviews longer than maxlen are the rows
 * truncation cuts, the truncated share as a count. */
static const char *maxlen_label(const GuiList *dl, const PlLabCost *k, const char *shown, char *buf, size_t cap) {
    snprintf(buf, cap, "maxlen %s: %s %s cut", shown, PL_FIG("cost.truncated_share", "%d", k->len_over_maxlen),
             reviews_word(dl, k));
    return buf;
}

/* The markers over the lengths: the percentiles' dashed lines and the
 * maxlen line first, then their labels (no line runs through a label), the
 * percentiles' far apart on one row. A percentile the learner is asked for
 * is left out: its marker would show it. */
static void length_marks(GuiList *dl, const GuiPlot *p, const PlLabCost *k, int maxlen, const char *shown) {
    static const char *const names[] = {"p50", "p90", "p95", "p99"};
    static const char *const quantity[] = {"corpus.median", "", "corpus.p95", ""}; /* p90 and p99 are no quantity */
    const double pct[] = {k->lengths.median, k->len_p90, k->lengths.p95, k->len_p99};
    char text[4][64], mark[256];
    const char *label[4];
    double x[4];
    int n = 0;
    for (int i = 0; i < 4; i++) {
        if (*quantity[i] && hidden(dl, quantity[i])) continue;
        gui_plot_vmark(dl, p, pct[i], GUI_C_DIM, dl->st->unit, 1, NULL, 0);
        if (*quantity[i]) snprintf(text[n], sizeof text[n], "%s %s", names[i], PL_FIG(quantity[i], "%.0f", pct[i]));
        else snprintf(text[n], sizeof text[n], "%s %.0f", names[i], pct[i]);
        label[n] = text[n], x[n++] = pct[i];
        gui_datum(dl, names[i], pct[i], 0, NULL);
    }
    int before = dl->n;
    gui_plot_vmark(dl, p, maxlen, GUI_C_MARK, dl->st->line * 1.5, 0, NULL, 0);
    if (dl->n > before && dl->items[dl->n - 1].kind == GUI_I_LINE)
        dl->items[dl->n - 1].tag = gui_dl_intern(dl, "maxlen");
    gui_plot_vlabel(dl, p, maxlen, GUI_C_MARK, maxlen_label(dl, k, shown, mark, sizeof mark), 0);
    gui_plot_vlabels(dl, p, n, x, label, GUI_C_DIM, 1);
}

static void lengths(GuiList *dl, GuiRect r, const PlLabCost *k, int maxlen, const char *shown) {
    int top = 1;
    for (int b = 0; b < PL_LAB_LEN_BINS; b++) top = k->len_hist[b] > top ? k->len_hist[b] : top;
    double reach = (double)k->len_bin_width * PL_LAB_LEN_BINS;
    GuiKey keys[] = {{"kept whole", GUI_C_REAL, GUI_KEY_BOX, 0, GUI_PAT_NONE, 0},
                     {"cut", GUI_C_TRUNC, GUI_KEY_BOX, 0, GUI_PAT_CROSS, 0}};
    GuiPlotSpec sp = {.title = "review lengths",
                      .note = "tokens per review, start token included; cut: longer than maxlen",
                      .xlabel = "tokens",
                      .ylabel = "reviews",
                      .x0 = 0,
                      .x1 = reach,
                      .y0 = 0,
                      .y1 = top * 1.12,
                      .yfmt = GUI_FMT_INT,
                      .xint = 1,
                      .keys = keys,
                      .nkeys = 2};
    GuiPlot p;
    gui_plot_begin(dl, &p, r, &sp);
    double y0 = gui_plot_y(&p, 0.0);
    for (int b = 0; b < PL_LAB_LEN_BINS; b++) {
        int lo = b * k->len_bin_width, hi = lo + k->len_bin_width - 1;
        double x = gui_plot_x(&p, lo), x2 = gui_plot_x(&p, lo + k->len_bin_width), y = gui_plot_y(&p, k->len_hist[b]);
        GuiRect bar = {x + 0.5, y, x2 - x - 1.0, y0 - y};
        int cut = lo >= maxlen; /* every review in the bin is longer than maxlen */
        if (cut) gui_rect_pat(dl, bar, GUI_C_TRUNC, GUI_PAT_CROSS, GUI_C_BG);
        else gui_rect(dl, bar, GUI_C_REAL);
        gui_datum(dl, "reviews", lo, k->len_hist[b], b == PL_LAB_LEN_BINS - 1 ? "and longer" : NULL);
        if (b == PL_LAB_LEN_BINS - 1)
            gui_hover(dl, (GuiRect){x, p.in.y, x2 - x, p.in.h}, "%d tokens or more: %d reviews", lo, k->len_hist[b]);
        else
            gui_hover(dl, (GuiRect){x, p.in.y, x2 - x, p.in.h}, "%d to %d tokens: %d reviews%s", lo, hi, k->len_hist[b],
                      cut ? " (all cut by truncation)" : "");
    }
    length_marks(dl, &p, k, maxlen, shown);
    if (!hidden(dl, "cost.truncated_share")) gui_datum(dl, "maxlen", maxlen, k->len_over_maxlen, NULL);
}

/* The names of the sweep's figures at point i: its own, and the current
 * settings' when the point is their maxlen (static's padding share; the
 * kept share of every batching but longest, which cuts nothing). */
static void sweep_names(const PlLabCost *k, int i, const PlLabSettings *set, char *pad, char *kept, size_t cap) {
    int m = k->sweep_maxlen[i], here = sweep_point(set->maxlen) == m;
    snprintf(pad, cap, "cost.static_padding_share(%d)", m);
    snprintf(kept, cap, "cost.static_kept_share(%d)", m);
    if (here) add_name(pad, cap, "cost.padding_share(static)");
    if (here && set->batching == PL_BATCH_STATIC) add_name(pad, cap, "cost.padding_share");
    if (here && set->batching != PL_BATCH_LONGEST) add_name(kept, cap, "cost.kept_share,cost.cut_share");
}

/* Which of the sweep's curves the ledger hides: a curve is a picture of
 * every one of its points, and the current settings' figure where it meets
 * the maxlen marker. why[s] gets names the ledger hides, of the padding
 * curve (0) and of the kept and cut ones (1), "" when they are shown: the
 * values under the mouse and the crossing go with them. */
static void sweep_hidden(const GuiList *dl, const PlLabCost *k, const PlLabSettings *set, char why[2][WHY]) {
    char pad[WHY], kept[WHY];
    why[0][0] = why[1][0] = '\0';
    for (int i = 0; i < PL_LAB_SWEEP; i++) {
        sweep_names(k, i, set, pad, kept, sizeof pad);
        if (!why[0][0] && hidden(dl, pad)) snprintf(why[0], WHY, "%s", pad);
        if (!why[1][0] && hidden(dl, kept)) snprintf(why[1], WHY, "%s", kept);
    }
    /* between sweep points the marker meets the curve at the current figure too */
    if (!why[0][0] && hidden(dl, "cost.padding_share(static)")) snprintf(why[0], WHY, "cost.padding_share(static)");
    if (!why[0][0] && set->batching == PL_BATCH_STATIC && hidden(dl, "cost.padding_share"))
        snprintf(why[0], WHY, "cost.padding_share");
    if (!why[1][0] && set->batching != PL_BATCH_LONGEST && hidden(dl, "cost.kept_share,cost.cut_share"))
        snprintf(why[1], WHY, "cost.kept_share,cost.cut_share");
}

static void sweep(GuiList *dl, GuiRect r, const PlLabCost *k, int maxlen, const char *shown, const PlLabSettings *set) {
    double xy[3][2 * PL_LAB_SWEEP];
    const double *ys[3] = {k->sweep_padding, k->sweep_kept, k->sweep_cut};
    static const char *const names[3] = {"padding share", "kept share", "tokens cut"};
    static const GuiColor cols[3] = {GUI_C_S2, GUI_C_S1, GUI_C_S3};
    char why[2][WHY];
    sweep_hidden(dl, k, set, why);
    int off[3] = {why[0][0] != '\0', why[1][0] != '\0', why[1][0] != '\0'}; /* the share cut is 1 - kept */
    GuiKey keys[3];
    for (int s = 0; s < 3; s++) keys[s] = (GuiKey){names[s], cols[s], GUI_KEY_LINE, s == 2, GUI_PAT_NONE, 0};
    char note[160] = "every review padded or cut to maxlen";
    if (off[0] || off[1])
        snprintf(note, sizeof note, "every review padded or cut to maxlen; %s hidden until you answer",
                 off[0] && off[1] ? "the curves"
                 : off[0]         ? "the padding share"
                                  : "the kept and cut shares");
    GuiPlotSpec sp = {.title = "static batches over maxlen",
                      .note = note,
                      .xlabel = "maxlen",
                      .ylabel = "share",
                      .x0 = 0,
                      .x1 = k->sweep_maxlen[PL_LAB_SWEEP - 1],
                      .y0 = 0,
                      .y1 = 1,
                      .yfmt = GUI_FMT_PCT,
                      .xint = 1,
                      .keys = keys,
                      .nkeys = 3};
    GuiPlot p;
    gui_plot_begin(dl, &p, r, &sp);
    for (int s = 0; s < 3; s++) {
        if (off[s]) continue;
        for (int i = 0; i < PL_LAB_SWEEP; i++) {
            xy[s][2 * i] = gui_plot_x(&p, k->sweep_maxlen[i]), xy[s][2 * i + 1] = gui_plot_y(&p, ys[s][i]);
            gui_datum(dl, names[s], k->sweep_maxlen[i], ys[s][i], NULL);
        }
        gui_poly(dl, xy[s], PL_LAB_SWEEP, cols[s], dl->st->line, s == 2, names[s]);
    }
    for (int i = 0; i < PL_LAB_SWEEP; i++) {
        double x = gui_plot_x(&p, k->sweep_maxlen[i]), half = p.in.w / PL_LAB_SWEEP / 2;
        char pad[2 * WHY], kept[2 * WHY];
        sweep_names(k, i, set, pad, kept, sizeof pad);
        add_name(pad, sizeof pad, why[0]), add_name(kept, sizeof kept, why[1]);
        gui_hover(dl, (GuiRect){x - half, p.in.y, 2 * half, p.in.h}, "maxlen %d: padding %s, kept %s, cut %s",
                  k->sweep_maxlen[i], PL_FIG(pad, "%.1f%%", 100.0 * k->sweep_padding[i]),
                  PL_FIG(kept, "%.1f%%", 100.0 * k->sweep_kept[i]), PL_FIG(kept, "%.1f%%", 100.0 * k->sweep_cut[i]));
    }
    char label[256];
    if (k->cross_maxlen >= 0.0 && !off[0] && !off[1] && !hidden(dl, "cost.crossing_maxlen")) {
        double cx = gui_plot_x(&p, k->cross_maxlen), cy = gui_plot_y(&p, k->cross_share), d = 6 * dl->st->unit;
        double dia[] = {cx - d, cy, cx, cy - d, cx + d, cy, cx, cy + d, cx - d, cy};
        gui_poly(dl, dia, 5, GUI_C_MARK, dl->st->line, 0, "crossing");
        gui_datum(dl, "crossing", k->cross_maxlen, k->cross_share, "padding share = tokens cut");
        snprintf(label, sizeof label, "pads = cut at %s",
                 PL_FIG("cost.crossing_maxlen", "%.0f (%.0f%%)", k->cross_maxlen, 100.0 * k->cross_share));
        double w = gui_text_w(dl, GUI_SMALL, 0, label), tx = cx + d + 4 * dl->st->unit, ty = cy + d;
        if (tx + w > p.in.x + p.in.w) tx = cx - d - 4 * dl->st->unit - w;
        if (tx < p.in.x) tx = p.in.x; /* inside the plot: the axis's numbers are left of it */
        if (ty + gui_text_h(dl, GUI_SMALL) > p.in.y + p.in.h)
            ty = cy - d - gui_text_h(dl, GUI_SMALL); /* and above it */
        gui_text(dl, tx, ty, GUI_SMALL, GUI_C_MARK, GUI_LEFT, "%s", label);
        gui_hover(dl, (GuiRect){cx - 2 * d, cy - 2 * d, 4 * d, 4 * d},
                  "the pads paid equal the tokens cut at maxlen %s",
                  PL_FIG("cost.crossing_maxlen", "%.1f: %.2f%% each", k->cross_maxlen, 100.0 * k->cross_share));
    }
    snprintf(label, sizeof label, "maxlen %s", shown);
    gui_plot_vmark(dl, &p, maxlen, GUI_C_MARK, dl->st->line * 1.5, 0, label, 0);
    for (int i = dl->n - 1; i >= 0; i--)
        if (dl->items[i].kind == GUI_I_LINE && dl->items[i].color == GUI_C_MARK) {
            dl->items[i].tag = gui_dl_intern(dl, "maxlen on the sweep");
            break;
        }
}

/* The names of strategy row s's figure q ("cells", "padding_share", ...),
 * as the tables name them (pl_report_row_names). */
static const char *row_names(char *buf, size_t cap, const char *q, const PlLabCost *k, const PlStrategyRow *s,
                             int selected) {
    return pl_report_row_names(buf, cap, q, k->strategies, k->nstrategies, (int)(s - k->strategies), selected);
}

/* What a strategy bar shows, as names: all, its length (its cells, or its
 * score cells); split, where its real part ends (its padding share; the
 * real tokens or real score cells, the same count in every row that keeps
 * the selected row's tokens). */
typedef struct {
    char all[160], split[256], real[64];
} BarNames;

static const PlStrategyRow *selected_row(const PlLabCost *k, int selected) {
    for (int i = 0; i < k->nstrategies; i++)
        if ((int)k->strategies[i].kind == selected) return &k->strategies[i];
    return NULL;
}

static void bar_names(const PlLabCost *k, const PlStrategyRow *s, int attn, int selected, BarNames *n) {
    const PlStrategyRow *sel = selected_row(k, selected);
    int mine = (int)s->kind == selected;
    n->real[0] = n->split[0] = '\0';
    row_names(n->all, sizeof n->all, attn ? "attention_cells" : "cells", k, s, selected);
    if (!attn) {
        if (mine) add_name(n->all, sizeof n->all, "cost.rnn_steps"); /* a step per cell */
        if (sel && s->cost.real_tokens == sel->cost.real_tokens) snprintf(n->real, sizeof n->real, "cost.real_tokens");
        row_names(n->split, sizeof n->split, "padding_share", k, s, selected);
        if (mine) add_name(n->split, sizeof n->split, "cost.rnn_wasted");
    } else if (sel && s->cost.attn_real_cells == sel->cost.attn_real_cells)
        snprintf(n->real, sizeof n->real, "cost.attention_real_cells");
    add_name(n->split, sizeof n->split, n->real);
}

/* Whether any bar of a panel has its real part hidden. */
static int any_split_hidden(const GuiList *dl, const PlLabCost *k, int attn, int selected) {
    for (int i = 0; i < k->nstrategies; i++) {
        BarNames n;
        bar_names(k, &k->strategies[i], attn, selected, &n);
        if (hidden(dl, n.split)) return 1;
    }
    return 0;
}

/* A bar's value label: its cells and how they compare with static's, in
 * full, or short ("26.1% fewer", "144.0x", "same") when short_form is 1;
 * the cells' label ends with the batches' shapes, but for short_form 2
 * (the shapes are then drawn on a line of their own). */
static const char *bar_label(const GuiList *dl, const PlLabCost *k, const PlStrategyRow *s, int attn, int short_form,
                             int selected, char *out, int cap) {
    char v[32], vs[48], all[160], saved[96];
    double cells = (double)(attn ? s->cost.attn_cells : s->cost.slots);
    pl_report_vs_static(attn ? s->attn_saved : s->cells_saved, 1, vs, sizeof vs);
    if (short_form) {
        static const char *const tails[] = {" than static", " as many as static", " as static"};
        for (size_t i = 0; i < sizeof tails / sizeof tails[0]; i++) {
            char *t = strstr(vs, tails[i]);
            if (t) *t = '\0';
        }
    }
    row_names(all, sizeof all, attn ? "attention_cells" : "cells", k, s, selected);
    if (!attn && (int)s->kind == selected) add_name(all, sizeof all, "cost.rnn_steps");
    snprintf(saved, sizeof saved, "cost.%s(%s)", attn ? "attention_saved" : "cells_saved", pl_batching_name(s->kind));
    if (hidden(dl, saved)) snprintf(vs, sizeof vs, "hidden"); /* "same", "fewer", "more": the words would tell */
    int n = snprintf(out, (size_t)cap, "%s  (%s)", PL_FIG(all, "%s", gui_num(cells, GUI_FMT_NUM, v, sizeof v)),
                     PL_FIG(saved, "%s", vs));
    if (!attn && short_form < 2 && n >= 0 && n < cap) { /* the cells' panel says what shapes they take */
        char shapes[160];
        row_names(shapes, sizeof shapes, "shapes", k, s, selected);
        snprintf(out + n, (size_t)(cap - n), ", shapes %s", PL_FIG(shapes, "%lld", (long long)s->cost.shapes));
    }
    return out;
}

/* The strategy bars' panel (keys: room for 3; names: the strategies'); off:
 * a bar's real part is hidden. */
static GuiPlotSpec bars_spec(const GuiList *dl, GuiKey *keys, const char *const *names, int n, int attn, int off) {
    keys[0] = (GuiKey){"real", GUI_C_REAL, GUI_KEY_BOX, 0, GUI_PAT_NONE, 0};
    keys[1] = (GuiKey){"pad", GUI_C_PAD, GUI_KEY_BOX, 0, GUI_PAT_HATCH, 0};
    keys[2] = (GuiKey){"selected", GUI_C_SEL, GUI_KEY_LINE, 0, GUI_PAT_NONE, 2 * dl->st->unit};
    const char *note = attn  ? off ? "T x T per row (packed: L x L); pads hidden until you answer"
                                   : "T x T per row (packed: L x L); hatched: a pad on either side"
                       : off ? "rows x width (packed: tokens); pads hidden until you answer. " PL_REPORT_SHAPES_NOTE
                             : "rows x width (packed: tokens); hatched: pads. " PL_REPORT_SHAPES_NOTE;
    return (GuiPlotSpec){.keys = keys,
                         .nkeys = 3,
                         .title = attn ? "attention score cells" : "cells computed",
                         .note = note,
                         .xlabel = attn ? "score cells" : "cells",
                         .ycats = names,
                         .ncats = n};
}

/* The height the two bar panels side by side in a need. */
static double bars_need(GuiList *dl, GuiRect a, const PlLabCost *k, double gap, int selected) {
    const char *names[PL_BATCH_COUNT];
    for (int i = 0; i < k->nstrategies; i++) names[i] = pl_batching_name(k->strategies[i].kind);
    double need = 0.0, th = gui_text_h(dl, GUI_SMALL);
    for (int attn = 0; attn < 2; attn++) {
        GuiKey keys[3];
        GuiPlotSpec sp = bars_spec(dl, keys, names, k->nstrategies, attn, any_split_hidden(dl, k, attn, selected));
        need = fmax(need, gui_plot_need(dl, gui_col(a, 2, attn, gap).w, &sp, k->nstrategies * th * 1.2));
    }
    return need;
}

/* Whether each bar's short value fits beside a quarter of its axis, in
 * both panels side by side in a. */
static int bars_fit(GuiList *dl, GuiRect a, const PlLabCost *k, double gap, int selected) {
    double u = dl->st->unit, left = 0.0, w = gui_col(a, 2, 0, gap).w;
    for (int i = 0; i < k->nstrategies; i++)
        left = fmax(left, gui_text_w(dl, GUI_SMALL, 0, pl_batching_name(k->strategies[i].kind)));
    double inw = w - left - 10 * u;
    for (int attn = 0; attn < 2; attn++)
        for (int i = 0; i < k->nstrategies; i++) {
            char label[512];
            if (gui_text_w(dl, GUI_SMALL, 0,
                           bar_label(dl, k, &k->strategies[i], attn, 1, selected, label, sizeof label)) +
                    8 * u >
                inw * 0.75)
                return 0;
        }
    return 1;
}

/* Bars of every strategy: real cells solid, pad cells hatched; a bar too
 * long for the axis (longest's) is cut at its end with its value written.
 * A bar whose length the ledger hides is left out, one whose real part it
 * hides is drawn whole in one plain fill. */
static void strategy_bars(GuiList *dl, GuiRect r, const PlLabCost *k, int attn, int selected) {
    const char *names[PL_BATCH_COUNT];
    double top = 0.0;
    for (int i = 0; i < k->nstrategies; i++) {
        const PlStrategyRow *s = &k->strategies[i];
        names[i] = pl_batching_name(s->kind);
        double v = (double)(attn ? s->cost.attn_cells : s->cost.slots);
        if (s->kind != PL_BATCH_LONGEST) top = v > top ? v : top;
    }
    double u = dl->st->unit;
    GuiKey keys[3];
    GuiPlotSpec sp = bars_spec(dl, keys, names, k->nstrategies, attn, any_split_hidden(dl, k, attn, selected));
    sp.x1 = top * 1.18;
    /* the axis reaches far enough that every value fits after its bar (the
     * data area's width is the panel's less the names at its left) */
    double left = 0.0, th = gui_text_h(dl, GUI_SMALL), label_w[PL_BATCH_COUNT];
    for (int i = 0; i < k->nstrategies; i++) left = fmax(left, gui_text_w(dl, GUI_SMALL, 0, names[i]));
    double inw = r.w - left - 10 * u;
    int short_form = 0; /* the long labels when every one leaves its bar a quarter of the axis */
    for (int pass = 0; pass < 2; pass++) {
        int fit = 1;
        double x1 = sp.x1;
        for (int i = 0; i < k->nstrategies; i++) {
            const PlStrategyRow *s = &k->strategies[i];
            char label[512];
            double all = (double)(attn ? s->cost.attn_cells : s->cost.slots);
            label_w[i] = gui_text_w(dl, GUI_SMALL, 0, bar_label(dl, k, s, attn, pass, selected, label, sizeof label));
            double room = inw - label_w[i] - 8 * u;
            if (s->kind == PL_BATCH_LONGEST) continue;
            if (room > inw * 0.25) x1 = fmax(x1, all * inw / room);
            else fit = 0;
        }
        short_form = pass;
        if (fit || pass) {
            sp.x1 = x1;
            break;
        }
    }
    GuiPlot p;
    gui_plot_begin(dl, &p, r, &sp);
    for (int i = 0; i < k->nstrategies; i++) {
        const PlStrategyRow *s = &k->strategies[i];
        BarNames n;
        bar_names(k, s, attn, selected, &n);
        int no_bar = hidden(dl, n.all), no_split = no_bar || hidden(dl, n.split);
        double all = (double)(attn ? s->cost.attn_cells : s->cost.slots),
               real = (double)(attn ? s->cost.attn_real_cells : s->cost.real_tokens);
        GuiRect band = gui_plot_cat(&p, i), bar = {p.in.x, band.y + band.h * 0.12, 0, band.h * 0.76};
        double xr = gui_plot_x(&p, real < p.x1 ? real : p.x1), xa = gui_plot_x(&p, all < p.x1 ? all : p.x1);
        if (no_bar) xa = p.in.x;
        else if (no_split) { /* its length, not where its pads begin */
            gui_rect(dl, (GuiRect){bar.x, bar.y, xa - bar.x, bar.h}, GUI_C_PANEL);
            gui_frame(dl, (GuiRect){bar.x, bar.y, xa - bar.x, bar.h}, GUI_C_DIM, u);
        } else {
            gui_rect(dl, (GuiRect){bar.x, bar.y, xr - bar.x, bar.h}, GUI_C_REAL);
            gui_rect_pat(dl, (GuiRect){xr, bar.y, xa - xr, bar.h}, GUI_C_PAD, GUI_PAT_HATCH, GUI_C_DIM);
        }
        if ((int)s->kind == selected && !no_bar)
            gui_frame(dl, (GuiRect){bar.x, bar.y, xa - bar.x, bar.h}, GUI_C_SEL, 2 * u);
        char label[512];
        bar_label(dl, k, s, attn, short_form, selected, label, sizeof label);
        double tw = label_w[i];
        int clipped = all > p.x1 && !no_bar;
        if (clipped) { /* the axis break: two slashes where the bar leaves the axis */
            gui_line(dl, xa - 10 * u, bar.y + bar.h + 2 * u, xa - 4 * u, bar.y - 2 * u, GUI_C_BG, 3 * u, 0);
            gui_line(dl, xa - 4 * u, bar.y + bar.h + 2 * u, xa + 2 * u, bar.y - 2 * u, GUI_C_BG, 3 * u, 0);
        }
        /* the value after the bar (the axis leaves it room), else at the right end over the
         * bar's pads on a plate of the background: the bar's start stays in sight */
        int after = xa + 4 * u + tw <= r.x + r.w;
        double tx = after ? xa + 4 * u : fmax(p.in.x + 3 * u, p.in.x + p.in.w - tw - 3 * u),
               ty = band.y + band.h / 2 - th / 2;
        if (!after) gui_rect(dl, (GuiRect){tx - 3 * u, ty, tw + 6 * u, th}, GUI_C_BG);
        gui_text(dl, tx, ty, GUI_SMALL, GUI_C_FG, GUI_LEFT, "%s", label);
        if (!no_bar) gui_datum(dl, attn ? "attention cells" : "cells", i, all, names[i]);
        if (!no_split) gui_datum(dl, attn ? "attention real cells" : "real cells", i, real, names[i]);
        char pad_names[320];
        snprintf(pad_names, sizeof pad_names, "%s", n.split);
        if (attn) add_name(pad_names, sizeof pad_names, n.all); /* a share of the score cells: both counts' */
        gui_hover(dl, band, "%s: %s %s, %s between real tokens (%s pad)", names[i], PL_FIG(n.all, "%.0f", all),
                  attn ? "score cells" : "cells", FIG(n.split, "%.0f", real),
                  PL_FIG(pad_names, "%.1f%%", all > 0.0 ? 100.0 * (1.0 - real / all) : 0.0));
    }
}

/* Whether a cells line with its shapes is wider than the column col. */
static int shapes_apart(GuiList *dl, GuiRect col, const PlLabCost *k, int selected) {
    for (int i = 0; i < k->nstrategies; i++) {
        char label[512];
        const PlStrategyRow *s = &k->strategies[i];
        bar_label(dl, k, s, 0, 1, selected, label, sizeof label);
        if (gui_text_w(dl, GUI_SMALL, 0, pl_batching_name(s->kind)) + gui_text_w(dl, GUI_SMALL, 0, " ") +
                gui_text_w(dl, GUI_SMALL, 0, label) >
            col.w)
            return 1;
    }
    return 0;
}

/* The batches' shapes of every strategy, one wrapped line across a from y;
 * returns the y under it. */
static double shapes_line(GuiList *dl, GuiRect a, double y, const PlLabCost *k, int selected) {
    char line[1200] = "batch shapes:";
    size_t n = strlen(line);
    for (int i = 0; i < k->nstrategies && n < sizeof line; i++) {
        const PlStrategyRow *s = &k->strategies[i];
        char names[160];
        row_names(names, sizeof names, "shapes", k, s, selected);
        n += (size_t)snprintf(line + n, sizeof line - n, "%s %s %s", i ? "," : "", pl_batching_name(s->kind),
                              PL_FIG(names, "%lld", (long long)s->cost.shapes));
    }
    return y + gui_text_wrap(dl, a.x, y, a.w, GUI_SMALL, GUI_C_FG, GUI_LEFT, "%s", line);
}

/* How a strategy's cells compare with static's, in a table's few
 * characters: "-22.8%", "+4.1%", "12.0x", "same". */
static const char *vs_short(double saved, char *buf, size_t cap) {
    if (fabs(saved) < 0.0005) snprintf(buf, cap, "same");
    else if (saved > 0.0 || 1.0 - saved < 2.0) snprintf(buf, cap, "%+.1f%%", -100.0 * saved);
    else snprintf(buf, cap, "%.1fx", 1.0 - saved);
    return buf;
}

/* Columns of the strategies' table, in characters of the monospace type. */
enum { T_CELLS = 15, T_VS = 21, T_SHAPES = 29, T_SCORES = 36, T_SVS = 42, T_END = 49 };

/* One strategy's row of the table at y; x0 the table's left, cw a character. */
static void table_row(GuiList *dl, double x0, double y, double cw, const PlLabCost *k, const PlStrategyRow *s,
                      int selected) {
    for (int c = 0; c < 2; c++) {
        BarNames n;
        bar_names(k, s, c, selected, &n);
        char all[160], saved[96], v[32], vs[32];
        row_names(all, sizeof all, c ? "attention_cells" : "cells", k, s, selected);
        if (!c && (int)s->kind == selected) add_name(all, sizeof all, "cost.rnn_steps");
        snprintf(saved, sizeof saved, "cost.%s(%s)", c ? "attention_saved" : "cells_saved", pl_batching_name(s->kind));
        double cells = (double)(c ? s->cost.attn_cells : s->cost.slots);
        gui_text_mono(dl, x0 + (c ? T_SCORES : T_CELLS) * cw, y, GUI_SMALL, GUI_C_FG, GUI_LEFT, "%s",
                      PL_FIG(all, "%s", gui_num(cells, GUI_FMT_NUM, v, sizeof v)));
        gui_text_mono(dl, x0 + (c ? T_SVS : T_VS) * cw, y, GUI_SMALL, GUI_C_FG, GUI_LEFT, "%s",
                      PL_FIG(saved, "%s", vs_short(c ? s->attn_saved : s->cells_saved, vs, sizeof vs)));
        if (!hidden(dl, n.all))
            gui_datum(dl, c ? "attention cells" : "cells", (int)(s - k->strategies), cells, pl_batching_name(s->kind));
    }
    char shapes[160];
    row_names(shapes, sizeof shapes, "shapes", k, s, selected);
    gui_text_mono(dl, x0 + T_SHAPES * cw, y, GUI_SMALL, GUI_C_FG, GUI_LEFT, "%s",
                  PL_FIG(shapes, "%lld", (long long)s->cost.shapes));
}

/* The height the strategies' table takes in a, or 0 when a is too narrow for it. */
static double table_need(const GuiList *dl, GuiRect a, const PlLabCost *k) {
    double cw = gui_text_w(dl, GUI_SMALL, 1, "0"), th = gui_text_h(dl, GUI_SMALL);
    return T_END * cw > a.w ? 0.0 : (k->nstrategies + 2) * th;
}

/* The strategies as a table, a row each (their cells and score cells
 * against static's, their shapes), from the top of a; 0 (nothing drawn)
 * when a is too narrow or too short for it. */
static int strategy_table(GuiList *dl, GuiRect a, const PlLabCost *k, int selected) {
    double cw = gui_text_w(dl, GUI_SMALL, 1, "0"), th = gui_text_h(dl, GUI_SMALL), need = table_need(dl, a, k);
    if (need <= 0.0 || need > a.h) return 0;
    static const struct {
        int col;
        const char *head[2];
    } heads[] = {
        {T_CELLS, {"cells", "vs static"}}, {T_SHAPES, {"shapes", ""}}, {T_SCORES, {"score cells", "vs static"}}};
    for (size_t h = 0; h < sizeof heads / sizeof heads[0]; h++)
        for (int l = 0; l < 2; l++)
            gui_text_mono(dl, a.x + heads[h].col * cw, a.y + l * th, GUI_SMALL, GUI_C_DIM, GUI_LEFT, "%s",
                          heads[h].head[l]);
    for (int i = 0; i < k->nstrategies; i++) {
        double y = a.y + (i + 2) * th;
        gui_text_mono(dl, a.x, y, GUI_SMALL, GUI_C_FG, GUI_LEFT, "%s", pl_batching_name(k->strategies[i].kind));
        table_row(dl, a.x, y, cw, k, &k->strategies[i], selected);
    }
    return 1;
}

/* Each strategy's cells (left) and score cells (right) against static's, a
 * line each in small type, from the top of a; where a cells line with its
 * shapes would wrap, the shapes go on a line of their own under both. */
static void strategy_lines(GuiList *dl, GuiRect a, const PlLabCost *k, int selected) {
    if (strategy_table(dl, a, k, selected)) return;
    double gap = 16 * dl->st->unit, y0 = a.y, bottom = a.y;
    int apart = shapes_apart(dl, gui_col(a, 2, 0, gap), k, selected);
    for (int c = 0; c < 2; c++) {
        GuiRect col = gui_col(a, 2, c, gap);
        double y = y0 + gui_text_wrap(dl, col.x, y0, col.w, GUI_SMALL, GUI_C_DIM, GUI_LEFT, "%s",
                                      c ? "attention score cells" : "cells computed");
        for (int i = 0; i < k->nstrategies; i++) {
            char label[512];
            const PlStrategyRow *s = &k->strategies[i];
            BarNames n;
            bar_names(k, s, c, selected, &n);
            y += gui_text_wrap(dl, col.x, y, col.w, GUI_SMALL, GUI_C_FG, GUI_LEFT, "%s %s", pl_batching_name(s->kind),
                               bar_label(dl, k, s, c, apart ? 2 : 1, selected, label, sizeof label));
            if (!hidden(dl, n.all))
                gui_datum(dl, c ? "attention cells" : "cells", i, (double)(c ? s->cost.attn_cells : s->cost.slots),
                          pl_batching_name(s->kind));
        }
        bottom = fmax(bottom, y);
    }
    if (apart) shapes_line(dl, a, bottom + 4 * dl->st->unit, k, selected);
}

/* The width a plot of the lengths or the sweep needs: the maxlen marker's
 * label across it. */
static double plot_min_w(GuiList *dl, const PlLabCost *k, const char *shown) {
    char mark[160];
    return gui_text_w(dl, GUI_SMALL, 0, maxlen_label(dl, k, shown, mark, sizeof mark)) + 60 * dl->st->unit;
}

/* The strategies' table at the left of a and, in the room right of it, the
 * lengths beside the sweep, above it, or alone, as that room allows; 0
 * (nothing drawn) where the table does not fit or no plot does beside it. */
static int table_beside_plots(GuiList *dl, GuiRect a, const PlLabCost *k, int maxlen, const char *shown,
                              const PlLabSettings *set, int selected) {
    double cw = gui_text_w(dl, GUI_SMALL, 1, "0"), th = gui_text_h(dl, GUI_SMALL), gap = 24 * dl->st->unit;
    double need = table_need(dl, a, k), minw = plot_min_w(dl, k, shown), minh = 11 * th;
    GuiRect side = {a.x + T_END * cw + gap, a.y, a.w - T_END * cw - gap, a.h};
    if (need <= 0.0 || need > a.h || side.w < minw || side.h < minh) return 0;
    strategy_table(dl, a, k, selected);
    if (side.w >= 2 * minw + gap) {
        lengths(dl, gui_col(side, 2, 0, gap), k, maxlen, shown);
        sweep(dl, gui_col(side, 2, 1, gap), k, maxlen, shown, set);
    } else if (side.h >= 2 * minh + gap) {
        lengths(dl, gui_row(side, 2, 0, gap), k, maxlen, shown);
        sweep(dl, gui_row(side, 2, 1, gap), k, maxlen, shown, set);
    } else lengths(dl, side, k, maxlen, shown);
    return 1;
}

/* The two upper plots' numbers as lines at the top of a; returns the y under them. */
static double summary(GuiList *dl, GuiRect a, const PlLabCost *k, const char *shown, const PlLabSettings *set) {
    double y = gui_fig_line(
        dl, a, a.y, GUI_C_FG, "review lengths: p50 %s, p90 %.0f, p95 %s, p99 %.0f tokens; maxlen %s: %s %s cut",
        PL_FIG("corpus.median", "%.0f", k->lengths.median), k->len_p90, PL_FIG("corpus.p95", "%.0f", k->lengths.p95),
        k->len_p99, shown, PL_FIG("cost.truncated_share", "%d", k->len_over_maxlen), reviews_word(dl, k));
    char why[2][WHY];
    sweep_hidden(dl, k, set, why); /* the crossing goes with the curves that meet there */
    char names[3 * WHY] = "cost.crossing_maxlen";
    add_name(names, sizeof names, why[0]), add_name(names, sizeof names, why[1]);
    if (k->cross_maxlen >= 0.0)
        y = gui_fig_line(dl, a, y, GUI_C_FG, "static batches: the pads paid equal the tokens cut at maxlen %s",
                         PL_FIG(names, "%.0f (%.0f%%)", k->cross_maxlen, 100.0 * k->cross_share));
    return y;
}

void gui_fig_cost(GuiList *dl, PlLab *lab, GuiRect r, int *current) {
    PlResultStatus st;
    const PlLabCost *k = pl_lab_view_result(lab, PL_VIEW_COST, PL_R_COST, &st);
    char src[400] = "", cut[160];
    if (st.info)
        snprintf(src, sizeof src, "all %s reviews, batches of %d, %s, %s",
                 PL_FIG("corpus.reviews", "%d", pl_lab_corpus(lab)->n), st.info->settings.batch,
                 pl_maxlen_cut_text(st.info->settings.maxlen, st.info->longest, cut, sizeof cut),
                 pl_batching_name((PlBatching)st.info->settings.batching));
    char look[800] = "";
    if (k) { /* the headline is the selected batching's row of the strategies too */
        char pad[160];
        pl_report_selected_names(pad, sizeof pad, "padding_share", "padding_share", st.info->settings.batching);
        snprintf(look, sizeof look, "padding %s of the cells, %s of the tokens kept, %s of the reviews cut",
                 PL_FIG(pad, "%.1f%%", 100.0 * k->padding_share),
                 PL_FIG("cost.kept_share", "%.1f%%", 100.0 * k->kept_share),
                 PL_FIG("cost.truncated_share", "%.1f%%", 100.0 * k->truncated_share));
    }
    *current = k && !st.stale;
    GuiRect a =
        gui_fig_header(dl, r, "cost: what the batching costs, over the whole corpus", src, look, &st, k != NULL);
    if (!k || a.h <= 0) return;
    const PlLabSettings *set = &st.info->settings;
    int selected = set->batching;
    double gap = 24 * dl->st->unit, th = gui_text_h(dl, GUI_SMALL);
    GuiRect top = gui_row(a, 2, 0, gap), bottom = gui_row(a, 2, 1, gap);
    double need = bars_need(dl, a, k, gap, selected); /* a row per strategy, its name whole, and the panel's head */
    int bars = bars_fit(dl, a, k, gap, selected);
    if (!bars) /* too narrow for a value beside its bar: the table under the plots, else lines */
        need = table_need(dl, a, k) > 0.0 ? table_need(dl, a, k) : 1e9;
    int maxlen = pl_maxlen_of(set->maxlen, st.info->longest); /* none: the marker at the longest */
    char shown[64];
    pl_maxlen_text(set->maxlen, st.info->longest, shown, sizeof shown);
    if (bottom.h < need || !bars) { /* the bars (or the table) take what their rows need; the plots the rest */
        bottom = (GuiRect){a.x, a.y + a.h - need, a.w, need};
        top = (GuiRect){a.x, a.y, a.w, a.h - need - gap};
    }
    int narrow = plot_min_w(dl, k, shown) > gui_col(top, 2, 0, gap).w || top.h < 15 * th;
    if (top.h < 14 * th || (!bars && narrow)) { /* the two plots' numbers as lines, the bars under them */
        double y = summary(dl, a, k, shown, set);
        bottom = (GuiRect){a.x, y + gap / 2, a.w, a.y + a.h - y - gap / 2};
        if (!bars || bottom.h < need) { /* too short for the bars too: a table (plots beside it), else lines */
            if (!table_beside_plots(dl, bottom, k, maxlen, shown, set, selected))
                strategy_lines(dl, bottom, k, selected);
            return;
        }
        strategy_bars(dl, gui_col(bottom, 2, 0, gap), k, 0, selected);
        strategy_bars(dl, gui_col(bottom, 2, 1, gap), k, 1, selected);
        return;
    }
    lengths(dl, gui_col(top, 2, 0, gap), k, maxlen, shown);
    sweep(dl, gui_col(top, 2, 1, gap), k, maxlen, shown, set);
    if (!bars) {
        strategy_table(dl, bottom, k, selected);
        return;
    }
    strategy_bars(dl, gui_col(bottom, 2, 0, gap), k, 0, selected);
    strategy_bars(dl, gui_col(bottom, 2, 1, gap), k, 1, selected);
}
