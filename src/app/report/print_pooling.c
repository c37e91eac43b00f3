/* The pooling result: how pads dilute a mean, over the corpus and for the
 * example. */
#include "report.h"

PlStatus pl_report_pooling_json(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                                const PlReportOpts *o) {
    const PlProbePooling *r = result;
    JsonW w;
    json_begin(&w, f);
    w.ledger = o->ledger;
    json_obj(&w, "summary");
    json_fig(&w, "mean_real_weight", "pooling.mean_weight", r->mean_real_weight);
    json_fig(&w, "min_real_weight", "pooling.min_weight", r->min_real_weight);
    json_fig(&w, "avg_unmasked_distance", "pooling.unmasked_distance", (double)r->avg_unmasked_dist);
    json_fig(&w, "avg_divide_by_T_distance", "pooling.div_t_distance", (double)r->avg_div_t_dist);
    json_fig(&w, "max_unmasked_distance", "pooling.max_distance", (double)r->max_unmasked_dist);
    json_close(&w, '}');
    json_int(&w, "maxlen", r->maxlen);
    json_arr(&w, "histogram");
    for (int k = 0; k < PL_POOL_HIST_BINS; k++) json_int(&w, NULL, r->hist[k]);
    json_close(&w, ']');
    json_obj(&w, "example");
    json_fig_int(&w, "real_tokens", "pooling.real", r->L);
    json_fig(&w, "real_weight", "pooling.example_weight", (double)r->example_weight);
    pl_report_json_floats(&w, "avg_masked", r->avg_masked, r->E);
    pl_report_json_floats(&w, "avg_unmasked", r->avg_unmasked, r->E);
    pl_report_json_floats(&w, "avg_divide_by_T", r->avg_div_t, r->E);
    pl_report_json_floats(&w, "max_masked", r->max_masked, r->E);
    pl_report_json_floats(&w, "max_unmasked", r->max_unmasked, r->E);
    json_close(&w, '}');
    return pl_report_json_end(&w, PL_R_POOLING, c, info, o);
}

PlStatus pl_report_pooling_text(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                                const PlReportOpts *o) {
    const PlProbePooling *r = result;
    const PlLedger *l = o->ledger;
    pl_report_header(f, PL_R_POOLING, c, info, o);
    fprintf(f, "weight on real tokens, min(L, %d) / %d, over %d reviews: mean ", r->maxlen, r->maxlen, c->n);
    pl_fig_fprintf(f, l, "pooling.mean_weight", "%.4f", r->mean_real_weight), fputs(", minimum ", f);
    pl_fig_fprintf(f, l, "pooling.min_weight", "%.4f", r->min_real_weight), fputc('\n', f);
    int most = 1;
    for (int k = 0; k < PL_POOL_HIST_BINS; k++) most = r->hist[k] > most ? r->hist[k] : most;
    for (int k = 0; k < PL_POOL_HIST_BINS; k++) {
        fprintf(f, "  %.1f-%.1f %6d ", k / 10.0, (k + 1) / 10.0, r->hist[k]);
        for (int i = 0; i < 40 * r->hist[k] / most; i++) fputc('#', f);
        fputc('\n', f);
    }
    fputs("\nthe example: ", f), pl_fig_fprintf(f, l, "pooling.real", "%d", r->L);
    fputs(" real tokens of ", f), pl_fig_fprintf(f, l, "pooling.width", "%d", r->T);
    fputs(", weight ", f), pl_fig_fprintf(f, l, "pooling.example_weight", "%.4f", (double)r->example_weight);
    fputs("\n  average, masked                     the reference\n", f);
    fputs("  average, unmasked (pads counted)    distance ", f);
    pl_fig_fprintf(f, l, "pooling.unmasked_distance", "%.6f", (double)r->avg_unmasked_dist);
    fputs("\n  average, real sum divided by T      distance ", f);
    pl_fig_fprintf(f, l, "pooling.div_t_distance", "%.6f", (double)r->avg_div_t_dist);
    fputs("\n  max, unmasked vs masked             distance ", f);
    pl_fig_fprintf(f, l, "pooling.max_distance", "%.6f", (double)r->max_unmasked_dist), fputc('\n', f);
    return pl_report_status(f);
}
