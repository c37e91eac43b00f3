/* The rnn result: the hidden state step by step over one padded example,
 * its fixed point and the three readouts. */
#include "report.h"

#include <math.h>

PlStatus pl_report_rnn_json(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                            const PlReportOpts *o) {
    const PlProbeRnn *r = result;
    JsonW w;
    json_begin(&w, f);
    json_obj(&w, "summary");
    json_num(&w, "final_distance_to_last_real", (double)r->final_distance_to_last_real);
    json_num(&w, "last_real_survival", (double)r->last_real_survival);
    json_bool(&w, "fixed_point_found", r->fixed_found);
    json_num(&w, "masked_carry_distance", (double)r->masked_carry_distance);
    json_num(&w, "pad_embedding_norm", (double)r->pad_embedding_norm);
    /* Without a fixed point there is no h* to be near: null, not a distance to where the search stopped. */
    if (r->fixed_found)
        pl_report_json_floats(&w, "distance_to_fixed_point", r->dist_fixed + r->last_real + 1, r->T - 1 - r->last_real);
    else json_num(&w, "distance_to_fixed_point", NAN);
    json_close(&w, '}');
    json_str(&w, "cell", pl_arch_name(r->cell));
    json_int(&w, "T", r->T);
    json_int(&w, "real_tokens", r->L);
    json_str(&w, "padding", pl_side_name(r->padding));
    json_bool(&w, "mask", r->mask);
    json_int(&w, "first_real", r->first_real);
    json_int(&w, "last_real", r->last_real);
    json_obj(&w, "readouts");
    json_num(&w, "last_position_norm", (double)r->last_pos_norm);
    json_num(&w, "last_real_norm", (double)r->last_real_norm);
    json_num(&w, "masked_carry_norm", (double)r->masked_carry_norm);
    json_close(&w, '}');
    json_obj(&w, "fixed_point");
    json_int(&w, "iterations", r->fixed_iters);
    json_num(&w, "residual", (double)r->fixed_residual);
    if (r->fixed_found) pl_report_json_floats(&w, "state", r->h_fixed, r->H);
    else json_num(&w, "state", NAN);
    json_close(&w, '}');
    pl_report_json_floats(&w, "norm", r->norm, r->T);
    pl_report_json_floats(&w, "distance_to_last_real", r->dist_last, r->T);
    pl_report_json_floats(&w, "step_change", r->step, r->T);
    if (r->fixed_found) pl_report_json_floats(&w, "distance_to_fixed_point_all", r->dist_fixed, r->T);
    else json_num(&w, "distance_to_fixed_point_all", NAN);
    return pl_report_json_end(&w, PL_R_RNN, c, info, o);
}

/* The steps worth a line: the edges of the row and of the real run. */
static int near_an_edge(const PlProbeRnn *r, int s) {
    return s < 3 || (s >= r->first_real - 2 && s <= r->first_real + 1) ||
           (s >= r->last_real - 1 && s <= r->last_real + 4) || s >= r->T - 3;
}

PlStatus pl_report_rnn_text(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                            const PlReportOpts *o) {
    static const char *const head[] = {"step", "input", "|h|", "to_last_real", "change", "to_fixed_point"};
    const PlProbeRnn *r = result;
    int cut = !o->full && r->T > 24, cols = r->fixed_found ? 6 : 5; /* no h*: no column of distances to it */
    pl_report_header(f, PL_R_RNN, c, info, o);
    fprintf(f, "%s, %d units, one example padded to %d (%s padding), %d real tokens at steps %d..%d; mask %s\n\n",
            pl_arch_name(r->cell), r->H, r->T, pl_side_name(r->padding), r->L, r->first_real, r->last_real,
            r->mask ? "on" : "off");
    OutTable t;
    out_table_init(&t, cols, head);
    for (int s = 0; s < r->T; s++) {
        if (cut && !near_an_edge(r, s)) continue;
        out_table_cell(&t, "%d", s);
        out_table_cell(&t, "%s", s >= r->first_real && s <= r->last_real ? "token" : "pad");
        out_table_cell(&t, "%.5f", (double)r->norm[s]);
        out_table_cell(&t, "%.5f", (double)r->dist_last[s]);
        out_table_cell(&t, "%.5f", (double)r->step[s]);
        if (r->fixed_found) out_table_cell(&t, "%.5f", (double)r->dist_fixed[s]);
    }
    int bad = out_table_print(&t, f, OUT_TABLE, 2);
    out_table_done(&t);
    if (bad) return PL_ENOMEM;
    if (cut) fprintf(f, "  (steps away from the edges left out; --full or --format json has every step)\n");
    if (r->fixed_found)
        fprintf(f, "\nfixed point of the pad-input map: found after %d pad steps (residual %.2g), |h*| %.5f\n",
                r->fixed_iters, (double)r->fixed_residual, (double)r->fixed_norm);
    else
        fprintf(f,
                "\nthe pad-input map has no fixed point here: after %d "
                "pad steps the state still moves by %.3g each step\n"
                "(it cycles), so there is no h* to measure a distance from\n",
                r->fixed_iters, (double)r->fixed_residual);
    fprintf(f,
            "readouts: last array position without the mask |h| %.5f, last real step |h| %.5f, masked carry |h| %.5f\n",
            (double)r->last_pos_norm, (double)r->last_real_norm, (double)r->masked_carry_norm);
    fprintf(f, "the state read out is %.6g away from the state after the last real token\n",
            (double)r->final_distance_to_last_real);
    fprintf(f, "with the mask the carried state is %.6g away from it\n", (double)r->masked_carry_distance);
    if (r->fixed_found && !isnan(r->last_real_survival))
        fprintf(f, "of the last real state's distance from h*, %.1f%% remains at the last position (100%% = intact)\n",
                100.0 * (double)r->last_real_survival);
    fprintf(f, "pad embedding row |e_0| = %.5f%s\n", (double)r->pad_embedding_norm,
            r->zero_pad_embedding ? " (zeroed: the pads still move the state through the bias and the recurrence)"
                                  : "");
    return pl_report_status(f);
}
