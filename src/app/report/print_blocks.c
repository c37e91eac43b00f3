/* The blocks result: each mask rule counted per tile as a block-sparse
 * kernel (FlexAttention's BlockMask, FlashAttention's varlen) sees it, the
 * bytes of a dense mask against a block mask, and a map of the example's
 * tiles per rule. */
#include "report.h"

#include <math.h>
#include <string.h>

/* The map's glyphs, by tile: ASCII, so that a pipe or a projector shows them. */
static const char tile_glyph[3] = {'.', '+', '#'};

/* A rule's quantity: blocks.WHAT(RULE). */
static const char *rule_q(char *buf, size_t cap, const char *what, int k) {
    snprintf(buf, cap, "blocks.%s(%s)", what, pl_mask_rules[k].name);
    return buf;
}

/* Whether rule k's tiles are hidden: its counts over the batch or the
 * example row's, which its map and its rows draw. */
static int map_hidden(const PlLedger *l, int k) {
    static const char *const what[] = {"empty", "partial", "full", "example_empty", "example_partial", "example_full"};
    char q[96];
    for (size_t i = 0; i < sizeof what / sizeof what[0]; i++)
        if (pl_ledger_hides_name(l, rule_q(q, sizeof q, what[i], k))) return 1;
    return 0;
}

PlStatus pl_report_blocks_json(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                               const PlReportOpts *o) {
    const PlProbeBlocks *r = result;
    JsonW w;
    char q[96];
    json_begin(&w, f);
    w.ledger = o->ledger;
    json_obj(&w, "summary");
    json_fig_int(&w, "block", "blocks.block", r->block);
    json_fig_int(&w, "padded_width", "blocks.padded_width", r->Tp);
    json_fig_int(&w, "blocks_per_side", "blocks.per_side", r->nb);
    json_fig_int(&w, "tiles", "blocks.tiles", r->tiles);
    json_fig_int(&w, "dense_bool_bytes", "blocks.dense_bool_bytes", r->dense_bool_bytes);
    json_fig_int(&w, "dense_float_bytes", "blocks.dense_float_bytes", r->dense_float_bytes);
    json_fig_int(&w, "block_mask_forward_bytes", "blocks.block_mask_forward_bytes", r->block_mask_forward_bytes);
    json_fig_int(&w, "block_mask_bytes", "blocks.block_mask_bytes", r->block_mask_bytes);
    json_obj(&w, "rules");
    for (int k = 0; k < PL_RULE_COUNT; k++) {
        const PlBlockCount *n = &r->rules[k];
        json_obj(&w, pl_mask_rules[k].name);
        json_fig_int(&w, "empty", rule_q(q, sizeof q, "empty", k), n->empty);
        json_fig_int(&w, "partial", rule_q(q, sizeof q, "partial", k), n->partial);
        json_fig_int(&w, "full", rule_q(q, sizeof q, "full", k), n->full);
        json_fig(&w, "kept_share", rule_q(q, sizeof q, "kept_share", k), n->kept_share);
        json_fig(&w, "computed_share", rule_q(q, sizeof q, "computed_share", k), n->computed_share);
        json_close(&w, '}');
    }
    json_close(&w, '}');
    json_close(&w, '}');
    json_int(&w, "B", r->B);
    json_int(&w, "T", r->T);
    json_fig_int(&w, "window", "blocks.window", r->window);
    json_bool(&w, "packed", r->packed);
    json_int(&w, "documents", r->ndocs);
    json_arr(&w, "lengths");
    for (int i = 0; i < r->ndocs; i++) json_int(&w, NULL, r->len[i]);
    json_close(&w, ']');
    json_fig_int(&w, "dense_cells", "blocks.dense_bool_bytes", r->dense_cells); /* a bool a cell */
    json_int(&w, "map_row", r->map_row);
    json_arr(&w, "rules");
    for (int k = 0; k < PL_RULE_COUNT; k++) {
        const PlBlockCount *n = &r->rules[k];
        json_obj(&w, NULL);
        json_str(&w, "name", pl_mask_rules[k].name);
        json_str(&w, "meaning", pl_mask_rules[k].meaning);
        char kept[224]; /* the share's count, and (padded, the document rule keeps every cell) the dense mask's */
        snprintf(kept, sizeof kept, "%s,blocks.kept_cells(%s)", rule_q(q, sizeof q, "kept_share", k),
                 pl_mask_rules[k].name);
        json_fig_int(&w, "kept_cells", kept, n->kept_cells);
        json_fig_int(&w, "computed_cells", rule_q(q, sizeof q, "computed_share", k), n->computed_cells);
        json_arr(&w, "rows"); /* each row's [empty, partial, full]: the rule's counts, added up */
        static const char *const what[3] = {"empty", "partial", "full"};
        for (int b = 0; b < r->B; b++) {
            json_arr(&w, NULL);
            for (int t = 0; t < 3; t++)
                json_fig_int(&w, NULL, rule_q(q, sizeof q, what[t], k), n->row[(size_t)b * 3 + t]);
            json_close(&w, ']');
        }
        json_close(&w, ']');
        if (n->map && map_hidden(o->ledger, k)) {
            json_num(&w, "map", (double)NAN); /* null: the tiles count what a question asks */
        } else if (n->map) {
            char line[PL_BLOCKS_MAP_MAX + 1];
            json_arr(&w, "map");
            for (int qb = 0; qb < r->nb; qb++) {
                for (int kb = 0; kb < r->nb; kb++) line[kb] = tile_glyph[n->map[(size_t)qb * r->nb + kb]];
                line[r->nb] = '\0';
                json_str(&w, NULL, line);
            }
            json_close(&w, ']');
        } else {
            json_num(&w, "map", (double)NAN); /* null: too many tiles to keep */
        }
        json_close(&w, '}');
    }
    json_close(&w, ']');
    return pl_report_json_end(&w, PL_R_BLOCKS, c, info, o);
}

/* The counts of every rule over the batch, and their shares of the dense cells. */
static PlStatus counts_table(FILE *f, const PlProbeBlocks *r, const PlLedger *l) {
    static const char *const head[] = {"rule", "empty", "partial", "full", "kept", "computed", "example row e/p/f"};
    OutTable t;
    char q[96], v[96], q2[96], q3[96];
    out_table_init(&t, 7, head);
    for (int k = 0; k < PL_RULE_COUNT; k++) {
        const PlBlockCount *n = &r->rules[k];
        const int *row = n->row + (size_t)r->map_row * 3;
        out_table_cell(&t, "%s", pl_mask_rules[k].name);
        out_table_cell(&t, "%s", pl_fig_drawn(v, sizeof v, l, rule_q(q, sizeof q, "empty", k), "%ld", n->empty));
        out_table_cell(&t, "%s", pl_fig_drawn(v, sizeof v, l, rule_q(q, sizeof q, "partial", k), "%ld", n->partial));
        out_table_cell(&t, "%s", pl_fig_drawn(v, sizeof v, l, rule_q(q, sizeof q, "full", k), "%ld", n->full));
        out_table_cell(
            &t, "%s",
            pl_fig_drawn(v, sizeof v, l, rule_q(q, sizeof q, "kept_share", k), "%.1f%%", 100.0 * n->kept_share));
        out_table_cell(&t, "%s",
                       pl_fig_drawn(v, sizeof v, l, rule_q(q, sizeof q, "computed_share", k), "%.1f%%",
                                    100.0 * n->computed_share));
        rule_q(q, sizeof q, "example_empty", k), rule_q(q2, sizeof q2, "example_partial", k);
        rule_q(q3, sizeof q3, "example_full", k);
        char e[64], p[64], u[64];
        out_table_cell(&t, "%s/%s/%s", pl_fig_drawn(e, sizeof e, l, q, "%d", row[0]),
                       pl_fig_drawn(p, sizeof p, l, q2, "%d", row[1]), pl_fig_drawn(u, sizeof u, l, q3, "%d", row[2]));
    }
    int bad = out_table_print(&t, f, OUT_TABLE, 2);
    out_table_done(&t);
    return bad ? PL_ENOMEM : PL_OK;
}

/* Which rules let a kernel skip tiles, and which do not, in two sentences;
 * while a rule's tile counts are hidden, one sentence whatever they are. */
static void skips(FILE *f, const PlProbeBlocks *r, const PlLedger *l) {
    int some = 0, none = 0, hidden = 0;
    for (int k = 0; k < PL_RULE_COUNT; k++) hidden |= map_hidden(l, k);
    if (hidden) {
        fputs("which rules let a fused kernel skip whole tiles: hidden until you answer\n", f);
        if (r->Tp > r->T)
            fprintf(f,
                    "the tiles reach past T = %d to %d, and a kernel computes every cell of the tiles it visits,\n"
                    "the padded ones too\n",
                    r->T, r->Tp);
        return;
    }
    for (int k = 0; k < PL_RULE_COUNT; k++) some += r->rules[k].empty > 0, none += r->rules[k].empty == 0;
    if (some) {
        fputs("a fused kernel skips whole tiles for:", f);
        for (int k = 0, i = 0; k < PL_RULE_COUNT; k++)
            if (r->rules[k].empty > 0) fprintf(f, "%s %s", i++ ? "," : "", pl_mask_rules[k].name);
        fputc('\n', f);
    }
    if (none) {
        fputs("it skips nothing for:", f);
        for (int k = 0, i = 0; k < PL_RULE_COUNT; k++)
            if (r->rules[k].empty == 0) fprintf(f, "%s %s", i++ ? "," : "", pl_mask_rules[k].name);
        fputs(" (every tile holds a kept cell: the mask is applied, not skipped)\n", f);
    }
    for (int k = 0; k < PL_RULE_COUNT; k++)
        if (r->rules[k].computed_share > 1.0) {
            fprintf(f,
                    "computed passes 100%%: the tiles reach past T = %d to %d, and a kernel computes every cell of\n"
                    "the tiles it visits, the padded ones too\n",
                    r->T, r->Tp);
            break;
        }
    if (r->nb == 1)
        fprintf(f,
                "at one block per side each row is a single tile: padding alone skips nothing unless a row has no\n"
                "real token at all; --block %d or smaller shows the structure inside\n",
                r->block / 2 >= PL_BLOCKS_MIN_BLOCK ? r->block / 2 : PL_BLOCKS_MIN_BLOCK);
}

/* The example row's tiles per rule, side by side as the width allows; a
 * rule whose counts are hidden draws ? for every tile. */
static void maps(FILE *f, const PlProbeBlocks *r, int columns, const PlLedger *l) {
    if (!r->rules[0].map) {
        fprintf(f, "\n(%d tiles per side are too many to draw; a larger --block draws the map)\n", r->nb);
        return;
    }
    fprintf(f, "\ntiles of row %d%s, query blocks down, key blocks across (. empty, + partial, # full):\n", r->map_row,
            r->packed ? " (the packed row)" : " (the example's)");
    int colw[PL_RULE_COUNT], width = columns > 0 ? columns : 100;
    for (int k = 0; k < PL_RULE_COUNT; k++) {
        int name = (int)strlen(pl_mask_rules[k].name);
        colw[k] = (name > r->nb ? name : r->nb) + 2;
    }
    for (int k0 = 0; k0 < PL_RULE_COUNT;) {
        int k1 = k0, used = 2;
        while (k1 < PL_RULE_COUNT && (k1 == k0 || used + colw[k1] <= width)) used += colw[k1++];
        fputs("\n  ", f);
        for (int k = k0; k < k1; k++) fprintf(f, "%-*s", k + 1 < k1 ? colw[k] : 0, pl_mask_rules[k].name);
        fputc('\n', f);
        for (int qb = 0; qb < r->nb; qb++) {
            fputs("  ", f);
            for (int k = k0; k < k1; k++) {
                for (int kb = 0; kb < r->nb; kb++)
                    fputc(map_hidden(l, k) ? '?' : tile_glyph[r->rules[k].map[(size_t)qb * r->nb + kb]], f);
                if (k + 1 < k1) fprintf(f, "%*s", colw[k] - r->nb, "");
            }
            fputc('\n', f);
        }
        k0 = k1;
    }
}

PlStatus pl_report_blocks_text(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                               const PlReportOpts *o) {
    const PlProbeBlocks *r = result;
    const PlLedger *l = o->ledger;
    pl_report_header(f, PL_R_BLOCKS, c, info, o);
    fprintf(f, "%d row%s x %d cells; tiles of ", r->B, r->B == 1 ? "" : "s", r->T);
    pl_fig_fprintf(f, l, "blocks.block", "%d", r->block);
    fputs(" x the same, the width padded to ", f);
    pl_fig_fprintf(f, l, "blocks.padded_width", "%d", r->Tp);
    fputs(" = ", f), pl_fig_fprintf(f, l, "blocks.per_side", "%d", r->nb);
    fputs(" per side: ", f), pl_fig_fprintf(f, l, "blocks.tiles", "%lld", (long long)r->tiles);
    fprintf(f, " tiles%s\n", r->packed ? "" : " over the batch");
    if (r->packed) fprintf(f, "one packed row of %d documents (cu_seqlens), no pads\n", r->ndocs);
    fputs("sliding window W = ", f), pl_fig_fprintf(f, l, "blocks.window", "%d", r->window);
    fputs("\n\nempty tiles are skipped whole, full ones computed with no mask, partial ones with the rule\n"
          "applied inside; kept and computed are shares of the dense B x T x T score cells:\n\n",
          f);
    if (counts_table(f, r, l)) return PL_ENOMEM;
    fputc('\n', f);
    skips(f, r, l);
    fputs("\nmemory for this batch, one head (no rule here reads the head):\n  dense (B,1,T,T) mask, bool          ",
          f);
    pl_fig_fprintf(f, l, "blocks.dense_bool_bytes", "%lld", (long long)r->dense_bool_bytes);
    fputs(" bytes\n  dense additive bias, float32        ", f);
    pl_fig_fprintf(f, l, "blocks.dense_float_bytes", "%lld", (long long)r->dense_float_bytes);
    fputs(" bytes\n  BlockMask kv_* and full_kv_*, int32 ", f);
    pl_fig_fprintf(f, l, "blocks.block_mask_forward_bytes", "%lld", (long long)r->block_mask_forward_bytes);
    fputs(" bytes (what the forward pass reads)\n  with the q_* pairs for backward     ", f);
    pl_fig_fprintf(f, l, "blocks.block_mask_bytes", "%lld", (long long)r->block_mask_bytes);
    fputs(" bytes\n", f);
    maps(f, r, pl_report_columns(o), l);
    return pl_report_status(f);
}
