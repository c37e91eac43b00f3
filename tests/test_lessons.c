/* Lessons: every parser error names its line; a run folds the settings of
 * the steps up to the one shown, checks answers against the lab's numbers,
 * gives hints one at a time and the solution only after a try; progress
 * survives a reload; and every question of every shipped lesson is
 * answerable on the builtin corpus, accepting the lab's number and refusing
 * another. */
#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/lab/fill.h"
#include "app/teach/choices.h"
#include "app/teach/diagnose.h"
#include "app/teach/lesson_play.h"
#include "app/teach/lesson_review.h"
#include "app/teach/lesson_run.h"
#include "app/teach/renamed.h"
#include "suites.h"

#define SMALL "builtin:1:400"

static PlLesson *parse(const char *text, PlErr *err) { return pl_lesson_parse("t.lesson", text, strlen(text), err); }

/* ---- the parser ---- */

typedef struct {
    const char *text;
    const char *want; /* "t.lesson:LINE: fragment" */
} BadLesson;

#define END "\nsummary:\n- done\n"
static const BadLesson bad_lessons[] = {
    {"no title\n## s\n" END, "t.lesson:1: a lesson starts with its title"},
    {"# T\nlevel: easy\nwhatever\n## s\n" END, "t.lesson:3: before the first step (##) come only"},
    {"# T\nminutes: ten\n## s\n" END, "t.lesson:2: minutes is a whole number from 1 to 600"},
    {"# T\nminutes: 0\n## s\n" END, "t.lesson:2: minutes is a whole number"},
    {"# T\nsetup: padding=sideways\n## s\n" END, "t.lesson:2: padding must be"},
    {"# T\n##\n" END, "t.lesson:2: a step (##) needs a title"},
    {"# T\n## s\nset: colour=red\n" END, "t.lesson:3: 'colour' is not a setting"},
    {"# T\n## s\nset: maxlen\n" END, "t.lesson:3: settings are name=value pairs, got 'maxlen'"},
    {"# T\n## s\nset:\n" END, "t.lesson:3: settings need at least one name=value"},
    {"# T\n## s\nset: maxlen=0\n" END, "t.lesson:3: maxlen must be"},
    {"# T\n## s\nview: spreadsheet\n" END, "t.lesson:3: 'spreadsheet' is not a view"},
    {"# T\n## s\nlock: colour\n" END, "t.lesson:3: 'colour' is not a setting (or all)"},
    {"# T\n## s\nText {batch.pad_cells\n" END, "t.lesson:3: a { that no } closes"},
    {"# T\n## s\nText {batch.nothing}\n" END, "t.lesson:3: "},
    {"# T\n## s\nText.\n; a note {batch.nothing}\n" END, "t.lesson:4: "},
    {"# T\n## s\n; a note {batch.pad_cells\n" END, "t.lesson:3: a { that no } closes"},
    {"# T\n## s\nask: how many?\n" END, "t.lesson:3: an ask: needs its answer: line"},
    {"# T\n## s\nask: how many?\nanswer: batch.nothing\n" END, "t.lesson:4: "},
    {"# T\n## s\nanswer: batch.pad_cells\n" END, "t.lesson:3: answer: belongs to a question"},
    {"# T\n## s\nhint: look\n" END, "t.lesson:3: hint: belongs to a question"},
    {"# T\n## s\nask: a\nanswer: batch.pad_cells\nask: b\n" END, "t.lesson:5: a step asks one question"},
    {"# T\n## s\nask: a\nanswer: batch.pad_cells\ntolerance: close\n" END, "t.lesson:5: a tolerance is a number"},
    {"# T\n## s\nchoose: a\nanswer: batch.pad_cells\n" END, "t.lesson:4: answer: belongs to an ask: question"},
    {"# T\n## s\nchoose: which?\n- one => no\n" END, "t.lesson:3: a choose: question needs two choices or more"},
    {"# T\n## s\nchoose: which?\n- one => no\n- two => no\n" END,
     "t.lesson:3: a choose: question needs two choices or more"},
    {"# T\n## s\nchoose: which?\n- one => no\n* => yes\n" END, "t.lesson:5: a choice needs its text"},
    {"# T\n## s\nexercise: do it\nsolve: mask=on\n" END, "t.lesson:3: an exercise: needs its goal: line"},
    {"# T\n## s\nexercise: do it\ngoal: mask == on\n" END, "t.lesson:3: an exercise: needs solve:"},
    {"# T\n## s\nexercise: do it\ngoal: cost.kept_share about 0.9\n" END,
     "t.lesson:4: a goal condition is QUANTITY OP VALUE"},
    {"# T\n## s\nexercise: do it\ngoal: cost.kept_share >= lots\n" END, "t.lesson:4: 'lots' is not a number"},
    {"# T\n## s\nexercise: do it\ngoal: mask == maybe\n" END, "t.lesson:4: mask must be"},
    {"# T\n## s\nexercise: do it\ngoal: maxlen > 1\nsmallest: padding\n" END,
     "t.lesson:5: smallest: names a number setting"},
    {"# T\n## s\nask: a\nanswer: batch.pad_cells\nsolve: mask=on\n" END, "t.lesson:5: solve: belongs to an exercise"},
    {"# T\n## s\ninline: |\n" END, "t.lesson:3: inline takes rows of words or ids"},
    {"# T\n## s\nText.\n", "t.lesson:1: a lesson ends with a summary"},
    {"# T\nlevel: easy\n", "t.lesson:1: a lesson has steps"},
    {"", "t.lesson:1: a lesson starts with its title"},
};

START_TEST(test_parser_errors) {
    const BadLesson *b = &bad_lessons[_i];
    PlErr err;
    PlLesson *l = parse(b->text, &err);
    ck_assert_msg(l == NULL, "case %d parsed: %s", _i, b->text);
    ck_assert_msg(strncmp(err.msg, b->want, strlen(b->want)) == 0 || strstr(err.msg, b->want),
                  "case %d: got '%s', want '%s'", _i, err.msg, b->want);
    ck_assert_msg(strncmp(err.msg, b->want, strcspn(b->want, " ")) == 0, "case %d: '%s' does not start with its line",
                  _i, err.msg);
}
END_TEST

START_TEST(test_parser_binary_and_long_lines) {
    PlErr err;
    const char nul[] = "# T\n## s\nte\0xt\n";
    ck_assert_ptr_null(pl_lesson_parse("t.lesson", nul, sizeof nul - 1, &err));
    ck_assert_str_eq(err.msg, "t.lesson:1: a lesson is text: this file holds a NUL byte");
    size_t n = 5000;
    char *text = malloc(n + 64);
    ck_assert_ptr_nonnull(text);
    strcpy(text, "# T\n## s\n");
    memset(text + 9, 'x', n);
    strcpy(text + 9 + n, "\n" END);
    ck_assert_ptr_null(parse(text, &err));
    ck_assert_str_eq(err.msg, "t.lesson:3: a line is at most 2047 bytes long");
    free(text);
}
END_TEST

static const char good[] = "# Counting pads\n"
                           "level: beginner\n"
                           "minutes: 5\n"
                           "about: A short one.\n"
                           "setup: mask=off seeds=1\n"
                           "; a note for the teacher\n"
                           "\n"
                           "## First\n"
                           "The batch is {batch.rows} rows.\n"
                           "set: padding=post maxlen=100\n"
                           "view: batch\n"
                           "lock: padding maxlen\n"
                           "ask: How many pads?\n"
                           "answer: batch.pad_cells\n"
                           "hint: one\n"
                           "hint: two\n"
                           "solution: count them\n"
                           "reveal: {batch.pad_cells}\n"
                           "\n"
                           "## Second\n"
                           "inline: 0 0 great film | + bad\n"
                           "unlock: maxlen\n"
                           "choose: Which?\n"
                           "- wrong => no\n"
                           "* right => yes\n"
                           "\n"
                           "## Third\n"
                           "set: maxlen=2000\n"
                           "exercise: Keep 90% of the tokens with the smallest maxlen.\n"
                           "goal: cost.kept_share >= 90% & batch >= 16\n"
                           "smallest: maxlen\n"
                           "solution: the smallest one\n"
                           "summary:\n"
                           "- pads: {batch.pad_share}\n"
                           "- two lines\n";

START_TEST(test_parser_reads_everything) {
    PlErr err;
    PlLesson *l = parse(good, &err);
    ck_assert_msg(l != NULL, "%s", err.msg);
    ck_assert_str_eq(l->name, "t");
    ck_assert_str_eq(l->title, "Counting pads");
    ck_assert_str_eq(l->level, "beginner");
    ck_assert_int_eq(l->minutes, 5);
    ck_assert_str_eq(l->setup, "mask=off seeds=1");
    /* settings are parsed once, when the lesson is read */
    ck_assert_uint_eq(l->setup_patch->mask, PL_S_BIT(PL_S_MASK) | PL_S_BIT(PL_S_SEEDS));
    ck_assert(l->setup_patch->values.mask == 0 && l->setup_patch->values.seeds == 1);
    ck_assert_int_eq(l->nsteps, 3);
    const PlStep *s = &l->steps[0];
    ck_assert_str_eq(s->title, "First");
    ck_assert_int_eq(s->line, 8);
    ck_assert_str_eq(s->text, "The batch is {batch.rows} rows.");
    ck_assert_int_eq(s->nactions, 3);
    ck_assert_int_eq(s->actions[0].kind, PL_STEP_SET);
    ck_assert_ptr_nonnull(s->actions[0].set);
    ck_assert_ptr_null(s->actions[2].set);
    ck_assert_int_eq(s->actions[2].kind, PL_STEP_LOCK);
    ck_assert_uint_eq(s->actions[2].bits, PL_S_BIT(PL_S_PADDING) | PL_S_BIT(PL_S_MAXLEN));
    ck_assert_int_eq(s->q.kind, PL_Q_ASK);
    ck_assert_int_eq(s->q.nhints, 2);
    ck_assert_str_eq(s->q.solution, "count them");
    s = &l->steps[1];
    ck_assert_int_eq(s->q.kind, PL_Q_CHOOSE);
    ck_assert_int_eq(s->q.nchoices, 2);
    ck_assert_str_eq(s->q.choices[0].text, "wrong");
    ck_assert_str_eq(s->q.choices[0].explain, "no");
    ck_assert_int_eq(s->q.choices[1].right, 1);
    s = &l->steps[2];
    ck_assert_int_eq(s->q.kind, PL_Q_EXERCISE);
    ck_assert_int_eq(s->q.ngoal, 2);
    ck_assert_double_eq_tol(s->q.goal[0].value, 0.9, 1e-12);
    ck_assert_int_eq(s->q.goal[0].op, PL_OP_GE);
    ck_assert_double_eq(s->q.goal[1].value, 16);
    ck_assert_int_eq(s->q.smallest, PL_S_MAXLEN);
    ck_assert_str_eq(s->summary, "- pads: {batch.pad_share}\n- two lines");
    pl_lesson_free(l);
}
END_TEST

/* ---- a run on the lab ---- */

static PlLab *small_lab(void) {
    PlLabSettings s = pl_settings_default();
    snprintf(s.corpus, sizeof s.corpus, "%s", SMALL);
    PlErr err;
    PlLab *lab = pl_lab_new(&s, &err);
    ck_assert_msg(lab != NULL, "%s", err.msg);
    return lab;
}

/* Waits as a learner who reads the step does: for its training or grid,
 * for the retrain a cold setting started, and for what it shows. */
static void wait_for(PlLab *lab, PlLessonRun *r) {
    (void)lab;
    ck_assert_int_eq(pl_lesson_run_wait(r), 0);
    ck_assert_int_eq(pl_lesson_run_state(r)->waiting, 0);
}

START_TEST(test_run_folds_steps_and_locks) {
    PlErr err;
    PlLesson *l = parse(good, &err);
    PlLab *lab = small_lab();
    PlLessonRun *r = pl_lesson_run_new(lab, l, 0, &err);
    ck_assert_msg(r != NULL, "%s", err.msg);
    const PlLabSettings *s = pl_lab_settings(lab);
    ck_assert_int_eq(s->padding, PL_POST);
    ck_assert_int_eq(s->maxlen, 100);
    ck_assert_int_eq(s->seeds, 1);
    ck_assert_str_eq(s->corpus, SMALL);
    ck_assert_uint_eq(pl_lab_locked(lab), PL_S_BIT(PL_S_PADDING) | PL_S_BIT(PL_S_MAXLEN));
    ck_assert_int_eq(pl_lab_step(lab, PL_S_MAXLEN, 1), 0); /* locked: refused */
    ck_assert_int_eq(pl_lab_settings(lab)->maxlen, 100);
    ck_assert_int_eq(pl_lesson_run_goto(r, 1, &err), 0);
    ck_assert_str_eq(pl_lab_settings(lab)->corpus, "inline:0 0 great film | + bad");
    ck_assert_int_eq(pl_lab_corpus(lab)->n, 2);
    ck_assert_uint_eq(pl_lab_locked(lab), PL_S_BIT(PL_S_PADDING));
    ck_assert_int_eq(pl_lesson_run_goto(r, 2, &err), 0);
    ck_assert_str_eq(pl_lab_settings(lab)->corpus, SMALL); /* an inline corpus lasts its step */
    ck_assert_int_eq(pl_lab_settings(lab)->maxlen, 2000);
    ck_assert_int_eq(pl_lesson_run_goto(r, 0, &err), 0); /* back: the first step as it was */
    ck_assert_int_eq(pl_lab_settings(lab)->maxlen, 100);
    ck_assert_uint_eq(pl_lab_locked(lab), PL_S_BIT(PL_S_PADDING) | PL_S_BIT(PL_S_MAXLEN));
    ck_assert_int_eq(pl_lesson_run_goto(r, 3, &err), -1);
    pl_lesson_run_free(r);
    ck_assert_uint_eq(pl_lab_locked(lab), 0); /* the lesson's locks end with it */
    pl_lab_free(lab);
    pl_lesson_free(l);
}
END_TEST

/* A lesson whose second step trains the grid and whose third and fourth read it; the fifth reads nothing of it. */
static const char jumped[] = "# Jumping in\n"
                             "level: beginner\n"
                             "minutes: 5\n"
                             "about: A grid and the steps that read it.\n"
                             "setup: seeds=1 maxlen=40 view=batch\n"
                             "\n"
                             "## Before\n"
                             "Nothing trained yet.\n"
                             "\n"
                             "## The grid\n"
                             "grid:\n"
                             "The grid trains.\n"
                             "\n"
                             "## Its median\n"
                             "The median is {grid.median(post off)}.\n"
                             "\n"
                             "## Its spread\n"
                             "{? grid.spread(pre on) >= 0 | It spreads. | It does not.}\n"
                             "\n"
                             "## Summary\n"
                             "summary:\n"
                             "- The end, at maxlen {maxlen}.\n";

START_TEST(test_a_step_jumped_to_runs_the_grid_it_reads) {
    PlErr err;
    PlLesson *l = parse(jumped, &err);
    ck_assert_msg(l != NULL, "%s", err.msg);
    PlQuantity q;
    char why[200];
    double v;
    ck_assert_int_eq(pl_quantity_parse("grid.median(post off)", &q, why, sizeof why), 0);
    PlLab *lab = small_lab();
    PlLessonRun *r = pl_lesson_run_new(lab, l, 2, &err); /* "Its median", as --step 3 opens it */
    ck_assert_msg(r != NULL, "%s", err.msg);
    ck_assert_int_eq(pl_lesson_run_state(r)->waiting, 1);
    ck_assert(pl_lab_grid(lab).active);
    wait_for(lab, r);
    ck_assert_msg(pl_quantity_value(lab, &q, &v, why, sizeof why) == 0, "%s", why);
    ck_assert(v >= 0.0 && v <= 1.0);
    ck_assert_int_eq(pl_lab_grid(lab).finished, 4); /* four cells, one seed */
    /* a later step that reads it in a condition finds it done and trains nothing again */
    ck_assert_int_eq(pl_lesson_run_goto(r, 3, &err), 0);
    ck_assert(!pl_lab_grid(lab).active);
    ck_assert(!pl_lab_training(lab)->active);
    pl_lesson_run_free(r);
    pl_lab_free(lab);
    /* a step that reads nothing of the grid does not start it (the lab's own retrain on a cold change aside) */
    lab = small_lab();
    r = pl_lesson_run_new(lab, l, 4, &err);
    ck_assert_msg(r != NULL, "%s", err.msg);
    ck_assert_int_eq(pl_lesson_run_state(r)->waiting, 0);
    ck_assert(!pl_lab_grid(lab).active);
    pl_lesson_run_free(r);
    pl_lab_free(lab);
    pl_lesson_free(l);
}
END_TEST

START_TEST(test_run_answers_hints_solution) {
    PlErr err;
    PlLesson *l = parse(good, &err);
    PlLab *lab = small_lab();
    PlLessonRun *r = pl_lesson_run_new(lab, l, 0, &err);
    wait_for(lab, r);
    const PlLessonState *st = pl_lesson_run_state(r);
    ck_assert_int_eq(pl_lesson_run_solution(r), 0); /* not before a try */
    ck_assert_int_eq(pl_lesson_run_hint(r), 1);
    ck_assert_int_eq(pl_lesson_run_hint(r), 1);
    ck_assert_int_eq(pl_lesson_run_hint(r), 0);
    ck_assert_int_eq(st->hints, 2);
    ck_assert_int_eq(pl_lesson_run_answer(r, "many"), -1);
    ck_assert_int_eq(st->attempts, 0);
    /* the batch's pads, counted here from the batch result the views draw */
    const PlProbeBatch *b = pl_lab_batch(lab, NULL);
    ck_assert_ptr_nonnull(b);
    long pads = 0;
    for (int i = 0; i < b->batch->B * b->batch->T; i++) pads += b->batch->mask[i] == 0;
    ck_assert_int_gt(pads, 0);
    char typed[32];
    snprintf(typed, sizeof typed, "%ld", pads + 1);
    ck_assert_int_eq(pl_lesson_run_answer(r, typed), PL_ANS_WRONG);
    ck_assert_int_eq(pl_lesson_run_solution(r), 1);
    snprintf(typed, sizeof typed, "%ld", pads);
    ck_assert_int_eq(pl_lesson_run_answer(r, typed), PL_ANS_RIGHT);
    ck_assert_int_eq(st->attempts, 2);
    ck_assert_int_eq(pl_lesson_run_goto(r, 1, &err), 0);
    ck_assert_int_eq(pl_lesson_run_answer(r, "c"), -1);
    /* the letters are the places the choices are shown at: "wrong" is choice 0, "right" choice 1 */
    char wrong[2] = {(char)('a' + pl_choices_place(st->order, 2, 0)), '\0'}, right[16];
    snprintf(right, sizeof right, "%d", pl_choices_place(st->order, 2, 1) + 1);
    ck_assert_int_eq(pl_lesson_run_solution(r), 0); /* not before a try */
    ck_assert_int_eq(pl_lesson_run_answer(r, wrong), PL_ANS_WRONG);
    ck_assert_int_eq(st->chosen, 0);
    ck_assert_int_eq(pl_lesson_run_solution(r), 1); /* a wrong choice is a try: its solution is the right one */
    ck_assert_int_eq(pl_lesson_run_answer(r, right), PL_ANS_RIGHT);
    ck_assert_int_eq(st->chosen, 1);
    PlLessonProgress p;
    memset(&p, 0, sizeof p);
    pl_lesson_run_record(r, &p);
    ck_assert_int_eq(p.step, 1);
    ck_assert_int_eq(p.answer[0], -1); /* the first answer is the one kept */
    ck_assert_int_eq(p.answer[1], -1);
    ck_assert_int_eq(p.done, 0);
    pl_lesson_run_free(r);
    pl_lab_free(lab);
    pl_lesson_free(l);
}
END_TEST

/* An answer typed before the lab has computed its number waits for it: it
 * is checked on the tick that finds the number, once, against the batch the
 * views draw. */
START_TEST(test_play_answer_waits_for_its_number) {
    char dir[] = "/tmp/padlab-play-XXXXXX", path[64];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/t.lesson", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(good, f);
    fclose(f);
    PlLab *lab = small_lab();
    PlLessonPlay p;
    char why[512];
    ck_assert_msg(pl_lesson_play_open(&p, lab, path, 0, 0, why, sizeof why) == 0, "%s", why);
    pl_lesson_play_key(&p, PL_LK_CHAR, '1');
    pl_lesson_play_key(&p, PL_LK_ENTER, 0); /* no tick yet: the lesson's settings are not computed */
    ck_assert_int_eq(p.pending, 1);
    ck_assert_int_eq(pl_lesson_run_state(p.run)->attempts, 0);
    ck_assert_ptr_nonnull(strstr(p.note, "checked when it is"));
    for (int i = 0; i < PL_TEST_POLLS && p.pending; i++) pl_lab_tick(lab), pl_lesson_play_tick(&p, lab), usleep(10000);
    ck_assert_int_eq(p.pending, 0);
    const PlProbeBatch *b = pl_lab_batch(lab, NULL);
    long pads = 0;
    for (int i = 0; i < b->batch->B * b->batch->T; i++) pads += b->batch->mask[i] == 0;
    const PlLessonState *st = pl_lesson_run_state(p.run);
    ck_assert_int_eq(st->attempts, 1);
    ck_assert_double_eq(st->value, (double)pads);
    ck_assert_int_eq(st->answer, pads == 1 ? PL_ANS_RIGHT : PL_ANS_WRONG);
    pl_lesson_play_close(&p);
    pl_lab_free(lab);
    unlink(path);
    rmdir(dir);
}
END_TEST

/* The exercise's smallest maxlen, found by the run, is the first value of
 * the registry's range whose kept share reaches 90%, computed here from the
 * corpus's lengths. */
/* A lesson's set line takes maxlen none; its text names the longest review
 * none stands for, and a condition reads none as above every number. */
START_TEST(test_a_lesson_reads_maxlen_none_as_the_longest_review) {
    PlLab *lab = small_lab();
    PlErr err;
    ck_assert_int_eq(pl_lab_set(lab, PL_S_MAXLEN, "none", &err), PL_LAB_COLD);
    const PlCorpus *c = pl_lab_corpus(lab);
    int longest = 0;
    for (int i = 0; i < c->n; i++) longest = pl_corpus_len(c, i) > longest ? pl_corpus_len(c, i) : longest;
    char out[128], want[128], why[200];
    snprintf(want, sizeof want, "at none (longest: %d)", longest);
    ck_assert_str_eq(pl_lesson_fill(lab, NULL, "at {maxlen}", out, sizeof out), want);
    PlQuantity q;
    double v;
    ck_assert_int_eq(pl_quantity_parse("maxlen", &q, why, sizeof why), 0);
    ck_assert_int_eq(pl_quantity_value(lab, &q, &v, why, sizeof why), 0);
    ck_assert(v > 2000.0); /* "maxlen <= 400" is false under none, "maxlen >= 2000" true */
    pl_lab_free(lab);
}
END_TEST

START_TEST(test_run_exercise_smallest) {
    PlErr err;
    PlLesson *l = parse(good, &err);
    PlLab *lab = small_lab();
    PlLessonRun *r = pl_lesson_run_new(lab, l, 2, &err);
    wait_for(lab, r);
    ck_assert_int_eq(pl_lesson_run_answer(r, ""), PL_ANS_WRONG); /* maxlen 2000 keeps 90%, but a smaller one does too */
    ck_assert_msg(strstr(pl_lesson_run_state(r)->message, "find the smallest") != NULL, "%s",
                  pl_lesson_run_state(r)->message);
    ck_assert_int_eq(pl_lesson_run_solve(r, &err), 0);
    int m = pl_lab_settings(lab)->maxlen;
    const PlCorpus *c = pl_lab_corpus(lab);
    int *lens = malloc((size_t)c->n * sizeof *lens);
    pl_corpus_lengths(c, lens);
    double total = 0;
    for (int i = 0; i < c->n; i++) total += lens[i];
    PlLabSettings probe = *pl_lab_settings(lab);
    int below = pl_setting_step(&probe, PL_S_MAXLEN, -1);
    double kept = 0, kept_below = 0;
    for (int i = 0; i < c->n; i++) kept += lens[i] < m ? lens[i] : m, kept_below += lens[i] < below ? lens[i] : below;
    ck_assert_msg(kept / total >= 0.9 && kept_below / total < 0.9, "maxlen %d keeps %.4f, %d keeps %.4f", m,
                  kept / total, below, kept_below / total);
    wait_for(lab, r);
    ck_assert_int_eq(pl_lesson_run_answer(r, ""), PL_ANS_RIGHT);
    free(lens);
    pl_lesson_run_free(r);
    pl_lab_free(lab);
    pl_lesson_free(l);
}
END_TEST

/* ---- progress ---- */

START_TEST(test_progress_round_trip) {
    char *dir = pl_test_tmpdir();
    setenv("XDG_STATE_HOME", dir, 1);
    PlProgressBook *b = calloc(1, sizeof *b);
    PlErr err;
    ck_assert_int_eq(pl_progress_load(b, &err), PL_OK);
    ck_assert_int_eq(b->n, 0);
    PlLessonProgress *p = pl_progress_of(b, "03-mask");
    p->step = 4, p->answer[1] = 1, p->answer[3] = -1, p->opened = 3;
    pl_progress_of(b, "01-rectangle")->done = 1;
    ck_assert(b->salt != 0); /* a new learner gets a salt of their own */
    b->salt = 0xfedcba9876543210ULL;
    ck_assert_int_eq(pl_progress_save(b, &err), PL_OK);
    pl_progress_done(b);
    ck_assert_int_eq(pl_progress_load(b, &err), PL_OK);
    ck_assert_int_eq(b->n, 2);
    ck_assert(b->salt == 0xfedcba9876543210ULL);
    p = pl_progress_of(b, "03-mask");
    ck_assert_int_eq(p->step, 4);
    ck_assert_int_eq(p->opened, 3);
    ck_assert_int_eq(p->answer[1], 1);
    ck_assert_int_eq(p->answer[3], -1);
    ck_assert_int_eq(p->answer[2], 0);
    ck_assert_int_eq(pl_progress_of(b, "01-rectangle")->done, 1);
    ck_assert_int_eq(pl_progress_forget(b, "03-mask"), 1);
    ck_assert_int_eq(pl_progress_forget(b, "03-mask"), 0);
    char path[4200];
    snprintf(path, sizeof path, "%s/padlab/progress", dir);
    pl_test_write_file(path, "lesson = a step=1 done=0 answers=\nlesson = b step=x\n", 52);
    pl_progress_done(b);
    ck_assert_int_eq(pl_progress_load(b, &err), PL_OK); /* lesson b left out and named (test_book.c) */
    ck_assert_int_eq(b->n, 1);
    ck_assert_msg(strstr(b->notice, "progress:2:") && strstr(b->notice, "the file is left as it is"), "%s", b->notice);
    unsetenv("XDG_STATE_HOME");
    pl_progress_done(b);
    free(b);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

/* ---- old names (renamed.h) ---- */

/* The file a name finds, its name without folder and suffix, into base. */
static void found_as(const char *name, char *base, size_t cap) {
    char path[300];
    ck_assert_msg(pl_lesson_find(name, path, sizeof path) == 0, "%s finds no lesson", name);
    const char *slash = strrchr(path, '/');
    snprintf(base, cap, "%s", slash ? slash + 1 : path);
    char *dot = strstr(base, ".lesson");
    if (dot) *dot = '\0';
}

/* Before issue 33's order: 01-rectangle 02-mask 03-attention 04-causal
 * 05-rnn 06-pooling 07-loss 08-maxlen 09-batching 10-generation
 * 11-experiment; each old name opens the lesson it became. */
START_TEST(test_an_old_name_opens_the_lesson_it_became) {
    static const char *const pairs[][2] = {
        {"01-rectangle", "01-rectangle"},
        {"02-mask", "03-mask"},
        {"03-attention", "06-attention"},
        {"04-causal", "09-causal"},
        {"05-rnn", "04-rnn"},
        {"06-pooling", "05-pooling"},
        {"07-loss", "07-loss"},
        {"08-maxlen", "02-maxlen"},
        {"09-batching", "08-batching"},
        {"10-generation", "10-generation"},
        {"11-experiment", "12-experiment"},
        {"11-packing", "11-packing"},
        {"attention", "06-attention"},
        {"packing", "11-packing"},
        {"03-attention.lesson", "06-attention"},
    };
    char base[300];
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        found_as(pairs[i][0], base, sizeof base);
        ck_assert_msg(strcmp(base, pairs[i][1]) == 0, "%s opens %s, not %s", pairs[i][0], base, pairs[i][1]);
    }
    char path[1024];
    ck_assert_int_eq(pl_lesson_find("12-batching", path, sizeof path), -1);
}
END_TEST

/* The table agrees with the lesson files: every row's new lesson is
 * shipped, 09-batching's packing steps are 11-packing's steps 4 to 6 under
 * the titles they had (steps 10 to 12 of the old lesson), its later steps
 * 08-batching's, and each moved card names a step of the lesson it went to. */
START_TEST(test_the_renames_agree_with_the_lessons) {
    int n;
    const PlLessonRenamed *rows = pl_lesson_renames(&n);
    char base[300];
    for (int i = 0; i < n; i++) {
        found_as(rows[i].now, base, sizeof base);
        ck_assert_str_eq(base, rows[i].now);
    }
    static const struct {
        int old, now;
        const char *lesson, *title;
    } steps[] = {
        {8, 8, "08-batching", "Packed rows and attention"},
        {9, 3, "11-packing", "Attention across the boundaries"},
        {10, 4, "11-packing", "The boundary loss terms"},
        {11, 5, "11-packing", "No boundary to cross"},
        {12, 9, "08-batching", "Does grouping change what is learned? Static first"},
        {14, 11, "08-batching", "Summary"},
    };
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        int k = steps[i].old;
        const char *now = pl_lesson_renamed_step("09-batching", &k);
        ck_assert_ptr_nonnull(now);
        ck_assert_str_eq(now, steps[i].lesson);
        ck_assert_int_eq(k, steps[i].now);
        char path[1024];
        PlErr err;
        ck_assert_int_eq(pl_lesson_find(now, path, sizeof path), 0);
        PlLesson *l = pl_lesson_load(path, &err);
        ck_assert_msg(l != NULL, "%s", err.msg);
        ck_assert_int_lt(k, l->nsteps);
        ck_assert_str_eq(l->steps[k].title, steps[i].title);
        char id[PL_DECK_ID_CAP];
        pl_lesson_card_id(l, k, id, sizeof id); /* NAME:slug */
        const char *went = pl_lesson_renamed_card("09-batching", strchr(id, ':') + 1);
        ck_assert_msg(went && strcmp(went, now) == 0, "the card %s goes to %s", id, went ? went : "nowhere");
        pl_lesson_free(l);
    }
    int k = 3;
    ck_assert_str_eq(pl_lesson_renamed_step("03-attention", &k), "06-attention");
    ck_assert_int_eq(k, 3);
    ck_assert_ptr_null(pl_lesson_renamed_step("06-attention", &k)); /* a new name is no old one */
    ck_assert_ptr_null(pl_lesson_was("08-batching"));               /* its steps moved: a kept class is not its */
    ck_assert_str_eq(pl_lesson_was("06-attention"), "03-attention");
}
END_TEST

/* ---- every shipped lesson, on the builtin corpus ---- */

#define MAX_SHIPPED 64
static char shipped[MAX_SHIPPED][1024];
static int nshipped;

static int cmp_paths(const void *a, const void *b) { return strcmp(a, b); }

static void find_shipped(void) {
    const char *tests = getenv("PADLAB_TESTS");
    char dir[900];
    snprintf(dir, sizeof dir, "%s/../lessons", tests ? tests : "tests");
    DIR *d = opendir(dir);
    if (!d) return;
    for (struct dirent *e; (e = readdir(d)) && nshipped < MAX_SHIPPED;) {
        size_t n = strlen(e->d_name);
        if (n > 7 && strcmp(e->d_name + n - 7, ".lesson") == 0)
            snprintf(shipped[nshipped++], 1024, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    qsort(shipped, (size_t)nshipped, sizeof shipped[0], cmp_paths);
}

/* Placeholders that filled: "..." appears only where the lesson wrote it. */
static void unknown_condition(const char *cond, int holds, void *where) {
    ck_assert_msg(holds >= 0, "%s: the condition '%s' cannot be read from the lab's figures", (const char *)where, cond);
}

/* Every placeholder fills and every conditional's figures are there. */
static void check_filled(PlLab *lab, const char *text, const char *where) {
    char buf[8192];
    if (!text) return;
    const char *out = pl_lesson_fill(lab, NULL, text, buf, sizeof buf);
    ck_assert_msg(!strstr(out, "...") || strstr(text, "..."), "%s: a placeholder did not fill: %s", where, out);
    pl_fill_conditions(lab, text, unknown_condition, (void *)where);
}

/* A number the check must refuse: far outside any tolerance. */
static void wrong_answer(const PlQuantity *q, double v, char *buf, int cap) {
    if (pl_quantity_kind_of_format(q) == PL_QF_SHARE)
        snprintf(buf, (size_t)cap, "%.1f%%", 100.0 * (v < 0.5 ? v + 0.3 : v - 0.3));
    else snprintf(buf, (size_t)cap, "%.6g", v * 3.0 + (v >= 0 ? 100.0 : -100.0));
}

/* The answer key of the lesson played now: each ask:'s figure as padlab
 * lesson --answers and the handout's key read it, on a lab of their own. */
static double key[PL_LESSON_MAX_STEPS];

static void check_ask(PlLab *lab, PlLessonRun *r, const PlQuestion *q, const char *where, int k) {
    double v;
    char why[300], typed[64];
    ck_assert_msg(pl_quantity_value(lab, &q->answer, &v, why, sizeof why) == 0, "%s: the answer cannot be computed: %s",
                  where, why);
    ck_assert_msg(isfinite(v), "%s: the answer is not a number", where);
    /* keys are played, not recomputed: the learner's lab and the key agree to the bit */
    ck_assert_msg(memcmp(&v, &key[k], sizeof v) == 0, "%s: the learner's lab reads %.17g, the key %.17g", where, v,
                  key[k]);
    for (int m = 0; m < q->nmiscon; m++) { /* a misconception the lab measures: read here, and heard when typed */
        double x = pl_misconception_value(lab, &q->miscon[m]);
        ck_assert_msg(isfinite(x), "%s: the misconception %s has no value in the lab", where, q->miscon[m].value);
        if (!q->miscon[m].measured || pl_quantity_same_answer(&q->answer, &q->tolerance, v, x)) continue;
        pl_quantity_format(&q->answer, x, typed, sizeof typed);
        ck_assert_msg(pl_lesson_run_answer(r, typed) == PL_ANS_WRONG, "%s: %s was accepted", where, typed);
        ck_assert_msg(strstr(pl_lesson_run_state(r)->message, q->miscon[m].text), "%s: %s read '%s'", where, typed,
                      pl_lesson_run_state(r)->message);
    }
    if (pl_quantity_kind_of_format(&q->answer) != PL_QF_SETTING) {
        wrong_answer(&q->answer, v, typed, sizeof typed);
        ck_assert_msg(pl_lesson_run_answer(r, typed) == PL_ANS_WRONG, "%s: %s was accepted", where, typed);
        ck_assert_msg(pl_lesson_run_state(r)->message[0], "%s: %s got no diagnosis", where, typed);
    }
    pl_quantity_format(&q->answer, v, typed, sizeof typed);
    ck_assert_msg(pl_lesson_run_answer(r, typed) == PL_ANS_RIGHT, "%s: the lab's own %s was refused: %s", where, typed,
                  pl_lesson_run_state(r)->message);
}

static void check_choose(PlLessonRun *r, const PlQuestion *q, const char *where, int k) {
    PlErr err;
    for (int c = 0; c < q->nchoices; c++) {
        ck_assert_int_eq(pl_lesson_run_goto(r, k, &err), 0);
        char letter[2] = {(char)('a' + pl_choices_place(pl_lesson_run_state(r)->order, q->nchoices, c)), '\0'};
        ck_assert_msg(q->choices[c].explain && *q->choices[c].explain, "%s: choice %s explains nothing", where, letter);
        ck_assert_int_eq(pl_lesson_run_answer(r, letter), q->choices[c].right ? PL_ANS_RIGHT : PL_ANS_WRONG);
    }
}

/* An exercise is not met as the step opens, and is once solved. */
static void check_exercise(PlLab *lab, PlLessonRun *r, const char *where) {
    PlErr err;
    int got = pl_lesson_run_answer(r, "");
    ck_assert_msg(got == PL_ANS_WRONG, "%s: the exercise is met before the learner does anything (%d)", where, got);
    ck_assert_msg(pl_lesson_run_solve(r, &err) == 0, "%s: %s", where, err.msg);
    for (int i = 0; i < PL_TEST_POLLS && pl_lab_training(lab)->active; i++) pl_lab_tick(lab), usleep(10000);
    ck_assert_int_eq(pl_lab_wait(lab, pl_lesson_run_kinds(r), PL_TEST_PATIENCE), 0);
    got = pl_lesson_run_answer(r, "");
    ck_assert_msg(got == PL_ANS_RIGHT, "%s: solved, the exercise is still refused: %s", where,
                  pl_lesson_run_state(r)->message);
}

static void check_step(PlLab *lab, PlLessonRun *r, const PlLesson *l, int k) {
    const PlStep *s = &l->steps[k];
    const PlQuestion *q = &s->q;
    char where[1000];
    snprintf(where, sizeof where, "%s step %d (%s) on %s", l->name, k + 1, s->title, pl_lab_settings(lab)->corpus);
    wait_for(lab, r);
    check_filled(lab, s->text, where);
    check_filled(lab, s->summary, where);
    check_filled(lab, q->prompt, where);
    for (int c = 0; c < q->nchoices; c++) check_filled(lab, q->choices[c].explain, where);
    if (q->kind == PL_Q_ASK) check_ask(lab, r, q, where, k);
    if (q->kind == PL_Q_CHOOSE) check_choose(r, q, where, k);
    if (q->kind == PL_Q_EXERCISE) check_exercise(lab, r, where);
    check_filled(lab, q->reveal, where);
}

START_TEST(test_shipped_found) {
    ck_assert_msg(nshipped >= 12, "%d lessons found in $PADLAB_TESTS/../lessons, padlab ships 12", nshipped);
    for (int i = 0; i < nshipped; i++) {
        PlErr err;
        PlLesson *l = pl_lesson_load(shipped[i], &err);
        ck_assert_msg(l != NULL, "%s", err.msg);
        int asks = 0, chooses = 0;
        for (int k = 0; k < l->nsteps; k++)
            asks += l->steps[k].q.kind == PL_Q_ASK, chooses += l->steps[k].q.kind == PL_Q_CHOOSE;
        ck_assert_msg(asks >= 2 && chooses >= 1, "%s: %d predict-then-reveal and %d choice questions", shipped[i], asks,
                      chooses);
        ck_assert_msg(l->steps[l->nsteps - 1].summary != NULL, "%s: the last step is not a summary", shipped[i]);
        pl_lesson_free(l);
    }
}
END_TEST

/* Plays lesson l on settings s as padlab lesson --answers does, into key[]. */
static void play_key(const PlLesson *l, const PlLabSettings *s) {
    PlErr err;
    char why[300];
    PlLab *lab = pl_lab_new(s, &err);
    ck_assert_msg(lab != NULL, "%s", err.msg);
    PlLessonRun *r = pl_lesson_run_new(lab, l, 0, &err);
    ck_assert_msg(r != NULL, "%s: %s", l->name, err.msg);
    for (int k = 0; k < l->nsteps; k++) {
        ck_assert_msg(pl_lesson_run_goto(r, k, &err) == 0 && pl_lesson_run_play_key(r, &err) == 0, "%s step %d: %s",
                      l->name, k + 1, err.msg);
        const PlQuestion *q = &l->steps[k].q;
        if (q->kind == PL_Q_ASK)
            ck_assert_msg(pl_quantity_value(lab, &q->answer, &key[k], why, sizeof why) == 0, "%s", why);
    }
    pl_lesson_run_free(r);
    pl_lab_free(lab);
}

START_TEST(test_shipped_lesson) {
    PlErr err;
    PlLesson *l = pl_lesson_load(shipped[_i % nshipped], &err);
    ck_assert_msg(l != NULL, "%s", err.msg);
    PlLabSettings s = pl_settings_default();
    snprintf(s.corpus, sizeof s.corpus, "%s", pl_test_play_corpus(_i / nshipped)); /* imdb5k: only when the loop has it */
    play_key(l, &s);
    PlLab *lab = pl_lab_new(&s, &err);
    ck_assert_msg(lab != NULL, "%s", err.msg);
    PlLessonRun *r = pl_lesson_run_new(lab, l, 0, &err);
    ck_assert_msg(r != NULL, "%s: %s", l->name, err.msg);
    for (int k = 0; k < l->nsteps; k++) {
        ck_assert_msg(pl_lesson_run_goto(r, k, &err) == 0, "%s step %d: %s", l->name, k + 1, err.msg);
        check_step(lab, r, l, k);
    }
    PlLessonProgress p;
    memset(&p, 0, sizeof p);
    pl_lesson_run_record(r, &p);
    ck_assert_int_eq(p.done, 1);
    pl_lesson_run_free(r);
    pl_lab_free(lab);
    pl_lesson_free(l);
}
END_TEST

START_TEST(test_check_refuses_a_step_that_shows_its_answer_first) {
    static const char text[] = "# T\n## s\nOf {cost.rnn_steps} steps, {cost.rnn_wasted} run on pads.\n"
                               "ask: How many run on pads?\nanswer: cost.rnn_wasted\nsummary:\n- x\n";
    PlErr err;
    PlLesson *l = pl_lesson_parse("t.lesson", text, sizeof text - 1, &err);
    ck_assert_ptr_null(l);
    ck_assert_str_eq(err.msg,
                     "t.lesson:4: the step shows {cost.rnn_wasted} before its question asks for it: show it in the "
                     "reveal instead");
}
END_TEST

/* The narration may not give the asked figure away through a figure that
 * determines it; the question may hand that figure over; no step shows the
 * figure a later question asks where it is the same fact. */
START_TEST(test_check_refuses_what_gives_an_asked_figure_away) {
    PlErr err;
    PlLesson *l = parse("# T\n## s\nThe batch holds {batch.real_tokens} real tokens.\nask: How many pads?\n"
                        "answer: batch.pad_cells\nsummary:\n- x\n",
                        &err);
    ck_assert_ptr_null(l);
    ck_assert_str_eq(err.msg, "t.lesson:4: the step's narration shows {batch.real_tokens}, which gives away "
                              "{batch.pad_cells} before its question asks for it");
    l = parse("# T\n## s\n{? batch.pad_share > 0.5 | Mostly pads. | Mostly words.}\nask: How many pads?\n"
              "answer: batch.pad_cells\nsummary:\n- x\n",
              &err); /* a sentence chosen by a determiner says it too */
    ck_assert_ptr_null(l);
    l = parse("# T\n## s\nask: The batch holds {batch.real_tokens} tokens. How many pads?\nanswer: batch.pad_cells\n"
              "summary:\n- x\n",
              &err);
    ck_assert_msg(l != NULL, "%s", err.msg); /* the question hands it over */
    pl_lesson_free(l);
    l = parse("# T\n## a\nset: maxlen=50\nThere are {batch.pad_cells} pads.\n## b\nask: How many pads?\n"
              "answer: batch.pad_cells\nsummary:\n- x\n",
              &err);
    ck_assert_ptr_null(l);
    ck_assert_str_eq(err.msg, "t.lesson:2: the step shows {batch.pad_cells}, which step 2 asks for (the same figure "
                              "there): show it after");
    l = parse("# T\n## a\nset: maxlen=50\nThere are {batch.pad_cells} pads.\n## b\nset: maxlen=60\nask: How many "
              "pads?\nanswer: batch.pad_cells\nsummary:\n- x\n",
              &err); /* at another maxlen it is another figure */
    ck_assert_msg(l != NULL, "%s", err.msg);
    pl_lesson_free(l);
}
END_TEST

/* The lesson in text, parsed, on a small lab, its run opened at step 1. */
static PlLessonRun *run_text(const char *text, PlLesson **l, PlLab **lab) {
    PlErr err;
    *l = parse(text, &err);
    ck_assert_msg(*l != NULL, "%s", err.msg);
    *lab = small_lab();
    PlLessonRun *r = pl_lesson_run_new(*lab, *l, 0, &err);
    ck_assert_msg(r != NULL, "%s", err.msg);
    return r;
}

/* What a run hides: the open question's figure and what determines it; a
 * later question's figure on an earlier step with the same settings, not
 * with others; nothing of a question answered; on a worksheet, every
 * question's figure wherever its fact shows. */
START_TEST(test_the_ledger_follows_the_questions_of_the_lesson) {
    static const char text[] = "# T\n## one\nset: maxlen=100\nLook.\n## two\nask: How many pads?\n"
                               "answer: batch.pad_cells\n## three\nset: maxlen=120\nask: And now?\n"
                               "answer: batch.pad_cells\nsummary:\n- x\n";
    PlErr err;
    PlLesson *l;
    PlLab *lab;
    PlLessonRun *r = run_text(text, &l, &lab);
    PlLedger g;
    pl_lesson_run_ledger(r, &g); /* step 1 shows step 2's fact (maxlen 100), not step 3's */
    ck_assert(pl_ledger_hides_name(&g, "batch.pad_cells") && pl_ledger_hides_name(&g, "batch.real_tokens"));
    ck_assert(!pl_ledger_hides_name(&g, "batch.width"));
    ck_assert_int_eq(pl_lesson_run_goto(r, 1, &err), 0);
    wait_for(lab, r);
    double v;
    char why[200], typed[64];
    ck_assert_int_eq(pl_quantity_value(lab, &l->steps[1].q.answer, &v, why, sizeof why), 0);
    snprintf(typed, sizeof typed, "%.0f", v);
    ck_assert_int_eq(pl_lesson_run_answer(r, typed), PL_ANS_RIGHT);
    ck_assert_int_eq(pl_lesson_run_goto(r, 0, &err), 0); /* back to step 1: answered, so shown */
    pl_lesson_run_ledger(r, &g);
    ck_assert(pl_ledger_empty(&g));
    pl_lesson_run_worksheet_ledger(r, 0, &g); /* on paper nothing is answered */
    ck_assert(pl_ledger_hides_name(&g, "batch.pad_cells"));
    pl_lesson_run_worksheet_ledger(r, 2, &g);
    ck_assert(pl_ledger_hides_name(&g, "batch.pad_cells"));
    pl_lesson_run_free(r);
    pl_lab_free(lab);
    pl_lesson_free(l);
}
END_TEST

/* A question hides what determines its figure, but not what its prompt
 * hands over to work from: asked for the pads of a row whose real tokens
 * it gives, those stay in sight (lesson 04's first step); asked without
 * them, they are hidden with the pads. */
START_TEST(test_what_a_question_hands_over_stays_in_sight) {
    static const char text[] = "# T\n## given\nask: The review has {rnn.real} tokens in a row of {rnn.width}. "
                               "How many pads?\nanswer: rnn.pads\n## not given\nask: How many pads?\n"
                               "answer: rnn.pads\nsummary:\n- x\n";
    PlErr err;
    PlLesson *l = parse(text, &err);
    ck_assert_msg(l != NULL, "%s", err.msg);
    PlLedger g;
    pl_ledger_clear(&g);
    pl_lesson_question_hides(&l->steps[0], &g);
    ck_assert(pl_ledger_hides_name(&g, "rnn.pads"));
    ck_assert(!pl_ledger_hides_name(&g, "rnn.real") && !pl_ledger_hides_name(&g, "rnn.width"));
    pl_ledger_clear(&g);
    pl_lesson_question_hides(&l->steps[1], &g);
    ck_assert(pl_ledger_hides_name(&g, "rnn.pads") && pl_ledger_hides_name(&g, "rnn.real"));
    pl_lesson_free(l);
}
END_TEST

/* A question of training hides the runs it asks about (every figure of
 * that cell), on the worksheet and in the lab, and leaves the other cells'
 * runs in sight: a choice may quote them. */
START_TEST(test_a_training_question_hides_only_its_own_runs) {
    static const char text[] = "# T\n## one\nLook.\n## two\nask: What median does post padding without the mask "
                               "reach?\nanswer: grid.median(post off)\n## three\nchoose: Which?\n"
                               "* {grid.min(pre off)} to {grid.max(pre off)} => yes\n- {grid.min(post on)} => no\n"
                               "summary:\n- x\n";
    PlErr err;
    PlLesson *l;
    PlLab *lab;
    PlLessonRun *r = run_text(text, &l, &lab);
    PlLedger g;
    for (int k = 0; k < 3; k++) { /* on paper nothing is answered: on every step */
        pl_lesson_run_worksheet_ledger(r, k, &g);
        ck_assert(pl_ledger_hides_name(&g, "grid.median(post off)"));
        ck_assert(pl_ledger_hides_name(&g, "grid.min(post off)"));
        ck_assert(pl_ledger_hides_name(&g, "grid.runs(post off)"));
        ck_assert_msg(!pl_ledger_hides_name(&g, "grid.min(pre off)"), "step %d", k + 1);
        ck_assert(!pl_ledger_hides_name(&g, "grid.max(pre off)"));
        ck_assert(!pl_ledger_hides_name(&g, "grid.min(post on)"));
        ck_assert(!pl_ledger_hides_name(&g, "grid.median(pre on)"));
    }
    PlLessonRun *q = pl_lesson_run_new(lab, l, 1, &err); /* the lab, with the question open */
    ck_assert_msg(q != NULL, "%s", err.msg);
    pl_lesson_run_ledger(q, &g);
    ck_assert(pl_ledger_hides_name(&g, "grid.max(post off)"));
    ck_assert(!pl_ledger_hides_name(&g, "grid.max(post on)"));
    pl_lesson_run_free(q);
    pl_lesson_run_free(r);
    pl_lab_free(lab);
    pl_lesson_free(l);
}
END_TEST

/* A question of training open while a later one is not answered yet:
 * each hides its own cell's runs, and the later one's, hidden first, does
 * not push this one's out (the open question's min and max once showed
 * beside its hidden median: lesson 12, step 2). */
START_TEST(test_a_later_training_question_leaves_the_open_ones_runs_hidden) {
    static const char text[] = "# T\n## one\nask: What median does post padding without the mask reach?\n"
                               "answer: grid.median(post off)\n## two\nask: How wide is the spread of pre with the "
                               "mask?\nanswer: grid.spread(pre on)\nsummary:\n- x\n";
    PlLesson *l;
    PlLab *lab;
    PlLessonRun *r = run_text(text, &l, &lab);
    PlLedger g;
    pl_lesson_run_ledger(r, &g);
    ck_assert(pl_ledger_hides_name(&g, "grid.median(post off)"));
    ck_assert_msg(pl_ledger_hides_name(&g, "grid.min(post off)") && pl_ledger_hides_name(&g, "grid.max(post off)"),
                  "the open question's cell: its lowest and highest seed give its median away");
    ck_assert(pl_ledger_hides_name(&g, "grid.min(pre on)")); /* the later question's cell */
    ck_assert(!pl_ledger_hides_name(&g, "grid.min(pre off)"));
    ck_assert(!pl_ledger_hides_name(&g, "grid.max(post on)"));
    pl_lesson_run_free(r);
    pl_lab_free(lab);
    pl_lesson_free(l);
}
END_TEST

/* A choose: question's hides: line hides the figures its choices rest on,
 * with what determines them, on its step while it is open and on an
 * earlier step at the same settings; once it is answered they show. A name
 * that is no quantity, or hides: under an ask:, is refused at its line. */
START_TEST(test_a_choose_hides_the_figures_its_choices_rest_on) {
    static const char text[] = "# T\n## one\nview: attention\nLook.\n## two\nview: attention\n"
                               "choose: Do the real queries miss the pads?\n- Yes => no\n* No => yes\n"
                               "hides: attention.pad_share\nsummary:\n- x\n";
    PlErr err;
    PlLesson *l;
    PlLab *lab;
    PlLessonRun *r = run_text(text, &l, &lab);
    ck_assert_int_eq(l->steps[1].q.nhides, 1);
    PlLedger g;
    pl_lesson_run_ledger(r, &g); /* step 1: the same fact the open question rests on */
    ck_assert(pl_ledger_hides_name(&g, "attention.pad_share"));
    ck_assert(pl_ledger_hides_name(&g, "attention.leak_total")); /* a determiner */
    ck_assert(!pl_ledger_hides_name(&g, "attention.padded_cells"));
    ck_assert_int_eq(pl_lesson_run_goto(r, 1, &err), 0);
    pl_lesson_run_ledger(r, &g);
    ck_assert(pl_ledger_hides_name(&g, "attention.pad_share"));
    pl_lesson_run_worksheet_ledger(r, 1, &g);
    ck_assert(pl_ledger_hides_name(&g, "attention.pad_share"));
    const PlLessonState *st = pl_lesson_run_state(r);
    char right[4] = {(char)('a' + pl_choices_place(st->order, 2, 1)), '\0'};
    ck_assert_int_eq(pl_lesson_run_answer(r, right), PL_ANS_RIGHT);
    pl_lesson_run_ledger(r, &g);
    ck_assert(!pl_ledger_hides_name(&g, "attention.pad_share"));
    pl_lesson_run_free(r);
    pl_lab_free(lab);
    pl_lesson_free(l);
    static const char bad[] = "# T\n## one\nchoose: Which?\n- a => x\n* b => y\nhides: attention.nosuch\n";
    ck_assert_ptr_null(parse(bad, &err));
    ck_assert_msg(strstr(err.msg, "t.lesson:6:") && strstr(err.msg, "hides:"), "%s", err.msg);
    static const char ask[] = "# T\n## one\nask: How many?\nanswer: batch.pad_cells\nhides: attention.pad_share\n";
    ck_assert_ptr_null(parse(ask, &err));
    ck_assert_msg(strstr(err.msg, "t.lesson:5:") && strstr(err.msg, "choose:"), "%s", err.msg);
}
END_TEST

/* example=auto is the row it resolves to: a step left at auto shows (in
 * its view) the fact a later question asks at that row by its number, so
 * the worksheet and the lab hide it there; --check, which loads no corpus,
 * refuses a step whose text shows it (auto may be any row). */
START_TEST(test_an_automatic_example_is_the_row_it_resolves_to) {
    PlLab *lab = small_lab();
    int row = pl_lab_settings(lab)->example; /* auto, resolved by the lab */
    char text[400], shown[400];
    static const char fmt[] = "# T\nsetup: example=auto\n## one\nview: batch\nThe batch.%s\n## two\nset: example=%d\n"
                              "ask: How many pads?\nanswer: batch.pad_cells\nsummary:\n- x\n";
    snprintf(text, sizeof text, fmt, "", row);
    snprintf(shown, sizeof shown, fmt, " It has {batch.pad_cells} pads.", row);
    PlErr err;
    ck_assert_ptr_null(parse(shown, &err));
    ck_assert_msg(strstr(err.msg, "which step 2 asks for"), "%s", err.msg);
    PlLesson *l = parse(text, &err);
    ck_assert_msg(l != NULL, "%s", err.msg);
    PlLabSettings a = pl_settings_default(), b = a;
    b.example = row;
    ck_assert_int_eq(pl_lesson_same_fact(&l->steps[1].q.answer, &a, &b), 1);
    PlLessonRun *r = pl_lesson_run_new(lab, l, 0, &err);
    ck_assert_msg(r != NULL, "%s", err.msg);
    PlLedger g;
    pl_lesson_run_worksheet_ledger(r, 0, &g); /* the worksheet's step 1 */
    ck_assert(pl_ledger_hides_name(&g, "batch.pad_cells"));
    pl_lesson_run_ledger(r, &g); /* and the lab's */
    ck_assert(pl_ledger_hides_name(&g, "batch.pad_cells"));
    pl_lesson_run_free(r);
    pl_lab_free(lab);
    pl_lesson_free(l);
}
END_TEST

/* A wrong number gets a diagnosis from the lesson's own figures: a figure
 * that determines the answer typed for it, then higher or lower. */
/* A figure the learner has answered stays in sight where a question not
 * answered yet names it among what determines its own (lesson 07 asks the
 * fake targets, then their share: step 1's reveal read '?????, as the
 * view's warning line says'); that question's own figure stays hidden,
 * and coming back to the answered step keeps its figure in sight. */
START_TEST(test_an_answered_figure_stays_in_sight_before_a_later_question_it_determines) {
    static const char text[] = "# T\n## s\nset: maxlen=100\nask: How many pads?\nanswer: batch.pad_cells\n"
                               "reveal: {batch.pad_cells} pads.\n"
                               "## t\nset: maxlen=100\nask: What share are pads?\nanswer: batch.pad_share\n"
                               "summary:\n- x\n";
    PlErr err;
    PlLesson *l;
    PlLab *lab;
    PlLessonRun *r = run_text(text, &l, &lab);
    wait_for(lab, r);
    PlLedger led;
    pl_lesson_run_ledger(r, &led);
    ck_assert(pl_ledger_hides_name(&led, "batch.pad_cells"));
    double pads;
    char why[200], typed[64];
    ck_assert_int_eq(pl_quantity_value(lab, &l->steps[0].q.answer, &pads, why, sizeof why), 0);
    snprintf(typed, sizeof typed, "%.0f", pads);
    ck_assert_int_eq(pl_lesson_run_answer(r, typed), PL_ANS_RIGHT);
    pl_lesson_run_ledger(r, &led);
    ck_assert_msg(!pl_ledger_hides_name(&led, "batch.pad_cells"), "the answered pads hidden by the next question");
    ck_assert(pl_ledger_hides_name(&led, "batch.pad_share"));
    ck_assert_int_eq(pl_lesson_run_goto(r, 1, &err), 0);
    wait_for(lab, r);
    ck_assert_int_eq(pl_lesson_run_goto(r, 0, &err), 0);
    wait_for(lab, r);
    pl_lesson_run_ledger(r, &led);
    ck_assert_msg(!pl_ledger_hides_name(&led, "batch.pad_cells"), "come back to, the answered step hides its figure");
    pl_lesson_run_free(r);
    pl_lab_free(lab);
    pl_lesson_free(l);
}
END_TEST

/* A lesson written out in text, played on the small corpus from its first
 * step once that step's figures are in. */
typedef struct {
    PlLesson *l;
    PlLab *lab;
    PlLessonRun *r;
} TextPlay;

static PlLessonRun *play_text(TextPlay *t, const char *text) {
    PlErr err;
    t->l = parse(text, &err);
    ck_assert_msg(t->l != NULL, "%s", err.msg);
    t->lab = small_lab();
    t->r = pl_lesson_run_new(t->lab, t->l, 0, &err);
    ck_assert_msg(t->r != NULL, "%s", err.msg);
    wait_for(t->lab, t->r);
    return t->r;
}

static void text_play_done(TextPlay *t) {
    pl_lesson_run_free(t->r);
    pl_lab_free(t->lab);
    pl_lesson_free(t->l);
}

START_TEST(test_a_wrong_number_is_diagnosed) {
    static const char text[] = "# T\n## s\nset: maxlen=100\nask: How many pads?\nanswer: batch.pad_cells\n"
                               "## t\nset: maxlen=100\nask: What share are pads?\nanswer: batch.pad_share\n"
                               "summary:\n- x\n";
    TextPlay t;
    PlErr goto_err;
    PlLessonRun *r = play_text(&t, text);
    PlLab *lab = t.lab;
    const PlLesson *l = t.l;
    double real, pads, share;
    char why[200], typed[64];
    PlQuantity q;
    ck_assert_int_eq(pl_quantity_parse("batch.real_tokens", &q, why, sizeof why), 0);
    ck_assert_int_eq(pl_quantity_value(lab, &q, &real, why, sizeof why), 0);
    ck_assert_int_eq(pl_quantity_value(lab, &l->steps[0].q.answer, &pads, why, sizeof why), 0);
    ck_assert_int_eq(pl_quantity_value(lab, &l->steps[1].q.answer, &share, why, sizeof why), 0);
    snprintf(typed, sizeof typed, "%.0f", real);
    ck_assert_int_eq(pl_lesson_run_answer(r, typed), PL_ANS_WRONG);
    char want[300];
    snprintf(want, sizeof want,
             "%.0f is the real tokens of the example's batch here; the question asks for "
             "the pad cells of the example's batch.",
             real);
    ck_assert_str_eq(pl_lesson_run_state(r)->message, want);
    snprintf(typed, sizeof typed, "%.1f%%", 100.0 * share); /* the share for the count, which step 2 asks: not named */
    ck_assert_int_eq(pl_lesson_run_answer(r, typed), -1);   /* no reading of a count: no attempt */
    snprintf(want, sizeof want,
             "'%s' is a share; the question asks for the pad cells of the example's batch: type it "
             "without %%",
             typed);
    ck_assert_str_eq(pl_lesson_run_state(r)->message, want);
    snprintf(typed, sizeof typed, "%.0f", pads * 3 + 10);
    ck_assert_int_eq(pl_lesson_run_answer(r, typed), PL_ANS_WRONG);
    snprintf(want, sizeof want, "%s is not it: the lab's number is much lower.", typed);
    ck_assert_str_eq(pl_lesson_run_state(r)->message, want);
    ck_assert_int_eq(pl_lesson_run_goto(r, 1, &goto_err), 0);
    wait_for(lab, r);
    snprintf(typed, sizeof typed, "%.1f", 100.0 * (1.0 - share)); /* the complement of the share */
    ck_assert_int_eq(pl_lesson_run_answer(r, typed), PL_ANS_WRONG);
    ck_assert_msg(strstr(pl_lesson_run_state(r)->message, "is close to the other part") ||
                      strstr(pl_lesson_run_state(r)->message, "the real tokens of the example's batch"),
                  "%s", pl_lesson_run_state(r)->message);
    text_play_done(&t);
}
END_TEST

/* A share that determines the asked count is named when typed as written
 * (to 0.1 point), not when near it: lesson 10's 24 typed for the 16 pad
 * slots read "24 is the share of the cache's slots that hold pads here",
 * a share of 23.5%, within the 2 points a share's answer is allowed. */
START_TEST(test_a_share_is_named_only_as_written) {
    static const char text[] =
        "# T\n## s\nset: maxlen=100\nask: How many pads?\nanswer: batch.pad_cells\nsummary:\n- x\n";
    TextPlay t;
    PlLessonRun *r = play_text(&t, text);
    PlQuantity q;
    double share;
    char why[200], typed[64];
    ck_assert_int_eq(pl_quantity_parse("batch.pad_share", &q, why, sizeof why), 0);
    ck_assert_int_eq(pl_quantity_value(t.lab, &q, &share, why, sizeof why), 0);
    snprintf(typed, sizeof typed, "%.1f", 100.0 * share);
    ck_assert_int_eq(pl_lesson_run_answer(r, typed), PL_ANS_WRONG);
    ck_assert_msg(strstr(pl_lesson_run_state(r)->message, "is the share of the example's batch's cells that are pads"),
                  "%s", pl_lesson_run_state(r)->message);
    snprintf(typed, sizeof typed, "%.1f", 100.0 * share + 0.5);
    ck_assert_int_eq(pl_lesson_run_answer(r, typed), PL_ANS_WRONG);
    ck_assert_msg(strstr(pl_lesson_run_state(r)->message, "is not it"), "%s", pl_lesson_run_state(r)->message);
    text_play_done(&t);
}
END_TEST

/* Lesson 11 step 4 asked a share within 10 points, and on imdb-70-30 (a
 * cross share of 46.2%) took 53.8, the share the row's own review keeps, as
 * right. A share nearer its complement than itself is the other part
 * whatever the tolerance, where the two lie 5 points apart or more; halfway
 * between, or closer to it, it is right as before. Worked out by hand. */
START_TEST(test_a_share_nearer_its_complement_is_the_other_part) {
    PlQuantity q;
    PlTolerance ten;
    char why[200];
    ck_assert_int_eq(pl_quantity_parse("batch.pad_share", &q, why, sizeof why), 0);
    ck_assert_int_eq(pl_tolerance_parse("10 points", &ten), 0);
    ck_assert_int_eq(pl_quantity_check(&q, 0.462, "53.8", &ten), 0); /* 1 - 0.462 */
    ck_assert_int_eq(pl_quantity_check(&q, 0.462, "56%", &ten), 0);  /* 0.022 from 0.538, 0.098 from 0.462 */
    ck_assert_int_eq(pl_quantity_check(&q, 0.462, "50", &ten), 1);   /* 0.038 from either: right */
    ck_assert_int_eq(pl_quantity_check(&q, 0.462, "0.46", &ten), 1);
    ck_assert_int_eq(pl_quantity_check(&q, 0.462, "40", &ten), 1);
    ck_assert_int_eq(pl_quantity_check(&q, 0.462, "35", &ten), 0); /* outside the 10 points */
    ck_assert_int_eq(pl_quantity_check(&q, 0.49, "51", &ten), 1);  /* 2 points apart: not told apart */
    ck_assert_int_eq(pl_quantity_check(&q, 0.2, "80", &ten), 0);
    double lo, hi; /* the band a class's tally shows as counted right says the same */
    pl_quantity_band(&q, 0.462, &ten, &lo, &hi);
    ck_assert_double_eq_tol(lo, 0.362, 1e-12);
    ck_assert_double_eq_tol(hi, 0.5, 1e-12);
    pl_quantity_band(&q, 0.49, &ten, &lo, &hi);
    ck_assert_double_eq_tol(hi, 0.59, 1e-12);
}
END_TEST

/* Lesson 11 step 3 names 4 as the misconception a class gives (the reviews
 * packed), and the class's tally gives it a labelled row; a learner alone
 * who typed 4 read "4 is not it: the lab's number is much lower". The
 * lesson's own misconceptions come first in the diagnosis, read as the
 * tally reads them. */
START_TEST(test_a_learner_hears_the_misconception_the_lesson_names) {
    static const char text[] = "# T\n## s\nset: maxlen=100\nask: How many pads?\nanswer: batch.pad_cells\n"
                               "misconception: 7 => seven, the number a hurried count gives\nsummary:\n- x\n";
    TextPlay t;
    PlLessonRun *r = play_text(&t, text);
    PlLab *lab = t.lab;
    const PlLesson *l = t.l;
    double pads;
    char why[200];
    ck_assert_int_eq(pl_quantity_value(lab, &l->steps[0].q.answer, &pads, why, sizeof why), 0);
    ck_assert(pads != 7.0 && pads != 8.0);
    ck_assert_int_eq(pl_lesson_run_answer(r, "7"), PL_ANS_WRONG);
    ck_assert_str_eq(pl_lesson_run_state(r)->message, "7: seven, the number a hurried count gives.");
    ck_assert_int_eq(pl_lesson_run_answer(r, "8"), PL_ANS_WRONG); /* a count's band is the count */
    ck_assert_ptr_null(strstr(pl_lesson_run_state(r)->message, "hurried"));
    text_play_done(&t);
}
END_TEST

/* Lesson 10 step 9 asks the static cache's slots that hold no real token,
 * and names two slips by the lab's own figures. Its four prompts hold 3, 9,
 * 2 and 6 tokens: 20, padded to 9, so 16 pads; 8 steps; a static cache of
 * maxlen 200 + 8 = 208 slots a row, 832 in all. Real: 20 + 4 x 8 = 52, so
 * 780 hold none; the cache that grows has 9 + 8 = 17 slots a row, so
 * 4 x (208 - 17) = 764 are not reached yet. Worked out by hand. */
START_TEST(test_a_misconception_is_a_figure_of_the_lab) {
    PlErr err;
    char path[1100];
    snprintf(path, sizeof path, "%s/../lessons/10-generation.lesson",
             getenv("PADLAB_TESTS") ? getenv("PADLAB_TESTS") : "tests");
    PlLesson *l = pl_lesson_load(path, &err);
    ck_assert_msg(l != NULL, "%s", err.msg);
    PlLab *lab = small_lab();
    PlLessonRun *r = pl_lesson_run_new(lab, l, 0, &err);
    ck_assert_msg(r != NULL, "%s", err.msg);
    ck_assert_int_eq(pl_lesson_run_goto(r, 6, &err), 0); /* step 7 asks the 16 pad slots: answered first */
    wait_for(lab, r);
    ck_assert_int_eq(pl_lesson_run_answer(r, "16"), PL_ANS_RIGHT);
    ck_assert_int_eq(pl_lesson_run_goto(r, 8, &err), 0);
    wait_for(lab, r);
    const PlQuestion *q = &l->steps[8].q;
    ck_assert_int_eq(q->nmiscon, 2);
    ck_assert_double_eq(pl_misconception_value(lab, &q->miscon[0]), 764.0);
    ck_assert_double_eq(pl_misconception_value(lab, &q->miscon[1]), 16.0);
    ck_assert_int_eq(pl_lesson_run_answer(r, "764"), PL_ANS_WRONG);
    ck_assert_str_eq(pl_lesson_run_state(r)->message,
                     "764: the slots not reached yet alone; the prompts' pads hold no real token either.");
    ck_assert_int_eq(pl_lesson_run_answer(r, "16"), PL_ANS_WRONG);
    ck_assert_ptr_nonnull(strstr(pl_lesson_run_state(r)->message, "16: the prompts' pads alone"));
    ck_assert_int_eq(pl_lesson_run_answer(r, "780"), PL_ANS_RIGHT);
    pl_lesson_run_free(r);
    pl_lab_free(lab);
    pl_lesson_free(l);
}
END_TEST

/* A wrong answer is never diagnosed with a figure that another question
 * not answered yet asks: at step 2 (the real tokens) the pads typed read
 * only "not it" while step 1, which asks them, is open; once step 1 is
 * answered, the misconception step 2 names by them, then (without it) the
 * determiner. */
START_TEST(test_a_diagnosis_names_no_figure_another_question_asks) {
    static const char *const texts[] = {
        "# T\n## a\nset: maxlen=100\nask: How many pads?\nanswer: batch.pad_cells\n"
        "## b\nset: maxlen=100\nask: How many real tokens?\nanswer: batch.real_tokens\n"
        "misconception: {batch.pad_cells} => the pads, not the tokens\nsummary:\n- x\n",
        "# T\n## a\nset: maxlen=100\nask: How many pads?\nanswer: batch.pad_cells\n"
        "## b\nset: maxlen=100\nask: How many real tokens?\nanswer: batch.real_tokens\nsummary:\n- x\n"};
    static const char *const named[] = {"the pads, not the tokens", "the pad cells of the example's batch"};
    for (int i = 0; i < 2; i++) {
        TextPlay t;
        PlErr err;
        PlLessonRun *r = play_text(&t, texts[i]);
        double pads, real;
        char why[200], typed[64], pads_typed[64], want[200];
        ck_assert_int_eq(pl_quantity_value(t.lab, &t.l->steps[0].q.answer, &pads, why, sizeof why), 0);
        ck_assert_int_eq(pl_quantity_value(t.lab, &t.l->steps[1].q.answer, &real, why, sizeof why), 0);
        snprintf(pads_typed, sizeof pads_typed, "%.0f", pads);
        ck_assert_int_eq(pl_lesson_run_goto(r, 1, &err), 0);
        ck_assert_int_eq(pl_lesson_run_answer(r, pads_typed), PL_ANS_WRONG);
        snprintf(want, sizeof want, "%s is not it: the lab's number is %s%s.", pads_typed,
                 fmax(real / pads, pads / real) >= 2 ? "much " : "", real > pads ? "higher" : "lower");
        ck_assert_str_eq(pl_lesson_run_state(r)->message, want);
        ck_assert_int_eq(pl_lesson_run_goto(r, 0, &err), 0);
        ck_assert_int_eq(pl_lesson_run_answer(r, pads_typed), PL_ANS_RIGHT);
        ck_assert_int_eq(pl_lesson_run_goto(r, 1, &err), 0);
        ck_assert_int_eq(pl_lesson_run_answer(r, pads_typed), PL_ANS_WRONG);
        ck_assert_msg(strstr(pl_lesson_run_state(r)->message, named[i]), "%s", pl_lesson_run_state(r)->message);
        snprintf(typed, sizeof typed, "%.0f", real);
        ck_assert_int_eq(pl_lesson_run_answer(r, typed), PL_ANS_RIGHT);
        text_play_done(&t);
    }
}
END_TEST

/* A step's words before the lab fills them: each placeholder as the text
 * given, cut short rather than past the buffer. */
START_TEST(test_a_text_unfilled_writes_each_placeholder_as_given) {
    char out[64];
    ck_assert_str_eq(pl_lesson_unfilled("a {b.c} d {e} f", "??", out, sizeof out), "a ?? d ?? f");
    ck_assert_str_eq(pl_lesson_unfilled(NULL, "??", out, sizeof out), "");
    ck_assert_str_eq(pl_lesson_unfilled("a {b.c} d", "XYZ", out, 6), "a ");
}
END_TEST

/* A misconception is a number or one {quantity} of the answer's kind. */
START_TEST(test_a_misconception_names_a_figure_of_the_answers_kind) {
    PlErr err;
    static const char *bad[][2] = {
        {"misconception: {batch.nothing} => x", "t.lesson:5: a misconception's {batch.nothing}: "},
        {"misconception: {batch.pad_share} => x",
         "t.lesson:5: a misconception's {batch.pad_share} is not the same kind of figure as the answer"},
        {"misconception: {} => x", "t.lesson:5: a misconception's value is a number or one {quantity}, got '{}'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[400];
        int n = snprintf(text, sizeof text,
                         "# T\n## s\nask: How many pads?\nanswer: batch.pad_cells\n%s\nsummary:\n- x\n", bad[i][0]);
        PlLesson *l = pl_lesson_parse("t.lesson", text, (size_t)n, &err);
        ck_assert_ptr_null(l);
        ck_assert_msg(strncmp(err.msg, bad[i][1], strlen(bad[i][1])) == 0, "%s", err.msg);
    }
    char text[600], words[PL_LESSON_MISCONCEPTION_TEXT + 2];
    memset(words, 'w', sizeof words - 1), words[sizeof words - 1] = '\0'; /* one byte too many for a tally's row */
    int n = snprintf(text, sizeof text,
                     "# T\n## s\nask: How many pads?\nanswer: batch.pad_cells\nmisconception: 7 => %s\n", words);
    ck_assert_ptr_null(pl_lesson_parse("t.lesson", text, (size_t)n, &err));
    ck_assert_str_eq(err.msg, "t.lesson:5: a misconception says what it comes from in 200 characters at most (a "
                              "class's tally row)");
    PlLesson *l = parse("# T\n## s\nask: How many pads?\nanswer: batch.pad_cells\n"
                        "misconception: {batch.real_tokens} => the real tokens\nsummary:\n- x\n",
                        &err);
    ck_assert_int_eq(l->steps[0].q.miscon[0].measured, 1);
    pl_lesson_free(l);
}
END_TEST

/* Lesson 11 step 5 (loss terms 732, 735 without the -100s) said of 736 and
 * of 733 "736 is the packed row's loss terms without the -100s": a count
 * that determines the asked one is recognised when typed exactly, not
 * within 1%. */
START_TEST(test_a_count_is_recognised_only_when_typed_exactly) {
    static const char text[] = "# T\n## s\nset: maxlen=2000 batching=packed\nask: How many loss terms?\n"
                               "answer: packing.loss_terms\nsummary:\n- x\n";
    TextPlay t;
    PlLessonRun *r = play_text(&t, text);
    PlLab *lab = t.lab;
    const PlLesson *l = t.l;
    PlQuantity q;
    double unmasked, terms;
    char why[200], typed[64], want[300];
    ck_assert_int_eq(pl_quantity_parse("packing.unmasked_terms", &q, why, sizeof why), 0);
    ck_assert_int_eq(pl_quantity_value(lab, &q, &unmasked, why, sizeof why), 0);
    ck_assert_int_eq(pl_quantity_value(lab, &l->steps[0].q.answer, &terms, why, sizeof why), 0);
    ck_assert(terms < unmasked);
    snprintf(typed, sizeof typed, "%.0f", unmasked + 1);
    ck_assert_int_eq(pl_lesson_run_answer(r, typed), PL_ANS_WRONG);
    snprintf(want, sizeof want, "%s is not it: the lab's number is lower.", typed);
    ck_assert_str_eq(pl_lesson_run_state(r)->message, want);
    snprintf(typed, sizeof typed, "%.0f", unmasked);
    ck_assert_int_eq(pl_lesson_run_answer(r, typed), PL_ANS_WRONG);
    ck_assert_msg(strstr(pl_lesson_run_state(r)->message, " here; the question asks for "), "%s",
                  pl_lesson_run_state(r)->message);
    text_play_done(&t);
}
END_TEST

/* ---- claims against chance stand only inside a conditional ---- */

/* Phrases that say how an accuracy stands against chance: true on one
 * corpus, false on another (a 70/30 corpus's "chance" is 70%, not a coin
 * flip), so a lesson or deck may say them only in a {? ... } branch. */
static const char *const chance_claims[] = {"coin flip",     "at chance",           "near chance",
                                            "chance level", "what guessing gives", "a large gap"};

/* Appends "FILE:LINE: 'phrase'" to out for every claim of path's plain text
 * (outside every {? ... }); returns how many. */
static int plain_claims(const char *path, char *out, size_t cap) {
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "%s cannot be read", path);
    char line[4096];
    int found = 0, no = 0;
    while (fgets(line, sizeof line, f)) {
        no++;
        char plain[4096];
        size_t n = 0;
        int depth = 0, cond = 0; /* cond: the depth of the open conditional, 0 outside */
        for (const char *c = line; *c; c++) {
            if (*c == '{') {
                depth++;
                if (!cond && c[1] == '?') cond = depth;
            } else if (*c == '}' && depth > 0) {
                if (cond == depth) cond = 0;
                depth--;
            } else if (!cond && n < sizeof plain - 1) {
                plain[n++] = (char)tolower((unsigned char)*c);
            }
        }
        plain[n] = '\0';
        for (size_t k = 0; k < sizeof chance_claims / sizeof chance_claims[0]; k++)
            if (strstr(plain, chance_claims[k])) {
                size_t used = strlen(out);
                snprintf(out + used, cap - used, "%s:%d: '%s' outside a {? ... } conditional\n", path, no,
                         chance_claims[k]);
                found++;
            }
    }
    fclose(f);
    return found;
}

START_TEST(test_chance_claims_need_a_condition) {
    /* A bad line is found and named; the same claim in a branch is not. */
    char *dir = pl_test_tmpdir(), path[1200], out[8192] = "";
    snprintf(path, sizeof path, "%s/claims.lesson", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("It trains to a Coin Flip.\n"
          "It {? train.at_chance >= 2 | stays at chance | learns: {train.median}} here.\n"
          "{grid.median(post off)} is near chance.\n",
          f);
    fclose(f);
    ck_assert_int_eq(plain_claims(path, out, sizeof out), 2);
    char want[2600];
    snprintf(want, sizeof want, "%s:1: 'coin flip' outside a {? ... } conditional\n%s:3: 'near chance' outside a {? ... } conditional\n",
             path, path);
    ck_assert_str_eq(out, want);
    pl_test_rmtree(dir);
    free(dir);

    /* Every shipped lesson and deck. */
    const char *tests = getenv("PADLAB_TESTS");
    const char *dirs[] = {"lessons", "decks"};
    int files = 0, bad = 0;
    out[0] = '\0';
    for (int d = 0; d < 2; d++) {
        char at[900];
        snprintf(at, sizeof at, "%s/../%s", tests ? tests : "tests", dirs[d]);
        DIR *dp = opendir(at);
        ck_assert_msg(dp != NULL, "%s cannot be opened", at);
        for (struct dirent *e; (e = readdir(dp));) {
            size_t n = strlen(e->d_name);
            int ours = (n > 7 && !strcmp(e->d_name + n - 7, ".lesson")) || (n > 5 && !strcmp(e->d_name + n - 5, ".deck"));
            if (!ours) continue;
            snprintf(path, sizeof path, "%s/%s", at, e->d_name);
            bad += plain_claims(path, out, sizeof out);
            files++;
        }
        closedir(dp);
    }
    ck_assert_int_ge(files, 15);
    ck_assert_msg(bad == 0, "claims against chance that no figure conditions:\n%s", out);
}
END_TEST

/* ---- conditional sentences: {? COND | TEXT | OTHERWISE} ---- */

START_TEST(test_a_conditional_shows_the_sentence_its_figures_make_true) {
    PlLabSettings set = pl_settings_default();
    snprintf(set.corpus, sizeof set.corpus, "builtin:1:200:70");
    PlLab *lab = pl_lab_new(&set, NULL);
    ck_assert_ptr_nonnull(lab);
    char out[512];
    /* Before the cost result exists, its figures are pending. */
    ck_assert_str_eq(pl_fill(lab, NULL, "{? train.median > 0.6 | learns | does not}", out, sizeof out), "...");
    ck_assert_int_eq(pl_lab_wait(lab, pl_fill_kinds("{corpus.reviews}"), 60), 0);
    ck_assert_str_eq(pl_fill(lab, NULL, "It has {? corpus.reviews > 100 | {corpus.reviews} reviews | few reviews}.", out,
                             sizeof out),
                     "It has 200 reviews.");
    ck_assert_str_eq(pl_fill(lab, NULL, "It has {? corpus.reviews < 100 | many | few } reviews.", out, sizeof out),
                     "It has few reviews.");
    ck_assert_str_eq(pl_fill(lab, NULL, "[{? corpus.reviews < 100 | many}]", out, sizeof out), "[]");
    /* Two figures, and two conditions that must both hold: the split's 40
     * reviews are the validation set of a 70% positive corpus. */
    ck_assert_str_eq(pl_fill(lab, NULL, "{? corpus.majority >= 0.5 & corpus.validation == 40 | yes | no}", out, sizeof out),
                     "yes");
    ck_assert_str_eq(pl_fill(lab, NULL, "{? corpus.majority > corpus.validation | yes | no}", out, sizeof out), "no");
    int n = pl_fill_conditions(lab, "{? corpus.reviews > 1 | a} and {? train.median > 0.6 | b}", NULL, NULL);
    ck_assert_int_eq(n, 2);
    pl_lab_free(lab);
    char why[200];
    ck_assert_int_eq(pl_fill_check("{? corpus.reviews > 1 | a | b}", why, sizeof why), 0);
    ck_assert_int_eq(pl_fill_check("{? corpus.reviews > 1 a}", why, sizeof why), -1);
    ck_assert_str_eq(why, "a conditional is {? COND | TEXT | OTHERWISE}: it needs a |");
    ck_assert_int_eq(pl_fill_check("{? corpus.reviews ~ 1 | a}", why, sizeof why), -1);
    ck_assert_str_eq(why, "a condition is TERM OP TERM (OP one of < <= > >= == !=), got ' corpus.reviews ~ 1 '");
    ck_assert_int_eq(pl_fill_check("{? corpus.reviews > 1 | {? corpus.reviews > 2 | a} | b}", why, sizeof why), -1);
    ck_assert_str_eq(why, "a conditional's text cannot hold another conditional");
    ck_assert_int_eq(pl_fill_check("{? no.such > 1 | a}", why, sizeof why), -1);
    ck_assert_int_eq(pl_fill_check("a } b", why, sizeof why), -1);
}
END_TEST

/* An ask with no written solution still gives its answer after a try: s
 * shows the lab's number and lifts the veil over it. */
START_TEST(test_an_ask_without_a_solution_line_shows_its_number) {
    static const char text[] = "# T\n## s\nset: padding=post maxlen=100\nask: How many pads?\n"
                               "answer: batch.pad_cells\nsummary:\n- x\n";
    char *dir = pl_test_tmpdir(), path[4200];
    snprintf(path, sizeof path, "%s/t.lesson", dir);
    pl_test_write_file(path, text, sizeof text - 1);
    PlLab *lab = small_lab();
    PlLessonPlay p;
    char why[512];
    ck_assert_msg(pl_lesson_play_open(&p, lab, path, 0, 0, why, sizeof why) == 0, "%s", why);
    ck_assert_int_eq(pl_lab_wait(lab, pl_lesson_run_kinds(p.run), 600), 0);
    PlLedger v;
    pl_lesson_run_ledger(p.run, &v);
    /* open: the pad count is hidden, and what gives it away: the real tokens, the pad share */
    ck_assert(pl_ledger_hides_name(&v, "batch.pad_cells") && pl_ledger_hides_name(&v, "batch.real_tokens"));
    ck_assert(pl_ledger_hides_name(&v, "batch.pad_share") && !pl_ledger_hides_name(&v, "batch.cells"));
    pl_lesson_play_key(&p, PL_LK_CHAR, '1'), pl_lesson_play_key(&p, PL_LK_ENTER, 0); /* a wrong try */
    pl_lesson_play_key(&p, PL_LK_CHAR, 's');
    ck_assert_int_eq(pl_lesson_run_state(p.run)->solution, 1);
    pl_lesson_run_ledger(p.run, &v);
    ck_assert_int_eq(v.n, 0); /* answered by the solution: nothing hidden */
    double n;
    ck_assert_int_eq(pl_quantity_value(lab, &pl_lesson_run_step(p.run)->q.answer, &n, why, sizeof why), 0);
    char want[64];
    snprintf(want, sizeof want, "The answer is %.0f.", n);
    static PlPage page;
    pl_lesson_page(&p, lab, &page);
    int said = 0;
    for (int i = 0; i < page.n; i++) said |= strcmp(pl_page_para(&page, i), want) == 0;
    ck_assert_msg(said, "the page does not say '%s'", want);
    pl_lesson_play_close(&p);
    pl_lab_free(lab);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

/* s after a wrong choice shows the right one by its letter (a wrong pick is
 * a try), and the choices stay where they were. */
START_TEST(test_play_solution_after_a_wrong_choice) {
    char *dir = pl_test_tmpdir(), path[4200];
    snprintf(path, sizeof path, "%s/t.lesson", dir);
    pl_test_write_file(path, good, sizeof good - 1);
    PlLab *lab = small_lab();
    PlLessonPlay p;
    char why[512];
    ck_assert_msg(pl_lesson_play_open(&p, lab, path, 1, 0, why, sizeof why) == 0, "%s", why);
    const PlLessonState *st = pl_lesson_run_state(p.run);
    int wrong = pl_choices_place(st->order, 2, 0), right = pl_choices_place(st->order, 2, 1);
    pl_lesson_play_key(&p, PL_LK_CHAR, 's');
    ck_assert_ptr_nonnull(strstr(p.note, "try an answer first"));
    ck_assert_int_eq(pl_lesson_play_key(&p, PL_LK_CHAR, 'a' + wrong), PL_LESSON_TAKEN);
    ck_assert_int_eq(st->answer, PL_ANS_WRONG);
    pl_lesson_play_key(&p, PL_LK_CHAR, 's');
    ck_assert_int_eq(st->solution, 1);
    static PlPage page;
    pl_lesson_page(&p, lab, &page);
    char want[64], shown[64];
    snprintf(want, sizeof want, "The answer is %c) right", 'a' + right);
    snprintf(shown, sizeof shown, "%c) right", 'a' + right);
    int said = 0, listed = 0;
    for (int i = 0; i < page.n; i++)
        said |= strcmp(pl_page_para(&page, i), want) == 0, listed |= strcmp(pl_page_para(&page, i), shown) == 0;
    ck_assert_msg(said && listed, "the page does not say '%s' under '%s'", want, shown);
    pl_lesson_play_close(&p);
    pl_lab_free(lab);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

/* --check finds every problem of a lesson, in line order. */
START_TEST(test_check_reports_every_problem) {
    char *dir = pl_test_tmpdir(), path[4200];
    snprintf(path, sizeof path, "%s/three.lesson", dir);
    const char text[] = "# Three problems\nminutes: 0\n## s\nset: padding=sideways\nchoose: which?\n- one => no\n"
                        "## t\nask: how many?\n" END;
    pl_test_write_file(path, text, sizeof text - 1);
    PlProblems *probs = calloc(1, sizeof *probs);
    ck_assert_ptr_null(pl_lesson_check(path, probs));
    ck_assert_int_eq(probs->n, 4);
    const int lines[] = {2, 4, 5, 8};
    const char *says[] = {"minutes is a whole number", "padding must be one of pre,post",
                          "a choose: question needs two choices or more", "an ask: needs its answer: line"};
    for (int i = 0; i < 4; i++) {
        char want[4400];
        snprintf(want, sizeof want, "%s:%d: %s", path, lines[i], says[i]);
        ck_assert_msg(strncmp(probs->at[i].msg, want, strlen(want)) == 0, "got %s, want %s", probs->at[i].msg, want);
    }
    free(probs);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

/* Over every choose: of the shipped lessons and 300 attempts of one
 * learner, the right answer sits at each of the k places about 1/k of the
 * time, and answering a blind scores about chance. */
START_TEST(test_shipped_choices_spread_evenly) {
    int places[PL_LESSON_MAX_CHOICES + 1][PL_LESSON_MAX_CHOICES] = {{0}}, questions = 0;
    double blind = 0.0, chance = 0.0;
    const int attempts = 300;
    PlLabSettings set = pl_settings_default();
    snprintf(set.corpus, sizeof set.corpus, "%s", SMALL);
    for (int i = 0; i < nshipped; i++) {
        PlErr err;
        PlLesson *l = pl_lesson_load(shipped[i], &err);
        ck_assert_msg(l != NULL, "%s", err.msg);
        PlLab *lab = pl_lab_new(&set, &err);
        PlLessonRun *r = pl_lesson_run_new(lab, l, 0, &err);
        ck_assert_msg(r != NULL, "%s", err.msg);
        for (int k = 0; k < l->nsteps; k++) {
            const PlQuestion *q = &l->steps[k].q;
            if (q->kind != PL_Q_CHOOSE) continue;
            ck_assert_int_eq(pl_lesson_run_goto(r, k, &err), 0);
            int rights = 0;
            for (int c = 0; c < q->nchoices; c++) rights += q->choices[c].right;
            questions++, chance += rights / (double)q->nchoices;
            for (int a = 0; a < attempts; a++) {
                pl_lesson_run_learner(r, 0x5eedf00dcafe1234ULL, a);
                const int *order = pl_lesson_run_state(r)->order;
                for (int at = 0; at < q->nchoices; at++)
                    if (q->choices[order[at]].right) places[q->nchoices][at]++;
                blind += q->choices[order[0]].right;
            }
        }
        pl_lesson_run_free(r);
        pl_lab_free(lab);
        pl_lesson_free(l);
    }
    ck_assert_int_ge(questions, 11);
    for (int k = 2; k <= PL_LESSON_MAX_CHOICES; k++) {
        int n = 0;
        for (int at = 0; at < k; at++) n += places[k][at];
        for (int at = 0; at < k && n >= 1000; at++) /* 1000 right answers or more: 0.05 is over 3 standard errors */
            ck_assert_msg(fabs(places[k][at] / (double)n - 1.0 / k) < 0.05, "%d choices, place %c: %d of %d", k,
                          'a' + at, places[k][at], n);
    }
    blind /= questions * (double)attempts, chance /= questions;
    ck_assert_msg(fabs(blind - chance) < 0.03, "a blind scores %.3f, chance %.3f", blind, chance);
}
END_TEST

/* ---- the page and its one wrap ---- */

typedef struct {
    char line[16][64];
    double in[16];
    int n;
} Wrapped;

static double cols(void *ctx, const char *s, size_t n) {
    (void)ctx, (void)s;
    return (double)n;
}

static void collect(void *ctx, const char *s, size_t n, int kind, double in) {
    Wrapped *w = ctx;
    ck_assert_int_lt(w->n, 16);
    snprintf(w->line[w->n], sizeof w->line[0], "%.*s", kind == 2 ? 0 : (int)n, s);
    w->in[w->n++] = in;
}

START_TEST(test_a_list_item_follows_its_line_and_hangs_under_its_text) {
    Wrapped w = {0};
    pl_page_wrap("Two orders:\n- pre puts the pads before the review\n- post after it", 20.0, 0.0, cols, collect, &w);
    static const char *const want[] = {"Two orders:", "- pre puts the pads", "before the review", "- post after it"};
    ck_assert_int_eq(w.n, 4);
    for (int i = 0; i < 4; i++) ck_assert_str_eq(w.line[i], want[i]);
    ck_assert(w.in[0] == 0.0 && w.in[1] == 0.0 && w.in[3] == 0.0);
    ck_assert(w.in[2] == 2.0); /* under "pre", not under the dash */
}
END_TEST

START_TEST(test_a_paragraph_starting_with_a_minus_sign_is_no_list_item) {
    Wrapped w = {0};
    pl_page_wrap("The loss falls to\n-0.5 on a log scale, not below", 20.0, 0.0, cols, collect, &w);
    static const char *const want[] = {"The loss falls to", "", "-0.5 on a log scale,", "not below"};
    ck_assert_int_eq(w.n, 4);
    for (int i = 0; i < 4; i++) ck_assert_str_eq(w.line[i], want[i]);
    ck_assert(w.in[3] == 0.0);
}
END_TEST

START_TEST(test_a_wider_indent_wins_over_the_items_hang) {
    Wrapped w = {0};
    pl_page_wrap("- pre puts the pads before the review", 20.0, 4.0, cols, collect, &w);
    ck_assert_int_eq(w.n, 3);
    ck_assert_str_eq(w.line[1], "before the");
    ck_assert(w.in[1] == 4.0 && w.in[2] == 4.0);
}
END_TEST

START_TEST(test_a_page_keeps_one_gap_between_paragraphs) {
    static PlPage g;
    pl_page_clear(&g);
    pl_page_gap(&g); /* nothing above: no gap */
    pl_page_add(&g, PL_ROLE_TEXT, PL_PART_NONE, 0, "one");
    pl_page_gap(&g);
    pl_page_gap(&g);
    pl_page_add(&g, PL_ROLE_PROMPT, PL_PART_QUESTION, 3, "two");
    ck_assert_int_eq(g.n, 3);
    ck_assert_int_eq(g.para[1].role, PL_ROLE_GAP);
    ck_assert_str_eq(pl_page_para(&g, 2), "two");
    ck_assert_int_eq(g.para[2].part, PL_PART_QUESTION);
    ck_assert_int_eq(g.para[2].indent, 3);
}
END_TEST

START_TEST(test_the_teachers_notes_are_kept_with_their_step) {
    static const char text[] = "; before the title: skipped\n"
                               "# T\n"
                               "; the lesson's note,\n"
                               "; on two lines\n"
                               "## one\n"
                               "Narration.\n"
                               ";   spaces kept after the first one\n"
                               "## two\n"
                               "Text.\n"
                               ";no space: {batch.pad_cells} pads\n"
                               ";\n"
                               "; a second paragraph\n"
                               "## three\n"
                               "summary:\n- done\n";
    PlErr err;
    PlLesson *l = parse(text, &err);
    ck_assert_msg(l != NULL, "%s", err.msg);
    ck_assert_str_eq(l->notes, "the lesson's note, on two lines");
    ck_assert_str_eq(l->steps[0].notes, "  spaces kept after the first one");
    ck_assert_str_eq(l->steps[0].text, "Narration.");
    ck_assert_str_eq(l->steps[1].notes, "no space: {batch.pad_cells} pads\na second paragraph");
    ck_assert_str_eq(l->steps[1].text, "Text.");
    ck_assert_ptr_null(l->steps[2].notes);
    pl_lesson_free(l);
}
END_TEST

/* A figure of training reads every run of its setting: more seeds of the
 * same setting share the runs a question asks about (their range bounds its
 * spread), so it is the same fact; another setting's runs are not. */
START_TEST(test_more_seeds_of_a_setting_are_the_same_fact) {
    PlQuantity q;
    char why[200];
    ck_assert_int_eq(pl_quantity_parse("grid.spread(pre on)", &q, why, sizeof why), 0);
    PlLabSettings a = pl_settings_default(), b = a;
    b.seed = 3;
    ck_assert(pl_lesson_same_fact(&q, &a, &b));
    b.seeds = a.seeds + 3;
    ck_assert(pl_lesson_same_fact(&q, &a, &b));
    b.maxlen = a.maxlen + 50;
    ck_assert(!pl_lesson_same_fact(&q, &a, &b));
    ck_assert_int_eq(pl_quantity_parse("cost.rnn_wasted", &q, why, sizeof why), 0);
    b = a, b.seed = 3; /* no figure of training: the seed is no setting of the corpus's cost */
    ck_assert(pl_lesson_same_fact(&q, &a, &b));
}
END_TEST

Suite *lessons_suite(void) {
    Suite *s = suite_create("lessons");
    TCase *tc = tcase_create("parser");
    tcase_set_timeout(tc, PL_TEST_HANG); /* its diagnosis tests play a lab; a loaded machine is no hang */
    tcase_add_loop_test(tc, test_parser_errors, 0, (int)(sizeof bad_lessons / sizeof bad_lessons[0]));
    tcase_add_test(tc, test_parser_binary_and_long_lines);
    tcase_add_test(tc, test_more_seeds_of_a_setting_are_the_same_fact);
    tcase_add_test(tc, test_parser_reads_everything);
    tcase_add_test(tc, test_the_teachers_notes_are_kept_with_their_step);
    tcase_add_test(tc, test_check_refuses_a_step_that_shows_its_answer_first);
    tcase_add_test(tc, test_check_refuses_what_gives_an_asked_figure_away);
    tcase_add_test(tc, test_the_ledger_follows_the_questions_of_the_lesson);
    tcase_add_test(tc, test_an_automatic_example_is_the_row_it_resolves_to);
    tcase_add_test(tc, test_a_training_question_hides_only_its_own_runs);
    tcase_add_test(tc, test_a_later_training_question_leaves_the_open_ones_runs_hidden);
    tcase_add_test(tc, test_a_choose_hides_the_figures_its_choices_rest_on);
    tcase_add_test(tc, test_what_a_question_hands_over_stays_in_sight);
    tcase_add_test(tc, test_a_wrong_number_is_diagnosed);
    tcase_add_test(tc, test_a_share_nearer_its_complement_is_the_other_part);
    tcase_add_test(tc, test_a_count_is_recognised_only_when_typed_exactly);
    tcase_add_test(tc, test_a_learner_hears_the_misconception_the_lesson_names);
    tcase_add_test(tc, test_a_misconception_is_a_figure_of_the_lab);
    tcase_add_test(tc, test_a_misconception_names_a_figure_of_the_answers_kind);
    tcase_add_test(tc, test_a_text_unfilled_writes_each_placeholder_as_given);
    tcase_add_test(tc, test_a_diagnosis_names_no_figure_another_question_asks);
    tcase_add_test(tc, test_a_share_is_named_only_as_written);
    tcase_add_test(tc, test_an_answered_figure_stays_in_sight_before_a_later_question_it_determines);
    tcase_add_test(tc, test_a_conditional_shows_the_sentence_its_figures_make_true);
    tcase_add_test(tc, test_an_ask_without_a_solution_line_shows_its_number);
    tcase_add_test(tc, test_check_reports_every_problem);
    suite_add_tcase(s, tc);
    tc = tcase_create("run");
    tcase_set_timeout(tc, PL_TEST_HANG);
    tcase_add_test(tc, test_run_folds_steps_and_locks);
    tcase_add_test(tc, test_run_answers_hints_solution);
    tcase_add_test(tc, test_a_step_jumped_to_runs_the_grid_it_reads);
    tcase_add_test(tc, test_play_answer_waits_for_its_number);
    tcase_add_test(tc, test_run_exercise_smallest);
    tcase_add_test(tc, test_a_lesson_reads_maxlen_none_as_the_longest_review);
    tcase_add_test(tc, test_progress_round_trip);
    tcase_add_test(tc, test_an_old_name_opens_the_lesson_it_became);
    tcase_add_test(tc, test_the_renames_agree_with_the_lessons);
    tcase_add_test(tc, test_play_solution_after_a_wrong_choice);
    suite_add_tcase(s, tc);
    tc = tcase_create("claims");
    tcase_add_test(tc, test_chance_claims_need_a_condition);
    suite_add_tcase(s, tc);

    tc = tcase_create("page");
    tcase_add_test(tc, test_a_list_item_follows_its_line_and_hangs_under_its_text);
    tcase_add_test(tc, test_a_paragraph_starting_with_a_minus_sign_is_no_list_item);
    tcase_add_test(tc, test_a_wider_indent_wins_over_the_items_hang);
    tcase_add_test(tc, test_a_page_keeps_one_gap_between_paragraphs);
    suite_add_tcase(s, tc);

    find_shipped();
    tc = tcase_create("shipped_choices");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_shipped_choices_spread_evenly);
    suite_add_tcase(s, tc);
    tc = tcase_create("shipped");
    tcase_set_timeout(tc, PL_TEST_HANG);
    tcase_add_test(tc, test_shipped_found);
    tcase_add_loop_test(tc, test_shipped_lesson, 0, nshipped * pl_test_play_corpora());
    suite_add_tcase(s, tc);
    return s;
}
