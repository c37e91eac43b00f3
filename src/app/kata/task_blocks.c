/* The block_mask kata: a mask rule judged per tile of block x block, as a
 * block-sparse kernel (FlexAttention's BlockMask) sees it. The verdict on
 * each tile is the core's (pl_mask_rule_tile, the blocks probe's own).
 *
 * Layout: tiles (B,nb,nb), query block first, 0 empty, 1 partial, 2 full;
 * kv_num_blocks and full_kv_num_blocks (B,nb), per query block, as
 * create_block_mask counts them. nb = ceil(T / block). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mask.h"
#include "core/mask_rules.h"
#include "task_impl.h"

typedef struct {
    const char *what;
    int batch; /* the batch case of batch.h the rows come from */
    PlRuleId rule;
    int block;
    int packed; /* the rows' real tokens as documents of one row */
} BlockCase;

static const BlockCase block_cases[] = {
    {"causal+padding, right padding, block 4", 0, PL_RULE_CAUSAL_PADDING, 4, 0},
    {"causal+padding, left padding, block 4", 1, PL_RULE_CAUSAL_PADDING, 4, 0},
    {"padding, an empty row, T a multiple of the block", 2, PL_RULE_PADDING, 4, 0},
    {"padding, no pad in any row, block 2", 4, PL_RULE_PADDING, 2, 0},
    {"causal, no pad, block 2", 4, PL_RULE_CAUSAL, 2, 0},
    {"causal+document, packed documents, block 4", 0, PL_RULE_CAUSAL_DOCUMENT, 4, 1},
    {"document, packed with an empty document", 2, PL_RULE_DOCUMENT, 4, 1},
    {"causal+padding, a block wider than the row", 6, PL_RULE_CAUSAL_PADDING, 16, 0},
};

/* The case's (B,T) padding mask and document ids into kc->in[0..1]: the
 * batch as it is, or its rows' real tokens packed into one row. */
static PlStatus rows_input(PlKCase *kc, const PlKBatch *b, int packed) {
    int cu[17], B = packed ? 1 : b->B, T = b->T;
    if (packed) pl_cu_seqlens(cu, b->len, b->B), T = cu[b->B];
    PlStatus st = pl_karray_make(&kc->in[0], "attention_mask", PL_KT_INT, 2, (int[]){B, T});
    if (!st) st = pl_karray_make(&kc->in[1], "document_ids", PL_KT_INT, 2, (int[]){B, T});
    for (int i = 0; !st && i < B * T; i++) {
        kc->in[0].v[i] = packed ? 1 : b->mask[i];
        int d = 0;
        while (packed && d + 1 < b->B && cu[d + 1] <= i) d++;
        kc->in[1].v[i] = d; /* a padded row is one document, its pads included */
    }
    return st;
}

static PlStatus make_blocks(PlKCase *kc, int k, const PlCorpus *c) {
    const BlockCase *q = &block_cases[k];
    PlKBatch b;
    PlStatus st = pl_kbatch_make(&b, kc, q->batch, c);
    if (st) return st;
    snprintf(kc->what, sizeof kc->what, "%s", q->what);
    st = rows_input(kc, &b, q->packed);
    pl_kbatch_done(&b);
    int B = st ? 0 : kc->in[0].shape[0], T = st ? 0 : kc->in[0].shape[1], nb = (T + q->block - 1) / q->block;
    pl_karray_text(&kc->in[2], "rule", pl_mask_rules[q->rule].name);
    if (!st) st = pl_karray_scalar(&kc->in[3], "block", PL_KT_INT, q->block);
    kc->nin = 4, kc->nout = 3;
    if (!st) st = pl_karray_make(&kc->out[0], "tiles", PL_KT_INT, 3, (int[]){B, nb, nb});
    if (!st) st = pl_karray_make(&kc->out[1], "kv_num_blocks", PL_KT_INT, 2, (int[]){B, nb});
    if (!st) st = pl_karray_make(&kc->out[2], "full_kv_num_blocks", PL_KT_INT, 2, (int[]){B, nb});
    uint8_t *real = st ? NULL : malloc((size_t)B * T + 1);
    int *doc = st ? NULL : malloc(((size_t)B * T + 1) * sizeof *doc);
    if (!st && (!real || !doc)) st = PL_ENOMEM;
    for (int i = 0; !st && i < B * T; i++) real[i] = kc->in[0].v[i] != 0.0, doc[i] = (int)kc->in[1].v[i];
    PlRuleCtx ctx = {.T = T, .real = real, .doc = doc};
    for (int r = 0; !st && r < B; r++)
        for (int qb = 0; qb < nb; qb++)
            for (int kb = 0; kb < nb; kb++) {
                PlTile t = pl_mask_rule_tile(pl_mask_rules[q->rule].keep, &ctx, r, qb, kb, q->block, NULL);
                kc->out[0].v[((size_t)r * nb + qb) * nb + kb] = t;
                kc->out[1].v[(size_t)r * nb + qb] += t == PL_TILE_PARTIAL;
                kc->out[2].v[(size_t)r * nb + qb] += t == PL_TILE_FULL;
            }
    free(real), free(doc);
    return st;
}

static void why_blocks(char *buf, size_t cap, const PlKCase *kc, int o, const int *idx, double got) {
    (void)got;
    int block = (int)kc->in[3].v[0], T = kc->in[0].shape[1];
    if (o == 0) {
        int q1 = (idx[1] + 1) * block, k1 = (idx[2] + 1) * block;
        snprintf(buf, cap,
                 "tile (%d, %d) covers queries %d..%d and keys %d..%d under rule %s: empty when no cell is kept, "
                 "full when all %d x %d are (cells past T = %d count as not kept), partial otherwise",
                 idx[1], idx[2], idx[1] * block, q1 - 1, idx[2] * block, k1 - 1, kc->in[2].text, block, block, T);
    } else
        snprintf(buf, cap, "%s counts query block %d's %s tiles in row %d (the %s ones have their own count)",
                 o == 1 ? "kv_num_blocks" : "full_kv_num_blocks", idx[1], o == 1 ? "partial" : "full", idx[0],
                 o == 1 ? "full" : "partial");
}

const PlKTask pl_ktask_blocks = {"block_mask",
                                 {{"attention_mask", PL_KT_INT, "B,T", "row,token"},
                                  {"document_ids", PL_KT_INT, "B,T", "row,token"},
                                  {"rule", PL_KT_TEXT, "", ""},
                                  {"block", PL_KT_INT, "", ""}},
                                 {{"tiles", PL_KT_INT, "B,nb,nb", "row,query block,key block"},
                                  {"kv_num_blocks", PL_KT_INT, "B,nb", "row,query block"},
                                  {"full_kv_num_blocks", PL_KT_INT, "B,nb", "row,query block"}},
                                 4,
                                 3,
                                 (int)(sizeof block_cases / sizeof block_cases[0]),
                                 make_blocks,
                                 why_blocks};
