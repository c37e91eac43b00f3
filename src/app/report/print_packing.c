/* The packing result: a batch's documents in one row as a flattening
 * collator lays them out, the pads that saves, and what the row needs
 * besides its tokens (the document mask, positions restarting, -100 at each
 * document's first label). */
#include "report.h"

/* Document 0 is the lab's example: its tokens, before and after the cut,
 * are the batch view's figures of it, and so is its end in cu_seqlens. */
static const char *example_q(int d, const char *name) { return d == 0 ? name : ""; }

/* cu (n entries) as a JSON array, the example's end marked as its kept tokens. */
static void json_cu(JsonW *w, const char *key, const int *cu, int n) {
    json_arr(w, key);
    for (int i = 0; i < n; i++) json_fig_int(w, NULL, example_q(i - 1, "batch.example_kept"), cu[i]);
    json_close(w, ']');
}

PlStatus pl_report_packing_json(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                                const PlReportOpts *o) {
    const PlProbePacking *r = result;
    JsonW w;
    json_begin(&w, f);
    w.ledger = o->ledger;
    json_obj(&w, "summary");
    json_fig_int(&w, "D", "packing.documents", r->D);
    json_fig_int(&w, "N", "packing.tokens", r->N);
    json_fig_int(&w, "read_back_documents", "packing.read_back", r->n_read);
    json_bool(&w, "cu_seqlens_match", r->cu_match);
    json_fig_int(&w, "counted_read_back_documents", "packing.counted_read_back", r->counted_read);
    /* the row's share of attention on earlier documents under a plain causal mask: the figure outside checks read */
    json_fig(&w, "cross_doc_share", "packing.cross_share", (double)r->cross_row);
    json_obj(&w, "cells");
    json_int(&w, "maxlen", r->maxlen);
    json_fig_int(&w, "longest", "packing.longest", r->longest);
    json_fig_int(&w, "packed", "packing.tokens", r->packed_cells);
    json_fig_int(&w, "dynamic", "packing.dynamic_cells", r->dynamic_cells);
    json_fig_int(&w, "static", "packing.static_cells", r->static_cells);
    json_fig_int(&w, "dynamic_saved", "packing.dynamic_saved", r->dynamic_saved);
    json_fig_int(&w, "static_saved", "packing.static_saved", r->static_saved);
    json_fig(&w, "dynamic_saved_share", "packing.dynamic_saved_share", r->dynamic_saved_share);
    json_fig(&w, "static_saved_share", "packing.static_saved_share", r->static_saved_share);
    json_close(&w, '}');
    json_obj(&w, "attention");
    json_int(&w, "heads", PL_PACKING_HEADS);
    json_int(&w, "dhead", PL_PACKING_DHEAD);
    json_int(&w, "width", PL_PACKING_WIDTH);
    json_fig(&w, "document_mask_max_diff", "packing.document_mask", (double)r->aware_max_diff);
    json_fig(&w, "causal_mask_max_diff", "packing.causal_mask", (double)r->causal_max_diff);
    json_fig(&w, "causal_cross_share", "packing.cross_share", (double)r->cross_row);
    json_fig(&w, "counted_positions_max_diff", "packing.counted_positions", (double)r->counted_max_diff);
    json_close(&w, '}');
    json_obj(&w, "loss");
    json_fig_int(&w, "terms", "packing.loss_terms", r->loss_terms);
    json_fig_int(&w, "terms_without_separator", "packing.unmasked_terms", r->loss_terms_unmasked);
    json_fig_int(&w, "boundary_terms", "packing.boundary_terms", r->boundary_terms);
    json_fig(&w, "boundary_share", "packing.boundary_share", r->boundary_share);
    json_close(&w, '}');
    json_close(&w, '}');
    json_arr(&w, "documents");
    for (int d = 0; d < r->D; d++) {
        json_obj(&w, NULL);
        json_int(&w, "example", r->example[d]);
        json_fig_int(&w, "length", example_q(d, "batch.example_kept"), r->len[d]);
        json_fig_int(&w, "whole", example_q(d, "batch.example_tokens"), pl_corpus_len(c, r->example[d]));
        json_fig(&w, "causal_cross_share", "packing.cross_share", (double)r->cross[d]);
        json_close(&w, '}');
    }
    json_close(&w, ']');
    pl_report_json_ints(&w, "input_ids", r->ids, r->N);
    pl_report_json_ints(&w, "position_ids", r->position_ids, r->N);
    pl_report_json_ints(&w, "seq_idx", r->seq_idx, r->N);
    pl_report_json_ints(&w, "labels", r->labels, r->N);
    json_cu(&w, "cu_seqlens", r->cu_seqlens, r->D + 1);
    json_cu(&w, "cu_seqlens_read_back", r->cu_read, r->n_read + 1);
    return pl_report_json_end(&w, PL_R_PACKING, c, info, o);
}

static void print_cu(FILE *f, const PlLedger *l, const int *cu, int n) {
    for (int i = 0; i < n; i++)
        fputc(' ', f), pl_fig_fprintf(f, l, example_q(i - 1, "batch.example_kept"), "%d", cu[i]);
}

static void print_share(FILE *f, const PlLedger *l, const char *name, double v) {
    pl_fig_fprintf(f, l, name, "%.1f%%", 100.0 * v);
}

PlStatus pl_report_packing_text(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                                const PlReportOpts *o) {
    const PlProbePacking *r = result;
    const PlLedger *l = o->ledger;
    pl_report_header(f, PL_R_PACKING, c, info, o);
    fputs("padding-free packing, as transformers' DataCollatorWithFlattening lays out a batch:\n", f);
    pl_fig_fprintf(f, l, "packing.documents", "%d", r->D);
    fprintf(f, " document%s, ", r->D == 1 ? "" : "s");
    pl_fig_fprintf(f, l, "packing.tokens", "%d", r->N);
    fprintf(f, " tokens in one row with no pad (each cut to maxlen %d)\n", r->maxlen);
    for (int d = 0; d < r->D; d++) {
        int whole = pl_corpus_len(c, r->example[d]);
        fprintf(f, "  document %d: review %d, ", d, r->example[d]);
        pl_fig_fprintf(f, l, example_q(d, "batch.example_kept"), "%d", r->len[d]);
        fprintf(f, " token%s", r->len[d] == 1 ? "" : "s");
        if (whole > r->len[d])
            fputs(" (cut from ", f), pl_fig_fprintf(f, l, example_q(d, "batch.example_tokens"), "%d", whole),
                fputc(')', f);
        fputs(", at ", f), pl_fig_fprintf(f, l, example_q(d - 1, "batch.example_kept"), "%d", r->cu_seqlens[d]);
        fputc('\n', f);
    }
    if (pl_report_int_row(f, "  input_ids    ", r->ids, r->N, o) ||
        pl_report_int_row(f, "  position_ids ", r->position_ids, r->N, o) ||
        pl_report_int_row(f, "  seq_idx      ", r->seq_idx, r->N, o) ||
        pl_report_int_row(f, "  labels       ", r->labels, r->N, o))
        return PL_ENOMEM;

    fputs("\ncu_seqlens, the true boundaries:               ", f);
    print_cu(f, l, r->cu_seqlens, r->D + 1);
    fputs("\nread back from the position ids:", f);
    print_cu(f, l, r->cu_read, r->n_read + 1);
    /* worded alike for any count: a singular would tell a hidden count of 1 */
    fputs(r->cu_match ? " (the same; documents: " : " (not the same; documents: ", f);
    pl_fig_fprintf(f, l, "packing.read_back", "%d", r->n_read);
    fputs(")\ndocuments read back from position ids counted along the row (0..N-1): ", f);
    pl_fig_fprintf(f, l, "packing.counted_read_back", "%d", r->counted_read);
    fputc('\n', f);

    fprintf(f, "\ncells in a batch of the %d document%s:\n  packed           ", r->D, r->D == 1 ? "" : "s");
    pl_fig_fprintf(f, l, "packing.tokens", "%6ld", r->packed_cells);
    fputs("\n  dynamic padding  ", f);
    pl_fig_fprintf(f, l, "packing.dynamic_cells", "%6ld", r->dynamic_cells);
    fprintf(f, "  (%d x the longest, ", r->D);
    pl_fig_fprintf(f, l, "packing.longest", "%d", r->longest);
    fputs("): packing saves ", f);
    pl_fig_fprintf(f, l, "packing.dynamic_saved", "%ld", r->dynamic_saved);
    fputs(" pad cells, ", f);
    print_share(f, l, "packing.dynamic_saved_share", r->dynamic_saved_share);
    fputs("\n  static padding   ", f);
    pl_fig_fprintf(f, l, "packing.static_cells", "%6ld", r->static_cells);
    fprintf(f, "  (%d x maxlen %d): packing saves ", r->D, r->maxlen);
    pl_fig_fprintf(f, l, "packing.static_saved", "%ld", r->static_saved);
    fputs(", ", f);
    print_share(f, l, "packing.static_saved_share", r->static_saved_share);

    fprintf(f,
            "\n\na causal attention layer (%d heads of %d) over the row, against each document run alone\n"
            "(the largest difference of its outputs):\n",
            PL_PACKING_HEADS, PL_PACKING_DHEAD);
    fputs("  (a) document mask, position ids restarting      ", f);
    pl_fig_fprintf(f, l, "packing.document_mask", "%.3g", (double)r->aware_max_diff);
    fputs("\n  (b) causal mask over the row, ids restarting    ", f);
    pl_fig_fprintf(f, l, "packing.causal_mask", "%.3g", (double)r->causal_max_diff);
    fputs("\n      weight on earlier documents' keys: ", f);
    print_share(f, l, "packing.cross_share", (double)r->cross_row);
    fputs(" of the row's; per document", f);
    for (int d = 0; d < r->D; d++) fputc(' ', f), print_share(f, l, "packing.cross_share", (double)r->cross[d]);
    fputs("\n  (c) document mask, position ids 0..N-1          ", f);
    pl_fig_fprintf(f, l, "packing.counted_positions", "%.3g", (double)r->counted_max_diff);

    fputs("\n\nloss terms (a causal LM predicts the label at i from the token at i - 1):\n"
          "  with -100 at each document's first token: ",
          f);
    pl_fig_fprintf(f, l, "packing.loss_terms", "%ld", r->loss_terms);
    fputs(" terms\n  without it: ", f);
    pl_fig_fprintf(f, l, "packing.unmasked_terms", "%ld", r->loss_terms_unmasked);
    fputs(", of which ", f);
    pl_fig_fprintf(f, l, "packing.boundary_terms", "%ld", r->boundary_terms);
    fputs(" predict a document's first token from the previous document's last (", f);
    print_share(f, l, "packing.boundary_share", r->boundary_share);
    fputs(")\n", f);
    return pl_report_status(f);
}
