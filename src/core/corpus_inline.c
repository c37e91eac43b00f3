/* The inline corpus: a few rows written out in the corpus spec itself, so a
 * lesson can show a case no corpus holds ("inline:0 0 0 great film|bad").
 *
 *   inline:ROW|ROW|...     a row is tokens separated by spaces, kept exactly
 *                          as written (no start token is added); 0 or <pad>,
 *                          <start> and <oov> are those ids; a word is cleaned
 *                          as any review is; a leading + or - sets the label
 *                          (by default the rows alternate 1, 0, 1, ...). */
#include <stdlib.h>
#include <string.h>

#include "corpus_build.h"
#include "corpus_loaders.h"

#define INLINE_MAX_TOKENS 4096

/* Adds one row of the spec, text[0..n). */
static PlStatus add_row(PlCorpusBuilder *b, char *text, int index) {
    const char *tokens[INLINE_MAX_TOKENS];
    int n = 0, label = index % 2 == 0;
    char *save = NULL;
    for (char *t = strtok_r(text, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        if (n == 0 && (strcmp(t, "+") == 0 || strcmp(t, "-") == 0)) {
            label = t[0] == '+';
            continue;
        }
        if (n == INLINE_MAX_TOKENS) return PL_ERANGE;
        tokens[n++] = t;
    }
    return pl_builder_add_tokens(b, label, tokens, n);
}

PlStatus pl_corpus_inline(const char *spec, const PlCorpusOpts *opts, PlCorpus **out, PlErr *err) {
    *out = NULL;
    const char *body = strncmp(spec, "inline:", 7) == 0 ? spec + 7 : spec;
    char *copy = strdup(body);
    if (!copy) return pl_err_set(err, PL_ENOMEM, "out of memory for an inline corpus");
    PlCorpusBuilder b;
    pl_builder_init(&b);
    PlStatus st = PL_OK;
    int rows = 0;
    char *save = NULL;
    for (char *row = strtok_r(copy, "|", &save); row && !st; row = strtok_r(NULL, "|", &save), rows++)
        st = add_row(&b, row, rows);
    free(copy);
    if (!st && rows == 0) st = PL_EINPUT;
    if (st) {
        pl_builder_done(&b);
        if (st == PL_ENOMEM) return pl_err_set(err, st, "out of memory for an inline corpus");
        return pl_err_set(err, PL_EINPUT,
                          "corpus '%.60s': an inline corpus is rows of at most %d tokens separated by |", spec,
                          INLINE_MAX_TOKENS);
    }
    return pl_builder_finish(&b, opts, spec, out, err);
}
