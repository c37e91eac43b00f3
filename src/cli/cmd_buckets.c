/* padlab buckets: every batching strategy side by side, with what it costs. */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "core/cost.h"

static const char *const head[] = {"strategy", "batches", "padding_share", "slots",
                                   "real_tokens", "attention_cells", "recovered"};

static void print_json(const PlStrategyRow *rows, int n) {
    JsonW w;
    json_begin(&w, stdout);
    json_arr(&w, "strategies");
    for (int i = 0; i < n; i++) {
        const PlStrategyRow *r = &rows[i];
        json_obj(&w, NULL);
        json_str(&w, "name", pl_batching_name(r->kind));
        json_int(&w, "batches", r->cost.batches);
        json_num(&w, "padding_share", r->padding_share);
        json_int(&w, "slots", r->cost.slots);
        json_int(&w, "real_tokens", r->cost.real_tokens);
        json_int(&w, "attention_cells", r->cost.attn_cells);
        json_num(&w, "recovered", r->recovered);
        json_close(&w, '}');
    }
    json_close(&w, ']');
    json_end(&w);
}

static void print_table(const PlStrategyRow *rows, int n, OutFormat fmt) {
    OutTable t;
    out_table_init(&t, 7, head);
    for (int i = 0; i < n; i++) {
        const PlStrategyRow *r = &rows[i];
        out_table_cell(&t, "%s", pl_batching_name(r->kind));
        out_table_cell(&t, "%lld", (long long)r->cost.batches);
        out_table_cell(&t, "%.4f", r->padding_share);
        out_table_cell(&t, "%lld", (long long)r->cost.slots);
        out_table_cell(&t, "%lld", (long long)r->cost.real_tokens);
        out_table_cell(&t, "%lld", (long long)r->cost.attn_cells);
        out_table_cell(&t, "%.4f", r->recovered);
    }
    out_table_print(&t, stdout, fmt, fmt == OUT_TABLE ? 2 : 0);
    out_table_done(&t);
}

int cli_print_buckets(const PlCorpus *c, const int *boundaries, int nb, const int *sizes,
                      int batch_size, int maxlen, OutFormat fmt) {
    int *len = cli_lengths(c);
    if (!len) return 1;
    PlCompareOpts o = {batch_size, maxlen, boundaries, nb, sizes, 0};
    PlStrategyRow rows[PL_BATCH_COUNT];
    int n;
    PlErr err;
    PlStatus st = pl_cost_compare(len, c->n, &o, rows, &n, &err);
    free(len);
    if (st) {
        fprintf(stderr, "padlab buckets: %s\n", err.msg);
        return st == PL_ENOMEM ? 1 : 2;
    }
    if (fmt == OUT_JSON) print_json(rows, n);
    else print_table(rows, n, fmt);
    return 0;
}

static int run(const CliArgs *a) {
    int bounds[32], nb, sizes[33], ns, batch_size, maxlen;
    OutFormat fmt;
    if (cli_int_list(a, "boundaries", "100,200,400,800", 1, 10000000, bounds, 32, &nb) ||
        cli_int(a, "batch-size", 32, 1, 1000000, &batch_size) ||
        cli_int(a, "maxlen", 200, 1, 10000000, &maxlen) || cli_format(a, &fmt))
        return 2;
    for (int k = 1; k < nb; k++)
        if (bounds[k] <= bounds[k - 1])
            return cli_usage_error(a, "--boundaries: values must increase, got '%s'",
                                   cli_str(a, "boundaries", ""));
    if (cli_int_list(a, "batch-sizes", "64,64,32,16,8", 1, 1000000, sizes, 33, &ns)) return 2;
    if (ns != nb + 1)
        return cli_usage_error(a, "--batch-sizes: expected %d values (one per bucket: %d "
                               "boundaries make %d buckets), got %d", nb + 1, nb, nb + 1, ns);
    PlCorpus *c;
    int rc = cli_load_corpus(a, &c);
    if (rc) return rc;
    rc = cli_print_buckets(c, bounds, nb, sizes, batch_size, maxlen, fmt);
    pl_corpus_free(c);
    return rc;
}

static const CliOpt opts[] = {
    CLI_OPT_CORPUS,
    {"boundaries", "N,N,...", "bucket boundaries (default 100,200,400,800)"},
    {"batch-sizes", "N,N,...", "tf_bucket batch size per bucket (default 64,64,32,16,8)"},
    {"batch-size", "N", "rows per batch for the other strategies (default 32)"},
    {"maxlen", "N", "the static strategy's width (default 200)"},
    CLI_OPT_FORMAT,
    {NULL, NULL, NULL},
};

const CliCommand cli_cmd_buckets = {
    .name = "buckets",
    .summary = "padding cost of each batching strategy",
    .usage = "[--corpus SRC] [--boundaries 100,200,400,800] [--batch-sizes 64,64,32,16,8]\n"
             "                      [--batch-size 32] [--maxlen 200] [--format table|csv|json]",
    .details =
        "One row per strategy, the corpus in its own order:\n"
        "  longest         every row padded to the corpus's longest sequence\n"
        "  static          every row padded or truncated to --maxlen\n"
        "  dynamic         each batch padded to its own longest row\n"
        "  multiple_of_8   dynamic, width rounded up to a multiple of 8 (pad_to_multiple_of)\n"
        "  length_grouped  rows sorted by length within windows of 50 batches, batches shuffled\n"
        "  bucket_longest  one bucket per boundary range, padded to its own longest row\n"
        "  tf_bucket       tf.data bucket_by_sequence_length with --batch-sizes\n"
        "  packed          rows concatenated with cu_seqlens, no padding at all\n"
        "padding_share = pad cells / all cells; attention_cells = T*T per row (packed: L*L);\n"
        "recovered = the longest row's padding share minus this row's.",
    .opts = opts,
    .max_pos = 0,
    .run = run,
};
