/* What the headless commands share: loading the corpus, the output format. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/lab/fill.h"
#include "app/state.h"
#include "cli.h"
#include "core/atomic.h"
#include "core/corpus_load.h"
#include "core/text.h"

int cli_load_corpus(const CliArgs *a, PlCorpus **out) {
    PlCorpusOpts opts = {0};
    if (cli_int(a, "num-words", PL_DEFAULT_NUM_WORDS, PL_FIRST_WORD_ID + 1, 100000000, &opts.num_words)) return 2;
    PlErr err;
    PlStatus st = pl_corpus_load(cli_str(a, "corpus", pl_settings[PL_S_CORPUS].def_text), &opts, out, &err);
    if (st) {
        fprintf(stderr, "%s: %s\n", a->cmd, err.msg);
        return st == PL_ENOMEM ? 1 : 2;
    }
    if ((*out)->skipped)
        fprintf(stderr, "%s: note: skipped %d entr%s that %s not a regular file (%s)\n", a->cmd, (*out)->skipped,
                (*out)->skipped == 1 ? "y" : "ies", (*out)->skipped == 1 ? "is" : "are", (*out)->skipped_first);
    return 0;
}

int cli_no_memory(const CliArgs *a, const char *what) {
    fprintf(stderr, "%s: out of memory while %s\n", a->cmd, what);
    return 1;
}

int cli_outputs_regular(const CliArgs *a, const char *const *opts) {
    for (; *opts; opts++) {
        const char *path = cli_str(a, *opts, NULL);
        PlErr err;
        if (path && *path && pl_atomic_regular_only(path, &err))
            return fprintf(stderr, "%s: --%s: %s\n", a->cmd, *opts, err.msg), 2;
    }
    return 0;
}

int cli_format(const CliArgs *a, OutFormat *fmt) {
    int k;
    if (cli_choice(a, "format", "table", out_format_names, &k)) return 2;
    *fmt = (OutFormat)k;
    return 0;
}

int *cli_lengths(const PlCorpus *c) {
    int *len = malloc((size_t)(c->n ? c->n : 1) * sizeof *len);
    if (len) pl_corpus_lengths(c, len);
    return len;
}

void cli_print_shown(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    pl_text_vprintf_lines(stdout, fmt, ap);
    va_end(ap);
}

void cli_error_shown(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    pl_text_vprintf_lines(stderr, fmt, ap);
    va_end(ap);
}

int cli_print_filled(PlLab *lab, const char *label, const char *text) {
    static char buf[8192];
    char why[320];
    if (!text || !*text) return 0;
    int missing = pl_fill_all(lab, NULL, text, buf, sizeof buf, why, sizeof why);
    cli_print_shown("  %s%s\n", label, buf);
    if (!missing) return 0;
    /* A training's or a grid's figure: their status says why they have none. */
    const char *status = strncmp(why, "{train.", 7) == 0 ? pl_lab_training(lab)->status : "";
    PlLabGrid g = pl_lab_grid(lab);
    if (strncmp(why, "{grid.", 6) == 0) status = g.status;
    cli_print_shown("  a figure could not be computed: %s%s%.200s\n", why, *status ? "; " : "", status);
    return 1;
}

int cli_read_state(const CliArgs *a, unsigned mask, PlLabSettings *s, unsigned *given) {
    const char *line = cli_str(a, "state", NULL);
    unsigned from_line = 0;
    if (line) {
        PlSettingsPatch p;
        char why[400];
        if (pl_state_parse(line, &p, why, sizeof why)) return cli_usage_error(a, "--state: %s", why);
        pl_settings_patch_apply(s, &p);
        from_line = p.mask & mask;
    }
    if (cli_read_settings(a, mask, s, given)) return 2;
    if (given) *given |= from_line;
    return 0;
}
