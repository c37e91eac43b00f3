/* A corpus: labelled sequences of token ids and the vocabulary behind them.
 *
 * Layout: sequence i is ids[offsets[i] .. offsets[i+1]); every sequence starts
 * with PL_START_ID. Ids: 0 = pad, 1 = start, 2 = out of vocabulary, then the
 * words by descending count over the whole corpus (ties: first appearance),
 * the most frequent word being 3. Ids at or above num_words are stored as
 * PL_OOV_ID; the full vocabulary is kept so every id maps back to a word.
 * An aclImdb-style folder's reviews alternate neg, pos, neg, ...
 *
 * This header is the type and its accessors only. The loaders that make a
 * corpus stand on it and on the builder (corpus_build.h) and are declared in
 * corpus_loaders.h; choosing one from a spec is corpus_load.h. */
#ifndef PL_CORPUS_H
#define PL_CORPUS_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "vocab.h"

enum { PL_PAD_ID = 0, PL_START_ID = 1, PL_OOV_ID = 2, PL_FIRST_WORD_ID = 3 };

#define PL_DEFAULT_NUM_WORDS 10000

/* Whether a TSV file goes through the corpus cache (corpus_cache.h). */
typedef enum {
    PL_CACHE_DEFAULT = 0, /* as the run's start chose (pl_cache_configure) */
    PL_CACHE_OFF,         /* never read nor written */
    PL_CACHE_ALL,         /* files of any size */
    PL_CACHE_LARGE        /* files of 1 MiB or more */
} PlCacheUse;

typedef struct {
    int num_words;    /* keep ids below this; 0 = the default (10000) */
    PlCacheUse cache; /* 0 = as the run's start chose */
} PlCorpusOpts;

typedef struct {
    int n;                   /* sequences */
    int64_t *offsets;        /* (n+1) */
    int32_t *ids;            /* (offsets[n]) read-only: it may live in a read-only mapping */
    uint8_t *labels;         /* (n) 0 or 1 */
    int num_words;           /* every stored id is below this */
    int vocab_size;          /* 3 reserved ids + distinct words */
    PlVocab vocab;           /* words in order of first appearance */
    int *word_of_id;         /* (vocab_size - 3) vocab index of id 3, 4, ... */
    int *rank_of_word;       /* (vocab_size - 3) id - 3 of vocab index i */
    char source[512];        /* what was loaded, for display */
    int skipped;             /* folder loaders: entries left out for not being regular files */
    char skipped_first[256]; /* the first of them (its path) */
    void *map;               /* read from the cache: the mapped entry ids points into, else NULL */
    size_t map_len;
} PlCorpus;

/* Frees c and everything it owns; pl_corpus_free(NULL) does nothing. */
void pl_corpus_free(PlCorpus *c);

static inline int pl_corpus_len(const PlCorpus *c, int i) { return (int)(c->offsets[i + 1] - c->offsets[i]); }
static inline const int32_t *pl_corpus_seq(const PlCorpus *c, int i) { return c->ids + c->offsets[i]; }

/* The word of an id ("<pad>", "<start>", "<oov>" for the reserved ones,
 * "<?>" for an id outside the vocabulary). Borrowed; valid while c lives. */
const char *pl_corpus_word(const PlCorpus *c, int id);

/* Id of a word in the full vocabulary (ignoring num_words), or -1. */
int pl_corpus_word_id(const PlCorpus *c, const char *word);

/* Fills len[i] with the length of sequence i (start token included). */
void pl_corpus_lengths(const PlCorpus *c, int *len);

/* The longest sequence's length (start token included); 0 when c has none. */
int pl_corpus_longest(const PlCorpus *c);

/* A digest of what a training reads from c: its counts, every sequence's
 * ids, the labels and the words behind the ids, in the host's byte order.
 * Two corpora with one digest train to the same bits; the source's name and
 * the cache play no part. Can't fail. */
uint64_t pl_corpus_digest(const PlCorpus *c);

#endif
