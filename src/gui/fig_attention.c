/* The attention figure: head 0's softmax weights of the example as a map of
 * weight relative to uniform (log scale: white is an even spread), the pad
 * key columns banded and outlined on the map, each query row's share of
 * weight on pads as a bar beside it, and the probe's figures at the right.
 * The blocks and shares come from the app layer's map (app/lab/attmap.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "app/lab/attmap.h"
#include "figures.h"

/* What the layout needs: the map, its rectangle and the columns beside it. */
typedef struct {
    const PlProbeAttention *a;
    PlAttMap m;
    GuiRect heat, bars, side, lines; /* side: the legend; lines: the figures */
    int cols, short_form;            /* the figures' columns; their labels shortened */
    double u, th, col_w;
} Att;

/* The figures at the right, one line each: (colour, text), each number
 * marked with its quantity (app/lab/ledger.h). */
enum { N_LINES = 9 };
typedef struct {
    GuiColor c[N_LINES];
    char s[N_LINES][320];
} Lines;

/* What the map and its bars show without writing it: each row's share on
 * pads is head 0's part of attention.pad_share, the pad columns' weights
 * hold the largest weight on a pad key. */
#define BARS_SHOW "attention.pad_share"
#define PAD_COLUMNS_SHOW "attention.pad_share,attention.pad_weight_max"

#define FIG PL_FIG /* names "" writes a number that is no quantity: never hidden */

/* short: the same figures under shorter labels, for a window with no room
 * for the long ones (the names the lessons quote are kept). A line's colour
 * follows its figure: plain while the figure is hidden. */
static void fill_lines(Lines *l, const PlProbeAttention *a, int short_form, const PlLedger *ledger) {
    int i = 0, sf = short_form;
    double inv = (double)a->batch_invariance_max_diff;
    /* head 0's share: with one head it is the share, with more it gives it away */
    l->c[i] = pl_ledger_hides_name(ledger, BARS_SHOW) ? GUI_C_FG
              : a->head_pad_share[0] > 0.0f           ? GUI_C_WARN
                                                      : GUI_C_GOOD;
    snprintf(l->s[i++], sizeof l->s[0],
             sf ? "head 0: %s of weight on pads" : "head 0: %s of a real query's weight on pads",
             PL_FIG(BARS_SHOW, "%.1f%%", 100.0 * (double)a->head_pad_share[0]));
    l->c[i] = GUI_C_FG;
    snprintf(l->s[i++], sizeof l->s[0],
             sf ? "pad weight %s (%sx%s rows)" : "pad weight %s in %sx%s rows (real x heads)",
             PL_FIG("attention.leak_total", "%.2f", (double)a->leak_total), PL_FIG("attention.real", "%d", a->L),
             PL_FIG("attention.heads", "%d", a->heads));
    l->c[i] = GUI_C_FG;
    snprintf(l->s[i++], sizeof l->s[0], sf ? "largest on one pad key: %s" : "largest weight on one pad key: %s",
             PL_FIG("attention.pad_weight_max", "%.4f", (double)a->pad_weight_max));
    l->c[i] = GUI_C_FG;
    snprintf(l->s[i++], sizeof l->s[0], "|row sum - 1| <= %s, NaN %s",
             PL_FIG("attention.row_sum_error", "%.1e", (double)a->row_sum_error_max),
             PL_FIG("attention.nan", "%d", a->nan_count));
    l->c[i] = GUI_C_FG;
    snprintf(l->s[i++], sizeof l->s[0], sf ? "queries seeing no key: %s" : "queries seeing no key: %s (zero rows)",
             PL_FIG("attention.empty_rows", "%d", a->empty_rows));
    /* the lesson's goal: under 0.000001 is float rounding */
    l->c[i] = pl_ledger_hides_name(ledger, "attention.invariance") ? GUI_C_FG : inv < 1e-6 ? GUI_C_GOOD : GUI_C_WARN;
    snprintf(l->s[i++], sizeof l->s[0], sf ? "short vs long partner: %s" : "short vs long partner: outputs differ %s",
             PL_FIG("attention.invariance", "%.2g", inv));
    l->c[i] = GUI_C_FG;
    snprintf(l->s[i++], sizeof l->s[0], "packed vs padded + mask: %s",
             PL_FIG("attention.packed_vs_padded", "%.2e", (double)a->packed_vs_padded_max_diff));
    l->c[i] = GUI_C_FG;
    snprintf(l->s[i++], sizeof l->s[0],
             sf ? "zeroing pads after the softmax: %s" : "zeroing pads after the softmax: a row sums %s",
             PL_FIG("attention.wrong_fix_sum", "%.3f", (double)a->wrong_fix_min_sum));
    l->c[i] = GUI_C_FG;
    snprintf(l->s[i++], sizeof l->s[0],
             sf ? "cells/head: %s padded, %s packed" : "score cells per head: %s padded, %s packed",
             PL_FIG("attention.padded_cells", "%lld", (long long)a->padded_cells),
             PL_FIG("attention.packed_cells", "%lld", (long long)a->packed_cells));
}

enum { N_LEGEND = 4 };
static const char *const LEGENDS[2][N_LEGEND] = {
    {"weight / uniform (1/keys seen), log", "a key the mask hides", "pad keys (the band above)",
     "bar: the row's share on pads"},
    {"weight / uniform, log", "masked key", "pad keys", "row's share on pads"},
};

/* The widths of the legend (long or short) and of the figures' lines. */
static double legend_width(const GuiList *dl, int short_form) {
    const char *const *lg = LEGENDS[short_form];
    double w = gui_text_w(dl, GUI_SMALL, 0, lg[0]), sw = 28 * dl->st->unit;
    for (int i = 1; i < N_LEGEND; i++) w = fmax(w, sw + gui_text_w(dl, GUI_SMALL, 0, lg[i]));
    return w;
}

static double lines_width(const GuiList *dl, const Lines *l) {
    double w = 0.0;
    for (int i = 0; i < N_LINES; i++) w = fmax(w, gui_text_w(dl, GUI_SMALL, 0, l->s[i]));
    return w;
}

/* The map's square, the bar column, the legend and the figures inside
 * area, in the arrangement that leaves the largest map of those whose text
 * fits: both text columns beside it, the legend beside and the figures
 * under it (in as many columns as the width takes), or both under. Returns
 * the map's side; under 40 units the text runs past the area. */
static double layout(Att *t, const GuiList *dl, GuiRect area, const Lines *l) {
    double u = t->u, th = t->th;
    double left = gui_text_w(dl, GUI_SMALL, 0, "query 0000") + 12 * u;
    double barw = fmax(64 * u, gui_text_w(dl, GUI_SMALL, 0, "on pads") + 4 * u);
    double top = 2 * th + 10 * u, bottom = th + 4 * u, gap = 24 * u;
    double lw = legend_width(dl, t->short_form), fw = lines_width(dl, l);
    double lh = th + 4 * u + 14 * u + th + 10 * u + N_LEGEND * (th + 6 * u);
    int cols = (int)fmax(1.0, fmin(3.0, floor((area.w + gap) / (fw + gap))));
    double fh = N_LINES * th * 1.2, fh_cols = ceil((double)N_LINES / cols) * th * 1.2;
    double across = area.w - left - 10 * u - barw - gap, down = area.h - top - bottom, none = -1e9;
    double side[3] = {lh + fh <= area.h ? fmin(down, across - fmax(lw, fw)) : none,
                      lh <= area.h ? fmin(down - gap - fh_cols, across - lw) : none,
                      fmin(down - gap - lh - fh, across + gap)};
    int best = 0;
    for (int i = 1; i < 3; i++)
        if (side[i] > side[best]) best = i;
    double sd = fmax(side[best], 40 * u);
    t->cols = best == 1 ? cols : 1;
    t->col_w = fw + gap;
    t->heat = (GuiRect){area.x + left, area.y + top, sd, sd};
    t->bars = (GuiRect){t->heat.x + sd + 10 * u, t->heat.y, barw, sd};
    double sx = t->bars.x + barw + gap, below = t->heat.y + sd + bottom + gap;
    if (best == 0) {
        t->side = (GuiRect){sx, area.y, area.x + area.w - sx, lh};
        t->lines = (GuiRect){sx, area.y + lh, area.x + area.w - sx, fh};
    } else if (best == 1) {
        t->side = (GuiRect){sx, area.y, area.x + area.w - sx, lh};
        t->lines = (GuiRect){area.x, below, area.w, fh_cols};
    } else {
        t->side = (GuiRect){area.x, below, area.w, lh};
        t->lines = (GuiRect){area.x, below + lh, area.w, fh};
    }
    return side[best];
}

/* Cells whose keys the mask hides from their queries: hatched, in runs. */
static void hatch_hidden(GuiList *dl, const Att *t) {
    const PlAttMap *m = &t->m;
    double cw = t->heat.w / m->nk, ch = t->heat.h / m->nq;
    for (int i = 0; i < m->nq; i++)
        for (int j = 0; j < m->nk;) {
            if (!isnan(m->rel[(size_t)i * m->nk + j])) {
                j++;
                continue;
            }
            int e = j;
            while (e < m->nk && isnan(m->rel[(size_t)i * m->nk + e])) e++;
            gui_rect_pat(dl, (GuiRect){t->heat.x + j * cw, t->heat.y + i * ch, (e - j) * cw, ch}, GUI_C_NONE,
                         GUI_PAT_HATCH, GUI_C_NEGINF);
            j = e;
        }
}

/* A run of blocks from j with the same pad flag (v[j] != 0); returns its end. */
static int run_end(const int *v, int n, int j) {
    int e = j;
    while (e < n && (v[e] != 0) == (v[j] != 0)) e++;
    return e;
}

/* The key band over the map: its runs of real keys and of pad keys, each
 * named when it is wide enough; the border between them as a line down the
 * map; at the left, the same band for the queries. */
static void mark_pads(GuiList *dl, const Att *t) {
    const PlAttMap *m = &t->m;
    double u = t->u, cw = t->heat.w / m->nk, ch = t->heat.h / m->nq, bh = t->th + 2 * u;
    for (int j = 0; j < m->nk;) {
        int e = run_end(m->pad_keys, m->nk, j), pad = m->pad_keys[j] != 0;
        GuiRect band = {t->heat.x + j * cw, t->heat.y - bh - 2 * u, (e - j) * cw, bh};
        gui_rect(dl, band, pad ? GUI_C_PAD : GUI_C_REAL);
        gui_tag(dl, pad ? "pad key band" : "real key band");
        const char *name = pad ? "pad keys" : "words";
        if (gui_text_w(dl, GUI_SMALL, 0, name) + 6 * u < band.w)
            gui_text(dl, band.x + band.w / 2, band.y + u, GUI_SMALL, pad ? GUI_C_FG : GUI_C_BG, GUI_CENTER, "%s", name);
        if (j > 0) gui_line(dl, band.x, band.y, band.x, t->heat.y + t->heat.h, GUI_C_MARK, 2.5 * u, 0);
        j = e;
    }
    for (int i = 0; i < m->nq;) {
        int e = run_end(m->pad_queries, m->nq, i);
        gui_rect(dl, (GuiRect){t->heat.x - 8 * u, t->heat.y + i * ch, 6 * u, (e - i) * ch},
                 m->pad_queries[i] ? GUI_C_PAD : GUI_C_REAL);
        i = e;
    }
}

/* "hidden until you answer" down the middle of r, a word a line, where it fits. */
static void hidden_note(GuiList *dl, GuiRect r, double th) {
    static const char *const words[] = {"hidden", "until you", "answer"};
    double u = dl->st->unit, y = r.y + r.h / 2 - 1.5 * th;
    for (int i = 0; i < 3; i++)
        if (gui_text_w(dl, GUI_SMALL, 0, words[i]) + 4 * u > r.w || r.h < 4 * th) return;
    for (int i = 0; i < 3; i++, y += th)
        gui_text(dl, r.x + r.w / 2, y, GUI_SMALL, GUI_C_DIM, GUI_CENTER, "%s", words[i]);
}

/* The pad key columns covered, while the ledger hides what their weights
 * show: the map keeps its real keys and its shape. */
static void cover_pad_columns(GuiList *dl, const Att *t) {
    const PlAttMap *m = &t->m;
    if (!pl_ledger_hides_name(dl->ledger, PAD_COLUMNS_SHOW)) return;
    double cw = t->heat.w / m->nk;
    for (int j = 0; j < m->nk;) {
        int e = run_end(m->pad_keys, m->nk, j);
        if (m->pad_keys[j]) {
            GuiRect c = {t->heat.x + j * cw, t->heat.y, (e - j) * cw, t->heat.h};
            gui_rect(dl, c, GUI_C_PANEL);
            gui_tag(dl, "pad columns hidden");
            hidden_note(dl, c, t->th);
        }
        j = e;
    }
}

/* Each query row's pad share as a bar from the left of the column, 0 to
 * 100%; while the ledger hides the share, the empty column. */
static void share_bars(GuiList *dl, const Att *t) {
    const PlAttMap *m = &t->m;
    GuiRect b = t->bars;
    double ch = b.h / m->nq, u = t->u;
    int off = pl_ledger_hides_name(dl->ledger, BARS_SHOW);
    gui_rect(dl, b, GUI_C_PANEL);
    if (off) hidden_note(dl, b, t->th);
    for (int i = 0; !off && i < m->nq; i++) {
        float s = m->share[i];
        if (isnan(s) || s <= 0.0f) continue;
        /* a pixel taller than the row, so that rows of one share join up without seams */
        gui_rect(dl, (GuiRect){b.x, b.y + i * ch, b.w * fmin(1.0, (double)s), ch + (i + 1 < m->nq ? 1.0 : 0.0)},
                 GUI_C_WARN);
    }
    gui_frame(dl, b, GUI_C_AXIS, u);
    gui_tag(dl, "pad share bars");
    gui_text(dl, b.x + b.w / 2, t->heat.y - 2 * t->th - 8 * u, GUI_SMALL, GUI_C_FG, GUI_CENTER, "on pads");
    gui_text(dl, b.x, b.y + b.h + 2 * u, GUI_SMALL, GUI_C_DIM, GUI_LEFT, "0");
    gui_text(dl, b.x + b.w, b.y + b.h + 2 * u, GUI_SMALL, GUI_C_DIM, GUI_RIGHT, "100%%");
    if (gui_mouse_in(dl, b)) {
        int i = (int)((dl->my - b.y) / ch);
        i = i < 0 ? 0 : i >= m->nq ? m->nq - 1 : i;
        if (isnan(m->share[i])) gui_hover(dl, b, "query %d: a pad query", pl_attmap_first(m->T, m->qper, i));
        else
            gui_hover(dl, b, "query %d: %s of its weight on pads", pl_attmap_first(m->T, m->qper, i),
                      PL_FIG(BARS_SHOW, "%.2f%%", 100.0 * (double)m->share[i]));
    }
}

/* The axes' labels round the map. */
static void axes(GuiList *dl, const Att *t) {
    GuiRect h = t->heat;
    double u = t->u, th = t->th;
    int T = t->a->T;
    gui_text(dl, h.x, h.y - 2 * th - 8 * u, GUI_SMALL, GUI_C_DIM, GUI_LEFT, "keys ->");
    gui_text(dl, h.x - 10 * u, h.y, GUI_SMALL, GUI_C_DIM, GUI_RIGHT, "query 0");
    /* the last query and key: the width, which a question of the close-up's length may hide */
    gui_text(dl, h.x - 10 * u, h.y + h.h - th, GUI_SMALL, GUI_C_DIM, GUI_RIGHT, "%s",
             PL_FIG("attention.width", "%d", T - 1));
    /* "key 0" at the left when it clears the last key's number, else "0" */
    int wide = gui_text_w(dl, GUI_SMALL, 0, "key 0 0000") + 8 * u < h.w;
    gui_text(dl, h.x, h.y + h.h + 2 * u, GUI_SMALL, GUI_C_DIM, GUI_LEFT, "%s", wide ? "key 0" : "0");
    gui_text(dl, h.x + h.w, h.y + h.h + 2 * u, GUI_SMALL, GUI_C_DIM, GUI_RIGHT, "%s",
             PL_FIG("attention.width", "%d", T - 1));
}

/* The value under the mouse: the cell's weight, its uniform and their
 * ratio; for a block of several queries or keys, its mean ratio. */
static void hover(GuiList *dl, const Att *t) {
    const PlProbeAttention *a = t->a;
    const PlAttMap *m = &t->m;
    GuiRect h = t->heat;
    if (!gui_mouse_in(dl, h)) return;
    int i = (int)((dl->my - h.y) / (h.h / m->nq)), j = (int)((dl->mx - h.x) / (h.w / m->nk));
    i = i < 0 ? 0 : i >= m->nq ? m->nq - 1 : i, j = j < 0 ? 0 : j >= m->nk ? m->nk - 1 : j;
    int q = pl_attmap_first(a->T, m->qper, i), k = pl_attmap_first(a->T, m->kper, j);
    float rel = m->rel[(size_t)i * m->nk + j];
    const char *names = m->pad_keys[j] ? PAD_COLUMNS_SHOW : ""; /* a pad key's weight goes with its column */
    /* a query's and a key's index: at the map's edge it is the width a question may hide, and a
     * query's visible keys are the example's real tokens */
    if (m->qper > 1 || m->kper > 1) {
        gui_hover(dl, h, "queries %d-%s, keys %d-%s: mean weight %s x uniform%s", q,
                  FIG("attention.width", "%d", pl_attmap_first(a->T, m->qper, i + 1) - 1), k,
                  FIG("attention.width", "%d", pl_attmap_first(a->T, m->kper, j + 1) - 1),
                  FIG(names, "%.2f", isnan(rel) ? 0.0 : exp2((double)rel)), isnan(rel) ? " (hidden by the mask)" : "");
        return;
    }
    size_t at = (size_t)q * a->T + (size_t)k;
    gui_hover(dl, h, "query %s (%s), key %s (%s): score %s, mask %s, weight %s x uniform 1/%s",
              FIG("attention.width", "%d", q), a->real[q] ? "real" : "pad", FIG("attention.width", "%d", k),
              a->real[k] ? "real" : "pad", FIG(names, "%.4f", (double)a->scores[at]), isinf(a->bias[at]) ? "-inf" : "0",
              FIG(names, "%.5f = %.2f", (double)a->weights[at], pl_attmap_rel_cell(a, q, k)),
              FIG("attention.real,attention.width", "%d", a->visible[q]));
}

/* The colour scale, log2 of weight / uniform, with its ticks. */
static double scale_legend(GuiList *dl, const Att *t, double y) {
    double u = t->u, th = t->th, span = PL_ATTMAP_SPAN;
    GuiRect s = t->side;
    gui_text(dl, s.x, y, GUI_SMALL, GUI_C_FG, GUI_LEFT, "%s", LEGENDS[t->short_form][0]);
    y += th + 4 * u;
    double w = fmin(s.w, 300 * u);
    GuiRect bar = {s.x, y, w, 14 * u};
    float v[64];
    for (int i = 0; i < 64; i++) v[i] = (float)(-span + 2.0 * span * i / 63.0);
    gui_heat(dl, bar, v, 64, 1, -span, span, GUI_RAMP_DIV, "colour bar");
    gui_frame(dl, bar, GUI_C_DIM, u);
    static const char *const ticks[] = {"1/16", "1/4", "1", "4", "16"};
    int n = gui_text_w(dl, GUI_SMALL, 0, "1/16 ") * 5 * 1.3 < w ? 5 : 3;
    for (int i = 0; i < n; i++) {
        int at = n == 5 ? i : 2 * i;
        GuiAlign al = i == 0 ? GUI_LEFT : i == n - 1 ? GUI_RIGHT : GUI_CENTER;
        gui_text(dl, bar.x + w * at / 4.0, y + bar.h + 2 * u, GUI_SMALL, GUI_C_DIM, al, "%s", ticks[at]);
    }
    return y + bar.h + th + 10 * u;
}

/* The swatches: hidden cells, pad keys, the bars. */
static double swatches(GuiList *dl, const Att *t, double y) {
    double u = t->u, th = t->th;
    GuiRect s = t->side;
    for (int i = 1; i < N_LEGEND; i++, y += th + 6 * u) {
        GuiRect sw = {s.x, y, 22 * u, th};
        if (i == 1) gui_rect_pat(dl, sw, GUI_C_BG, GUI_PAT_HATCH, GUI_C_NEGINF);
        else if (i == 2) gui_rect(dl, sw, GUI_C_PAD);
        else gui_rect(dl, sw, GUI_C_WARN);
        gui_frame(dl, sw, GUI_C_DIM, u);
        /* a caption, never veiled: while the pad weights are asked, the pad columns are covered */
        gui_text(dl, s.x + 28 * u, y, GUI_SMALL, GUI_C_FG, GUI_LEFT, "%s", LEGENDS[t->short_form][i]);
    }
    return y + 6 * u;
}

/* The numbers an export carries: each cell's log2 relative weight and each
 * row's pad share, as the map draws them. */
static void export_data(GuiList *dl, const Att *t) {
    const PlAttMap *m = &t->m;
    int no_columns = pl_ledger_hides_name(dl->ledger, PAD_COLUMNS_SHOW),
        no_share = pl_ledger_hides_name(dl->ledger, BARS_SHOW);
    for (int i = 0; i < m->nq; i++) {
        char row[32];
        snprintf(row, sizeof row, "query %d", pl_attmap_first(m->T, m->qper, i));
        for (int j = 0; j < m->nk; j++)
            if (!(no_columns && m->pad_keys[j]))
                gui_datum(dl, "log2 weight/uniform", pl_attmap_first(m->T, m->kper, j),
                          (double)m->rel[(size_t)i * m->nk + j], row);
        if (!no_share) gui_datum(dl, "row pad share", i, (double)m->share[i], row);
    }
    if (!no_share) gui_datum(dl, "pad share", 0, (double)t->a->pad_share, NULL);
    if (!no_share) gui_datum(dl, "head 0 pad share", 0, (double)t->a->head_pad_share[0], NULL);
}

static void draw(GuiList *dl, Att *t) {
    const PlAttMap *m = &t->m;
    gui_heat(dl, t->heat, m->rel, m->nk, m->nq, -PL_ATTMAP_SPAN, PL_ATTMAP_SPAN, GUI_RAMP_DIV, "attention");
    hatch_hidden(dl, t);
    cover_pad_columns(dl, t);
    mark_pads(dl, t);
    gui_frame(dl, t->heat, GUI_C_AXIS, t->u);
    share_bars(dl, t);
    axes(dl, t);
    hover(dl, t);
    Lines l;
    fill_lines(&l, t->a, t->short_form, dl->ledger);
    swatches(dl, t, scale_legend(dl, t, t->side.y));
    int per = (N_LINES + t->cols - 1) / t->cols;
    for (int i = 0; i < N_LINES; i++)
        gui_text(dl, t->lines.x + (i / per) * t->col_w, t->lines.y + (i % per) * t->th * 1.2, GUI_SMALL, l.c[i],
                 GUI_LEFT, "%s", l.s[i]);
}

void gui_fig_attention(GuiList *dl, PlLab *lab, GuiRect r, int *current) {
    PlResultStatus st;
    const PlProbeAttention *a = pl_lab_view_result(lab, PL_VIEW_ATTENTION, PL_R_ATTENTION, &st);
    char src[320], look[300] = "";
    gui_fig_source(lab, PL_R_ATTENTION, &st, src, sizeof src);
    if (a) { /* the long sentence where it fits, else the short one */
        snprintf(look, sizeof look, "mask %s: one review's real queries put %s of their weight on pads",
                 a->mask ? "on" : "off", PL_FIG("attention.pad_share", "%.1f%%", 100.0 * (double)a->pad_share));
        if (gui_text_w(dl, GUI_NORMAL, 0, look) > r.w)
            snprintf(look, sizeof look, "mask %s: %s of one review's weight on pads", a->mask ? "on" : "off",
                     PL_FIG("attention.pad_share", "%.1f%%", 100.0 * (double)a->pad_share));
    }
    *current = a && !st.stale;
    const char *title = "attention: where one review's weight goes (head 0)";
    if (gui_text_w(dl, GUI_TITLE, 0, title) > r.w) title = "attention map (head 0)";
    GuiRect area = gui_fig_header(dl, r, title, src, look, &st, a != NULL);
    if (!a || area.h <= 0) return;
    Att t = {.a = a, .u = dl->st->unit, .th = gui_text_h(dl, GUI_SMALL)}, s = t;
    Lines l;
    fill_lines(&l, a, 0, dl->ledger);
    double side = layout(&t, dl, area, &l);
    s.short_form = 1; /* the short labels, where the long ones leave no room or a map a third smaller */
    fill_lines(&l, a, 1, dl->ledger);
    double side_short = layout(&s, dl, area, &l);
    if (side < 40 * t.u || side * 1.5 < side_short) t = s;
    /* a cell per query and key, or blocks of them when the square has fewer pixels than keys */
    int n = (int)fmin((double)a->T, floor(t.heat.w));
    if (pl_attmap_make(&t.m, a, n, n)) {
        gui_text(dl, area.x, area.y, GUI_NORMAL, GUI_C_WARN, GUI_LEFT, "out of memory for the attention map");
        return;
    }
    draw(dl, &t);
    if (dl->want_data) export_data(dl, &t);
    pl_attmap_free(&t.m);
}
