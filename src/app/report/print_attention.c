/* The attention result: the example's query rows, leaks onto pads, batch
 * invariance and the packed varlen computation. */
#include "report.h"

/* What the weights themselves tell: each figure of the weights (their
 * share on pads, the largest on a pad, the shortcut's row sums). */
#define WEIGHTS "attention.pad_share,attention.pad_weight_max,attention.leak_total,attention.wrong_fix_sum"

/* A matrix of figures named names: null while the ledger hides them. */
static void fig_matrix(JsonW *w, const char *key, const char *names, const float *m, int rows, int cols) {
    if (pl_ledger_hides_name(w->ledger, names)) json_fig(w, key, names, 0.0);
    else pl_report_json_matrix(w, key, m, rows, cols);
}

/* The name of cu_seqlens entry i: the example's span ends at its row's next entry less the entry
 * before it; the first row's end is its length */
static const char *cu_name(const PlProbeAttention *r, int i) {
    if (i == r->B) return i == r->row + 1 ? "attention.real,attention.real_tokens" : "attention.real_tokens"; /* all */
    return i == r->row + 1 ? "attention.real" : "";
}

PlStatus pl_report_attention_json(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                                  const PlReportOpts *o) {
    const PlProbeAttention *r = result;
    JsonW w;
    json_begin(&w, f);
    w.ledger = o->ledger;
    json_obj(&w, "summary");
    json_fig(&w, "pad_weight_max", "attention.pad_weight_max", (double)r->pad_weight_max);
    json_fig(&w, "row_sum_error_max", "attention.row_sum_error", (double)r->row_sum_error_max);
    json_fig(&w, "batch_invariance_max_diff", "attention.invariance", (double)r->batch_invariance_max_diff);
    json_fig(&w, "packed_vs_padded_max_diff", "attention.packed_vs_padded", (double)r->packed_vs_padded_max_diff);
    json_fig_int(&w, "nan_count", "attention.nan", r->nan_count);
    json_fig(&w, "leak_total", "attention.leak_total", (double)r->leak_total);
    json_fig(&w, "pad_share", "attention.pad_share", (double)r->pad_share);
    json_fig_int(&w, "empty_rows", "attention.empty_rows", r->empty_rows);
    json_fig(&w, "wrong_fix_min_row_sum", "attention.wrong_fix_sum", (double)r->wrong_fix_min_sum);
    json_fig_int(&w, "padded_cells", "attention.padded_cells", r->padded_cells);
    json_fig_int(&w, "packed_cells", "attention.packed_cells", r->packed_cells);
    json_close(&w, '}');
    json_fig_int(&w, "T", "attention.width", r->T);
    json_fig_int(&w, "heads", "attention.heads", r->heads);
    json_int(&w, "dhead", r->dhead);
    json_bool(&w, "mask", r->mask);
    json_bool(&w, "causal", r->causal);
    json_fig_int(&w, "real_tokens", "attention.real", r->L);
    json_arr(&w, "cu_seqlens");
    for (int i = 0; i <= r->B; i++) json_fig_int(&w, NULL, cu_name(r, i), r->cu_seqlens[i]);
    json_close(&w, ']');
    json_arr(&w, "visible");
    for (int t = 0; t < r->T; t++) json_int(&w, NULL, r->visible[t]);
    json_close(&w, ']');
    json_arr(&w, "example_mask");
    for (int t = 0; t < r->T; t++) json_int(&w, NULL, r->real[t]);
    json_close(&w, ']');
    pl_report_json_matrix(&w, "bias", r->bias, r->T, r->T);
    json_arr(&w, "heads_detail");
    for (int h = 0; h < r->heads; h++) {
        json_obj(&w, NULL);
        pl_report_json_matrix(&w, "scores", r->scores + (size_t)h * r->T * r->T, r->T, r->T);
        fig_matrix(&w, "weights", WEIGHTS, r->weights + (size_t)h * r->T * r->T, r->T, r->T);
        fig_matrix(&w, "leak", WEIGHTS, r->leak + (size_t)h * r->T, 1, r->T);
        json_fig(&w, "pad_share", WEIGHTS, (double)r->head_pad_share[h]);
        fig_matrix(&w, "row_sum", WEIGHTS, r->row_sum + (size_t)h * r->T, 1, r->T);
        json_close(&w, '}');
    }
    json_close(&w, ']');
    return pl_report_json_end(&w, PL_R_ATTENTION, c, info, o);
}

/* Head 0's query rows: all of them with full, else the first and last six. */
static int query_rows(FILE *f, const PlProbeAttention *r, int all, const PlLedger *l) {
    static const char *const head[] = {"query", "kind", "row_sum", "pad_weight", "wrong_fix_sum"};
    int cut = !all && r->T > 16;
    OutTable t;
    out_table_init(&t, 5, head);
    for (int i = 0; i < r->T; i++) {
        if (cut && i >= 6 && i < r->T - 6) continue;
        out_table_cell(&t, "%d", i);
        out_table_cell(&t, "%s", r->real[i] ? "real" : "pad");
        char v[96];
        out_table_cell(&t, "%s", pl_fig_drawn(v, sizeof v, l, "attention.row_sum_error", "%.6f", (double)r->row_sum[i]));
        out_table_cell(&t, "%s", pl_fig_drawn(v, sizeof v, l, WEIGHTS, "%.6f", (double)r->leak[i]));
        out_table_cell(&t, "%s",
                       pl_fig_drawn(v, sizeof v, l, "attention.wrong_fix_sum", "%.6f", (double)r->wrong_fix_sum[i]));
    }
    int bad = out_table_print(&t, f, OUT_TABLE, 2);
    out_table_done(&t);
    if (!bad && cut) fprintf(f, "  (rows 6..%d left out; --full or --format json has them all)\n", r->T - 7);
    return bad;
}

PlStatus pl_report_attention_text(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                                  const PlReportOpts *o) {
    const PlProbeAttention *r = result;
    const PlLedger *l = o->ledger;
    pl_report_header(f, PL_R_ATTENTION, c, info, o);
    fputs("self-attention, ", f), pl_fig_fprintf(f, l, "attention.heads", "%d", r->heads);
    fprintf(f, " head%s of %d, over a batch of ", r->heads > 1 ? "s" : "", r->dhead);
    pl_fig_fprintf(f, l, "attention.rows", "%d", r->B), fputs(" rows of width ", f);
    pl_fig_fprintf(f, l, "attention.width", "%d", r->T);
    fprintf(f, "; padding mask %s, causal %s\n", r->mask ? "on" : "off", r->causal ? "on" : "off");
    fprintf(f, "the example: row %d, ", r->row), pl_fig_fprintf(f, l, "attention.real", "%d", r->L);
    fputs(" real tokens of ", f), pl_fig_fprintf(f, l, "attention.width", "%d", r->T), fputs("\n\n", f);
    fprintf(f, "head 0, one line per query row of the example (sums over keys):\n");
    if (query_rows(f, r, o->full, l)) return PL_ENOMEM;
    fputs("\nlargest weight on a pad key (real queries)   ", f);
    pl_fig_fprintf(f, l, "attention.pad_weight_max", "%.6f", (double)r->pad_weight_max);
    fputs("\nweight leaked onto pads, all heads          ", f);
    pl_fig_fprintf(f, l, "attention.leak_total", "%.6f", (double)r->leak_total);
    fputs("\nlargest |row sum - 1| (real queries)        ", f);
    pl_fig_fprintf(f, l, "attention.row_sum_error", "%.3g", (double)r->row_sum_error_max);
    fputs("\nquery rows that see no key (zero weights)   ", f);
    pl_fig_fprintf(f, l, "attention.empty_rows", "%d", r->empty_rows);
    fputs("  (kept as zero rows, as varlen kernels do: no NaN)\nNaN in weights or outputs                   ", f);
    pl_fig_fprintf(f, l, "attention.nan", "%d", r->nan_count);
    fputs("\nwrong fix (weights x mask after softmax, not renormalised): smallest real row sum ", f);
    pl_fig_fprintf(f, l, "attention.wrong_fix_sum", "%.6f", (double)r->wrong_fix_min_sum);
    fprintf(f, "\nbatch invariance: next to example %d (width ", r->short_partner);
    pl_fig_fprintf(f, l, "attention.short_width", "%d", r->short_width);
    fprintf(f, ") vs example %d (width %d): outputs differ by ", r->long_partner, r->long_width);
    pl_fig_fprintf(f, l, "attention.invariance", "%.3g", (double)r->batch_invariance_max_diff);
    fprintf(f, "\npacked varlen (cu_seqlens");
    for (int i = 0; i <= r->B; i++) /* the entries either side of the example's span give its tokens */
        fputc(' ', f), pl_fig_fprintf(f, l, cu_name(r, i), "%d", r->cu_seqlens[i]);
    fputs(") vs the masked padded batch: outputs differ by ", f);
    pl_fig_fprintf(f, l, "attention.packed_vs_padded", "%.2e", (double)r->packed_vs_padded_max_diff);
    fputs("\nscore cells per head: padded ", f);
    pl_fig_fprintf(f, l, "attention.padded_cells", "%lld", (long long)r->padded_cells);
    fputs(", packed ", f), pl_fig_fprintf(f, l, "attention.packed_cells", "%lld", (long long)r->packed_cells);
    fputc('\n', f);
    return pl_report_status(f);
}
