/* The rnn view: the hidden state of one review over its steps, as a line
 * over a step axis with the pad run marked, and sentences that say what the
 * numbers show in the padding and mask setting at hand. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "views.h"

#define MAX_T 8192

static void chart(TuiPane *p, int *row, const PlProbeRnn *r) {
    uint8_t strip[MAX_T];
    int T = r->T < MAX_T ? r->T : MAX_T;
    float top = 0.0f;
    for (int t = 0; t < T; t++) {
        strip[t] = t >= r->first_real && t <= r->last_real;
        top = fmaxf(top, fmaxf(r->dist_last[t], r->dist_fixed[t]));
    }
    int h = p->box.h - p->fixed - 10;
    h = h < 4 ? 4 : h > 12 ? 12 : h;
    int w = p->box.w - 7;
    pane_put(p, (*row)++, 0, p->box.w, "%s distance from the last real state    %s distance from h*, where pads lead",
             tui_glyph(TUI_G_POINT), tui_glyph(TUI_G_POINT2));
    pane_putc(p, TUI_DIM, *row, 0, 6, "%5.2f", (double)top);
    pane_putc(p, TUI_DIM, *row + h - 1, 0, 6, "%5.2f", 0.0);
    tui_chart(p, *row, 7, w, h, r->dist_last, r->dist_fixed, T, 0.0, top > 0.0f ? (double)top : 1.0, strip);
    *row += h;
    pane_putc(p, TUI_DIM, *row, 0, 6, " row");
    (*row)++;
    pane_putc(p, TUI_DIM, (*row)++, 7, w, "step 0%*s%s real %s pad%*d", w / 2 - 12, "", tui_glyph(TUI_G_REAL),
              tui_glyph(TUI_G_PAD), w - w / 2 - 7, T - 1);
}

/* What the numbers say in this setting, in words that agree with them. */
static void story(TuiPane *p, int *row, const PlProbeRnn *r, int packed) {
    int pads = r->T - r->L, w = p->box.w;
    if (packed) {
        pane_putc(p, TUI_GOOD, (*row)++, 0, w,
                  "packed: the cell runs its %d real steps and no pad; it reads the last real state", r->L);
        return;
    }
    if (r->mask) {
        pane_putc(p, TUI_GOOD, (*row)++, 0, w,
                  "mask on: the %d pads carry the state; it ends %.4f from the last real state", pads,
                  (double)r->masked_carry_distance);
        if (r->padding == PL_PRE)
            pane_put(p, (*row)++, 0, w, "the leading pads are skipped: the tokens start from zero (shift %.4f)",
                     (double)r->start_shift);
        return;
    }
    if (r->padding == PL_PRE) {
        pane_putc(p, r->start_shift > 0.0f ? TUI_WARN : TUI_GOOD, (*row)++, 0, w,
                  "pre, no mask: %d leading pads move the start %.3f from zero", pads, (double)r->start_shift);
        pane_put(p, (*row)++, 0, w, "so the last real state is %.4f from the tokens' own; no pad follows it",
                 (double)r->pre_pad_effect);
        return;
    }
    TuiColor c = r->final_distance_to_last_real > 0.0f ? TUI_WARN : TUI_GOOD;
    if (r->fixed_found)
        pane_putc(p, c, (*row)++, 0, w, "post, no mask: %d pads drag the readout %.4f off the last real state", pads,
                  (double)r->final_distance_to_last_real);
    else
        pane_putc(p, c, (*row)++, 0, w, "post, no mask: %d pads move the readout %.4f off the last real state", pads,
                  (double)r->final_distance_to_last_real);
    if (r->fixed_found)
        pane_put(p, (*row)++, 0, w, "of its distance from h*, %.0f%% survives the pads (100%% = intact)",
                 100.0 * (double)r->last_real_survival);
    else pane_put(p, (*row)++, 0, w, "the pads never settle on a fixed point here: they keep moving the state");
}

void tui_view_rnn(PlLab *lab, TuiPane *p) {
    PlResultStatus st;
    const PlProbeRnn *r = pl_lab_rnn(lab, &st);
    char src[256];
    tui_source(st.info, TUI_SRC_EXAMPLE | TUI_SRC_WEIGHTS, src, sizeof src);
    const char *look = !r                ? ""
                       : st.info->packed ? "the state over the real steps only: a packed row has no pads"
                       : r->mask         ? "the line after the last real token stays flat: the mask carries the state"
                       : r->padding == PL_PRE ? "where the real steps start: the leading pads have moved the state"
                       : r->fixed_found ? "the distance after the last real token: the pads drag the state toward h*"
                                        : "the distance after the last real token: the pads keep moving the state";
    if (!tui_header(p, "rnn: the hidden state of one review, step by step", src, look, &st, r != NULL)) return;
    int row = 3;
    pane_put(p, row++, 0, p->box.w, "%s(%d): %d real tokens at steps %d..%d of %d, %s padding, mask %s",
             pl_arch_name(r->cell), r->H, r->L, r->first_real, r->last_real, r->T, pl_side_name(r->padding),
             r->mask ? "on" : "off");
    chart(p, &row, r);
    story(p, &row, r, st.info->packed);
    pane_put(p, row++, 0, p->box.w,
             "|h| at the last position: no mask %.3f, masked carry %.3f; at the last real step %.3f",
             (double)r->last_pos_norm, (double)r->masked_carry_norm, (double)r->last_real_norm);
    if (r->fixed_found)
        pane_put(p, row++, 0, p->box.w, "h*, the pads' fixed point: %d pad steps away, |h*| %.3f; |pad embedding| %.3f",
                 r->fixed_iters, (double)r->fixed_norm, (double)r->pad_embedding_norm);
    else
        pane_put(p, row++, 0, p->box.w, "no fixed point: after %d pad steps the state still moves %.3g a step",
                 r->fixed_iters, (double)r->fixed_residual);
}
