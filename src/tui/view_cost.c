/* The cost view: what the batching costs over the whole corpus. Its
 * headline is the selected strategy's row of the table below it, which is
 * what `padlab buckets` prints for the same settings. */
#include <stdio.h>

#include "app/report/report.h"
#include "views.h"

static void headline(TuiPane *p, int *row, const PlLabCost *k) {
    const PlCost *c = &k->cost;
    int bw = p->box.w - 26 > 30 ? 30 : p->box.w - 26;
    pane_put(p, *row, 0, 24, "padding share   %5.1f%%", 100.0 * k->padding_share);
    pane_bar(p, (*row)++, 24, bw, k->padding_share, TUI_PAD);
    pane_put(p, *row, 0, 24, "tokens kept     %5.1f%%", 100.0 * k->kept_share);
    pane_bar(p, (*row)++, 24, bw, k->kept_share, TUI_REAL);
    pane_put(p, (*row)++, 0, p->box.w, "tokens cut      %lld of %lld (%.1f%% of the rows were truncated)",
             (long long)k->tokens_cut, (long long)c->total_tokens, 100.0 * k->truncated_share);
    pane_put(p, (*row)++, 0, p->box.w, "RNN steps       %lld real of %lld run (%lld on pads)",
             (long long)c->real_tokens, (long long)c->rnn_steps, (long long)c->rnn_wasted);
    pane_put(p, (*row)++, 0, p->box.w, "attention cells %lld real of %lld; %.0f MB of activations at width 32",
             (long long)c->attn_real_cells, (long long)c->attn_cells, (double)pl_cost_bytes(c, 32) / 1e6);
}

static void sweep(TuiPane *p, int *row, const PlLabCost *k, const PlResultInfo *info) {
    int lo = k->sweep_maxlen[0], hi = k->sweep_maxlen[PL_LAB_SWEEP - 1];
    int maxlen = pl_maxlen_of(info->settings.maxlen, info->longest);
    char text[64];
    if (maxlen < lo || maxlen > hi)
        pane_put(p, (*row)++, 0, p->box.w,
                 "static batches at maxlen %d .. %d (%s marks the nearest, %d; maxlen %s is past it):", lo, hi,
                 tui_glyph(TUI_G_MARK), k->sweep_maxlen[k->sweep_at],
                 pl_maxlen_text(info->settings.maxlen, info->longest, text, sizeof text));
    else
        pane_put(p, (*row)++, 0, p->box.w, "static batches at maxlen %d .. %d (%s marks %d):", lo, hi,
                 tui_glyph(TUI_G_MARK), maxlen);
    for (int i = 0; i < PL_LAB_SWEEP && i < p->box.w; i++) {
        pane_putc(p, TUI_PAD, *row, i, 1, "%s", tui_shade(k->sweep_padding[i]));
        pane_putc(p, TUI_REAL, *row + 1, i, 1, "%s", tui_shade(k->sweep_kept[i]));
    }
    pane_put(p, *row, PL_LAB_SWEEP + 2, p->box.w - PL_LAB_SWEEP - 2, "padding share");
    pane_put(p, *row + 1, PL_LAB_SWEEP + 2, p->box.w - PL_LAB_SWEEP - 2, "tokens kept");
    pane_put(p, *row + 2, k->sweep_at, 2, "%s", tui_glyph(TUI_G_MARK));
    *row += 4;
}

/* Each strategy against static, in the words the tables use (app/report.h). */
static void strategies(TuiPane *p, int *row, const PlLabCost *k, int selected) {
    pane_putc(p, TUI_DIM, (*row)++, 0, p->box.w, "%-15s %8s  %-15s %-15s %10s", "strategy", "padding", "cells",
              "attention cells", "tokens cut");
    for (int i = 0; i < k->nstrategies; i++, (*row)++) {
        const PlStrategyRow *r = &k->strategies[i];
        char cells[48], attn[48];
        pane_putc(p, (int)r->kind == selected ? TUI_SELECTED : TUI_NORMAL, *row, 0, p->box.w,
                  "%-15s %7.1f%%  %-15s %-15s %10lld", pl_batching_name(r->kind), 100.0 * r->padding_share,
                  pl_report_vs_static(r->cells_saved, 0, cells, sizeof cells),
                  pl_report_vs_static(r->attn_saved, 0, attn, sizeof attn), (long long)r->tokens_cut);
    }
    pane_putc(p, TUI_DIM, (*row)++, 0, p->box.w,
              "the cells and attention score cells a strategy computes, against static's");
}

void tui_view_cost(PlLab *lab, TuiPane *p) {
    PlResultStatus st;
    const PlLabCost *k = pl_lab_view_result(lab, PL_VIEW_COST, PL_R_COST, &st);
    char src[256] = "", cut[160];
    if (st.info)
        snprintf(src, sizeof src, "all %d reviews, batches of %d, %s, %s", pl_lab_corpus(lab)->n,
                 st.info->settings.batch,
                 pl_maxlen_cut_text(st.info->settings.maxlen, st.info->longest, cut, sizeof cut),
                 pl_batching_name((PlBatching)st.info->settings.batching));
    if (!tui_header(p, "cost: what the batching costs, over the whole corpus", src,
                    "the padding share against the tokens kept, and each strategy vs static", &st, k != NULL))
        return;
    int row = 3;
    headline(p, &row, k);
    row++;
    sweep(p, &row, k, st.info);
    strategies(p, &row, k, st.info->settings.batching);
}
