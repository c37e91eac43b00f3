/* padlab buckets: every batching strategy side by side, with what it costs. */
#include <stdio.h>
#include <stdlib.h>

#include "app/report/report.h"
#include "app/settings.h"
#include "cli.h"
#include "core/cost.h"

int cli_print_buckets(const PlCorpus *c, const PlCompareOpts *o, OutFormat fmt) {
    int *len = cli_lengths(c);
    if (!len) {
        fprintf(stderr, "padlab buckets: out of memory while copying the corpus's lengths\n");
        return 1;
    }
    PlStrategyRow rows[PL_BATCH_COUNT];
    int n;
    PlErr err;
    PlStatus st = pl_cost_compare(len, c->n, o, rows, &n, &err);
    free(len);
    if (st) {
        fprintf(stderr, "padlab buckets: %s\n", err.msg);
        return st == PL_ENOMEM ? 1 : 2;
    }
    if (fmt == OUT_JSON) {
        JsonW w;
        json_begin(&w, stdout);
        pl_report_strategies_json(&w, rows, n, -1);
        json_end(&w);
    } else {
        if (pl_report_strategies_table(stdout, rows, n, fmt, -1, NULL)) {
            fprintf(stderr, "padlab buckets: out of memory while building the table\n");
            return 1;
        }
    }
    return 0;
}

/* The lab's settings this command takes as flags. */
#define SETTINGS (CLI_CORPUS | PL_S_BIT(PL_S_MAXLEN) | PL_S_BIT(PL_S_BATCH))

/* --boundaries into o (bounds holds them) and --batch-sizes into sizes;
 * *ns = how many sizes (0: none given). 0, or 2 after a usage error. */
static int read_buckets(const CliArgs *a, PlCompareOpts *o, int bounds[32], int sizes[33], int *ns) {
    int nb = 0;
    *ns = 0;
    if (cli_flag(a, "boundaries")) {
        if (cli_int_list(a, "boundaries", "", 1, 10000000, bounds, 32, &nb)) return 2;
        for (int k = 1; k < nb; k++)
            if (bounds[k] <= bounds[k - 1])
                return cli_usage_error(a, "--boundaries: values must increase, got '%s'", cli_str(a, "boundaries", ""));
        o->boundaries = bounds, o->n_boundaries = nb;
    }
    if (cli_flag(a, "batch-sizes") && cli_int_list(a, "batch-sizes", "", 1, 1000000, sizes, 33, ns)) return 2;
    return 0;
}

/* One batch size per bucket: the boundaries given, or the quarters of the
 * resolved maxlen (the corpus's longest under none). 0, or 2. */
static int check_sizes(const CliArgs *a, PlCompareOpts *o, int sizes[33], int ns) {
    int quarters[3], nb = o->boundaries ? o->n_boundaries : pl_plan_quarter_bounds(o->maxlen, quarters);
    if (!ns) return 0;
    if (ns != nb + 1)
        return cli_usage_error(a,
                               "--batch-sizes: expected %d values (one per bucket: %d "
                               "boundaries make %d buckets), got %d",
                               nb + 1, nb, nb + 1, ns);
    o->bucket_batch_sizes = sizes;
    return 0;
}

static int run(const CliArgs *a) {
    int bounds[32], sizes[33], ns;
    PlCompareOpts o = {0};
    OutFormat fmt;
    PlLabSettings s = pl_settings_default();
    if (cli_read_settings(a, SETTINGS, &s, NULL) || cli_format(a, &fmt) || read_buckets(a, &o, bounds, sizes, &ns))
        return 2;
    PlCorpus *c;
    int rc = cli_load_corpus(a, &c);
    if (rc) return rc;
    o.batch_size = s.batch, o.maxlen = pl_maxlen_of(s.maxlen, pl_corpus_longest(c)); /* none: nothing is cut */
    rc = check_sizes(a, &o, sizes, ns);
    if (!rc) rc = cli_print_buckets(c, &o, fmt);
    pl_corpus_free(c);
    return rc;
}

static const CliOpt opts[] = {
    CLI_OPT_CORPUS,
    {"boundaries", "N,N,...", "bucket boundaries (default: the quarters of maxlen, as the lab and training use)"},
    {"batch-sizes", "N,N,...", "tf_bucket rows per batch, one per bucket (default: --batch each)"},
    CLI_OPT_FORMAT,
    {NULL, NULL, NULL},
};

const CliCommand cli_cmd_buckets = {
    .name = "buckets",
    .summary = "padding cost of each batching strategy",
    .usage = "[--corpus SRC] [--maxlen " CLI_DEF_MAXLEN "] [--batch " CLI_DEF_BATCH "] [--boundaries N,N,...]\n"
             "                      [--batch-sizes N,N,...] [--format table|csv|json]",
    .details = "One row per strategy, the corpus in its own order, every row cut to --maxlen\n"
               "tokens (but under longest; --maxlen none cuts nothing: static batches are as wide\n"
               "as the longest review), with the batches the lab and training use:\n"
               "  longest         every row padded to the corpus's longest sequence, nothing cut\n"
               "  static          every row padded or truncated to --maxlen\n"
               "  dynamic         each batch padded to its own longest row\n"
               "  multiple_of_8   dynamic, width rounded up to a multiple of 8 (pad_to_multiple_of)\n"
               "  length_grouped  rows sorted by length within windows of 50 batches, batches shuffled\n"
               "  bucket_longest  rows grouped by boundary range, each batch padded to its range's longest\n"
               "  tf_bucket       tf.data bucket_by_sequence_length\n"
               "  packed          rows concatenated with cu_seqlens, no padding at all\n"
               "shapes = the distinct rows x width of the epoch's batches (packed: 1 x its tokens):\n"
               "XLA, or torch.compile without dynamic shapes, compiles the step once per shape;\n"
               "padding_share = pad cells / all cells; tokens_cut = tokens truncation threw away;\n"
               "attention_cells = T*T per row (packed: L*L); cells_vs_static and\n"
               "attention_vs_static = this strategy's cells and attention cells against static's:\n"
               "the table says it in words (18.6% fewer, 12.4x as many), CSV and JSON as the\n"
               "ratio (0.814, 12.37) and as cells_saved and attention_saved, the share of\n"
               "static's it does not compute (negative: it computes more).",
    .opts = opts,
    .settings = SETTINGS,
    .max_pos = 0,
    .run = run,
};
