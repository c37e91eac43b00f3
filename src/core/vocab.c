#include "vocab.h"

#include <stdlib.h>
#include <string.h>

#include "rng.h"

void pl_vocab_init(PlVocab *v) { memset(v, 0, sizeof *v); }

void pl_vocab_done(PlVocab *v) {
    if (!v) return;
    free(v->off);
    free(v->count);
    free(v->arena);
    free(v->slots);
    memset(v, 0, sizeof *v);
}

static int word_equals(const PlVocab *v, int i, const char *w, size_t len) {
    const char *s = v->arena + v->off[i];
    return strncmp(s, w, len) == 0 && s[len] == '\0';
}

/* Slot where word lives or would go. */
static size_t probe(const PlVocab *v, const char *w, size_t len) {
    size_t mask = v->nslots - 1;
    size_t s = (size_t)pl_fnv1a(w, len) & mask;
    while (v->slots[s] && !word_equals(v, v->slots[s] - 1, w, len)) s = (s + 1) & mask;
    return s;
}

int pl_vocab_find(const PlVocab *v, const char *word, size_t len) {
    if (v->nslots == 0) return -1;
    size_t s = probe(v, word, len);
    return v->slots[s] - 1;
}

static PlStatus rehash(PlVocab *v) {
    size_t nslots = v->nslots ? v->nslots * 2 : 1024;
    int *slots = calloc(nslots, sizeof *slots);
    if (!slots) return PL_ENOMEM;
    free(v->slots);
    v->slots = slots;
    v->nslots = nslots;
    for (int i = 0; i < v->n; i++) {
        const char *w = v->arena + v->off[i];
        v->slots[probe(v, w, strlen(w))] = i + 1;
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

PlStatus pl_vocab_add(PlVocab *v, const char *word, size_t len, int *idx) {
    if ((size_t)(v->n + 1) * 2 > v->nslots && rehash(v)) return PL_ENOMEM;
    size_t s = probe(v, word, len);
    if (v->slots[s]) {
        *idx = v->slots[s] - 1;
        v->count[*idx]++;
        return PL_OK;
    }
    if (v->n == INT32_MAX - 4) return PL_ENOMEM;
    if (v->n == v->cap && grow_words(v)) return PL_ENOMEM;
    if (arena_push(v, word, len)) return PL_ENOMEM;
    v->count[v->n] = 1;
    v->slots[s] = v->n + 1;
    *idx = v->n++;
    return PL_OK;
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
