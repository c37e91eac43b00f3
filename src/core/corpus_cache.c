#include "corpus_cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic.h"
#include "corpus_build.h"
#include "digest.h"
#include "folder.h"
#include "infile.h"
#include "text.h"

#define CACHE_VERSION 2u
#define CACHE_KEEP 8                       /* entries kept, the most recently used */
#define CACHE_MIN_BYTES (1u << 20)         /* smaller sources are tokenized every time */
#define CACHE_MAX_COUNT ((int64_t)1 << 40) /* ids, bytes of words: far beyond any corpus file */
#define CHUNK ((size_t)1 << 20)

static const char magic[8] = {'p', 'a', 'd', 'l', 'a', 'b', 'T', '\1'};

typedef struct {
    char magic[8];
    uint32_t version, header_bytes;
    uint64_t digest, size, tokenizer;
    int32_t num_words, n;
    int64_t n_ids;
    int32_t vocab_n, reserved;
    int64_t arena_len;
    uint64_t payload; /* digest of everything after the header */
} CacheHeader;

_Static_assert(sizeof(CacheHeader) == 80, "the cache header has no padding");

/* The run's cache, as pl_cache_configure was told: set once at start-up,
 * before any load, then only read. No folder: no cache. */
static char cache_folder[3072];
static PlCacheUse cache_use = PL_CACHE_LARGE;

void pl_cache_configure(const char *dir, PlCacheUse use) {
    int fits = dir && snprintf(cache_folder, sizeof cache_folder, "%s", dir) < (int)sizeof cache_folder;
    if (!fits) cache_folder[0] = '\0';
    cache_use = use == PL_CACHE_DEFAULT ? PL_CACHE_LARGE : use;
}

int pl_cache_wanted(uint64_t size, PlCacheUse use) {
    if (use == PL_CACHE_DEFAULT) use = cache_use;
    return use == PL_CACHE_ALL || (use == PL_CACHE_LARGE && size >= CACHE_MIN_BYTES);
}

uint64_t pl_cache_tokenizer(void) {
    /* Every rule of text.h meets this text: a tag, capitals, Latin-1
     * letters, punctuation, a tab, a byte that is not UTF-8. */
    static const char sample[] = "It's <br />GREAT, \xc3\x80 la \xc3\xa9t\xc3\xa9! \"(no)\"\t3-d \xff end.";
    char out[256];
    size_t n = pl_text_clean(sample, sizeof sample - 1, out);
    return pl_digest(CACHE_VERSION, out, n);
}

#define WINDOW ((size_t)64 << 20) /* bytes of the source mapped at a time */

/* Adds f's bytes from its start to d, through mappings of a window at a
 * time (the text never all in memory at once); 0 if a window can't be mapped. */
static int digest_mapped(FILE *f, uint64_t size, PlDigest *d) {
    for (uint64_t at = 0; at < size; at += WINDOW) {
        size_t len = size - at < WINDOW ? (size_t)(size - at) : WINDOW;
        void *m = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fileno(f), (off_t)at);
        if (m == MAP_FAILED) return 0;
        pl_digest_add(d, m, len);
        munmap(m, len);
    }
    return 1;
}

static int digest_read(FILE *f, PlDigest *d) {
    char *buf = malloc(CHUNK);
    if (!buf) return 0;
    size_t got;
    while ((got = fread(buf, 1, CHUNK, f)) > 0) pl_digest_add(d, buf, got);
    free(buf);
    return !ferror(f);
}

/* The digest of f's size bytes. */
static int digest_file(FILE *f, uint64_t size, uint64_t *out) {
    PlDigest d;
    pl_digest_init(&d, 0);
    if (!digest_mapped(f, size, &d)) {
        pl_digest_init(&d, 0);
        rewind(f);
        if (!digest_read(f, &d)) return 0;
    }
    *out = pl_digest_end(&d);
    return d.total == size;
}

PlStatus pl_cache_key(FILE *f, uint64_t size, int num_words, PlCacheKey *key) {
    uint64_t digest;
    int ok = digest_file(f, size, &digest);
    rewind(f);
    if (!ok) return PL_EIO;
    *key = (PlCacheKey){digest, size, num_words, pl_cache_tokenizer()};
    return PL_OK;
}

int pl_cache_path(const PlCacheKey *key, char *buf, size_t cap) {
    if (!cache_folder[0]) return 0;
    int n = snprintf(buf, cap, "%s/%016llx-%llu-w%d.corpus", cache_folder, (unsigned long long)key->digest,
                     (unsigned long long)key->size, (int)key->num_words);
    return n > 0 && (size_t)n < cap;
}

/* ---- reading ------------------------------------------------------------ */

static int header_fits(const CacheHeader *h, const PlCacheKey *key, uint64_t file_size) {
    if (memcmp(h->magic, magic, 8) || h->version != CACHE_VERSION || h->header_bytes != sizeof *h) return 0;
    if (h->digest != key->digest || h->size != key->size || h->tokenizer != key->tokenizer ||
        h->num_words != key->num_words || h->num_words <= PL_FIRST_WORD_ID)
        return 0;
    if (h->n < 1 || h->n >= INT32_MAX || h->n_ids < 0 || h->n_ids > CACHE_MAX_COUNT) return 0;
    if (h->vocab_n < 0 || h->vocab_n > INT32_MAX - 4 || h->arena_len < h->vocab_n || h->arena_len > CACHE_MAX_COUNT)
        return 0;
    uint64_t want = sizeof *h + 8 * ((uint64_t)h->n + 1) + 4 * (uint64_t)h->n_ids + (uint64_t)h->n +
                    12 * (uint64_t)h->vocab_n + (uint64_t)h->arena_len;
    return want == file_size;
}

static int offsets_ok(const int64_t *off, int n, int64_t n_ids) {
    if (off[0] != 0 || off[n] != n_ids) return 0;
    for (int i = 0; i < n; i++)
        if (off[i + 1] < off[i]) return 0;
    return 1;
}

static int ids_ok(const int32_t *ids, int64_t n, int32_t below) {
    int32_t lo = 0, hi = 0;
    for (int64_t k = 0; k < n; k++) {
        lo = ids[k] < lo ? ids[k] : lo;
        hi = ids[k] > hi ? ids[k] : hi;
    }
    return lo >= 0 && (n == 0 || hi < below);
}

static int labels_ok(const uint8_t *lab, int n) {
    uint8_t any = 0;
    for (int i = 0; i < n; i++) any |= lab[i];
    return any <= 1;
}

#define WORDS_AT_ONCE 64

/* Interns the words of arena[0..len) (NUL-terminated, vocab_n of them, none
 * empty, none twice) with their counts, a run at a time (the table's
 * misses overlap). */
static int words_ok(PlVocab *v, const char *arena, int64_t len, int vocab_n, const int64_t *count) {
    if ((len > 0 && arena[len - 1] != '\0') || pl_vocab_reserve(v, vocab_n)) return 0;
    const char *w[WORDS_AT_ONCE];
    size_t wl[WORDS_AT_ONCE];
    int idx[WORDS_AT_ONCE];
    int64_t at = 0;
    for (int i = 0; i < vocab_n; i += WORDS_AT_ONCE) {
        int k = vocab_n - i < WORDS_AT_ONCE ? vocab_n - i : WORDS_AT_ONCE;
        for (int j = 0; j < k; j++) {
            if (at >= len || count[i + j] < 1) return 0;
            w[j] = arena + at, wl[j] = strlen(w[j]);
            if (wl[j] == 0) return 0;
            at += (int64_t)wl[j] + 1;
        }
        if (pl_vocab_intern_run(v, w, wl, k, idx)) return 0;
        for (int j = 0; j < k; j++) {
            if (idx[j] != i + j) return 0; /* a word seen twice */
            v->count[i + j] = count[i + j];
        }
    }
    return at == len;
}

/* Takes the stored order of the words by rank (a permutation of 0..n) and its inverse. */
static int ranks_ok(PlCorpus *c, const unsigned char *stored, int n) {
    c->word_of_id = malloc((size_t)(n ? n : 1) * sizeof *c->word_of_id);
    c->rank_of_word = malloc((size_t)(n ? n : 1) * sizeof *c->rank_of_word);
    if (!c->word_of_id || !c->rank_of_word) return 0;
    memcpy(c->word_of_id, stored, (size_t)n * sizeof *c->word_of_id);
    for (int i = 0; i < n; i++) c->rank_of_word[i] = -1;
    for (int r = 0; r < n; r++) {
        int w = c->word_of_id[r];
        if (w < 0 || w >= n || c->rank_of_word[w] >= 0) return 0;
        c->rank_of_word[w] = r;
    }
    return 1;
}

/* Points c into the mapped entry at m (its header h already checked) and
 * checks all of it. The ids stay in the mapping; the offsets, the labels,
 * the counts and the ranks (unaligned there) are copied. */
static int take_body(const unsigned char *m, const CacheHeader *h, PlCorpus *c) {
    const unsigned char *p = m + sizeof *h;
    size_t off_bytes = ((size_t)h->n + 1) * 8, id_bytes = (size_t)h->n_ids * 4, count_bytes = (size_t)h->vocab_n * 8;
    size_t rank_bytes = (size_t)h->vocab_n * 4;
    size_t body = off_bytes + id_bytes + (size_t)h->n + count_bytes + rank_bytes + (size_t)h->arena_len;
    if (pl_digest(0, p, body) != h->payload) return 0;
    c->n = h->n;
    c->offsets = malloc(off_bytes);
    c->labels = malloc((size_t)h->n);
    int64_t *count = malloc(count_bytes ? count_bytes : 1);
    int ok = c->offsets && c->labels && count;
    if (ok) {
        memcpy(c->offsets, p, off_bytes);
        c->ids = (int32_t *)(void *)(p + off_bytes); /* 8-aligned: the header and the offsets are whole words */
        memcpy(c->labels, p + off_bytes + id_bytes, (size_t)h->n);
        const unsigned char *q = p + off_bytes + id_bytes + h->n;
        memcpy(count, q, count_bytes);
        const char *arena = (const char *)q + count_bytes + rank_bytes;
        int32_t below = h->num_words < h->vocab_n + PL_FIRST_WORD_ID ? h->num_words : h->vocab_n + PL_FIRST_WORD_ID;
        ok = offsets_ok(c->offsets, h->n, h->n_ids) && ids_ok(c->ids, h->n_ids, below) && labels_ok(c->labels, h->n) &&
             words_ok(&c->vocab, arena, h->arena_len, h->vocab_n, count) && ranks_ok(c, q + count_bytes, h->vocab_n);
    }
    free(count);
    return ok;
}

/* The whole entry, mapped read-only and faulted in at once; NULL if it can't be. */
static unsigned char *map_entry(const char *path, uint64_t *size) {
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0) return NULL;
    void *m = MAP_FAILED;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size >= sizeof(CacheHeader)) {
        *size = (uint64_t)st.st_size;
        m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    }
    close(fd);
    return m == MAP_FAILED ? NULL : m;
}

PlStatus pl_cache_read(const char *path, const PlCacheKey *key, PlCorpus **out) {
    *out = NULL;
    uint64_t size = 0;
    unsigned char *m = map_entry(path, &size);
    if (!m) return PL_EIO;
    CacheHeader h;
    memcpy(&h, m, sizeof h);
    PlCorpus *c = NULL;
    int ok = header_fits(&h, key, size) && (c = calloc(1, sizeof *c));
    if (ok) {
        c->map = m, c->map_len = (size_t)size; /* from here pl_corpus_free unmaps it */
        ok = take_body(m, &h, c);
    } else {
        munmap(m, (size_t)size);
    }
    if (ok) {
        c->num_words = h.num_words;
        c->vocab_size = h.vocab_n + PL_FIRST_WORD_ID;
    }
    if (!ok) {
        pl_corpus_free(c);
        return PL_EINPUT;
    }
    utimensat(AT_FDCWD, path, NULL, 0); /* most recently used */
    *out = c;
    return PL_OK;
}

/* ---- writing ------------------------------------------------------------ */

/* 1 when path's folder exists or was made (folder.h). */
static int make_dirs(const char *path) {
    char dir[4096];
    if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir) return 0;
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir) return 0;
    *slash = '\0';
    return pl_folder_make(dir, NULL) == PL_OK;
}

static int write_part(FILE *f, PlDigest *d, const void *p, size_t n) {
    pl_digest_add(d, p, n);
    return n == 0 || fwrite(p, 1, n, f) == n;
}

static int write_entry(FILE *f, const PlCacheKey *key, const PlCorpus *c) {
    const PlVocab *v = &c->vocab;
    CacheHeader h = {.version = CACHE_VERSION,
                     .header_bytes = sizeof h,
                     .digest = key->digest,
                     .size = key->size,
                     .tokenizer = key->tokenizer,
                     .num_words = key->num_words,
                     .n = c->n,
                     .n_ids = c->offsets[c->n],
                     .vocab_n = v->n,
                     .arena_len = (int64_t)v->arena_len};
    memcpy(h.magic, magic, 8);
    PlDigest d;
    pl_digest_init(&d, 0);
    if (fwrite(&h, sizeof h, 1, f) != 1 || !write_part(f, &d, c->offsets, ((size_t)c->n + 1) * sizeof *c->offsets) ||
        !write_part(f, &d, c->ids, (size_t)h.n_ids * sizeof *c->ids) || !write_part(f, &d, c->labels, (size_t)c->n) ||
        !write_part(f, &d, v->count, (size_t)v->n * sizeof *v->count) ||
        !write_part(f, &d, c->word_of_id, (size_t)v->n * sizeof *c->word_of_id) ||
        !write_part(f, &d, v->arena, v->arena_len))
        return 0;
    h.payload = pl_digest_end(&d);
    return fseek(f, 0, SEEK_SET) == 0 && fwrite(&h, sizeof h, 1, f) == 1;
}

typedef struct {
    char name[256];
    struct timespec used;
} Entry;

static int older(const Entry *a, const Entry *b) {
    if (a->used.tv_sec != b->used.tv_sec) return a->used.tv_sec < b->used.tv_sec;
    return a->used.tv_nsec < b->used.tv_nsec;
}

static int is_entry(const char *name) {
    size_t n = strlen(name);
    return n > 7 && n < 256 && strcmp(name + n - 7, ".corpus") == 0;
}

/* Removes the least recently used entry of dir while more than CACHE_KEEP remain. */
static void prune(const char *dir) {
    for (;;) {
        DIR *d = opendir(dir);
        if (!d) return;
        int count = 0;
        Entry oldest = {{0}, {0, 0}};
        struct dirent *e;
        while ((e = readdir(d))) {
            char p[4096 + 256];
            struct stat st;
            if (!is_entry(e->d_name) || snprintf(p, sizeof p, "%s/%s", dir, e->d_name) >= (int)sizeof p ||
                stat(p, &st) != 0)
                continue;
            Entry cur = {{0}, st.st_mtim};
            snprintf(cur.name, sizeof cur.name, "%s", e->d_name);
            if (count++ == 0 || older(&cur, &oldest)) oldest = cur;
        }
        closedir(d);
        char victim[4096 + 256];
        if (count <= CACHE_KEEP || snprintf(victim, sizeof victim, "%s/%s", dir, oldest.name) >= (int)sizeof victim ||
            unlink(victim) != 0)
            return;
    }
}

PlStatus pl_cache_write(const char *path, const PlCacheKey *key, const PlCorpus *c) {
    PlAtomic a;
    if (!make_dirs(path) || pl_atomic_open(&a, path, 0, NULL) != PL_OK) return PL_EIO;
    if (!write_entry(a.f, key, c)) {
        pl_atomic_abort(&a);
        return PL_EIO;
    }
    if (pl_atomic_commit(&a, NULL) != PL_OK) return PL_EIO;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    *strrchr(dir, '/') = '\0';
    prune(dir);
    return PL_OK;
}
