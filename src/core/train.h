/* Training with Keras fit semantics: batch size 32, validation_split takes the
 * last 20% of the examples before any shuffle, the training examples are
 * reshuffled every epoch from the seed, and the result keeps the validation
 * accuracy of every epoch and the best of them.
 *
 * The run is a pure function of the corpus, the configuration and the seed:
 * the same inputs give the same numbers, bit for bit, on the same machine.
 * Wall-clock time is measured only through the clock the caller passes. */
#ifndef PL_TRAIN_H
#define PL_TRAIN_H

#include <stdint.h>

#include "corpus.h"
#include "err.h"
#include "loss.h"
#include "model.h"
#include "optim.h"
#include "pad.h"
#include "plan.h"

#define PL_MAX_EPOCHS 100
#define PL_DEFAULT_EPOCHS 5 /* the tutorial's fit(epochs=5) */
#define PL_VAL_SPLIT 0.2     /* the tutorial's validation_split */
#define PL_LEN_BUCKETS 3

typedef struct {
    PlModelConfig model; /* vocab is taken from the corpus's num_words */
    int maxlen;          /* rows are cut to this many tokens (PL_DEFAULT_MAXLEN) */
    PlSide padding, truncating;
    int epochs;          /* PL_DEFAULT_EPOCHS */
    int batch_size;      /* PL_DEFAULT_BATCH */
    double val_split;    /* 0.2 */
    PlBatching batching; /* static, dynamic, length_grouped, tf_bucket or packed */
    int window_stride;   /* > 0: read each review in windows of maxlen every
                            window_stride tokens and average their predictions */
    PlSeed seed;
    PlOptKind optim;
    /* The token task: predict the next token's class at every position, with
     * model.classes classes (ids below classes-1 are their own class, rarer
     * ids share the last). Validation reports accuracy and cross-entropy over
     * real next tokens only, whatever the training loss counted. */
    int token_task;
    PlLossNorm norm;  /* token task: how the training loss is normalised */
    int pads_in_loss; /* token task: pad targets count (no ignore_index) */
} PlTrainConfig;

/* Keras's tutorial settings for a model: maxlen 200, pre/pre, 5 epochs,
 * batch 32, validation 0.2, static batches, Adam, seed 0. */
PlTrainConfig pl_train_config_default(PlArch arch);

typedef struct {
    int epoch, epochs;  /* 1-based epoch */
    int batch, batches; /* 1-based batch within the epoch */
    float loss, acc;    /* running means over the epoch so far */
    float val_acc;      /* of the epoch just finished (batch == batches), else -1 */
} PlProgress;

/* Called after every batch; a nonzero return cancels the run. */
typedef int (*PlProgressFn)(const PlProgress *p, void *ctx);
/* Seconds from any fixed origin, called with the progress callback's ctx
 * (so a caller can leave out the time a run spent paused); used only to
 * report timings. */
typedef double (*PlClockFn)(void *ctx);

typedef struct {
    int epochs_done;
    float train_loss[PL_MAX_EPOCHS], train_acc[PL_MAX_EPOCHS];
    float val_loss[PL_MAX_EPOCHS], val_acc[PL_MAX_EPOCHS];
    float best_val_acc;
    int best_epoch;      /* 1-based, of the best accuracy */
    float best_val_loss; /* the lowest validation loss over the epochs */
    /* Validation accuracy by review length (start token included): below
     * maxlen/2, up to maxlen, longer than maxlen. At the best epoch. */
    int bucket_hi[PL_LEN_BUCKETS]; /* inclusive upper length of each bucket */
    int bucket_n[PL_LEN_BUCKETS];
    float bucket_acc[PL_LEN_BUCKETS];
    int n_train, n_val;  /* reviews */
    int64_t steps;       /* cells computed in training: B*T per batch, real tokens when packed */
    int64_t real_tokens; /* real tokens seen in training */
    double seconds;      /* whole run, by the caller's clock (0 without one) */
    double epoch_seconds[PL_MAX_EPOCHS];
    /* The batches the model saw, as a digest (pl_train_batches): two runs
     * of the same model settings and seed with the same digest computed the
     * same thing, whatever batching strategy planned them. */
    uint64_t batches;
} PlTrainResult;

/* Bytes a training of cfg over a vocabulary of vocab words holds at once, at
 * most: the parameters with their gradients and Adam's two moments, and one
 * batch's activations and their gradients (B x T cells at maxlen, each with
 * its embedding, its layers' states and gates, and for attention its scores
 * over T). A bound for refusing what cannot fit, not an exact count. */
uint64_t pl_train_memory_estimate(const PlTrainConfig *cfg, int vocab);
/* PL_OK when `at_once` trainings of cfg fit in `available` bytes (0: not
 * known, no check); else PL_ENOMEM with one line saying what it needs. */
PlStatus pl_train_memory_check(const PlTrainConfig *cfg, int vocab, int at_once, uint64_t available, PlErr *err);

/* Trains a new model on the corpus. On success fills res and, when model_out
 * is not NULL, hands over the trained model. Returns PL_ECANCELED when the
 * progress callback asked to stop (res then holds the epochs done). */
PlStatus pl_train(const PlCorpus *c, const PlTrainConfig *cfg, PlProgressFn progress, void *ctx, PlClockFn clock,
                  PlTrainResult *res, PlModel **model_out, PlErr *err);

/* The digest of the batches pl_train(c, cfg) would feed the model, every
 * epoch's training batches in their order and the validation batches (each
 * batch's width and its rows, and whether the rows are packed), without
 * training: the value pl_train leaves in res->batches. Static batches and
 * dynamic ones whose every batch holds a row cut to maxlen share it. */
PlStatus pl_train_batches(const PlCorpus *c, const PlTrainConfig *cfg, uint64_t *digest, PlErr *err);

#endif
