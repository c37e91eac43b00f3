/* The generate result: the prompts laid out left- and right-padded, their
 * position ids, and a decoder's next token under each layout. */
#include "report.h"

static void int_rows(JsonW *w, const char *key, const int32_t *v, int B, int T) {
    json_arr(w, key);
    for (int b = 0; b < B; b++) {
        json_arr(w, NULL);
        for (int t = 0; t < T; t++) json_int(w, NULL, v[(size_t)b * T + t]);
        json_close(w, ']');
    }
    json_close(w, ']');
}

PlStatus pl_report_generate_json(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                                 const PlReportOpts *o) {
    const PlProbeGenerate *r = result;
    JsonW w;
    json_begin(&w, f);
    json_obj(&w, "summary");
    json_obj(&w, "left");
    json_int(&w, "naive_last_column_pad_rows", r->naive_last_column_pad_rows_left);
    json_num(&w, "left_vs_single_max_diff", (double)r->left_vs_single_max_diff);
    json_num(&w, "naive_positions_max_diff", (double)r->left_naive_positions_max_diff);
    json_close(&w, '}');
    json_obj(&w, "right");
    json_int(&w, "naive_last_column_pad_rows", r->naive_last_column_pad_rows_right);
    json_num(&w, "last_real_vs_single_max_diff", (double)r->right_last_real_vs_single_max_diff);
    json_num(&w, "last_column_vs_single_max_diff", (double)r->right_last_column_vs_single_max_diff);
    json_close(&w, '}');
    json_num(&w, "left_vs_single_max_diff", (double)r->left_vs_single_max_diff);
    json_close(&w, '}');
    json_int(&w, "B", r->B);
    json_int(&w, "T", r->T);
    json_arr(&w, "prompts");
    for (int b = 0; b < r->B; b++) {
        json_obj(&w, NULL);
        json_int(&w, "example", b < info->nrows ? info->rows[b] : -1);
        json_int(&w, "length", r->len[b]);
        json_close(&w, '}');
    }
    json_close(&w, ']');
    int_rows(&w, "ids_left", r->ids_left, r->B, r->T);
    int_rows(&w, "ids_right", r->ids_right, r->B, r->T);
    int_rows(&w, "position_ids_naive", r->pos_naive, r->B, r->T);
    int_rows(&w, "position_ids_left_corrected", r->pos_left, r->B, r->T);
    return pl_report_json_end(&w, PL_R_GENERATE, c, info, o);
}

static int print_row(FILE *f, const char *label, const int32_t *v, int T, const PlReportOpts *o) {
    OutRow row;
    out_row_init(&row);
    for (int t = 0; t < T; t++) out_row_cell(&row, "%4d", v[t]);
    int left_out = out_row_print(&row, f, label, pl_report_columns(o));
    out_row_done(&row);
    return left_out < 0 ? -1 : 0;
}

PlStatus pl_report_generate_text(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                                 const PlReportOpts *o) {
    const PlProbeGenerate *r = result;
    pl_report_header(f, PL_R_GENERATE, c, info, o);
    fprintf(f, "%d prompt%s, lengths", r->B, r->B == 1 ? "" : "s");
    for (int b = 0; b < r->B; b++) fprintf(f, " %d", r->len[b]);
    fprintf(f, "; a batch of width %d\n\n", r->T);
    for (int b = 0; b < r->B; b++) {
        size_t at = (size_t)b * r->T;
        int review = b < info->nrows ? info->rows[b] : -1, whole = review >= 0 ? pl_corpus_len(c, review) : r->len[b];
        fprintf(f, "  prompt %d: review %d, %d token%s", b, review, r->len[b], r->len[b] == 1 ? "" : "s");
        if (whole > r->len[b]) fprintf(f, " (cut from %d)", whole);
        fprintf(f, ", %d pad%s\n", r->T - r->len[b], r->T - r->len[b] == 1 ? "" : "s");
        if (print_row(f, "    left ids  ", r->ids_left + at, r->T, o) ||
            print_row(f, "    left pos  ", r->pos_left + at, r->T, o) ||
            print_row(f, "    right ids ", r->ids_right + at, r->T, o) ||
            print_row(f, "    naive pos ", r->pos_naive + at, r->T, o))
            return PL_ENOMEM;
    }
    fprintf(f, "\nnaive code reads the last column: a pad in %d row%s under right padding, %d under left padding\n",
            r->naive_last_column_pad_rows_right, r->naive_last_column_pad_rows_right == 1 ? "" : "s",
            r->naive_last_column_pad_rows_left);
    fprintf(f, "next-token logits against each prompt run alone (largest difference):\n");
    fprintf(f, "  left padding, corrected position ids       %.3g\n", (double)r->left_vs_single_max_diff);
    fprintf(f, "  left padding, position ids 0..T-1          %.3g\n", (double)r->left_naive_positions_max_diff);
    fprintf(f, "  right padding, read at the last real token %.3g\n", (double)r->right_last_real_vs_single_max_diff);
    fprintf(f, "  right padding, read at the last column     %.3g\n", (double)r->right_last_column_vs_single_max_diff);
    return pl_report_status(f);
}
