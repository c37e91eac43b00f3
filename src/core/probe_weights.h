/* What the probes share (private to src/core): the weights they run with,
 * fresh or a given model's, and the check that a given model reads the
 * corpus's ids. */
#ifndef PL_PROBE_WEIGHTS_H
#define PL_PROBE_WEIGHTS_H

#include "corpus.h"
#include "err.h"
#include "model.h"

/* PL_OK when a model of vocab ids reads every id the corpus keeps; else
 * PL_ERANGE, naming the --num-words that would fit. */
PlStatus pl_probe_check_vocab(int vocab, const PlCorpus *c, PlErr *err);

/* A fresh Keras-initialised model of arch over the corpus's ids, from seed. */
PlStatus pl_probe_fresh_model(PlArch arch, const PlCorpus *c, PlSeed seed, PlModel **out, PlErr *err);

/* An attention model's own weights, or a fresh Keras-initialised attention
 * model's, with the embedding of the given model when there is one. The
 * pointers are borrowed from `own` or from the given model. */
typedef struct {
    PlModel *own;                         /* the fresh model; freed by pl_attn_weights_done */
    const float *emb, *wq, *wk, *wv, *wo; /* (V,E), (E,HD) x 3, (HD,E) */
    int V, E, NH, D;
} PlAttnWeights;

/* heads x dhead for the fresh attention (an attention model keeps its own).
 * PL_ERANGE when the model knows fewer ids than the corpus keeps. */
PlStatus pl_attn_weights_init(PlAttnWeights *w, const PlCorpus *c, const PlModel *model, int heads, int dhead,
                              PlSeed seed, PlErr *err);
void pl_attn_weights_done(PlAttnWeights *w);

#endif
