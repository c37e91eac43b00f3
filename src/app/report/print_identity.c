/* The identity result: the same rows padded pre and post through one
 * model, with the mask and without. */
#include "report.h"

/* The logits give the differences they enter away: the masked ones
 * (unmasked: 0, 1) the masked difference (the unmasked one) and the mask's
 * effect; a trained model's are figures of its training too (their signs
 * against the labels are its accuracy). */
static const char *logit_names(const PlResultInfo *info, int unmasked) {
    static const char *const names[2][2] = {
        {"identity.masked,identity.mask_effect", "identity.masked,identity.mask_effect,train.logits"},
        {"identity.unmasked,identity.mask_effect", "identity.unmasked,identity.mask_effect,train.logits"}};
    return names[unmasked][info->weights_run > 0];
}

PlStatus pl_report_identity_json(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                                 const PlReportOpts *o) {
    const PlProbeIdentity *r = result;
    JsonW w;
    json_begin(&w, f);
    w.ledger = o->ledger;
    json_obj(&w, "summary");
    json_fig(&w, "masked_max_diff", "identity.masked", (double)r->masked_max_diff);
    json_fig(&w, "unmasked_max_diff", "identity.unmasked", (double)r->unmasked_max_diff);
    json_fig(&w, "mask_effect_max_diff", "identity.mask_effect", (double)r->mask_effect_max_diff);
    json_bool(&w, "order_blind", r->order_blind);
    json_fig_int(&w, "pads", "identity.pads", r->pads);
    json_close(&w, '}');
    json_str(&w, "arch", pl_arch_name(r->arch));
    json_int(&w, "B", r->B);
    json_fig_int(&w, "T", "identity.width", r->T);
    json_arr(&w, "examples");
    for (int i = 0; i < r->B; i++) json_int(&w, NULL, r->example[i]);
    json_close(&w, ']');
    json_arr(&w, "real_tokens");
    for (int i = 0; i < r->B; i++) json_fig_int(&w, NULL, i == 0 ? "identity.real" : "", r->len[i]); /* the example's */
    json_close(&w, ']');
    json_obj(&w, "logits"); /* the differences are theirs: hidden with the ones they give */
    for (int un = 0; un < 2; un++) {
        const char *pre = un ? "pre_unmasked" : "pre_masked", *post = un ? "post_unmasked" : "post_masked";
        if (pl_ledger_hides_name(w.ledger, logit_names(info, un))) {
            json_fig(&w, pre, logit_names(info, un), 0.0);
            json_fig(&w, post, logit_names(info, un), 0.0);
            continue;
        }
        pl_report_json_floats(&w, pre, un ? r->pre_unmasked : r->pre_masked, r->B);
        pl_report_json_floats(&w, post, un ? r->post_unmasked : r->post_masked, r->B);
    }
    json_close(&w, '}');
    return pl_report_json_end(&w, PL_R_IDENTITY, c, info, o);
}

PlStatus pl_report_identity_text(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                                 const PlReportOpts *o) {
    static const char *const head[] = {"row",         "review",       "real",         "pre + mask",
                                       "post + mask", "pre, no mask", "post, no mask"};
    const PlProbeIdentity *r = result;
    const PlLedger *l = o->ledger;
    char weights[600];
    pl_report_header(f, PL_R_IDENTITY, c, info, o);
    fprintf(f, "the same %d reviews padded pre and padded post to width ", r->B);
    pl_fig_fprintf(f, l, "identity.width", "%d", r->T);
    fprintf(f, ", through one %s (%s); one logit per row\n\n", pl_arch_name(r->arch),
            pl_report_weights(info, o, weights, sizeof weights));
    OutTable t;
    out_table_init(&t, 7, head);
    for (int i = 0; i < r->B; i++) {
        out_table_cell(&t, "%d", i);
        out_table_cell(&t, "%d", r->example[i]);
        char v[128];
        out_table_cell(&t, "%s", pl_fig_drawn(v, sizeof v, l, i == 0 ? "identity.real" : "", "%d", r->len[i]));
        out_table_cell(&t, "%s", pl_fig_drawn(v, sizeof v, l, logit_names(info, 0), "%.7f", (double)r->pre_masked[i]));
        out_table_cell(&t, "%s", pl_fig_drawn(v, sizeof v, l, logit_names(info, 0), "%.7f", (double)r->post_masked[i]));
        out_table_cell(&t, "%s",
                       pl_fig_drawn(v, sizeof v, l, logit_names(info, 1), "%.7f", (double)r->pre_unmasked[i]));
        out_table_cell(&t, "%s",
                       pl_fig_drawn(v, sizeof v, l, logit_names(info, 1), "%.7f", (double)r->post_unmasked[i]));
    }
    int bad = out_table_print(&t, f, OUT_TABLE, 2);
    out_table_done(&t);
    if (bad) return PL_ENOMEM;
    if (!r->pads) {
        fprintf(
            f, "\nthis batch has no pads (every row fills the width), so padding pre and post give the same batch and\n"
               "nothing can differ: try a larger maxlen or rows of different lengths\n");
        return pl_report_status(f);
    }
    fputc('\n', f); /* each sentence is said because of its figure: hidden with it */
    if (r->masked_max_diff == 0.0f)
        pl_fig_fprintf(f, l, "identity.masked", "%s", "with the mask, pre and post padding give exactly the same logits.");
    else
        pl_fig_fprintf(f, l, "identity.masked",
                       "with the mask, pre and post padding give the same logits: they differ by at most %.3g (float "
                       "rounding).",
                       (double)r->masked_max_diff);
    fputc('\n', f);
    if (!r->order_blind)
        pl_fig_fprintf(f, l, "identity.unmasked",
                       "without it they differ by up to %.3g: the pads are read like words, and where they sit changes "
                       "the answer.",
                       (double)r->unmasked_max_diff),
            fputc('\n', f);
    else {
        fputs("without it they still agree (", f);
        pl_fig_fprintf(f, l, "identity.unmasked", "%.3g", (double)r->unmasked_max_diff);
        fprintf(f, "): %s does not see token order, so the side the pads are on cannot\n", pl_arch_name(r->arch));
        fputs("matter. The pads still change the answer: masked and unmasked logits differ by up to ", f);
        pl_fig_fprintf(f, l, "identity.mask_effect", "%.3g", (double)r->mask_effect_max_diff), fputs(".\n", f);
    }
    return pl_report_status(f);
}
