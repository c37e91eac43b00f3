/* The report: what `padlab` prints when there is no lab to open. */
#include <stdio.h>

#include "cli.h"
#include "core/cost.h"

static int run(const CliArgs *a) {
    static const int maxlens[] = {50, 100, 200, 400, 800};
    PlCorpus *c;
    int rc = cli_load_corpus(a, &c);
    if (rc) return rc;
    rc = cli_print_stats(c, maxlens, 5, OUT_TABLE);
    if (rc == 0) {
        printf("\nbatching strategies (batch size 32, static maxlen 200, boundaries 100,200,400,800):\n");
        rc = cli_print_buckets(c, pl_default_boundaries, PL_DEFAULT_NBOUNDS, pl_default_bucket_sizes, 32, 200, OUT_TABLE);
    }
    if (rc == 0)
        printf("\nMore: padlab stats, padlab buckets, padlab pad; padlab --help lists them all.\n");
    pl_corpus_free(c);
    return rc;
}

static const CliOpt opts[] = {
    CLI_OPT_CORPUS,
    {NULL, NULL, NULL},
};

const CliCommand cli_cmd_report = {
    .name = "report",
    .summary = "the corpus summary, the maxlen table and the batching table",
    .usage = "[--corpus SRC] [--num-words N]",
    .details = "What `padlab` prints when it cannot open the lab: the length statistics\n"
               "of the corpus, the cost of common maxlens, and every batching strategy.",
    .opts = opts,
    .max_pos = 0,
    .run = run,
};
