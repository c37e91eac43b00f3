#include "corpus_build.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "infile.h"
#include "text.h"

/* Largest file accepted: offsets and lengths stay comfortably in range. */

void pl_builder_init(PlCorpusBuilder *b) {
    memset(b, 0, sizeof *b);
    pl_vocab_init(&b->vocab);
}

void pl_builder_done(PlCorpusBuilder *b) {
    pl_vocab_done(&b->vocab);
    free(b->ids);
    free(b->offsets);
    free(b->labels);
    free(b->clean);
    free(b->tally);
    memset(b, 0, sizeof *b);
}

/* Room for need ids in all. */
static PlStatus grow_ids(PlCorpusBuilder *b, int64_t need) {
    int64_t cap = b->cap_ids ? b->cap_ids : 4096; /* 16 KB: doubling from there costs a big corpus a few moves */
    while (cap < need) cap *= 2;
    int32_t *ids = realloc(b->ids, (size_t)cap * sizeof *ids);
    if (!ids) return PL_ENOMEM;
    b->ids = ids;
    b->cap_ids = cap;
    return PL_OK;
}

/* Bytes of text per id expected: 4 (a word of three letters and its space)
 * where running English has about 7, so one reservation nearly always holds
 * the whole text. It is address space: only the ids written take memory. */
#define BYTES_PER_ID 4
#define EXPECT_WORDS 32768 /* a large text's vocabulary has at least these */

void pl_builder_expect(PlCorpusBuilder *b, uint64_t bytes) {
    if ((uint64_t)b->cap_ids < bytes / BYTES_PER_ID) (void)grow_ids(b, (int64_t)(bytes / BYTES_PER_ID));
    (void)pl_vocab_reserve(&b->vocab, EXPECT_WORDS); /* refused: the table grows as it goes */
}

static PlStatus push_id(PlCorpusBuilder *b, int32_t id) {
    if (b->n_ids == b->cap_ids && grow_ids(b, b->n_ids + 1)) return PL_ENOMEM;
    b->ids[b->n_ids++] = id;
    return PL_OK;
}

static PlStatus push_word(PlCorpusBuilder *b, const char *w, size_t len) {
    int idx;
    if (pl_vocab_add(&b->vocab, w, len, &idx)) return PL_ENOMEM;
    return push_id(b, idx + PL_FIRST_WORD_ID);
}

static PlStatus open_example(PlCorpusBuilder *b, int label) {
    if (b->n == INT32_MAX - 1) return PL_ENOMEM;
    if (b->n == b->cap) {
        int cap = b->cap ? b->cap * 2 : 1024;
        int64_t *off = realloc(b->offsets, ((size_t)cap + 1) * sizeof *off);
        if (!off) return PL_ENOMEM;
        b->offsets = off;
        uint8_t *lab = realloc(b->labels, (size_t)cap);
        if (!lab) return PL_ENOMEM;
        b->labels = lab;
        b->cap = cap;
    }
    b->offsets[b->n] = b->n_ids;
    b->labels[b->n] = (uint8_t)label;
    return PL_OK;
}

static PlStatus begin_example(PlCorpusBuilder *b, int label) {
    PlStatus st = open_example(b, label);
    return st ? st : push_id(b, PL_START_ID);
}

static void end_example(PlCorpusBuilder *b) {
    b->n++;
    b->offsets[b->n] = b->n_ids;
}

#define WORD_RUN 64    /* words handed to the vocabulary at once */
#define CLEAN_SLACK 64 /* spaces after a cleaned text, so the splitter reads whole blocks */

typedef char Bytes16 __attribute__((vector_size(16)));

/* Bit i set when p[i] is a space, for the 64 bytes at p (SSE2, which every
 * x86-64 has). */
static uint64_t spaces64(const char *p) {
    uint64_t m = 0;
    for (int q = 0; q < 4; q++) {
        Bytes16 v;
        memcpy(&v, p + 16 * q, 16);
        m |= (uint64_t)(unsigned)__builtin_ia32_pmovmskb128(v == ' ') << (16 * q);
    }
    return m;
}

typedef struct {
    const char *w[WORD_RUN];
    size_t len[WORD_RUN];
    int k;
} WordRun;

/* Room in the tally for every word of the vocabulary, and for k more
 * ids (its counts then in vocab.count first). */
static PlStatus grow_tally(PlCorpusBuilder *b, int k) {
    if (b->tallied + k > UINT32_MAX) pl_builder_count(b);
    if (b->vocab.n <= b->tally_cap) return PL_OK;
    int cap = b->vocab.cap;
    uint32_t *t = realloc(b->tally, (size_t)cap * sizeof *t);
    if (!t) return PL_ENOMEM;
    memset(t + b->tally_cap, 0, (size_t)(cap - b->tally_cap) * sizeof *t);
    b->tally = t, b->tally_cap = cap;
    return PL_OK;
}

void pl_builder_count(PlCorpusBuilder *b) {
    for (int i = 0; i < b->vocab.n && i < b->tally_cap; i++) b->vocab.count[i] += b->tally[i];
    free(b->tally);
    b->tally = NULL, b->tally_cap = 0, b->tallied = 0;
}

/* Interns a run of words, stores their ids and counts them. */
static PlStatus flush_run(PlCorpusBuilder *b, WordRun *r) {
    int idx[WORD_RUN];
    if (pl_vocab_intern_run_padded(&b->vocab, r->w, r->len, r->k, idx)) return PL_ENOMEM; /* CLEAN_SLACK */
    if (b->n_ids + r->k > b->cap_ids && grow_ids(b, b->n_ids + r->k)) return PL_ENOMEM;
    if (grow_tally(b, r->k)) return PL_ENOMEM;
    int32_t *to = b->ids + b->n_ids;
    uint32_t *count = b->tally;
    int k = r->k; /* a local: a store through to or count may not reload it */
    for (int j = 0; j < k; j++) to[j] = idx[j] + PL_FIRST_WORD_ID;
    for (int j = 0; j < k; j++) count[idx[j]]++;
    b->n_ids += k, b->tallied += k;
    r->k = 0;
    return PL_OK;
}

static PlStatus take_word(PlCorpusBuilder *b, WordRun *r, const char *w, size_t len) {
    r->w[r->k] = w, r->len[r->k++] = len;
    return r->k == WORD_RUN ? flush_run(b, r) : PL_OK;
}

/* Splits cleaned text at spaces (as pl_text_split does) and pushes the
 * words' ids, in runs: the vocabulary looks a run's slots up ahead. The
 * text is read 64 bytes at a time as a mask of its spaces: a word starts
 * at a non-space after a space and ends at the next space, and the bits
 * of both are taken lowest first. clean[n .. n + CLEAN_SLACK) are spaces. */
static PlStatus push_clean_words(PlCorpusBuilder *b, const char *clean, size_t n) {
    WordRun r;
    r.k = 0;
    uint64_t in_word = 0; /* the byte before the block is a word's */
    size_t start = 0;     /* of the word that runs into the block, when in_word */
    for (size_t base = 0; base < n; base += 64) {
        uint64_t wd = ~spaces64(clean + base), before = wd << 1 | in_word;
        uint64_t starts = wd & ~before, ends = ~wd & before;
        for (; ends; ends &= ends - 1) {
            if (!in_word) start = base + (size_t)__builtin_ctzll(starts), starts &= starts - 1;
            in_word = 0;
            size_t end = base + (size_t)__builtin_ctzll(ends);
            if (take_word(b, &r, clean + start, end - start)) return PL_ENOMEM;
        }
        if (starts) start = base + (size_t)__builtin_ctzll(starts);
        in_word = wd >> 63;
    }
    if (in_word && take_word(b, &r, clean + start, n - start)) return PL_ENOMEM;
    return r.k ? flush_run(b, &r) : PL_OK;
}

/* Cleans text[0..n) into b->clean and pushes its words. */
static PlStatus push_text(PlCorpusBuilder *b, const char *text, size_t n) {
    size_t need = pl_text_clean_cap(n) + CLEAN_SLACK;
    if (need > b->clean_cap) {
        char *c = realloc(b->clean, need);
        if (!c) return PL_ENOMEM;
        b->clean = c;
        b->clean_cap = need;
    }
    size_t m = pl_text_clean(text, n, b->clean);
    memset(b->clean + m, ' ', CLEAN_SLACK);
    return push_clean_words(b, b->clean, m);
}

PlStatus pl_builder_add_text(PlCorpusBuilder *b, int label, const char *text, size_t n) {
    if (begin_example(b, label)) return PL_ENOMEM;
    PlStatus st = push_text(b, text, n);
    if (st) return st;
    end_example(b);
    return PL_OK;
}

static int special_id(const char *t) {
    if (strcmp(t, "0") == 0 || strcmp(t, "<pad>") == 0) return PL_PAD_ID;
    if (strcmp(t, "<start>") == 0) return PL_START_ID;
    if (strcmp(t, "<oov>") == 0) return PL_OOV_ID;
    return -1;
}

PlStatus pl_builder_add_tokens(PlCorpusBuilder *b, int label, const char *const *tokens, int n) {
    if (open_example(b, label)) return PL_ENOMEM;
    for (int i = 0; i < n; i++) {
        int id = special_id(tokens[i]);
        PlStatus st = id >= 0 ? push_id(b, id) : push_text(b, tokens[i], strlen(tokens[i]));
        if (st) return st;
    }
    end_example(b);
    return PL_OK;
}

PlStatus pl_builder_add_words(PlCorpusBuilder *b, int label, const char *const *words, int n) {
    if (begin_example(b, label)) return PL_ENOMEM;
    for (int i = 0; i < n; i++)
        if (push_word(b, words[i], strlen(words[i]))) return PL_ENOMEM;
    end_example(b);
    return PL_OK;
}

PlStatus pl_builder_interleave(PlCorpusBuilder *b, int split) {
    int n = b->n;
    int32_t *ids = malloc((size_t)(b->n_ids ? b->n_ids : 1) * sizeof *ids);
    int64_t *off = malloc(((size_t)n + 1) * sizeof *off);
    uint8_t *lab = malloc((size_t)(n ? n : 1));
    if (!ids || !off || !lab) {
        free(ids), free(off), free(lab);
        return PL_ENOMEM;
    }
    int64_t at = 0;
    int k = 0;
    for (int i = 0; k < n; i++)
        for (int side = 0; side < 2; side++) {
            int src = side ? split + i : i;
            if (side ? src >= n : src >= split) continue;
            int64_t len = b->offsets[src + 1] - b->offsets[src];
            memcpy(ids + at, b->ids + b->offsets[src], (size_t)len * sizeof *ids);
            off[k] = at;
            lab[k++] = b->labels[src];
            at += len;
        }
    off[n] = at;
    free(b->ids), free(b->offsets), free(b->labels);
    b->ids = ids, b->offsets = off, b->labels = lab;
    b->cap_ids = b->n_ids, b->cap = n;
    return PL_OK;
}

PlStatus pl_corpus_rank_words(PlCorpus *c) {
    int nw = c->vocab.n;
    c->rank_of_word = malloc((size_t)(nw ? nw : 1) * sizeof *c->rank_of_word);
    c->word_of_id = malloc((size_t)(nw ? nw : 1) * sizeof *c->word_of_id);
    if (!c->rank_of_word || !c->word_of_id || pl_vocab_rank(&c->vocab, c->rank_of_word)) return PL_ENOMEM;
    for (int i = 0; i < nw; i++) c->word_of_id[c->rank_of_word[i]] = i;
    return PL_OK;
}

char *pl_snippet(char *buf, size_t cap, const char *s, size_t n) {
    size_t o = 0, shown = n < 24 ? n : 24;
    if (cap < 8) return buf;
    buf[o++] = '\'';
    for (size_t i = 0; i < shown && o + 6 < cap; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch >= 0x20 && ch < 0x7f) buf[o++] = (char)ch;
        else o += (size_t)snprintf(buf + o, cap - o, "\\x%02x", ch);
    }
    if (shown < n && o + 5 < cap) {
        memcpy(buf + o, "...", 3);
        o += 3;
    }
    buf[o++] = '\'';
    buf[o] = '\0';
    return buf;
}

PlStatus pl_read_file(const char *path, char **buf, size_t *n, PlErr *err) {
    /* A regular file only, and one no larger than the limit: a FIFO or a
     * device (/dev/zero) is refused before a byte is read. */
    FILE *f;
    PlStatus opened = pl_infile_open(path, PL_MAX_FILE_BYTES, &f, NULL, err);
    if (opened) return opened;
    size_t cap = 1 << 16, len = 0;
    char *data = malloc(cap);
    PlStatus st = data ? PL_OK : pl_err_set(err, PL_ENOMEM, "%s: out of memory", path);
    while (st == PL_OK) {
        if (len == cap) {
            char *bigger = cap >= PL_MAX_FILE_BYTES ? NULL : realloc(data, cap * 2);
            if (!bigger) {
                st = pl_err_set(err, PL_ENOMEM, "%s: too large to load (limit %zu MiB)", path, PL_MAX_FILE_BYTES >> 20);
                break;
            }
            data = bigger;
            cap *= 2;
        }
        size_t got = fread(data + len, 1, cap - len, f);
        len += got;
        if (got == 0) break;
    }
    if (st == PL_OK && ferror(f)) st = pl_err_set(err, PL_EIO, "%s: read error: %s", path, strerror(errno));
    fclose(f);
    if (st) {
        free(data);
        return st;
    }
    *buf = data;
    *n = len;
    return PL_OK;
}
