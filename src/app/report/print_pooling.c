/* The pooling result: how pads dilute a mean, over the corpus and for the
 * example. */
#include "report.h"

PlStatus pl_report_pooling_json(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                                const PlReportOpts *o) {
    const PlProbePooling *r = result;
    JsonW w;
    json_begin(&w, f);
    json_obj(&w, "summary");
    json_num(&w, "mean_real_weight", r->mean_real_weight);
    json_num(&w, "min_real_weight", r->min_real_weight);
    json_num(&w, "avg_unmasked_distance", (double)r->avg_unmasked_dist);
    json_num(&w, "avg_divide_by_T_distance", (double)r->avg_div_t_dist);
    json_num(&w, "max_unmasked_distance", (double)r->max_unmasked_dist);
    json_close(&w, '}');
    json_int(&w, "maxlen", r->maxlen);
    json_arr(&w, "histogram");
    for (int k = 0; k < PL_POOL_HIST_BINS; k++) json_int(&w, NULL, r->hist[k]);
    json_close(&w, ']');
    json_obj(&w, "example");
    json_int(&w, "real_tokens", r->L);
    json_num(&w, "real_weight", (double)r->example_weight);
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
    pl_report_header(f, PL_R_POOLING, c, info, o);
    fprintf(f, "weight on real tokens, min(L, %d) / %d, over %d reviews: mean %.4f, minimum %.4f\n", r->maxlen,
            r->maxlen, c->n, r->mean_real_weight, r->min_real_weight);
    int most = 1;
    for (int k = 0; k < PL_POOL_HIST_BINS; k++) most = r->hist[k] > most ? r->hist[k] : most;
    for (int k = 0; k < PL_POOL_HIST_BINS; k++) {
        fprintf(f, "  %.1f-%.1f %6d ", k / 10.0, (k + 1) / 10.0, r->hist[k]);
        for (int i = 0; i < 40 * r->hist[k] / most; i++) fputc('#', f);
        fputc('\n', f);
    }
    fprintf(f, "\nthe example: %d real tokens of %d, weight %.4f\n", r->L, r->T, (double)r->example_weight);
    fprintf(f, "  average, masked                     the reference\n");
    fprintf(f, "  average, unmasked (pads counted)    distance %.6f\n", (double)r->avg_unmasked_dist);
    fprintf(f, "  average, real sum divided by T      distance %.6f\n", (double)r->avg_div_t_dist);
    fprintf(f, "  max, unmasked vs masked             distance %.6f\n", (double)r->max_unmasked_dist);
    return pl_report_status(f);
}
