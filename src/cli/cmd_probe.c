/* padlab probe KIND: the table of probes and their one run body.
 *
 * The run body: the settings flags into a PlLabSettings (registry defaults
 * first), the corpus and its lengths, the example (auto resolves as the lab
 * resolves it), the weights, pl_result_compute, the printer, the frees. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "app/report/report.h"
#include "core/names.h"
#include "probe_cli.h"

/* ---- the probes' own options ---- */

static int attention_opts(const CliArgs *a, const PlLabSettings *s, PlResultParams *prm) {
    (void)s;
    return cli_int(a, "heads", prm->heads, 1, 64, &prm->heads) || cli_int(a, "dhead", prm->dhead, 1, 256, &prm->dhead)
               ? 2
               : 0;
}

static int rnn_opts(const CliArgs *a, const PlLabSettings *s, PlResultParams *prm) {
    char v[32];
    (void)prm;
    if (!pl_arch_recurrent((PlArch)s->model))
        return cli_usage_error(a, "--model %s: the rnn probe follows a recurrent cell: rnn, gru or lstm",
                               pl_setting_format(s, PL_S_MODEL, v, sizeof v));
    return 0;
}

static int kvcache_opts(const CliArgs *a, const PlLabSettings *s, PlResultParams *prm) {
    if (cli_int(a, "steps", prm->steps, 1, PL_KV_MAX_STEPS, &prm->steps)) return 2;
    (void)s;
    if (cli_int(a, "cache-len", 0, 1, 1 << 20, &prm->cache_len)) return 2; /* 0: the probe's default */
    return 0;
}

static const CliOpt kvcache_extra[] = {
    {"steps", "N", "tokens decoded after each prompt (default 8, at most 64)"},
    {"cache-len", "N", "a static cache's slots per row (default: --maxlen, or the batch when wider, plus --steps)"},
    {NULL, NULL, NULL},
};

/* --block: a power of two, as a kernel's tiles are; --window: any width. */
static int blocks_opts(const CliArgs *a, const PlLabSettings *s, PlResultParams *prm) {
    const char *v = cli_str(a, "block", NULL);
    (void)s;
    if (v) {
        char *end;
        long n = strtol(v, &end, 10);
        prm->block = end != v && !*end && n >= PL_BLOCKS_MIN_BLOCK && n <= PL_BLOCKS_MAX_BLOCK ? (int)n : 0;
        if (!pl_blocks_block_ok(prm->block))
            return cli_usage_error(a, "--block: expected a power of two from %d to %d, got '%s'", PL_BLOCKS_MIN_BLOCK,
                                   PL_BLOCKS_MAX_BLOCK, v);
    }
    return cli_int(a, "window", prm->window, 1, PL_BLOCKS_MAX_WINDOW, &prm->window) ? 2 : 0;
}

static const CliOpt blocks_extra[] = {
    {"block", "N", "tile side, a power of two from 8 to 1024 (default 128, FlexAttention's)"},
    {"window", "N", "the sliding window's width W (default 64)"},
    {NULL, NULL, NULL},
};

static const CliOpt attention_extra[] = {
    {"heads", "N", "attention heads (default 2)"},
    {"dhead", "N", "width of each head (default 16)"},
    {NULL, NULL, NULL},
};

/* ---- the table ---- */

const CliProbe cli_probes[] = {
    {
        .name = "batch",
        .kind = PL_R_BATCH,
        .summary = "one complete batch: ids, words, mask, labels, and whether their counts agree",
        .details = "Prints every row of the batch of the plan that holds the example (its width as\n"
                   "the batching says: static pads to --maxlen, dynamic to the longest kept row,\n"
                   "multiple_of_8 rounds that up; packed concatenates the batch in one row): the\n"
                   "words (_ for a pad), the ids, the mask in the chosen convention and the token\n"
                   "labels with -100 at pads. Then the check every training script wants: the real\n"
                   "tokens, the positions the mask marks real (read in its own convention) and the\n"
                   "labels that count must be the same number.",
    },
    {
        .name = "attention",
        .kind = PL_R_ATTENTION,
        .summary = "attention scores, the additive mask, softmax weights, leaks and invariance",
        .details = "Runs scaled dot-product self-attention over the example and up to 3 batch-mates\n"
                   "(fresh Keras weights from --seed, or an attention model's --weights). Reports,\n"
                   "for the example: the weight that lands on pad keys, row sums, rows with no\n"
                   "visible key, NaN; the same sentence next to a short and a long partner; the\n"
                   "packed varlen computation against the masked padded batch; and the wrong fix of\n"
                   "masking after softmax.",
        .opts = attention_extra,
        .read_opts = attention_opts,
        .needs = "an attention model",
    },
    {
        .name = "rnn",
        .kind = PL_R_RNN,
        .summary = "a recurrent state step by step over one padded example: drift, fixed point, readouts",
        .details = "Follows the hidden state of a --model cell (rnn, gru or lstm; fresh from --seed,\n"
                   "or a recurrent model's --weights) over the example at its batch's width: its\n"
                   "norm, its distance from the state after the last real token, the change at each\n"
                   "step, and its distance from h*, the fixed point the pad input drives the state\n"
                   "to (found by iterating pads). Compares the three readouts: the last array\n"
                   "position, the last real step, and the state the mask carries.",
        .read_opts = rnn_opts,
        .needs = "a recurrent model (rnn, gru or lstm)",
    },
    {
        .name = "pooling",
        .kind = PL_R_POOLING,
        .summary = "how pads dilute a pooled vector, over the corpus and for one example",
        .details = "Over the corpus: the weight real tokens get in an unmasked mean, min(L, maxlen)\n"
                   "/ maxlen, its mean, minimum and histogram. For the example at its batch's width:\n"
                   "the masked mean, the unmasked mean, the real sum divided by T, and masked and\n"
                   "unmasked max pooling, with how far each lands from the masked vector. Every\n"
                   "variant is computed, so the probe takes no --mask.",
        .needs = "any model",
    },
    {
        .name = "loss",
        .kind = PL_R_LOSS,
        .summary = "token losses per position, three normalisations, pads left in the loss",
        .details = "A recurrent token model (fresh from --seed, or --weights saved by padlab\n"
                   "experiment loss) predicts the next token at every position of the example and\n"
                   "up to 3 batch-mates; pad targets are -100. Prints each row's losses, the batch\n"
                   "loss per real token, per sequence and over batch x T with its gradient size,\n"
                   "what batch x T does when the same rows are padded wider, and what happens\n"
                   "without ignore_index.",
        .needs = "a token model (padlab experiment loss --save-model)",
    },
    {
        .name = "layers",
        .kind = PL_R_LAYERS,
        .summary = "which layers respect a mask, measured by perturbing the pads",
        .details = "Replaces every pad of the example and up to 3 batch-mates (the pad id, or its\n"
                   "embedding with noise) and measures how far the change reaches: embedding,\n"
                   "SimpleRNN, GRU and LSTM with and without the mask, average and max pooling\n"
                   "masked and unmasked, dense, conv1d, flatten, and attention with and without the\n"
                   "padding mask. 0 means the layer respects the pads. Both mask settings are run.\n"
                   "Every layer is fresh from --seed: whether a layer respects the pads is a\n"
                   "property of the layer and its mask, not of what it learned.",
    },
    {
        .name = "generate",
        .kind = PL_R_GENERATE,
        .summary = "decoder-only batches: left vs right padding, the last column, position ids",
        .details = "The example and up to 3 batch-mates are prompts (cut to --maxlen; by default the\n"
                   "auto example, a short review, among longer ones). Lays them out left-padded and\n"
                   "right-padded at the batch's width, shows the position ids a naive model uses\n"
                   "and the corrected ones, and runs a small seeded causal decoder: its next-token\n"
                   "logits under each layout against each prompt run alone.",
    },
    {
        .name = "kvcache",
        .kind = PL_R_KVCACHE,
        .summary = "decoding with a key/value cache: pad slots it holds, and positions from the mask",
        .details = "The example and up to 3 batch-mates are prompts, left-padded to the batch's\n"
                   "width and decoded greedily for --steps tokens by the generate probe's decoder,\n"
                   "with a cache that keeps every slot's key and value and a mask that grows a\n"
                   "column a step. Shows each row's slots (pad, prompt, picked), its position_ids\n"
                   "from the mask against cache_position, the slots and bytes pads hold (and a\n"
                   "static cache's, of --cache-len slots a row), the scores a dense kernel spends\n"
                   "on pad slots at each step, and four ways of decoding against every prompt\n"
                   "decoded alone: left padding with positions from the mask (equal), positions\n"
                   "counted by slot, no mask, and right padding (which read a pad first).",
        .opts = kvcache_extra,
        .read_opts = kvcache_opts,
    },
    {
        .name = "masks",
        .kind = PL_R_MASKS,
        .summary = "the batch's mask in four conventions, and the inverted-polarity bug measured",
        .details = "Writes the one padding mask of the example and up to 3 batch-mates as Keras\n"
                   "(1 = keep), PyTorch key_padding_mask (1 = ignore), Hugging Face attention_mask\n"
                   "(1 = keep) and the additive bias (0 / -inf), each with the line of library code\n"
                   "that builds it from input_ids. Then runs self-attention over the rows three ways\n"
                   "and reports the share of the real tokens' attention that lands on pads: with the\n"
                   "right mask (0%), with none, and with the Hugging Face mask passed as\n"
                   "key_padding_mask (100%: pads seen, real tokens hidden); rows with no pad are\n"
                   "blind under that bug. Every mask is computed, so the probe takes no --mask.",
        .needs = "an attention model",
    },
    {
        .name = "identity",
        .kind = PL_R_IDENTITY,
        .summary = "the same reviews padded pre and post through one model: equal with the mask",
        .details = "Pads the example and up to 3 batch-mates both ways (same rows, same width) and\n"
                   "runs both through the same --model (fresh from --seed, or --weights of a saved\n"
                   "classifier, whose architecture --model then follows) with the Keras mask and\n"
                   "without it. Prints every row's four logits and the largest pre/post difference\n"
                   "each way: float rounding with the mask; large without it for the recurrent\n"
                   "models. Pooling and attention (which has no positions) do not see order, so\n"
                   "they agree even unmasked, and the probe shows what the mask changes instead.\n"
                   "Both paddings and both mask settings are run, so it takes neither flag.",
        .needs = "a classifier of the --model architecture",
    },
    {
        .name = "blocks",
        .kind = PL_R_BLOCKS,
        .summary = "masks as rules, counted per tile as block-sparse kernels skip work",
        .details = "Asks six mask rules, each a function of (row, head, query, key) as FlexAttention's\n"
                   "mask_mod is, for every cell of the batch: padding, causal, causal+padding,\n"
                   "document (packed: the same sequence of cu_seqlens; a padded row is one\n"
                   "document), causal+document and a causal+padding sliding window (q - kv < W).\n"
                   "Then cuts the scores into tiles of --block x --block, T padded up to a multiple\n"
                   "of the block, as create_block_mask builds its BlockMask (read in PyTorch 2.6;\n"
                   "FlexAttention appeared in 2.5): an empty tile is skipped whole, a full one runs\n"
                   "with no mask, a partial one with the rule applied inside. FlashAttention's\n"
                   "varlen kernels skip the same work between packed documents. Prints each rule's\n"
                   "tiles over the batch and in the example's row, the share of the B x T x T score\n"
                   "cells a block-sparse kernel computes, the bytes of a dense mask against a\n"
                   "BlockMask's int32 tensors, and a map of the example row's tiles. Reviews are\n"
                   "often shorter than 128: --block 16 shows the structure. Every rule is counted,\n"
                   "so the probe takes neither --mask nor --causal.",
        .opts = blocks_extra,
        .read_opts = blocks_opts,
    },
    {
        .name = "packing",
        .kind = PL_R_PACKING,
        .summary = "padding-free packing as a flattening collator does it, and what each of its parts is for",
        .details = "Packs the example and up to 3 rows after it in its batch (each cut to --maxlen)\n"
                   "in one row with no pad, as transformers' DataCollatorWithFlattening (read in its\n"
                   "4.5x releases) and TRL's padding_free=True do: input_ids concatenated,\n"
                   "position_ids restarting at 0 in each document, labels with -100 at each\n"
                   "document's first token, and cu_seqlens read back from the position ids. Counts\n"
                   "the cells packing saves against dynamic and static padding. Then a small causal\n"
                   "attention layer, fresh from --seed, reads the row with the document mask (equal\n"
                   "to each document alone), with a plain causal mask (attention lands on earlier\n"
                   "documents: how much) and with position ids counted along the row; and the loss\n"
                   "terms that would predict a document's first token from the previous one's last\n"
                   "without the -100s are counted.",
    },
};
const int cli_nprobes = (int)(sizeof cli_probes / sizeof cli_probes[0]);

const CliProbe *cli_probe_find(const char *name) {
    int i = PL_ROW_FIND(cli_probes, cli_nprobes, name);
    return i < 0 ? NULL : &cli_probes[i];
}

/* ---- options ---- */

static const CliOpt shared_extra[] = {
    CLI_OPT_CORPUS,
    {"rows", "I,J,...", "these corpus rows as the batch, instead of the plan's batch that holds the example"},
    {"format", "FMT", "table (default) or json"},
    {"full", NULL, "print every cell of a long row (tables elide rows wider than the terminal)"},
    {NULL, NULL, NULL},
};
static const CliOpt weights_opt = {
    "weights", "FILE", "read the model saved by padlab experiment --save-model (default: fresh weights from --seed)"};

/* The settings a probe takes as flags: what its result depends on, and the corpus. */
static unsigned probe_settings(const CliProbe *p) { return pl_result_deps(p->kind) | PL_S_BIT(PL_S_CORPUS); }

/* Its options: the settings, then the shared extras, --weights, its own. */
static void probe_opts(const CliProbe *p, CliOpt *out, int cap) {
    CliOpt extra[CLI_MAX_OPTS];
    int n = 0;
    for (int i = 0; shared_extra[i].name && n < CLI_MAX_OPTS - 1; i++) extra[n++] = shared_extra[i];
    if (p->needs && n < CLI_MAX_OPTS - 1) extra[n++] = weights_opt;
    for (int i = 0; p->opts && p->opts[i].name && n < CLI_MAX_OPTS - 1; i++) extra[n++] = p->opts[i];
    extra[n] = (CliOpt){NULL, NULL, NULL};
    cli_settings_opts(probe_settings(p), extra, out, cap);
}

static void print_help(const CliProbe *p, const CliOpt *opts) {
    printf("usage: padlab probe %s [--SETTING VALUE ...] [OPTIONS]\n\n%s\n\n", p->name, p->details);
    printf("The batch is the one of the plan that holds --example (auto: the first review\n"
           "with pads to see, as in the lab); --rows names the batch's rows instead.\n\n");
    printf("options (the settings are the lab's; a probe takes those its result depends on):\n");
    cli_print_opts(stdout, opts);
}

/* The width a table row may take: the terminal's when stdout is one, else 100. */
static int output_columns(void) {
    if (!isatty(STDOUT_FILENO)) return 100;
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
    const char *env = getenv("COLUMNS");
    int cols = env ? atoi(env) : 0;
    return cols > 0 ? cols : 100;
}

/* ---- the run body ---- */

/* What a run holds, freed by run_done. */
typedef struct {
    PlCorpus *corpus;
    int *lens;
    PlModel *weights;
    void *result;
} Run;

static void run_done(const CliProbe *p, Run *r) {
    pl_result_free(p->kind, r->result);
    pl_model_free(r->weights);
    free(r->lens);
    pl_corpus_free(r->corpus);
}

/* --rows: the batch's rows, which hold the example (the first row when no
 * --example names it). Returns 0 or 2. */
static int read_rows(const CliArgs *a, unsigned given, PlLabSettings *s, int *rows, int max, PlResultParams *prm) {
    int n = 0;
    if (!cli_flag(a, "rows")) return 0;
    if (cli_int_list(a, "rows", "", 0, INT_MAX, rows, max, &n)) return 2;
    int found = 0;
    for (int i = 0; i < n; i++) found |= rows[i] == s->example;
    if (!found && (given & PL_S_BIT(PL_S_EXAMPLE)) && s->example != PL_EXAMPLE_AUTO)
        return cli_usage_error(a, "--rows must include the --example row (%d)", s->example);
    if (!found) s->example = rows[0];
    prm->rows = rows, prm->nrows = n;
    return 0;
}

/* Loads --weights and checks that the probe reads them: a setting the probe
 * takes (--model) follows the file unless it was given. Returns 0 or 2. */
static int load_weights(const CliProbe *p, const CliArgs *a, unsigned given, PlLabSettings *s, PlModel **out) {
    const char *path = cli_str(a, "weights", NULL);
    PlErr err;
    *out = NULL;
    if (!path) return 0;
    if (pl_model_load(path, out, &err)) return cli_usage_error(a, "%s", err.msg);
    const PlModelConfig *cfg = pl_model_config(*out);
    const char *arch = pl_arch_name(cfg->arch);
    if (probe_settings(p) & PL_S_BIT(PL_S_MODEL)) {
        char v[32];
        if ((given & PL_S_BIT(PL_S_MODEL)) && s->model != (int)cfg->arch)
            return cli_usage_error(a, "--model %s: the weights in %s are %s (leave --model out to follow them)",
                                   pl_setting_format(s, PL_S_MODEL, v, sizeof v), path, arch);
        if (!(given & PL_S_BIT(PL_S_MODEL))) pl_setting_set(s, PL_S_MODEL, (int)cfg->arch);
    }
    if (!pl_result_reads(p->kind, s, *out))
        return cli_usage_error(a, "--weights %s: the %s probe needs %s, this one is %s%s", path, p->name, p->needs,
                               arch, cfg->classes ? " with a token head" : "");
    return 0;
}

static int run_probe(const CliProbe *p, const CliArgs *a) {
    unsigned given;
    PlLabSettings s = pl_settings_default();
    const char *batch = cli_str(a, "batch", NULL);
    if (batch && strchr(batch, ','))
        return cli_usage_error(a, "--batch N is the rows per batch; name the rows of a batch with --rows %s", batch);
    if (cli_read_settings(a, probe_settings(p), &s, &given)) return 2;
    OutFormat fmt;
    if (cli_format(a, &fmt)) return 2;
    if (fmt == OUT_CSV) return cli_usage_error(a, "--format: probes print table or json");
    PlResultParams prm = pl_result_params_default();
    int rows[64];
    if ((p->read_opts && p->read_opts(a, &s, &prm)) || read_rows(a, given, &s, rows, 64, &prm)) return 2;
    Run r = {0};
    int rc = cli_load_corpus(a, &r.corpus);
    if (rc) return rc;
    if (!(r.lens = cli_lengths(r.corpus))) rc = cli_no_memory(a, "copying the corpus's lengths");
    /* As the lab opens: auto is the first review with pads to see. */
    if (!rc && s.example == PL_EXAMPLE_AUTO)
        s.example = pl_probe_auto_example(r.corpus, pl_maxlen_of(s.maxlen, pl_corpus_longest(r.corpus)));
    if (!rc) rc = load_weights(p, a, given, &s, &r.weights);
    PlResultInfo info;
    PlErr err;
    if (!rc) {
        PlStatus st = pl_result_compute(r.corpus, r.lens, p->kind, &s, &prm, r.weights, &r.result, &info, &err);
        if (st) {
            fprintf(stderr, "%s: %s\n", a->cmd, err.msg);
            rc = st == PL_ENOMEM ? 1 : 2;
        }
    }
    if (!rc) {
        PlReportOpts o = {.full = cli_flag(a, "full"),
                          .columns = output_columns(),
                          .rows_given = prm.nrows > 0,
                          .weights = r.weights ? cli_str(a, "weights", NULL) : NULL};
        if (r.weights) info.weights_arch = (int)pl_model_config(r.weights)->arch;
        PlStatus st = pl_report_print(stdout, p->kind, fmt == OUT_JSON, r.corpus, r.result, &info, &o);
        if (st == PL_ENOMEM) rc = cli_no_memory(a, "building the table");
        else if (st || fflush(stdout) != 0) {
            fprintf(stderr, "%s: cannot write the output\n", a->cmd);
            rc = 1;
        }
    }
    run_done(p, &r);
    return rc;
}

int cli_probe_main(const CliProbe *p, int argc, char **argv) {
    char name[64];
    snprintf(name, sizeof name, "padlab probe %s", p->name);
    CliOpt opts[CLI_MAX_OPTS];
    probe_opts(p, opts, CLI_MAX_OPTS);
    CliArgs a;
    if (cli_parse(&a, name, opts, 0, argc, argv)) return 2;
    if (a.help) {
        print_help(p, opts);
        return 0;
    }
    return run_probe(p, &a);
}
