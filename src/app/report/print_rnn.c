/* The rnn result: the hidden state step by step over one padded example,
 * its fixed point and the three readouts. */
#include "report.h"

#include <math.h>

/* What the distance at the last step is: the readout's distance from the
 * last real state (and, with the mask, the carried state's). */
static const char *last_step_names(const PlProbeRnn *r) {
    return r->mask ? "rnn.final_distance,rnn.carry_distance" : "rnn.final_distance";
}

/* The names a step's figures give away, column by column: from the last
 * real step on, its distance from the last real state walks to the
 * readout's; after it, a step's change (0 under a mask: the state is
 * carried), and with the mask its |h| and its distance from h* (the same on
 * every pad), tell it too; the distance from h* from the last real step on
 * walks to rnn.survival. */
enum { COL_NORM, COL_LAST, COL_CHANGE, COL_FIXED };
static const char *step_names(const PlProbeRnn *r, int col, int t) {
    switch (col) {
    case COL_NORM: return r->mask && t > r->last_real ? last_step_names(r) : "";
    case COL_LAST: return t >= r->last_real ? last_step_names(r) : "";
    case COL_CHANGE: return t > r->last_real ? last_step_names(r) : "";
    default: /* with the mask a pad keeps the last real distance from h*: the carry */
        return t < r->last_real                    ? ""
               : r->mask && t > r->last_real ? "rnn.survival,rnn.final_distance,rnn.carry_distance"
                                              : "rnn.survival";
    }
}

/* One column over steps [from, to), each figure marked by step_names. */
static void json_steps(JsonW *w, const char *key, const PlProbeRnn *r, int col, const float *v, int from, int to) {
    json_arr(w, key);
    for (int t = from; t < to; t++) json_fig(w, NULL, step_names(r, col, t), (double)v[t]);
    json_close(w, ']');
}

PlStatus pl_report_rnn_json(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                            const PlReportOpts *o) {
    const PlProbeRnn *r = result;
    JsonW w;
    json_begin(&w, f);
    w.ledger = o->ledger;
    json_obj(&w, "summary");
    json_fig(&w, "final_distance_to_last_real", "rnn.final_distance", (double)r->final_distance_to_last_real);
    json_fig(&w, "last_real_survival", "rnn.survival", (double)r->last_real_survival);
    json_bool(&w, "fixed_point_found", r->fixed_found);
    json_fig(&w, "masked_carry_distance", "rnn.carry_distance", (double)r->masked_carry_distance);
    json_fig(&w, "pad_embedding_norm", "rnn.pad_embedding_norm", (double)r->pad_embedding_norm);
    /* Without a fixed point there is no h* to be near: null, not a distance to where the search stopped. */
    if (r->fixed_found) json_steps(&w, "distance_to_fixed_point", r, COL_FIXED, r->dist_fixed, r->last_real + 1, r->T);
    else json_num(&w, "distance_to_fixed_point", NAN);
    json_close(&w, '}');
    json_str(&w, "cell", pl_arch_name(r->cell));
    json_fig_int(&w, "T", "rnn.width", r->T);
    json_fig_int(&w, "real_tokens", "rnn.real", r->L);
    json_str(&w, "padding", pl_side_name(r->padding));
    json_bool(&w, "mask", r->mask);
    json_fig_int(&w, "first_real", "rnn.real,rnn.pads", r->first_real); /* the range gives the count */
    json_fig_int(&w, "last_real", "rnn.real,rnn.pads", r->last_real);
    json_obj(&w, "readouts");
    json_fig(&w, "last_position_norm", "rnn.last_position_norm", (double)r->last_pos_norm);
    json_fig(&w, "last_real_norm", "rnn.last_real_norm", (double)r->last_real_norm);
    json_fig(&w, "masked_carry_norm", "rnn.carry_norm", (double)r->masked_carry_norm);
    json_close(&w, '}');
    json_obj(&w, "fixed_point");
    json_fig_int(&w, "iterations", "rnn.fixed_steps", r->fixed_iters);
    json_num(&w, "residual", (double)r->fixed_residual);
    if (r->fixed_found) pl_report_json_floats(&w, "state", r->h_fixed, r->H);
    else json_num(&w, "state", NAN);
    json_close(&w, '}');
    json_steps(&w, "norm", r, COL_NORM, r->norm, 0, r->T);
    json_steps(&w, "distance_to_last_real", r, COL_LAST, r->dist_last, 0, r->T); /* its last step is the readout's */
    json_steps(&w, "step_change", r, COL_CHANGE, r->step, 0, r->T);
    if (r->fixed_found) json_steps(&w, "distance_to_fixed_point_all", r, COL_FIXED, r->dist_fixed, 0, r->T);
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
    const PlLedger *l = o->ledger;
    int cut = !o->full && r->T > 24, cols = r->fixed_found ? 6 : 5; /* no h*: no column of distances to it */
    pl_report_header(f, PL_R_RNN, c, info, o);
    fprintf(f, "%s, %d units, one example padded to ", pl_arch_name(r->cell), r->H);
    pl_fig_fprintf(f, l, "rnn.width", "%d", r->T), fprintf(f, " (%s padding), ", pl_side_name(r->padding));
    pl_fig_fprintf(f, l, "rnn.real", "%d", r->L), fputs(" real tokens at steps ", f); /* the range gives the count */
    pl_fig_fprintf(f, l, "rnn.real,rnn.pads", "%d..%d", r->first_real, r->last_real);
    fprintf(f, "; mask %s\n\n", r->mask ? "on" : "off");
    OutTable t;
    out_table_init(&t, cols, head);
    for (int s = 0; s < r->T; s++) {
        if (cut && !near_an_edge(r, s)) continue;
        out_table_cell(&t, "%d", s);
        out_table_cell(&t, "%s", s >= r->first_real && s <= r->last_real ? "token" : "pad");
        const float *col[] = {r->norm, r->dist_last, r->step, r->dist_fixed};
        for (int k = COL_NORM; k < COL_FIXED + r->fixed_found; k++) {
            char v[96];
            out_table_cell(&t, "%s", pl_fig_drawn(v, sizeof v, l, step_names(r, k, s), "%.5f", (double)col[k][s]));
        }
    }
    int bad = out_table_print(&t, f, OUT_TABLE, 2);
    out_table_done(&t);
    if (bad) return PL_ENOMEM;
    if (cut) fprintf(f, "  (steps away from the edges left out; --full or --format json has every step)\n");
    if (r->fixed_found) {
        fputs("\nfixed point of the pad-input map: found after ", f);
        pl_fig_fprintf(f, l, "rnn.fixed_steps", "%d", r->fixed_iters);
        fprintf(f, " pad steps (residual %.2g), |h*| ", (double)r->fixed_residual);
        pl_fig_fprintf(f, l, "rnn.fixed_norm", "%.5f", (double)r->fixed_norm), fputc('\n', f);
    }
    else
        fprintf(f,
                "\nthe pad-input map has no fixed point here: after %d "
                "pad steps the state still moves by %.3g each step\n"
                "(it cycles), so there is no h* to measure a distance from\n",
                r->fixed_iters, (double)r->fixed_residual);
    fputs("readouts: last array position without the mask |h| ", f);
    pl_fig_fprintf(f, l, "rnn.last_position_norm", "%.5f", (double)r->last_pos_norm);
    fputs(", last real step |h| ", f), pl_fig_fprintf(f, l, "rnn.last_real_norm", "%.5f", (double)r->last_real_norm);
    fputs(", masked carry |h| ", f), pl_fig_fprintf(f, l, "rnn.carry_norm", "%.5f", (double)r->masked_carry_norm);
    fputs("\nthe state read out is ", f);
    pl_fig_fprintf(f, l, "rnn.final_distance", "%.6f", (double)r->final_distance_to_last_real);
    fputs(" away from the state after the last real token\nwith the mask the carried state is ", f);
    pl_fig_fprintf(f, l, "rnn.carry_distance", "%.6f", (double)r->masked_carry_distance);
    fputs(" away from it\n", f);
    if (r->fixed_found && !isnan(r->last_real_survival)) {
        fputs("of the last real state's distance from h*, ", f);
        pl_fig_fprintf(f, l, "rnn.survival", "%.1f%%", 100.0 * (double)r->last_real_survival);
        fputs(" remains at the last position (100% = intact)\n", f);
    }
    fputs("pad embedding row |e_0| = ", f);
    pl_fig_fprintf(f, l, "rnn.pad_embedding_norm", "%.5f", (double)r->pad_embedding_norm);
    if (r->zero_pad_embedding) /* what a zero row leaves moving is said with the distance it moves */
        pl_fig_fprintf(f, l, "rnn.fixed_found,rnn.final_distance", "%s",
                       " (zeroed: the pads still move the state through the bias and the recurrence)");
    fputc('\n', f);
    return pl_report_status(f);
}
