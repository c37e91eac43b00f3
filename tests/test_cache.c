/* The tokenized-corpus cache (corpus_cache.h) and the digest behind its key:
 * a corpus read back from the cache is the corpus tokenized afresh, field
 * for field; a changed file or option, a damaged or foreign entry, or no
 * writable folder all end in a fresh tokenization, never in an error. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/dirs.h"
#include "core/corpus.h"
#include "core/corpus_cache.h"
#include "core/corpus_load.h"
#include "core/digest.h"
#include "suites.h"

/* Worked out by an independent implementation (Python, from digest.h's
 * description of the rounds and the fold). */
START_TEST(test_digest_matches_the_reference_values) {
    unsigned char ramp[771];
    for (int i = 0; i < 768; i++) ramp[i] = (unsigned char)(i % 256);
    memcpy(ramp + 768, "xyz", 3);
    ck_assert_uint_eq(pl_digest(0, "", 0), 0xc8167590e3a5cbebu);
    ck_assert_uint_eq(pl_digest(0, "a", 1), 0x0706a1531fe37788u);
    ck_assert_uint_eq(pl_digest(7, "padlab pads the batch", 21), 0x44080e3a91e00749u);
    ck_assert_uint_eq(pl_digest(1, ramp, sizeof ramp), 0xb9b1706ce1c0ce4cu);
}
END_TEST

START_TEST(test_digest_does_not_depend_on_how_the_bytes_are_split) {
    unsigned char data[1000];
    for (int i = 0; i < 1000; i++) data[i] = (unsigned char)(i * 37 + 11);
    uint64_t whole = pl_digest(3, data, sizeof data);
    static const size_t steps[] = {1, 5, 31, 32, 33, 64, 999};
    for (size_t s = 0; s < sizeof steps / sizeof steps[0]; s++) {
        PlDigest d;
        pl_digest_init(&d, 3);
        for (size_t at = 0; at < sizeof data; at += steps[s])
            pl_digest_add(&d, data + at, sizeof data - at < steps[s] ? sizeof data - at : steps[s]);
        ck_assert_uint_eq(pl_digest_end(&d), whole);
    }
    data[500] ^= 1;
    ck_assert_uint_ne(pl_digest(3, data, sizeof data), whole);
    ck_assert_uint_ne(pl_digest(4, "", 0), pl_digest(3, "", 0));
}
END_TEST

/* ---- the cache ----------------------------------------------------------- */

static char *dir; /* this test's folder: the TSV files and, under cache/, the entries */

/* PADLAB_CACHE set to mode (NULL: unset), handed to the core as main does. */
static void cache_mode(const char *mode) {
    if (mode) setenv("PADLAB_CACHE", mode, 1);
    else unsetenv("PADLAB_CACHE");
    pl_dirs_setup_core();
}

static void use_cache(const char *mode) {
    dir = pl_test_tmpdir();
    char c[4096];
    snprintf(c, sizeof c, "%s/cache", dir);
    setenv("XDG_CACHE_HOME", c, 1);
    cache_mode(mode);
}

static const char *words[] = {"the", "film", "was", "good", "bad", "plot", "acting", "great", "awful", "ending"};

/* Writes a TSV of n reviews (with a tag, capitals and punctuation for the
 * cleaner) to dir/name and returns its path (static). */
static const char *write_tsv(const char *name, int n, int twist) {
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "label\ttext\n");
    for (int i = 0; i < n; i++) {
        fprintf(f, "%d\t", i % 2);
        for (int k = 0; k < 3 + (i * 7) % 23; k++)
            fprintf(f, "%s%s ", k % 5 ? words[(i * 3 + k * k + twist) % 10] : "The", k % 4 ? "" : ",<br />");
        fprintf(f, "Review %d!\n", i);
    }
    ck_assert_int_eq(fclose(f), 0);
    return path;
}

static PlCorpus *load_as(const char *path, int num_words, PlCacheUse use) {
    PlCorpusOpts o = {num_words, use};
    PlCorpus *c = NULL;
    PlErr err;
    ck_assert_msg(pl_corpus_load(path, &o, &c, &err) == PL_OK, "load failed: %s", err.msg);
    return c;
}

/* Through the cache as PADLAB_CACHE says (use_cache set it). */
static PlCorpus *load(const char *path, int num_words) { return load_as(path, num_words, PL_CACHE_DEFAULT); }

/* Tokenized, whatever PADLAB_CACHE says. */
static PlCorpus *load_fresh(const char *path, int num_words) { return load_as(path, num_words, PL_CACHE_OFF); }

void pl_test_assert_same_corpus(const PlCorpus *a, const PlCorpus *b) {
    ck_assert_int_eq(a->n, b->n);
    ck_assert_int_eq(a->num_words, b->num_words);
    ck_assert_int_eq(a->vocab_size, b->vocab_size);
    ck_assert_str_eq(a->source, b->source);
    ck_assert_mem_eq(a->offsets, b->offsets, ((size_t)a->n + 1) * sizeof *a->offsets);
    ck_assert_mem_eq(a->ids, b->ids, (size_t)a->offsets[a->n] * sizeof *a->ids);
    ck_assert_mem_eq(a->labels, b->labels, (size_t)a->n);
    int nw = a->vocab_size - PL_FIRST_WORD_ID;
    ck_assert_mem_eq(a->word_of_id, b->word_of_id, (size_t)nw * sizeof *a->word_of_id);
    ck_assert_mem_eq(a->rank_of_word, b->rank_of_word, (size_t)nw * sizeof *a->rank_of_word);
    for (int id = 0; id < a->vocab_size; id++) ck_assert_str_eq(pl_corpus_word(a, id), pl_corpus_word(b, id));
    for (int i = 0; i < nw; i++) ck_assert_int_eq(a->vocab.count[i], b->vocab.count[i]);
    ck_assert_int_eq(pl_corpus_word_id(b, "acting"), pl_corpus_word_id(a, "acting"));
}

/* The entries in the cache folder: how many, and the path of the last one seen. */
static int entries(char *last, size_t cap) {
    char d[4096];
    snprintf(d, sizeof d, "%s/cache/padlab/corpus", dir);
    DIR *h = opendir(d);
    if (!h) return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(h)))
        if (strstr(e->d_name, ".corpus") && !strstr(e->d_name, ".tmp")) {
            n++;
            if (last && (size_t)snprintf(last, cap, "%.3500s/%.255s", d, e->d_name) >= cap) last[0] = '\0';
        }
    closedir(h);
    return n;
}

/* Loads path (n reviews, not cached yet) afresh, then through the cache
 * twice: tokenized and written, then read back; all three the same. */
static void round_trip(const char *path, int n) {
    PlCorpus *fresh = load_fresh(path, 10000), *first = load(path, 10000), *again = load(path, 10000);
    ck_assert_ptr_null(first->map);
    ck_assert_ptr_nonnull(again->map);
    pl_test_assert_same_corpus(fresh, first);
    pl_test_assert_same_corpus(fresh, again);
    ck_assert_int_eq(again->n, n);
    pl_corpus_free(fresh), pl_corpus_free(first), pl_corpus_free(again);
}

START_TEST(test_a_corpus_read_from_the_cache_is_the_corpus_tokenized_afresh) {
    use_cache("all");
    const char *path = write_tsv("r.tsv", 300, 0);
    ck_assert_int_eq(entries(NULL, 0), 0);
    round_trip(path, 300);
    ck_assert_int_eq(entries(NULL, 0), 1);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

START_TEST(test_another_vocabulary_cap_or_one_changed_byte_is_another_entry) {
    use_cache("all");
    const char *path = write_tsv("r.tsv", 200, 0);
    pl_corpus_free(load(path, 10000));
    PlCorpus *capped = load(path, 5), *capped_fresh = load_fresh(path, 5);
    ck_assert_ptr_null(capped->map);
    ck_assert_int_eq(entries(NULL, 0), 2);
    pl_test_assert_same_corpus(capped_fresh, capped);
    pl_corpus_free(capped), pl_corpus_free(capped_fresh);
    capped = load(path, 5);
    ck_assert_ptr_nonnull(capped->map);
    ck_assert_int_eq(capped->num_words, 5);
    pl_corpus_free(capped);
    /* One byte of the text changed ("film" becomes "firm" somewhere): not the old entry. */
    FILE *f = fopen(path, "r+");
    char buf[64];
    ck_assert_int_eq((int)fread(buf, 1, sizeof buf, f), 64);
    char *at = strstr(buf, "film");
    ck_assert_ptr_nonnull(at);
    fseek(f, (long)(at - buf) + 2, SEEK_SET);
    fputc('r', f);
    fclose(f);
    PlCorpus *changed = load(path, 10000), *changed_fresh = load_fresh(path, 10000);
    ck_assert_ptr_null(changed->map);
    ck_assert_int_ge(pl_corpus_word_id(changed, "firm"), PL_FIRST_WORD_ID);
    pl_test_assert_same_corpus(changed_fresh, changed);
    ck_assert_int_eq(entries(NULL, 0), 3);
    pl_corpus_free(changed), pl_corpus_free(changed_fresh);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

/* Damages the entry at path: size -1 truncates it to half, else the byte at
 * offset (from the end when negative) is flipped. */
static void damage(const char *path, long offset) {
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    if (offset == -1) {
        ck_assert_int_eq(truncate(path, st.st_size / 2), 0);
        return;
    }
    FILE *f = fopen(path, "r+");
    long at = offset < 0 ? (long)st.st_size + offset : offset;
    fseek(f, at, SEEK_SET);
    int ch = fgetc(f);
    fseek(f, at, SEEK_SET);
    fputc(ch ^ 0x40, f);
    fclose(f);
}

START_TEST(test_a_damaged_entry_is_tokenized_again_and_rewritten) {
    use_cache("all");
    const char *path = write_tsv("r.tsv", 150, 0);
    PlCorpus *fresh = load_fresh(path, 10000);
    pl_corpus_free(load(path, 10000));
    char entry[4096];
    ck_assert_int_eq(entries(entry, sizeof entry), 1);
    /* magic, the key's digest, a count, an offset, an id, the last word's byte, half of it gone */
    static const long where[] = {0, 17, 44, 200, 90 + 8 * 151 + 40, -2, -1};
    for (size_t k = 0; k < sizeof where / sizeof where[0]; k++) {
        damage(entry, where[k]);
        PlCorpus *c = load(path, 10000);
        ck_assert_msg(c->map == NULL, "damage at %ld went unnoticed", where[k]);
        pl_test_assert_same_corpus(fresh, c);
        pl_corpus_free(c);
        c = load(path, 10000); /* the rewritten entry */
        ck_assert_ptr_nonnull(c->map);
        pl_test_assert_same_corpus(fresh, c);
        pl_corpus_free(c);
    }
    pl_corpus_free(fresh);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

START_TEST(test_no_writable_cache_folder_still_loads) {
    use_cache("all");
    const char *path = write_tsv("r.tsv", 50, 0);
    char blocker[4096];
    snprintf(blocker, sizeof blocker, "%s/cache", dir);
    pl_test_write_file(blocker, "a file where the folder would be", 32);
    PlCorpus *fresh = load_fresh(path, 10000), *c = load(path, 10000);
    pl_test_assert_same_corpus(fresh, c);
    ck_assert_ptr_null(c->map);
    pl_corpus_free(fresh), pl_corpus_free(c);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

START_TEST(test_off_and_small_files_write_nothing) {
    use_cache("off");
    const char *path = write_tsv("r.tsv", 50, 0);
    pl_corpus_free(load(path, 10000));
    pl_corpus_free(load(path, 10000));
    ck_assert_int_eq(entries(NULL, 0), 0);
    cache_mode(NULL); /* the default: a file under 1 MiB is tokenized every time */
    pl_corpus_free(load(path, 10000));
    ck_assert_int_eq(entries(NULL, 0), 0);
    ck_assert_int_eq(pl_cache_wanted(1u << 20, PL_CACHE_DEFAULT), 1);
    ck_assert_int_eq(pl_cache_wanted((1u << 20) - 1, PL_CACHE_DEFAULT), 0);
    /* The options win over the environment. */
    cache_mode("off");
    pl_corpus_free(load_as(path, 10000, PL_CACHE_ALL));
    ck_assert_int_eq(entries(NULL, 0), 1);
    ck_assert_int_eq(pl_cache_wanted(1u << 30, PL_CACHE_DEFAULT), 0);
    ck_assert_int_eq(pl_cache_wanted(1u << 20, PL_CACHE_LARGE), 1);
    ck_assert_int_eq(pl_cache_wanted(100, PL_CACHE_LARGE), 0);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

/* The entry a load of path with num_words 10000 would use. */
static void entry_of(const char *path, char *buf, size_t cap) {
    FILE *f = fopen(path, "rb");
    struct stat st;
    ck_assert_int_eq(fstat(fileno(f), &st), 0);
    PlCacheKey key;
    ck_assert_int_eq(pl_cache_key(f, (uint64_t)st.st_size, 10000, &key), PL_OK);
    fclose(f);
    ck_assert(pl_cache_path(&key, buf, cap));
}

START_TEST(test_the_cache_keeps_the_eight_most_recently_used) {
    use_cache("all");
    char name[32], entry[4096], paths[9][4096];
    for (int i = 0; i < 8; i++) {
        snprintf(name, sizeof name, "r%d.tsv", i);
        snprintf(paths[i], sizeof paths[i], "%s", write_tsv(name, 20, i));
        pl_corpus_free(load(paths[i], 10000));
        entry_of(paths[i], entry, sizeof entry);
        struct timespec used[2] = {{100 + i, 0}, {100 + i, 0}}; /* r0 the least recently used, r7 the most */
        ck_assert_int_eq(utimensat(AT_FDCWD, entry, used, 0), 0);
    }
    ck_assert_int_eq(entries(NULL, 0), 8);
    PlCorpus *c = load(paths[0], 10000); /* a use: r0 is now the most recent, r1 the least */
    ck_assert_ptr_nonnull(c->map);
    pl_corpus_free(c);
    snprintf(paths[8], sizeof paths[8], "%s", write_tsv("r8.tsv", 20, 8));
    pl_corpus_free(load(paths[8], 10000)); /* a ninth entry: r1's goes */
    ck_assert_int_eq(entries(NULL, 0), 8);
    for (int i = 0; i < 9; i++) {
        entry_of(paths[i], entry, sizeof entry);
        struct stat st;
        ck_assert_msg((stat(entry, &st) == 0) == (i != 1), "r%d's entry %s", i, i == 1 ? "kept" : "gone");
    }
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

START_TEST(test_the_reference_corpus_round_trips_through_the_cache) {
    const char *imdb = pl_test_imdb_path();
    use_cache("on");
    round_trip(imdb, 5000);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

Suite *cache_suite(int *skipped) {
    Suite *s = suite_create("cache");
    TCase *tc = tcase_create("digest");
    tcase_add_test(tc, test_digest_matches_the_reference_values);
    tcase_add_test(tc, test_digest_does_not_depend_on_how_the_bytes_are_split);
    suite_add_tcase(s, tc);
    tc = tcase_create("entries");
    tcase_add_test(tc, test_a_corpus_read_from_the_cache_is_the_corpus_tokenized_afresh);
    tcase_add_test(tc, test_another_vocabulary_cap_or_one_changed_byte_is_another_entry);
    tcase_add_test(tc, test_a_damaged_entry_is_tokenized_again_and_rewritten);
    tcase_add_test(tc, test_no_writable_cache_folder_still_loads);
    tcase_add_test(tc, test_off_and_small_files_write_nothing);
    tcase_add_test(tc, test_the_cache_keeps_the_eight_most_recently_used);
    suite_add_tcase(s, tc);
    *skipped = 0;
    if (pl_test_imdb_path()) {
        tc = tcase_create("imdb5k");
        tcase_set_timeout(tc, 120);
        tcase_add_test(tc, test_the_reference_corpus_round_trips_through_the_cache);
        suite_add_tcase(s, tc);
    } else {
        *skipped = 1;
        printf("skip: 1 cache check: imdb5k.tsv not found in PADLAB_SHARED_DATA\n");
    }
    return s;
}
