/* The attention map as both front ends draw it: head 0's weights of the
 * example, in nq x nk blocks of queries and keys (1 x 1 when each query and
 * key has its own cell), read from the attention probe's result.
 *
 * Blocks are equal: each holds qper queries (kper keys) but the last, which
 * holds what is left, so block j starts at j x qper (j x kper).
 *
 * A cell holds log2 of its weight relative to uniform: a query that sees n
 * keys (its visible count) gives each 1/n when its scores are equal, so
 * weight x n is 1 for an even spread, above 1 where it peaks. A block's
 * value is the mean of weight x n over its queries and their visible keys
 * in the block, so a block of keys counts as one key of the block's mean
 * weight. Keys the mask hides (the -inf bias) take no part; a block whose
 * keys are all hidden from its queries holds NaN.
 *
 * Layout:
 *   rel        (nq, nk)  log2(weight x visible), NaN where every key is hidden
 *   pad_keys   (nk)      pad keys in each key block
 *   pad_queries(nq)      pad queries in each query block
 *   share      (nq)      the mean pad share (the probe's leak, head 0) of the
 *                        block's real queries; NaN when it holds none */
#ifndef PL_APP_LAB_ATTMAP_H
#define PL_APP_LAB_ATTMAP_H

#include "core/probe.h"

/* The colour scale runs from 2^-SPAN to 2^SPAN times uniform (1/16 to 16). */
#define PL_ATTMAP_SPAN 4

typedef struct {
    int T, nq, nk;
    int qper, kper; /* queries (keys) in a block: the last may hold fewer */
    float *rel;
    int *pad_keys, *pad_queries;
    float *share;
} PlAttMap;

/* The first query (key) of block j: j x per, at most T. */
static inline int pl_attmap_first(int T, int per, int j) { return j * per < T ? j * per : T; }

/* Fills m from a's head 0 in at most max_q x max_k blocks (each clamped to
 * 1..T): per = ceil(T / max) to a block, ceil(T / per) blocks. Returns
 * PL_ENOMEM when out of memory (m then holds nothing). */
PlStatus pl_attmap_make(PlAttMap *m, const PlProbeAttention *a, int max_q, int max_k);
void pl_attmap_free(PlAttMap *m); /* harmless on a zeroed or freed map */

/* Query q's weight on key k relative to uniform (weight x visible, not
 * logged); 0 where the key is hidden or the query sees none. */
double pl_attmap_rel_cell(const PlProbeAttention *a, int q, int k);

#endif
