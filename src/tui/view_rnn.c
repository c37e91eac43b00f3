/* The rnn view: the hidden state of one review over its steps, as a line
 * over a step axis with the pad run marked, and sentences that say what the
 * numbers show in the padding and mask setting at hand. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "views.h"

#define MAX_T 8192

/* The legend: which glyph is which line, and what the dots behind them are. */
static void legend(TuiPane *p, int row, const PlProbeRnn *r) {
    int w = p->box.w, x = 37;
    pane_putc(p, TUI_REAL, row, 0, 2, "%s", tui_glyph(TUI_G_POINT));
    pane_put(p, row, 2, w - 2, "distance from the last real state");
    if (r->fixed_found) { /* there is an h* to be near: the legend says rnn.fixed_found */
        pane_putc(p, TUI_PAD, row, x, 2, "%s", tui_glyph(TUI_G_POINT2));
        pane_put(p, row, x + 2, w - x - 2, "%s", PL_FIG("rnn.fixed_found", "distance from h*"));
        x += 20;
    }
    if (r->T > r->L) {
        pane_putc(p, TUI_DIM, row, x, 2, "%s", tui_glyph(TUI_G_PAD));
        pane_put(p, row, x + 2, w - x - 2, "the pad run");
    }
}

/* Under the chart, on one line: the step axis, the last real step (the
 * rule through the chart) and the readout, the last position. */
static void step_axis(TuiPane *p, int row, int col, int w, const PlProbeRnn *r) {
    int at = col + tui_chart_col(r->last_real, r->T, w), end = col + w - 1;
    char label[48];
    pane_putc(p, TUI_DIM, row, 0, col, " step");
    pane_putc(p, TUI_DIM, row, col, 1, "0");
    if (r->last_real == r->T - 1 && tui_hidden("rnn.width")) /* the last step is the width's */
        snprintf(label, sizeof label, "readout = last real ");
    else if (r->last_real == r->T - 1) snprintf(label, sizeof label, "readout = last real %d ", r->T - 1);
    else snprintf(label, sizeof label, "readout at %d ", r->T - 1);
    int lw = (int)strlen(label);
    pane_putc(p, TUI_GOOD, row, end - lw, lw + 1, "%s%s", label, tui_glyph(TUI_G_MARK));
    if (r->last_real == r->T - 1) return;
    snprintf(label, sizeof label, " last real %d", r->last_real);
    lw = (int)strlen(label);
    if (at + lw + 2 < end - 14) /* the label after the mark when the readout's leaves it room */
        pane_putc(p, TUI_GOOD, row, at, lw + 1, "%s%s", tui_glyph(TUI_G_MARK), label);
    else pane_putc(p, TUI_GOOD, row, at - lw, lw + 1, "%s %s", label + 1, tui_glyph(TUI_G_MARK));
}

/* The distances over the steps: from the last real state, and from h* only
 * when the pads have one (a state that keeps moving has no h* to be near).
 * From the last real step on, the first line draws the readout's distance
 * (rnn.carry_distance with the mask, rnn.final_distance without) and the
 * second what is left of the distance from h* (rnn.survival): while the
 * ledger hides that figure, its line stops before the last real step. */
static void chart(TuiPane *p, int *row, const PlProbeRnn *r) {
    static float last[MAX_T], fixed[MAX_T]; /* the lines as drawn; drawing is on one thread */
    uint8_t strip[MAX_T];
    int T = r->T < MAX_T ? r->T : MAX_T;
    int hide_last = tui_hidden(r->mask ? "rnn.carry_distance" : "rnn.final_distance"),
        hide_fixed = tui_hidden("rnn.survival");
    float top = 0.0f;
    for (int t = 0; t < T; t++) { /* the scale is the drawn points': a hidden one would show as its top */
        strip[t] = t >= r->first_real && t <= r->last_real;
        last[t] = hide_last && t >= r->last_real ? NAN : r->dist_last[t];
        fixed[t] = !r->fixed_found || (hide_fixed && t >= r->last_real) || (r->mask && hide_last && t > r->last_real)
                       ? NAN /* with the mask a flat line over the pads is the carry */
                       : r->dist_fixed[t];
        top = fmaxf(top, fmaxf(last[t], fixed[t])); /* fmaxf passes over a NaN */
    }
    int h = p->box.h - p->fixed - 10;
    h = h < 4 ? 4 : h > 20 ? 20 : h; /* taller on a big screen: read from the back of a room */
    int w = p->box.w - 7;
    legend(p, (*row)++, r);
    pane_putc(p, TUI_DIM, *row, 0, 6, "%5.2f", (double)top);
    pane_putc(p, TUI_DIM, *row + (h - 1) / 2, 0, 6, "%5.2f", (double)top * (h - 1 - (h - 1) / 2) / (h - 1));
    pane_putc(p, TUI_DIM, *row + h - 1, 0, 6, "%5.2f", 0.0);
    TuiChart c = {.a = last,
                  .b = r->fixed_found ? fixed : NULL,
                  .n = T,
                  .lo = 0.0,
                  .hi = top > 0.0f ? (double)top : 1.0,
                  .strip = strip,
                  .mark = r->last_real < r->T - 1 ? r->last_real : -1};
    tui_chart(p, *row, 7, w, h, &c);
    *row += h;
    pane_putc(p, TUI_DIM, *row, 0, 6, " row");
    (*row)++;
    step_axis(p, (*row)++, 7, w, r);
}

/* What the numbers say in this setting, in words that agree with them. A
 * colour that tells a hidden figure's sign is plain while it is hidden, and
 * a word that tells whether the pads have a fixed point is marked as
 * rnn.fixed_found. */
static void story(TuiPane *p, int *row, const PlProbeRnn *r, int packed) {
    int pads = r->T - r->L;
    if (packed) {
        *row += pane_wrap(p, TUI_GOOD, *row, 0,
                          "packed: the cell runs its %s real steps and no pad; it reads the last real state",
                          PL_FIG("rnn.real", "%d", r->L));
        return;
    }
    if (r->mask) {
        *row += pane_wrap(p, TUI_GOOD, *row, 0, "mask on: the %s pads %s; it ends %s from the last real state",
                          PL_FIG("rnn.pads", "%d", pads), PL_FIG("rnn.carry_distance", "%s", "carry the state"),
                          PL_FIG("rnn.carry_distance", "%.4f", (double)r->masked_carry_distance));
        if (r->padding == PL_PRE)
            *row +=
                pane_wrap(p, TUI_NORMAL, *row, 0, "the leading pads are skipped: the tokens start from zero (shift %s)",
                          PL_FIG("rnn.start_shift", "%.4f", (double)r->start_shift));
        return;
    }
    if (r->padding == PL_PRE) {
        TuiColor c = tui_hidden("rnn.start_shift") ? TUI_NORMAL : r->start_shift > 0.0f ? TUI_WARN : TUI_GOOD;
        *row += pane_wrap(p, c, *row, 0, "pre, no mask: %s leading pads move the start %s from zero",
                          PL_FIG("rnn.pads", "%d", pads), PL_FIG("rnn.start_shift", "%.3f", (double)r->start_shift));
        *row +=
            pane_wrap(p, TUI_NORMAL, *row, 0, "so the last real state is %s from the tokens' own; no pad follows it",
                      PL_FIG("rnn.pre_pad_effect", "%.4f", (double)r->pre_pad_effect));
        return;
    }
    TuiColor c = tui_hidden("rnn.final_distance")        ? TUI_NORMAL
                 : r->final_distance_to_last_real > 0.0f ? TUI_WARN
                                                         : TUI_GOOD;
    *row += pane_wrap(p, c, *row, 0, "post, no mask: %s pads %s the readout %s off the last real state",
                      PL_FIG("rnn.pads", "%d", pads), PL_FIG("rnn.fixed_found", "%s", r->fixed_found ? "drag" : "move"),
                      PL_FIG("rnn.final_distance", "%.4f", (double)r->final_distance_to_last_real));
    if (r->fixed_found)
        *row += pane_wrap(p, TUI_NORMAL, *row, 0, "of its distance from h*, %s survives the pads (100%% = intact)",
                          PL_FIG("rnn.survival", "%.0f%%", 100.0 * (double)r->last_real_survival));
    else
        *row += pane_wrap(
            p, TUI_NORMAL, *row, 0, "%s",
            PL_FIG("rnn.fixed_found", "the pads never settle on a fixed point here: they keep moving the state"));
}

void tui_view_rnn(PlLab *lab, TuiPane *p) {
    PlResultStatus st;
    const PlProbeRnn *r = pl_lab_view_result(lab, PL_VIEW_RNN, PL_R_RNN, &st);
    char src[256];
    tui_source(st.info, TUI_SRC_EXAMPLE | TUI_SRC_WEIGHTS, src, sizeof src);
    /* what to look at says what a figure comes to: the mask's carry, the pre pads' shift, whether the pads settle */
    char look[256] = "";
    if (r && st.info->packed)
        snprintf(look, sizeof look, "the state over the real steps only: a packed row has no pads");
    else if (r && r->mask)
        pl_fig(look, sizeof look, "rnn.carry_distance",
               "the line after the last real token stays flat: the mask carries the state");
    else if (r && r->padding == PL_PRE)
        pl_fig(look, sizeof look, "rnn.start_shift",
               "where the real steps start: the leading pads have moved the state");
    else if (r) /* the two sentences differ in shape: hidden, one stands for both */
        pl_fig(look, sizeof look, "rnn.fixed_found", "the distance after the last real token: %s",
               r->fixed_found && !tui_hidden("rnn.fixed_found") ? "the pads drag the state toward h*"
                                                                : "the pads keep moving the state");
    if (!tui_header(p, "rnn: the hidden state of one review, step by step", src, look, &st, r != NULL)) return;
    int row = p->fixed;
    row += pane_wrap(p, TUI_NORMAL, row, 0, "%s(%d): %s real tokens at steps %s of %s, %s padding, mask %s",
                     pl_arch_name(r->cell), r->H, PL_FIG("rnn.real", "%d", r->L),
                     PL_FIG("rnn.real,rnn.pads", "%d..%d", r->first_real, r->last_real),
                     PL_FIG("rnn.width", "%d", r->T), pl_side_name(r->padding), r->mask ? "on" : "off");
    chart(p, &row, r);
    story(p, &row, r, st.info->packed);
    row += pane_wrap(p, TUI_NORMAL, row, 0,
                     "|h| at the last position: no mask %s, masked carry %s; at the last real step %s",
                     PL_FIG("rnn.last_position_norm", "%.3f", (double)r->last_pos_norm),
                     PL_FIG("rnn.carry_norm", "%.3f", (double)r->masked_carry_norm),
                     PL_FIG("rnn.last_real_norm", "%.3f", (double)r->last_real_norm));
    if (r->fixed_found)
        row += pane_wrap(p, TUI_NORMAL, row, 0, "%s %s pad steps away, |h*| %s; |pad embedding| %s",
                         PL_FIG("rnn.fixed_found", "h*, the pads' fixed point:"),
                         PL_FIG("rnn.fixed_steps", "%d", r->fixed_iters),
                         PL_FIG("rnn.fixed_norm", "%.3f", (double)r->fixed_norm),
                         PL_FIG("rnn.pad_embedding_norm", "%.3f", (double)r->pad_embedding_norm));
    else
        row += pane_wrap(p, TUI_NORMAL, row, 0, "%s after %s pad steps the state still moves %.3g a step",
                         PL_FIG("rnn.fixed_found", "no fixed point:"), PL_FIG("rnn.fixed_steps", "%d", r->fixed_iters),
                         (double)r->fixed_residual);
}
