/* Choosing a corpus loader from a spec: the one entry point the lab, the
 * commands and the tests load a corpus through. It stands on the loaders
 * (corpus_loaders.h); nothing below it includes this header. */
#ifndef PL_CORPUS_LOAD_H
#define PL_CORPUS_LOAD_H

#include "corpus.h"

/* Loads a corpus named by spec: "builtin", "builtin:SEED" or
 * "builtin:SEED:COUNT" for the generated corpus; "inline:ROW|ROW|..." for a
 * few rows written out; otherwise a path to a TSV file
 * (LABEL<TAB>TEXT) or an aclImdb-style folder. On success *out owns a new
 * corpus (free it with pl_corpus_free). On failure returns a status, fills err
 * with one line naming the file, the line and what was expected, and leaves
 * *out NULL. */
PlStatus pl_corpus_load(const char *spec, const PlCorpusOpts *opts, PlCorpus **out, PlErr *err);

/* Whether spec reads as a corpus without loading it: a builtin spec is
 * parsed (its COUNT and POSITIVE in range); any other spec is PL_OK, a file
 * being read only when it is loaded. */
PlStatus pl_corpus_spec_check(const char *spec, PlErr *err);

#endif
