/* The small seeded decoder the generate and kvcache probes read next tokens
 * with: token and position embeddings added, one causal self-attention layer
 * (PL_DEC_HEADS heads of PL_DEC_D, no residual), a dense head of PL_DEC_C
 * classes. Class k stands for the token PL_FIRST_WORD_ID + k mod (V - 3),
 * so that what it picks can be fed back as a word of the corpus.
 *
 * Weights (drawn uniformly from the seed, in this order): tok (V,E), pos
 * (P,E), Wq, Wk, Wv (E,NH*D), Wo (NH*D,E), head (E,C). */
#ifndef PL_PROBE_DECODER_H
#define PL_PROBE_DECODER_H

#include <stdint.h>

#include "nn/attend.h"
#include "rng.h"

#define PL_DEC_E 32
#define PL_DEC_HEADS 2
#define PL_DEC_D 16
#define PL_DEC_C 64

typedef struct {
    int V, P; /* token ids, positions */
    float *tok, *pos, *wq, *wk, *wv, *wo, *head;
} PlDecoder;

/* Draws the weights for V token ids and P positions from seed. Returns 0,
 * or -1 when out of memory (what was drawn is freed by pl_decoder_free). */
int pl_decoder_init(PlDecoder *d, int V, int P, PlSeed seed);
void pl_decoder_free(PlDecoder *d);

/* The token id class k stands for. */
int32_t pl_decoder_token(const PlDecoder *d, int k);

/* Next-token logits (B,C) read at column col[k][b] of a (B,T) batch with
 * position ids pos (B,T) and key mask (B,T), for each of the ncol column
 * sets, into logits[k]; a column outside 0..T-1 reads zeros. The whole
 * sequence is recomputed (no cache). u holds the buffers. Returns -1 when
 * out of memory. */
int pl_decoder_read(const PlDecoder *d, PlAttendBufs *u, const int32_t *ids, const uint8_t *mask, const int *pos,
                    const int *const *col, int ncol, int B, int T, float *const *logits);

#endif
