/* The tokenizer: Keras text_to_word_sequence defaults plus the IMDB clean-up. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"
#include "suites.h"

typedef struct {
    char words[16][64];
    int n;
} Tokens;

static void collect(const char *w, size_t len, void *ctx) {
    Tokens *t = ctx;
    if (t->n < 16 && len < 64) {
        memcpy(t->words[t->n], w, len);
        t->words[t->n][len] = '\0';
    }
    t->n++;
}

static Tokens tokenize(const char *s) {
    size_t n = strlen(s);
    char *clean = malloc(pl_text_clean_cap(n));
    size_t m = pl_text_clean(s, n, clean);
    Tokens t = {.n = 0};
    pl_text_split(clean, m, collect, &t);
    free(clean);
    return t;
}

START_TEST(test_punctuation_becomes_space_and_case_folds) {
    Tokens t = tokenize("Hello, World! It's (really) GOOD...");
    ck_assert_int_eq(t.n, 5);
    ck_assert_str_eq(t.words[0], "hello");
    ck_assert_str_eq(t.words[1], "world");
    ck_assert_str_eq(t.words[2], "it's"); /* the apostrophe is not a Keras filter */
    ck_assert_str_eq(t.words[3], "really");
    ck_assert_str_eq(t.words[4], "good");
}
END_TEST

START_TEST(test_br_tag_is_removed_before_lowercasing) {
    Tokens t = tokenize("good<br />bad");
    ck_assert_int_eq(t.n, 2);
    ck_assert_str_eq(t.words[0], "good");
    ck_assert_str_eq(t.words[1], "bad");
    /* An upper-case tag is not the IMDB break: its letters survive the filters. */
    t = tokenize("a<BR />b");
    ck_assert_int_eq(t.n, 3);
    ck_assert_str_eq(t.words[1], "br");
}
END_TEST

START_TEST(test_only_spaces_tabs_newlines_and_filters_split) {
    Tokens t = tokenize("a\tb\nc   d_e");
    ck_assert_int_eq(t.n, 5);
    ck_assert_str_eq(t.words[4], "e");
    /* A no-break space (U+00A0) and a carriage return are not separators in Keras. */
    t = tokenize("a\xC2\xA0"
                 "b c\rd");
    ck_assert_int_eq(t.n, 2);
    ck_assert_str_eq(t.words[0], "a\xC2\xA0"
                                 "b");
    ck_assert_str_eq(t.words[1], "c\rd");
}
END_TEST

START_TEST(test_empty_and_punctuation_only_texts_have_no_tokens) {
    ck_assert_int_eq(tokenize("").n, 0);
    ck_assert_int_eq(tokenize("!?.,;:  --- ...").n, 0);
}
END_TEST

START_TEST(test_latin1_capitals_are_lowercased) {
    Tokens t = tokenize("\xC3\x89"
                        "COLE \xC3\x97"); /* ÉCOLE and the sign × */
    ck_assert_int_eq(t.n, 2);
    ck_assert_str_eq(t.words[0], "\xC3\xA9"
                                 "cole");
    ck_assert_str_eq(t.words[1], "\xC3\x97");
}
END_TEST

START_TEST(test_invalid_utf8_bytes_become_replacement_characters) {
    Tokens t = tokenize("ab\xFF"
                        "cd \xC3");
    ck_assert_int_eq(t.n, 2);
    ck_assert_str_eq(t.words[0], "ab\xEF\xBF\xBD"
                                 "cd");
    ck_assert_str_eq(t.words[1], "\xEF\xBF\xBD");
}
END_TEST

START_TEST(test_utf8_validation_rejects_overlongs_and_surrogates) {
    ck_assert_uint_eq(pl_utf8_seq_len((const unsigned char *)"\xE2\x82\xAC", 3), 3);
    ck_assert_uint_eq(pl_utf8_seq_len((const unsigned char *)"\xF0\x9F\x98\x80", 4), 4);
    ck_assert_uint_eq(pl_utf8_seq_len((const unsigned char *)"\xC0\x80", 2), 0);
    ck_assert_uint_eq(pl_utf8_seq_len((const unsigned char *)"\xED\xA0\x80", 3), 0);
    ck_assert_uint_eq(pl_utf8_seq_len((const unsigned char *)"\xF4\x90\x80\x80", 4), 0);
    ck_assert_uint_eq(pl_utf8_seq_len((const unsigned char *)"\xE2\x82", 2), 0);
}
END_TEST

START_TEST(test_embedded_nul_is_a_separator) {
    const char s[] = "ab\0cd";
    char clean[32];
    size_t m = pl_text_clean(s, 5, clean);
    Tokens t = {.n = 0};
    pl_text_split(clean, m, collect, &t);
    ck_assert_int_eq(t.n, 2);
    ck_assert_str_eq(t.words[1], "cd");
}
END_TEST

/* The rules of text.h, a byte at a time: the reference the cleaner (which
 * takes plain ASCII 16 bytes at a time) must match. */
static size_t reference_clean(const unsigned char *p, size_t n, char *out) {
    static const char filters[] = "!\"#$%&()*+,-./:;<=>?@[\\]^_`{|}~\t\n";
    size_t i = 0, o = 0;
    while (i < n) {
        unsigned c = p[i];
        if (n - i >= 6 && memcmp(p + i, "<br />", 6) == 0) {
            out[o++] = ' ', i += 6;
        } else if (c < 0x80) {
            out[o++] = c == 0 || strchr(filters, (int)c) ? ' ' : c >= 'A' && c <= 'Z' ? (char)(c + 32) : (char)c;
            i++;
        } else if (pl_utf8_seq_len(p + i, n - i) == 0) {
            memcpy(out + o, "\xEF\xBF\xBD", 3), o += 3, i++;
        } else {
            size_t len = pl_utf8_seq_len(p + i, n - i);
            memcpy(out + o, p + i, len);
            if (len == 2 && c == 0xC3 && p[i + 1] <= 0x9E && p[i + 1] != 0x97) out[o + 1] = (char)(p[i + 1] + 0x20);
            o += len, i += len;
        }
    }
    return o;
}

START_TEST(test_the_cleaner_follows_the_rules_over_every_byte) {
    /* Every byte value, in runs long enough for whole 16-byte blocks, with
     * tags and UTF-8 sequences falling on and across the block edges. */
    static const char *pieces[] = {"<br />",           "<br",          "\xc3\x80",
                                   "\xc3\x97",         "\xc3",         "\xe2\x82\xac",
                                   "\xf0\x9f\x98\x80", "\xed\xa0\x80", "Plain ASCII text, OK? ",
                                   "abcdefghijklmnop"};
    uint64_t x = 88172645463325252u;
    unsigned char in[700];
    char got[2200], want[2200];
    for (int round = 0; round < 2000; round++) {
        size_t n = 0, len = 1 + (size_t)(round % 600);
        while (n < len) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            if (x % 5 == 0) {
                const char *piece = pieces[(x >> 8) % 10];
                size_t k = strlen(piece);
                if (n + k > len) k = len - n;
                memcpy(in + n, piece, k), n += k;
            } else {
                in[n++] = (unsigned char)(x >> 24);
            }
        }
        size_t m = pl_text_clean((const char *)in, n, got), r = reference_clean(in, n, want);
        ck_assert_uint_eq(m, r);
        ck_assert_mem_eq(got, want, m);
        ck_assert_int_eq(got[m], '\0');
    }
}
END_TEST

/* What padlab prints from outside shows control bytes instead of acting on
 * them: C0 and DEL and invalid bytes as \xNN, C1 (CSI among them) as \u00NN,
 * valid UTF-8 and a backslash as they are. */
START_TEST(test_printable_writes_out_what_a_terminal_would_act_on) {
    char *s = pl_text_printable("a\x1b]0;t\x07 \x1b[2J\t\x7f caf\xc3\xa9 \xc2\x9b\xff\\");
    ck_assert_str_eq(s, "a\\x1b]0;t\\x07 \\x1b[2J\\x09\\x7f caf\xc3\xa9 \\u009b\\xff\\");
    free(s);
    char c[7];
    ck_assert_int_eq(pl_text_shown_char("\xe2\x82\xac!", c), 3);
    ck_assert_str_eq(c, "\xe2\x82\xac");
    ck_assert_int_eq(pl_text_shown_char("", c), 0);
    ck_assert_str_eq(c, "");
}
END_TEST

/* Text from a file shown line by line: its newlines kept, the rest escaped. */
START_TEST(test_printable_lines_keep_their_line_ends) {
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(pl_text_put_printable_lines(f, "a\x1b[2J\nb\tc\n\ncaf\xc3\xa9"), 0);
    fclose(f);
    ck_assert_str_eq(buf, "a\\x1b[2J\nb\\x09c\n\ncaf\xc3\xa9");
    free(buf);
}
END_TEST

/* %XX as the books, the state line and a student's form read it. */
START_TEST(test_a_percent_escape_gives_its_byte_or_minus_one) {
    ck_assert_int_eq(pl_text_percent_byte("%41", 3), 'A');
    ck_assert_int_eq(pl_text_percent_byte("%0a rest", 8), '\n');
    ck_assert_int_eq(pl_text_percent_byte("%fF", 3), 255);
    ck_assert_int_eq(pl_text_percent_byte("%00", 3), -1); /* a NUL would end the name early */
    ck_assert_int_eq(pl_text_percent_byte("%4", 2), -1);
    ck_assert_int_eq(pl_text_percent_byte("%41", 2), -1); /* the third byte is past the end */
    ck_assert_int_eq(pl_text_percent_byte("%G1", 3), -1);
    ck_assert_int_eq(pl_text_percent_byte("%1G", 3), -1);
}
END_TEST

Suite *text_suite(void) {
    Suite *s = suite_create("text");
    TCase *tc = tcase_create("tokenizer");
    tcase_add_test(tc, test_punctuation_becomes_space_and_case_folds);
    tcase_add_test(tc, test_br_tag_is_removed_before_lowercasing);
    tcase_add_test(tc, test_only_spaces_tabs_newlines_and_filters_split);
    tcase_add_test(tc, test_empty_and_punctuation_only_texts_have_no_tokens);
    tcase_add_test(tc, test_latin1_capitals_are_lowercased);
    tcase_add_test(tc, test_the_cleaner_follows_the_rules_over_every_byte);
    suite_add_tcase(s, tc);
    tc = tcase_create("utf8");
    tcase_add_test(tc, test_invalid_utf8_bytes_become_replacement_characters);
    tcase_add_test(tc, test_utf8_validation_rejects_overlongs_and_surrogates);
    tcase_add_test(tc, test_embedded_nul_is_a_separator);
    tcase_add_test(tc, test_printable_writes_out_what_a_terminal_would_act_on);
    tcase_add_test(tc, test_a_percent_escape_gives_its_byte_or_minus_one);
    tcase_add_test(tc, test_printable_lines_keep_their_line_ends);
    suite_add_tcase(s, tc);
    return s;
}
