/* The golden training runs: every model kind, with each mask, readout and
 * head it supports, trained for two epochs on a small built-in corpus. Prints
 * each run's losses and accuracies as exact hex floats and a hash of its
 * final parameters, so tests/golden.sh can tell a refactor that keeps the
 * arithmetic from one that changes a single bit of it. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/corpus_load.h"
#include "core/model.h"
#include "core/rng.h"
#include "core/train.h"

typedef struct {
    const char *name;
    PlArch arch;
    PlSeqMask mask;
    PlPoolMask pool;
    PlReadout readout;
    PlBatching batching;
    int causal, freeze_pad, token_task;
    PlLossNorm norm;
    int pads_in_loss;
    PlSide padding;
} GoldenRun;

static const GoldenRun golden_runs[] = {
    {.name = "rnn unmasked", .arch = PL_ARCH_RNN},
    {.name = "rnn keras mask, post", .arch = PL_ARCH_RNN, .mask = PL_SEQ_KERAS, .padding = PL_POST},
    {.name = "rnn last real step", .arch = PL_ARCH_RNN, .readout = PL_READ_LAST_REAL, .padding = PL_POST},
    {.name = "rnn packed", .arch = PL_ARCH_RNN, .batching = PL_BATCH_PACKED},
    {.name = "rnn dynamic, frozen pad row", .arch = PL_ARCH_RNN, .batching = PL_BATCH_DYNAMIC, .freeze_pad = 1},
    {.name = "gru unmasked", .arch = PL_ARCH_GRU},
    {.name = "gru keras mask", .arch = PL_ARCH_GRU, .mask = PL_SEQ_KERAS},
    {.name = "gru packed", .arch = PL_ARCH_GRU, .batching = PL_BATCH_PACKED},
    {.name = "lstm unmasked", .arch = PL_ARCH_LSTM},
    {.name = "lstm keras mask", .arch = PL_ARCH_LSTM, .mask = PL_SEQ_KERAS},
    {.name = "lstm packed", .arch = PL_ARCH_LSTM, .batching = PL_BATCH_PACKED},
    {.name = "avgpool unmasked", .arch = PL_ARCH_AVGPOOL},
    {.name = "avgpool masked, frozen pad row", .arch = PL_ARCH_AVGPOOL, .pool = PL_POOL_MASKED, .freeze_pad = 1},
    {.name = "avgpool divide by T", .arch = PL_ARCH_AVGPOOL, .pool = PL_POOL_DIV_T},
    {.name = "maxpool unmasked", .arch = PL_ARCH_MAXPOOL},
    {.name = "maxpool masked", .arch = PL_ARCH_MAXPOOL, .pool = PL_POOL_MASKED},
    {.name = "attention unmasked", .arch = PL_ARCH_ATTENTION},
    {.name = "attention keras mask", .arch = PL_ARCH_ATTENTION, .mask = PL_SEQ_KERAS},
    {.name = "attention causal, masked", .arch = PL_ARCH_ATTENTION, .mask = PL_SEQ_KERAS, .causal = 1},
    {.name = "rnn token task per token",
     .arch = PL_ARCH_RNN,
     .token_task = 1,
     .norm = PL_NORM_TOKEN,
     .padding = PL_POST},
    {.name = "gru token task per sequence, masked",
     .arch = PL_ARCH_GRU,
     .mask = PL_SEQ_KERAS,
     .token_task = 1,
     .norm = PL_NORM_SEQUENCE,
     .padding = PL_POST},
    {.name = "lstm token task batch x T, pads in",
     .arch = PL_ARCH_LSTM,
     .token_task = 1,
     .norm = PL_NORM_BATCH_T,
     .pads_in_loss = 1},
};

static int run_one(const PlCorpus *c, const GoldenRun *g) {
    PlTrainConfig cfg = pl_train_config_default(g->arch);
    cfg.maxlen = 48;
    cfg.batch_size = 16;
    cfg.epochs = 2;
    cfg.seed = 3;
    cfg.padding = g->padding;
    cfg.batching = g->batching;
    cfg.model.embed = 8;
    cfg.model.hidden = 8;
    cfg.model.heads = 2;
    cfg.model.dhead = 4;
    cfg.model.mask = g->mask;
    cfg.model.pool = g->pool;
    cfg.model.readout = g->readout;
    cfg.model.causal = g->causal;
    cfg.model.freeze_pad = g->freeze_pad;
    cfg.token_task = g->token_task;
    cfg.model.classes = g->token_task ? 16 : 0;
    cfg.norm = g->norm;
    cfg.pads_in_loss = g->pads_in_loss;
    PlTrainResult res;
    PlModel *m;
    PlErr err;
    if (pl_train(c, &cfg, NULL, NULL, NULL, &res, &m, &err)) {
        printf("%s: %s\n", g->name, err.msg);
        return 1;
    }
    printf("%s\n", g->name);
    for (int e = 0; e < res.epochs_done; e++)
        printf("  epoch %d  loss %a  acc %a  val_loss %a  val_acc %a\n", e + 1, (double)res.train_loss[e],
               (double)res.train_acc[e], (double)res.val_loss[e], (double)res.val_acc[e]);
    printf("  steps %lld  real tokens %lld  params %zu  hash %016llx\n", (long long)res.steps,
           (long long)res.real_tokens, pl_model_nparams(m),
           (unsigned long long)pl_fnv1a(pl_model_params_view(m), pl_model_nparams(m) * sizeof(float)));
    pl_model_free(m);
    return 0;
}

int main(void) {
    PlCorpus *c;
    PlErr err;
    PlCorpusOpts o = {.num_words = 200};
    if (pl_corpus_load("builtin:11:120", &o, &c, &err)) {
        fprintf(stderr, "golden_train: %s\n", err.msg);
        return 1;
    }
    int failed = 0;
    for (size_t i = 0; i < sizeof golden_runs / sizeof golden_runs[0]; i++) failed |= run_one(c, &golden_runs[i]);
    pl_corpus_free(c);
    return failed;
}
