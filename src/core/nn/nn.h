/* padlab's layers: each a forward/backward pair over plain float arrays.
 *
 * Conventions (after llm.c): outputs first, then caches, then inputs, then
 * weights, then sizes. Sequence tensors are time-major, (T,B,C): step t of
 * row b is at (t*B + b)*C, so one step of a batch is one contiguous block.
 * Token ids and masks come as the batch stores them, batch-major (B,T); a
 * mask is 1 at a real token and 0 at a pad. Backward passes ADD into weight
 * gradients (+=); the caller zeroes them. Input gradients are overwritten
 * unless a comment says otherwise. Kernel shapes follow Keras: a Dense kernel
 * is (in, out), a recurrent kernel (H, gates*H). */
#ifndef PL_NN_H
#define PL_NN_H

#include <stdint.h>

/* ---- embedding ---------------------------------------------------------- */
/* out (T,B,E) = W[ids[b,t]]; ids (B,T). Pads (id 0) look up row 0 like any id. */
void pl_embedding_forward(float *out, const int32_t *ids, const float *W, int B, int T, int E);
/* dW (V,E) += dout (T,B,E) scattered by ids. With skip_id0, row 0 gets nothing
 * (a frozen pad row). */
void pl_embedding_backward(float *dW, const float *dout, const int32_t *ids, int B, int T, int E, int skip_id0);

/* ---- dense -------------------------------------------------------------- */
/* out (N,O) = x (N,I) W (I,O) + b (O). */
void pl_dense_forward(float *out, const float *x, const float *W, const float *b, int N, int I, int O);
/* dx (N,I) = dout W^T (dx may be NULL); dW += x^T dout; db += sum of dout rows. */
void pl_dense_backward(float *dx, float *dW, float *db, const float *dout, const float *x, const float *W, int N, int I,
                       int O);

/* ---- recurrent layers ----------------------------------------------------
 * x (T,B,E); the state after step t of row b is h[(t*B+b)*H].
 * mask (T,B) time-major, or NULL: with a mask, a step whose mask is 0 carries
 * the state (and the LSTM cell) over unchanged, in both passes (Keras).
 * nact (T), or NULL: at step t only rows 0..nact[t]-1 run; the others hold
 * zeros (this is how a packed, length-sorted batch skips its pads).
 * Backward: dh (T,B,H) holds the gradient of the loss w.r.t. every h_t that
 * was used downstream, and is consumed (overwritten as the pass runs). */

/* SimpleRNN: h_t = tanh(x_t Wx + h_{t-1} Wh + b). */
void pl_rnn_forward(float *h, const float *x, const uint8_t *mask, const int *nact, const float *Wx, const float *Wh,
                    const float *b, int T, int B, int E, int H);
/* da (T,B,H) scratch; dx (T,B,E) may be NULL. Every backward through a
 * recurrence takes ut, (H,G) floats of scratch, G the gates' width: the
 * recurrent weights transposed, written there (a backward allocates
 * nothing, so it has no other way to run and no other bits). */
void pl_rnn_backward(float *dx, float *dWx, float *dWh, float *db, float *dh, float *da, const float *h, const float *x,
                     const uint8_t *mask, const int *nact, const float *Wx, const float *Wh, int T, int B, int E, int H,
                     float *ut);

/* GRU, Keras layout with reset_after: gates [z r h], b (2,3H) = input bias
 * then recurrent bias. z = sig(.), r = sig(.), n = tanh(xWh + r*(hUh + bh)),
 * h_t = z*h_{t-1} + (1-z)*n. g (T,B,3H) caches z, r, n; hu ((T+3)*B*H
 * floats) caches h_{t-1} Un + b_rn (T,B,H), the part of h_{t-1} U + b_rec
 * the backward reads, then is one step's scratch for all of it (B,3H). */
void pl_gru_forward(float *h, float *g, float *hu, const float *x, const uint8_t *mask, const int *nact,
                    const float *Wx, const float *U, const float *b, int T, int B, int E, int H);
/* da (T,B,3H) and dhu (B,3H) scratch (one step's dhu, reused, so it stays in cache). */
void pl_gru_backward(float *dx, float *dWx, float *dU, float *db, float *dh, float *da, float *dhu, const float *h,
                     const float *g, const float *hu, const float *x, const uint8_t *mask, const int *nact,
                     const float *Wx, const float *U, int T, int B, int E, int H, float *ut);

/* LSTM, Keras layout: gates [i f c o], b (4H). c_t = f*c_{t-1} + i*tanh(.),
 * h_t = o*tanh(c_t). g (T,B,4H) caches the activated gates, c (T,B,H) the
 * cell. */
void pl_lstm_forward(float *h, float *c, float *g, const float *x, const uint8_t *mask, const int *nact,
                     const float *Wx, const float *U, const float *b, int T, int B, int E, int H);
/* da (T,B,4H) scratch; dc (B,H) scratch. */
void pl_lstm_backward(float *dx, float *dWx, float *dU, float *db, float *dh, float *da, float *dc, const float *h,
                      const float *c, const float *g, const float *x, const uint8_t *mask, const int *nact,
                      const float *Wx, const float *U, int T, int B, int E, int H, float *ut);

/* The same layers split at the input projection: a scan takes the projected
 * input x Wx + b (the GRU: x Wx + b_in) in h (SimpleRNN) or g (GRU, LSTM)
 * and runs the recurrence in place; a scan backward leaves the gradient of
 * that projection in da and adds only the recurrent weights' gradients. The
 * models use these with a projection fused into the embedding.
 *
 * in, when not NULL, gives the projected input as rows of a table instead:
 * each step reads its rows where they lie (the table of a batch's distinct
 * ids is a third of the (T,B,G) block a copy would write and read back). */
typedef struct {
    const float *rows; /* (any, G) */
    const int *idx;    /* (T,B) step t, row r reads rows + idx[t*B + r] * G */
} PlScanIn;
void pl_rnn_scan(float *h, const PlScanIn *in, const uint8_t *mask, const int *nact, const float *Wh, int T, int B,
                 int H);
void pl_rnn_scan_backward(float *dWh, float *dh, float *da, const float *h, const uint8_t *mask, const int *nact,
                          const float *Wh, int T, int B, int H, float *ut);
void pl_gru_scan(float *h, float *g, float *hu, const PlScanIn *in, const uint8_t *mask, const int *nact,
                 const float *U, const float *brec, int T, int B, int H);
void pl_gru_scan_backward(float *dU, float *dbrec, float *dh, float *da, float *dhu, const float *h, const float *g,
                          const float *hu, const uint8_t *mask, const int *nact, const float *U, int T, int B, int H,
                          float *ut);
void pl_lstm_scan(float *h, float *c, float *g, const PlScanIn *in, const uint8_t *mask, const int *nact,
                  const float *U, int T, int B, int H);
void pl_lstm_scan_backward(float *dU, float *dh, float *da, float *dc, const float *h, const float *c, const float *g,
                           const uint8_t *mask, const int *nact, const float *U, int T, int B, int H, float *ut);

/* The embedding and a recurrent layer's input projection fused: each distinct
 * id of the batch is looked up and projected once.
 *   forward:  out (T,B,G) = W[ids[b,t]] Wx + b        (ids (B,T), W (V,E), Wx (E,G))
 *   backward: db += sum of da rows; dWx += W[u]^T S_u; dW[u] += S_u Wx^T, where
 *             S_u sums the rows of da (T,B,G) whose id is u.
 * The table keeps the batch's distinct ids between the two passes. */
typedef struct {
    int V, cap;  /* vocabulary; capacity of the per-id arrays */
    int U;       /* distinct ids of the last forward */
    int *slot;   /* (V) position of an id in uniq, or -1 */
    int *uniq;   /* (cap) */
    float *rows; /* (cap, E) the embedding rows of uniq */
    float *acc;  /* (cap, G) projected rows, then summed gradients */
    int *cell;   /* (cell_cap) the slot of each cell's id, (T,B) */
    size_t cell_cap;
} PlIdTable;

int pl_idtable_init(PlIdTable *t, int V);
void pl_idtable_done(PlIdTable *t);
/* t->cell says which projected row each cell reads (with t->acc, a
 * PlScanIn, valid until the backward reuses acc); out NULL: no copy into out.
 * Returns -1 when the table cannot grow (or an id is outside 0..V-1). The
 * backward reads the cells' ids from the table. */
int pl_embed_project_forward(float *out, PlIdTable *t, const int32_t *ids, const float *W, const float *Wx,
                             const float *b, int B, int T, int E, int G);
void pl_embed_project_backward(float *dW, float *dWx, float *db, PlIdTable *t, const float *da, const float *Wx, int B,
                               int T, int E, int G, int skip_id0);

/* ---- packing (PyTorch pack_padded_sequence) -------------------------------
 * Rows sorted by real length, longest first (stable); packed step k of
 * sorted row i is that row's k-th real token. */
typedef struct {
    int B, T, K; /* K = the longest real length */
    int *perm;   /* (B) sorted row i is batch row perm[i] */
    int *len;    /* (B) real tokens of sorted row i */
    int *pos;    /* (B*T) time of the k-th real token of sorted row i, at i*T + k */
    int *nact;   /* (T) rows with more than k real tokens; K entries used */
} PlPack;

/* Builds the packing of a (B,T) mask. Returns -1 on allocation failure. */
int pl_pack_init(PlPack *p, const uint8_t *mask, int B, int T);
void pl_pack_done(PlPack *p);
/* xp (K,B,C) = x (T,B,C) gathered; inactive cells are 0. */
void pl_pack_gather(float *xp, const float *x, const PlPack *p, int C);
/* x (T,B,C) = xp scattered back; pad cells are 0. */
void pl_pack_scatter(float *x, const float *xp, const PlPack *p, int C);

/* ---- pooling over time ---------------------------------------------------- */
typedef enum {
    PL_POOL_UNMASKED, /* every position, pads included, divided by T */
    PL_POOL_MASKED,   /* real positions only, divided by the real count (Keras) */
    PL_POOL_DIV_T     /* real positions only, but divided by T: the wrong denominator */
} PlPoolMask;

/* out (B,C) = mean over t of x (T,B,C) under the mask mode; mask (B,T). */
void pl_avgpool_forward(float *out, const float *x, const uint8_t *mask, PlPoolMask mode, int T, int B, int C);
void pl_avgpool_backward(float *dx, const float *dout, const uint8_t *mask, PlPoolMask mode, int T, int B, int C);
/* out (B,C) = max over t (real positions only unless mode is UNMASKED);
 * arg (B,C) records the winning t. DIV_T is treated as MASKED. */
void pl_maxpool_forward(float *out, int *arg, const float *x, const uint8_t *mask, PlPoolMask mode, int T, int B,
                        int C);
void pl_maxpool_backward(float *dx, const float *dout, const int *arg, int T, int B, int C);

/* The embedding lookup and average pooling fused: out (B,C) = the pooled
 * mean of W[ids[b,t]] (ids and mask (B,T)), without materialising the
 * (T,B,C) embeddings; backward adds each row's share straight into dW. */
void pl_embed_avgpool_forward(float *out, const int32_t *ids, const uint8_t *mask, PlPoolMask mode, const float *W,
                              int B, int T, int C);
void pl_embed_avgpool_backward(float *dW, const float *dout, const int32_t *ids, const uint8_t *mask, PlPoolMask mode,
                               int B, int T, int C, int skip_id0);

/* ---- conv1d (no mask, on purpose: it reads pads like tokens) --------------
 * out (T-K+1,B,O) = sum over k of x[t+k] (T,B,I) W[k] (K,I,O) + b (O): Keras
 * 'valid' padding. */
void pl_conv1d_forward(float *out, const float *x, const float *W, const float *b, int T, int B, int I, int O, int K);
void pl_conv1d_backward(float *dx, float *dW, float *db, const float *dout, const float *x, const float *W, int T,
                        int B, int I, int O, int K);

/* ---- flatten: x (T,B,C) -> out (B, T*C), Keras order (t major within a row) */
void pl_flatten_forward(float *out, const float *x, int T, int B, int C);
void pl_flatten_backward(float *dx, const float *dout, int T, int B, int C);

/* ---- scaled dot-product self-attention -------------------------------------
 * x (T,B,E); Wq, Wk, Wv (E, NH*D); Wo (NH*D, E); out (T,B,E).
 * Key j of row b is hidden from query i when mask[b,j] is 0 (key padding,
 * if mask is not NULL) or when j > i (causal). A query that can see no key
 * at all gets a zero row of weights and a zero output, as varlen kernels do.
 * Caches: q, k, v, o (T,B,NH*D); p (B,NH,T,T) the softmax weights. */
typedef struct {
    int T, B, E, NH, D;
    int causal;
    const uint8_t *mask; /* (B,T) or NULL */
} PlAttnShape;

/* Softmax of each row of S (T,T) over its allowed keys, in place: the keys
 * the mask row m (T, 1 = may be attended, or NULL: all) keeps and, under
 * causal, those up to the query. A hidden key gets exactly 0; a row that can
 * see no key gets all zeros (never NaN). The layer's own softmax, and the
 * expected weights of the masked-softmax kata. */
void pl_attention_softmax(float *S, const uint8_t *m, int causal, int T);

void pl_attention_forward(float *out, float *q, float *k, float *v, float *p, float *o, const float *x, const float *Wq,
                          const float *Wk, const float *Wv, const float *Wo, const PlAttnShape *s);
/* scratch: (T,B,NH*D) * 4 floats plus (T*T) floats. */
void pl_attention_backward(float *dx, float *dWq, float *dWk, float *dWv, float *dWo, float *scratch, const float *dout,
                           const float *q, const float *k, const float *v, const float *p, const float *o,
                           const float *x, const float *Wq, const float *Wk, const float *Wv, const float *Wo,
                           const PlAttnShape *s);
/* The number of scratch floats pl_attention_backward needs. */
long pl_attention_scratch(const PlAttnShape *s);

#endif
