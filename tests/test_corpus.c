/* Corpus loading: TSV, aclImdb folders, the built-in corpus, the vocabulary,
 * and every kind of bad input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/corpus.h"
#include "core/corpus_load.h"
#include "core/corpus_loaders.h"
#include "core/rng.h"
#include "core/stats.h"
#include "core/text.h"
#include "suites.h"

static PlCorpus *load_mem(const char *tsv, int num_words) {
    PlCorpusOpts o = {.num_words = num_words};
    PlCorpus *c = NULL;
    PlErr err;
    PlStatus st = pl_corpus_load_tsv_mem("mem.tsv", tsv, strlen(tsv), &o, &c, &err);
    ck_assert_msg(st == PL_OK, "load failed: %s", err.msg);
    return c;
}

static void assert_seq(const PlCorpus *c, int i, const int32_t *want, int n) {
    ck_assert_int_eq(pl_corpus_len(c, i), n);
    for (int k = 0; k < n; k++) ck_assert_int_eq(pl_corpus_seq(c, i)[k], want[k]);
}

/* Expects loading tsv to fail with status st and a message containing each of
 * the two fragments. */
static void assert_tsv_fails(const char *tsv, size_t n, PlStatus st, const char *a, const char *b) {
    PlCorpus *c = (PlCorpus *)1;
    PlErr err;
    ck_assert_int_eq(pl_corpus_load_tsv_mem("x.tsv", tsv, n, NULL, &c, &err), st);
    ck_assert_ptr_null(c);
    ck_assert_msg(strstr(err.msg, a) && strstr(err.msg, b), "message was: %s", err.msg);
}

START_TEST(test_vocabulary_ranks_by_count_then_first_appearance) {
    PlCorpus *c = load_mem("1\tThe movie was great\n0\tThe movie was bad, bad.\n", 0);
    /* the, movie, was, bad twice (in order of first appearance), great once */
    const int32_t s0[] = {1, 3, 4, 5, 7}, s1[] = {1, 3, 4, 5, 6, 6};
    ck_assert_int_eq(c->n, 2);
    assert_seq(c, 0, s0, 5);
    assert_seq(c, 1, s1, 6);
    ck_assert_int_eq(c->labels[0], 1);
    ck_assert_int_eq(c->labels[1], 0);
    ck_assert_str_eq(pl_corpus_word(c, 3), "the");
    ck_assert_str_eq(pl_corpus_word(c, 6), "bad");
    ck_assert_str_eq(pl_corpus_word(c, 7), "great");
    ck_assert_str_eq(pl_corpus_word(c, 0), "<pad>");
    ck_assert_int_eq(pl_corpus_word_id(c, "was"), 5);
    ck_assert_int_eq(pl_corpus_word_id(c, "absent"), -1);
    ck_assert_int_eq(c->vocab_size, 8);
    pl_corpus_free(c);
}
END_TEST

/* A sharded experiment's parts name their corpus by this digest: what a
 * training reads (ids, labels, words, num_words), not where it came from. */
START_TEST(test_the_corpus_digest_tells_corpora_apart_but_not_their_names) {
    const char *tsv = "1\tThe movie was great\n0\tThe movie was bad, bad.\n";
    PlCorpus *a = load_mem(tsv, 0), *renamed = load_mem(tsv, 0), *fewer = load_mem(tsv, 6);
    PlCorpus *flipped = load_mem("0\tThe movie was great\n0\tThe movie was bad, bad.\n", 0);
    PlCorpus *worded = load_mem("1\tThe movie was fine\n0\tThe movie was bad, bad.\n", 0);
    const int32_t s0[] = {1, 3, 4, 5, 7};
    assert_seq(worded, 0, s0, 5); /* the same ids as a's: only the word behind 7 differs */
    snprintf(renamed->source, sizeof renamed->source, "%s", "elsewhere/imdb.tsv");
    uint64_t d = pl_corpus_digest(a);
    ck_assert_uint_eq(pl_corpus_digest(renamed), d);
    ck_assert_uint_ne(pl_corpus_digest(fewer), d);
    ck_assert_uint_ne(pl_corpus_digest(flipped), d);
    ck_assert_uint_ne(pl_corpus_digest(worded), d);
    pl_corpus_free(a), pl_corpus_free(renamed), pl_corpus_free(fewer), pl_corpus_free(flipped), pl_corpus_free(worded);
}
END_TEST

START_TEST(test_num_words_maps_rare_ids_to_oov_but_keeps_their_words) {
    PlCorpus *c = load_mem("1\tThe movie was great\n0\tThe movie was bad, bad.\n", 6);
    const int32_t s0[] = {1, 3, 4, 5, 2}, s1[] = {1, 3, 4, 5, 2, 2};
    assert_seq(c, 0, s0, 5);
    assert_seq(c, 1, s1, 6);
    ck_assert_str_eq(pl_corpus_word(c, 6), "bad");
    pl_corpus_free(c);
}
END_TEST

START_TEST(test_header_crlf_and_blank_lines_are_accepted) {
    PlCorpus *c = load_mem("label\ttext\r\n1\tgood\r\n\r\n0\tbad\r\n", 0);
    ck_assert_int_eq(c->n, 2);
    ck_assert_str_eq(pl_corpus_word(c, pl_corpus_seq(c, 0)[1]), "good");
    ck_assert_str_eq(pl_corpus_word(c, pl_corpus_seq(c, 1)[1]), "bad");
    pl_corpus_free(c);
}
END_TEST

START_TEST(test_empty_review_is_just_the_start_token) {
    PlCorpus *c = load_mem("1\t\n0\t...\n", 0);
    ck_assert_int_eq(pl_corpus_len(c, 0), 1);
    ck_assert_int_eq(pl_corpus_len(c, 1), 1);
    ck_assert_int_eq(pl_corpus_seq(c, 0)[0], PL_START_ID);
    pl_corpus_free(c);
}
END_TEST

START_TEST(test_bad_tsv_lines_name_the_file_and_line) {
    assert_tsv_fails("1\tok\nno tab here\n", 16, PL_EINPUT, "x.tsv:2:", "no tab");
    assert_tsv_fails("1\tok\n2\tbad label\n", 18, PL_EINPUT, "x.tsv:2:", "label must be 0 or 1, got '2'");
    assert_tsv_fails("pos\ttext\n", 9, PL_EINPUT, "x.tsv:1:", "got 'pos'");
    assert_tsv_fails("", 0, PL_EINPUT, "x.tsv", "empty file");
    assert_tsv_fails("label\ttext\n\n", 12, PL_EINPUT, "x.tsv", "no examples");
    assert_tsv_fails("1\tok\n0\tnul\0byte\n", 17, PL_EINPUT, "x.tsv:2:", "NUL byte");
}
END_TEST

START_TEST(test_a_ten_million_character_line_loads_whole) {
    size_t words = 2000000, n = 2 + words * 5 + 1;
    char *buf = malloc(n);
    memcpy(buf, "1\t", 2);
    for (size_t i = 0; i < words; i++) memcpy(buf + 2 + i * 5, "word ", 5);
    buf[n - 1] = '\n';
    PlCorpus *c = NULL;
    PlErr err;
    ck_assert_int_eq(pl_corpus_load_tsv_mem("big.tsv", buf, n, NULL, &c, &err), PL_OK);
    ck_assert_int_eq(pl_corpus_len(c, 0), (int)words + 1);
    ck_assert_int_eq(pl_corpus_seq(c, 0)[(int)words], 3);
    free(buf);
    pl_corpus_free(c);
}
END_TEST

START_TEST(test_two_hundred_thousand_lines_load) {
    size_t lines = 200000, n = lines * 10;
    char *buf = malloc(n);
    for (size_t i = 0; i < lines; i++) memcpy(buf + i * 10, i % 2 ? "1\tab cd e\n" : "0\tab cd f\n", 10);
    PlCorpus *c = NULL;
    PlErr err;
    ck_assert_int_eq(pl_corpus_load_tsv_mem("many.tsv", buf, n, NULL, &c, &err), PL_OK);
    ck_assert_int_eq(c->n, 200000);
    ck_assert_int_eq(pl_corpus_len(c, 199999), 4);
    ck_assert_int_eq(c->labels[199999], 1);
    free(buf);
    pl_corpus_free(c);
}
END_TEST

START_TEST(test_invalid_utf8_never_reaches_the_vocabulary) {
    PlCorpus *c = load_mem("1\tcaf\xE9 na\xEFve \xC3(\n", 0);
    for (int id = PL_FIRST_WORD_ID; id < c->vocab_size; id++) {
        const char *w = pl_corpus_word(c, id);
        size_t n = strlen(w), i = 0;
        while (i < n) {
            size_t k = pl_utf8_seq_len((const unsigned char *)w + i, n - i);
            ck_assert_uint_gt(k, 0);
            i += k;
        }
    }
    ck_assert_int_eq(pl_corpus_word_id(c, "caf\xEF\xBF\xBD"), 3);
    pl_corpus_free(c);
}
END_TEST

static void write_review(const char *dir, const char *name, const char *text) {
    char path[8200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    pl_test_write_file(path, text, strlen(text));
}

/* Makes ROOT/train/{pos,neg} with three reviews; returns ROOT. */
static char *make_acl_folder(void) {
    char *root = pl_test_tmpdir(), p[4096];
    snprintf(p, sizeof p, "%s/train", root);
    mkdir(p, 0700);
    snprintf(p, sizeof p, "%s/train/pos", root);
    mkdir(p, 0700);
    write_review(p, "1_9.txt", "Loved it.");
    write_review(p, "0_10.txt", "A <br />masterpiece!");
    write_review(p, "notes.md", "not a review");
    snprintf(p, sizeof p, "%s/train/neg", root);
    mkdir(p, 0700);
    write_review(p, "0_2.txt", "Dull\nand long.");
    return root;
}

START_TEST(test_acl_folder_alternates_neg_and_pos_in_name_order) {
    char *root = make_acl_folder();
    PlCorpus *c = NULL;
    PlErr err;
    ck_assert_msg(pl_corpus_load(root, NULL, &c, &err) == PL_OK, "%s", err.msg);
    ck_assert_int_eq(c->n, 3);
    ck_assert_int_eq(c->labels[0], 0); /* neg 0_2, pos 0_10, pos 1_9 */
    ck_assert_int_eq(c->labels[1], 1);
    ck_assert_int_eq(c->labels[2], 1);
    ck_assert_int_eq(pl_corpus_len(c, 0), 4);                                   /* <start> dull and long */
    ck_assert_str_eq(pl_corpus_word(c, pl_corpus_seq(c, 1)[2]), "masterpiece"); /* 0_10 before 1_9 */
    ck_assert_str_eq(pl_corpus_word(c, pl_corpus_seq(c, 2)[1]), "loved");
    pl_corpus_free(c);
    pl_test_rmtree(root);
    free(root);
}
END_TEST

START_TEST(test_acl_folder_interleaves_so_any_tail_holds_both_labels) {
    char *root = pl_test_tmpdir(), p[4096], name[32];
    for (int side = 0; side < 2; side++) {
        snprintf(p, sizeof p, "%s/%s", root, side ? "pos" : "neg");
        mkdir(p, 0700);
        for (int i = 0; i < (side ? 5 : 3); i++) {
            snprintf(name, sizeof name, "%d_%d.txt", i, side ? 9 : 1);
            write_review(p, name, side ? "good" : "bad");
        }
    }
    PlCorpus *c = NULL;
    ck_assert_int_eq(pl_corpus_load(root, NULL, &c, NULL), PL_OK);
    static const uint8_t want[8] = {0, 1, 0, 1, 0, 1, 1, 1};
    ck_assert_mem_eq(c->labels, want, 8);
    for (int i = 0; i < 8; i++) ck_assert_str_eq(pl_corpus_word(c, pl_corpus_seq(c, i)[1]), want[i] ? "good" : "bad");
    pl_corpus_free(c);
    pl_test_rmtree(root);
    free(root);
}
END_TEST

START_TEST(test_bad_folders_are_refused_with_a_reason) {
    char *root = pl_test_tmpdir(), p[4096];
    PlCorpus *c = NULL;
    PlErr err;
    ck_assert_int_eq(pl_corpus_load(root, NULL, &c, &err), PL_EINPUT);
    ck_assert_ptr_nonnull(strstr(err.msg, "not an aclImdb-style folder"));
    snprintf(p, sizeof p, "%s/pos", root);
    mkdir(p, 0700);
    snprintf(p, sizeof p, "%s/neg", root);
    mkdir(p, 0700);
    ck_assert_int_eq(pl_corpus_load(root, NULL, &c, &err), PL_EINPUT);
    ck_assert_ptr_nonnull(strstr(err.msg, "no examples"));
    pl_test_write_file(strcat(p, "/1_1.txt"), "bad\0byte", 8);
    ck_assert_int_eq(pl_corpus_load(root, NULL, &c, &err), PL_EINPUT);
    ck_assert_msg(strstr(err.msg, "1_1.txt:1: contains a NUL byte") != NULL, "%s", err.msg);
    ck_assert_ptr_null(c);
    pl_test_rmtree(root);
    free(root);
}
END_TEST

START_TEST(test_missing_paths_and_bad_builtin_specs_fail_cleanly) {
    PlCorpus *c = NULL;
    PlErr err;
    ck_assert_int_eq(pl_corpus_load("/nonexistent/reviews.tsv", NULL, &c, &err), PL_EIO);
    ck_assert_ptr_nonnull(strstr(err.msg, "/nonexistent/reviews.tsv: cannot open"));
    ck_assert_int_eq(pl_corpus_load("builtin:x", NULL, &c, &err), PL_EINPUT);
    ck_assert_int_eq(pl_corpus_load("builtin:1:0", NULL, &c, &err), PL_EINPUT);
    ck_assert_int_eq(pl_corpus_load("builtin:1:5:", NULL, &c, &err), PL_EINPUT);
    ck_assert_ptr_null(c);
}
END_TEST

START_TEST(test_builtin_corpus_is_deterministic_for_a_seed) {
    PlCorpus *a, *b, *d;
    ck_assert_int_eq(pl_corpus_load("builtin:7:200", NULL, &a, NULL), PL_OK);
    ck_assert_int_eq(pl_corpus_load("builtin:7:200", NULL, &b, NULL), PL_OK);
    ck_assert_int_eq(pl_corpus_load("builtin:8:200", NULL, &d, NULL), PL_OK);
    ck_assert_int_eq(a->n, 200);
    ck_assert_int_eq(a->offsets[200], b->offsets[200]);
    ck_assert_mem_eq(a->ids, b->ids, (size_t)a->offsets[200] * sizeof *a->ids);
    ck_assert_mem_eq(a->labels, b->labels, 200);
    ck_assert(a->offsets[200] != d->offsets[200] ||
              memcmp(a->ids, d->ids, (size_t)a->offsets[200] * sizeof *a->ids) != 0);
    pl_corpus_free(a);
    pl_corpus_free(b);
    pl_corpus_free(d);
}
END_TEST

START_TEST(test_builtin_corpus_has_imdb_like_lengths) {
    PlCorpus *c;
    ck_assert_int_eq(pl_corpus_load("builtin", NULL, &c, NULL), PL_OK);
    int *len = malloc((size_t)c->n * sizeof *len), pos = 0;
    pl_corpus_lengths(c, len);
    PlLengthSummary s;
    ck_assert_int_eq(pl_length_summary(len, c->n, &s, NULL), PL_OK);
    ck_assert_int_eq(s.n, 5000);
    ck_assert_int_ge(s.min, 13);
    ck_assert_int_le(s.min, 19);
    ck_assert(s.median >= 160 && s.median <= 200);
    ck_assert(s.mean >= 215 && s.mean <= 265);
    ck_assert(s.p95 >= 540 && s.p95 <= 660);
    ck_assert_int_gt(s.max, 1500);
    for (int i = 0; i < c->n; i++) pos += c->labels[i];
    ck_assert(pos > 2300 && pos < 2700);
    free(len);
    pl_corpus_free(c);
}
END_TEST

/* Occurrences of a word in reviews of each label. */
static void count_word(const PlCorpus *c, const char *word, long by_label[2]) {
    int id = pl_corpus_word_id(c, word);
    ck_assert_int_gt(id, 0);
    by_label[0] = by_label[1] = 0;
    for (int i = 0; i < c->n; i++)
        for (int t = 0; t < pl_corpus_len(c, i); t++) by_label[c->labels[i]] += pl_corpus_seq(c, i)[t] == id;
}

START_TEST(test_builtin_sentiment_words_follow_the_label) {
    PlCorpus *c;
    ck_assert_int_eq(pl_corpus_load("builtin:3:1000", NULL, &c, NULL), PL_OK);
    long great[2], awful[2], the[2];
    count_word(c, "great", great);
    count_word(c, "awful", awful);
    count_word(c, "the", the);
    ck_assert_int_gt(great[1], 2 * great[0]);
    ck_assert_int_gt(awful[0], 2 * awful[1]);
    ck_assert_int_eq(pl_corpus_word_id(c, "the"), 3); /* the most frequent word */
    pl_corpus_free(c);
}
END_TEST

/* Words that share their first 8 or 16 bytes, or differ only in length
 * (past the 255 a slot's tag holds too), are different words; each is
 * found again by its bytes alone. */
START_TEST(test_the_vocabulary_tells_apart_words_that_share_their_heads) {
    PlVocab v;
    pl_vocab_init(&v);
    static char w[64][320];
    int n = 0;
    static const int lens[] = {254, 255, 256, 300};
    for (int len = 1; len <= 44; len++) {
        int l = len <= 40 ? len : lens[len - 41];
        memset(w[n], 'a', (size_t)l);
        w[n++][l] = '\0';
    }
    static const int flip[] = {0, 7, 8, 15, 16, 17, 31, 39, 299};
    for (int f = 0; f < 9; f++) {
        int l = flip[f] < 40 ? 40 : 300;
        memset(w[n], 'a', (size_t)l);
        w[n][flip[f]] = 'b';
        w[n++][l] = '\0';
    }
    for (int round = 0; round < 3; round++)
        for (int i = 0; i < n; i++) {
            int idx;
            ck_assert_int_eq(pl_vocab_add(&v, w[i], strlen(w[i]), &idx), PL_OK);
            ck_assert_int_eq(idx, i);
        }
    ck_assert_int_eq(v.n, n);
    for (int i = 0; i < n; i++) {
        ck_assert_int_eq(pl_vocab_find(&v, w[i], strlen(w[i])), i);
        ck_assert_str_eq(pl_vocab_word(&v, i), w[i]);
        ck_assert_int_eq(v.count[i], 3);
    }
    ck_assert_int_eq(pl_vocab_find(&v, "aaaaaaaaaaaaaaaaab", 18), -1);
    pl_vocab_done(&v);
}
END_TEST

typedef struct {
    char words[1200][96];
    int n;
} Tokens;

static void keep_token(const char *w, size_t len, void *ctx) {
    Tokens *t = ctx;
    ck_assert_uint_lt(len, 96);
    memcpy(t->words[t->n], w, len);
    t->words[t->n++][len] = '\0';
}

/* The loader splits a cleaned text 64 bytes at a time; pl_text_split, a
 * byte at a time, is the reference: texts of spaces, punctuation and words
 * of every length, around and across the 64-byte blocks. */
START_TEST(test_the_loader_splits_words_as_pl_text_split_does) {
    static const char alphabet[] = "  ab,.!  xyzW<br />\t\xc3\xa9q";
    PlRng rng;
    pl_rng_seed(&rng, 2026);
    static Tokens want;
    for (int round = 0; round < 300; round++) {
        char text[1200], line[1300], clean[4000];
        int n = (int)pl_rng_below(&rng, 1000);
        int word = 1 + (int)pl_rng_below(&rng, 22);
        for (int i = 0; i < n; i++)
            text[i] = i % (word + 1) == word ? ' ' : alphabet[pl_rng_below(&rng, sizeof alphabet - 1)];
        text[n] = '\0';
        snprintf(line, sizeof line, "1\t%s\n", text);
        want.n = 0;
        size_t m = pl_text_clean(text, (size_t)n, clean);
        pl_text_split(clean, m, keep_token, &want);
        PlCorpus *c = load_mem(line, 1000000);
        ck_assert_int_eq(pl_corpus_len(c, 0), want.n + 1);
        for (int k = 0; k < want.n; k++) ck_assert_str_eq(pl_corpus_word(c, pl_corpus_seq(c, 0)[k + 1]), want.words[k]);
        pl_corpus_free(c);
    }
}
END_TEST

/* A TSV file with a header, CRLF and LF line ends, blank lines, a long line
 * and no newline after the last, in dir; returns its path (static). */
static const char *awkward_tsv(const char *dir, int lines, int bad_line) {
    static char path[4096];
    snprintf(path, sizeof path, "%s/awkward.tsv", dir);
    FILE *f = fopen(path, "wb");
    fputs("label\ttext\r\n", f);
    for (int i = 2; i <= lines; i++) {
        if (i % 97 == 0) fputs("\n", f);
        else if (i == bad_line) fputs("7\tnot a label\n", f);
        else if (i % 301 == 0) {
            fputs("1\t", f);
            for (int k = 0; k < 20000; k++) fputs(k % 3 ? "long " : "Line, ", f);
            fputs("\n", f);
        } else
            fprintf(f, "%d\tReview %d: the PLOT was %s%s", i % 2, i % 50, i % 3 ? "good" : "bad<br />",
                    i == lines ? ""
                    : i % 5    ? "\n"
                               : "\r\n");
    }
    fclose(f);
    return path;
}

static PlStatus load_parts(const char *path, int parts, PlCorpus **c, PlErr *err) {
    FILE *f = fopen(path, "rb");
    struct stat st;
    fstat(fileno(f), &st);
    PlCorpusOpts o = {.num_words = 100};
    PlStatus s = pl_corpus_load_tsv_parts(path, f, (uint64_t)st.st_size, parts, &o, c, err);
    fclose(f);
    return s;
}

START_TEST(test_a_file_read_in_parts_is_the_file_read_in_one_pass) {
    char *dir = pl_test_tmpdir();
    const char *path = awkward_tsv(dir, 2000, 0);
    PlCorpus *one = NULL, *c = NULL;
    PlErr err;
    ck_assert_int_eq(load_parts(path, 1, &one, &err), PL_OK);
    ck_assert_int_eq(one->n, 2000 - 1 - 2000 / 97);
    for (int parts = 2; parts <= 9; parts++) {
        ck_assert_msg(load_parts(path, parts, &c, &err) == PL_OK, "%d parts: %s", parts, err.msg);
        pl_test_assert_same_corpus(one, c);
        pl_corpus_free(c);
    }
    pl_corpus_free(one);
    /* More parts than lines. */
    path = awkward_tsv(dir, 3, 0);
    ck_assert_int_eq(load_parts(path, 1, &one, &err), PL_OK);
    ck_assert_int_eq(one->n, 2);
    ck_assert_int_eq(load_parts(path, 8, &c, &err), PL_OK);
    pl_test_assert_same_corpus(one, c);
    pl_corpus_free(one), pl_corpus_free(c);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

START_TEST(test_a_bad_line_in_a_later_part_is_named_by_its_own_number) {
    char *dir = pl_test_tmpdir();
    const char *path = awkward_tsv(dir, 2000, 1733);
    PlCorpus *c = (PlCorpus *)1;
    PlErr err;
    ck_assert_int_eq(load_parts(path, 4, &c, &err), PL_EINPUT);
    ck_assert_ptr_null(c);
    ck_assert_msg(strstr(err.msg, "awkward.tsv:1733: label must be 0 or 1"), "message was: %s", err.msg);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

/* inline:xN|ROWS repeats the rows N times, labels and all: 2 rows x 250 =
 * 500 reviews, alternating as written; a count out of 1..1000 is refused. */
START_TEST(test_an_inline_corpus_repeats_its_rows_n_times) {
    PlCorpus *c = NULL;
    PlErr err;
    ck_assert_msg(pl_corpus_load("inline:x250|+ film film film|- film", NULL, &c, &err) == PL_OK, "%s", err.msg);
    ck_assert_int_eq(c->n, 500);
    for (int i = 0; i < c->n; i++) {
        ck_assert_int_eq(c->labels[i], i % 2 == 0);
        ck_assert_int_eq(pl_corpus_len(c, i), i % 2 == 0 ? 3 : 1);
    }
    pl_corpus_free(c);
    ck_assert_int_eq(pl_corpus_load("inline: x2 | a b | c", NULL, &c, &err), PL_OK); /* spaces around the count */
    ck_assert_int_eq(c->n, 4);
    pl_corpus_free(c);
    ck_assert_int_eq(pl_corpus_load("inline:x0|a", NULL, &c, &err), PL_EINPUT);
    ck_assert_int_eq(pl_corpus_load("inline:x1001|a", NULL, &c, &err), PL_EINPUT);
    ck_assert_msg(strstr(err.msg, "optional xN (N from 1 to 1000)"), "%s", err.msg);
    ck_assert_int_eq(pl_corpus_load("inline:xylophone|a", NULL, &c, &err), PL_OK); /* a word, not a count */
    ck_assert_int_eq(c->n, 2);
    pl_corpus_free(c);
}
END_TEST

Suite *corpus_suite(void) {
    Suite *s = suite_create("corpus");
    TCase *tc = tcase_create("tsv");
    tcase_add_test(tc, test_vocabulary_ranks_by_count_then_first_appearance);
    tcase_add_test(tc, test_num_words_maps_rare_ids_to_oov_but_keeps_their_words);
    tcase_add_test(tc, test_the_corpus_digest_tells_corpora_apart_but_not_their_names);
    tcase_add_test(tc, test_header_crlf_and_blank_lines_are_accepted);
    tcase_add_test(tc, test_empty_review_is_just_the_start_token);
    tcase_add_test(tc, test_invalid_utf8_never_reaches_the_vocabulary);
    tcase_add_test(tc, test_the_loader_splits_words_as_pl_text_split_does);
    tcase_add_test(tc, test_the_vocabulary_tells_apart_words_that_share_their_heads);
    suite_add_tcase(s, tc);
    tc = tcase_create("bad_input");
    tcase_add_test(tc, test_bad_tsv_lines_name_the_file_and_line);
    tcase_add_test(tc, test_bad_folders_are_refused_with_a_reason);
    tcase_add_test(tc, test_missing_paths_and_bad_builtin_specs_fail_cleanly);
    tcase_add_test(tc, test_an_inline_corpus_repeats_its_rows_n_times);
    suite_add_tcase(s, tc);
    tc = tcase_create("large_input");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_a_ten_million_character_line_loads_whole);
    tcase_add_test(tc, test_two_hundred_thousand_lines_load);
    tcase_add_test(tc, test_a_file_read_in_parts_is_the_file_read_in_one_pass);
    tcase_add_test(tc, test_a_bad_line_in_a_later_part_is_named_by_its_own_number);
    suite_add_tcase(s, tc);
    tc = tcase_create("folders");
    tcase_add_test(tc, test_acl_folder_alternates_neg_and_pos_in_name_order);
    tcase_add_test(tc, test_acl_folder_interleaves_so_any_tail_holds_both_labels);
    suite_add_tcase(s, tc);
    tc = tcase_create("builtin");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_builtin_corpus_is_deterministic_for_a_seed);
    tcase_add_test(tc, test_builtin_corpus_has_imdb_like_lengths);
    tcase_add_test(tc, test_builtin_sentiment_words_follow_the_label);
    suite_add_tcase(s, tc);
    return s;
}
