/* The corpus loaders, one per source: TSV text (corpus_tsv.c), an
 * aclImdb-style folder (corpus_dir.c), the generated corpus (builtin.c) and
 * a few rows written out in the spec (corpus_inline.c).
 * Each stands on the corpus type (corpus.h) and the builder
 * (corpus_build.h); choosing one from a spec is corpus_load.h's job.
 *
 * On success *out owns a new corpus (free it with pl_corpus_free). On
 * failure each returns a status, fills err with one line naming the file,
 * the line and what was expected, and leaves *out NULL. */
#ifndef PL_CORPUS_LOADERS_H
#define PL_CORPUS_LOADERS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "corpus.h"
#include "rng.h"

/* Reviews in the generated corpus when its spec names no count. */
#define PL_BUILTIN_COUNT 5000

/* TSV text in memory (LABEL<TAB>TEXT lines); name is used in messages. */
PlStatus pl_corpus_load_tsv_mem(const char *name, const char *buf, size_t n, const PlCorpusOpts *opts, PlCorpus **out,
                                PlErr *err);
/* The same from a TSV file. */
PlStatus pl_corpus_load_tsv(const char *path, const PlCorpusOpts *opts, PlCorpus **out, PlErr *err);
/* The same from f (open on path, of size bytes), cut at line ends into
 * nparts parts tokenized side by side (1: one pass). The corpus is the one
 * a single pass gives, whatever nparts; pl_corpus_load_tsv picks nparts from
 * the file's size and the cores. */
PlStatus pl_corpus_load_tsv_parts(const char *path, FILE *f, uint64_t size, int nparts, const PlCorpusOpts *opts,
                                  PlCorpus **out, PlErr *err);
/* An aclImdb-style folder: ROOT/neg and ROOT/pos (or under train/ or test/). */
PlStatus pl_corpus_load_dir(const char *path, const PlCorpusOpts *opts, PlCorpus **out, PlErr *err);

/* A few rows written out: "inline:ROW|ROW|..." (corpus_inline.c says how a
 * row is read). */
PlStatus pl_corpus_inline(const char *spec, const PlCorpusOpts *opts, PlCorpus **out, PlErr *err);

/* The generated corpus: count review-like sequences from seed. */
typedef struct {
    PlSeed seed;
    int count;    /* reviews */
    int positive; /* the percentage of positive labels, 1 to 99 (50: balanced) */
} PlBuiltinSpec;
PlStatus pl_corpus_builtin(const PlBuiltinSpec *spec, const PlCorpusOpts *opts, PlCorpus **out, PlErr *err);

#endif
