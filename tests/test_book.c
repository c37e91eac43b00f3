/* The learner's books (app/teach/book.h): lesson progress and drill boxes
 * in one format, two instances on one book losing nothing of each other's,
 * any name kept, a damaged book set aside, the first format still read. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app/teach/book.h"
#include "app/teach/drill_book.h"
#include "app/teach/progress.h"
#include "suites.h"

static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *s = calloc(1, 1 << 16);
    size_t n = fread(s, 1, (1 << 16) - 1, f);
    s[n] = '\0';
    fclose(f);
    return s;
}

static int lines_starting(const char *text, const char *prefix) {
    int n = 0;
    for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (strncmp(l, prefix, strlen(prefix)) == 0) n++;
    return n;
}

START_TEST(test_two_lessons_open_at_once_keep_both_answers) {
    char *dir = pl_test_tmpdir(), path[4200];
    snprintf(path, sizeof path, "%s/progress", dir);
    PlErr err;
    PlBook a, b, c;
    ck_assert_int_eq(pl_book_load(&a, &pl_progress_kind, path, &err), PL_OK); /* a teacher's --present */
    ck_assert_int_eq(pl_book_load(&b, &pl_progress_kind, path, &err), PL_OK); /* a laptop's copy */
    PlLessonProgress *p = pl_progress_of(&a, "03-mask");
    p->opened++, p->step = 2, p->answer[1] = 1;
    p = pl_progress_of(&b, "03-mask");
    p->opened++, p->step = 4, p->answer[3] = -1;
    pl_progress_of(&b, "01-rectangle")->done = 1;
    ck_assert_int_eq(pl_book_save(&a, &err), PL_OK);
    ck_assert_int_eq(pl_book_save(&b, &err), PL_OK); /* the stale copy saves last */
    ck_assert_int_eq(pl_book_load(&c, &pl_progress_kind, path, &err), PL_OK);
    ck_assert_int_eq(c.n, 2);
    p = pl_book_find(&c, "03-mask");
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(p->answer[1], 1);  /* the teacher's answer */
    ck_assert_int_eq(p->answer[3], -1); /* and the laptop's */
    ck_assert_int_eq(p->opened, 2);
    ck_assert_int_eq(p->step, 4); /* the step of the last save */
    ck_assert_int_eq(((PlLessonProgress *)pl_book_find(&c, "01-rectangle"))->done, 1);
    ck_assert_int_eq(pl_book_find(&b, "03-mask") != NULL &&
                         ((PlLessonProgress *)pl_book_find(&b, "03-mask"))->answer[1],
                     1); /* the one that saved last holds the other's too */
    pl_book_done(&a), pl_book_done(&b), pl_book_done(&c);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

START_TEST(test_two_drills_on_one_book_keep_every_grade) {
    char *dir = pl_test_tmpdir(), path[4200];
    snprintf(path, sizeof path, "%s/drill", dir);
    PlErr err;
    PlDrillBook a, b, c;
    ck_assert_int_eq(pl_drill_book_load_from(&a, path, &err), PL_OK);
    pl_drill_book_of(&a, "quickfire", "gone")->right = 1;
    ck_assert_int_eq(pl_drill_book_save(&a, &err), PL_OK);
    ck_assert_int_eq(pl_drill_book_load_from(&b, path, &err), PL_OK);
    const long long day = 20000 * PL_DAY;
    ck_assert_int_eq(pl_drill_book_grade(&a, "cards", "one", PL_GRADE_GOOD, day), 0);
    pl_drill_book_of(&a, "quickfire", "t")->right = 1;
    ck_assert_int_eq(pl_drill_book_grade(&b, "cards", "one", PL_GRADE_AGAIN, day + PL_DAY), 0);
    pl_drill_book_of(&b, "quickfire", "t")->wrong = 1;
    ck_assert_int_eq(pl_drill_book_forget(&b, "quickfire"), 2); /* b forgets what it read: "gone" and its own "t" */
    pl_drill_book_of(&b, "quickfire", "t")->wrong = 1;
    ck_assert_int_eq(pl_drill_book_save(&a, &err), PL_OK);
    ck_assert_int_eq(pl_drill_book_save(&b, &err), PL_OK);
    ck_assert_int_eq(pl_drill_book_load_from(&c, path, &err), PL_OK);
    const PlDrillRecord *one = pl_drill_book_find(&c, "cards", "one");
    ck_assert_ptr_nonnull(one);
    ck_assert_int_eq(one->s.reviews, 2); /* both grades counted */
    ck_assert_int_eq(one->s.last, day + PL_DAY); /* the schedule of the last grade saved: again, */
    ck_assert_int_eq(one->s.due, day + PL_DAY + 60); /* the first learning step, a minute */
    /* both drills' log lines are kept, each under its own name */
    ck_assert_ptr_nonnull(pl_book_find(&c, "cards/one@1728000000.1"));
    ck_assert_ptr_nonnull(pl_book_find(&c, "cards/one@1728086400.1"));
    const PlDrillRecord *t = pl_drill_book_find(&c, "quickfire", "t");
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(t->right, 1);
    ck_assert_int_eq(t->wrong, 1);
    ck_assert_ptr_null(pl_drill_book_find(&c, "quickfire", "gone")); /* forgotten by b, changed by nobody */
    pl_drill_book_done(&a), pl_drill_book_done(&b), pl_drill_book_done(&c);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

/* Two processes grading at once, each saving after every grade. */
START_TEST(test_two_processes_saving_at_once_lose_nothing) {
    char *dir = pl_test_tmpdir(), path[4200];
    snprintf(path, sizeof path, "%s/drill", dir);
    pid_t kids[2];
    for (int k = 0; k < 2; k++) {
        if ((kids[k] = fork()) == 0) {
            PlErr err;
            PlDrillBook b;
            int bad = pl_drill_book_load_from(&b, path, &err) != PL_OK;
            for (int i = 0; i < 40 && !bad; i++) {
                char id[32];
                snprintf(id, sizeof id, "p%d-%d", k, i);
                pl_drill_book_of(&b, "deck", id)->right = 1;
                pl_drill_book_of(&b, "deck", "shared")->wrong++;
                bad = pl_drill_book_save(&b, &err) != PL_OK;
            }
            pl_drill_book_done(&b);
            _exit(bad);
        }
    }
    for (int k = 0; k < 2; k++) {
        int status;
        ck_assert_int_eq(waitpid(kids[k], &status, 0), kids[k]);
        ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    PlErr err;
    PlDrillBook c;
    ck_assert_int_eq(pl_drill_book_load_from(&c, path, &err), PL_OK);
    ck_assert_int_eq(c.n, 81);
    ck_assert_int_eq(pl_drill_book_find(&c, "deck", "shared")->wrong, 80);
    pl_drill_book_done(&c);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

START_TEST(test_names_with_a_space_a_newline_or_a_percent_keep_their_progress) {
    char *dir = pl_test_tmpdir(), path[4200];
    snprintf(path, sizeof path, "%s/progress", dir);
    const char *names[] = {"my lesson", "two\nlines", "50%=off", "tab\there", "\xc3\xa9t\xc3\xa9"};
    PlErr err;
    PlBook b;
    ck_assert_int_eq(pl_book_load(&b, &pl_progress_kind, path, &err), PL_OK);
    for (int i = 0; i < 5; i++) {
        PlLessonProgress *p = pl_progress_of(&b, names[i]);
        ck_assert_ptr_nonnull(p);
        p->step = i + 1;
    }
    ck_assert_int_eq(pl_book_save(&b, &err), PL_OK);
    pl_book_done(&b);
    char *text = slurp(path);
    ck_assert_int_eq(lines_starting(text, "lesson = "), 5); /* one line each */
    ck_assert_ptr_nonnull(strstr(text, "lesson = my%20lesson step=1 "));
    ck_assert_ptr_nonnull(strstr(text, "lesson = two%0Alines step=2 "));
    ck_assert_ptr_nonnull(strstr(text, "lesson = 50%25%3Doff step=3 "));
    free(text);
    ck_assert_int_eq(pl_book_load(&b, &pl_progress_kind, path, &err), PL_OK);
    ck_assert_str_eq(b.notice, "");
    ck_assert_int_eq(b.n, 5);
    for (int i = 0; i < 5; i++) {
        const PlLessonProgress *p = pl_book_find(&b, names[i]);
        ck_assert_msg(p != NULL, "%s", names[i]);
        ck_assert_int_eq(p->step, i + 1);
    }
    ck_assert_int_eq(pl_progress_forget(&b, "two\nlines"), 1);
    pl_book_done(&b);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

START_TEST(test_a_damaged_book_is_set_aside_with_a_message) {
    char *dir = pl_test_tmpdir(), path[4200], aside[4300];
    snprintf(path, sizeof path, "%s/drill", dir);
    const char damaged[] = "item = a/b box=1 due=3 reviews=1 lapses=0 right=0 wrong=0 last=2\nitem = a/c box=x\n";
    pl_test_write_file(path, damaged, sizeof damaged - 1);
    PlErr err;
    PlDrillBook b;
    /* a read skips the damaged record, names it, and changes nothing */
    ck_assert_int_eq(pl_drill_book_load_from(&b, path, &err), PL_OK);
    ck_assert_int_eq(b.n, 1);
    ck_assert_msg(strstr(b.notice, "drill:2: expected 'item = DECK/ID") != NULL, "%s", b.notice);
    ck_assert_msg(strstr(b.notice, "(1 damaged record left out); the file is left as it is") != NULL, "%s", b.notice);
    char *kept = slurp(path);
    ck_assert_str_eq(kept, damaged);
    free(kept);
    snprintf(aside, sizeof aside, "%s.damaged-1", path);
    ck_assert_int_ne(access(aside, F_OK), 0);
    /* a write would lose it: the whole file goes aside first, the good record stays */
    pl_drill_book_of(&b, "a", "new")->right = 1;
    ck_assert_int_eq(pl_drill_book_save(&b, &err), PL_OK);
    ck_assert_msg(strstr(b.notice, "the whole file set aside as drill.damaged-1, the rest kept") != NULL, "%s",
                  b.notice);
    kept = slurp(aside);
    ck_assert_str_eq(kept, damaged); /* every byte of it, beside the book */
    free(kept);
    kept = slurp(path);
    ck_assert_msg(strstr(kept, "item = a/b ") && strstr(kept, "item = a/new ") && !strstr(kept, "a/c"), "%s", kept);
    free(kept);
    pl_drill_book_done(&b);
    pl_test_write_file(path, "learner = 12345\n", 16); /* a damaged header: nothing read, nothing changed */
    ck_assert_int_eq(pl_drill_book_load_from(&b, path, &err), PL_OK);
    ck_assert_int_eq(b.n, 0);
    ck_assert_msg(strstr(b.notice, "drill:1: expected 'learner = ' and 16 hex digits: nothing of it read") != NULL, "%s",
                  b.notice);
    kept = slurp(path);
    ck_assert_str_eq(kept, "learner = 12345\n");
    free(kept);
    pl_drill_book_of(&b, "a", "again")->right = 1;
    ck_assert_int_eq(pl_drill_book_save(&b, &err), PL_OK); /* the next free name */
    ck_assert_msg(strstr(b.notice, "set aside as drill.damaged-2, a new book begun") != NULL, "%s", b.notice);
    pl_drill_book_done(&b);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

START_TEST(test_a_book_of_the_first_format_loads_without_loss) {
    char *dir = pl_test_tmpdir(), path[4200];
    snprintf(path, sizeof path, "%s/progress", dir);
    const char old[] = "# padlab: lessons played\n"
                       "learner = 00000000000000a1\n"
                       "lesson = 01-rectangle step=0 done=1 opened=2 answers=\n"
                       "lesson = 50%41off step=3 done=0 opened=1 answers=1r,2w\n";
    pl_test_write_file(path, old, sizeof old - 1);
    PlErr err;
    PlBook b;
    ck_assert_int_eq(pl_book_load(&b, &pl_progress_kind, path, &err), PL_OK);
    ck_assert_str_eq(b.notice, "");
    ck_assert(b.salt == 0xa1);
    ck_assert_int_eq(b.n, 2);
    const PlLessonProgress *p = pl_book_find(&b, "50%41off"); /* written as it was: no %XX then */
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(p->step, 3);
    ck_assert_int_eq(p->answer[1], 1);
    ck_assert_int_eq(p->answer[2], -1);
    ck_assert_int_eq(((PlLessonProgress *)pl_book_find(&b, "01-rectangle"))->done, 1);
    ck_assert_int_eq(pl_book_save(&b, &err), PL_OK); /* written back in the current format */
    pl_book_done(&b);
    char *text = slurp(path);
    ck_assert_ptr_nonnull(strstr(text, "\nformat = 2\n"));
    ck_assert_ptr_nonnull(strstr(text, "lesson = 50%2541off step=3 done=0 opened=1 answers=1r,2w\n"));
    free(text);
    ck_assert_int_eq(pl_book_load(&b, &pl_progress_kind, path, &err), PL_OK);
    ck_assert_ptr_nonnull(pl_book_find(&b, "50%41off"));
    ck_assert(b.salt == 0xa1);
    pl_book_done(&b);
    const char old_drill[] = "item = cards-attention/key-padding-mask box=2 due=20458 reviews=3 lapses=1 right=0 "
                             "wrong=0 last=20457\n";
    snprintf(path, sizeof path, "%s/drill", dir);
    pl_test_write_file(path, old_drill, sizeof old_drill - 1);
    PlDrillBook d;
    ck_assert_int_eq(pl_drill_book_load_from(&d, path, &err), PL_OK);
    const PlDrillRecord *r = pl_drill_book_find(&d, "cards-attention", "key-padding-mask");
    ck_assert_ptr_nonnull(r);
    /* a Leitner card of the first version: a review card, S = box 2's two
     * days, due and last seen on its days; its counts kept; box=2 written
     * back as where it came from */
    ck_assert_int_eq(r->s.state, PL_CARD_REVIEW);
    ck_assert_double_eq(r->s.s, 2.0);
    ck_assert_int_eq(r->s.due, 20458 * PL_DAY);
    ck_assert_int_eq(r->s.last, 20457 * PL_DAY);
    ck_assert_int_eq(r->s.reviews, 3);
    ck_assert_int_eq(r->s.lapses, 1);
    ck_assert_int_eq(r->box, 2);
    pl_drill_book_of(&d, "quickfire", "new")->right = 1;
    ck_assert_int_eq(pl_drill_book_save(&d, &err), PL_OK);
    text = slurp(path);
    ck_assert_msg(strstr(text, "item = cards-attention/key-padding-mask state=review step=0 d=2.11810397 s=2 "
                               "due_at=1767571200 last_at=1767484800 ivl=2 reviews=3 lapses=1 right=0 wrong=0 box=2\n"),
                  "%s", text);
    free(text);
    pl_drill_book_done(&d);
    ck_assert_int_eq(pl_drill_book_load_from(&d, path, &err), PL_OK); /* read again: the same card */
    r = pl_drill_book_find(&d, "cards-attention", "key-padding-mask");
    ck_assert_int_eq(r->s.due, 20458 * PL_DAY);
    ck_assert_double_eq(r->s.s, 2.0);
    pl_drill_book_done(&d);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

START_TEST(test_a_late_format_line_is_damage_and_a_bad_record_is_left_out) {
    PlErr err;
    PlBook b;
    const char late[] = "lesson = a step=1\nformat = 2\n";
    ck_assert_int_eq(pl_book_parse(&b, &pl_progress_kind, late, sizeof late - 1, "p", &err), PL_EINPUT);
    ck_assert_str_eq(err.msg, "p:2: expected 'format = 2' before every other line");
    /* a record with a bad escape is left out and named, the others kept */
    const char bad[] = "format = 2\nlesson = a%4 step=1\nlesson = b step=2\nlesson = a%00 step=1\n";
    ck_assert_int_eq(pl_book_parse(&b, &pl_progress_kind, bad, sizeof bad - 1, "p", &err), PL_OK);
    ck_assert_int_eq(b.n, 1);
    ck_assert_int_eq(b.skipped, 2);
    ck_assert_str_eq(b.skipped_first, "p:2: expected 'lesson = NAME step=N done=0|1 opened=N answers=2r,5w'");
    pl_book_done(&b);
}
END_TEST

/* ---- lessons renamed (app/teach/renamed.h) ---- */

static const PlLessonProgress *progress_of(const PlBook *b, const char *name) { return pl_book_find(b, name); }

/* A progress file of the old names (before issue 33's order): each record
 * reads as the new lesson's, 09-batching's answers split between
 * 08-batching and 11-packing at their new steps, by the table worked by
 * hand: old steps 0-8 stay, 9-11 are 11-packing's 3-5, 12 on are 9 on. */
START_TEST(test_a_progress_file_of_the_old_names_reads_under_the_new_ones) {
    char *dir = pl_test_tmpdir(), path[4200];
    snprintf(path, sizeof path, "%s/progress", dir);
    const char old[] = "# padlab: lessons played\n"
                       "format = 2\n"
                       "learner = 00000000000000a1\n"
                       "lesson = 01-rectangle step=0 done=1 opened=2 answers=1r,4w\n"
                       "lesson = 03-attention step=5 done=0 opened=3 answers=0r,1w,2r\n"
                       "lesson = 09-batching step=10 done=0 opened=4 answers=0r,4w,9r,10w,12r\n"
                       "lesson = 08-maxlen step=0 done=1 opened=1 answers=1r\n"
                       "lesson = 06-pooling step=7 done=0 opened=1 answers=\n"
                       "lesson = 05-pooling step=2 done=0 opened=1 answers=\n";
    pl_test_write_file(path, old, sizeof old - 1);
    PlErr err;
    PlBook b;
    ck_assert_int_eq(pl_book_load(&b, &pl_progress_kind, path, &err), PL_OK);
    ck_assert_int_eq(b.n, 6); /* 01-rectangle, 05-pooling; 06-attention, 08-batching, 11-packing, 02-maxlen */
    ck_assert_ptr_null(progress_of(&b, "03-attention"));
    ck_assert_ptr_null(progress_of(&b, "09-batching"));
    ck_assert_ptr_null(progress_of(&b, "06-pooling"));
    const PlLessonProgress *p = progress_of(&b, "06-attention");
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(p->step, 5);
    ck_assert_int_eq(p->opened, 3);
    ck_assert_int_eq(p->answer[0], 1);
    ck_assert_int_eq(p->answer[1], -1);
    ck_assert_int_eq(p->answer[2], 1);
    p = progress_of(&b, "08-batching");
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(p->step, 9); /* old step 10 is 11-packing's: resumed at the next of its own, old 12 */
    ck_assert_int_eq(p->opened, 4);
    ck_assert_int_eq(p->done, 0);
    ck_assert_int_eq(p->answer[0], 1);
    ck_assert_int_eq(p->answer[4], -1);
    ck_assert_int_eq(p->answer[9], 1);
    ck_assert_int_eq(p->answer[10], 0);
    ck_assert_int_eq(p->answer[12], 0);
    p = progress_of(&b, "11-packing");
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(p->answer[3], 1);
    ck_assert_int_eq(p->answer[4], -1);
    ck_assert_int_eq(p->step, 0);
    ck_assert_int_eq(p->opened, 0);
    ck_assert_int_eq(p->done, 0);
    p = progress_of(&b, "02-maxlen");
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(p->done, 1);
    ck_assert_int_eq(p->answer[1], 1);
    ck_assert_int_eq(progress_of(&b, "05-pooling")->step, 2); /* kept under its new name: the newer */
    char *text = slurp(path);
    ck_assert_str_eq(text, old); /* a read changes nothing */
    free(text);
    ck_assert_int_eq(pl_book_save(&b, &err), PL_OK);
    pl_book_done(&b);
    text = slurp(path);
    ck_assert_msg(strstr(text, "lesson = 06-attention step=5 done=0 opened=3 answers=0r,1w,2r\n") &&
                      strstr(text, "lesson = 08-batching step=9 done=0 opened=4 answers=0r,4w,9r\n") &&
                      strstr(text, "lesson = 11-packing step=0 done=0 opened=0 answers=3r,4w\n") &&
                      !strstr(text, "03-attention") && !strstr(text, "09-batching") && !strstr(text, "06-pooling"),
                  "%s", text);
    free(text);
    ck_assert_int_eq(pl_book_load(&b, &pl_progress_kind, path, &err), PL_OK);
    ck_assert_int_eq(b.n, 6);
    ck_assert_int_eq(progress_of(&b, "08-batching")->answer[9], 1);
    pl_book_done(&b);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

/* A lesson question's card keeps its memory under the lesson its step went to. */
START_TEST(test_a_lesson_card_of_an_old_name_reads_under_the_new_one) {
    const char old[] = "format = 2\n"
                       "item = lessons/09-batching:the-boundary-loss-terms state=review step=0 d=5.0931 s=3.1262 "
                       "due_at=1767312000 last_at=1767052800 ivl=3 reviews=3 lapses=1 right=0 wrong=0\n"
                       "item = lessons/09-batching:buckets state=review step=0 d=4 s=2 "
                       "due_at=1767312000 last_at=1767052800 ivl=2 reviews=2 lapses=0 right=0 wrong=0\n"
                       "item = lessons/05-rnn:pads-before-the-words state=review step=0 d=4 s=2 "
                       "due_at=1767312000 last_at=1767052800 ivl=2 reviews=1 lapses=0 right=0 wrong=0\n"
                       "item = cards-attention/key-padding-mask state=review step=0 d=4 s=2 "
                       "due_at=1767312000 last_at=1767052800 ivl=2 reviews=5 lapses=0 right=0 wrong=0\n";
    PlErr err;
    PlBook b;
    ck_assert_int_eq(pl_book_parse(&b, &pl_drill_kind, old, sizeof old - 1, "drill", &err), PL_OK);
    ck_assert_int_eq(b.n, 4);
    const PlDrillRecord *r = pl_book_find(&b, "lessons/11-packing:the-boundary-loss-terms");
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(r->s.reviews, 3);
    ck_assert_int_eq(r->s.lapses, 1);
    r = pl_book_find(&b, "lessons/08-batching:buckets");
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(r->s.reviews, 2);
    r = pl_book_find(&b, "lessons/04-rnn:pads-before-the-words");
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(r->s.reviews, 1);
    ck_assert_ptr_nonnull(pl_book_find(&b, "cards-attention/key-padding-mask")); /* a deck's card is no lesson's */
    ck_assert_ptr_null(pl_book_find(&b, "lessons/09-batching:buckets"));
    pl_book_done(&b);
}
END_TEST

Suite *book_suite(void) {
    Suite *s = suite_create("book");
    TCase *tc = tcase_create("merging");
    tcase_add_test(tc, test_two_lessons_open_at_once_keep_both_answers);
    tcase_add_test(tc, test_two_drills_on_one_book_keep_every_grade);
    tcase_add_test(tc, test_two_processes_saving_at_once_lose_nothing);
    suite_add_tcase(s, tc);
    tc = tcase_create("format");
    tcase_add_test(tc, test_names_with_a_space_a_newline_or_a_percent_keep_their_progress);
    tcase_add_test(tc, test_a_damaged_book_is_set_aside_with_a_message);
    tcase_add_test(tc, test_a_book_of_the_first_format_loads_without_loss);
    tcase_add_test(tc, test_a_late_format_line_is_damage_and_a_bad_record_is_left_out);
    suite_add_tcase(s, tc);
    tc = tcase_create("renamed");
    tcase_add_test(tc, test_a_progress_file_of_the_old_names_reads_under_the_new_ones);
    tcase_add_test(tc, test_a_lesson_card_of_an_old_name_reads_under_the_new_one);
    suite_add_tcase(s, tc);
    return s;
}
