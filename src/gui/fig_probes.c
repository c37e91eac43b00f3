/* The probes' figures: the RNN state over time and its units, the pooled
 * dilution, the per-position losses, the layers' leaks. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app/report/report.h"
#include "figures.h"

/* Each number these figures write is marked with its quantity's name
 * (app/lab/ledger.h); a curve, a bar or a marker that shows one without
 * writing it is left out while the ledger hides it. */

static int hidden(const GuiList *dl, const char *names) { return pl_ledger_hides_name(dl->ledger, names); }

static void colour_bar(GuiList *dl, GuiRect r, double lo, double hi, GuiRamp ramp, const char *label) {
    float v[64];
    for (int i = 0; i < 64; i++) v[i] = (float)(lo + (hi - lo) * i / 63.0);
    gui_heat(dl, r, v, 64, 1, lo, hi, ramp, "colour bar");
    gui_frame(dl, r, GUI_C_DIM, dl->st->unit);
    double th = gui_text_h(dl, GUI_SMALL), u = dl->st->unit;
    char a[32], b[32];
    gui_num(lo, GUI_FMT_NUM, a, sizeof a), gui_num(hi, GUI_FMT_NUM, b, sizeof b);
    gui_text(dl, r.x, r.y + r.h + 2 * u, GUI_SMALL, GUI_C_DIM, GUI_LEFT, "%s", a);
    gui_text(dl, r.x + r.w, r.y + r.h + 2 * u, GUI_SMALL, GUI_C_DIM, GUI_RIGHT, "%s", b);
    double room = r.w - gui_text_w(dl, GUI_SMALL, 0, a) - gui_text_w(dl, GUI_SMALL, 0, b) - 16 * u;
    if (gui_text_w(dl, GUI_SMALL, 0, label) <= room) /* between the ends, or beside the bar when they crowd it */
        gui_text(dl, r.x + r.w / 2, r.y + r.h + 2 * u, GUI_SMALL, GUI_C_DIM, GUI_CENTER, "%s", label);
    else gui_text(dl, r.x + r.w + 8 * u, r.y + r.h / 2 - th / 2, GUI_SMALL, GUI_C_DIM, GUI_LEFT, "%s", label);
}

/* ---- rnn ---- */

/* The series the state plot draws: distance from h* only when the pads have
 * a fixed point (a state that keeps moving has no h* to be near). Each has
 * the quantities its points show (figs): the distance at the readout, |h|
 * there and after the last real token (and before the first, under pre
 * padding), the share of the distance from h* that survives. */
static int rnn_series(const PlProbeRnn *n, const float **ys, const char **names, GuiColor *cols, char figs[][128]) {
    int k = 0;
    snprintf(figs[k], 128, "rnn.final_distance%s", n->mask ? ",rnn.carry_distance" : "");
    ys[k] = n->dist_last, names[k] = "distance to the last real state", cols[k++] = GUI_C_S2;
    snprintf(figs[k], 128, "%s%s%s", n->mask ? "rnn.carry_norm" : "rnn.last_position_norm",
             !n->mask || n->padding == PL_POST ? ",rnn.last_real_norm" : "",
             !n->mask && n->padding == PL_PRE ? ",rnn.start_shift" : "");
    ys[k] = n->norm, names[k] = "|h_t|", cols[k++] = GUI_C_S1;
    if (n->fixed_found) {
        /* with the mask the pads keep the last real distance from h*: the carry */
        snprintf(figs[k], 128, "rnn.survival%s", n->mask ? ",rnn.final_distance,rnn.carry_distance" : "");
        ys[k] = n->dist_fixed, names[k] = "distance to h*", cols[k++] = GUI_C_S3;
    }
    return k;
}

/* "N pads", "1 pad": a hidden count keeps the plural, which would give it away. */
static const char *pads_label(const GuiList *dl, const PlProbeRnn *n) {
    static char s[96];
    int k = n->T - n->L;
    snprintf(s, sizeof s, "%s %s", PL_FIG("rnn.pads", "%d", k), k == 1 && !hidden(dl, "rnn.pads") ? "pad" : "pads");
    return s;
}

/* The pad runs, shaded under the curves and named at the top. */
static void rnn_pad_runs(GuiList *dl, const GuiPlot *p, const PlProbeRnn *n) {
    double x_first = gui_plot_x(p, n->first_real - 0.5), x_last = gui_plot_x(p, n->last_real + 0.5);
    double u = dl->st->unit, y = p->in.y + p->in.h - gui_text_h(dl, GUI_SMALL) - 3 * u;
    if (n->fixed_found && gui_plot_y(p, (double)n->fixed_norm) > p->in.y + p->in.h * 0.5)
        y = p->in.y + 3 * u; /* the fixed point's line and label run low: the runs named at the top */
    char label[96];
    snprintf(label, sizeof label, "%s", pads_label(dl, n));
    GuiRect runs[2] = {{p->in.x, p->in.y, x_first - p->in.x, p->in.h},
                       {x_last, p->in.y, p->in.x + p->in.w - x_last, p->in.h}};
    for (int k = 0; k < 2; k++) {
        if (runs[k].w <= 0.5) continue;
        gui_rect_pat(dl, runs[k], GUI_C_PANEL, GUI_PAT_HATCH, GUI_C_PAD);
        gui_tag(dl, "pad run");
        if (gui_text_w(dl, GUI_SMALL, 0, label) + 8 * u < runs[k].w && p->in.h >= 8 * gui_text_h(dl, GUI_SMALL))
            gui_text(dl, runs[k].x + runs[k].w / 2, y, GUI_SMALL, GUI_C_DIM, GUI_CENTER, "%s", label);
    }
}

/* The readout, the state the classifier reads at the last position: a
 * diamond on the distance line, named on the label row under the last real
 * token's (which sits at the same place under pre padding). */
static void rnn_readout(GuiList *dl, const GuiPlot *p, const PlProbeRnn *n, const char *figs) {
    double u = dl->st->unit, d = 9 * u, th = gui_text_h(dl, GUI_SMALL), v = (double)n->dist_last[n->T - 1];
    double cx = gui_plot_x(p, n->T - 1), cy = gui_plot_y(p, v), ly = p->in.y + 4 * u + th;
    int off = hidden(dl, figs); /* where the diamond sits is the figure: the label alone */
    double dia[] = {cx - d, cy, cx, cy - d, cx + d, cy, cx, cy + d, cx - d, cy};
    if (!off) {
        gui_poly(dl, dia, 5, GUI_C_SEL, 3 * u, 0, "readout");
        gui_tag(dl, "readout");
        gui_datum(dl, "readout", n->T - 1, v, NULL);
    }
    char label[256];
    snprintf(label, sizeof label, "readout (step %s): %s from the last real state", PL_FIG("rnn.width", "%d", n->T - 1),
             PL_FIG(figs, "%.3f", v));
    double w = gui_text_w(dl, GUI_SMALL, 0, label), lx = cx - d - 4 * u;
    if (p->in.h < 8 * th || lx - w < p->in.x) return; /* short or narrow: the look line above says it */
    if (cy - d > ly + th && !off) gui_line(dl, cx, ly + th, cx, cy - d, GUI_C_SEL, u, 1);
    gui_rect(dl, (GuiRect){lx - w - 2 * u, ly, w + 4 * u, th}, GUI_C_BG);
    gui_text(dl, lx, ly, GUI_SMALL, GUI_C_SEL, GUI_RIGHT, "%s", label);
}

/* The fixed point: a line at |h*| where the pads lead. */
static void rnn_fixed_line(GuiList *dl, const GuiPlot *p, const PlProbeRnn *n) {
    double u = dl->st->unit, th = gui_text_h(dl, GUI_SMALL), y = gui_plot_y(p, (double)n->fixed_norm);
    char label[256];
    if (hidden(dl, "rnn.fixed_norm")) y = p->in.y + p->in.h / 2; /* no line: the label where it says nothing */
    else {
        gui_line(dl, p->in.x, y, p->in.x + p->in.w, y, GUI_C_MARK, dl->st->line, 1);
        gui_datum(dl, "|h*|", 0, (double)n->fixed_norm, NULL);
    }
    if (p->in.h < 8 * th) return; /* short: the legend names it */
    snprintf(label, sizeof label, "|h*| = %s: the fixed point pads lead to (%s steps)",
             PL_FIG("rnn.fixed_norm", "%.3f", (double)n->fixed_norm), PL_FIG("rnn.fixed_steps", "%d", n->fixed_iters));
    double lw = gui_text_w(dl, GUI_SMALL, 0, label), lx = p->in.x + p->in.w / 2 - lw / 2, ly = y + 4 * u;
    double readout_y = p->in.y + 4 * u + th; /* rnn_readout's label row: the fixed point's label keeps off it */
    if (ly < readout_y + th + 2 * u && ly + th > readout_y - 2 * u) ly = readout_y + th + 4 * u;
    double pads_y = p->in.y + p->in.h - th - 3 * u; /* rnn_pad_runs' labels: above the line when it runs low */
    if (ly + th > pads_y - 2 * u && y > p->in.y + p->in.h * 0.5) ly = fmax(y - th - 4 * u, readout_y + th + 4 * u);
    gui_rect(dl, (GuiRect){lx - 4 * u, ly, lw + 8 * u, th}, GUI_C_BG);
    gui_text(dl, lx, ly, GUI_SMALL, GUI_C_MARK, GUI_LEFT, "%s", label);
}

/* What the units' strip leaves blank after the last real token says why,
 * in the words its room holds (none: the plot's note above says it too). */
static void rnn_strip_hidden(GuiList *dl, GuiRect blank) {
    static const char *const says[] = {"the pads' units: hidden until you answer", "hidden until you answer",
                                       "hidden"};
    double th = gui_text_h(dl, GUI_SMALL), room = blank.w - 12 * dl->st->unit;
    for (int k = 0; k < 3 && blank.h >= th; k++)
        if (gui_text_w(dl, GUI_SMALL, 0, says[k]) <= room) {
            gui_text(dl, blank.x + blank.w / 2, blank.y + blank.h / 2 - th / 2, GUI_SMALL, GUI_C_DIM, GUI_CENTER, "%s",
                     says[k]);
            return;
        }
}

/* The state's size and its distances over the steps. */
static GuiPlot rnn_state_plot(GuiList *dl, GuiRect r, const PlProbeRnn *n) {
    const float *ys[3];
    const char *names[3];
    GuiColor cols[3];
    char figs[3][128];
    int ns = rnn_series(n, ys, names, cols, figs), T = n->T, off[3] = {0, 0, 0}, any = 0;
    for (int s = 0; s < ns; s++) any |= off[s] = hidden(dl, figs[s]); /* a curve is a picture of its figures */
    /* how far each curve is drawn: hidden, none of it, but |h_t| over the words, which no figure of the pads gives */
    int upto[3];
    for (int s = 0; s < ns; s++) upto[s] = !off[s] ? T - 1 : s ? n->last_real - (s == 2) : -1;
    double hi = n->fixed_found ? (double)n->fixed_norm : 0.0, u = dl->st->unit;
    for (int s = 0; s < ns; s++) /* the scale is the drawn points': a hidden one would show as its top */
        for (int t = 0; t <= upto[s]; t++) hi = fmax(hi, (double)ys[s][t]);
    GuiKey keys[5];
    for (int s = 0; s < ns; s++)
        keys[s] = (GuiKey){names[s], cols[s], GUI_KEY_LINE, s == 2, GUI_PAT_NONE, s ? 0 : 2 * dl->st->line};
    static char pads[96], fixed[96]; /* in the legend too: the labels in the plot give way when it is short */
    snprintf(pads, sizeof pads, "%s", pads_label(dl, n));
    keys[ns] = (GuiKey){pads, GUI_C_NONE, GUI_KEY_BOX, 0, GUI_PAT_HATCH, 0};
    int nk = ns + 1;
    if (n->fixed_found) {
        snprintf(fixed, sizeof fixed, "|h*| = %s", PL_FIG("rnn.fixed_norm", "%.3f", (double)n->fixed_norm));
        keys[nk++] = (GuiKey){fixed, GUI_C_MARK, GUI_KEY_LINE, 1, GUI_PAT_NONE, 0};
    }
    char note[400] = "";
    if (!n->fixed_found)
        snprintf(note, sizeof note, "%s: after %s pad steps the state still moves %.3g a step",
                 PL_FIG("rnn.fixed_found", "no fixed point"), PL_FIG("rnn.fixed_steps", "%d", n->fixed_iters),
                 (double)n->fixed_residual);
    if (any) { /* the curves that are hidden, named */
        size_t k = strlen(note);
        snprintf(note + k, sizeof note - k, "%s", k ? "; " : "");
        for (int s = 0, first = 1; s < ns; s++)
            if (off[s]) {
                k = strlen(note);
                snprintf(note + k, sizeof note - k, "%s%s%s", first ? "" : ", ", names[s],
                         upto[s] >= 0 ? " after the last real token" : "");
                first = 0;
            }
        k = strlen(note);
        snprintf(note + k, sizeof note - k, " hidden until you answer");
    }
    GuiPlotSpec sp = {.title = "the state's size and where it is",
                      .note = note[0] ? note : NULL,
                      .xlabel = "step",
                      .ylabel = "Euclidean norm / distance",
                      .x0 = 0,
                      .x1 = T - 1 > 0 ? T - 1 : 1,
                      .y0 = 0,
                      .y1 = hi * 1.1 > 0 ? hi * 1.1 : 1,
                      .xint = 1,
                      .xfigs = "rnn.width", /* the last step: the close-up's width */
                      .keys = keys,
                      .nkeys = nk};
    GuiPlot p;
    gui_plot_begin(dl, &p, r, &sp);
    rnn_pad_runs(dl, &p, n);
    static double xy[2 * 2048];
    int step = T > 2048 ? (T + 2047) / 2048 : 1;
    for (int s = ns - 1; s >= 0; s--) { /* the distance to the last real state last, on top */
        if (upto[s] < 0) continue;
        int m = 0;
        for (int t = 0; t <= upto[s]; t += step, m++)
            xy[2 * m] = gui_plot_x(&p, t), xy[2 * m + 1] = gui_plot_y(&p, (double)ys[s][t]);
        gui_poly(dl, xy, m, cols[s], s ? dl->st->line : 2 * dl->st->line, s == 2, names[s]);
        for (int t = 0; t <= upto[s]; t++) gui_datum(dl, names[s], t, (double)ys[s][t], NULL);
    }
    if (n->fixed_found) rnn_fixed_line(dl, &p, n);
    char label[128]; /* the last real step gives the real tokens' count, as the look line's step range does */
    snprintf(label, sizeof label, "last real token (%s)", PL_FIG("rnn.real,rnn.pads", "%d", n->last_real));
    gui_plot_vmark(dl, &p, n->last_real, GUI_C_SEL, 2 * u, 0, label, 0);
    rnn_readout(dl, &p, n, figs[0]);
    return p;
}

/* A step's values, each with its curve's figures: hidden with the curve. */
static void rnn_hover(GuiList *dl, const GuiPlot *p, const PlProbeRnn *n) {
    if (!gui_mouse_in(dl, p->in)) return;
    const float *ys[3];
    const char *names[3];
    GuiColor cols[3];
    char figs[3][128];
    rnn_series(n, ys, names, cols, figs);
    int T = n->T, t = (int)lround((dl->mx - p->in.x) / p->in.w * (T - 1));
    t = t < 0 ? 0 : t >= T ? T - 1 : t;
    const char *what = t >= n->first_real && t <= n->last_real ? "token" : "pad";
    char fixed[160] = "";
    if (n->fixed_found) snprintf(fixed, sizeof fixed, ", to h* %s", PL_FIG(figs[2], "%.4f", (double)n->dist_fixed[t]));
    /* a step's change is the gap between two points of |h_t|: it goes with that curve */
    /* the step's number: at the axis's end it is the width a question may hide */
    gui_hover(dl, p->in, "step %s (%s): |h| %s, to the last real state %s%s, change %s", PL_FIG("rnn.width", "%d", t),
              what, PL_FIG(figs[1], "%.4f", (double)n->norm[t]), PL_FIG(figs[0], "%.4f", (double)n->dist_last[t]),
              fixed, PL_FIG(figs[1], "%.4f", (double)n->step[t]));
}

void gui_fig_rnn(GuiList *dl, PlLab *lab, GuiRect r, int *current) {
    PlResultStatus st;
    const PlProbeRnn *n = pl_lab_view_result(lab, PL_VIEW_RNN, PL_R_RNN, &st);
    char src[320], look[900] = "";
    gui_fig_source(lab, PL_R_RNN, &st, src, sizeof src);
    if (n) /* the three readouts' |h| as the terminal's bottom line gives them */
        snprintf(look, sizeof look,
                 "%s(%d): %s at steps %s of %s, %s padding, mask %s; "
                 "the readout ends %s from the last real state; |h| at the last position: no mask %s, "
                 "masked carry %s; at the last real step %s",
                 pl_arch_name(n->cell), n->H, PL_FIG("rnn.real", "%d real tokens", n->L),
                 PL_FIG("rnn.real,rnn.pads", "%d..%d", n->first_real, n->last_real),
                 PL_FIG("rnn.width", "%d", n->T), pl_side_name(n->padding), n->mask ? "on" : "off",
                 PL_FIG(n->mask ? "rnn.final_distance,rnn.carry_distance" : "rnn.final_distance", "%.3f",
                        (double)n->final_distance_to_last_real),
                 PL_FIG("rnn.last_position_norm", "%.3f", (double)n->last_pos_norm),
                 PL_FIG("rnn.carry_norm", "%.3f", (double)n->masked_carry_norm),
                 PL_FIG("rnn.last_real_norm", "%.3f", (double)n->last_real_norm));
    *current = n && !st.stale;
    GuiRect a = gui_fig_header(dl, r, "rnn: the hidden state of one review, step by step", src, look, &st, n != NULL);
    if (!n || a.h <= 0) return;
    double u = dl->st->unit, gap = 20 * u, th = gui_text_h(dl, GUI_SMALL);
    /* the strip keeps a height of its own in a small window (else it is drawn 0 high: blank) */
    double strip_min = gui_text_h(dl, GUI_LARGE) + 2 * th + 16 * u + 40 * u;
    double bh = fmax(a.h * 0.42 - gap, strip_min), plot_min = 10 * th + 3 * gui_text_h(dl, GUI_LARGE);
    if (a.h - bh - gap < plot_min) bh = a.h - plot_min - gap; /* the plot first: it holds the numbers */
    int has_strip = bh >= strip_min * 0.8;                    /* else no strip at all, rather than a blank one */
    GuiRect top = {a.x, a.y, a.w, has_strip ? a.h - bh - gap : a.h}, bottom = {a.x, a.y + a.h - bh, a.w, bh};
    GuiPlot p = rnn_state_plot(dl, top, n);
    rnn_hover(dl, &p, n);
    if (!has_strip) return;
    /* the units as a heat strip: one row per unit, one column per step; the
     * steps after the last real token go with the |h_t| curve (a strip that
     * stays the same over the pads is the carried state), hidden with it */
    const float *ys[3];
    const char *names[3];
    GuiColor cols[3];
    char figs[3][128];
    rnn_series(n, ys, names, cols, figs);
    int T = hidden(dl, figs[1]) ? n->last_real + 1 : n->T;
    gui_text(dl, bottom.x, bottom.y, GUI_LARGE, GUI_C_FG, GUI_LEFT, "its %d units over the steps", n->H);
    double lh = gui_text_h(dl, GUI_LARGE) + 4 * u;
    GuiRect strip = {p.in.x, bottom.y + lh, p.in.w, bottom.h - lh - 2 * th - 12 * u}, drawn = strip;
    if (T < n->T) drawn.w = gui_plot_x(&p, n->last_real + 0.5) - strip.x;
    gui_heat_transposed(dl, drawn, n->states, T, n->H, -1.0, 1.0, GUI_RAMP_DIV,
                        "units"); /* states are (T,H): steps across */
    gui_frame(dl, strip, GUI_C_AXIS, u);
    if (T < n->T) rnn_strip_hidden(dl, (GuiRect){drawn.x + drawn.w, strip.y, strip.w - drawn.w, strip.h});
    if (dl->want_data)
        for (int j = 0; j < n->H; j++) {
            char unit[32];
            snprintf(unit, sizeof unit, "unit %d", j);
            for (int t = 0; t < T; t++) gui_datum(dl, unit, t, (double)n->states[(size_t)t * n->H + j], NULL);
        }
    int room = strip.x - 6 * u - gui_text_w(dl, GUI_SMALL, 0, "unit 0") >= bottom.x; /* else the title says units */
    gui_text(dl, strip.x - 6 * u, strip.y, GUI_SMALL, GUI_C_DIM, GUI_RIGHT, "%s", room ? "unit 0" : "0");
    if (strip.h >= 2 * th + 2 * u) /* the last unit's name, where the strip is tall enough for two */
        gui_text(dl, strip.x - 6 * u, strip.y + strip.h - th, GUI_SMALL, GUI_C_DIM, GUI_RIGHT, "%d", n->H - 1);
    double bx = gui_plot_x(&p, n->last_real + 0.5);
    gui_line(dl, bx, strip.y - 3 * u, bx, strip.y + strip.h + 3 * u, GUI_C_SEL, 2 * u, 0);
    colour_bar(dl, (GuiRect){strip.x, strip.y + strip.h + 6 * u, fmin(strip.w, 220 * u), 10 * u}, -1.0, 1.0,
               GUI_RAMP_DIV, "h");
    if (gui_mouse_in(dl, strip)) {
        int t = (int)((dl->mx - strip.x) / strip.w * T), j = (int)((dl->my - strip.y) / strip.h * n->H);
        t = t < 0 ? 0 : t >= T ? T - 1 : t, j = j < 0 ? 0 : j >= n->H ? n->H - 1 : j;
        if (n->fixed_found)
            gui_hover(dl, strip, "step %s, unit %d: h = %.4f (h* %.4f)", PL_FIG("rnn.width", "%d", t), j,
                      (double)n->states[(size_t)t * n->H + j], (double)n->h_fixed[j]);
        else
            gui_hover(dl, strip, "step %s, unit %d: h = %.4f", PL_FIG("rnn.width", "%d", t), j,
                      (double)n->states[(size_t)t * n->H + j]);
    }
}

/* ---- pooling ---- */

void gui_fig_pooling(GuiList *dl, PlLab *lab, GuiRect r, int *current) {
    PlResultStatus st;
    const PlProbePooling *pl = pl_lab_view_result(lab, PL_VIEW_POOLING, PL_R_POOLING, &st);
    char src[320], look[500] = "";
    gui_fig_source(lab, PL_R_POOLING, &st, src, sizeof src);
    if (pl)
        snprintf(look, sizeof look,
                 "the example: %s of %s, so they weigh %s of its unmasked mean; the corpus: %s on average",
                 PL_FIG("pooling.real", "%d real token%s", pl->L, pl->L == 1 ? "" : "s"),
                 PL_FIG("pooling.width", "%d", pl->T),
                 PL_FIG("pooling.example_weight", "%.3f", (double)pl->example_weight),
                 PL_FIG("pooling.mean_weight", "%.1f%%", 100.0 * pl->mean_real_weight));
    *current = pl && !st.stale;
    GuiRect a = gui_fig_header(dl, r, "pooling: the share of an unmasked mean that real tokens get", src, look, &st,
                               pl != NULL);
    if (!pl || a.h <= 0) return;
    double u = dl->st->unit, gap = 24 * u;
    int most = 1;
    for (int k = 0; k < PL_POOL_HIST_BINS; k++) most = pl->hist[k] > most ? pl->hist[k] : most;
    GuiPlotSpec sp = {.title = "how much of the mean is real, per review",
                      .note = "min(L, maxlen) / maxlen: the rest of an unmasked mean is pad",
                      .xlabel = "weight of the real tokens",
                      .ylabel = "reviews",
                      .x0 = 0,
                      .x1 = 1,
                      .y0 = 0,
                      .y1 = most * 1.12,
                      .xfmt = GUI_FMT_PCT,
                      .yfmt = GUI_FMT_INT};
    GuiPlot p;
    gui_plot_begin(dl, &p, gui_col(a, 2, 0, gap), &sp);
    for (int k = 0; k < PL_POOL_HIST_BINS; k++) {
        double x = gui_plot_x(&p, k / 10.0), x2 = gui_plot_x(&p, (k + 1) / 10.0), y = gui_plot_y(&p, pl->hist[k]);
        GuiRect bar = {x + u, y, x2 - x - 2 * u, gui_plot_y(&p, 0) - y};
        gui_rect(dl, bar, GUI_C_REAL);
        gui_hover(dl, (GuiRect){x, p.in.y, x2 - x, p.in.h}, "real tokens weigh %d-%d%% of the mean in %d reviews",
                  10 * k, 10 * (k + 1), pl->hist[k]);
        gui_datum(dl, "reviews", k / 10.0, pl->hist[k], NULL);
    }
    char label[160]; /* a marker's place on the axis is its figure: none while it is hidden */
    snprintf(label, sizeof label, "mean %s", PL_FIG("pooling.mean_weight", "%.1f%%", 100.0 * pl->mean_real_weight));
    if (!hidden(dl, "pooling.mean_weight"))
        gui_plot_vmark(dl, &p, pl->mean_real_weight, GUI_C_MARK, dl->st->line, 0, label, 0);
    snprintf(label, sizeof label, "the example %s",
             PL_FIG("pooling.example_weight", "%.1f%%", 100.0 * (double)pl->example_weight));
    if (!hidden(dl, "pooling.example_weight"))
        gui_plot_vmark(dl, &p, (double)pl->example_weight, GUI_C_SEL, dl->st->line, 1, label, 1);
    /* the example's pooled vector, masked against unmasked, dimension by dimension */
    double lo = 0.0, hi = 0.0;
    for (int e = 0; e < pl->E; e++) {
        lo = fmin(lo, fmin((double)pl->avg_masked[e], (double)pl->avg_unmasked[e]));
        hi = fmax(hi, fmax((double)pl->avg_masked[e], (double)pl->avg_unmasked[e]));
    }
    char qnote[400];
    snprintf(qnote, sizeof qnote,
             "distance from the masked mean: unmasked %s, sum / T %s; max pooling unmasked vs masked %s",
             PL_FIG("pooling.unmasked_distance", "%.4f", (double)pl->avg_unmasked_dist),
             PL_FIG("pooling.div_t_distance", "%.4f", (double)pl->avg_div_t_dist),
             PL_FIG("pooling.max_distance", "%.4f", (double)pl->max_unmasked_dist));
    static const char *const names[] = {"masked mean", "unmasked mean", "real sum / T"};
    GuiKey keys[3];
    for (int s = 0; s < 3; s++)
        keys[s] = (GuiKey){names[s], gui_series_color(s), GUI_KEY_LINE, s == 2, GUI_PAT_NONE, 0};
    GuiPlotSpec sq = {.keys = keys,
                      .nkeys = 3,
                      .title = "the example's mean, masked vs unmasked",
                      .note = qnote,
                      .xlabel = "embedding dimension",
                      .x0 = -0.5,
                      .x1 = pl->E - 0.5,
                      .y0 = lo * 1.15,
                      .y1 = hi * 1.15 + 1e-6,
                      .xint = 1};
    GuiPlot q;
    gui_plot_begin(dl, &q, gui_col(a, 2, 1, gap), &sq);
    const float *vs[] = {pl->avg_masked, pl->avg_unmasked, pl->avg_div_t};
    double xy[2 * 512];
    for (int s = 0; s < 3; s++) {
        int m = pl->E < 512 ? pl->E : 512;
        for (int e = 0; e < m; e++) {
            xy[2 * e] = gui_plot_x(&q, e), xy[2 * e + 1] = gui_plot_y(&q, (double)vs[s][e]);
            gui_datum(dl, names[s], e, (double)vs[s][e], NULL);
        }
        gui_poly(dl, xy, m, gui_series_color(s), dl->st->line, s == 2, names[s]);
    }
    if (gui_mouse_in(dl, q.in)) {
        int e = (int)lround((dl->mx - q.in.x) / q.in.w * pl->E - 0.5);
        e = e < 0 ? 0 : e >= pl->E ? pl->E - 1 : e;
        gui_hover(dl, q.in, "dimension %d: masked %.4f, unmasked %.4f, sum / T %.4f", e, (double)pl->avg_masked[e],
                  (double)pl->avg_unmasked[e], (double)pl->avg_div_t[e]);
    }
}

/* ---- loss ---- */

enum { NBARS_LOSS = 9 }; /* the batch's loss, seven ways, and the chats' two */

/* A grid of loss terms, B rows of T, hatched where ign says -100 (mode 0:
 * ign holds targets, -100 = ignored; 1: ign holds labels, -100 = ignored;
 * 2: only the pads, ids 0, hatched), with its title over it in r. Returns
 * the grid's rectangle. */
static GuiRect term_grid(GuiList *dl, GuiRect r, const char *title, const float *terms, const int32_t *ign,
                         const int32_t *ids, int B, int T, double hi, int mode) {
    double u = dl->st->unit, th = gui_text_h(dl, GUI_SMALL);
    /* the title as large as leaves a few rows their height under it; no room for that: neither */
    static const int sizes[] = {GUI_LARGE, GUI_NORMAL, GUI_SMALL};
    int k = 0;
    while (k < 3 &&
           gui_wrap_lines(dl, sizes[k], 0, title, r.w) * gui_text_h(dl, sizes[k]) + 4 * u + fmin(B, 4) * 2 * u > r.h)
        k++;
    if (k == 3) return (GuiRect){r.x, r.y, 0, 0};
    double title_h = gui_text_wrap(dl, r.x, r.y, r.w, sizes[k], GUI_C_FG, GUI_LEFT, "%s", title);
    double row_w = gui_text_w(dl, GUI_SMALL, 0, "row 000") + 10 * u;
    GuiRect grid = {r.x + row_w, r.y + title_h + 4 * u, r.w - row_w, r.h - title_h - 4 * u};
    if (grid.h <= 0 || B <= 0 || T <= 0) return grid;
    gui_heat(dl, grid, terms, T, B, 0.0, hi, GUI_RAMP_SEQ, mode ? "chat terms" : "loss terms");
    double cw = grid.w / T, rh = grid.h / B;
    /* rows too thin for a name each: every few named (none when the grid has no height at all) */
    int every = rh >= th ? 1 : rh > 0 ? (int)fmin(ceil(th / rh), B + 1.0) : B + 1;
    for (int i = 0; i < B; i++) {
        if (i % every == 0)
            gui_text(dl, grid.x - 6 * u, grid.y + i * rh + rh / 2 - th / 2, GUI_SMALL, GUI_C_DIM, GUI_RIGHT, "row %d",
                     i);
        const int32_t *row = mode == 2 ? ids + (size_t)i * T : ign + (size_t)i * T;
        int32_t off = mode == 2 ? 0 : -100;
        for (int t = 0; t < T;) {
            if (row[t] != off) {
                t++;
                continue;
            }
            int e = t;
            while (e < T && row[e] == off) e++;
            /* a chat's prompt holds a plain LM collator's terms: the completion-only loss blanks them */
            gui_rect_pat(dl, (GuiRect){grid.x + t * cw, grid.y + i * rh, (e - t) * cw, rh},
                         mode == 1 ? GUI_C_BG : GUI_C_NONE, GUI_PAT_HATCH, GUI_C_NEGINF);
            t = e;
        }
    }
    gui_frame(dl, grid, GUI_C_AXIS, u);
    if (gui_mouse_in(dl, grid)) {
        int i = (int)((dl->my - grid.y) / rh), t = (int)((dl->mx - grid.x) / cw);
        i = i < 0 ? 0 : i >= B ? B - 1 : i, t = t < 0 ? 0 : t >= T ? T - 1 : t;
        size_t at = (size_t)i * T + (size_t)t;
        if (mode == 0 && ign[at] == -100)
            gui_hover(dl, grid, "row %d, position %d: target -100, ignored (term 0)", i, t);
        else if (mode == 0)
            gui_hover(dl, grid, "row %d, position %d: target class %d, term %.4f", i, t, ign[at], (double)terms[at]);
        else if (ids[at] == 0) gui_hover(dl, grid, "row %d, position %d: a pad, label -100", i, t);
        else if (mode == 1 && ign[at] == -100)
            gui_hover(dl, grid, "row %d, position %d: token %d, prompt: label -100 (a plain LM collator's term %.4f)",
                      i, t, ids[at], (double)terms[at]);
        else if (mode == 1)
            gui_hover(dl, grid, "row %d, position %d: answer token %d, label %d, term %.4f", i, t, ids[at], ign[at],
                      (double)terms[at]);
        else gui_hover(dl, grid, "row %d, position %d: token %d, term %.4f", i, t, ids[at], (double)terms[at]);
    }
    return grid;
}

void gui_fig_loss(GuiList *dl, PlLab *lab, GuiRect r, int *current) {
    PlResultStatus st;
    const PlProbeLoss *l = pl_lab_view_result(lab, PL_VIEW_LOSS, PL_R_LOSS, &st);
    char src[320], look[400] = "";
    gui_fig_source(lab, PL_R_LOSS, &st, src, sizeof src);
    if (l)
        snprintf(look, sizeof look, "%s real targets count with ignore_index; without it %s pad targets join them",
                 PL_FIG("loss.real_terms", "%ld", l->real_terms), PL_FIG("loss.fake_terms", "%ld", l->fake_terms));
    *current = l && !st.stale;
    GuiRect a =
        gui_fig_header(dl, r, "loss: each position's term, and three ways to average them", src, look, &st, l != NULL);
    if (!l || a.h <= 0) return;
    double u = dl->st->unit, gap = 24 * u, th = gui_text_h(dl, GUI_SMALL);
    static const char *const names[NBARS_LOSS] = {"per real token",
                                                  "per sequence",
                                                  "over batch x T",
                                                  "per token, width 2T",
                                                  "batch x 2T",
                                                  "pads in the loss",
                                                  "pads, a perfect pad model",
                                                  "chats: answer only",
                                                  "chats: prompt too"};
    static const char *const quantity[NBARS_LOSS] = {
        "loss.per_token", "loss.per_sequence", "loss.batch_t",         "loss.per_token_wide",      "loss.batch_t_wide",
        "loss.with_pads", "loss.pad_perfect",  "loss.completion_loss", "loss.prompt_included_loss"};
    const double v[NBARS_LOSS] = {l->per_token,        l->per_sequence,    l->batch_t,
                                  l->per_token_wide,   l->batch_t_wide,    l->loss_with_pads,
                                  l->loss_pad_perfect, l->completion_loss, l->prompt_included_loss};
    char chat_line[400];
    snprintf(chat_line, sizeof chat_line, "as chats: trained on %s answer tokens, %s of %s real (prompt -100)",
             PL_FIG("loss.completion_tokens", "%ld", l->completion_tokens),
             PL_FIG("loss.completion_share", "%.1f%%",
                    l->chat_real ? 100.0 * (double)l->completion_tokens / (double)l->chat_real : 0.0),
             PL_FIG("loss.chat_real", "%ld", l->chat_real));
    char line[1024] = "the batch's loss: ";
    for (int i = 0; i < NBARS_LOSS - 2; i++) { /* the chats' two go on the chat line */
        size_t k = strlen(line);
        snprintf(line + k, sizeof line - k, "%s%s %s", i ? ", " : "", names[i], PL_FIG(quantity[i], "%.4f", v[i]));
    }
    char grads[400];
    snprintf(grads, sizeof grads, "gradient size |dL/dlogits|: per token %s, per sequence %s, batch x T %s",
             PL_FIG("loss.grad_per_token", "%.3g", (double)l->grad_per_token),
             PL_FIG("loss.grad_per_sequence", "%.3g", (double)l->grad_per_sequence),
             PL_FIG("loss.grad_batch_t", "%.3g", (double)l->grad_batch_t));
    char chat_more[600];
    snprintf(chat_more, sizeof chat_more, "%s; loss %s, prompt too %s", chat_line, PL_FIG(quantity[7], "%.4f", v[7]),
             PL_FIG(quantity[8], "%.4f", v[8]));
    GuiRect top, bottom;
    gui_split_for_cats(dl, a, 0.4, gap, NBARS_LOSS, &top, &bottom);
    /* the grid's rows want a text's height each: when the bars leave it less, the bars become lines */
    double grid_need = 2 * gui_text_h(dl, GUI_LARGE) + 2 * th + 20 * u + l->B * fmin(th, 14 * u);
    int bars_as_lines = top.h < grid_need;
    if (bars_as_lines) {
        /* as many lines as the three texts wrap to */
        int n = gui_wrap_lines(dl, GUI_NORMAL, 0, line, a.w) + gui_wrap_lines(dl, GUI_NORMAL, 0, chat_more, a.w) +
                gui_wrap_lines(dl, GUI_NORMAL, 0, grads, a.w);
        double lines = gui_text_h(dl, GUI_NORMAL) * 1.15 * (n + 0.5);
        top = (GuiRect){a.x, a.y, a.w, a.h - lines - gap / 2};
        bottom = (GuiRect){a.x, a.y + a.h - lines, a.w, lines};
    }
    double hi = 0.0;
    for (int i = 0; i < l->B * l->T; i++) hi = fmax(hi, (double)l->terms[i]);
    for (int i = 0; i < l->chat_B * l->chat_T; i++) hi = fmax(hi, (double)l->chat_terms[i]);
    hi = hi > 0 ? hi : 1.0;
    /* the chat batch under the padded one when the top holds both grids with a row a text's height */
    double grids_need = 2 * (gui_text_h(dl, GUI_LARGE) + 8 * u + l->B * fmin(th, 14 * u)) + 2 * th + 24 * u;
    int chats = !bars_as_lines && top.h >= grids_need && l->chat_B > 0;
    /* room for one grid only, and a lesson's page about the chat batch: the chat grid in its place */
    int chats_only = !chats && l->chat_B > 0 && pl_report_loss_reads_chats(lab);
    GuiRect pads_r = top, chat_r = top, grid = top;
    if (chats) {
        double h1 = (top.h - 2 * th - 16 * u) * 0.55;
        pads_r.h = h1, chat_r.y = top.y + h1 + 6 * u, chat_r.h = top.h - h1 - 2 * th - 22 * u;
    } else pads_r.h = chat_r.h = top.h - 2 * th - 16 * u;
    if (!chats_only)
        grid = term_grid(dl, pads_r, "cross-entropy per position (hatched: -100, ignored)", l->terms, l->targets, NULL,
                         l->B, l->T, hi, 0);
    if (chats || chats_only) {
        /* hatched: label -100; while the share trained on is asked, only the pads (the prompt's hatch would show it) */
        int veil = hidden(dl, PL_LOSS_CHAT_COUNTS);
        char title[200];
        snprintf(title, sizeof title, "as chats, <start> system <start> user <start> answer: %s",
                 veil ? "each label's term, the prompt's too (hatched: pads)"
                      : "each label's term (hatched: -100, the prompt and pads)");
        GuiRect cg = term_grid(dl, chat_r, title, l->chat_terms, l->chat_labels, l->chat_ids, l->chat_B, l->chat_T, hi,
                               veil ? 2 : 1);
        if (chats_only) grid = cg;
    }
    if (grid.h > 0) /* a grid drawn: its colours' key under it */
        colour_bar(dl, (GuiRect){grid.x, top.y + top.h - 2 * th - 4 * u, fmin(220 * u, grid.w), 10 * u}, 0.0, hi,
                   GUI_RAMP_SEQ, "term");
    double cb_w = fmin(220 * u, grid.w) + 20 * u;
    if (grid.h > 0 && grid.w - cb_w > 200 * u) /* the share trained on, beside the bar whichever grid is drawn */
        gui_text_wrap(dl, grid.x + cb_w, top.y + top.h - 2 * th - 6 * u, grid.w - cb_w, GUI_SMALL, GUI_C_FG, GUI_LEFT,
                      "%s", chat_line);
    if (bars_as_lines) {
        double y = gui_fig_line(dl, bottom, bottom.y, GUI_C_FG, "%s", line);
        y = gui_fig_line(dl, bottom, y, GUI_C_FG, "%s", chat_more);
        gui_fig_line(dl, bottom, y, GUI_C_DIM, "%s", grads);
        for (int i = 0; i < NBARS_LOSS; i++)
            if (!hidden(dl, quantity[i])) gui_datum(dl, "loss", i, v[i], names[i]);
        return;
    }
    double most = 0.0;
    for (int i = 0; i < NBARS_LOSS; i++) most = fmax(most, v[i]);
    const char *note = grads;
    GuiPlotSpec sp = {.title = "the batch's loss",
                      .note = note,
                      .ycats = names,
                      .ncats = NBARS_LOSS,
                      .x0 = 0,
                      .x1 = most * 1.2 + 1e-9,
                      .xlabel = "loss (nats)"};
    GuiPlot p;
    gui_plot_begin(dl, &p, bottom, &sp);
    for (int i = 0; i < NBARS_LOSS; i++) {
        GuiRect band = gui_plot_cat(&p, i);
        int off = hidden(dl, quantity[i]); /* no bar: its length is the figure */
        double x = off ? p.in.x : gui_plot_x(&p, v[i]);
        gui_rect(dl, (GuiRect){p.in.x, band.y + band.h * 0.2, x - p.in.x, band.h * 0.6},
                 i == 0 || i == 7   ? GUI_C_GOOD
                 : i == 5 || i == 6 ? GUI_C_WARN
                                    : GUI_C_S1);
        gui_text(dl, x + 4 * u, band.y + band.h / 2 - th / 2, GUI_SMALL, GUI_C_FG, GUI_LEFT, "%s",
                 PL_FIG(quantity[i], "%.4f", v[i]));
        if (!off) gui_datum(dl, "loss", i, v[i], names[i]);
        gui_hover(dl, band, "%s: %s", names[i], PL_FIG(quantity[i], "%.5f", v[i]));
    }
}

/* ---- layers ---- */

void gui_fig_layers(GuiList *dl, PlLab *lab, GuiRect r, int *current) {
    PlResultStatus st;
    const PlProbeLayers *l = pl_lab_view_result(lab, PL_VIEW_LAYERS, PL_R_LAYERS, &st);
    char src[320], look[300] = "";
    gui_fig_source(lab, PL_R_LAYERS, &st, src, sizeof src);
    if (l)
        snprintf(look, sizeof look, "only the %s pad cells of a %d x %s batch perturbed: what reaches a real position",
                 PL_FIG("layers.pads", "%ld", l->pads), l->B, PL_FIG("layers.width", "%d", l->T));
    *current = l && !st.stale;
    GuiRect a = gui_fig_header(dl, r, "layers: which layers respect a mask, measured", src, look, &st, l != NULL);
    if (!l || a.h <= 0) return;
    char names[PL_LAYERS_MAX][48];
    const char *np[PL_LAYERS_MAX];
    double most = 0.0;
    for (int i = 0; i < l->n; i++) {
        snprintf(names[i], sizeof names[i], "%s, mask %s", l->rows[i].name, l->rows[i].mask);
        np[i] = names[i];
        most = fmax(most, (double)l->rows[i].leak);
    }
    GuiPlotSpec sp = {.title = "the largest change that leaks from the pads",
                      .ycats = np,
                      .ncats = l->n,
                      .x0 = 0,
                      .x1 = most * 1.25 + 1e-6,
                      .xlabel = "leak (largest |change| at a real position or the output)"};
    GuiPlot p;
    gui_plot_begin(dl, &p, a, &sp);
    double u = dl->st->unit, th = gui_text_h(dl, GUI_SMALL);
    for (int i = 0; i < l->n; i++) {
        GuiRect band = gui_plot_cat(&p, i);
        /* layers.leak(NAME MASK); a layer that takes no mask is named alone, or with "none" */
        char q[160];
        if (strcmp(l->rows[i].mask, "none") == 0)
            snprintf(q, sizeof q, "layers.leak(%s),layers.leak(%s none)", l->rows[i].name, l->rows[i].name);
        else snprintf(q, sizeof q, "layers.leak(%s %s)", l->rows[i].name, l->rows[i].mask);
        int off = hidden(dl, q); /* no bar and a verdict of one wording, in one colour: they would tell */
        double v = (double)l->rows[i].leak, x = off ? p.in.x : gui_plot_x(&p, v);
        int ok = v == 0.0;
        char plain[64];
        snprintf(plain, sizeof plain, "%.3g: pads leak in", v);
        /* a label past the plot's right edge goes inside the bar's end, the bar as tall as the band to hold it */
        int inside = !off && !ok && x + 4 * u + gui_text_w(dl, GUI_SMALL, 0, plain) > p.in.x + p.in.w;
        double pad = inside ? 0.02 : 0.2;
        gui_rect(dl, (GuiRect){p.in.x, band.y + band.h * pad, x - p.in.x, band.h * (1 - 2 * pad)},
                 ok ? GUI_C_GOOD : GUI_C_WARN);
        if (off)
            gui_text(dl, x + 4 * u, band.y + band.h / 2 - th / 2, GUI_SMALL, GUI_C_FG, GUI_LEFT, "%s",
                     PL_FIG(q, "%s", "hidden until you answer"));
        else {
            gui_text(dl, x + 4 * u, band.y + band.h / 2 - th / 2, GUI_SMALL, ok ? GUI_C_GOOD : GUI_C_WARN, GUI_LEFT,
                     "%s", PL_FIG(q, "%s", ok ? "0: respects the pads" : ""));
            if (!ok)
                gui_text(dl, inside ? x - 4 * u : x + 4 * u, band.y + band.h / 2 - th / 2, GUI_SMALL,
                         inside ? GUI_C_BG : GUI_C_FG, inside ? GUI_RIGHT : GUI_LEFT, "%s",
                         PL_FIG(q, "%.3g: pads leak in", v));
            gui_datum(dl, "leak", i, v, names[i]);
        }
        gui_hover(dl, band, "%s: leak %s", names[i], PL_FIG(q, "%.6g", v));
    }
}
