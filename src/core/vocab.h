/* A word table: interns words and counts them, in order of first appearance.
 *
 * Layout: words live back to back, NUL-terminated, in one growing arena;
 * word i starts at off[i]; an open-addressing hash (FNV-1a, linear probing,
 * load <= 1/2) maps a word to its index. */
#ifndef PL_VOCAB_H
#define PL_VOCAB_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

typedef struct {
    int n;            /* words interned */
    int cap;          /* capacity of off and count */
    size_t *off;      /* (cap) start of word i in arena */
    int64_t *count;   /* (cap) occurrences of word i */
    char *arena;
    size_t arena_len, arena_cap;
    int *slots;       /* (nslots) word index + 1, 0 = empty */
    size_t nslots;
} PlVocab;

void pl_vocab_init(PlVocab *v);
void pl_vocab_done(PlVocab *v);

/* Adds one occurrence of word[0..len) and stores its index in *idx.
 * Returns PL_ENOMEM when the table cannot grow. */
PlStatus pl_vocab_add(PlVocab *v, const char *word, size_t len, int *idx);

/* Index of word, or -1. */
int pl_vocab_find(const PlVocab *v, const char *word, size_t len);

static inline const char *pl_vocab_word(const PlVocab *v, int i) { return v->arena + v->off[i]; }

/* Fills rank[i] with the position of word i when words are sorted by
 * descending count, ties kept in order of first appearance. rank has v->n
 * entries. Returns PL_ENOMEM on allocation failure. */
PlStatus pl_vocab_rank(const PlVocab *v, int *rank);

#endif
