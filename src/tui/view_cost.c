/* The cost view: what the batching costs over the whole corpus. Its
 * headline is the selected strategy's row of the table below it, which is
 * what `padlab buckets` prints for the same settings. */
#include <stdio.h>

#include "app/report/report.h"
#include "views.h"

/* The headline is the selected strategy's row: its figures carry that row's names too (report.h). */
static void headline(TuiPane *p, int *row, const PlLabCost *k, int sel) {
    const PlCost *c = &k->cost;
    int bw = p->box.w - 26 > 30 ? 30 : p->box.w - 26;
    char pad[128], shapes[128], steps[128], attn[128];
    pl_report_selected_names(pad, sizeof pad, "padding_share", "padding_share", sel);
    pl_report_selected_names(shapes, sizeof shapes, "shapes", "shapes", sel);
    pl_report_selected_names(steps, sizeof steps, "rnn_steps", "cells", sel); /* the activations: cells x width */
    char wasted[160]; /* the steps on pads and the real ones add up to the cells */
    snprintf(wasted, sizeof wasted, "cost.rnn_wasted,cost.cells(%s)", pl_batching_name((PlBatching)sel));
    pl_report_selected_names(attn, sizeof attn, "attention_cells", "attention_cells", sel);
    pane_put(p, *row, 0, 24, "padding share   %s", PL_FIG(pad, "%5.1f%%", 100.0 * k->padding_share));
    pane_bar(p, (*row)++, 24, bw, tui_hidden(pad) ? 0.0 : k->padding_share, TUI_PAD);
    pane_put(p, *row, 0, 24, "tokens kept     %s", PL_FIG("cost.kept_share", "%5.1f%%", 100.0 * k->kept_share));
    pane_bar(p, (*row)++, 24, bw, tui_hidden("cost.kept_share") ? 0.0 : k->kept_share, TUI_REAL);
    *row +=
        pane_wrap(p, TUI_NORMAL, *row, 0, "batch shapes    %s in %s batches (rows x width)",
                  PL_FIG(shapes, "%lld", (long long)c->shapes), PL_FIG("cost.batches", "%lld", (long long)c->batches));
    *row += pane_wrap(p, TUI_NORMAL, *row, 0, "tokens cut      %s of %lld (%s of the rows were truncated)",
                      PL_FIG("cost.tokens_cut", "%lld", (long long)k->tokens_cut), (long long)c->total_tokens,
                      PL_FIG("cost.truncated_share", "%.1f%%", 100.0 * k->truncated_share));
    *row += pane_wrap(p, TUI_NORMAL, *row, 0, "RNN steps       %s real of %s run (%s on pads)",
                      PL_FIG("cost.real_tokens", "%lld", (long long)c->real_tokens),
                      PL_FIG(steps, "%lld", (long long)c->rnn_steps), PL_FIG(wasted, "%lld", (long long)c->rnn_wasted));
    *row += pane_wrap(p, TUI_NORMAL, *row, 0, "attention cells %s real of %s; %s MB of activations at width 32",
                      PL_FIG("cost.attention_real_cells", "%lld", (long long)c->attn_real_cells),
                      PL_FIG(attn, "%lld", (long long)c->attn_cells),
                      PL_FIG(steps, "%.0f", (double)pl_cost_bytes(c, 32) / 1e6));
}

static void sweep(TuiPane *p, int *row, const PlLabCost *k, const PlResultInfo *info) {
    int lo = k->sweep_maxlen[0], hi = k->sweep_maxlen[PL_LAB_SWEEP - 1];
    int maxlen = pl_maxlen_of(info->settings.maxlen, info->longest);
    char text[64];
    if (maxlen < lo || maxlen > hi)
        *row += pane_wrap(p, TUI_NORMAL, *row, 0,
                          "static batches at maxlen %d .. %d (%s marks the nearest, %d; maxlen %s is past it):", lo, hi,
                          tui_glyph(TUI_G_MARK), k->sweep_maxlen[k->sweep_at],
                          pl_maxlen_text(info->settings.maxlen, info->longest, text, sizeof text));
    else
        *row += pane_wrap(p, TUI_NORMAL, *row, 0, "static batches at maxlen %d .. %d (%s marks %d):", lo, hi,
                          tui_glyph(TUI_G_MARK), maxlen);
    for (int i = 0; i < PL_LAB_SWEEP && i < p->box.w; i++) { /* a hidden share is drawn as nothing */
        char pad[64], kept[64];
        snprintf(pad, sizeof pad, "cost.static_padding_share(%d)", k->sweep_maxlen[i]);
        snprintf(kept, sizeof kept, "cost.static_kept_share(%d)", k->sweep_maxlen[i]);
        pane_putc(p, TUI_PAD, *row, i, 1, "%s", tui_shade(tui_hidden(pad) ? 0.0 : k->sweep_padding[i]));
        pane_putc(p, TUI_REAL, *row + 1, i, 1, "%s", tui_shade(tui_hidden(kept) ? 0.0 : k->sweep_kept[i]));
    }
    pane_put(p, *row, PL_LAB_SWEEP + 2, p->box.w - PL_LAB_SWEEP - 2, "padding share");
    pane_put(p, *row + 1, PL_LAB_SWEEP + 2, p->box.w - PL_LAB_SWEEP - 2, "tokens kept");
    pane_put(p, *row + 2, k->sweep_at, 2, "%s", tui_glyph(TUI_G_MARK));
    *row += 4;
}

/* A strategy's words against static ("18.5% fewer", "same"), or while the
 * ledger hides them one text for every value: hidden words are ?s of their
 * shape, and "same" has a shape of its own. Returns buf. */
static const char *vs_static(const char *names, double saved, char *buf, int cap) {
    if (tui_hidden(names)) return snprintf(buf, (size_t)cap, "-----"), buf;
    return pl_report_vs_static(saved, 0, buf, cap);
}

/* Each strategy against static, in the words the tables use (app/report.h). */
static void strategies(TuiPane *p, int *row, const PlLabCost *k, int selected) {
    pane_putc(p, TUI_DIM, (*row)++, 0, p->box.w, "%-15s %8s  %-15s %-15s %10s %6s", "strategy", "padding", "cells",
              "attention cells", "tokens cut", "shapes");
    for (int i = 0; i < k->nstrategies; i++, (*row)++) {
        const PlStrategyRow *r = &k->strategies[i];
        char cells[48], attn[48], pad_q[96], cells_q[96], attn_q[96], cut_q[96], shapes_q[96];
        /* the names first: an argument's order of evaluation is the compiler's, and vs_static reads them */
        pl_report_row_names(pad_q, sizeof pad_q, "padding_share", k->strategies, k->nstrategies, i, selected);
        pl_report_row_names(cells_q, sizeof cells_q, "cells_saved", k->strategies, k->nstrategies, i, -1);
        pl_report_row_names(attn_q, sizeof attn_q, "attention_saved", k->strategies, k->nstrategies, i, -1);
        pl_report_row_names(cut_q, sizeof cut_q, "tokens_cut", k->strategies, k->nstrategies, i, selected);
        pl_report_row_names(shapes_q, sizeof shapes_q, "shapes", k->strategies, k->nstrategies, i, selected);
        char d[5][64]; /* each cell drawn, then padded: a hidden one keeps its column */
        pane_putc(
            p, (int)r->kind == selected ? TUI_SELECTED : TUI_NORMAL, *row, 0, p->box.w, "%-15s %s  %s %s %s %s",
            pl_batching_name(r->kind), tui_cell(PL_FIG(pad_q, "%.1f%%", 100.0 * r->padding_share), 8, d[0], 64),
            tui_cell(PL_FIG(cells_q, "%s", vs_static(cells_q, r->cells_saved, cells, sizeof cells)), -15, d[1], 64),
            tui_cell(PL_FIG(attn_q, "%s", vs_static(attn_q, r->attn_saved, attn, sizeof attn)), -15, d[2], 64),
            tui_cell(PL_FIG(cut_q, "%lld", (long long)r->tokens_cut), 10, d[3], 64),
            tui_cell(PL_FIG(shapes_q, "%lld", (long long)r->cost.shapes), 6, d[4], 64));
    }
    *row += pane_wrap(p, TUI_DIM, *row, 0, "the cells and attention score cells a strategy computes, against static's");
    if ((int)sizeof PL_REPORT_SHAPES_NOTE - 1 <= p->box.w) {
        *row += pane_wrap(p, TUI_DIM, *row, 0, "%s", PL_REPORT_SHAPES_NOTE);
        return;
    }
    *row += pane_wrap(p, TUI_DIM, *row, 0, "%s", PL_REPORT_SHAPES_WHAT);
    *row += pane_wrap(p, TUI_DIM, *row, 0, "%s", PL_REPORT_SHAPES_WHY);
    *row += pane_wrap(p, TUI_DIM, *row, 0, "%s", PL_REPORT_SHAPES_BOUND);
}

void tui_view_cost(PlLab *lab, TuiPane *p) {
    PlResultStatus st;
    const PlLabCost *k = pl_lab_view_result(lab, PL_VIEW_COST, PL_R_COST, &st);
    char src[512] = "", cut[160];
    if (st.info)
        snprintf(src, sizeof src, "all %s reviews, batches of %d, %s, %s",
                 PL_FIG("corpus.reviews", "%d", pl_lab_corpus(lab)->n), st.info->settings.batch,
                 pl_maxlen_cut_text(st.info->settings.maxlen, st.info->longest, cut, sizeof cut),
                 pl_batching_name((PlBatching)st.info->settings.batching));
    if (!tui_header(p, "cost: what the batching costs, over the whole corpus", src,
                    "the padding share against the tokens kept, and each strategy vs static", &st, k != NULL))
        return;
    int row = p->fixed;
    headline(p, &row, k, st.info->settings.batching);
    row++;
    sweep(p, &row, k, st.info);
    strategies(p, &row, k, st.info->settings.batching);
}
