/* The generate result: the prompts laid out left- and right-padded, their
 * position ids, and a decoder's next token under each layout. */
#include "report.h"

PlStatus pl_report_generate_json(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                                 const PlReportOpts *o) {
    const PlProbeGenerate *r = result;
    JsonW w;
    json_begin(&w, f);
    w.ledger = o->ledger;
    json_obj(&w, "summary");
    json_obj(&w, "left");
    json_fig_int(&w, "naive_last_column_pad_rows", "generate.left_last_column_pads",
                 r->naive_last_column_pad_rows_left);
    json_fig(&w, "left_vs_single_max_diff", "generate.left_corrected", (double)r->left_vs_single_max_diff);
    json_fig(&w, "naive_positions_max_diff", "generate.left_naive", (double)r->left_naive_positions_max_diff);
    json_close(&w, '}');
    json_obj(&w, "right");
    json_fig_int(&w, "naive_last_column_pad_rows", "generate.right_last_column_pads",
                 r->naive_last_column_pad_rows_right);
    json_fig(&w, "last_real_vs_single_max_diff", "generate.right_last_real",
             (double)r->right_last_real_vs_single_max_diff);
    json_fig(&w, "last_column_vs_single_max_diff", "generate.right_last_column",
             (double)r->right_last_column_vs_single_max_diff);
    json_close(&w, '}');
    json_fig(&w, "left_vs_single_max_diff", "generate.left_corrected", (double)r->left_vs_single_max_diff);
    json_close(&w, '}');
    json_fig_int(&w, "B", "generate.prompts", r->B);
    json_fig_int(&w, "T", "generate.width", r->T);
    json_arr(&w, "prompts");
    for (int b = 0; b < r->B; b++) {
        json_obj(&w, NULL);
        json_int(&w, "example", b < info->nrows ? info->rows[b] : -1);
        json_fig_int(&w, "length", b == 0 ? "generate.example_kept" : "", r->len[b]);
        json_close(&w, '}');
    }
    json_close(&w, ']');
    pl_report_json_int_matrix(&w, "ids_left", r->ids_left, r->B, r->T);
    pl_report_json_int_matrix(&w, "ids_right", r->ids_right, r->B, r->T);
    pl_report_json_int_matrix(&w, "position_ids_naive", r->pos_naive, r->B, r->T);
    pl_report_json_int_matrix(&w, "position_ids_left_corrected", r->pos_left, r->B, r->T);
    return pl_report_json_end(&w, PL_R_GENERATE, c, info, o);
}

PlStatus pl_report_generate_text(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                                 const PlReportOpts *o) {
    const PlProbeGenerate *r = result;
    const PlLedger *l = o->ledger;
    pl_report_header(f, PL_R_GENERATE, c, info, o);
    pl_fig_fprintf(f, l, "generate.prompts", "%d", r->B), fprintf(f, " prompt%s, lengths", r->B == 1 ? "" : "s");
    for (int b = 0; b < r->B; b++) fputc(' ', f), pl_fig_fprintf(f, l, b == 0 ? "generate.example_kept" : "", "%d", r->len[b]);
    fputs("; a batch of width ", f), pl_fig_fprintf(f, l, "generate.width", "%d", r->T), fputs("\n\n", f);
    for (int b = 0; b < r->B; b++) {
        size_t at = (size_t)b * r->T;
        pl_report_prompt_line(f, c, info, o, "generate", b, r->len[b], r->T);
        if (pl_report_int_row(f, "    left ids  ", r->ids_left + at, r->T, o) ||
            pl_report_int_row(f, "    left pos  ", r->pos_left + at, r->T, o) ||
            pl_report_int_row(f, "    right ids ", r->ids_right + at, r->T, o) ||
            pl_report_int_row(f, "    naive pos ", r->pos_naive + at, r->T, o))
            return PL_ENOMEM;
    }
    fputs("\nnaive code reads the last column: a pad in ", f);
    pl_fig_fprintf(f, l, "generate.right_last_column_pads", "%d", r->naive_last_column_pad_rows_right);
    fprintf(f, " row%s under right padding, ", r->naive_last_column_pad_rows_right == 1 ? "" : "s");
    pl_fig_fprintf(f, l, "generate.left_last_column_pads", "%d", r->naive_last_column_pad_rows_left);
    fputs(" under left padding\nnext-token logits against each prompt run alone (largest difference):\n", f);
    fputs("  left padding, corrected position ids       ", f);
    pl_fig_fprintf(f, l, "generate.left_corrected", "%.3g", (double)r->left_vs_single_max_diff);
    fputs("\n  left padding, position ids 0..T-1          ", f);
    pl_fig_fprintf(f, l, "generate.left_naive", "%.3g", (double)r->left_naive_positions_max_diff);
    fputs("\n  right padding, read at the last real token ", f);
    pl_fig_fprintf(f, l, "generate.right_last_real", "%.3g", (double)r->right_last_real_vs_single_max_diff);
    fputs("\n  right padding, read at the last column     ", f);
    pl_fig_fprintf(f, l, "generate.right_last_column", "%.3g", (double)r->right_last_column_vs_single_max_diff);
    fputc('\n', f);
    return pl_report_status(f);
}
