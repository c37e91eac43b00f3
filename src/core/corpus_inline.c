/* The inline corpus: a few rows written out in the corpus spec itself, so a
 * lesson can show a case no corpus holds ("inline:0 0 0 great film|bad").
 *
 *   inline:ROW|ROW|...     a row is tokens separated by spaces, kept exactly
 *                          as written (no start token is added); 0 or <pad>,
 *                          <start> and <oov> are those ids; a word is cleaned
 *                          as any review is; a leading + or - sets the label
 *                          (by default the rows alternate 1, 0, 1, ...).
 *   inline:xN|ROW|...      the rows N times over (N from 1 to 1000): enough
 *                          reviews to hold out a validation split that can
 *                          tell a model from chance. */
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

#define INLINE_MAX_REPEAT 1000

/* The repeat count of a first row "xN" (spaces around it allowed): N, 0
 * when the row is no count, -1 when it is one out of range. */
static int repeat_count(const char *row) {
    while (*row == ' ' || *row == '\t') row++;
    if (row[0] != 'x' || row[1] < '0' || row[1] > '9') return 0;
    char *end;
    long n = strtol(row + 1, &end, 10);
    while (*end == ' ' || *end == '\t') end++;
    if (*end) return 0;
    return n >= 1 && n <= INLINE_MAX_REPEAT ? (int)n : -1;
}

/* Adds every row of body (after its count, when it has one). */
static PlStatus add_rows(PlCorpusBuilder *b, const char *body, int *rows) {
    size_t n = strcspn(body, "|");
    char first[64];
    snprintf(first, sizeof first, "%.*s", (int)(n < sizeof first ? n : sizeof first - 1), body);
    int times = n < sizeof first ? repeat_count(first) : 0;
    if (times < 0) return PL_EINPUT;
    if (times) body += body[n] ? n + 1 : n;
    PlStatus st = PL_OK;
    for (int k = 0; k < (times ? times : 1) && !st; k++) {
        char *copy = strdup(body), *save = NULL;
        if (!copy) return PL_ENOMEM;
        for (char *row = strtok_r(copy, "|", &save); row && !st; row = strtok_r(NULL, "|", &save), (*rows)++)
            st = add_row(b, row, *rows);
        free(copy);
    }
    return st;
}

PlStatus pl_corpus_inline(const char *spec, const PlCorpusOpts *opts, PlCorpus **out, PlErr *err) {
    *out = NULL;
    const char *body = strncmp(spec, "inline:", 7) == 0 ? spec + 7 : spec;
    PlCorpusBuilder b;
    pl_builder_init(&b);
    int rows = 0;
    PlStatus st = add_rows(&b, body, &rows);
    if (!st && rows == 0) st = PL_EINPUT;
    if (st) {
        pl_builder_done(&b);
        if (st == PL_ENOMEM) return pl_err_set(err, st, "out of memory for an inline corpus");
        return pl_err_set(err, PL_EINPUT,
                          "corpus '%.60s': an inline corpus is rows of at most %d tokens separated by |, after an "
                          "optional xN (N from 1 to %d) that repeats them",
                          spec, INLINE_MAX_TOKENS, INLINE_MAX_REPEAT);
    }
    return pl_builder_finish(&b, opts, spec, out, err);
}
