/* The attention result: the example's query rows, leaks onto pads, batch
 * invariance and the packed varlen computation. */
#include "report.h"

PlStatus pl_report_attention_json(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                                  const PlReportOpts *o) {
    const PlProbeAttention *r = result;
    JsonW w;
    json_begin(&w, f);
    json_obj(&w, "summary");
    json_num(&w, "pad_weight_max", (double)r->pad_weight_max);
    json_num(&w, "row_sum_error_max", (double)r->row_sum_error_max);
    json_num(&w, "batch_invariance_max_diff", (double)r->batch_invariance_max_diff);
    json_num(&w, "packed_vs_padded_max_diff", (double)r->packed_vs_padded_max_diff);
    json_int(&w, "nan_count", r->nan_count);
    json_num(&w, "leak_total", (double)r->leak_total);
    json_num(&w, "pad_share", (double)r->pad_share);
    json_int(&w, "empty_rows", r->empty_rows);
    json_num(&w, "wrong_fix_min_row_sum", (double)r->wrong_fix_min_sum);
    json_int(&w, "padded_cells", r->padded_cells);
    json_int(&w, "packed_cells", r->packed_cells);
    json_close(&w, '}');
    json_int(&w, "T", r->T);
    json_int(&w, "heads", r->heads);
    json_int(&w, "dhead", r->dhead);
    json_bool(&w, "mask", r->mask);
    json_bool(&w, "causal", r->causal);
    json_int(&w, "real_tokens", r->L);
    json_arr(&w, "cu_seqlens");
    for (int i = 0; i <= r->B; i++) json_int(&w, NULL, r->cu_seqlens[i]);
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
        pl_report_json_matrix(&w, "weights", r->weights + (size_t)h * r->T * r->T, r->T, r->T);
        pl_report_json_matrix(&w, "leak", r->leak + (size_t)h * r->T, 1, r->T);
        json_num(&w, "pad_share", (double)r->head_pad_share[h]);
        pl_report_json_matrix(&w, "row_sum", r->row_sum + (size_t)h * r->T, 1, r->T);
        json_close(&w, '}');
    }
    json_close(&w, ']');
    return pl_report_json_end(&w, PL_R_ATTENTION, c, info, o);
}

/* Head 0's query rows: all of them with full, else the first and last six. */
static int query_rows(FILE *f, const PlProbeAttention *r, int all) {
    static const char *const head[] = {"query", "kind", "row_sum", "pad_weight", "wrong_fix_sum"};
    int cut = !all && r->T > 16;
    OutTable t;
    out_table_init(&t, 5, head);
    for (int i = 0; i < r->T; i++) {
        if (cut && i >= 6 && i < r->T - 6) continue;
        out_table_cell(&t, "%d", i);
        out_table_cell(&t, "%s", r->real[i] ? "real" : "pad");
        out_table_cell(&t, "%.6f", (double)r->row_sum[i]);
        out_table_cell(&t, "%.6f", (double)r->leak[i]);
        out_table_cell(&t, "%.6f", (double)r->wrong_fix_sum[i]);
    }
    int bad = out_table_print(&t, f, OUT_TABLE, 2);
    out_table_done(&t);
    if (!bad && cut) fprintf(f, "  (rows 6..%d left out; --full or --format json has them all)\n", r->T - 7);
    return bad;
}

PlStatus pl_report_attention_text(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                                  const PlReportOpts *o) {
    const PlProbeAttention *r = result;
    pl_report_header(f, PL_R_ATTENTION, c, info, o);
    fprintf(f, "self-attention, %d head%s of %d, over a batch of %d rows of width %d; padding mask %s, causal %s\n",
            r->heads, r->heads > 1 ? "s" : "", r->dhead, r->B, r->T, r->mask ? "on" : "off", r->causal ? "on" : "off");
    fprintf(f, "the example: row %d, %d real tokens of %d\n\n", r->row, r->L, r->T);
    fprintf(f, "head 0, one line per query row of the example (sums over keys):\n");
    if (query_rows(f, r, o->full)) return PL_ENOMEM;
    fprintf(f, "\nlargest weight on a pad key (real queries)   %.6g\n", (double)r->pad_weight_max);
    fprintf(f, "weight leaked onto pads, all heads          %.6g\n", (double)r->leak_total);
    fprintf(f, "largest |row sum - 1| (real queries)        %.3g\n", (double)r->row_sum_error_max);
    fprintf(f, "query rows that see no key (zero weights)   %d  (kept as zero rows, as varlen kernels do: no NaN)\n",
            r->empty_rows);
    fprintf(f, "NaN in weights or outputs                   %d\n", r->nan_count);
    fprintf(f, "wrong fix (weights x mask after softmax, not renormalised): smallest real row sum %.6f\n",
            (double)r->wrong_fix_min_sum);
    fprintf(f, "batch invariance: next to example %d (width %d) vs example %d (width %d): outputs differ by %.3g\n",
            r->short_partner, r->short_width, r->long_partner, r->long_width, (double)r->batch_invariance_max_diff);
    fprintf(f, "packed varlen (cu_seqlens");
    for (int i = 0; i <= r->B; i++) fprintf(f, " %d", r->cu_seqlens[i]);
    fprintf(f, ") vs the masked padded batch: outputs differ by %.3g\n", (double)r->packed_vs_padded_max_diff);
    fprintf(f, "score cells per head: padded %lld, packed %lld\n", (long long)r->padded_cells,
            (long long)r->packed_cells);
    return pl_report_status(f);
}
