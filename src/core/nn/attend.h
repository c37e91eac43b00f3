/* Self-attention one query at a time, for the probes.
 *
 * pl_attention_forward keeps every weight, (B,NH,T,T), because training
 * reads them back. A probe reports far less: one row's weights, a sum or two
 * per query, the outputs at a few positions. pl_attend computes the same
 * attention query by query, with each query's weights in a row of scratch
 * that is used and dropped, and leaves out what nothing reads:
 *   - masked keys: a key the mask hides gets weight exactly 0 in
 *     pl_attention_forward, so it is skipped, not multiplied by zero;
 *   - queries nobody asked for (a query mask);
 *   - repeated queries: without positions a query's output depends only on
 *     its token and on the keys it may see, so a query whose input equals an
 *     earlier one of its row (pads, repeated words) copies that one's results
 *     (not under causal, where every query sees a different set of keys).
 * What it computes is pl_attention_forward's arithmetic up to float rounding
 * (a vectorised exp good to 2 ulp, sums taken 16 lanes at a time); the
 * copies are exact.
 *
 * Layout as pl_attention_forward's: x, y (T,B,E) and q, k, v, o (T,B,NH*D)
 * time-major, head h of cell (t,b) at (t*B + b)*NH*D + h*D; masks, query
 * selections and ids batch-major (B,T). */
#ifndef PL_NN_ATTEND_H
#define PL_NN_ATTEND_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    int T, B, NH, D;
    int causal;
    const uint8_t *mask;  /* (B,T) 1 = a key that may be attended, or NULL: every key */
    const uint8_t *query; /* (B,T) 1 = compute this query, or NULL: every query */
    const int *same;      /* (B,T) or NULL: same[b*T+i] <= i, an earlier query of row b whose input equals query
                             i's (pl_attend_same_ids), or i itself; ignored under causal */
    const uint8_t *sel;   /* (B,T) or NULL: the keys whose weight wsel sums (say, the pads) */
    int keep_row;         /* the batch row whose weights go to keep (when keep is given) */
    int lanes;            /* 0: the widest vectors this CPU has; 4, 8 or 16 (pl_attend_lanes_ok): that width */
} PlAttend;

/* Whether this CPU runs pl_attend at lanes floats per vector (4: every
 * x86-64, SSE2; 8: AVX2 with FMA; 16: AVX-512). */
int pl_attend_lanes_ok(int lanes);

typedef struct {
    long nan;   /* NaN among the weights of the computed queries (masked keys weigh 0, never NaN) */
    long empty; /* computed queries (of any row and head) whose weights are all zero: they see no key */
} PlAttendCounts;

/* Bytes of scratch pl_attend needs for shape a. */
size_t pl_attend_scratch(const PlAttend *a);

/* o (T,B,NH*D): each computed query's weighted sum of v; the rows of the
 * queries not computed are left as they are.
 * keep (NH,T,T) or NULL: the weights of batch row a->keep_row, query by key,
 * 0 at masked keys (rows of queries not computed are left as they are).
 * wsum, wsel (B,NH,T) or NULL: per computed query, its weights summed, and
 * summed over the keys a->sel marks. The two sums are taken in the same
 * order, so wsel == wsum exactly when every key the query sees is marked,
 * and wsel == 0 when none is.
 * counts, when not NULL, gets the counts added to it.
 * scratch: pl_attend_scratch(a) bytes, any alignment.
 * q, k, v (T,B,NH*D) as pl_attention_forward computes them. A query at a pad
 * is computed like any other (the mask hides keys, not queries). A width the
 * CPU lacks runs at the widest it has. Can't fail. */
void pl_attend(float *o, float *keep, float *wsum, float *wsel, PlAttendCounts *counts, void *scratch, const float *q,
               const float *k, const float *v, const PlAttend *a);

/* same (B,T) for pl_attend from token ids (B,T): each query's first earlier
 * query of its row with the same id among those query (B,T, or NULL: all)
 * selects. Valid when a query's input is a function of its token alone (an
 * embedding with no positions). scratch: T int64. */
void pl_attend_same_ids(int *same, const int32_t *ids, const uint8_t *query, int B, int T, int64_t *scratch);

/* ---- a whole layer, with its buffers ----
 * The buffers one probe reuses from run to run; they grow as needed.
 * pl_attend_bufs_done frees them (a zeroed struct is an empty one). */
typedef struct {
    float *x, *q, *k, *v, *o, *y; /* x, y (T,B,E); q, k, v, o (T,B,NH*D) */
    int *same;                    /* (B,T) */
    int64_t *ids_scratch;         /* (T) */
    void *scratch;
    size_t cells, cells_e, cells_hd, scratch_bytes;
} PlAttendBufs;

void pl_attend_bufs_done(PlAttendBufs *w);

/* Makes room for a (T,B) batch at width E and heads NH x D. Returns 0, or
 * -1 when out of memory (the buffers held stay valid). */
int pl_attend_bufs_reserve(PlAttendBufs *w, int T, int B, int E, int NH, int D);

/* The layer: w->q, k, v = w->x Wq, Wk, Wv; pl_attend (with a->same from
 * ids when ids is not NULL and a->causal is 0, replacing a->same); w->y =
 * o Wo, where the o rows of queries not computed are zero. The caller fills
 * w->x (T,B,E) first, after pl_attend_bufs_reserve. Weights as
 * pl_attention_forward's: Wq, Wk, Wv (E,NH*D), Wo (NH*D,E). */
void pl_attend_layer(PlAttendBufs *w, float *keep, float *wsum, float *wsel, PlAttendCounts *counts, const int32_t *ids,
                     const float *Wq, const float *Wk, const float *Wv, const float *Wo, int E, const PlAttend *a);

#endif
