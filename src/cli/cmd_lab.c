/* padlab with no command: the lab in the terminal, or the report when there
 * is no terminal to draw on. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "tui/tui.h"

static int run(const CliArgs *a) {
    TuiArgs t;
    memset(&t, 0, sizeof t);
    t.settings = pl_lab_settings_default();
    const char *corpus = cli_str(a, "corpus", "builtin");
    if (strlen(corpus) >= sizeof t.settings.corpus) return cli_usage_error(a, "--corpus: path too long");
    snprintf(t.settings.corpus, sizeof t.settings.corpus, "%s", corpus);
    const char *view = cli_str(a, "view", NULL);
    if (view && pl_view_parse(view, &t.settings.view)) return cli_usage_error(a, "--view: expected a view name (batch, cost, attention, rnn, pooling, loss, train, layers, generate), got '%s'", view);
    t.session = cli_str(a, "session", NULL);
    t.screen.mono = cli_flag(a, "mono");
    t.screen.ascii = cli_flag(a, "ascii");
    char why[256];
    int rc = tui_run(&t, why, sizeof why);
    if (rc >= 0) return rc;
    fprintf(stderr, "padlab: %s, so here is the report instead of the lab\n", why);
    return cli_cmd_report.run(a);
}

static const CliOpt opts[] = {
    {"corpus", "SRC", "builtin (default), builtin:SEED[:COUNT], a TSV file, an aclImdb folder"},
    {"num-words", "N", "keep word ids below N (the report only; the lab keeps 10000)"},
    {"session", "FILE", "restore the lab from FILE and save it there on quit"},
    {"view", "NAME", "the view to open with"},
    {"mono", NULL, "no colours (also when NO_COLOR is set)"},
    {"ascii", NULL, "no Unicode block characters"},
    {NULL, NULL, NULL},
};

const CliCommand cli_cmd_lab = {
    .name = "lab",
    .summary = "the interactive lab in the terminal (what padlab opens with no command)",
    .usage = "[--corpus SRC] [--session FILE] [--view NAME] [--mono] [--ascii]",
    .details = "Opens the lab: a control strip (padding, truncating, mask, maxlen, batching,\n"
               "model, mask convention, seed, example) over views computed from real batches and\n"
               "a real model that retrains in the background whenever a cold setting changes.\n"
               "Press ? in the lab for the keys. Without a terminal it prints the report.",
    .opts = opts,
    .max_pos = 0,
    .run = run,
};
