/* The batch result: every row's words, ids, mask and labels, and whether
 * the three counts agree. Long rows are elided in text, never in JSON. */
#include "report.h"

static void json_mask_row(JsonW *w, const PlProbeBatch *r, size_t at, int T) {
    json_arr(w, "mask");
    for (int t = 0; t < T; t++) {
        if (r->conv != PL_MASK_ADDITIVE) json_int(w, NULL, r->conv_mask[at + t]);
        else if (r->additive[at + t] == 0.0f) json_int(w, NULL, 0);
        else json_num(w, NULL, (double)r->additive[at + t]); /* -inf prints as null */
    }
    json_close(w, ']');
}

PlStatus pl_report_batch_json(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                              const PlReportOpts *o) {
    const PlProbeBatch *r = result;
    const PlBatch *b = r->batch;
    JsonW w;
    json_begin(&w, f);
    w.ledger = o->ledger;
    json_obj(&w, "summary"); /* the three counts are the real tokens, told three ways */
    json_fig_int(&w, "real_tokens", "batch.real_tokens", r->real_tokens);
    json_fig_int(&w, "mask_real", "batch.real_tokens", r->mask_real);
    json_fig_int(&w, "mask_ones", "batch.real_tokens", r->mask_ones);
    json_fig_int(&w, "label_positions", "batch.real_tokens", r->label_positions);
    json_bool(&w, "agree", r->agree);
    if (r->disagrees) json_str(&w, "disagrees", r->disagrees);
    json_close(&w, '}');
    json_str(&w, "convention", pl_mask_conv_name(r->conv));
    json_fig_int(&w, "B", "batch.rows", b->B);
    json_fig_int(&w, "T", "batch.width", b->T);
    json_arr(&w, "rows");
    for (int i = 0; i < b->B; i++) {
        size_t at = (size_t)i * b->T;
        json_obj(&w, NULL);
        json_int(&w, "example", b->row[i]);
        json_int(&w, "label", b->labels[i]);
        int mine = b->row[i] == info->rows[0] && !r->pick.packed;
        json_fig_int(&w, "length", mine ? "batch.example_tokens" : "", b->orig_len[i]);
        json_fig_int(&w, "kept", mine ? "batch.example_kept" : "", b->len[i]);
        json_arr(&w, "ids");
        for (int t = 0; t < b->T; t++) json_int(&w, NULL, b->ids[at + t]);
        json_close(&w, ']');
        json_arr(&w, "words");
        for (int t = 0; t < b->T; t++) json_str(&w, NULL, pl_corpus_word(c, b->ids[at + t]));
        json_close(&w, ']');
        json_mask_row(&w, r, at, b->T);
        json_arr(&w, "labels");
        for (int t = 0; t < b->T; t++) json_int(&w, NULL, r->labels[at + t]);
        json_close(&w, ']');
        json_close(&w, '}');
    }
    json_close(&w, ']');
    return pl_report_json_end(&w, PL_R_BATCH, c, info, o);
}

static const char *conv_meaning(PlMaskConv c) {
    static const char *const m[] = {
        "1 = real token (Keras, True = keep)", "1 = pad (PyTorch key_padding_mask, True = ignore)",
        "1 = real token (Hugging Face attention_mask)", "0 = real token, -inf = pad (additive bias)"};
    return m[c];
}

/* One labelled line of a row's T cells, elided to the width o allows. */
typedef enum { LINE_WORDS, LINE_IDS, LINE_MASK, LINE_LABELS } Line;

static int print_line(FILE *f, const PlCorpus *c, const PlProbeBatch *r, size_t at, Line what, const PlReportOpts *o) {
    static const char *const label[] = {"  words ", "  ids   ", "  mask  ", "  labels"};
    const PlBatch *b = r->batch;
    OutRow row;
    out_row_init(&row);
    for (int t = 0; t < b->T; t++) {
        size_t i = at + t;
        if (what == LINE_WORDS) out_row_cell(&row, "%s", b->mask[i] ? pl_corpus_word(c, b->ids[i]) : "_");
        else if (what == LINE_IDS) out_row_cell(&row, "%d", b->ids[i]);
        else if (what == LINE_LABELS) out_row_cell(&row, "%d", r->labels[i]);
        else if (r->conv == PL_MASK_ADDITIVE) out_row_cell(&row, "%s", r->additive[i] == 0.0f ? "0" : "-inf");
        else out_row_cell(&row, "%d", r->conv_mask[i]);
    }
    int left_out = out_row_print(&row, f, label[what], pl_report_columns(o));
    out_row_done(&row);
    return left_out < 0 ? -1 : 0;
}

PlStatus pl_report_batch_text(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                              const PlReportOpts *o) {
    const PlProbeBatch *r = result;
    const PlBatch *b = r->batch;
    const PlLabSettings *s = &info->settings;
    const PlLedger *l = o->ledger;
    pl_report_header(f, PL_R_BATCH, c, info, o);
    fputs("a batch of ", f), pl_fig_fprintf(f, l, "batch.rows", "%d", b->B);
    fprintf(f, " row%s, width ", b->B == 1 ? "" : "s"), pl_fig_fprintf(f, l, "batch.width", "%d", b->T);
    fprintf(f, " (padding %s, truncating %s); mask convention %s: %s\n\n", pl_side_name((PlSide)s->padding),
            pl_side_name((PlSide)s->truncating), pl_mask_conv_name(r->conv), conv_meaning(r->conv));
    for (int i = 0; i < b->B; i++) {
        size_t at = (size_t)i * b->T;
        if (r->pick.packed)
            fprintf(f, "row %d: %d reviews packed end to end, %d tokens of %d kept\n", i, r->pick.B, b->len[i],
                    b->orig_len[i]);
        else {
            int mine = b->row[i] == info->rows[0];
            fprintf(f, "row %d: example %d, label %d, ", i, b->row[i], b->labels[i]);
            pl_fig_fprintf(f, l, mine ? "batch.example_tokens" : "", "%d", b->orig_len[i]);
            fputs(" tokens, ", f), pl_fig_fprintf(f, l, mine ? "batch.example_kept" : "", "%d", b->len[i]);
            fprintf(f, " kept%s\n", mine ? " (the example)" : "");
        }
        for (int line = LINE_WORDS; line <= LINE_LABELS; line++)
            if (print_line(f, c, r, at, (Line)line, o)) return PL_ENOMEM;
        fputc('\n', f);
    }
    fputs("real tokens ", f), pl_fig_fprintf(f, l, "batch.real_tokens", "%ld", r->real_tokens);
    fputs("; positions the mask marks real ", f), pl_fig_fprintf(f, l, "batch.real_tokens", "%ld", r->mask_real);
    fprintf(f, " (cells holding %s: ", r->conv == PL_MASK_ADDITIVE ? "0" : "1");
    pl_fig_fprintf(f, l, "batch.real_tokens", "%ld", r->mask_ones);
    fputs("); label positions that count ", f), pl_fig_fprintf(f, l, "batch.real_tokens", "%ld", r->label_positions);
    fputc('\n', f);
    if (r->agree) fprintf(f, "the three counts agree\n");
    else fprintf(f, "the counts disagree: the %s count is off\n", r->disagrees);
    return pl_report_status(f);
}
