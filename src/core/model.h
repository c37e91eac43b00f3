/* Classifier models assembled from the layers: a padded batch of token ids
 * in, one logit per row out.
 *
 *   rnn/gru/lstm   Embedding(V,E) -> recurrent(H) -> readout -> Dense(1)
 *   avgpool        Embedding(V,E) -> global average pooling -> Dense(1)
 *   maxpool        Embedding(V,E) -> global max pooling -> Dense(1)
 *   attention      Embedding(V,E) -> self-attention(heads) -> mean -> Dense(1)
 *
 * Each kind is one row of a table in model.c: its layers and its parameter
 * blocks with their shapes. Parameters, gradients and the Adam moments each
 * live in one allocation, carved into the blocks by that table; activations
 * are sized for the largest batch seen so far.
 *
 * Gradients follow nn.h: pl_model_backward adds into them, and
 * pl_model_zero_grad zeroes them. pl_model_update consumes them: they are
 * zero after it, and a zero_grad then costs nothing. */
#ifndef PL_MODEL_H
#define PL_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "nn/nn.h"
#include "optim.h"
#include "rng.h"

typedef enum {
    PL_ARCH_RNN,
    PL_ARCH_GRU,
    PL_ARCH_LSTM,
    PL_ARCH_AVGPOOL,
    PL_ARCH_MAXPOOL,
    PL_ARCH_ATTENTION,
    PL_ARCH_COUNT
} PlArch;

typedef enum {
    PL_SEQ_NONE,  /* pads are processed like tokens */
    PL_SEQ_KERAS, /* masked steps carry the state; pooling skips pads; attention hides pad keys */
    PL_SEQ_PACKED /* recurrent layers skip pad steps entirely (pack_padded_sequence) */
} PlSeqMask;

typedef enum {
    PL_READ_LAST_POS, /* the state at the last array position (Keras return_sequences=False) */
    PL_READ_LAST_REAL /* the state after the last real token */
} PlReadout;

typedef struct {
    PlArch arch;
    int vocab;  /* embedding rows (num_words) */
    int embed;  /* embedding width */
    int hidden; /* recurrent units */
    PlSeqMask mask;
    PlPoolMask pool; /* pooling models: how pads count (overrides mask) */
    PlReadout readout;
    int heads, dhead; /* attention */
    int causal;       /* attention */
    int freeze_pad;   /* keep embedding row 0 at zero */
    int classes;      /* 0: one logit per row; C > 0: C logits per position
                         (a token-level head on every state, recurrent models only) */
} PlModelConfig;

/* The parameter blocks, in the order a model lays them out (and a model file
 * stores them); a kind has those its row of the table names. G = gates x H
 * (1, 3 or 4 gates), HD = heads x dhead, F = H (recurrent) or E, C = classes
 * or 1. */
typedef enum {
    PL_P_EMBEDDING, /* (V,E) */
    PL_P_KERNEL,    /* (E,G) recurrent: the input kernel */
    PL_P_RECURRENT, /* (H,G) */
    PL_P_BIAS,      /* (G); the GRU's (2,G): input bias, then recurrent bias */
    PL_P_WQ,        /* (E,HD) attention */
    PL_P_WK,        /* (E,HD) */
    PL_P_WV,        /* (E,HD) */
    PL_P_WO,        /* (HD,E) */
    PL_P_DENSE_W,   /* (F,C) the head */
    PL_P_DENSE_B,   /* (C) */
    PL_P_COUNT
} PlParam;

/* The tutorial's embedding width and recurrent units. */
#define PL_DEFAULT_WIDTH 32

/* The padding experiment's model: Embedding(10000,32) -> SimpleRNN(32) -> Dense(1). */
PlModelConfig pl_model_config_default(PlArch arch);

const char *pl_arch_name(PlArch a);
int pl_arch_parse(const char *s, PlArch *out);
int pl_arch_recurrent(PlArch a);

typedef struct PlModel PlModel;

/* A new model with Keras's initialisers, drawn from seed. */
PlStatus pl_model_new(const PlModelConfig *cfg, PlSeed seed, PlModel **out, PlErr *err);
/* A new model whose parameters are all zero, for a loader to fill: nothing
 * is drawn or initialised. */
PlStatus pl_model_new_zero(const PlModelConfig *cfg, PlModel **out, PlErr *err);
/* Checks cfg as pl_model_new does and puts its parameter count into
 * *nparams, allocating nothing. Returns PL_OK, or PL_ERANGE with a message
 * (a field out of range, or a count that would overflow). */
PlStatus pl_model_config_check(const PlModelConfig *cfg, size_t *nparams, PlErr *err);
/* The bytes a forward and backward of a B x T batch hold beside the
 * parameters: the activations, gradients and scratch the model allocates
 * for it, counted as it carves them. */
uint64_t pl_model_batch_bytes(const PlModelConfig *cfg, int B, int T);
void pl_model_free(PlModel *m);
/* A new model with src's weights under cfg, which may change only what does
 * not change the parameters' shapes (mask, readout, pooling mode). Returns
 * PL_ERANGE when the shapes differ. */
PlStatus pl_model_copy(const PlModel *src, const PlModelConfig *cfg, PlModel **out, PlErr *err);
const PlModelConfig *pl_model_config(const PlModel *m);

/* Runs a batch: ids (B,T) and mask (B,T, 1 = real). Returns PL_ENOMEM when
 * activations cannot grow, PL_ERANGE for an id outside the vocabulary. */
PlStatus pl_model_forward(PlModel *m, const int32_t *ids, const uint8_t *mask, int B, int T, PlErr *err);
/* The logits of the last forward: (B), or (T,B,C) time-major with a
 * token-level head. Borrowed; valid until the next forward. */
const float *pl_model_logits(const PlModel *m);

/* Back-propagates dlogits (shaped as the logits) of the last forward and
 * adds into the gradients (+=, as nn.h's layers do). Once per forward: it
 * consumes that forward's caches. */
void pl_model_backward(PlModel *m, const float *dlogits);
/* Zeroes the gradients: call it before the backward passes of one update. */
void pl_model_zero_grad(PlModel *m);
/* One optimiser update from the gradients; it leaves them zero. */
void pl_model_update(PlModel *m);
PlOptim *pl_model_optim(PlModel *m);

/* Parameters and gradients as one flat array each (n floats), the blocks in
 * PlParam order. Borrowed; valid while the model lives. */
size_t pl_model_nparams(const PlModel *m);
float *pl_model_params(PlModel *m);
const float *pl_model_params_view(const PlModel *m);
const float *pl_model_grads(const PlModel *m);

/* One parameter block; *n (when n is not NULL) gets its size. NULL (and 0)
 * when this kind of model has no such block. Borrowed. */
float *pl_model_param(PlModel *m, PlParam p, size_t *n);
const float *pl_model_param_view(const PlModel *m, PlParam p, size_t *n);

/* Activations of the last forward, for the probes. Borrowed. */
const float *pl_model_states(const PlModel *m);   /* recurrent: h (T,B,H), pads as the layer left them */
const float *pl_model_features(const PlModel *m); /* (B,F): what the dense head reads */
int pl_model_feature_width(const PlModel *m);

/* Saving and loading: see doc/formats.md ("model files"). */
PlStatus pl_model_save(const PlModel *m, const char *path, PlErr *err);
PlStatus pl_model_load(const char *path, PlModel **out, PlErr *err);

#endif
