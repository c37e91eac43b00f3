/* The tokenized-corpus cache: a corpus file's ids, labels and vocabulary,
 * kept after the first load so that the next command or lab start reads
 * them back instead of tokenizing the text again.
 *
 * Where: the folder the run's start named (pl_cache_configure; padlab's
 * main names $XDG_CACHE_HOME/padlab/corpus/, src/app/dirs.c), one file per key, the eight most recently used kept. The key is the digest of
 * the file's bytes and its size, the vocabulary cap (num_words) and the
 * tokenizer's fingerprint (the digest of a fixed text cleaned, so a change
 * to the tokenizer's rules makes new keys by itself): a changed file, other
 * options or another tokenizer never read an old entry.
 *
 * A cache file holds a header (magic, the key, the counts, a digest of the
 * rest), then offsets, ids, labels, word counts, the words' order by rank
 * and the words, NUL-terminated, in order of first appearance
 * (doc/formats.md). Reading checks the size
 * against the header before allocating, the digest, and every invariant a
 * corpus promises (corpus.h); any failure means "not cached", never an
 * error: the corpus is tokenized again and the entry rewritten.
 *
 * By default only files of 1 MiB or more go through it, for which reading the
 * cache beats tokenizing; the start-up's choice or a load's options may say
 * never (PL_CACHE_OFF) or files of any size (PL_CACHE_ALL). The core reads
 * no environment: PADLAB_CACHE is read by the app (src/app/dirs.c). */
#ifndef PL_CORPUS_CACHE_H
#define PL_CORPUS_CACHE_H

#include <stdint.h>
#include <stdio.h>

#include "corpus.h"

typedef struct {
    uint64_t digest; /* of the source's bytes */
    uint64_t size;   /* of the source, in bytes */
    int32_t num_words;
    uint64_t tokenizer; /* pl_cache_tokenizer() */
} PlCacheKey;

/* Sets the run's cache: its folder (NULL, empty or too long: no cache) and
 * what goes through it when a load's options say PL_CACHE_DEFAULT (which
 * here means files of 1 MiB or more). Called once at start-up, before any
 * load and any thread; without a call there is no cache. */
void pl_cache_configure(const char *dir, PlCacheUse use);

/* 1 when a source of size bytes should go through the cache, as use says
 * (PL_CACHE_DEFAULT: as pl_cache_configure was told). */
int pl_cache_wanted(uint64_t size, PlCacheUse use);

/* Reads f (open at its start) to the end and fills key; rewinds f.
 * Returns PL_EIO when f cannot be read (the caller then reads it as usual
 * and reports the failure). */
PlStatus pl_cache_key(FILE *f, uint64_t size, int num_words, PlCacheKey *key);

/* The entry's path for key in buf; 0 when there is no cache folder (none
 * configured, or the name does not fit). */
int pl_cache_path(const PlCacheKey *key, char *buf, size_t cap);

/* Reads the entry at path into a new corpus. PL_OK with *out set, or a
 * non-zero status (absent, unreadable, another key, damaged) with *out NULL. */
PlStatus pl_cache_read(const char *path, const PlCacheKey *key, PlCorpus **out);

/* Writes c as the entry at path (atomically: a temporary file renamed),
 * creating the folders, then drops the least recently used entries beyond
 * eight. Failure leaves no entry and is otherwise harmless. */
PlStatus pl_cache_write(const char *path, const PlCacheKey *key, const PlCorpus *c);

/* The tokenizer's fingerprint. */
uint64_t pl_cache_tokenizer(void);

#endif
