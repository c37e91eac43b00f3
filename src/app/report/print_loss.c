/* The loss result: per-position token losses and three normalisations. */
#include "report.h"

#include <math.h>

PlStatus pl_report_loss_json(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                             const PlReportOpts *o) {
    const PlProbeLoss *r = result;
    JsonW w;
    json_begin(&w, f);
    w.ledger = o->ledger;
    json_obj(&w, "summary");
    json_fig(&w, "per_token", "loss.per_token", (double)r->per_token);
    json_fig(&w, "per_sequence", "loss.per_sequence", (double)r->per_sequence);
    json_fig(&w, "batch_t", "loss.batch_t", (double)r->batch_t);
    json_fig_int(&w, "fake_terms", "loss.fake_terms", r->fake_terms);
    json_fig_int(&w, "real_terms", "loss.real_terms", r->real_terms);
    json_fig(&w, "grad_per_token", "loss.grad_per_token", (double)r->grad_per_token);
    json_fig(&w, "grad_per_sequence", "loss.grad_per_sequence", (double)r->grad_per_sequence);
    json_fig(&w, "grad_batch_t", "loss.grad_batch_t", (double)r->grad_batch_t);
    json_fig_int(&w, "wide_T", "loss.wide_width", r->wide_T);
    json_fig(&w, "per_token_wide", "loss.per_token_wide", (double)r->per_token_wide);
    json_fig(&w, "batch_t_wide", "loss.batch_t_wide", (double)r->batch_t_wide);
    json_fig(&w, "loss_with_pads", "loss.with_pads", (double)r->loss_with_pads);
    json_fig(&w, "loss_pad_perfect", "loss.pad_perfect", (double)r->loss_pad_perfect);
    json_close(&w, '}');
    json_fig_int(&w, "B", "loss.rows", r->B);
    json_fig_int(&w, "T", "loss.width", r->T);
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

/* The counted targets of row b. */
static long row_count(const PlProbeLoss *r, int b) {
    long n = 0;
    for (int t = 0; t < r->T; t++) n += r->targets[(size_t)b * r->T + t] != -100;
    return n;
}

/* What row b's count is: the fewest targets of a row, or the most, or neither. */
static const char *count_names(const PlProbeLoss *r, int b) {
    long n = row_count(r, b), lo = n, hi = n;
    for (int i = 0; i < r->B; i++) lo = row_count(r, i) < lo ? row_count(r, i) : lo, hi = row_count(r, i) > hi ? row_count(r, i) : hi;
    return n == lo ? "loss.shortest_targets" : n == hi ? "loss.longest_targets" : "";
}

/* Whether padding wider left the per-token loss as it was (to float rounding). */
int pl_report_loss_unchanged(const PlProbeLoss *r) {
    double a = (double)r->per_token, b = (double)r->per_token_wide;
    return fabs(a - b) <= 1e-6 * (1.0 + fabs(a));
}

PlStatus pl_report_loss_text(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                             const PlReportOpts *o) {
    const PlProbeLoss *r = result;
    const PlLedger *l = o->ledger;
    pl_report_header(f, PL_R_LOSS, c, info, o);
    fputs("next-token cross-entropy over a batch of ", f), pl_fig_fprintf(f, l, "loss.rows", "%d", r->B);
    fputs(" rows of width ", f), pl_fig_fprintf(f, l, "loss.width", "%d", r->T);
    fprintf(f, " (%d classes), pads at -100\n\n", r->C);
    for (int b = 0; b < r->B; b++) {
        long n = 0;
        double s = 0.0;
        for (int t = 0; t < r->T; t++) {
            size_t i = (size_t)b * r->T + t;
            if (r->targets[i] == -100) continue;
            n++;
            s += (double)r->terms[i];
        }
        fprintf(f, "  row %d (review %d): ", b, b < info->nrows ? info->rows[b] : -1);
        pl_fig_fprintf(f, l, count_names(r, b), "%ld", n);
        fprintf(f, " positions count, their losses sum to %.4f (mean %.4f)\n", s, n ? s / (double)n : 0.0);
    }
    fprintf(f, "\n  normalisation   loss     |gradient|\n");
    fputs("  per token      ", f), pl_fig_fprintf(f, l, "loss.per_token", "%.5f", (double)r->per_token);
    fputs("  ", f), pl_fig_fprintf(f, l, "loss.grad_per_token", "%.6f", (double)r->grad_per_token);
    fputs("\n  per sequence   ", f), pl_fig_fprintf(f, l, "loss.per_sequence", "%.5f", (double)r->per_sequence);
    fputs("  ", f), pl_fig_fprintf(f, l, "loss.grad_per_sequence", "%.6f", (double)r->grad_per_sequence);
    fputs("\n  batch x T      ", f), pl_fig_fprintf(f, l, "loss.batch_t", "%.5f", (double)r->batch_t);
    fputs("  ", f), pl_fig_fprintf(f, l, "loss.grad_batch_t", "%.6f", (double)r->grad_batch_t);
    fputs("\n\npadded to ", f), pl_fig_fprintf(f, l, "loss.wide_width", "%d", r->wide_T);
    fprintf(f, " instead of %d: per token ", r->T);
    pl_fig_fprintf(f, l, "loss.per_token_wide", "%.5f", (double)r->per_token_wide);
    pl_fig_fprintf(f, l, "loss.per_token_wide,loss.per_token", " (%s)",
                   pl_report_loss_unchanged(r) ? "unchanged" : "changed: the model reads the pads in front of the real tokens");
    fputs(", batch x T ", f), pl_fig_fprintf(f, l, "loss.batch_t_wide", "%.5f", (double)r->batch_t_wide);
    fputs("\nwithout ignore_index: ", f), pl_fig_fprintf(f, l, "loss.fake_terms", "%ld", r->fake_terms);
    fputs(" fake pad targets join the ", f), pl_fig_fprintf(f, l, "loss.real_terms", "%ld", r->real_terms);
    fputs(" real ones; the per-token loss reads ", f);
    pl_fig_fprintf(f, l, "loss.with_pads", "%.5f", (double)r->loss_with_pads);
    fputs(",\nand a model that learned to predict pad would read ", f);
    pl_fig_fprintf(f, l, "loss.pad_perfect", "%.5f", (double)r->loss_pad_perfect);
    fputs(" without being any better at the real ones\n", f);
    return pl_report_status(f);
}
