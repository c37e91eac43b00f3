/* The masks result: the batch's one mask in four conventions, and the
 * attention share on pads with the right, no and the inverted mask. */
#include "report.h"

#include <math.h>
#include <string.h>

/* What 1 (or 0.0 for the bias) means in each convention, by PlMaskConv. */
static const char *const keep_word[] = {"1 = keep", "1 = ignore", "1 = keep", "0 = keep"};

static void json_bool_row(JsonW *w, const char *key, const uint8_t *m, int T) {
    json_arr(w, key);
    for (int t = 0; t < T; t++) json_int(w, NULL, m[t]);
    json_close(w, ']');
}

PlStatus pl_report_masks_json(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                              const PlReportOpts *o) {
    const PlProbeMasks *r = result;
    JsonW w;
    char q[64];
    json_begin(&w, f);
    w.ledger = o->ledger;
    json_obj(&w, "summary");
    json_fig(&w, "share_right", "masks.share_right", (double)r->share_right);
    json_fig(&w, "share_none", "masks.share_none", (double)r->share_none);
    json_fig(&w, "share_inverted", "masks.share_inverted", (double)r->share_inverted);
    json_fig_int(&w, "padded_rows", "masks.padded_rows", r->padded_rows);
    json_int(&w, "padded_queries", r->padded_queries);
    json_fig_int(&w, "blind_rows", "masks.blind_rows", r->blind_rows);
    json_fig_int(&w, "blind_queries", "masks.blind_rows,masks.blind_queries", r->blind_queries);
    json_fig_int(&w, "real_tokens", "masks.real_tokens", r->real_tokens);
    json_bool(&w, "agree", r->agree);
    json_int(&w, "nan_count", r->nan_count);
    json_close(&w, '}');
    json_int(&w, "B", r->B);
    json_fig_int(&w, "T", "masks.width", r->T);
    json_int(&w, "heads", r->heads);
    json_int(&w, "dhead", r->dhead);
    json_int(&w, "example_row", r->row);
    json_arr(&w, "conventions");
    for (int k = 0; k < 4; k++) {
        json_obj(&w, NULL);
        json_str(&w, "name", pl_mask_conv_name((PlMaskConv)k));
        json_str(&w, "meaning", keep_word[k]);
        json_str(&w, "code", pl_mask_conv_code((PlMaskConv)k));
        snprintf(q, sizeof q, "masks.keep(%s)", pl_mask_conv_name((PlMaskConv)k));
        json_fig_int(&w, "keep", q, r->keep[k]);
        json_close(&w, '}');
    }
    json_close(&w, ']');
    json_arr(&w, "rows");
    for (int i = 0; i < r->B; i++) {
        size_t at = (size_t)i * r->T;
        json_obj(&w, NULL);
        json_int(&w, "example", r->example[i]);
        json_fig_int(&w, "real_tokens", i == r->row ? "masks.example_kept" : "", r->len[i]);
        json_fig_int(&w, "pads", i == r->row ? "masks.example_pads" : "", r->pads[i]);
        if (pl_ledger_hides_name(w.ledger, "masks.blind_rows")) json_fig(&w, "blind", "masks.blind_rows", 0.0);
        else json_bool(&w, "blind", r->pads[i] == 0);
        json_arr(&w, "ids");
        for (int t = 0; t < r->T; t++) json_int(&w, NULL, r->ids[at + t]);
        json_close(&w, ']');
        json_bool_row(&w, "keras", r->keras + at, r->T);
        json_bool_row(&w, "torch", r->torch + at, r->T);
        json_bool_row(&w, "hf", r->hf + at, r->T);
        json_arr(&w, "additive");
        for (int t = 0; t < r->T; t++) {
            if (r->additive[at + t] == 0.0f) json_int(&w, NULL, 0);
            else json_num(&w, NULL, (double)r->additive[at + t]); /* -inf prints as null */
        }
        json_close(&w, ']');
        json_fig(&w, "share_right", "masks.share_right", (double)r->row_share[(size_t)i * 3 + 0]);
        json_fig(&w, "share_none", "masks.share_none", (double)r->row_share[(size_t)i * 3 + 1]);
        json_fig(&w, "share_inverted", "masks.share_inverted", (double)r->row_share[(size_t)i * 3 + 2]);
        json_close(&w, '}');
    }
    json_close(&w, ']');
    return pl_report_json_end(&w, PL_R_MASKS, c, info, o);
}

const char *pl_report_masks_ids_note(const PlProbeMasks *r, char *buf, size_t cap) {
    if (r->real_pad_ids <= 0) return buf[0] = '\0', buf;
    /* the count is the batch's when the close-up is the batch, as where it happens (lesson 10's prompts); what the
     * code keeps is the real tokens less it: both go with it while it is asked */
    char n[192], kept[192];
    snprintf(buf, cap,
             "real cells holding the pad's id 0 (an end token written as the pad): %s; these masks come from the "
             "lengths, and the code, which compares ids, would hide those cells too and keep %s",
             pl_fig(n, sizeof n, "batch.id0_real", "%ld", r->real_pad_ids),
             pl_fig(kept, sizeof kept, "batch.id0_real", "%ld", r->real_tokens - r->real_pad_ids));
    return buf;
}

/* The cell of convention k at (row, t), as a library prints it. */
static const char *mask_cell(const PlProbeMasks *r, int k, size_t at, char *buf, size_t n) {
    int v = k == PL_MASK_KERAS ? r->keras[at] : k == PL_MASK_TORCH ? r->torch[at] : r->hf[at];
    if (k == PL_MASK_ADDITIVE) return r->additive[at] == 0.0f ? "0" : "-inf";
    snprintf(buf, n, "%d", v);
    return buf;
}

/* The example row's four masks side by side, one column per run of real
 * tokens or pads (the mask is constant along a run), each with its code. */
static int masks_example(FILE *f, const PlCorpus *c, const PlProbeMasks *r, const PlReportOpts *o) {
    enum { MAX_RUNS = 8 };
    int start[MAX_RUNS], end[MAX_RUNS], nruns = 0;
    size_t row = (size_t)r->row * r->T;
    for (int t = 0; t < r->T && nruns < MAX_RUNS; t++) {
        if (t == 0 || r->keras[row + t] != r->keras[row + t - 1]) start[nruns] = t, end[nruns] = t, nruns++;
        else end[nruns - 1] = t;
    }
    char head[MAX_RUNS][96]; /* the runs' ranges give the example's tokens and pads */
    int width[MAX_RUNS];
    for (int k = 0; k < nruns; k++) {
        const char *kind = r->keras[row + start[k]] ? "real" : "pad";
        if (start[k] == end[k])
            pl_fig_drawn(head[k], sizeof head[k], o->ledger, "masks.example_kept,masks.example_pads", "%d %s", start[k],
                         kind);
        else
            pl_fig_drawn(head[k], sizeof head[k], o->ledger, "masks.example_kept,masks.example_pads", "%d-%d %s",
                         start[k], end[k], kind);
        width[k] = (int)strlen(head[k]) > 4 ? (int)strlen(head[k]) : 4;
    }
    fprintf(f, "the example, row %d (review %d): ", r->row, r->example[r->row]);
    pl_fig_fprintf(f, o->ledger, "masks.example_kept", "%d", r->len[r->row]), fputs(" real tokens and ", f);
    pl_fig_fprintf(f, o->ledger, "masks.example_pads", "%d", r->pads[r->row]), fputs(" pads\n", f);
    OutRow words;
    out_row_init(&words);
    for (int t = 0; t < r->T; t++)
        out_row_cell(&words, "%s", r->keras[row + t] ? pl_corpus_word(c, r->ids[row + t]) : "_");
    int left_out = out_row_print(&words, f, "  words ", pl_report_columns(o));
    out_row_done(&words);
    if (left_out < 0) return -1;
    /* Printed by hand rather than as an OutTable: every mask column is
     * right-aligned, -inf included. */
    fprintf(f, "\n  %-10s  %-10s", "convention", "meaning");
    for (int k = 0; k < nruns; k++) fprintf(f, "  %*s", width[k], head[k]);
    char note[300];
    fprintf(f, "  %s\n",
            r->real_pad_ids ? "code that builds it from input_ids" : "built from input_ids (pad_id = 0) by");
    for (int m = 0; m < 4; m++) {
        char buf[8];
        fprintf(f, "  %-10s  %-10s", pl_mask_conv_name((PlMaskConv)m), keep_word[m]);
        for (int k = 0; k < nruns; k++)
            fprintf(f, "  %*s", width[k], mask_cell(r, m, row + (size_t)start[k], buf, sizeof buf));
        fprintf(f, "  %s\n", pl_mask_conv_code((PlMaskConv)m));
    }
    if (r->real_pad_ids) {
        fputs("  ", f);
        if (pl_ledger_fputs(o->ledger, pl_report_masks_ids_note(r, note, sizeof note), PL_DRAW_TEXT, f)) return -1;
        fputc('\n', f);
    }
    return 0;
}

static void pct(OutTable *t, float share, const PlLedger *l, const char *name) {
    char v[96];
    if (isnan(share)) out_table_cell(t, "-");
    else out_table_cell(t, "%s", pl_fig_drawn(v, sizeof v, l, name, "%.1f%%", 100.0 * (double)share));
}

static int masks_rows(FILE *f, const PlProbeMasks *r, const PlLedger *l) {
    static const char *const head[] = {"row", "review", "real", "pads", "on pads: right", "no mask", "inverted"};
    OutTable t;
    out_table_init(&t, 7, head);
    for (int i = 0; i < r->B; i++) {
        const float *s = r->row_share + (size_t)i * 3;
        out_table_cell(&t, "%d", i);
        out_table_cell(&t, "%d", r->example[i]);
        char real[96], pads[96];
        out_table_cell(&t, "%s",
                       pl_fig_drawn(real, sizeof real, l, i == r->row ? "masks.example_kept" : "", "%d", r->len[i]));
        out_table_cell(&t, "%s",
                       pl_fig_drawn(pads, sizeof pads, l, i == r->row ? "masks.example_pads" : "", "%d", r->pads[i]));
        pct(&t, s[0], l, "masks.share_right");
        pct(&t, s[1], l, "masks.share_none");
        char v[96]; /* a blind row, and the inverted share beside it, tell the blind rows' count */
        if (r->pads[i] == 0)
            out_table_cell(&t, "%s", pl_fig_drawn(v, sizeof v, l, "masks.blind_rows,masks.share_inverted", "%s",
                                                  "blind: sees no key"));
        else pct(&t, s[2], l, "masks.share_inverted,masks.blind_rows");
    }
    int bad = out_table_print(&t, f, OUT_TABLE, 2);
    out_table_done(&t);
    return bad;
}

PlStatus pl_report_masks_text(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                              const PlReportOpts *o) {
    const PlProbeMasks *r = result;
    const PlLabSettings *s = &info->settings;
    const PlLedger *l = o->ledger;
    char weights[600];
    pl_report_weights(info, o, weights, sizeof weights);
    pl_report_header(f, PL_R_MASKS, c, info, o);
    fprintf(f, "one padding mask in four conventions: a batch of %d rows of width ", r->B);
    pl_fig_fprintf(f, l, "masks.width", "%d", r->T);
    fprintf(f, " (padding %s, truncating %s)\n\n", pl_side_name((PlSide)s->padding), pl_side_name((PlSide)s->truncating));
    if (masks_example(f, c, r, o)) return PL_ENOMEM;
    if (r->agree) {
        fputs("\nread each in its own convention, all four keep the same ", f);
        pl_fig_fprintf(f, l, "masks.real_tokens", "%ld", r->real_tokens);
        fputs(" cells: the batch's real tokens.\n", f);
    }
    else
        fprintf(f,
                "\nthe conventions disagree on what to keep (keras %ld, "
                "torch %ld, hf %ld, additive %ld, real tokens %ld)\n",
                r->keep[0], r->keep[1], r->keep[2], r->keep[3], r->real_tokens);
    fprintf(f,
            "\nself-attention over the batch, %d heads of %d (%s).\n"
            "Of the attention each real token pays, the share that lands on pads, row by row:\n",
            r->heads, r->dhead, weights);
    if (masks_rows(f, r, l)) return PL_ENOMEM;
    if (!r->padded_rows) {
        fprintf(f,
                "\nno row of this batch has a pad, so there is nothing to leak: try a larger maxlen or other rows\n");
    } else {
        fputs("\nover the ", f), pl_fig_fprintf(f, l, "masks.padded_rows", "%d", r->padded_rows);
        fprintf(f, " row%s with pads (%ld real tokens):\n", r->padded_rows == 1 ? "" : "s", r->padded_queries);
        static const char *const label[] = {"key_padding_mask = input_ids == pad_id (right)", "no mask at all",
                                            "key_padding_mask = the hf attention_mask (inverted)"};
        static const char *const verdict[] = {"the pads get nothing", "the pads take a share they should not",
                                              "the real tokens are hidden: only pads are seen"};
        static const char *const name[] = {"masks.share_right", "masks.share_none", "masks.share_inverted"};
        const float share[] = {r->share_right, r->share_none, r->share_inverted};
        for (int k = 0; k < 3; k++) { /* a verdict says what its share is: hidden with it */
            fprintf(f, "  %-52s ", label[k]), pl_fig_fprintf(f, l, name[k], "%6.1f%%", 100.0 * (double)share[k]);
            fputs("  ", f), pl_fig_fprintf(f, l, name[k], "%s", verdict[k]), fputc('\n', f);
        }
    }
    fputc('\n', f); /* which sentence shows tells the count of blind rows: hidden with it */
    if (r->blind_rows)
        pl_fig_fprintf(f, l, "masks.blind_rows,masks.blind_queries",
                       "%d row%s (%ld query positions) %s no pad, so the inverted mask hides every key from %s tokens.",
                       r->blind_rows, r->blind_rows == 1 ? "" : "s", r->blind_queries,
                       r->blind_rows == 1 ? "has" : "have", r->blind_rows == 1 ? "its" : "their"),
            fputs("\nPyTorch's softmax over nothing but -inf gives NaN there; padlab keeps zero weights and a zero "
                  "output.\n",
                  f);
    else
        pl_fig_fprintf(f, l, "masks.blind_rows", "%s",
                       "every row has a pad, so no row is blind under the inverted mask; a full row would see no key "
                       "at all."),
            fputc('\n', f);
    return pl_report_status(f);
}
