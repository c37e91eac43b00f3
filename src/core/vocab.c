#include "vocab.h"

#include <stdlib.h>
#include <string.h>

#include "hugepage.h"

void pl_vocab_init(PlVocab *v) { memset(v, 0, sizeof *v); }

void pl_vocab_done(PlVocab *v) {
    if (!v) return;
    free(v->off);
    free(v->count);
    free(v->head2);
    free(v->arena);
    free(v->slots_mem);
    memset(v, 0, sizeof *v);
}

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

/* A word's first 16 bytes (zero-padded, little-endian) and its hash: the
 * slot holds the first, the second places it. */
typedef struct {
    uint64_t head, head2, h;
} Key;

static uint64_t mix(uint64_t h, uint64_t x) {
    h = (h ^ x) * 0xff51afd7ed558ccdu;
    return h ^ (h >> 32);
}

/* 64 bits of hash from the heads and the bytes past 16, eight bytes at a
 * time (a multiply-xorshift mix): the words are short, and a byte-at-a-time
 * hash spends a multiply per letter. The value only places words in slots;
 * ids never depend on it. Inlined: returned through the stack, the key was
 * read back as 16 bytes from two 8-byte stores, a stalled forward a word. */
static inline __attribute__((always_inline)) Key key_of_heads(const char *w, size_t len, uint64_t head,
                                                              uint64_t head2) {
    uint64_t h = mix(mix(0x9E3779B97F4A7C15u ^ (uint64_t)len, head), head2);
    for (size_t at = 16; at < len; at += 8) h = mix(h, word_head(w + at, len - at));
    h ^= h >> 29;
    h *= 0xc4ceb9fe1a85ec53u;
    return (Key){head, head2, h ^ (h >> 32)};
}

/* The key of a word whose bytes are all that may be read. */
static Key key_of(const char *w, size_t len) {
    return key_of_heads(w, len, word_head(w, len), len > 8 ? word_head(w + 8, len - 8) : 0);
}

/* The k lowest bytes of a 64-bit word set (k from 0 to 8 and beyond). */
static uint64_t low_bytes(size_t k) { return k >= 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * k)) - 1; }

/* The same key for a word followed by readable bytes up to its 16th: two
 * plain loads and masks, no branch on the length (the lengths of running
 * text follow no pattern a predictor learns). */
static Key key_of_padded(const char *w, size_t len) {
    uint64_t a, b;
    memcpy(&a, w, 8);
    memcpy(&b, w + 8, 8);
    return key_of_heads(w, len, a & low_bytes(len), b & low_bytes(len > 8 ? len - 8 : 0));
}

#define TAG_LEN_MAX 255 /* the length a tag holds; longer words all show this */

static uint32_t tag_of(Key k, size_t len) {
    return ((uint32_t)(k.h >> 32) & ~(uint32_t)TAG_LEN_MAX) | (uint32_t)(len < TAG_LEN_MAX ? len : TAG_LEN_MAX);
}

/* Whether word i, whose slot's tag and head match w's, is w: words hold
 * no NUL, so of one length up to 8 bytes, equal heads are equal words. */
static inline int same_word(const PlVocab *v, int i, const char *w, size_t len, Key k) {
    if (len <= 8) return 1;
    if (v->head2[i] != k.head2) return 0;
    if (len <= 16) return 1;
    if (len >= TAG_LEN_MAX && word_len(v, i) != len) return 0;
    return memcmp(v->arena + v->off[i] + 16, w + 16, len - 16) == 0;
}

/* Slot where the word of key k lives or would go. Inlined into the run: a
 * call a word was a tenth of loading a large corpus. */
static inline __attribute__((always_inline)) size_t probe(const PlVocab *v, const char *w, size_t len, Key k) {
    size_t mask = v->nslots - 1, s = (size_t)k.h & mask;
    uint32_t tag = tag_of(k, len);
    for (;; s = (s + 1) & mask) {
        const PlVocabSlot *sl = &v->slots[s];
        if (!sl->idx1) return s;
        if (sl->tag == tag && sl->head == k.head && same_word(v, sl->idx1 - 1, w, len, k)) return s;
    }
}

static PlVocabSlot slot_of(Key k, size_t len, int idx) { return (PlVocabSlot){k.head, tag_of(k, len), idx + 1}; }

int pl_vocab_find(const PlVocab *v, const char *word, size_t len) {
    if (v->nslots == 0) return -1;
    size_t s = probe(v, word, len, key_of(word, len));
    return v->slots[s].idx1 - 1;
}

/* Moves the words to a table of nslots slots (a power of two). */
static PlStatus resize(PlVocab *v, size_t nslots) {
    /* Zeroed by a write, not calloc: a fresh mapping read first maps the
     * shared zero page, and every page's first store then faults again
     * (and stops the other threads' CPUs to flush their TLBs). */
    size_t bytes = nslots * sizeof(PlVocabSlot) + 64;
    void *mem = malloc(bytes);
    if (!mem) return PL_ENOMEM;
    pl_advise_huge(mem, bytes);
    memset(mem, 0, bytes);
    free(v->slots_mem);
    v->slots_mem = mem;
    v->slots = (PlVocabSlot *)(((uintptr_t)mem + 63) & ~(uintptr_t)63);
    v->nslots = nslots;
    for (int i = 0; i < v->n; i++) {
        const char *w = v->arena + v->off[i];
        size_t len = word_len(v, i);
        Key k = key_of(w, len);
        v->slots[probe(v, w, len, k)] = slot_of(k, len, i);
    }
    return PL_OK;
}

static PlStatus rehash(PlVocab *v) { return resize(v, v->nslots ? v->nslots * 2 : 1024); }

static PlStatus grow_words_to(PlVocab *v, int cap) {
    size_t *off = realloc(v->off, (size_t)cap * sizeof *off);
    if (!off) return PL_ENOMEM;
    v->off = off;
    int64_t *count = realloc(v->count, (size_t)cap * sizeof *count);
    if (!count) return PL_ENOMEM;
    v->count = count;
    uint64_t *head2 = realloc(v->head2, (size_t)cap * sizeof *head2);
    if (!head2) return PL_ENOMEM;
    v->head2 = head2;
    v->cap = cap;
    return PL_OK;
}

static PlStatus grow_words(PlVocab *v) { return grow_words_to(v, v->cap ? v->cap * 2 : 1024); }

PlStatus pl_vocab_reserve(PlVocab *v, int n) {
    size_t nslots = v->nslots ? v->nslots : 1024;
    while ((size_t)n + 1 > nslots / 2) nslots *= 2;
    if (nslots > v->nslots && resize(v, nslots)) return PL_ENOMEM;
    return n > v->cap ? grow_words_to(v, n) : PL_OK;
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

/* A new word at slot s (there is room in the slots), its count 0. */
static PlStatus add_new(PlVocab *v, const char *word, size_t len, Key k, size_t s, int *idx) {
    if (v->n == INT32_MAX - 4) return PL_ENOMEM;
    if (v->n == v->cap && grow_words(v)) return PL_ENOMEM;
    if (arena_push(v, word, len)) return PL_ENOMEM;
    v->count[v->n] = 0;
    v->head2[v->n] = k.head2;
    v->slots[s] = slot_of(k, len, v->n);
    *idx = v->n++;
    return PL_OK;
}

/* Interns word (of hash h; there is room in the slots) without counting it:
 * a new word's count starts at 0. Inlined into the run, the common case (a
 * word seen before) a probe and no call. */
static inline __attribute__((always_inline)) PlStatus intern_keyed(PlVocab *v, const char *word, size_t len, Key k,
                                                                   int *idx) {
    size_t s = probe(v, word, len, k);
    if (v->slots[s].idx1) {
        *idx = v->slots[s].idx1 - 1;
        return PL_OK;
    }
    return add_new(v, word, len, k, s, idx);
}

PlStatus pl_vocab_add(PlVocab *v, const char *word, size_t len, int *idx) {
    if ((size_t)(v->n + 1) * 2 > v->nslots && rehash(v)) return PL_ENOMEM;
    PlStatus st = intern_keyed(v, word, len, key_of(word, len), idx);
    if (st == PL_OK) v->count[*idx]++;
    return st;
}

#define RUN_MAX 64 /* words whose slots are asked for before the first is probed */

/* Interns a run of words, each slot asked for before the first is probed;
 * padded: each word may be read up to its 16th byte. */
static inline PlStatus intern_run(PlVocab *v, const char *const *word, const size_t *len, int n, int *idx, int padded) {
    while ((size_t)(v->n + n + 1) * 2 > v->nslots)
        if (rehash(v)) return PL_ENOMEM; /* before the run: the slots asked for stay put */
    Key key[RUN_MAX];
    size_t mask = v->nslots - 1;
    for (int at = 0; at < n; at += RUN_MAX) {
        int k = n - at < RUN_MAX ? n - at : RUN_MAX;
        for (int i = 0; i < k; i++) {
            key[i] = padded ? key_of_padded(word[at + i], len[at + i]) : key_of(word[at + i], len[at + i]);
            __builtin_prefetch(&v->slots[key[i].h & mask]);
        }
        for (int i = 0; i < k; i++)
            if (intern_keyed(v, word[at + i], len[at + i], key[i], &idx[at + i])) return PL_ENOMEM;
    }
    return PL_OK;
}

PlStatus pl_vocab_intern_run(PlVocab *v, const char *const *word, const size_t *len, int n, int *idx) {
    return intern_run(v, word, len, n, idx, 0);
}

PlStatus pl_vocab_intern_run_padded(PlVocab *v, const char *const *word, const size_t *len, int n, int *idx) {
    return intern_run(v, word, len, n, idx, 1);
}

PlStatus pl_vocab_merge(PlVocab *v, const PlVocab *from, int *map) {
    const char *w[RUN_MAX];
    size_t len[RUN_MAX];
    for (int at = 0; at < from->n; at += RUN_MAX) {
        int k = from->n - at < RUN_MAX ? from->n - at : RUN_MAX;
        for (int i = 0; i < k; i++) w[i] = pl_vocab_word(from, at + i), len[i] = word_len(from, at + i);
        if (pl_vocab_intern_run(v, w, len, k, map + at)) return PL_ENOMEM;
        for (int i = 0; i < k; i++) v->count[map[at + i]] += from->count[at + i];
    }
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
