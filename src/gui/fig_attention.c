/* The attention figure: the softmax weights of the example's queries
 * (head 0) as a heatmap, with its pad key columns marked and the figures
 * beside it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figures.h"

static void colour_bar(GuiList *dl, GuiRect r, double lo, double hi, GuiRamp ramp, const char *label) {
    float v[64];
    for (int i = 0; i < 64; i++) v[i] = (float)(lo + (hi - lo) * i / 63.0);
    gui_heat(dl, r, v, 64, 1, lo, hi, ramp, "colour bar");
    gui_frame(dl, r, GUI_C_DIM, dl->st->unit);
    double th = gui_text_h(dl, GUI_SMALL), u = dl->st->unit;
    char a[32], b[32];
    gui_text(dl, r.x, r.y + r.h + 2 * u, GUI_SMALL, GUI_C_DIM, GUI_LEFT, "%s", gui_num(lo, GUI_FMT_NUM, a, sizeof a));
    gui_text(dl, r.x + r.w, r.y + r.h + 2 * u, GUI_SMALL, GUI_C_DIM, GUI_RIGHT, "%s",
             gui_num(hi, GUI_FMT_NUM, b, sizeof b));
    gui_text(dl, r.x + r.w / 2, r.y + r.h + 2 * u, GUI_SMALL, GUI_C_DIM, GUI_CENTER, "%s", label);
    (void)th;
}

void gui_fig_attention(GuiList *dl, PlLab *lab, GuiRect r, int *current) {
    PlResultStatus st;
    const PlProbeAttention *a = pl_lab_view_result(lab, PL_VIEW_ATTENTION, PL_R_ATTENTION, &st);
    char src[320], look[200] = "";
    gui_fig_source(lab, PL_R_ATTENTION, &st, src, sizeof src);
    if (a)
        snprintf(look, sizeof look, "mask %s: a real query puts %.1f%% of its weight on pads (%d real of %d keys)",
                 a->mask ? "on" : "off", 100.0 * (double)a->pad_share, a->L, a->T);
    *current = a && !st.stale;
    GuiRect area = gui_fig_header(dl, r, "attention: where the example's queries put their weight (head 0)", src, look,
                                  &st, a != NULL);
    if (!a || area.h <= 0) return;
    double u = dl->st->unit, th = gui_text_h(dl, GUI_SMALL);
    int T = a->T;
    double side = fmin(area.h - 3 * th - 24 * u, area.w * 0.62);
    GuiRect heat = {area.x + gui_text_w(dl, GUI_SMALL, 0, "query 0000") + 8 * u, area.y + th + 12 * u, side, side};
    double top = 0.0;
    for (size_t i = 0; i < (size_t)T * T; i++) top = fmax(top, (double)a->weights[i]);
    if (top <= 0.0) top = 1.0;
    gui_heat(dl, heat, a->weights, T, T, 0.0, top, GUI_RAMP_SEQ, "attention");
    double cw = side / T;
    /* the -inf cells of the additive mask: hatched over, row by row, in runs */
    for (int q = 0; q < T; q++)
        for (int k = 0; k < T;) {
            if (!isinf(a->bias[(size_t)q * T + k])) {
                k++;
                continue;
            }
            int e = k;
            while (e < T && isinf(a->bias[(size_t)q * T + e])) e++;
            gui_rect_pat(dl, (GuiRect){heat.x + k * cw, heat.y + q * cw, (e - k) * cw, cw}, GUI_C_NONE, GUI_PAT_HATCH,
                         GUI_C_NEGINF);
            k = e;
        }
    /* the pad keys: a strip over their columns, and the same at the side for pad queries */
    for (int k = 0; k < T; k++) {
        if (a->real[k]) continue;
        gui_rect_pat(dl, (GuiRect){heat.x + k * cw, heat.y - 8 * u, cw, 6 * u}, GUI_C_PAD, GUI_PAT_HATCH, GUI_C_DIM);
        gui_rect_pat(dl, (GuiRect){heat.x - 8 * u, heat.y + k * cw, 6 * u, cw}, GUI_C_PAD, GUI_PAT_HATCH, GUI_C_DIM);
    }
    gui_frame(dl, heat, GUI_C_AXIS, u);
    gui_text(dl, heat.x, area.y, GUI_SMALL, GUI_C_DIM, GUI_LEFT, "keys -> (hatched strip: pad keys)");
    gui_text(dl, heat.x - 10 * u, heat.y, GUI_SMALL, GUI_C_DIM, GUI_RIGHT, "query 0");
    gui_text(dl, heat.x - 10 * u, heat.y + side - th, GUI_SMALL, GUI_C_DIM, GUI_RIGHT, "%d", T - 1);
    gui_text(dl, heat.x + side, heat.y + side + 2 * u, GUI_SMALL, GUI_C_DIM, GUI_RIGHT, "key %d", T - 1);
    gui_text(dl, heat.x, heat.y + side + 2 * u, GUI_SMALL, GUI_C_DIM, GUI_LEFT, "key 0");
    if (gui_mouse_in(dl, heat)) {
        int q = (int)((dl->my - heat.y) / cw), k = (int)((dl->mx - heat.x) / cw);
        q = q < 0 ? 0 : q >= T ? T - 1 : q, k = k < 0 ? 0 : k >= T ? T - 1 : k;
        size_t at = (size_t)q * T + (size_t)k;
        gui_hover(dl, heat, "query %d (%s), key %d (%s): score %.4f, mask %s, weight %.5f", q,
                  a->real[q] ? "real" : "pad", k, a->real[k] ? "real" : "pad", (double)a->scores[at],
                  isinf(a->bias[at]) ? "-inf" : "0", (double)a->weights[at]);
    }
    if (dl->want_data)
        for (int q = 0; q < T; q++) {
            char row[32];
            snprintf(row, sizeof row, "query %d", q);
            for (int k = 0; k < T; k++) gui_datum(dl, "weight", k, (double)a->weights[(size_t)q * T + k], row);
        }
    /* the figures beside it */
    GuiRect side_r = {heat.x + side + 24 * u, heat.y, area.x + area.w - heat.x - side - 24 * u, side};
    colour_bar(dl, (GuiRect){side_r.x, side_r.y, fmin(side_r.w, 260 * u), 14 * u}, 0.0, top, GUI_RAMP_SEQ,
               "softmax weight");
    double y = side_r.y + 14 * u + th + 14 * u;
    gui_rect_pat(dl, (GuiRect){side_r.x, y, 22 * u, th}, GUI_C_BG, GUI_PAT_HATCH, GUI_C_NEGINF);
    gui_frame(dl, (GuiRect){side_r.x, y, 22 * u, th}, GUI_C_DIM, u);
    gui_text(dl, side_r.x + 28 * u, y, GUI_SMALL, GUI_C_FG, GUI_LEFT,
             "a -inf cell of the additive mask: weight exactly 0");
    y += th + 14 * u;
    GuiColor c = a->pad_share > 0.0f ? GUI_C_WARN : GUI_C_GOOD;
    y = gui_fig_line(dl, side_r, y, c, "pad weight %.2f in %dx%d rows (real queries x heads)", (double)a->leak_total,
                     a->L, a->heads);
    y = gui_fig_line(dl, side_r, y, GUI_C_FG, "largest weight on one pad key: %.4f", (double)a->pad_weight_max);
    y = gui_fig_line(dl, side_r, y, GUI_C_FG, "|row sum - 1| <= %.1e, NaN %d", (double)a->row_sum_error_max,
                     a->nan_count);
    y = gui_fig_line(dl, side_r, y, GUI_C_FG, "queries seeing no key: %d (zero rows, not NaN)", a->empty_rows);
    y = gui_fig_line(dl, side_r, y, a->batch_invariance_max_diff > 0.0f ? GUI_C_WARN : GUI_C_GOOD,
                     "short vs long partner: outputs differ %.2g", (double)a->batch_invariance_max_diff);
    y = gui_fig_line(dl, side_r, y, GUI_C_FG, "packed vs padded + mask: %.2g", (double)a->packed_vs_padded_max_diff);
    y = gui_fig_line(dl, side_r, y, GUI_C_FG, "zeroing pads after the softmax: a row sums %.3f",
                     (double)a->wrong_fix_min_sum);
    y = gui_fig_line(dl, side_r, y, GUI_C_FG, "score cells per head: %lld padded, %lld packed",
                     (long long)a->padded_cells, (long long)a->packed_cells);
    gui_datum(dl, "pad share", 0, (double)a->pad_share, NULL);
}
