/* Lesson questions in review: a lesson's first answer to each question is
 * graded in the drill book (a miss again, a right answer good, without the
 * learning steps: the lesson was the learning), the due ones come back in
 * a review at their own step, and every shipped question has a card id of
 * its own. The stabilities and intervals are FSRS-6's published weights
 * worked by hand: a first grade again sets S = w0 = 0.212 days, good S =
 * w2 = 2.3065 days; at retention 0.9 the interval is S rounded, at least a
 * day: 1 and 2 days. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/lab/quantity.h"
#include "app/teach/choices.h"
#include "app/teach/lesson_play.h"
#include "app/teach/lesson_review.h"
#include "suites.h"

#define NOW 1796288400LL /* 2026-12-03T09:00 UTC */

static const char lesson[] = "# Counting pads\n"
                             "setup: mask=off seeds=1\n"
                             "\n"
                             "## First\n"
                             "set: padding=post maxlen=100\n"
                             "ask: How many pads?\n"
                             "answer: batch.pad_cells\n"
                             "\n"
                             "## Between\n"
                             "Nothing asked here.\n"
                             "\n"
                             "## Second\n"
                             "choose: Which?\n"
                             "- wrong => no\n"
                             "* right => yes\n"
                             "summary:\n"
                             "- done\n";

typedef struct {
    char *dir;
    PlLab *lab;
} World;

/* A learner of their own (state and lessons in a fresh folder), the clock at t. */
static void begin(World *w) {
    w->dir = pl_test_tmpdir();
    char path[4200];
    snprintf(path, sizeof path, "%s/t.lesson", w->dir);
    pl_test_write_file(path, lesson, sizeof lesson - 1);
    setenv("XDG_STATE_HOME", w->dir, 1);
    setenv("PADLAB_LESSONS", w->dir, 1);
    PlLabSettings s = pl_settings_default();
    snprintf(s.corpus, sizeof s.corpus, "builtin:1:400");
    PlErr err;
    w->lab = pl_lab_new(&s, &err);
    ck_assert_msg(w->lab != NULL, "%s", err.msg);
}

static void end(World *w) {
    pl_lab_free(w->lab);
    unsetenv("XDG_STATE_HOME"), unsetenv("PADLAB_LESSONS"), unsetenv("PADLAB_NOW");
    pl_test_rmtree(w->dir);
    free(w->dir);
}

static void clock_at(const char *when) { setenv("PADLAB_NOW", when, 1); }

/* The pad cells of the step's batch, as the lab computes them. */
static double asked(PlLab *lab, PlLessonPlay *p) {
    double v;
    char why[256];
    ck_assert_int_eq(pl_lab_wait(lab, pl_lesson_run_kinds(p->run), 600), 0);
    ck_assert_msg(pl_quantity_value(lab, &pl_lesson_run_step(p->run)->q.answer, &v, why, sizeof why) == 0, "%s", why);
    return v;
}

static void type(PlLessonPlay *p, double v) {
    char text[32];
    snprintf(text, sizeof text, "%.0f", v);
    for (const char *c = text; *c; c++) pl_lesson_play_key(p, PL_LK_CHAR, *c);
    pl_lesson_play_key(p, PL_LK_ENTER, 0);
}

/* The letter the right choice is shown at, for this learner's order. */
static int right_letter(PlLessonPlay *p) {
    const PlLessonState *st = pl_lesson_run_state(p->run);
    return 'a' + pl_choices_place(st->order, 2, 1);
}

static const PlDrillRecord *card(PlDrillBook *b, const char *id) {
    PlErr err;
    ck_assert_int_eq(pl_drill_book_load(b, &err), PL_OK);
    return pl_drill_book_find(b, PL_LESSON_DECK, id);
}

/* The lesson played from the start: a miss then the right number on step
 * 1, the right choice on step 3. */
static void play_lesson(World *w) {
    PlLessonPlay p;
    char why[512];
    ck_assert_msg(pl_lesson_play_open(&p, w->lab, "t", -1, 0, why, sizeof why) == 0, "%s", why);
    double pads = asked(w->lab, &p);
    type(&p, pads + 1);
    ck_assert_int_eq(pl_lesson_run_state(p.run)->answer, PL_ANS_WRONG);
    type(&p, pads);
    ck_assert_int_eq(pl_lesson_run_state(p.run)->answer, PL_ANS_RIGHT);
    pl_lesson_play_key(&p, PL_LK_NEXT, 0), pl_lesson_play_key(&p, PL_LK_NEXT, 0);
    ck_assert_int_eq(pl_lesson_run_state(p.run)->step, 2);
    pl_lesson_play_key(&p, PL_LK_CHAR, right_letter(&p));
    ck_assert_int_eq(pl_lesson_run_state(p.run)->answer, PL_ANS_RIGHT);
    ck_assert_str_eq(p.unsaved, "");
    pl_lesson_play_close(&p);
}

/* Lesson 10 step 2, answered, then 'c' pressed again: the key went to the
 * lab and changed the convention, unseen. A choice's letter is the
 * lesson's once its question is answered (nothing happens); another key
 * still goes to the lab. */
START_TEST(test_a_choice_letter_pressed_again_stays_with_the_lesson) {
    World w;
    begin(&w);
    clock_at("2026-12-03T09:00");
    PlLessonPlay p;
    char why[512];
    ck_assert_msg(pl_lesson_play_open(&p, w.lab, "t", 2, 0, why, sizeof why) == 0, "%s", why);
    ck_assert_int_eq(pl_lesson_play_key(&p, PL_LK_CHAR, right_letter(&p)), PL_LESSON_TAKEN);
    ck_assert_int_eq(pl_lesson_run_state(p.run)->answer, PL_ANS_RIGHT);
    for (int c = 'a'; c < 'a' + pl_lesson_run_step(p.run)->q.nchoices; c++)
        ck_assert_int_eq(pl_lesson_play_key(&p, PL_LK_CHAR, c), PL_LESSON_TAKEN);
    ck_assert_int_eq(pl_lesson_play_key(&p, PL_LK_CHAR, 'm'), PL_LESSON_LAB);
    ck_assert_int_eq(pl_lesson_run_state(p.run)->answer, PL_ANS_RIGHT);
    pl_lesson_play_close(&p);
    end(&w);
}
END_TEST

START_TEST(test_a_lesson_answer_becomes_a_card) {
    World w;
    begin(&w);
    clock_at("2026-12-03T09:00");
    play_lesson(&w);
    PlDrillBook b;
    const PlDrillRecord *r = card(&b, "t:first");
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(r->s.state, PL_CARD_REVIEW); /* no learning steps: the lesson was the learning */
    ck_assert_int_eq(r->s.reviews, 1);            /* the first answer only */
    ck_assert_double_eq_tol(r->s.s, 0.212, 1e-9);
    ck_assert_int_eq(r->s.scheduled, 1);
    ck_assert(r->s.due == NOW + PL_DAY);
    r = pl_drill_book_find(&b, PL_LESSON_DECK, "t:second");
    ck_assert_ptr_nonnull(r);
    ck_assert_double_eq_tol(r->s.s, 2.3065, 1e-9);
    ck_assert_int_eq(r->s.scheduled, 2);
    ck_assert(r->s.due == NOW + 2 * PL_DAY);
    ck_assert_ptr_null(pl_drill_book_find(&b, PL_LESSON_DECK, "t:between")); /* nothing asked, no card */
    const PlDrillRecord *log = pl_book_find(&b, "lessons/t:first@1796288400.1");
    ck_assert_ptr_nonnull(log);
    ck_assert_int_eq(log->log.grade, PL_GRADE_AGAIN);

    /* the deck the drills list: both questions, titled by their prompts */
    PlLessonDue *due = NULL;
    int ndue = -1, today = (int)(NOW / PL_DAY);
    PlErr err;
    PlDeck *d = pl_lesson_deck(&b, today, &due, &ndue, &err);
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(d->n, 2);
    ck_assert_str_eq(d->items[0].title, "How many pads?");
    ck_assert_str_eq(d->items[1].topic, "Counting pads");
    ck_assert_int_eq(ndue, 0);
    free(due), pl_deck_free(d);
    d = pl_lesson_deck(&b, today + 1, &due, &ndue, &err);
    ck_assert_int_eq(ndue, 1);
    ck_assert_int_eq(due[0].step, 0);
    free(due), pl_deck_free(d);
    d = pl_lesson_deck(&b, today + 2, &due, &ndue, &err);
    ck_assert_int_eq(ndue, 2); /* earliest first */
    ck_assert(due[0].step == 0 && due[1].step == 2 && due[0].due < due[1].due);
    free(due), pl_deck_free(d);
    pl_drill_book_done(&b);
    end(&w);
}
END_TEST

/* A step opened on its own (lesson NAME STEP, the lab's jump) keeps no
 * progress, and grades nothing either. */
START_TEST(test_a_step_opened_alone_grades_nothing) {
    World w;
    begin(&w);
    clock_at("2026-12-03T09:00");
    PlLessonPlay p;
    char why[512];
    ck_assert_msg(pl_lesson_play_open(&p, w.lab, "t", 0, 0, why, sizeof why) == 0, "%s", why);
    type(&p, asked(w.lab, &p) + 1);
    ck_assert_int_eq(pl_lesson_run_state(p.run)->answer, PL_ANS_WRONG);
    pl_lesson_play_close(&p);
    PlDrillBook b;
    ck_assert_ptr_null(card(&b, "t:first"));
    pl_drill_book_done(&b);
    end(&w);
}
END_TEST

START_TEST(test_a_review_asks_the_due_questions_at_their_steps) {
    World w;
    begin(&w);
    PlLessonPlay p;
    char why[512];
    clock_at("2026-12-03T09:00");
    ck_assert_int_eq(pl_lesson_play_review(&p, w.lab, 0, why, sizeof why), 1);
    ck_assert_str_eq(why, "no lesson question in review yet: each one you answer in a lesson comes back here");
    play_lesson(&w);
    ck_assert_int_eq(pl_lesson_play_review(&p, w.lab, 0, why, sizeof why), 1);
    ck_assert_str_eq(why, "2 lesson questions in review, none due today");

    clock_at("2026-12-05T09:00"); /* both due */
    ck_assert_msg(pl_lesson_play_review(&p, w.lab, 0, why, sizeof why) == 0, "%s", why);
    ck_assert_int_eq(p.ndue, 2);
    char title[256], step[256];
    pl_lesson_play_head(&p, title, sizeof title, step, sizeof step);
    ck_assert_str_eq(title, "review 1 of 2: Counting pads");
    ck_assert_str_eq(step, "step 1 of 3: First");
    type(&p, asked(w.lab, &p));
    ck_assert_int_eq(pl_lesson_run_state(p.run)->answer, PL_ANS_RIGHT);
    pl_lesson_play_key(&p, PL_LK_NEXT, 0);
    pl_lesson_play_head(&p, title, sizeof title, step, sizeof step);
    ck_assert_str_eq(title, "review 2 of 2: Counting pads");
    ck_assert_str_eq(step, "step 3 of 3: Second");
    pl_lesson_play_key(&p, PL_LK_CHAR, right_letter(&p) == 'a' ? 'b' : 'a'); /* a miss this time */
    ck_assert_int_eq(pl_lesson_run_state(p.run)->answer, PL_ANS_WRONG);
    pl_lesson_play_key(&p, PL_LK_NEXT, 0);
    ck_assert_str_eq(p.note, "that was the last question due today (2 reviewed): q quits");
    pl_lesson_play_close(&p);

    PlDrillBook b;
    const PlDrillRecord *r = card(&b, "t:first");
    ck_assert_int_eq(r->s.reviews, 2);
    ck_assert_int_eq(r->s.state, PL_CARD_REVIEW);
    ck_assert(r->s.due >= NOW + 2 * PL_DAY + 2 * PL_DAY); /* right two days on: longer than the first interval */
    r = pl_drill_book_find(&b, PL_LESSON_DECK, "t:second");
    ck_assert_int_eq(r->s.state, PL_CARD_RELEARNING); /* a lapse: the relearning step, 10 minutes */
    ck_assert_int_eq(r->s.lapses, 1);
    ck_assert(r->s.due == NOW + 2 * PL_DAY + 600);
    pl_drill_book_done(&b);
    end(&w);
}
END_TEST

/* Every question of every shipped lesson has a card id no other question
 * of its lesson shares (the id is cut to fit: its title's start must do). */
START_TEST(test_shipped_questions_have_ids_of_their_own) {
    char(*paths)[1024] = malloc(256 * sizeof *paths);
    int n = pl_lesson_list(paths, 256), questions = 0;
    ck_assert_int_ge(n, 11);
    for (int i = 0; i < n; i++) {
        PlErr err;
        PlLesson *l = pl_lesson_load(paths[i], &err);
        ck_assert_msg(l != NULL, "%s", err.msg);
        for (int j = 0; j < l->nsteps; j++) {
            if (l->steps[j].q.kind == PL_Q_NONE) continue;
            char a[PL_DECK_ID_CAP], c[PL_DECK_ID_CAP];
            pl_lesson_card_id(l, j, a, sizeof a);
            questions++;
            for (int k = j + 1; k < l->nsteps; k++) {
                if (l->steps[k].q.kind == PL_Q_NONE) continue;
                pl_lesson_card_id(l, k, c, sizeof c);
                ck_assert_msg(strcmp(a, c) != 0, "%s: steps %d and %d share the card id %s", l->name, j + 1, k + 1, a);
            }
        }
        pl_lesson_free(l);
    }
    ck_assert_int_ge(questions, 60);
    free(paths);
}
END_TEST

Suite *lesson_review_suite(void) {
    Suite *s = suite_create("review");
    TCase *tc = tcase_create("review");
    tcase_set_timeout(tc, PL_TEST_HANG);
    tcase_add_test(tc, test_a_lesson_answer_becomes_a_card);
    tcase_add_test(tc, test_a_choice_letter_pressed_again_stays_with_the_lesson);
    tcase_add_test(tc, test_a_step_opened_alone_grades_nothing);
    tcase_add_test(tc, test_a_review_asks_the_due_questions_at_their_steps);
    tcase_add_test(tc, test_shipped_questions_have_ids_of_their_own);
    suite_add_tcase(s, tc);
    return s;
}
