/* A word table: interns words and counts them, in order of first appearance.
 *
 * Layout: words live back to back, NUL-terminated, in one growing arena;
 * word i starts at off[i] (so its length is where word i+1 starts, less
 * one); an open-addressing hash (a word-at-a-time multiply hash, linear
 * probing, load <= 1/2) maps a word to its index. Each slot keeps the
 * word's first 8 bytes, a tag (24 bits of hash and the length) and its
 * index, in 16 bytes: the table of a large corpus takes half the cache
 * it took at 32 (a load's lookups wait on its lines more than on
 * anything). A word of up to 8 bytes (most of them) is found in its slot
 * alone; a longer one also reads its bytes 8..16 from head2, which holds
 * the frequent words, first seen, side by side. */
#ifndef PL_VOCAB_H
#define PL_VOCAB_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

typedef struct {
    uint64_t head; /* the word's bytes 0..8, zero-padded */
    uint32_t tag;  /* high 24 bits of the word's hash, then its length (255 for any longer) */
    int32_t idx1;  /* word index + 1, 0 = empty */
} PlVocabSlot;     /* 16 bytes: four to a cache line */

typedef struct {
    int n;          /* words interned */
    int cap;        /* capacity of off, count and head2 */
    size_t *off;    /* (cap) start of word i in arena */
    int64_t *count; /* (cap) occurrences of word i */
    uint64_t *head2; /* (cap) bytes 8..16 of word i, zero-padded */
    char *arena;
    size_t arena_len, arena_cap;
    PlVocabSlot *slots; /* (nslots) aligned to 64 bytes inside slots_mem */
    void *slots_mem;
    size_t nslots;
} PlVocab;

void pl_vocab_init(PlVocab *v);
void pl_vocab_done(PlVocab *v);

/* Adds one occurrence of word[0..len) and stores its index in *idx.
 * Returns PL_ENOMEM when the table cannot grow. */
PlStatus pl_vocab_add(PlVocab *v, const char *word, size_t len, int *idx);

/* Interns n words (word[i] of len[i] bytes) and stores their indices in
 * idx, without counting them (a new word's count is 0; the caller counts
 * them by their indices): each word's slot is asked for a few words ahead,
 * so the cache misses of a large table overlap, and no count is touched, so
 * none of their misses waits on another. Returns PL_ENOMEM when the table
 * cannot grow (the words before are interned). */
PlStatus pl_vocab_intern_run(PlVocab *v, const char *const *word, const size_t *len, int n, int *idx);
/* The same for words each followed by bytes that may be read up to its
 * 16th (what follows a word plays no part): loading a word's head then
 * needs no branch on its length. */
PlStatus pl_vocab_intern_run_padded(PlVocab *v, const char *const *word, const size_t *len, int n, int *idx);

/* Interns from's words into v in from's order, adding their counts, as if
 * v had been given from's text after its own; map[i] gets the index in v
 * of from's word i (map holds from->n). Returns PL_ENOMEM when v cannot
 * grow (then some of from's words may be in v). */
PlStatus pl_vocab_merge(PlVocab *v, const PlVocab *from, int *map);

/* Makes room for n words in all: no table growth while they are added. */
PlStatus pl_vocab_reserve(PlVocab *v, int n);

/* Index of word, or -1. */
int pl_vocab_find(const PlVocab *v, const char *word, size_t len);

static inline const char *pl_vocab_word(const PlVocab *v, int i) { return v->arena + v->off[i]; }

/* Fills rank[i] with the position of word i when words are sorted by
 * descending count, ties kept in order of first appearance. rank has v->n
 * entries. Returns PL_ENOMEM on allocation failure. */
PlStatus pl_vocab_rank(const PlVocab *v, int *rank);

#endif
