/* The class session: votes and rounds, rejoining, the join code's limit, the
 * tally (worked out by hand below) and the report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/class/class.h"
#include "app/class/follow.h"
#include "app/teach/lesson_run.h"
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

/* Round 1: 10, 12, 12, 15, 20. The lab says 13, tolerance 2: the band is
 * [11, 15], right are 12, 12, 15 (3). The range is [10, 20], ten bins of 1:
 * 10 -> bin 0, 12 -> bin 2, 15 -> bin 5, 20 -> the last bin (9); the value
 * 13 in bin 3, the band from bin 1 to bin 5. Round 2: 13, 13, 12, 14, 20:
 * right 4. The wrong answers of round 1 are 10 and 20 once each: the
 * smaller, 10. */
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
    ck_assert_int_eq(t.nbins, 10);
    ck_assert_double_eq(t.edge0, 10.0);
    ck_assert_double_eq(t.width, 1.0);
    int want1[10] = {1, 0, 2, 0, 0, 1, 0, 0, 0, 1}, want2[10] = {0, 0, 1, 2, 1, 0, 0, 0, 0, 1};
    for (int k = 0; k < 10; k++) {
        ck_assert_int_eq(t.bins[0][k], want1[k]);
        ck_assert_int_eq(t.bins[1][k], want2[k]);
    }
    ck_assert_int_eq(t.value_bin, 3);
    ck_assert_int_eq(t.band_bin_lo, 1);
    ck_assert_int_eq(t.band_bin_hi, 5);
    ck_assert_str_eq(t.value_text, "13");
    ck_assert_str_eq(t.wrong, "10");
    ck_assert_int_eq(t.wrong_count, 1);
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
    ck_assert_int_eq(pl_class_code_try(cls, "10.0.0.9", "K7P2Q", 2000), PL_CLASS_CODE_LIMITED);
    ck_assert_int_eq(pl_class_code_try(cls, "10.0.0.8", "K7P2Q", 2000), PL_CLASS_CODE_OK); /* another address */
    ck_assert_int_eq(pl_class_code_try(cls, "10.0.0.9", "K7P2Q", 1000 + PL_CLASS_CODE_WINDOW_MS - 1),
                     PL_CLASS_CODE_LIMITED);
    ck_assert_int_eq(pl_class_code_try(cls, "10.0.0.9", "K7P2Q", 1000 + PL_CLASS_CODE_WINDOW_MS), PL_CLASS_CODE_OK);
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
    const char *bad[] = {"q=3",         "a=1",           "q=x&a=1",
                         "q=1&a=%0a",   "q=1&a=%zz",     "q=1&a=1&q=2",
                         "q=1&a=1&x=2", "q=1&a=1&t=abc", "q=1&a=123456789012345678901234567890123",
                         "q=1&a=%e9"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        ck_assert_msg(pl_class_parse_post(bad[i], strlen(bad[i]), &p, why, sizeof why) == -1, "%s", bad[i]);
    char big[600];
    memset(big, 'a', sizeof big);
    memcpy(big, "q=1&a=", 6);
    ck_assert_int_eq(pl_class_parse_post(big, sizeof big, &p, why, sizeof why), -1);
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
    pl_class_reveal(cls, 0);
    pl_class_open(cls, n);
    answer(s[0], n, "7");
    pl_class_reveal(cls, 12);
    char *csv = report_of("csv");
    ck_assert_str_eq(csv,
                     "question,step,kind,prompt,answered_1,right_1,answered_2,right_2,lab_value,wrong,wrong_count\n"
                     "1,5,choose,Which padding?,3,0,2,2,,c. none,2\n"
                     "2,3,ask,How many pad cells?,1,0,,,12,7,1\n");
    free(csv);
    char *json = report_of("json");
    char *w = json;
    for (char *r = json; *r; r++) /* without its blanks */
        if (*r != ' ' && *r != '\n') *w++ = *r;
    *w = 0;
    ck_assert_ptr_nonnull(strstr(json, "\"rounds\":[{\"round\":1,\"answered\":3,\"right\":0},{\"round\":2,"
                                       "\"answered\":2,\"right\":2}],\"wrong\":\"c.none\",\"wrong_count\":2"));
    ck_assert_ptr_nonnull(strstr(json, "\"lab_value\":12,\"rounds\":[{\"round\":1,\"answered\":1,\"right\":0}]"));
    free(json);
    char *md = report_of("md");
    ck_assert_ptr_nonnull(strstr(md, "| 1 | 5 | Which padding? | 3 | 0 | 2 | 2 | choose | c. none (2) |"));
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

static void follow_case(int exam) {
    PlErr err;
    PlLesson *l = pl_lesson_parse("f.lesson", follow_lesson, sizeof follow_lesson - 1, &err);
    ck_assert_msg(l != NULL, "%s", err.msg);
    PlLabSettings s = pl_settings_default();
    snprintf(s.corpus, sizeof s.corpus, "builtin:1:400");
    PlLab *lab = pl_lab_new(&s, &err);
    PlLessonRun *r = pl_lesson_run_new(lab, l, 1, &err);
    ck_assert_msg(r != NULL, "%s", err.msg);
    ck_assert_int_eq(pl_lab_wait(lab, pl_lesson_run_kinds(r), 600), 0);
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
    tcase_add_test(tally, test_a_share_typed_three_ways_counts_as_one_answer);
    tcase_add_test(tally, test_choices_are_counted_per_choice_with_the_right_one_marked);
    tcase_add_test(tally, test_the_report_holds_each_round_and_the_common_wrong_answer);
    suite_add_tcase(s, tally);
    TCase *follow = tcase_create("follow");
    tcase_set_timeout(follow, PL_TEST_HANG);
    tcase_add_test(follow, test_following_a_lesson_reveals_the_labs_number);
    tcase_add_test(follow, test_an_exam_keeps_its_number_until_the_end);
    suite_add_tcase(s, follow);
    return s;
}
