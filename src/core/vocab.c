#include "vocab.h"

#include <stdlib.h>
#include <string.h>

void pl_vocab_init(PlVocab *v) { memset(v, 0, sizeof *v); }

void pl_vocab_done(PlVocab *v) {
    if (!v) return;
    free(v->off);
    free(v->count);
    free(v->arena);
    free(v->slots);
    memset(v, 0, sizeof *v);
}

/* 64 bits of hash, eight bytes at a time (a multiply-xorshift mix): the
 * words are short, and a byte-at-a-time hash spends a multiply per letter.
 * The value only places words in slots; ids never depend on it. */
/* The bytes of a word shorter than 8 as a zero-padded little-endian word,
 * from loads inside it: two overlapping 4-byte loads, or three single
 * bytes (a byte loaded twice lands on itself). A byte-at-a-time copy to
 * the stack would stall the 8-byte load that reads it back. */
static uint64_t load_short(const char *w, size_t len) {
    if (len >= 4) {
        uint32_t lo, hi;
        memcpy(&lo, w, 4);
        memcpy(&hi, w + len - 4, 4);
        return (uint64_t)lo | (uint64_t)hi << (8 * (len - 4));
    }
    if (len == 0) return 0;
    const unsigned char *u = (const unsigned char *)w;
    return (uint64_t)u[0] | (uint64_t)u[len / 2] << (8 * (len / 2)) | (uint64_t)u[len - 1] << (8 * (len - 1));
}

/* 64 bits of hash, eight bytes at a time (a multiply-xorshift mix): the
 * words are short, and a byte-at-a-time hash spends a multiply per letter.
 * The value only places words in slots; ids never depend on it. */
static uint64_t word_hash(const char *w, size_t len) {
    uint64_t h = 0x9E3779B97F4A7C15u ^ (uint64_t)len;
    for (; len >= 8; w += 8, len -= 8) {
        uint64_t x;
        memcpy(&x, w, 8);
        h = (h ^ x) * 0xff51afd7ed558ccdu;
        h ^= h >> 32;
    }
    if (len) h = (h ^ load_short(w, len)) * 0xc4ceb9fe1a85ec53u;
    h ^= h >> 29;
    h *= 0xff51afd7ed558ccdu;
    return h ^ (h >> 32);
}

static size_t word_len(const PlVocab *v, int i) {
    size_t end = i + 1 < v->n ? v->off[i + 1] : v->arena_len;
    return end - v->off[i] - 1;
}

static uint64_t word_head(const char *w, size_t len) {
    uint64_t x;
    if (len < 8) return load_short(w, len);
    memcpy(&x, w, 8);
    return x;
}

/* Whether a[8..len) equals w[8..len), for len >= 8: up to 16 bytes by the
 * one 8-byte word that ends them (overlapping the heads, already equal). */
static int same_rest(const char *a, const char *w, size_t len) {
    if (len > 16) return memcmp(a + 8, w + 8, len - 8) == 0;
    uint64_t x, y;
    memcpy(&x, a + len - 8, 8);
    memcpy(&y, w + len - 8, 8);
    return x == y;
}

/* Slot where word (of hash h) lives or would go. */
static size_t probe(const PlVocab *v, const char *w, size_t len, uint64_t h) {
    size_t mask = v->nslots - 1, s = (size_t)h & mask;
    uint32_t tag = (uint32_t)(h >> 32);
    uint64_t head = word_head(w, len);
    for (;; s = (s + 1) & mask) {
        const PlVocabSlot *sl = &v->slots[s];
        if (!sl->idx1) return s;
        if (sl->hash != tag || sl->head != head) continue;
        /* Shorter than 8: the zero after it is in head too, so the heads hold both whole words. */
        if (len < 8) return s;
        if (word_len(v, sl->idx1 - 1) == len && same_rest(v->arena + v->off[sl->idx1 - 1], w, len)) return s;
    }
}

int pl_vocab_find(const PlVocab *v, const char *word, size_t len) {
    if (v->nslots == 0) return -1;
    size_t s = probe(v, word, len, word_hash(word, len));
    return v->slots[s].idx1 - 1;
}

static PlStatus rehash(PlVocab *v) {
    size_t nslots = v->nslots ? v->nslots * 2 : 1024;
    PlVocabSlot *slots = calloc(nslots, sizeof *slots);
    if (!slots) return PL_ENOMEM;
    free(v->slots);
    v->slots = slots;
    v->nslots = nslots;
    for (int i = 0; i < v->n; i++) {
        const char *w = v->arena + v->off[i];
        size_t len = word_len(v, i);
        uint64_t h = word_hash(w, len);
        v->slots[probe(v, w, len, h)] = (PlVocabSlot){word_head(w, len), (uint32_t)(h >> 32), i + 1};
    }
    return PL_OK;
}

static PlStatus grow_words(PlVocab *v) {
    int cap = v->cap ? v->cap * 2 : 1024;
    size_t *off = realloc(v->off, (size_t)cap * sizeof *off);
    if (!off) return PL_ENOMEM;
    v->off = off;
    int64_t *count = realloc(v->count, (size_t)cap * sizeof *count);
    if (!count) return PL_ENOMEM;
    v->count = count;
    v->cap = cap;
    return PL_OK;
}

static PlStatus arena_push(PlVocab *v, const char *w, size_t len) {
    if (v->arena_len + len + 1 > v->arena_cap) {
        size_t cap = v->arena_cap ? v->arena_cap : 16384;
        while (cap < v->arena_len + len + 1) cap *= 2;
        char *a = realloc(v->arena, cap);
        if (!a) return PL_ENOMEM;
        v->arena = a;
        v->arena_cap = cap;
    }
    memcpy(v->arena + v->arena_len, w, len);
    v->arena[v->arena_len + len] = '\0';
    v->off[v->n] = v->arena_len;
    v->arena_len += len + 1;
    return PL_OK;
}

/* Interns word (of hash h; there is room in the slots) without counting it:
 * a new word's count starts at 0. */
static PlStatus intern_hashed(PlVocab *v, const char *word, size_t len, uint64_t h, int *idx) {
    size_t s = probe(v, word, len, h);
    if (v->slots[s].idx1) {
        *idx = v->slots[s].idx1 - 1;
        return PL_OK;
    }
    if (v->n == INT32_MAX - 4) return PL_ENOMEM;
    if (v->n == v->cap && grow_words(v)) return PL_ENOMEM;
    if (arena_push(v, word, len)) return PL_ENOMEM;
    v->count[v->n] = 0;
    v->slots[s] = (PlVocabSlot){word_head(word, len), (uint32_t)(h >> 32), v->n + 1};
    *idx = v->n++;
    return PL_OK;
}

PlStatus pl_vocab_add(PlVocab *v, const char *word, size_t len, int *idx) {
    if ((size_t)(v->n + 1) * 2 > v->nslots && rehash(v)) return PL_ENOMEM;
    PlStatus st = intern_hashed(v, word, len, word_hash(word, len), idx);
    if (st == PL_OK) v->count[*idx]++;
    return st;
}

#define RUN_AHEAD 8 /* words between asking for a slot and probing it */

PlStatus pl_vocab_intern_run(PlVocab *v, const char *const *word, const size_t *len, int n, int *idx) {
    while ((size_t)(v->n + n + 1) * 2 > v->nslots)
        if (rehash(v)) return PL_ENOMEM; /* before the run: the slots asked for stay put */
    uint64_t h[RUN_AHEAD];
    size_t mask = v->nslots - 1;
    for (int i = 0; i < n + RUN_AHEAD; i++) {
        if (i >= RUN_AHEAD &&
            intern_hashed(v, word[i - RUN_AHEAD], len[i - RUN_AHEAD], h[i % RUN_AHEAD], &idx[i - RUN_AHEAD]))
            return PL_ENOMEM;
        if (i < n) {
            h[i % RUN_AHEAD] = word_hash(word[i], len[i]);
            __builtin_prefetch(&v->slots[h[i % RUN_AHEAD] & mask]);
        }
    }
    return PL_OK;
}

void pl_vocab_recount(PlVocab *v, const int32_t *ids, int64_t n, int first) {
    memset(v->count, 0, (size_t)v->n * sizeof *v->count);
    for (int64_t k = 0; k < n; k++)
        if (ids[k] >= first) v->count[ids[k] - first]++;
}

typedef struct {
    int64_t count;
    int idx;
} CountIdx;

static int by_count_then_first(const void *a, const void *b) {
    const CountIdx *x = a, *y = b;
    if (x->count != y->count) return x->count > y->count ? -1 : 1;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

PlStatus pl_vocab_rank(const PlVocab *v, int *rank) {
    CountIdx *order = malloc((size_t)(v->n ? v->n : 1) * sizeof *order);
    if (!order) return PL_ENOMEM;
    for (int i = 0; i < v->n; i++) order[i] = (CountIdx){v->count[i], i};
    qsort(order, (size_t)v->n, sizeof *order, by_count_then_first);
    for (int r = 0; r < v->n; r++) rank[order[r].idx] = r;
    free(order);
    return PL_OK;
}
