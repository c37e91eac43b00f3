#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe_cli.h"

int probe_setup(const CliArgs *a, ProbeSetup *s) {
    static const char *const sides[] = {"pre", "post", NULL}, *const onoff[] = {"off", "on", NULL};
    memset(s, 0, sizeof *s);
    s->opts = pl_probe_opts_default();
    PlProbeOpts *o = &s->opts;
    int pad, trunc, mask, seed, n = 0;
    if (cli_int(a, "example", 0, 0, 100000000, &o->example) || cli_int(a, "maxlen", 200, 1, 100000, &o->maxlen) ||
        cli_choice(a, "padding", "pre", sides, &pad) || cli_choice(a, "truncating", "pre", sides, &trunc) ||
        cli_choice(a, "mask", "off", onoff, &mask) || cli_int(a, "seed", 0, 0, 2147483647, &seed) || cli_format(a, &s->fmt))
        return 2;
    if (s->fmt == OUT_CSV) return cli_usage_error(a, "--format: probes print table or json");
    if (cli_flag(a, "batch") && cli_int_list(a, "batch", "0", 0, 100000000, s->rows, 64, &n)) return 2;
    o->padding = (PlSide)pad, o->truncating = (PlSide)trunc, o->mask = mask, o->seed = (uint64_t)seed;
    if (n) {
        o->batch = s->rows, o->nbatch = n;
        int found = 0;
        for (int i = 0; i < n; i++) found |= s->rows[i] == o->example;
        if (!found && cli_flag(a, "example")) return cli_usage_error(a, "--batch must include the --example row (%d)", o->example);
        if (!found) o->example = s->rows[0];
    }
    int rc = cli_load_corpus(a, &s->corpus);
    if (rc) return rc;
    const char *path = cli_str(a, "model", NULL);
    PlErr err;
    if (path && pl_model_load(path, &s->model, &err)) {
        fprintf(stderr, "%s: %s\n", a->cmd, err.msg);
        probe_done(s);
        return 2;
    }
    return 0;
}

void probe_done(ProbeSetup *s) {
    pl_corpus_free(s->corpus);
    pl_model_free(s->model);
    s->corpus = NULL;
    s->model = NULL;
}

int probe_failed(const CliArgs *a, PlStatus st, const PlErr *err) {
    fprintf(stderr, "%s: %s\n", a->cmd, err->msg);
    return st == PL_ENOMEM ? 1 : 2;
}

void probe_print_tokens(const PlCorpus *c, const int32_t *ids, const uint8_t *mask, int T) {
    for (int t = 0; t < T; t++) printf("%s%s", t ? " " : "", mask[t] ? pl_corpus_word(c, ids[t]) : "_");
    putchar('\n');
}
