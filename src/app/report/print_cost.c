/* The cost result: what the selected batching costs over the whole corpus,
 * the static sweep over maxlen, and every strategy side by side (the table
 * `padlab buckets` prints for the same settings). */
#include "report.h"

#include <math.h>

PlStatus pl_report_cost_json(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                             const PlReportOpts *o) {
    const PlLabCost *k = result;
    const PlCost *cost = &k->cost;
    JsonW w;
    json_begin(&w, f);
    json_obj(&w, "summary");
    json_str(&w, "strategy", pl_batching_name((PlBatching)info->settings.batching));
    json_num(&w, "padding_share", k->padding_share);
    json_num(&w, "kept_share", k->kept_share);
    json_num(&w, "truncated_share", k->truncated_share);
    json_int(&w, "tokens_cut", k->tokens_cut);
    json_int(&w, "batches", cost->batches);
    json_int(&w, "slots", cost->slots);
    json_int(&w, "real_tokens", cost->real_tokens);
    json_int(&w, "total_tokens", cost->total_tokens);
    json_int(&w, "rows_truncated", cost->rows_truncated);
    json_int(&w, "rnn_steps", cost->rnn_steps);
    json_int(&w, "rnn_wasted", cost->rnn_wasted);
    json_int(&w, "attention_cells", cost->attn_cells);
    json_int(&w, "attention_real_cells", cost->attn_real_cells);
    json_close(&w, '}');
    json_arr(&w, "sweep");
    for (int i = 0; i < PL_LAB_SWEEP; i++) {
        json_obj(&w, NULL);
        json_int(&w, "maxlen", k->sweep_maxlen[i]);
        json_num(&w, "padding_share", k->sweep_padding[i]);
        json_num(&w, "kept_share", k->sweep_kept[i]);
        json_close(&w, '}');
    }
    json_close(&w, ']');
    json_int(&w, "sweep_at", k->sweep_at);
    json_obj(&w, "crossing");
    json_num(&w, "maxlen", k->cross_maxlen);
    json_num(&w, "share", k->cross_share);
    json_close(&w, '}');
    json_obj(&w, "lengths");
    json_int(&w, "min", k->lengths.min);
    json_int(&w, "max", k->lengths.max);
    json_num(&w, "p50", k->lengths.median);
    json_num(&w, "p90", k->len_p90);
    json_num(&w, "p95", k->lengths.p95);
    json_num(&w, "p99", k->len_p99);
    json_int(&w, "longer_than_maxlen", k->len_over_maxlen);
    json_int(&w, "bin_width", k->len_bin_width);
    json_arr(&w, "histogram");
    for (int b = 0; b < PL_LAB_LEN_BINS; b++) json_int(&w, NULL, k->len_hist[b]);
    json_close(&w, ']');
    json_close(&w, '}');
    pl_report_strategies_json(&w, k->strategies, k->nstrategies);
    return pl_report_json_end(&w, PL_R_COST, c, info, o);
}

PlStatus pl_report_cost_text(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                             const PlReportOpts *o) {
    static const char *const sweep_head[] = {"maxlen", "padding_share", "kept_share"};
    const PlLabCost *k = result;
    const PlCost *cost = &k->cost;
    int selected = info->settings.batching;
    pl_report_header(f, PL_R_COST, c, info, o);
    fprintf(f, "padding share    %.1f%% of the %lld cells in %lld batches\n", 100.0 * k->padding_share,
            (long long)cost->slots, (long long)cost->batches);
    fprintf(f, "tokens kept      %.1f%% (%lld of %lld)\n", 100.0 * k->kept_share, (long long)cost->real_tokens,
            (long long)cost->total_tokens);
    fprintf(f, "tokens cut       %lld (%.1f%% of the rows were truncated)\n", (long long)k->tokens_cut,
            100.0 * k->truncated_share);
    fprintf(f, "RNN steps        %lld real of %lld run (%lld on pads)\n", (long long)cost->real_tokens,
            (long long)cost->rnn_steps, (long long)cost->rnn_wasted);
    fprintf(f, "attention cells  %lld real of %lld; activations %.1f MB at width %d\n",
            (long long)cost->attn_real_cells, (long long)cost->attn_cells,
            (double)pl_cost_bytes(cost, PL_DEFAULT_WIDTH) / 1e6, PL_DEFAULT_WIDTH);
    char maxlen[64];
    pl_maxlen_text(info->settings.maxlen, info->longest, maxlen, sizeof maxlen);
    fprintf(f, "\nstatic batches at maxlen %d .. %d (the nearest to maxlen %s: %d):\n", k->sweep_maxlen[0],
            k->sweep_maxlen[PL_LAB_SWEEP - 1], maxlen, k->sweep_maxlen[k->sweep_at]);
    OutTable t;
    out_table_init(&t, 3, sweep_head);
    for (int i = 0; i < PL_LAB_SWEEP; i++) {
        out_table_cell(&t, "%d", k->sweep_maxlen[i]);
        out_table_cell(&t, "%.4f", k->sweep_padding[i]);
        out_table_cell(&t, "%.4f", k->sweep_kept[i]);
    }
    int bad = out_table_print(&t, f, OUT_TABLE, 2);
    out_table_done(&t);
    if (bad) return PL_ENOMEM;
    if (k->cross_maxlen >= 0.0)
        fprintf(f, "padding share meets the share of tokens cut at maxlen %.0f (%.1f%% each)\n", k->cross_maxlen,
                100.0 * k->cross_share);
    fprintf(f,
            "\nlengths: min %d, median %.0f, p90 %.0f, p95 %.0f, p99 %.0f, max %d; %d reviews longer than maxlen %s\n",
            k->lengths.min, k->lengths.median, k->len_p90, k->lengths.p95, k->len_p99, k->lengths.max,
            k->len_over_maxlen, maxlen);
    fprintf(f, "  histogram, bins of %d tokens (the last holds every longer review):", k->len_bin_width);
    for (int b = 0; b < PL_LAB_LEN_BINS; b++) fprintf(f, " %d", k->len_hist[b]);
    fprintf(f, "\n");
    fprintf(f, "\nevery strategy at these settings (vs static: the cells and attention cells it computes, against "
               "static's):\n");
    if (pl_report_strategies_table(f, k->strategies, k->nstrategies, OUT_TABLE, selected)) return PL_ENOMEM;
    fprintf(f, "  (* the selected strategy)\n");
    return pl_report_status(f);
}

const char *pl_report_vs_static(double saved, int than_static, char *buf, int cap) {
    double ratio = 1.0 - saved; /* its cells over static's */
    const char *tail = than_static ? " than static" : "";
    if (fabs(saved) < 0.0005) snprintf(buf, (size_t)cap, "same%s", than_static ? " as static" : "");
    else if (saved > 0.0) snprintf(buf, (size_t)cap, "%.1f%% fewer%s", 100.0 * saved, tail);
    else if (ratio < 2.0) snprintf(buf, (size_t)cap, "%.1f%% more%s", -100.0 * saved, tail);
    else snprintf(buf, (size_t)cap, "%.1fx as many%s", ratio, than_static ? " as static" : "");
    return buf;
}

void pl_report_strategies_json(JsonW *w, const PlStrategyRow *rows, int n) {
    json_arr(w, "strategies");
    for (int i = 0; i < n; i++) {
        const PlStrategyRow *r = &rows[i];
        json_obj(w, NULL);
        json_str(w, "name", pl_batching_name(r->kind));
        json_int(w, "batches", r->cost.batches);
        json_num(w, "padding_share", r->padding_share);
        json_int(w, "slots", r->cost.slots);
        json_int(w, "real_tokens", r->cost.real_tokens);
        json_int(w, "tokens_cut", r->tokens_cut);
        json_int(w, "attention_cells", r->cost.attn_cells);
        json_num(w, "cells_saved", r->cells_saved);
        json_num(w, "attention_saved", r->attn_saved);
        json_num(w, "cells_vs_static", 1.0 - r->cells_saved);
        json_num(w, "attention_vs_static", 1.0 - r->attn_saved);
        json_close(w, '}');
    }
    json_close(w, ']');
}

/* A table for a reader says what each strategy computes against static in
 * words; CSV keeps the numbers: the saving (negative: it computes more) and
 * the ratio to static's. */
int pl_report_strategies_table(FILE *f, const PlStrategyRow *rows, int n, OutFormat fmt, int selected) {
    static const char *const head[] = {"strategy",        "batches",         "padding_share",      "slots",
                                       "real_tokens",     "tokens_cut",      "attention_cells",    "cells_saved",
                                       "attention_saved", "cells_vs_static", "attention_vs_static"};
    static const char *const words[] = {"strategy",        "batches",         "padding_share",
                                        "slots",           "real_tokens",     "tokens_cut",
                                        "attention_cells", "cells_vs_static", "attention_vs_static"};
    int csv = fmt == OUT_CSV;
    OutTable t;
    out_table_init(&t, csv ? 11 : 9, csv ? head : words);
    for (int i = 0; i < n; i++) {
        const PlStrategyRow *r = &rows[i];
        char a[48], b[48];
        out_table_cell(&t, "%s%s", pl_batching_name(r->kind), (int)r->kind == selected ? " *" : "");
        out_table_cell(&t, "%lld", (long long)r->cost.batches);
        out_table_cell(&t, "%.4f", r->padding_share);
        out_table_cell(&t, "%lld", (long long)r->cost.slots);
        out_table_cell(&t, "%lld", (long long)r->cost.real_tokens);
        out_table_cell(&t, "%lld", (long long)r->tokens_cut);
        out_table_cell(&t, "%lld", (long long)r->cost.attn_cells);
        if (csv) {
            out_table_cell(&t, "%.4f", r->cells_saved);
            out_table_cell(&t, "%.4f", r->attn_saved);
            out_table_cell(&t, "%.4f", 1.0 - r->cells_saved);
            out_table_cell(&t, "%.4f", 1.0 - r->attn_saved);
        } else {
            out_table_cell(&t, "%s", pl_report_vs_static(r->cells_saved, 0, a, sizeof a));
            out_table_cell(&t, "%s", pl_report_vs_static(r->attn_saved, 0, b, sizeof b));
        }
    }
    int bad = out_table_print(&t, f, fmt, fmt == OUT_TABLE ? 2 : 0);
    out_table_done(&t);
    return bad;
}
