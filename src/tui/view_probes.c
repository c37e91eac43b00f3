/* The smaller views: pooling, loss, layers and generate. */
#include <stdio.h>
#include <string.h>

#include "app/report/report.h"
#include "views.h"

/* ---- pooling ---- */

void tui_view_pooling(PlLab *lab, TuiPane *p) {
    PlResultStatus st;
    const PlProbePooling *r = pl_lab_view_result(lab, PL_VIEW_POOLING, PL_R_POOLING, &st);
    char src[256];
    tui_source(st.info, TUI_SRC_EXAMPLE | TUI_SRC_WEIGHTS, src, sizeof src);
    if (!tui_header(p, "pooling: the share of an unmasked mean that real tokens get", src,
                    "short reviews: an unmasked mean is mostly pad", &st, r != NULL))
        return;
    /* The example's lines come under the histogram when the pane is tall enough for both, else above
     * it, with the bins in two columns where the pane is wide enough: a lesson pane leaves the view
     * little height, and the example is what a lesson asks about. */
    int row = p->fixed, most = 1, tall = p->box.h >= 8 + PL_POOL_HIST_BINS;
    int per_col = tall || p->box.w < 76 ? PL_POOL_HIST_BINS : (PL_POOL_HIST_BINS + 1) / 2;
    int col_w = per_col == PL_POOL_HIST_BINS ? p->box.w : p->box.w / 2, bar_w = col_w - 20 > 40 ? 40 : col_w - 20;
    row += pane_wrap(p, TUI_NORMAL, row, 0, "the corpus in rows of %d: real tokens weigh %s on average, %s at least",
                     r->maxlen, PL_FIG("pooling.mean_weight", "%.1f%%", 100.0 * r->mean_real_weight),
                     PL_FIG("pooling.min_weight", "%.1f%%", 100.0 * r->min_real_weight));
    int hist = tall ? row : row + 3, example = tall ? row + PL_POOL_HIST_BINS + 1 : row;
    for (int k = 0; k < PL_POOL_HIST_BINS; k++) most = r->hist[k] > most ? r->hist[k] : most;
    for (int k = 0; k < PL_POOL_HIST_BINS; k++) {
        int y = hist + k % per_col, x = k / per_col * col_w;
        pane_put(p, y, x, 18, "%3d-%3d%% %6d", 10 * k, 10 * (k + 1), r->hist[k]);
        pane_bar(p, y, x + 18, bar_w, (double)r->hist[k] / most, TUI_REAL);
    }
    row = example;
    TuiColor c = tui_hidden("pooling.example_weight") ? TUI_NORMAL : r->example_weight < 1.0f ? TUI_WARN : TUI_GOOD;
    pane_putc(p, c, row++, 0, p->box.w, "the example: %s of %s, so they weigh %s of its unmasked mean",
              PL_FIG("pooling.real", "%d real token%s", r->L, r->L == 1 && !tui_hidden("pooling.real") ? "" : "s"),
              PL_FIG("pooling.width", "%d", r->T), PL_FIG("pooling.example_weight", "%.3f", (double)r->example_weight));
    row += pane_wrap(p, TUI_NORMAL, row, 0, "distance from the masked mean: unmasked %s, real sum / T %s",
                     PL_FIG("pooling.unmasked_distance", "%.4f", (double)r->avg_unmasked_dist),
                     PL_FIG("pooling.div_t_distance", "%.4f", (double)r->avg_div_t_dist));
    row += pane_wrap(p, TUI_NORMAL, row, 0, "max pooling, unmasked vs masked: %s",
                     PL_FIG("pooling.max_distance", "%.4f", (double)r->max_unmasked_dist));
}

/* ---- loss ---- */

/* The normalisations, the wide batch and the pads as targets: the loss view's first part. */
static void loss_table(TuiPane *p, int *row, const PlProbeLoss *r, int gap) {
    int y = *row;
    pane_putc(p, TUI_DIM, y++, 0, p->box.w, "normalisation    loss      |gradient|");
    pane_put(p, y++, 0, p->box.w, "per token       %s   %s", PL_FIG("loss.per_token", "%7.4f", (double)r->per_token),
             PL_FIG("loss.grad_per_token", "%9.5f", (double)r->grad_per_token));
    pane_put(p, y++, 0, p->box.w, "per sequence    %s   %s",
             PL_FIG("loss.per_sequence", "%7.4f", (double)r->per_sequence),
             PL_FIG("loss.grad_per_sequence", "%9.5f", (double)r->grad_per_sequence));
    pane_put(p, y++, 0, p->box.w, "batch x T       %s   %s", PL_FIG("loss.batch_t", "%7.4f", (double)r->batch_t),
             PL_FIG("loss.grad_batch_t", "%9.5f", (double)r->grad_batch_t));
    y += gap;
    /* whether the per-token loss stayed put tells both losses at once (as padlab probe loss says it), one word
     * of one shape while hidden; "shrunk" tells the wide batch x T against the one above */
    pane_put(p, y++, 0, p->box.w, "padded to %s: per token %s%s; batch x T %s",
             PL_FIG("loss.wide_width", "%d", r->wide_T),
             PL_FIG("loss.per_token_wide", "%.4f", (double)r->per_token_wide),
             PL_FIG("loss.per_token_wide,loss.per_token", ", %s",
                    tui_hidden("loss.per_token_wide,loss.per_token") || pl_report_loss_unchanged(r) ? "unchanged"
                                                                                                    : "changed"),
             PL_FIG("loss.batch_t_wide", "%.4f, shrunk", (double)r->batch_t_wide));
    y += gap;
    pane_putc(p, TUI_WARN, y++, 0, p->box.w, "without ignore_index: %s fake pad targets join in; the loss reads %s,",
              PL_FIG("loss.fake_terms", "%ld", r->fake_terms),
              PL_FIG("loss.with_pads", "%.4f", (double)r->loss_with_pads));
    pane_putc(p, TUI_WARN, y++, 0, p->box.w, "and %s for a model that learned to predict pad, no better on real ones",
              PL_FIG("loss.pad_perfect", "%.4f", (double)r->loss_pad_perfect));
    *row = y;
}

/* The chat batch's heading: its template and its real tokens, into buf. */
static const char *chat_heading(char *buf, size_t cap, const PlProbeLoss *r) {
    snprintf(buf, cap, "as chats, <start> system(%s) <start> user <start> answer: %s real tokens",
             PL_FIG("loss.chat_system", "%d", r->chat_system), PL_FIG("loss.chat_real", "%ld", r->chat_real));
    return buf;
}

/* The same rows as chats: the example's labels, the share trained on, and
 * both losses; under the heading unless the view's header holds it. */
static void loss_chats(TuiPane *p, int *row, const PlProbeLoss *r, int heading) {
    int y = *row;
    char labels[256], head[400];
    if (heading) pane_putc(p, TUI_DIM, y++, 0, p->box.w, "%s", chat_heading(head, sizeof head, r));
    pane_put(p, y++, 0, p->box.w, "row 0 labels  %s", pl_report_loss_labels(labels, sizeof labels, r, 0));
    double cells = (double)r->chat_B * r->chat_T;
    pane_put(
        p, y++, 0, p->box.w, "trained on %s answer tokens: %s of the real, %s of %s x %s cells",
        PL_FIG("loss.completion_tokens", "%ld", r->completion_tokens),
        PL_FIG("loss.completion_share", "%.1f%%",
               r->chat_real ? 100.0 * (double)r->completion_tokens / (double)r->chat_real : 0.0),
        PL_FIG("loss.completion_cell_share", "%.1f%%", cells > 0 ? 100.0 * (double)r->completion_tokens / cells : 0.0),
        PL_FIG("loss.chat_rows", "%d", r->chat_B), PL_FIG("loss.chat_width", "%d", r->chat_T));
    pane_put(p, y++, 0, p->box.w, "loss: answer only %s; prompt counted too %s (%s)",
             PL_FIG("loss.completion_loss", "%.4f", (double)r->completion_loss),
             PL_FIG("loss.prompt_included_loss", "%.4f", (double)r->prompt_included_loss),
             PL_FIG("loss.prompt_gap", "%+.4f", (double)r->prompt_included_loss - (double)r->completion_loss));
    *row = y;
}

/* The view is 15 rows without its blank lines (3 of header, 12 of figures).
 * A shorter pane (a lesson's at 80x24 leaves it 6) shows the top; when the
 * lesson's page is about the chat batch, the chat lines instead, their
 * heading in the header's third row, so that all four fit in 6. */
#define LOSS_ROWS 15

void tui_view_loss(PlLab *lab, TuiPane *p) {
    PlResultStatus st;
    const PlProbeLoss *r = pl_lab_view_result(lab, PL_VIEW_LOSS, PL_R_LOSS, &st);
    char src[256], head[400];
    int chats = p->box.h < LOSS_ROWS && pl_report_loss_reads_chats(lab) && r;
    tui_source(st.info, TUI_SRC_FOCUS, src, sizeof src);
    if (!tui_header(p, "loss: next-token cross-entropy of the rows, pads at -100", src,
                    chats ? chat_heading(head, sizeof head, r) : "batch x T shrinks as pads grow; per token does not",
                    &st, r != NULL))
        return;
    int row = p->fixed,
        gap = p->box.h >= 19; /* the blank lines go first on a short pane: the lines under them are the point */
    if (chats) {
        loss_chats(p, &row, r, 0);
        loss_table(p, &row, r, 0);
        return;
    }
    row += pane_wrap(p, TUI_NORMAL, row, 0, "%s x %s positions: %s targets count, %d classes (fresh weights, seed %d)",
                     PL_FIG("loss.rows", "%d row%s", r->B, r->B == 1 && !tui_hidden("loss.rows") ? "" : "s"),
                     PL_FIG("loss.width", "%d", r->T), PL_FIG("loss.real_terms", "%ld", r->real_terms), r->C,
                     st.info->settings.seed);
    row += gap;
    loss_table(p, &row, r, gap);
    row += gap;
    loss_chats(p, &row, r, 1);
}

/* ---- layers ---- */

void tui_view_layers(PlLab *lab, TuiPane *p) {
    PlResultStatus st;
    const PlProbeLayers *r = pl_lab_view_result(lab, PL_VIEW_LAYERS, PL_R_LAYERS, &st);
    char src[256];
    tui_source(st.info, TUI_SRC_FOCUS | TUI_SRC_WEIGHTS, src, sizeof src);
    if (!tui_header(p, "layers: perturb only the pads; does anything reach a real position?", src,
                    "which layers respect a mask, and which cannot take one", &st, r != NULL))
        return;
    int row = p->fixed;
    row += pane_wrap(p, TUI_NORMAL, row, 0, "%s pad cells perturbed in a %d x %s batch",
                     PL_FIG("layers.pads", "%ld", r->pads), r->B, PL_FIG("layers.width", "%d", r->T));
    pane_putc(p, TUI_DIM, row++, 0, p->box.w, "%-10s %-5s %10s  verdict", "layer", "mask", "leak");
    for (int i = 0; i < r->n; i++, row++) {
        const PlLayerLeak *l = &r->rows[i];
        int ok = l->leak == 0.0f;
        char name[96]; /* "layers.leak(lstm off)"; a layer that takes no mask is named by the layer alone */
        if (strcmp(l->mask, "none") == 0)
            snprintf(name, sizeof name, "layers.leak(%s),layers.leak(%s none)", l->name, l->name);
        else snprintf(name, sizeof name, "layers.leak(%s %s)", l->name, l->mask);
        int hidden = tui_hidden(name); /* the verdicts differ in shape: hidden, one of them stands for all */
        TuiColor c = hidden ? TUI_NORMAL : ok ? TUI_GOOD : TUI_WARN;
        pane_put(p, row, 0, 28, "%-10s %-5s %s", l->name, l->mask, PL_FIG(name, "%10.3g", (double)l->leak));
        pane_putc(p, c, row, 29, p->box.w - 29, "%s",
                  !r->pads && !tui_hidden("layers.pads") ? PL_FIG("layers.pads", "(no pads to perturb)")
                  : ok && !hidden                        ? PL_FIG(name, "respects the pads")
                                                         : PL_FIG(name, "pads leak in"));
    }
}

/* ---- generate ---- */

static void prompt_rows(TuiPane *p, int *row, const PlProbeGenerate *r) {
    uint8_t real[8192];
    int T = r->T < 8192 ? r->T : 8192;
    for (int i = 0; i < r->B; i++) {
        *row += pane_wrap(p, TUI_NORMAL, *row, 0, "prompt %d: %s tokens", i,
                          PL_FIG(i ? "" : "generate.example_kept", "%d", r->len[i]));
        for (int side = 0; side < 2; side++, (*row)++) {
            const int32_t *ids = (side ? r->ids_right : r->ids_left) + (size_t)i * r->T;
            for (int t = 0; t < T; t++) real[t] = ids[t] != 0;
            pane_put(p, *row, 2, 7, "%s", side ? "right" : "left");
            tui_cells(p, *row, 9, p->box.w - 10, real, T);
        }
    }
}

/* The same prompts decoded step by step with a key/value cache: what the
 * cache holds, and each way of decoding against every prompt alone. */
static void cache_rows(TuiPane *p, int *row, const PlProbeKvcache *k, PlResultStatus *st) {
    (*row)++;
    if (!k) {
        *row += pane_wrap(p, TUI_DIM, *row, 0, "decoding with a cache: %s", st->error ? st->error : "computing...");
        return;
    }
    *row += pane_wrap(p, TUI_NORMAL, *row, 0,
                      "decoding %s steps with a key/value cache, left-padded, the mask a column longer a step:",
                      PL_FIG("kvcache.steps", "%d", k->S));
    *row += pane_wrap(p, TUI_NORMAL, *row, 2, "the cache: %s slots, %s hold a pad (%s), %s bytes no query reads",
                      PL_FIG("kvcache.slots", "%lld", (long long)k->B * k->slots),
                      PL_FIG("kvcache.pad_slots", "%lld", (long long)k->pad_slots),
                      PL_FIG("kvcache.pad_share", "%.1f%%", 100.0 * (double)k->pad_slots / ((double)k->B * k->slots)),
                      PL_FIG("kvcache.pad_bytes", "%lld", (long long)(k->pad_slots * k->bytes_per_slot)));
    *row += pane_wrap(p, TUI_NORMAL, *row, 2, "a static cache of %s slots a row: %s of them hold no token (%s)",
                      PL_FIG("kvcache.static_len", "%d", k->static_len),
                      PL_FIG("kvcache.static_pad_slots", "%lld", (long long)k->static_pad_slots),
                      PL_FIG("kvcache.static_pad_share", "%.1f%%",
                             100.0 * (double)k->static_pad_slots / ((double)k->B * k->static_len)));
    *row += pane_wrap(
        p, TUI_NORMAL, *row, 2, "scores on pad slots: %s at step 1, %s at step %d (masked, yet computed)",
        PL_FIG("kvcache.first_step_pad_share", "%.1f%%", 100.0 * (double)k->pad_cells[0] / (double)k->cells[0]),
        PL_FIG("kvcache.last_step_pad_share", "%.1f%%",
               100.0 * (double)k->pad_cells[k->S - 1] / (double)k->cells[k->S - 1]),
        k->S);
    *row += pane_wrap(p, TUI_NORMAL, *row, 2,
                      "against each prompt decoded alone (largest logit difference; tokens that differ of %s):",
                      PL_FIG("kvcache.reads", "%d", k->B * k->reads));
    static const char *const names[PL_KV_WAYS] = {"left, positions from the mask", "left, positions by slot",
                                                  "left, no mask", "right, positions from the mask"};
    static const char *const diff[PL_KV_WAYS] = {"kvcache.left", "kvcache.slot_positions", "kvcache.no_mask",
                                                 "kvcache.right"};
    static const char *const toks[PL_KV_WAYS] = {"kvcache.left_tokens", "kvcache.slot_positions_tokens",
                                                 "kvcache.no_mask_tokens", "kvcache.right_tokens"};
    for (int w = 0; w < PL_KV_WAYS; w++) {
        int same = k->way[w].max_diff == 0.0f && !tui_hidden(diff[w]);
        pane_putc(p, same ? TUI_GOOD : TUI_NORMAL, (*row)++, 4, p->box.w - 4, "%-31s %s  %s tokens", names[w],
                  PL_FIG(diff[w], "%-8.2g", (double)k->way[w].max_diff),
                  PL_FIG(toks[w], "%d", k->way[w].tokens_differ));
    }
}

void tui_view_generate(PlLab *lab, TuiPane *p) {
    PlResultStatus st;
    const PlProbeGenerate *r = pl_lab_view_result(lab, PL_VIEW_GENERATE, PL_R_GENERATE, &st);
    char src[256];
    tui_source(st.info, TUI_SRC_FOCUS, src, sizeof src);
    char look[256]; /* whether a pad sits there is what generate.right_last_column_pads counts (one shape hidden) */
    pl_fig(look, sizeof look, "generate.right_last_column_pads", "%s",
           r && r->naive_last_column_pad_rows_right == 0 && !tui_hidden("generate.right_last_column_pads")
               ? "the next token is read at the last column: these prompts are one length, so no pad is there"
               : "the next token is read at the last column: a pad under right padding");
    if (!tui_header(p, "generate: decoder prompts, left vs right padding", src, look, &st, r != NULL)) return;
    int row = p->fixed;
    row +=
        pane_wrap(p, TUI_NORMAL, row, 0, "the last column is a pad in %s of %s rows under right padding, %s under left",
                  PL_FIG("generate.right_last_column_pads", "%d", r->naive_last_column_pad_rows_right),
                  PL_FIG("generate.prompts", "%d", r->B),
                  PL_FIG("generate.left_last_column_pads", "%d", r->naive_last_column_pad_rows_left));
    row += pane_wrap(p, TUI_NORMAL, row, 0, "next-token logits against each prompt run alone (largest difference):");
    row += pane_wrap(p, TUI_GOOD, row, 2, "left, corrected position ids   %s",
                     PL_FIG("generate.left_corrected", "%.2g", (double)r->left_vs_single_max_diff));
    row += pane_wrap(p, TUI_WARN, row, 2, "left, positions 0..T-1         %s",
                     PL_FIG("generate.left_naive", "%.2g", (double)r->left_naive_positions_max_diff));
    row += pane_wrap(p, TUI_GOOD, row, 2, "right, at the last real token  %s",
                     PL_FIG("generate.right_last_real", "%.2g", (double)r->right_last_real_vs_single_max_diff));
    row += pane_wrap(p, TUI_WARN, row, 2, "right, at the last column      %s",
                     PL_FIG("generate.right_last_column", "%.2g", (double)r->right_last_column_vs_single_max_diff));
    PlResultStatus ks;
    const PlProbeKvcache *k = pl_lab_view_result(lab, PL_VIEW_GENERATE, PL_R_KVCACHE, &ks);
    cache_rows(p, &row, k, &ks);
    row++;
    prompt_rows(p, &row, r);
}
