/* The kvcache result: the prompts' cache after the steps, slot by slot, its
 * pads and bytes, a static cache's, and each way of decoding against every
 * prompt decoded alone. */
#include "report.h"

static const char *const way_names[PL_KV_WAYS] = {
    [PL_KV_LEFT] = "left padding, mask, positions from the mask",
    [PL_KV_LEFT_SLOTS] = "left padding, mask, positions counted by slot",
    [PL_KV_LEFT_NO_MASK] = "left padding, no mask",
    [PL_KV_RIGHT] = "right padding, mask, positions from the mask",
};
static const char *const way_keys[PL_KV_WAYS] = {"left", "slot_positions", "no_mask", "right"};
static const char *const way_diff[PL_KV_WAYS] = {"kvcache.left", "kvcache.slot_positions", "kvcache.no_mask",
                                                 "kvcache.right"};
static const char *const way_tokens[PL_KV_WAYS] = {"kvcache.left_tokens", "kvcache.slot_positions_tokens",
                                                   "kvcache.no_mask_tokens", "kvcache.right_tokens"};

static void json_cache(JsonW *w, const PlProbeKvcache *r) {
    json_obj(w, "cache");
    json_fig_int(w, "slots", "kvcache.slots", (int64_t)r->B * r->slots);
    json_fig_int(w, "pad_slots", "kvcache.pad_slots", r->pad_slots);
    json_fig(w, "pad_share", "kvcache.pad_share", (double)r->pad_slots / ((double)r->B * r->slots));
    json_fig_int(w, "bytes_per_slot", "kvcache.slot_bytes", r->bytes_per_slot);
    json_fig_int(w, "pad_bytes", "kvcache.pad_bytes", r->pad_slots * r->bytes_per_slot);
    json_fig(w, "cache_vs_recompute_max_diff", "kvcache.recompute", (double)r->cache_vs_recompute_max_diff);
    json_close(w, '}');
    json_obj(w, "static_cache");
    json_fig_int(w, "slots_per_row", "kvcache.static_len", r->static_len);
    json_fig_int(w, "pad_slots", "kvcache.static_pad_slots", r->static_pad_slots);
    json_fig(w, "pad_share", "kvcache.static_pad_share", (double)r->static_pad_slots / ((double)r->B * r->static_len));
    json_close(w, '}');
    json_arr(w, "steps");
    for (int s = 0; s < r->S; s++) {
        json_obj(w, NULL);
        json_int(w, "step", s + 1);
        json_fig_int(w, "scores", "kvcache.slots", r->cells[s]); /* every slot so far */
        json_fig_int(w, "scores_on_pads", "kvcache.pad_slots", r->pad_cells[s]);
        json_close(w, '}');
    }
    json_close(w, ']');
}

PlStatus pl_report_kvcache_json(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                                const PlReportOpts *o) {
    const PlProbeKvcache *r = result;
    JsonW w;
    json_begin(&w, f);
    w.ledger = o->ledger;
    json_obj(&w, "summary");
    for (int k = 0; k < PL_KV_WAYS; k++) {
        json_obj(&w, way_keys[k]);
        json_fig(&w, "max_diff", way_diff[k], (double)r->way[k].max_diff);
        json_fig_int(&w, "tokens_differ", way_tokens[k], r->way[k].tokens_differ);
        json_int(&w, "first_step", r->way[k].first_step);
        json_close(&w, '}');
    }
    json_cache(&w, r);
    /* the two an outside check reads: each row's next-token logits against its
     * prompt decoded alone, left padded with positions from the mask, and right padded */
    json_fig(&w, "left_max_diff", way_diff[PL_KV_LEFT], (double)r->way[PL_KV_LEFT].max_diff);
    json_fig(&w, "right_max_diff", way_diff[PL_KV_RIGHT], (double)r->way[PL_KV_RIGHT].max_diff);
    json_close(&w, '}');
    json_fig_int(&w, "B", "kvcache.prompts", r->B);
    json_fig_int(&w, "T", "kvcache.width", r->T);
    json_fig_int(&w, "steps", "kvcache.steps", r->S);
    json_arr(&w, "prompts");
    for (int b = 0; b < r->B; b++) {
        json_obj(&w, NULL);
        json_int(&w, "example", b < info->nrows ? info->rows[b] : -1);
        json_fig_int(&w, "length", b == 0 ? "kvcache.example_kept" : "", r->len[b]);
        json_close(&w, '}');
    }
    json_close(&w, ']');
    pl_report_json_int_matrix(&w, "ids", r->ids, r->B, r->slots);
    pl_report_json_byte_matrix(&w, "attention_mask", r->mask, r->B, r->slots);
    pl_report_json_int_matrix(&w, "position_ids", r->position_ids, r->B, r->slots);
    pl_report_json_int_matrix(&w, "cache_position", r->cache_position, 1, r->slots);
    pl_report_json_byte_matrix(&w, "slot_kind", r->kind, r->B, r->slots);
    pl_report_json_int_matrix(&w, "alone_tokens", r->alone, r->B, r->reads);
    return pl_report_json_end(&w, PL_R_KVCACHE, c, info, o);
}

static char kind_glyph(uint8_t k) { return k == PL_KV_PAD ? '.' : k == PL_KV_PROMPT ? 'p' : '+'; }

/* A row's slots: one character each (. pad, p prompt, + a token picked)
 * with the mask under them when they fit in columns, else as runs. */
static void print_kinds(FILE *f, const uint8_t *kind, const uint8_t *mask, int n, int columns) {
    fputs("    slots     ", f);
    if (columns <= 0 || n + 14 <= columns) {
        for (int t = 0; t < n; t++) fputc(kind_glyph(kind[t]), f);
        fputs("\n    mask      ", f);
        for (int t = 0; t < n; t++) fputc('0' + mask[t], f);
        fputc('\n', f);
        return;
    }
    for (int t = 0, start = 0; t < n; t++)
        if (t == n - 1 || kind[t + 1] != kind[t]) {
            fprintf(f, "%s%d x %c (mask %d)", start ? ", " : "", t + 1 - start, kind_glyph(kind[t]), mask[t]);
            start = t + 1;
        }
    fputc('\n', f);
}

static PlStatus print_prompts(FILE *f, const PlCorpus *c, const PlProbeKvcache *r, const PlResultInfo *info,
                              const PlReportOpts *o) {
    for (int b = 0; b < r->B; b++) {
        size_t at = (size_t)b * r->slots;
        pl_report_prompt_line(f, c, info, o, "kvcache", b, r->len[b], r->T);
        print_kinds(f, r->kind + at, r->mask + at, r->slots, pl_report_columns(o));
        if (pl_report_int_row(f, "    ids       ", r->ids + at, r->slots, o) ||
            pl_report_int_row(f, "    positions ", r->position_ids + at, r->slots, o))
            return PL_ENOMEM;
    }
    return pl_report_int_row(f, "  cache_position", r->cache_position, r->slots, o) ? PL_ENOMEM : PL_OK;
}

static void print_cache(FILE *f, const PlProbeKvcache *r, const PlLedger *l) {
    fprintf(f, "\nthe cache after %d steps: %d rows x ", r->S, r->B);
    pl_fig_fprintf(f, l, "kvcache.slots", "%d", r->slots), fputs(" slots, ", f); /* a row's: its width and the steps */
    pl_fig_fprintf(f, l, "kvcache.slot_bytes", "%d", r->bytes_per_slot);
    fprintf(f, " bytes a slot (a key and a value: %d layer%s, %d heads of %d, float32)\n  pads hold ", r->layers,
            r->layers == 1 ? "" : "s", r->heads, r->dhead);
    pl_fig_fprintf(f, l, "kvcache.pad_slots", "%lld", (long long)r->pad_slots);
    fputs(" of ", f), pl_fig_fprintf(f, l, "kvcache.slots", "%lld", (long long)r->B * r->slots), fputs(" slots (", f);
    pl_fig_fprintf(f, l, "kvcache.pad_share", "%.1f%%", 100.0 * (double)r->pad_slots / ((double)r->B * r->slots));
    fputs("), ", f);
    pl_fig_fprintf(f, l, "kvcache.pad_bytes", "%lld", (long long)(r->pad_slots * r->bytes_per_slot));
    fputs(" bytes kept for keys and values no query reads\n  a static cache of ", f);
    pl_fig_fprintf(f, l, "kvcache.static_len", "%d", r->static_len);
    fputs(" slots a row: ", f);
    pl_fig_fprintf(f, l, "kvcache.static_pad_slots", "%lld", (long long)r->static_pad_slots);
    fprintf(f, " of %lld hold no real token (", (long long)r->B * r->static_len);
    pl_fig_fprintf(f, l, "kvcache.static_pad_share", "%.1f%%",
                   100.0 * (double)r->static_pad_slots / ((double)r->B * r->static_len));
    fputs(
        ")\nscores a dense kernel computes per head at a step (the mask hides pads, it does not skip them):\n  step 1: ",
        f);
    /* a step scores each pad slot once: its pad scores are the pad slots' count; every slot so far, the
     * cache's slots but the steps to come */
    pl_fig_fprintf(f, l, "kvcache.slots", "%lld", (long long)r->cells[0]), fputs(", ", f);
    pl_fig_fprintf(f, l, "kvcache.pad_slots", "%lld", (long long)r->pad_cells[0]);
    fputs(" on pad slots (", f);
    pl_fig_fprintf(f, l, "kvcache.first_step_pad_share", "%.1f%%",
                   100.0 * (double)r->pad_cells[0] / (double)r->cells[0]);
    fprintf(f, "); step %d: ", r->S), pl_fig_fprintf(f, l, "kvcache.slots", "%lld", (long long)r->cells[r->S - 1]);
    fputs(", ", f);
    pl_fig_fprintf(f, l, "kvcache.pad_slots", "%lld", (long long)r->pad_cells[r->S - 1]);
    fputs(" (", f);
    pl_fig_fprintf(f, l, "kvcache.last_step_pad_share", "%.1f%%",
                   100.0 * (double)r->pad_cells[r->S - 1] / (double)r->cells[r->S - 1]);
    fputs(")\nthe cache against recomputing the whole sequence at every step: largest difference ", f);
    pl_fig_fprintf(f, l, "kvcache.recompute", "%.3g", (double)r->cache_vs_recompute_max_diff);
    fputc('\n', f);
}

PlStatus pl_report_kvcache_text(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                                const PlReportOpts *o) {
    const PlProbeKvcache *r = result;
    const PlLedger *l = o->ledger;
    pl_report_header(f, PL_R_KVCACHE, c, info, o);
    pl_fig_fprintf(f, l, "kvcache.prompts", "%d", r->B), fprintf(f, " prompt%s, lengths", r->B == 1 ? "" : "s");
    for (int b = 0; b < r->B; b++) fputc(' ', f), pl_fig_fprintf(f, l, b == 0 ? "kvcache.example_kept" : "", "%d", r->len[b]);
    fputs(", left-padded to ", f), pl_fig_fprintf(f, l, "kvcache.width", "%d", r->T), fputs(", then ", f);
    pl_fig_fprintf(f, l, "kvcache.steps", "%d", r->S);
    fputs(" steps, each one token a row (. pad, p prompt, + picked)\n\n", f);
    PlStatus st = print_prompts(f, c, r, info, o);
    if (st) return st;
    print_cache(f, r, l);
    fprintf(f, "\nnext-token logits against each prompt decoded alone, over %d reads a row:\n", r->reads);
    fprintf(f, "  %-46s %-12s %s\n", "", "largest diff", "tokens that differ");
    for (int k = 0; k < PL_KV_WAYS; k++) {
        fprintf(f, "  %-46s ", way_names[k]);
        pl_fig_fprintf(f, l, way_diff[k], "%-12.3g", (double)r->way[k].max_diff);
        fputc(' ', f);
        pl_fig_fprintf(f, l, way_tokens[k], "%d", r->way[k].tokens_differ);
        fprintf(f, " of %d", r->B * r->reads);
        if (r->way[k].first_step >= 0) fprintf(f, ", from step %d", r->way[k].first_step);
        fputc('\n', f);
    }
    return pl_report_status(f);
}
