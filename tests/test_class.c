/* The class session: votes and rounds, rejoining, the join code's limit, the
 * tally (worked out by hand below) and the report. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/class/board.h"
#include "app/class/class.h"
#include "app/class/follow.h"
#include "app/teach/lesson_run.h"
#include "core/rng.h"
#include "suites.h"

static PlClass *cls;
static char token[PL_CLASS_TOKEN_HEX + 1];

static void setup(void) {
    cls = pl_class_new("K7P2Q");
    ck_assert_ptr_nonnull(cls);
}
static void teardown(void) { pl_class_free(cls); }

/* Student i, made from random bytes all equal to i + 1. */
static int student(int i) {
    unsigned char rnd[16];
    memset(rnd, i + 1, sizeof rnd);
    return pl_class_join(cls, rnd, token);
}

static int add_count(const char *tol) {
    PlQuantity q;
    PlTolerance t;
    char why[200];
    ck_assert_int_eq(pl_quantity_parse("batch.pad_cells", &q, why, sizeof why), 0);
    ck_assert_int_eq(pl_tolerance_parse(tol, &t), 0);
    return pl_class_add_number(cls, "How many pad cells?", &q, &t, 2);
}

static int add_choice(void) {
    const char *texts[] = {"post", "pre", "none"};
    return pl_class_add_choice(cls, "Which padding?", texts, 3, 1, 4);
}

static void answer(int s, int q, const char *text) {
    char why[200];
    ck_assert_msg(pl_class_answer(cls, s, q, text, why, sizeof why) == 0, "%s: %s", text, why);
}

START_TEST(test_a_reanswer_replaces_the_vote_of_that_round) {
    int q = add_choice(), a = student(0), b = student(1);
    ck_assert_int_eq(pl_class_open(cls, q), 0);
    answer(a, q, "a"), answer(b, q, "b"), answer(a, q, "b");
    ck_assert_int_eq(pl_class_count(cls, q, 1), 2);
    PlClassTally t;
    ck_assert_int_eq(pl_class_tally(cls, q, &t), 0);
    ck_assert_int_eq(t.chosen[0][0], 0);
    ck_assert_int_eq(t.chosen[0][1], 2);
    ck_assert_int_eq(t.right[0], 2);
    char mine[200];
    pl_class_mine(cls, a, mine, sizeof mine);
    ck_assert_str_eq(mine, "b. pre");
}
END_TEST

START_TEST(test_a_student_who_rejoins_with_their_token_keeps_their_vote) {
    int q = add_choice(), a = student(0);
    char saved[PL_CLASS_TOKEN_HEX + 1];
    memcpy(saved, token, sizeof saved);
    ck_assert_str_eq(saved, "01010101010101010101010101010101");
    pl_class_open(cls, q);
    answer(a, q, "c");
    ck_assert_int_eq(pl_class_student(cls, saved), a);
    ck_assert_int_eq(pl_class_student(cls, "0101"), -1);
    char mine[200];
    pl_class_mine(cls, pl_class_student(cls, saved), mine, sizeof mine);
    ck_assert_str_eq(mine, "c. none");
    ck_assert_int_eq(pl_class_count(cls, q, 1), 1);
}
END_TEST

START_TEST(test_answers_are_refused_outside_the_open_question) {
    int q0 = add_choice(), q1 = add_count("2"), a = student(0);
    char why[200];
    ck_assert_int_eq(pl_class_answer(cls, a, q0, "a", why, sizeof why), -1); /* nothing open */
    pl_class_open(cls, q1);
    ck_assert_int_eq(pl_class_answer(cls, a, q0, "a", why, sizeof why), -1);
    ck_assert_int_eq(pl_class_answer(cls, a, q1, "many", why, sizeof why), -1);
    ck_assert_int_eq(pl_class_answer(cls, a, q1, "12", why, sizeof why), 0);
    ck_assert_int_eq(pl_class_answer(cls, 7, q1, "12", why, sizeof why), -1); /* no such student */
    pl_class_open(cls, q0);
    ck_assert_int_eq(pl_class_answer(cls, a, q0, "d", why, sizeof why), -1); /* three choices: a to c */
    pl_class_reveal(cls, 0);
    ck_assert_int_eq(pl_class_answer(cls, a, q0, "a", why, sizeof why), -1); /* revealed: closed */
}
END_TEST

/* Round 1: 10, 12, 12, 15, 20; round 2: 13, 13, 12, 14, 20. The lab says
 * 13, tolerance 2: the band is [11, 15]. Rows, by value: 10 (round 1: 1,
 * round 2: 0), the band "13 (counted right)" (3 and 4), 20 (1 and 1): each
 * distinct wrong answer its own row, none sharing the band's. Round 1's
 * wrong answers, 10 and 20, tie (the smaller named). Between the rounds the
 * student of 10 went to 13 (wrong to right); three stayed right, one wrong. */
START_TEST(test_a_number_is_tallied_by_hand) {
    int q = add_count("2");
    int s[5];
    for (int i = 0; i < 5; i++) s[i] = student(i);
    pl_class_open(cls, q);
    const char *r1[] = {"10", "12", "12", "15", "20"}, *r2[] = {"13", "13", "12", "14", "20"};
    for (int i = 0; i < 5; i++) answer(s[i], q, r1[i]);
    PlClassTally t;
    pl_class_tally(cls, q, &t);
    ck_assert_int_eq(t.revealed, 0);
    ck_assert_int_eq(t.right[0], 0); /* unknown before the reveal */
    ck_assert_int_eq(pl_class_again(cls), 0);
    for (int i = 0; i < 5; i++) answer(s[i], q, r2[i]);
    ck_assert_int_eq(pl_class_reveal(cls, 13.0), 0);
    pl_class_tally(cls, q, &t);
    ck_assert_int_eq(t.rounds, 2);
    ck_assert_int_eq(t.answered[0], 5);
    ck_assert_int_eq(t.answered[1], 5);
    ck_assert_int_eq(t.right[0], 3);
    ck_assert_int_eq(t.right[1], 4);
    ck_assert_int_eq(t.nrows, 3);
    static const char *const label[] = {"10", "13 (counted right)", "20"};
    int want[3][2] = {{1, 0}, {3, 4}, {1, 1}};
    char text[200];
    for (int k = 0; k < 3; k++) {
        ck_assert_int_eq(pl_class_tally_label(&t, k, text, sizeof text), k == 1);
        ck_assert_str_eq(text, label[k]);
        ck_assert_int_eq(pl_class_tally_count(&t, 0, k), want[k][0]);
        ck_assert_int_eq(pl_class_tally_count(&t, 1, k), want[k][1]);
    }
    ck_assert_int_eq(t.value_row, 1);
    ck_assert_str_eq(t.value_text, "13");
    ck_assert_str_eq(t.wrong, "10");
    ck_assert_int_eq(t.wrong_count, 1);
    ck_assert_int_eq(t.wrong_tied, 1);
    ck_assert_int_eq(t.to_right, 1);
    ck_assert_int_eq(t.to_wrong, 0);
    ck_assert_int_eq(t.stayed_right, 3);
    ck_assert_int_eq(t.stayed_wrong, 1);
}
END_TEST

/* A row that sums to 0.4546 (a share, within 2 points): the lesson names 1
 * as the misconception "zeroed after the softmax". Answers 0.45, 45 (the
 * band), 1, 1.0 and 100% (the misconception: one labelled row of 3), 0.5
 * and 1e3 (1000%: answers of their own). */
START_TEST(test_a_misconception_gets_a_labelled_row_of_its_own) {
    PlQuantity q;
    PlTolerance tol = {PL_TOL_DEFAULT, 0};
    char why[200], text[200];
    ck_assert_int_eq(pl_quantity_parse("batch.pad_share", &q, why, sizeof why), 0);
    int qi = pl_class_add_number(cls, "What does the row sum to?", &q, &tol, 0);
    ck_assert_int_eq(pl_class_add_misconception(cls, qi, 1.0, "zeroed after the softmax"), 0);
    pl_class_open(cls, qi);
    const char *given[] = {"0.45", "45", "1", "1.0", "100%", "0.5", "1e3"};
    for (int i = 0; i < 7; i++) answer(student(i), qi, given[i]);
    pl_class_reveal(cls, 0.4546);
    PlClassTally t;
    pl_class_tally(cls, qi, &t);
    ck_assert_int_eq(t.nrows, 4);
    static const char *const label[] = {"45.5% (counted right)", "50.0%", "100.0%: zeroed after the softmax",
                                        "1000.0%"};
    static const int count[] = {2, 1, 3, 1};
    for (int k = 0; k < 4; k++) {
        pl_class_tally_label(&t, k, text, sizeof text);
        ck_assert_str_eq(text, label[k]);
        ck_assert_int_eq(pl_class_tally_count(&t, 0, k), count[k]);
    }
    ck_assert_int_eq(t.rows[2].kind, PL_ROW_MISCONCEPTION);
    ck_assert_int_eq(t.right[0], 2);
}
END_TEST

/* The projector's tally fits every width from a phone-narrow pane to a
 * wide one: no line wider than the board, every row's count and the lab's
 * marker still there (the counts of the row "100.0%: zeroed after the
 * softmax", 3 in round 1, found in the lines). */
typedef struct {
    int width, widest, lines, marker, threes;
} Fit;

static void fit_line(void *ctx, const char *text, PlBoardKind kind) {
    Fit *f = ctx;
    int cols = 0;
    (void)kind;
    for (const char *p = text; *p; p++) cols += ((unsigned char)*p & 0xC0) != 0x80;
    if (cols > f->widest) f->widest = cols;
    f->lines++;
    f->marker += strstr(text, "the lab: 45.5%") != NULL;
    f->threes += strstr(text, "   3   ") != NULL;
}

START_TEST(test_the_projectors_tally_fits_every_width) {
    PlQuantity q;
    PlTolerance tol = {PL_TOL_DEFAULT, 0};
    char why[200];
    ck_assert_int_eq(pl_quantity_parse("batch.pad_share", &q, why, sizeof why), 0);
    int qi = pl_class_add_number(cls, "What does the row sum to?", &q, &tol, 0);
    ck_assert_int_eq(pl_class_add_misconception(cls, qi, 1.0, "zeroed after the softmax"), 0);
    pl_class_open(cls, qi);
    const char *given[] = {"0.45", "45", "1", "1.0", "100%", "0.5", "1e3"};
    int id[7];
    for (int i = 0; i < 7; i++) answer(id[i] = student(i), qi, given[i]);
    pl_class_again(cls);
    for (int i = 0; i < 4; i++) answer(id[i], qi, "0.4546");
    pl_class_reveal(cls, 0.4546);
    PlClassTally t;
    PlClassNow n;
    pl_class_tally(cls, qi, &t);
    pl_class_now(cls, &n);
    int narrow_lines = 0, wide_lines = 0;
    for (int width = 36; width <= 200; width++) {
        Fit f = {width, 0, 0, 0, 0};
        pl_class_board_tally(&t, &n, width, fit_line, &f);
        ck_assert_msg(f.widest <= width, "a line of %d columns on a board of %d", f.widest, width);
        ck_assert_int_eq(f.marker, 1);
        ck_assert_int_ge(f.threes, 1);
        if (width == 36) narrow_lines = f.lines;
        if (width == 200) wide_lines = f.lines;
    }
    /* wide: the heads, 4 rows, the band, the switches; narrow: more lines, nothing lost */
    ck_assert_int_eq(wide_lines, 7);
    ck_assert_int_eq(t.to_right, 2); /* "1" and "1.0" came round; "0.45" and "45" stayed right */
    ck_assert_int_eq(t.stayed_right, 2);
    ck_assert_int_gt(narrow_lines, wide_lines);
}
END_TEST

/* Twenty answers 100, 110, ... 290 and one at 1e9: more than the rows
 * hold. The far one goes to a row of its own; the twenty are clustered into
 * the rows left, every answer counted once. Nothing absurd is taken. */
START_TEST(test_many_answers_cluster_and_the_far_ones_stand_apart) {
    int q = add_count("0"), s = 0;
    char v[32];
    pl_class_open(cls, q);
    for (int i = 0; i < 20; i++) snprintf(v, sizeof v, "%d", 100 + 10 * i), answer(student(s++), q, v);
    answer(student(s++), q, "1,000,000,000"); /* thousands separators read */
    PlClassTally t;
    pl_class_tally(cls, q, &t);
    ck_assert_int_eq(t.nrows, 11); /* the far one, then the twenty in ten rows of two */
    ck_assert_int_eq(t.rows[t.nrows - 1].kind, PL_ROW_OUTLIERS);
    ck_assert_str_eq(t.rows[t.nrows - 1].label, "far off: 1000000000");
    int total = 0;
    for (int k = 0; k < t.nrows; k++) total += pl_class_tally_count(&t, 0, k);
    ck_assert_int_eq(total, 21);
    ck_assert_str_eq(t.rows[0].label, "100 to 110");
    char why[200];
    int late = student(s++);
    ck_assert_int_eq(pl_class_answer(cls, late, q, "1e308", why, sizeof why), -1);
    ck_assert_msg(strstr(why, "too far from any answer"), "%s", why);
    ck_assert_int_eq(pl_class_answer(cls, late, q, "-1e308", why, sizeof why), -1);
    ck_assert_int_eq(pl_class_answer(cls, late, q, "inf", why, sizeof why), -1);
    ck_assert_int_eq(pl_class_answer(cls, late, q, "1,5", why, sizeof why), -1); /* a decimal comma: not read */
    ck_assert_str_eq(why, "expected a whole number: 1330, or 1,330");
    ck_assert_int_eq(pl_class_answer(cls, late, q, "320,000", why, sizeof why), 0);
}
END_TEST

/* A share typed three ways is one answer: 19.6, 19.6% and 0.196. */
START_TEST(test_a_share_typed_three_ways_counts_as_one_answer) {
    PlQuantity q;
    PlTolerance t = {PL_TOL_DEFAULT, 0};
    char why[200];
    ck_assert_int_eq(pl_quantity_parse("batch.pad_share", &q, why, sizeof why), 0);
    int qi = pl_class_add_number(cls, "What share?", &q, &t, 0);
    int s[4];
    for (int i = 0; i < 4; i++) s[i] = student(i);
    pl_class_open(cls, qi);
    answer(s[0], qi, "19.6"), answer(s[1], qi, "19.6%"), answer(s[2], qi, "0.196"), answer(s[3], qi, "50");
    pl_class_reveal(cls, 0.20);
    PlClassTally tl;
    pl_class_tally(cls, qi, &tl);
    ck_assert_int_eq(tl.right[0], 3); /* within 2 points of 20% */
    ck_assert_str_eq(tl.wrong, "50.0%");
}
END_TEST

/* Choices: a 1, b 3, c 2 with b right: right 3; wrong: c (2) beats a (1). */
START_TEST(test_choices_are_counted_per_choice_with_the_right_one_marked) {
    int q = add_choice();
    const char *votes[] = {"a", "b", "b", "b", "c", "c"};
    pl_class_open(cls, q);
    for (int i = 0; i < 6; i++) answer(student(i), q, votes[i]);
    PlClassTally t;
    pl_class_tally(cls, q, &t);
    ck_assert_int_eq(t.chosen[0][0], 1);
    ck_assert_int_eq(t.chosen[0][1], 3);
    ck_assert_int_eq(t.chosen[0][2], 2);
    ck_assert_int_eq(t.right_choice, 1);
    ck_assert_int_eq(t.right[0], 3);
    ck_assert_str_eq(t.wrong, "c. none");
    ck_assert_int_eq(t.wrong_count, 2);
}
END_TEST

START_TEST(test_wrong_codes_are_limited_per_address) {
    for (int i = 0; i < PL_CLASS_CODE_TRIES; i++)
        ck_assert_int_eq(pl_class_code_try(cls, "10.0.0.9", "AAAAA", 1000 + i), PL_CLASS_CODE_WRONG);
    /* past its tries the address's wrong codes are LIMITED, yet the right one joins: a class behind one NAT */
    ck_assert_int_eq(pl_class_code_try(cls, "10.0.0.9", "AAAAA", 2000), PL_CLASS_CODE_LIMITED);
    ck_assert_int_eq(pl_class_code_try(cls, "10.0.0.9", "K7P2Q", 2000), PL_CLASS_CODE_OK);
    ck_assert_int_eq(pl_class_code_try(cls, "10.0.0.8", "AAAAA", 2000), PL_CLASS_CODE_WRONG); /* another address */
    ck_assert_int_eq(pl_class_code_try(cls, "10.0.0.9", "AAAAB", 1000 + PL_CLASS_CODE_WINDOW_MS - 1),
                     PL_CLASS_CODE_LIMITED);
}
END_TEST

START_TEST(test_a_posted_answer_is_read_decoded_and_bounded) {
    PlClassPost p;
    char why[200];
    const char *ok = "q=3&a=19.6%25&t=0123456789abcdef0123456789abcdef";
    ck_assert_int_eq(pl_class_parse_post(ok, strlen(ok), &p, why, sizeof why), 0);
    ck_assert_int_eq(p.q, 3);
    ck_assert_str_eq(p.a, "19.6%");
    ck_assert_str_eq(p.token, "0123456789abcdef0123456789abcdef");
    ck_assert_int_eq(p.sure, 0); /* not said */
    const char *sure = "s=3&q=1&a=b";
    ck_assert_int_eq(pl_class_parse_post(sure, strlen(sure), &p, why, sizeof why), 0);
    ck_assert(p.sure == 3 && p.q == 1 && !strcmp(p.a, "b"));
    const char *bad[] = {"q=1&a=1&s=0",
                         "q=1&a=1&s=4",
                         "q=1&a=1&s=22",
                         "q=1&a=1&s=",
                         "q=1&a=1&s=1&s=2",
                         "q=3",
                         "a=1",
                         "q=x&a=1",
                         "q=1&a=%0a",
                         "q=1&a=%zz",
                         "q=1&a=1&q=2",
                         "q=1&a=1&x=2",
                         "q=1&a=1&t=abc",
                         "q=1&a=123456789012345678901234567890123",
                         "q=1&a=%e9"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        ck_assert_msg(pl_class_parse_post(bad[i], strlen(bad[i]), &p, why, sizeof why) == -1, "%s", bad[i]);
    char big[600];
    memset(big, 'a', sizeof big);
    memcpy(big, "q=1&a=", 6);
    ck_assert_int_eq(pl_class_parse_post(big, sizeof big, &p, why, sizeof why), -1);
}
END_TEST

/* A class written to disk and restored into a class made anew from the
 * same questions: the same students, every vote of both rounds with its
 * time, the reveal, the question open and its round; the tally the same. A
 * damaged line is refused, named by its number. */
START_TEST(test_a_class_kept_on_disk_is_restored_whole) {
    int q = add_choice(), n = add_count("2");
    int s[3];
    for (int i = 0; i < 3; i++) s[i] = student(i);
    pl_class_open(cls, q);
    answer(s[0], q, "a"), answer(s[1], q, "c");
    pl_class_again(cls);
    answer(s[0], q, "b");
    pl_class_reveal(cls, 0);
    pl_class_open(cls, n);
    answer(s[2], n, "1,400");
    char *dir = pl_test_tmpdir(), path[4200], why[300];
    ck_assert_int_eq(pl_class_rate(cls, s[2], n, 4, why, sizeof why), -1); /* 1 to 3 only */
    ck_assert_int_eq(pl_class_rate(cls, s[1], n, 2, why, sizeof why), -1); /* no vote to rate */
    ck_assert_str_eq(why, "answer the open question first, then say how sure you are");
    ck_assert_int_eq(pl_class_rate(cls, s[2], n, 3, why, sizeof why), 0);
    snprintf(path, sizeof path, "%s/k.class", dir);
    PlClassMeta m = {.lesson = "01-rectangle",
                     .settings = "v1,corpus=builtin,seed=0",
                     .code = "K7P2Q",
                     .salt = 0x0123456789abcdefULL,
                     .began = 1796400000,
                     .step = 4};
    ck_assert_msg(pl_class_save(cls, &m, path, why, sizeof why) == 0, "%s", why);
    PlClassMeta back;
    ck_assert_msg(pl_class_meta_read(path, &back, why, sizeof why) == 0, "%s", why);
    ck_assert_str_eq(back.lesson, "01-rectangle");
    ck_assert_str_eq(back.code, "K7P2Q");
    ck_assert(back.salt == 0x0123456789abcdefULL && back.began == 1796400000 && back.step == 4);
    PlClass *old = cls;
    cls = pl_class_new("K7P2Q");
    ck_assert_int_eq(add_choice(), q);
    ck_assert_int_eq(add_count("2"), n);
    ck_assert_msg(pl_class_restore(cls, path, why, sizeof why) == 0, "%s", why);
    ck_assert_int_eq(pl_class_students(cls), 3);
    PlClassNow now;
    pl_class_now(cls, &now);
    ck_assert(now.q == n && now.round == 1 && now.phase == PL_CLASS_OPEN);
    PlClassTally a, b;
    for (int qi = 0; qi < 2; qi++) {
        pl_class_tally(old, qi, &a), pl_class_tally(cls, qi, &b);
        ck_assert(a.rounds == b.rounds && a.answered[0] == b.answered[0] && a.answered[1] == b.answered[1]);
        ck_assert(a.right[0] == b.right[0] && a.right[1] == b.right[1] && a.revealed == b.revealed);
    }
    ck_assert_int_eq(pl_class_student(cls, token), 2); /* the last joined comes back with their token */
    char mine[100];
    pl_class_mine(cls, 2, mine, sizeof mine);
    ck_assert_str_eq(mine, "1,400");
    ck_assert_int_eq(pl_class_vote_sure(cls, 2, n, 1), 3); /* how sure, kept with the vote */
    ck_assert_int_eq(pl_class_vote_sure(cls, 0, q, 1), 0);
    pl_class_free(old);
    FILE *f = fopen(path, "a");
    fputs("vote = 0 1 9 0 0 0 -\n", f); /* a student the class never had */
    fclose(f);
    ck_assert_int_eq(pl_class_restore(cls, path, why, sizeof why), -1);
    ck_assert_msg(strstr(why, "k.class:") && strstr(why, "not a line of a saved class"), "%s", why);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

/* A misconception named by a figure of the lab has no value until the lab
 * measures it where the question is asked: before, 1,300 is an answer of
 * its own; after, it is the labelled row. The class's file keeps the value,
 * and a class restored from it labels the row the same; a second value for
 * it is refused. */
START_TEST(test_a_measured_misconception_is_kept_with_the_class) {
    int n = add_count("2");
    ck_assert_int_eq(pl_class_add_misconception(cls, n, (double)NAN, "the real tokens"), 0);
    int s[2] = {student(0), student(1)};
    pl_class_open(cls, n);
    answer(s[0], n, "1,300"), answer(s[1], n, "700");
    PlClassTally t;
    char text[200], *dir = pl_test_tmpdir(), path[4200], why[300];
    pl_class_tally(cls, n, &t);
    ck_assert_int_eq(t.nrows, 2);
    for (int k = 0; k < t.nrows; k++) ck_assert_int_ne(t.rows[k].kind, PL_ROW_MISCONCEPTION);
    ck_assert_int_eq(pl_class_set_misconception(cls, n, 1, 1300), -1); /* one named, not two */
    ck_assert_int_eq(pl_class_set_misconception(cls, n, 0, (double)INFINITY), -1);
    ck_assert_int_eq(pl_class_set_misconception(cls, n, 0, 1300), 0);
    PlClassTally *tallies[2] = {&t, &(PlClassTally){0}};
    for (int round = 0; round < 2; round++) {
        pl_class_tally(cls, n, tallies[round]);
        ck_assert_int_eq(tallies[round]->nrows, 2);
        pl_class_tally_label(tallies[round], 1, text, sizeof text);
        ck_assert_str_eq(text, "1300: the real tokens");
        ck_assert_int_eq(tallies[round]->rows[1].kind, PL_ROW_MISCONCEPTION);
        if (round) break;
        snprintf(path, sizeof path, "%s/m.class", dir);
        PlClassMeta m = {.lesson = "01-rectangle", .settings = "v1", .code = "K7P2Q", .began = 1796400000, .step = 2};
        ck_assert_msg(pl_class_save(cls, &m, path, why, sizeof why) == 0, "%s", why);
        pl_class_free(cls);
        cls = pl_class_new("K7P2Q");
        ck_assert_int_eq(add_count("2"), n);
        ck_assert_int_eq(pl_class_add_misconception(cls, n, (double)NAN, "the real tokens"), 0);
        ck_assert_msg(pl_class_restore(cls, path, why, sizeof why) == 0, "%s", why);
    }
    FILE *f = fopen(path, "a");
    fputs("miscon = 0 0 5\n", f); /* measured already */
    fclose(f);
    pl_class_free(cls);
    cls = pl_class_new("K7P2Q");
    ck_assert_int_eq(add_count("2"), n);
    ck_assert_int_eq(pl_class_add_misconception(cls, n, (double)NAN, "the real tokens"), 0);
    ck_assert_int_eq(pl_class_restore(cls, path, why, sizeof why), -1);
    ck_assert_msg(strstr(why, "not a line of a saved class"), "%s", why);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

static char *report_of(const char *fmt) {
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    pl_class_report_print(cls, f, fmt, "demo");
    fclose(f);
    return buf;
}

START_TEST(test_the_report_holds_each_round_and_the_common_wrong_answer) {
    int q = add_choice(), n = add_count("2");
    int s[3];
    for (int i = 0; i < 3; i++) s[i] = student(i);
    pl_class_open(cls, q);
    answer(s[0], q, "a"), answer(s[1], q, "c"), answer(s[2], q, "c");
    pl_class_again(cls);
    answer(s[0], q, "b"), answer(s[1], q, "b");
    char why[200];
    ck_assert_int_eq(pl_class_rate(cls, s[0], q, 3, why, sizeof why), 0);
    ck_assert_int_eq(pl_class_rate(cls, s[1], q, 2, why, sizeof why), 0);
    pl_class_reveal(cls, 0);
    pl_class_open(cls, n);
    answer(s[0], n, "7");
    ck_assert_int_eq(pl_class_rate(cls, s[0], n, 3, why, sizeof why), 0);
    pl_class_reveal(cls, 12);
    char ids[3][16], want[2000];
    for (int i = 0; i < 3; i++) { /* each student as the report names them: a hash of their token, never the token */
        unsigned char rnd[16];
        char tok[PL_CLASS_TOKEN_HEX + 1];
        memset(rnd, i + 1, sizeof rnd);
        for (int k = 0; k < 16; k++) snprintf(tok + 2 * k, 3, "%02x", rnd[k]);
        snprintf(ids[i], sizeof ids[i], "%08" PRIx32, (uint32_t)pl_fnv1a(tok, PL_CLASS_TOKEN_HEX));
    }
    snprintf(want, sizeof want,
             "question,step,kind,prompt,round,answer,counted_right,sure,seconds,student\n"
             "1,5,choose,Which padding?,1,a. post,no,,0.0,%s\n"
             "1,5,choose,Which padding?,1,c. none,no,,0.0,%s\n"
             "1,5,choose,Which padding?,1,c. none,no,,0.0,%s\n"
             "1,5,choose,Which padding?,2,b. pre,yes,3,0.0,%s\n"
             "1,5,choose,Which padding?,2,b. pre,yes,2,0.0,%s\n"
             "2,3,ask,How many pad cells?,1,7,no,3,0.0,%s\n",
             ids[0], ids[1], ids[2], ids[0], ids[1], ids[0]);
    char *csv = report_of("csv");
    ck_assert_str_eq(csv, want);
    free(csv);
    char *json = report_of("json");
    char *w = json;
    for (char *r = json; *r; r++) /* without its blanks */
        if (*r != ' ' && *r != '\n') *w++ = *r;
    *w = 0;
    ck_assert_ptr_nonnull(strstr(json, "\"rounds\":[{\"round\":1,\"answered\":3,\"right\":0},{\"round\":2,"
                                       "\"answered\":2,\"right\":2}]"));
    ck_assert_ptr_nonnull(strstr(json,
                                 "\"switches\":{\"to_right\":2,\"to_wrong\":0,\"stayed_right\":0,"
                                 "\"stayed_wrong\":0},\"wrong\":\"c.none\",\"wrong_count\":2,\"wrong_tied\":false"));
    ck_assert_ptr_nonnull(strstr(json, "\"lab_value\":12,\"rounds\":[{\"round\":1,\"answered\":1,\"right\":0}]"));
    free(json);
    char *md = report_of("md");
    ck_assert_ptr_nonnull(
        strstr(md, "## Question 1 (step 5, choose)\n\nWhich padding?\n\nRound 1: 3 answered; Round 2: 2 answered."));
    ck_assert_ptr_nonnull(strstr(md, "| b. pre (right) | 0 | 2 |"));
    ck_assert_ptr_nonnull(strstr(md, "Between the rounds: 2 went from wrong to right, 0 from right to wrong"));
    ck_assert_ptr_nonnull(strstr(md, "The most common wrong answer of round 1: c. none (2)."));
    /* question 1: the two right answers said 3 and 2; question 2: the one wrong answer said 3 */
    ck_assert_ptr_nonnull(strstr(md, "How sure (1 a guess, 3 sure), on average: 2.5 over 2 right answers.\n"));
    ck_assert_ptr_nonnull(strstr(md, "How sure (1 a guess, 3 sure), on average: 3.0 over 1 wrong answer.\n"));
    free(md);
}
END_TEST

/* Following a lesson: a step's question opens with its prompt filled from
 * the lab, r reveals the number the lab computes (the batch's pad cells,
 * counted here from the batch), an exam refuses r and v and reveals at the
 * end what it kept when the step opened. */
static const char follow_lesson[] =
    "# Follow\nsetup: seeds=1\n\n## Look\nNothing asked.\n\n"
    "## Count\nset: padding=post maxlen=100\nask: Of {batch.cells} cells, how many pads?\n"
    "answer: batch.pad_cells\nsummary:\n- done\n";

static double pads_of(PlLab *lab) {
    const PlProbeBatch *b = pl_lab_batch(lab, NULL);
    double pads = 0;
    for (int i = 0; i < b->batch->B * b->batch->T; i++) pads += b->batch->mask[i] == 0;
    return pads;
}

/* Lesson text (n bytes) parsed into *l and opened on a lab of 400 built-in
 * reviews at step k, its figures computed. */
static PlLessonRun *open_follow(const char *text, size_t n, int k, PlLesson **l, PlLab **lab) {
    PlErr err;
    *l = pl_lesson_parse("f.lesson", text, n, &err);
    ck_assert_msg(*l != NULL, "%s", err.msg);
    PlLabSettings s = pl_settings_default();
    snprintf(s.corpus, sizeof s.corpus, "builtin:1:400");
    *lab = pl_lab_new(&s, &err);
    PlLessonRun *r = pl_lesson_run_new(*lab, *l, 1, &err);
    ck_assert_msg(r != NULL, "%s", err.msg);
    if (k > 0) ck_assert_int_eq(pl_lesson_run_goto(r, k, &err), 0);
    ck_assert_int_eq(pl_lab_wait(*lab, pl_lesson_run_kinds(r), 600), 0);
    return r;
}

static void follow_case(int exam) {
    PlErr err;
    PlLesson *l;
    PlLab *lab;
    PlLessonRun *r = open_follow(follow_lesson, sizeof follow_lesson - 1, 0, &l, &lab);
    PlClassFollow f;
    ck_assert_int_eq(pl_class_follow_init(&f, l, "K7P2Q", 7, exam, &err), 0);
    ck_assert_int_eq(pl_class_follow_question(&f, 0), -1);
    ck_assert_int_eq(pl_class_follow_question(&f, 1), 0);
    ck_assert_int_eq(pl_class_follow_step(&f, lab, 1), 0);
    PlClassNow n;
    pl_class_now(f.c, &n);
    char want[96];
    const PlProbeBatch *b = pl_lab_batch(lab, NULL);
    snprintf(want, sizeof want, "Of %d cells, how many pads?", b->batch->B * b->batch->T);
    ck_assert_str_eq(n.prompt, want);
    ck_assert_int_eq(n.phase, PL_CLASS_OPEN);
    unsigned char rnd[16] = {1};
    char tok[PL_CLASS_TOKEN_HEX + 1], text[32], why[200];
    int st = pl_class_join(f.c, rnd, tok);
    snprintf(text, sizeof text, "%.0f", pads_of(lab));
    ck_assert_int_eq(pl_class_answer(f.c, st, 0, text, why, sizeof why), 0);
    PlClassTally t;
    if (exam) {
        ck_assert_int_eq(pl_class_follow_reveal(&f, lab), -1);
        ck_assert_int_eq(pl_class_follow_again(&f), -1);
        ck_assert_str_eq(f.note, "an exam reveals nothing until the end: q ends it and reveals every question");
        pl_class_now(f.c, &n);
        ck_assert_int_eq(n.phase, PL_CLASS_OPEN);
        ck_assert_int_eq(pl_class_follow_end(&f, NULL, NULL), 1);
    } else ck_assert_int_eq(pl_class_follow_reveal(&f, lab), 0);
    ck_assert_int_eq(pl_class_tally(f.c, 0, &t), 0);
    ck_assert_int_eq(t.revealed, 1);
    ck_assert_double_eq(t.value, pads_of(lab));
    ck_assert_int_eq(t.right[0], 1);
    pl_class_follow_done(&f);
    pl_lesson_run_free(r);
    pl_lab_free(lab);
    pl_lesson_free(l);
}

/* A misconception named by a figure that another question not answered
 * yet asks labels no row: the class would read that question's answer in
 * it. Step 2 asks the real tokens and names the pads, which step 1 asks:
 * while step 1 is open the pads typed are an answer of their own; once it
 * is answered, the labelled row. */
START_TEST(test_a_misconception_waits_for_the_question_that_asks_its_figure) {
    static const char text[] =
        "# M\nsetup: seeds=1\n\n## Pads\nset: maxlen=100\nask: How many pads?\n"
        "answer: batch.pad_cells\n\n## Real\nset: maxlen=100\nask: How many real tokens?\n"
        "answer: batch.real_tokens\nmisconception: {batch.pad_cells} => the pads\nsummary:\n- done\n";
    PlErr err;
    PlLesson *l;
    PlLab *lab;
    PlLessonRun *r = open_follow(text, sizeof text - 1, 1, &l, &lab);
    PlClassFollow f;
    PlLedger ask;
    ck_assert_int_eq(pl_class_follow_init(&f, l, "K7P2Q", 7, 0, &err), 0);
    pl_lesson_run_question_ledger(r, &ask);
    f.ask_ledger = &ask;
    ck_assert_int_eq(pl_class_follow_step(&f, lab, 1), 0);
    unsigned char rnd[16] = {1};
    char tok[PL_CLASS_TOKEN_HEX + 1], pads[32], why[200], label[200], want[64];
    int st = pl_class_join(f.c, rnd, tok);
    snprintf(pads, sizeof pads, "%.0f", pads_of(lab));
    ck_assert_int_eq(pl_class_answer(f.c, st, 1, pads, why, sizeof why), 0);
    PlClassTally t;
    ck_assert_int_eq(pl_class_tally(f.c, 1, &t), 0);
    ck_assert_int_eq(t.nrows, 1);
    ck_assert_int_ne(t.rows[0].kind, PL_ROW_MISCONCEPTION);
    ck_assert_int_eq(pl_lesson_run_goto(r, 0, &err), 0); /* step 1 answered: its figure in sight */
    ck_assert_int_eq(pl_lesson_run_answer(r, pads), PL_ANS_RIGHT);
    ck_assert_int_eq(pl_lesson_run_goto(r, 1, &err), 0);
    pl_lesson_run_question_ledger(r, &ask);
    pl_class_follow_refresh(&f, lab);
    ck_assert_int_eq(pl_class_tally(f.c, 1, &t), 0);
    ck_assert_int_eq(t.nrows, 1);
    ck_assert_int_eq(t.rows[0].kind, PL_ROW_MISCONCEPTION);
    pl_class_tally_label(&t, 0, label, sizeof label);
    snprintf(want, sizeof want, "%s: the pads", pads);
    ck_assert_str_eq(label, want);
    pl_class_follow_done(&f);
    pl_lesson_run_free(r);
    pl_lab_free(lab);
    pl_lesson_free(l);
}
END_TEST

START_TEST(test_following_a_lesson_reveals_the_labs_number) { follow_case(0); }
END_TEST

START_TEST(test_an_exam_keeps_its_number_until_the_end) { follow_case(1); }
END_TEST

Suite *class_suite(void) {
    Suite *s = suite_create("class");
    TCase *votes = tcase_create("votes");
    tcase_add_checked_fixture(votes, setup, teardown);
    tcase_add_test(votes, test_a_reanswer_replaces_the_vote_of_that_round);
    tcase_add_test(votes, test_a_student_who_rejoins_with_their_token_keeps_their_vote);
    tcase_add_test(votes, test_answers_are_refused_outside_the_open_question);
    tcase_add_test(votes, test_wrong_codes_are_limited_per_address);
    tcase_add_test(votes, test_a_posted_answer_is_read_decoded_and_bounded);
    suite_add_tcase(s, votes);
    TCase *tally = tcase_create("tally");
    tcase_add_checked_fixture(tally, setup, teardown);
    tcase_add_test(tally, test_a_number_is_tallied_by_hand);
    tcase_add_test(tally, test_a_misconception_gets_a_labelled_row_of_its_own);
    tcase_add_test(tally, test_a_measured_misconception_is_kept_with_the_class);
    tcase_add_test(tally, test_the_projectors_tally_fits_every_width);
    tcase_add_test(tally, test_many_answers_cluster_and_the_far_ones_stand_apart);
    tcase_add_test(tally, test_a_share_typed_three_ways_counts_as_one_answer);
    tcase_add_test(tally, test_choices_are_counted_per_choice_with_the_right_one_marked);
    tcase_add_test(tally, test_the_report_holds_each_round_and_the_common_wrong_answer);
    tcase_add_test(tally, test_a_class_kept_on_disk_is_restored_whole);
    suite_add_tcase(s, tally);
    TCase *follow = tcase_create("follow");
    tcase_set_timeout(follow, PL_TEST_HANG);
    tcase_add_test(follow, test_following_a_lesson_reveals_the_labs_number);
    tcase_add_test(follow, test_an_exam_keeps_its_number_until_the_end);
    tcase_add_test(follow, test_a_misconception_waits_for_the_question_that_asks_its_figure);
    suite_add_tcase(s, follow);
    return s;
}
