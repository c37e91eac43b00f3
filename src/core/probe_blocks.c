/* The blocks probe: every mask rule asked cell by cell, then reduced per
 * tile of block x block, as a block-sparse attention kernel sees a mask.
 *
 * Layout: the batch is (B,T) batch-major; a row's tiles are (nb,nb), query
 * block first; a rule's per-row counts are (B,3): empty, partial, full.
 * Cells past T (the rounding up to Tp) are never kept, as FlexAttention pads
 * the dense mask with False before it reduces it, so a tile that reaches
 * past T is at most partial. */
#include <stdlib.h>
#include <string.h>

#include "probe.h"

int pl_blocks_block_ok(int block) {
    return block >= PL_BLOCKS_MIN_BLOCK && block <= PL_BLOCKS_MAX_BLOCK && (block & (block - 1)) == 0;
}

void pl_probe_blocks_free(PlProbeBlocks *r) {
    if (!r) return;
    for (int k = 0; k < PL_RULE_COUNT; k++) free(r->rules[k].row), free(r->rules[k].map);
    free(r->len);
    memset(r, 0, sizeof *r);
}

/* Counts rule k over every tile of the batch into r->rules[k]. */
static void count_rule(PlProbeBlocks *r, int k, const PlRuleCtx *ctx) {
    PlBlockCount *out = &r->rules[k];
    long whole = (long)r->block * r->block;
    for (int b = 0; b < r->B; b++)
        for (int qb = 0; qb < r->nb; qb++)
            for (int kb = 0; kb < r->nb; kb++) {
                long kept;
                PlTile tile = pl_mask_rule_tile(pl_mask_rules[k].keep, ctx, b, qb, kb, r->block, &kept);
                out->kept_cells += kept;
                out->row[(size_t)b * 3 + tile]++;
                if (out->map && b == r->map_row) out->map[(size_t)qb * r->nb + kb] = (uint8_t)tile;
            }
    for (int b = 0; b < r->B; b++) {
        out->empty += out->row[(size_t)b * 3 + PL_TILE_EMPTY];
        out->partial += out->row[(size_t)b * 3 + PL_TILE_PARTIAL];
        out->full += out->row[(size_t)b * 3 + PL_TILE_FULL];
    }
    out->computed_cells = (int64_t)(out->partial + out->full) * whole;
    out->kept_share = (double)out->kept_cells / (double)r->dense_cells;
    out->computed_share = (double)out->computed_cells / (double)r->dense_cells;
}

/* The sizes that follow from B, T and the block. */
static void shapes(PlProbeBlocks *r) {
    int64_t B = r->B, T = r->T, nb;
    r->Tp = (r->T + r->block - 1) / r->block * r->block;
    r->nb = r->Tp / r->block;
    nb = r->nb;
    r->tiles = B * nb * nb;
    r->dense_cells = B * T * T;
    r->dense_bool_bytes = r->dense_cells;
    r->dense_float_bytes = 4 * r->dense_cells;
    /* (kv_num_blocks (B,1,nb) + kv_indices (B,1,nb,nb)) x 4 bytes, and the full_ pair */
    r->block_mask_forward_bytes = 2 * 4 * (B * nb + B * nb * nb);
    r->block_mask_bytes = 2 * r->block_mask_forward_bytes; /* q_ pairs: (B,1,nb) and (B,1,nb,nb) again */
}

PlStatus pl_probe_blocks(const PlCorpus *c, const PlProbeOpts *o, int block, int window, PlProbeBlocks *r, PlErr *err) {
    memset(r, 0, sizeof *r);
    if (!pl_blocks_block_ok(block))
        return pl_err_set(err, PL_ERANGE, "the block must be a power of two from %d to %d, not %d", PL_BLOCKS_MIN_BLOCK,
                          PL_BLOCKS_MAX_BLOCK, block);
    if (window < 1 || window > PL_BLOCKS_MAX_WINDOW)
        return pl_err_set(err, PL_ERANGE, "the window must be from 1 to %d, not %d", PL_BLOCKS_MAX_WINDOW, window);
    PlBatchPick pick;
    PlBatch *batch = NULL;
    int *doc = NULL;
    PlRuleCtx ctx = {.window = window};
    PlStatus st = pl_probe_pick(c, o, &pick, err);
    if (st) return st;
    st = pl_probe_batch_make(c, o, &batch, err);
    if (st) goto fail;
    r->B = batch->B, r->T = batch->T, r->block = block, r->window = window;
    r->packed = pick.packed && o->width <= 0;
    r->ndocs = r->packed ? pick.B : r->B;
    r->map_row = r->packed || o->width > 0 ? 0 : pick.at;
    shapes(r);
    doc = calloc((size_t)r->B * r->T, sizeof *doc);
    r->len = malloc((size_t)r->ndocs * sizeof *r->len);
    if (!doc || !r->len) goto nomem;
    for (int i = 0; i < r->ndocs; i++)
        r->len[i] = r->packed ? pick.cu_seqlens[i + 1] - pick.cu_seqlens[i] : batch->len[i];
    for (int d = 0; r->packed && d < pick.B; d++)
        for (int t = pick.cu_seqlens[d]; t < pick.cu_seqlens[d + 1] && t < r->T; t++) doc[t] = d;
    for (int k = 0; k < PL_RULE_COUNT; k++) {
        r->rules[k].row = calloc((size_t)r->B * 3, sizeof *r->rules[k].row);
        if (!r->rules[k].row) goto nomem;
        if (r->nb <= PL_BLOCKS_MAP_MAX && !(r->rules[k].map = calloc((size_t)r->nb * r->nb, 1))) goto nomem;
    }
    ctx.T = r->T, ctx.real = batch->mask, ctx.doc = doc;
    for (int k = 0; k < PL_RULE_COUNT; k++) count_rule(r, k, &ctx);
    free(doc);
    pl_batch_free(batch);
    pl_probe_pick_free(&pick);
    return PL_OK;
nomem:
    st = pl_err_set(err, PL_ENOMEM, "out of memory for the blocks probe");
fail:
    free(doc);
    pl_batch_free(batch);
    pl_probe_pick_free(&pick);
    pl_probe_blocks_free(r);
    return st;
}
