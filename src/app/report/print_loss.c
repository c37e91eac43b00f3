/* The loss result: per-position token losses and three normalisations. */
#include "report.h"

PlStatus pl_report_loss_json(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                             const PlReportOpts *o) {
    const PlProbeLoss *r = result;
    JsonW w;
    json_begin(&w, f);
    json_obj(&w, "summary");
    json_num(&w, "per_token", (double)r->per_token);
    json_num(&w, "per_sequence", (double)r->per_sequence);
    json_num(&w, "batch_t", (double)r->batch_t);
    json_int(&w, "fake_terms", r->fake_terms);
    json_int(&w, "real_terms", r->real_terms);
    json_num(&w, "grad_per_token", (double)r->grad_per_token);
    json_num(&w, "grad_per_sequence", (double)r->grad_per_sequence);
    json_num(&w, "grad_batch_t", (double)r->grad_batch_t);
    json_int(&w, "wide_T", r->wide_T);
    json_num(&w, "per_token_wide", (double)r->per_token_wide);
    json_num(&w, "batch_t_wide", (double)r->batch_t_wide);
    json_num(&w, "loss_with_pads", (double)r->loss_with_pads);
    json_num(&w, "loss_pad_perfect", (double)r->loss_pad_perfect);
    json_close(&w, '}');
    json_int(&w, "B", r->B);
    json_int(&w, "T", r->T);
    json_int(&w, "classes", r->C);
    json_arr(&w, "rows");
    for (int b = 0; b < r->B; b++) {
        json_obj(&w, NULL);
        json_arr(&w, "targets");
        for (int t = 0; t < r->T; t++) json_int(&w, NULL, r->targets[(size_t)b * r->T + t]);
        json_close(&w, ']');
        pl_report_json_floats(&w, "terms", r->terms + (size_t)b * r->T, r->T);
        json_close(&w, '}');
    }
    json_close(&w, ']');
    return pl_report_json_end(&w, PL_R_LOSS, c, info, o);
}

PlStatus pl_report_loss_text(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                             const PlReportOpts *o) {
    const PlProbeLoss *r = result;
    pl_report_header(f, PL_R_LOSS, c, info, o);
    fprintf(f, "next-token cross-entropy over a batch of %d rows of width %d (%d classes), pads at -100\n\n", r->B,
            r->T, r->C);
    for (int b = 0; b < r->B; b++) {
        long n = 0;
        double s = 0.0;
        for (int t = 0; t < r->T; t++) {
            size_t i = (size_t)b * r->T + t;
            if (r->targets[i] == -100) continue;
            n++;
            s += (double)r->terms[i];
        }
        fprintf(f, "  row %d (review %d): %ld positions count, their losses sum to %.4f (mean %.4f)\n", b,
                b < info->nrows ? info->rows[b] : -1, n, s, n ? s / (double)n : 0.0);
    }
    fprintf(f, "\n  normalisation   loss     |gradient|\n");
    fprintf(f, "  per token      %.5f  %.6f\n", (double)r->per_token, (double)r->grad_per_token);
    fprintf(f, "  per sequence   %.5f  %.6f\n", (double)r->per_sequence, (double)r->grad_per_sequence);
    fprintf(f, "  batch x T      %.5f  %.6f\n", (double)r->batch_t, (double)r->grad_batch_t);
    fprintf(f, "\npadded to %d instead of %d: per token %.5f (unchanged), batch x T %.5f\n", r->wide_T, r->T,
            (double)r->per_token_wide, (double)r->batch_t_wide);
    fprintf(f, "without ignore_index: %ld fake pad targets join the %ld real ones; the per-token loss reads %.5f,\n",
            r->fake_terms, r->real_terms, (double)r->loss_with_pads);
    fprintf(f, "and a model that learned to predict pad would read %.5f without being any better at the real ones\n",
            (double)r->loss_pad_perfect);
    return pl_report_status(f);
}
