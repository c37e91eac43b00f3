/* The layers result: which layers let a change at the pads through. */
#include "report.h"

#include <string.h>

/* The quantity a row's leak is: layers.leak(NAME MASK), or (NAME) for a
 * layer that takes no mask. */
static const char *leak_name(char *buf, size_t cap, const PlLayerLeak *row) {
    if (strcmp(row->mask, "none") == 0) snprintf(buf, cap, "layers.leak(%s)", row->name);
    else snprintf(buf, cap, "layers.leak(%s %s)", row->name, row->mask);
    return buf;
}

PlStatus pl_report_layers_json(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                               const PlReportOpts *o) {
    const PlProbeLayers *r = result;
    JsonW w;
    char q[96];
    json_begin(&w, f);
    w.ledger = o->ledger;
    json_obj(&w, "summary");
    float worst = 0.0f;
    for (int i = 0; i < r->n; i++)
        if (r->rows[i].mask[1] == 'n' && r->rows[i].leak > worst) worst = r->rows[i].leak; /* mask "on" */
    json_num(&w, "masked_leak_max", (double)worst);
    json_fig_int(&w, "pads", "layers.pads", r->pads);
    json_close(&w, '}');
    json_int(&w, "B", r->B);
    json_fig_int(&w, "T", "layers.width", r->T);
    json_arr(&w, "layers");
    for (int i = 0; i < r->n; i++) {
        json_obj(&w, NULL);
        json_str(&w, "name", r->rows[i].name);
        json_str(&w, "mask", r->rows[i].mask);
        json_fig(&w, "leak", leak_name(q, sizeof q, &r->rows[i]), (double)r->rows[i].leak);
        json_close(&w, '}');
    }
    json_close(&w, ']');
    return pl_report_json_end(&w, PL_R_LAYERS, c, info, o);
}

PlStatus pl_report_layers_text(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                               const PlReportOpts *o) {
    static const char *const head[] = {"layer", "mask", "leak", "verdict"};
    const PlProbeLayers *r = result;
    const PlLedger *l = o->ledger;
    pl_report_header(f, PL_R_LAYERS, c, info, o);
    fputs("the ", f), pl_fig_fprintf(f, l, "layers.pads", "%ld", r->pads);
    fprintf(f, " pad cells of a %d x ", r->B), pl_fig_fprintf(f, l, "layers.width", "%d", r->T);
    fputs(" batch perturbed; the largest change that reaches a real\n"
          "position (or the pooled output, or a recurrent readout):\n\n",
          f);
    OutTable t;
    out_table_init(&t, 4, head);
    for (int i = 0; i < r->n; i++) {
        out_table_cell(&t, "%s", r->rows[i].name);
        out_table_cell(&t, "%s", r->rows[i].mask);
        char q[96], v[96];
        leak_name(q, sizeof q, &r->rows[i]);
        out_table_cell(&t, "%s", pl_fig_drawn(v, sizeof v, l, q, "%.3g", (double)r->rows[i].leak));
        out_table_cell(&t, "%s", pl_fig_drawn(v, sizeof v, l, q, "%s", /* the verdict tells the figure */
                                              !r->pads                  ? "(no pads)"
                                              : r->rows[i].leak == 0.0f ? "respects the pads"
                                                                        : "pads leak in"));
    }
    int bad = out_table_print(&t, f, OUT_TABLE, 2);
    out_table_done(&t);
    if (bad) return PL_ENOMEM;
    if (!r->pads)
        fprintf(f, "\nthis batch has no pads, so nothing could leak: try a larger maxlen or shorter reviews\n");
    return pl_report_status(f);
}
