/* What the probe commands share: their options and the loading of the
 * corpus and the model. */
#ifndef PL_CLI_PROBE_H
#define PL_CLI_PROBE_H

#include "cli.h"
#include "core/probe.h"

#define PROBE_OPTS                                                                             \
    CLI_OPT_CORPUS, {"example", "I", "the corpus row to look at (default 0)"},                 \
        {"batch", "I,J,...", "rows of the batch (default: the example and the 3 after it)"},   \
        {"maxlen", "N", "rows are cut to N tokens (default 200)"},                             \
        {"padding", "pre|post", "where pads go (default pre)"},                                \
        {"truncating", "pre|post", "which end a long review loses (default pre)"},             \
        {"mask", "on|off", "the mask (default off)"},                                          \
        {"seed", "S", "fresh weights come from seed S (default 0)"},                           \
        {"model", "FILE", "use a model saved by padlab experiment --save-model"}, CLI_OPT_FORMAT

typedef struct {
    PlCorpus *corpus;
    PlModel *model; /* NULL without --model */
    PlProbeOpts opts;
    OutFormat fmt;
    int rows[64];
} ProbeSetup;

/* Reads the shared options, loads the corpus and the model. Returns 0 or the
 * exit status after printing the error; probe_done frees what it loaded. */
int probe_setup(const CliArgs *a, ProbeSetup *s);
void probe_done(ProbeSetup *s);
/* Prints "padlab probe KIND: message" for a failed probe; returns its exit status. */
int probe_failed(const CliArgs *a, PlStatus st, const PlErr *err);

/* Prints one (B,T) row of token words and ids, for the tables. */
void probe_print_tokens(const PlCorpus *c, const int32_t *ids, const uint8_t *mask, int T);

extern const CliCommand cli_cmd_probe_batch, cli_cmd_probe_attention, cli_cmd_probe_rnn, cli_cmd_probe_pooling,
    cli_cmd_probe_loss, cli_cmd_probe_layers, cli_cmd_probe_generate, cli_cmd_probe_masks, cli_cmd_probe_identity;

#endif
