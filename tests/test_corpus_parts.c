/* A TSV file read in parts side by side (corpus_tsv.c, corpus_finish.c)
 * against the reference reading of tests/corpus_ref.py and against one
 * pass, on the shared corpora: the figures below are that script's output
 * (`tests/corpus_ref.py FILE`), not padlab's. A malformed line is named by
 * its own number whatever the parts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/corpus_build.h"
#include "core/corpus_loaders.h"
#include "suites.h"

/* What tests/corpus_ref.py prints for a corpus. */
typedef struct {
    int64_t n, positive, n_ids, vocab_size;
    uint64_t sum, weighted; /* of the ids, and of (k + 1) * ids[k], mod 2^64 */
} Figures;

static Figures figures_of(const PlCorpus *c) {
    Figures f = {.n = c->n, .n_ids = c->offsets[c->n], .vocab_size = c->vocab_size};
    for (int i = 0; i < c->n; i++) f.positive += c->labels[i];
    for (int64_t k = 0; k < c->offsets[c->n]; k++) {
        f.sum += (uint64_t)c->ids[k];
        f.weighted += (uint64_t)(k + 1) * (uint64_t)c->ids[k];
    }
    return f;
}

static const char *shared(const char *file) {
    static char path[4096];
    const char *dir = getenv("PADLAB_SHARED_DATA");
    snprintf(path, sizeof path, "%s/%s", dir ? dir : "../shared/data", file);
    return path;
}

static PlStatus load_in_parts(const char *path, int parts, PlCorpus **c, PlErr *err) {
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    struct stat st;
    fstat(fileno(f), &st);
    PlCorpusOpts o = {.num_words = PL_DEFAULT_NUM_WORDS, .cache = PL_CACHE_OFF};
    PlStatus s = pl_corpus_load_tsv_parts(path, f, (uint64_t)st.st_size, parts, &o, c, err);
    fclose(f);
    return s;
}

static const struct {
    const char *file;
    Figures want;
} shared_corpora[] = {
    {"imdb5k.tsv", {5000, 2517, 1191168, 43516, 909204795u, 538584669043076u}},
    {"imdb-70-30.tsv", {3595, 2517, 857038, 37315, 669035406u, 284482610892770u}},
};

START_TEST(test_the_shared_corpora_read_in_one_to_five_parts_give_the_reference_figures) {
    const char *path = shared(shared_corpora[_i].file);
    Figures want = shared_corpora[_i].want;
    PlCorpus *one = NULL;
    PlErr err;
    ck_assert_msg(load_in_parts(path, 1, &one, &err) == PL_OK, "%s", err.msg);
    for (int parts = 1; parts <= 5; parts++) {
        PlCorpus *c = NULL;
        ck_assert_msg(load_in_parts(path, parts, &c, &err) == PL_OK, "%d parts: %s", parts, err.msg);
        Figures got = figures_of(c);
        ck_assert_msg(got.n == want.n && got.positive == want.positive && got.n_ids == want.n_ids,
                      "%s in %d parts: %lld sequences, %lld positive, %lld ids", path, parts, (long long)got.n,
                      (long long)got.positive, (long long)got.n_ids);
        ck_assert_msg(got.vocab_size == want.vocab_size, "%s in %d parts: vocabulary %lld, want %lld", path, parts,
                      (long long)got.vocab_size, (long long)want.vocab_size);
        ck_assert_msg(got.sum == want.sum && got.weighted == want.weighted,
                      "%s in %d parts: id sums %llu %llu, want %llu %llu", path, parts, (unsigned long long)got.sum,
                      (unsigned long long)got.weighted, (unsigned long long)want.sum,
                      (unsigned long long)want.weighted);
        pl_test_assert_same_corpus(one, c); /* the words, their counts and ranks too */
        ck_assert_uint_eq(pl_corpus_digest(c), pl_corpus_digest(one));
        pl_corpus_free(c);
    }
    pl_corpus_free(one);
}
END_TEST

/* Writes imdb-70-30 with its line `line` (1-based) replaced by bad[0..n). */
static void write_with_bad_line(const char *to, int line, const char *bad, size_t n) {
    char *data;
    size_t len;
    PlErr err;
    ck_assert_msg(pl_read_file(shared("imdb-70-30.tsv"), &data, &len, &err) == PL_OK, "%s", err.msg);
    FILE *f = fopen(to, "wb");
    ck_assert_ptr_nonnull(f);
    const char *p = data, *end = data + len;
    for (int no = 1; p < end; no++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (no == line) fwrite(bad, 1, n, f);
        else fwrite(p, 1, l, f);
        fputc('\n', f);
        p += l + 1;
    }
    fclose(f);
    free(data);
}

#define BAD(s) s, sizeof s - 1 /* a literal and its length, NUL bytes in it counted */

START_TEST(test_a_malformed_line_is_named_by_its_number_in_any_part) {
    static const struct {
        int line; /* of 3595: in the first part or a later one, as the parts fall */
        const char *bad;
        size_t n;
        const char *says;
    } cases[] = {
        {3001, BAD("2\tthe label is two"), "label must be 0 or 1, got '2'"},
        {1777, BAD("no tab on this line"), "expected LABEL<TAB>TEXT, found no tab in 'no tab on this line'"},
        {3590, BAD("1\ta NUL \0 inside"), "contains a NUL byte (not a text file?)"},
        {2, BAD("01\tlabel of two digits"), "label must be 0 or 1, got '01'"},
    };
    char *dir = pl_test_tmpdir();
    char path[4096], want[8192];
    snprintf(path, sizeof path, "%s/bad.tsv", dir);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        write_with_bad_line(path, cases[i].line, cases[i].bad, cases[i].n);
        snprintf(want, sizeof want, "%s:%d: %s", path, cases[i].line, cases[i].says);
        for (int parts = 1; parts <= 5; parts++) {
            PlCorpus *c = (PlCorpus *)1;
            PlErr err;
            ck_assert_int_eq(load_in_parts(path, parts, &c, &err), PL_EINPUT);
            ck_assert_ptr_null(c);
            ck_assert_msg(strcmp(err.msg, want) == 0, "%d parts: '%s', want '%s'", parts, err.msg, want);
        }
    }
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

/* A builder's tally counts in 32 bits and goes into the vocabulary's counts
 * before it could overflow: a tally that stands a few ids short of 2^32
 * when the third review comes is added in then, and the corpus is the one
 * built without the wait, to its counts (worked out by hand) and ids. */
START_TEST(test_a_tally_near_its_limit_counts_into_the_vocabulary_first) {
    static const char *const texts[] = {"the cat sat", "the dog sat on the mat", "a cat and a dog", "the end"};
    PlCorpus *c[2];
    PlCorpusOpts opts = {0};
    PlErr err;
    for (int near = 0; near < 2; near++) {
        PlCorpusBuilder b;
        pl_builder_init(&b);
        for (int i = 0; i < 4; i++) {
            if (near && i == 2) b.tallied = (int64_t)UINT32_MAX - 2; /* the next review's 5 words would overflow it */
            ck_assert_int_eq(pl_builder_add_text(&b, i % 2, texts[i], strlen(texts[i])), PL_OK);
            if (near && i == 2) ck_assert_int_eq(b.tallied, 5); /* counted in, then its 5 words tallied afresh */
        }
        ck_assert_msg(pl_builder_finish(&b, &opts, "tally", &c[near], &err) == PL_OK, "%s", err.msg);
    }
    static const struct {
        const char *word;
        int count;
    } want[] = {{"the", 4}, {"cat", 2}, {"sat", 2}, {"dog", 2}, {"a", 2},
                {"on", 1},  {"mat", 1}, {"and", 1}, {"end", 1}};
    for (int near = 0; near < 2; near++)
        for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
            int at = pl_vocab_find(&c[near]->vocab, want[i].word, strlen(want[i].word));
            ck_assert_int_ge(at, 0);
            ck_assert_int_eq(c[near]->vocab.count[at], want[i].count);
        }
    ck_assert_int_eq(c[0]->offsets[4], c[1]->offsets[4]);
    ck_assert_mem_eq(c[0]->ids, c[1]->ids, (size_t)c[0]->offsets[4] * sizeof c[0]->ids[0]);
    pl_corpus_free(c[0]);
    pl_corpus_free(c[1]);
}
END_TEST

Suite *corpus_parts_suite(int *skipped) {
    Suite *s = suite_create("corpus_parts");
    *skipped = 0;
    TCase *own = tcase_create("tally"); /* needs no shared corpus */
    tcase_add_test(own, test_a_tally_near_its_limit_counts_into_the_vocabulary_first);
    suite_add_tcase(s, own);
    struct stat st;
    if (stat(shared("imdb5k.tsv"), &st) != 0 || stat(shared("imdb-70-30.tsv"), &st) != 0) {
        *skipped = 2;
        printf("skip: 2 corpus_parts checks: imdb5k.tsv or imdb-70-30.tsv not found in PADLAB_SHARED_DATA\n");
        return s;
    }
    TCase *tc = tcase_create("shared");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_the_shared_corpora_read_in_one_to_five_parts_give_the_reference_figures, 0,
                        (int)(sizeof shared_corpora / sizeof shared_corpora[0]));
    tcase_add_test(tc, test_a_malformed_line_is_named_by_its_number_in_any_part);
    suite_add_tcase(s, tc);
    return s;
}
