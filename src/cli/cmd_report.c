/* The report: what `padlab` prints when there is no lab to open. */
#include <stdio.h>

#include "app/settings.h"
#include "cli.h"
#include "core/cost.h"

static int run(const CliArgs *a) {
    static const int maxlens[] = {50, 100, 200, 400, 800};
    PlCorpus *c;
    int rc = cli_load_corpus(a, &c);
    if (rc) return rc;
    rc = cli_print_stats(c, maxlens, 5, OUT_TABLE);
    if (rc == 0) {
        PlCompareOpts o = {.batch_size = PL_DEFAULT_BATCH, .maxlen = PL_DEFAULT_MAXLEN};
        printf("\nbatching strategies (batch size %d, rows cut to maxlen %d, bucket boundaries at its quarters):\n",
               o.batch_size, o.maxlen);
        rc = cli_print_buckets(c, &o, OUT_TABLE);
    }
    if (rc == 0) printf("\nMore: padlab stats, padlab buckets, padlab pad; padlab --help lists them all.\n");
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
    .settings = CLI_CORPUS,
    .max_pos = 0,
    .run = run,
};
