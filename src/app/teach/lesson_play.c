/* A lesson as a front end plays it (see lesson_play.h): what the terminal's
 * lesson pane and the window's share, so that they cannot tell a learner
 * different things. */
#include "lesson_play.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FILL_CAP 8192

/* ---- opening, progress ---- */

static void drop_book(PlLessonPlay *p) {
    if (p->book) pl_progress_done(p->book);
    free(p->book);
    p->book = NULL;
}

static void save_progress(PlLessonPlay *p) {
    PlErr err;
    if (!p->book) return;
    PlLessonProgress *e = pl_progress_of(p->book, p->lesson->name);
    if (!e) return;
    pl_lesson_run_record(p->run, e);
    if (pl_progress_save(p->book, &err)) {
        snprintf(p->unsaved, sizeof p->unsaved, "progress not saved: %.250s", err.msg);
        snprintf(p->note, sizeof p->note, "%s", p->unsaved);
        drop_book(p); /* said once; the lesson goes on */
    } else if (p->book->notice[0]) {
        snprintf(p->note, sizeof p->note, "%.290s", p->book->notice);
        p->book->notice[0] = '\0';
    }
}

/* The learner's progress book and the step it reached (0 when none); this
 * opening counts as one more attempt at the lesson (*attempt). */
static int open_book(PlLessonPlay *p, int *attempt) {
    PlErr err;
    p->book = calloc(1, sizeof *p->book);
    if (p->book && pl_progress_load(p->book, &err)) {
        snprintf(p->note, sizeof p->note, "%.250s (progress will not be saved)", err.msg);
        drop_book(p);
    } else if (p->book && p->book->notice[0]) {
        snprintf(p->note, sizeof p->note, "%.290s", p->book->notice);
        p->book->notice[0] = '\0';
    }
    PlLessonProgress *e = p->book ? pl_progress_of(p->book, p->lesson->name) : NULL;
    *attempt = e ? ++e->opened : 0;
    if (!e || e->done || e->step <= 0) return 0;
    snprintf(p->note, sizeof p->note, "resumed at step %d of %d, where you stopped; PgUp goes back", e->step + 1,
             p->lesson->nsteps);
    return e->step;
}

/* Finds and reads the lesson named: 0, or -1 with why. */
static int load_lesson(PlLessonPlay *p, const char *name, char *why, int cap) {
    char path[1024];
    PlErr err;
    int found = pl_lesson_find(name, path, sizeof path);
    if (found == -2) return snprintf(why, (size_t)cap, "out of memory while looking for the lesson '%.200s'", name), -1;
    if (found) return snprintf(why, (size_t)cap, "no lesson '%.200s' (padlab lesson --list)", name), -1;
    if (!(p->lesson = pl_lesson_load(path, &err))) return snprintf(why, (size_t)cap, "%.400s", err.msg), -1;
    return 0;
}

/* The run at step on p->lab: 0, or -1 with why. */
static int start_run(PlLessonPlay *p, int step, char *why, int cap) {
    PlErr err;
    if (step >= p->lesson->nsteps)
        return snprintf(why, (size_t)cap, "%.100s has steps 1 to %d, not %d", p->lesson->name, p->lesson->nsteps,
                        step + 1),
               -1;
    if (!(p->run = pl_lesson_run_new(p->lab, p->lesson, step, &err)))
        return snprintf(why, (size_t)cap, "%.400s", err.msg), -1;
    return 0;
}

/* A resumed lesson: the questions its learner answered right before count
 * as answered, so their figures show on the other steps. */
static void seen_before(PlLessonPlay *p) {
    PlLessonProgress *e = p->book ? pl_progress_of(p->book, p->lesson->name) : NULL;
    for (int i = 0; e && i < p->lesson->nsteps && i < PL_PROGRESS_ANSWERS; i++)
        if (e->answer[i] == 1) pl_lesson_run_seen(p->run, i);
}

int pl_lesson_play_open(PlLessonPlay *p, PlLab *lab, const char *name, int step, int present, char *why, int cap) {
    memset(p, 0, sizeof *p);
    p->lab = lab, p->present = present;
    if (load_lesson(p, name, why, cap)) return pl_lesson_play_close(p), -1;
    int attempt = 0;
    if (step >= 0 && step >= p->lesson->nsteps) return start_run(p, step, why, cap), pl_lesson_play_close(p), -1;
    if (step < 0) step = open_book(p, &attempt);
    if (start_run(p, step, why, cap)) return pl_lesson_play_close(p), -1;
    if (p->book) pl_lesson_run_learner(p->run, p->book->salt, attempt);
    p->grades = p->book != NULL;
    seen_before(p);
    if (pl_lesson_next(p->lesson->name, p->next, sizeof p->next)) p->next[0] = '\0';
    return 0;
}

/* ---- a review ---- */

/* Opens the due question k, or the first after it that still opens; 0, or
 * -1 when none is left. A question whose lesson no longer opens is said in
 * the note and passed over. */
static int review_open(PlLessonPlay *p, int k, uint64_t salt, char *why, int cap) {
    for (; k < p->ndue; k++) {
        pl_lesson_run_free(p->run), pl_lesson_free(p->lesson);
        p->run = NULL, p->lesson = NULL;
        memset(p->graded, 0, sizeof p->graded);
        p->input[0] = '\0', p->scroll = 0, p->pending = 0;
        if (!load_lesson(p, p->due[k].lesson, why, cap) && !start_run(p, p->due[k].step, why, cap)) {
            pl_lesson_run_learner(p->run, salt, p->due[k].reviews);
            return p->at = k, 0;
        }
        snprintf(p->note, sizeof p->note, "passed over: %.250s", why);
    }
    return -1;
}

/* The salt and the due questions of the learner's drill book: 0, 1 when
 * none is due (why says when the next is), or -1 with why. */
static int review_load(PlLessonPlay *p, uint64_t *salt, char *why, int cap) {
    PlDrillBook b;
    PlErr err;
    int today = pl_sched_today(), rc = 0;
    PlDeck *d = NULL;
    if (pl_drill_book_load(&b, &err) || !(d = pl_lesson_deck(&b, today, &p->due, &p->ndue, &err)))
        rc = -1, snprintf(why, (size_t)cap, "%.400s", err.msg);
    else if (!p->ndue && !d->n)
        rc = 1,
        snprintf(why, (size_t)cap, "no lesson question in review yet: each one you answer in a lesson comes back here");
    else if (!p->ndue)
        rc = 1,
        snprintf(why, (size_t)cap, "%d lesson question%s in review, none due today", d->n, d->n == 1 ? "" : "s");
    *salt = b.salt;
    pl_deck_free(d);
    pl_drill_book_done(&b);
    return rc;
}

int pl_lesson_play_review(PlLessonPlay *p, PlLab *lab, int present, char *why, int cap) {
    memset(p, 0, sizeof *p);
    p->lab = lab, p->present = present, p->grades = 1;
    int rc = review_load(p, &p->salt, why, cap);
    if (!rc && review_open(p, 0, p->salt, why, cap)) rc = -1;
    if (rc) pl_lesson_play_close(p);
    return rc;
}

/* Goes on past the question on screen: the next due one; 1 when there was one. */
static int review_next(PlLessonPlay *p) {
    char why[300];
    return p->at + 1 < p->ndue && !review_open(p, p->at + 1, p->salt, why, sizeof why);
}

void pl_lesson_play_save(PlLessonPlay *p) {
    if (p->run) save_progress(p);
}

void pl_lesson_play_close(PlLessonPlay *p) {
    if (p->run) save_progress(p);
    pl_lesson_run_free(p->run);
    pl_lesson_free(p->lesson);
    drop_book(p);
    free(p->due);
    memset(p, 0, sizeof *p);
}

void pl_lesson_play_head(const PlLessonPlay *p, char *title, int tcap, char *step, int scap) {
    const PlLessonState *st = pl_lesson_run_state(p->run);
    if (p->due) snprintf(title, (size_t)tcap, "review %d of %d: %s", p->at + 1, p->ndue, p->lesson->title);
    else snprintf(title, (size_t)tcap, "%s", p->lesson->title);
    snprintf(step, (size_t)scap, "step %d of %d: %s", st->step + 1, p->lesson->nsteps,
             pl_lesson_run_step(p->run)->title);
}

/* ---- keys ---- */

static void moved(PlLessonPlay *p, int k) {
    PlErr err;
    p->input[0] = '\0', p->scroll = 0, p->note[0] = '\0', p->pending = 0;
    if (pl_lesson_run_goto(p->run, k, &err)) snprintf(p->note, sizeof p->note, "%.250s", err.msg);
    save_progress(p);
}

/* The step's first answer in this opening, graded in the drill book. */
static void grade(PlLessonPlay *p, int right) {
    int k = pl_lesson_run_state(p->run)->step;
    PlErr err;
    if (!p->grades || k >= PL_PROGRESS_ANSWERS || p->graded[k]) return;
    p->graded[k] = 1;
    if (pl_lesson_grade(p->lesson, k, right, pl_sched_now(), &err))
        snprintf(p->unsaved, sizeof p->unsaved, "answer not kept for review: %.250s", err.msg);
}

static void submit(PlLessonPlay *p, const char *typed) {
    int got = pl_lesson_run_answer(p->run, typed);
    if (got == PL_ANS_RIGHT || got == PL_ANS_WRONG) grade(p, got == PL_ANS_RIGHT);
    p->scroll = PL_LESSON_SCROLL_END;            /* the answer's feedback, at the end, comes into view */
    if (got == PL_ANS_WRONG) p->input[0] = '\0'; /* the next try starts afresh; the state keeps what was typed */
    p->pending = got < 0 && pl_lesson_run_state(p->run)->not_ready;
    if (p->pending)
        snprintf(p->note, sizeof p->note, "%.220s: your answer is checked when it is",
                 pl_lesson_run_state(p->run)->message);
    else if (got < 0) snprintf(p->note, sizeof p->note, "%.290s", pl_lesson_run_state(p->run)->message);
    else p->note[0] = '\0';
    save_progress(p);
}

static int answer_char(int ch) { return (ch >= '0' && ch <= '9') || ch == '.' || ch == '-' || ch == '%' || ch == 'e'; }

/* Keys a question takes while it is open; 1 when taken. */
static int question_key(PlLessonPlay *p, PlLessonKey k, int ch) {
    const PlQuestion *q = &pl_lesson_run_step(p->run)->q;
    const PlLessonState *st = pl_lesson_run_state(p->run);
    size_t n = strlen(p->input);
    if (st->answer == PL_ANS_RIGHT || st->solution) return 0;
    if (q->kind == PL_Q_ASK) {
        if (k == PL_LK_CHAR && answer_char(ch) && n + 1 < sizeof p->input)
            return p->input[n] = (char)ch, p->input[n + 1] = '\0', 1;
        if (k == PL_LK_ERASE && n) return p->input[n - 1] = '\0', 1;
        if (k == PL_LK_ENTER && n) return submit(p, p->input), 1;
        return 0;
    }
    if (q->kind == PL_Q_CHOOSE && k == PL_LK_CHAR && ch >= 'a' && ch < 'a' + q->nchoices) {
        char one[2] = {(char)ch, '\0'};
        return submit(p, one), 1;
    }
    if (q->kind == PL_Q_EXERCISE && k == PL_LK_ENTER) return submit(p, ""), 1;
    return 0;
}

static void next_step(PlLessonPlay *p) {
    int step = pl_lesson_run_state(p->run)->step;
    if (p->due && step >= p->due[p->at].step) {
        if (!review_next(p))
            snprintf(p->note, sizeof p->note, "that was the last question due today (%d reviewed): q quits", p->ndue);
    } else if (step + 1 < p->lesson->nsteps) moved(p, step + 1);
    else snprintf(p->note, sizeof p->note, "the end of the lesson: q quits, PgUp goes back");
}

static void hint(PlLessonPlay *p) {
    if (!pl_lesson_run_hint(p->run))
        snprintf(p->note, sizeof p->note, "no more hints: s shows the solution after a try");
    p->scroll = PL_LESSON_SCROLL_END;
}

static void solution(PlLessonPlay *p) {
    if (pl_lesson_run_solution(p->run)) save_progress(p);
    else if (!pl_lesson_run_state(p->run)->attempts)
        snprintf(p->note, sizeof p->note, "try an answer first: the solution comes after a try");
    else snprintf(p->note, sizeof p->note, "this question has no written solution: h gives a hint");
    p->scroll = PL_LESSON_SCROLL_END;
}

/* The keys of a step once its question has had what it takes. */
static int step_key(PlLessonPlay *p, PlLessonKey k, int ch) {
    const PlQuestion *q = &pl_lesson_run_step(p->run)->q;
    int step = pl_lesson_run_state(p->run)->step;
    if (k == PL_LK_NEXT || k == PL_LK_ENTER || (k == PL_LK_CHAR && ch == ' ')) return next_step(p), PL_LESSON_TAKEN;
    if (k == PL_LK_BACK) return step > 0 ? moved(p, step - 1) : (void)0, PL_LESSON_TAKEN;
    if (k == PL_LK_UP) return p->scroll > 0 ? p->scroll-- : 0, PL_LESSON_TAKEN;
    if (k == PL_LK_DOWN) return p->scroll++, PL_LESSON_TAKEN;
    if (k == PL_LK_CHAR && ch == 'h' && q->nhints) return hint(p), PL_LESSON_TAKEN;
    if (k == PL_LK_CHAR && ch == 's' && q->kind != PL_Q_NONE) return solution(p), PL_LESSON_TAKEN;
    /* a choice's letter pressed again once the question is answered: nothing, not the lab's key of that letter
     * (c would change the convention unseen) */
    if (k == PL_LK_CHAR && q->kind == PL_Q_CHOOSE && ch >= 'a' && ch < 'a' + q->nchoices) return PL_LESSON_TAKEN;
    return PL_LESSON_LAB;
}

int pl_lesson_play_key(PlLessonPlay *p, PlLessonKey k, int ch) {
    if (k == PL_LK_EXPLORE) return p->explore = !p->explore, PL_LESSON_TAKEN;
    int quit = k == PL_LK_CHAR && (ch == 'q' || ch == 'Q');
    if (p->explore) return quit ? PL_LESSON_QUIT : PL_LESSON_LAB;
    if (p->present && k == PL_LK_CHAR && ch == 'b') return p->blank = !p->blank, PL_LESSON_TAKEN;
    if (p->blank) return p->blank = 0, PL_LESSON_TAKEN;
    if (quit) return PL_LESSON_QUIT;
    if (question_key(p, k, ch)) return PL_LESSON_TAKEN;
    return step_key(p, k, ch);
}

int pl_lesson_play_tick(PlLessonPlay *p, PlLab *lab) {
    pl_lab_demand(lab, pl_lesson_run_kinds(p->run));
    int changed = pl_lesson_run_tick(p->run);
    if (p->pending && p->input[0]) { /* asked again only until the number is there: then as if typed now */
        char typed[sizeof p->input];
        snprintf(typed, sizeof typed, "%s", p->input);
        if (!pl_lesson_run_ready(p->run)) return changed;
        submit(p, typed);
        changed = 1;
    }
    return changed;
}

/* ---- the page ---- */

static void put(PlPage *g, PlRole role, int indent, const char *text) {
    pl_page_add(g, role, PL_PART_NONE, indent, text);
}

static void gap(PlPage *g) { pl_page_gap(g); }

static void filled_part(PlPage *g, PlLab *lab, const char *text, PlRole role, PlPart part, int indent) {
    char buf[FILL_CAP];
    if (text && *text) pl_page_add(g, role, part, indent, pl_lesson_fill(lab, pl_lab_ledger(lab), text, buf, sizeof buf));
}

static void filled(PlPage *g, PlLab *lab, const char *text, PlRole role, int indent) {
    filled_part(g, lab, text, role, PL_PART_NONE, indent);
}

static void feedback(PlPage *g, const PlLessonState *st, const PlQuestion *q) {
    char line[600];
    if (st->answer == PL_ANS_WRONG && q->kind != PL_Q_CHOOSE && !st->solution) {
        if (q->kind == PL_Q_ASK && !st->message[0]) snprintf(line, sizeof line, "%s is not it.", st->typed);
        else snprintf(line, sizeof line, "%s", st->message[0] ? st->message : "Not yet."); /* the diagnosis */
        put(g, PL_ROLE_WRONG, 0, line);
        put(g, PL_ROLE_ASIDE, 0, "Try again, h for a hint, s for the solution.");
    }
    if (st->answer == PL_ANS_RIGHT && q->kind != PL_Q_CHOOSE) put(g, PL_ROLE_RIGHT, 0, "Right.");
}

/* After a right choice, the other right ones by their letters: a question
 * with two right answers says so. */
static void others_right(PlPage *g, const PlLessonState *st, const PlQuestion *q) {
    char line[160];
    int n = snprintf(line, sizeof line, "This question has more than one right answer: ");
    int others = 0;
    for (int k = 0; k < q->nchoices && n < (int)sizeof line - 8; k++)
        if (q->choices[st->order[k]].right && st->order[k] != st->chosen)
            n += snprintf(line + n, sizeof line - (size_t)n, "%s%c)", others++ ? " and " : "", 'a' + k);
    if (others) snprintf(line + n, sizeof line - (size_t)n, " %s right too.", others > 1 ? "are" : "is"), put(g, PL_ROLE_RIGHT, 0, line);
}

/* A choose:'s solution: each right choice by its letter, and why. */
static void right_choices(PlPage *g, PlLab *lab, const PlLessonState *st, const PlQuestion *q) {
    char line[600];
    for (int k = 0; k < q->nchoices; k++) {
        const PlChoice *c = &q->choices[st->order[k]];
        if (!c->right) continue;
        snprintf(line, sizeof line, "The answer is %c) %s", 'a' + k, c->text);
        filled(g, lab, line, PL_ROLE_SOLUTION, 0);
        filled(g, lab, c->explain, PL_ROLE_RIGHT, 0);
    }
}

/* The question's own words, through its ledger: they may hand over the
 * figures to work the answer out from (pl_lesson_run_question_ledger). */
static void asked_part(PlPage *g, const PlLessonPlay *p, PlLab *lab, const char *text, PlRole role, PlPart part,
                       int indent) {
    char buf[FILL_CAP];
    PlLedger l;
    pl_lesson_run_question_ledger(p->run, &l);
    if (text && *text) pl_page_add(g, role, part, indent, pl_lesson_fill(lab, &l, text, buf, sizeof buf));
}

static void question(PlPage *g, const PlLessonPlay *p, PlLab *lab) {
    const PlLessonState *st = pl_lesson_run_state(p->run);
    const PlQuestion *q = &pl_lesson_run_step(p->run)->q;
    char line[600];
    if (q->kind == PL_Q_NONE) return;
    gap(g);
    asked_part(g, p, lab, q->prompt, PL_ROLE_PROMPT, PL_PART_QUESTION, 0);
    if (q->kind == PL_Q_CHOOSE)
        for (int k = 0; k < q->nchoices; k++) { /* in this learner's order, lettered by place */
            int i = st->order[k];
            snprintf(line, sizeof line, "%c) %s", 'a' + k, q->choices[i].text);
            asked_part(g, p, lab, line, i == st->chosen ? PL_ROLE_CHOSEN : PL_ROLE_CHOICE, PL_PART_QUESTION, 3);
        }
    if (q->kind == PL_Q_ASK && st->answer != PL_ANS_RIGHT && !st->solution) {
        snprintf(line, sizeof line, "> %s_   (type a number, Enter)", p->input);
        pl_page_add(g, PL_ROLE_INPUT, PL_PART_QUESTION, 2, line);
    }
    if (q->kind == PL_Q_EXERCISE && st->answer != PL_ANS_RIGHT)
        pl_page_add(g, PL_ROLE_ASIDE, PL_PART_QUESTION, 0, "(work the lab, then Enter checks it)");
    for (int i = 0; i < st->hints; i++) {
        snprintf(line, sizeof line, "hint %d: %s", i + 1, q->hints[i]);
        asked_part(g, p, lab, line, PL_ROLE_HINT, PL_PART_NONE, 2);
    }
    if (st->chosen >= 0)
        filled(g, lab, q->choices[st->chosen].explain, st->answer == PL_ANS_RIGHT ? PL_ROLE_RIGHT : PL_ROLE_WRONG, 0);
    if (st->chosen >= 0 && q->choices[st->chosen].right) others_right(g, st, q);
    feedback(g, st, q);
    if (st->solution && q->kind == PL_Q_CHOOSE) right_choices(g, lab, st, q);
    if (st->solution && q->kind == PL_Q_ASK && !q->solution) { /* the number itself, as the lab has it now */
        char name[96];
        snprintf(line, sizeof line, "The answer is {%s}.", pl_quantity_name(&q->answer, name, sizeof name));
        filled(g, lab, line, PL_ROLE_SOLUTION, 0);
    }
    if (st->solution) filled(g, lab, q->solution, PL_ROLE_SOLUTION, 0);
    if (st->answer == PL_ANS_RIGHT || st->solution) filled(g, lab, q->reveal, PL_ROLE_RIGHT, 0);
}

/* The reveal: the last RIGHT paragraph once the question is answered or solved. */
static void mark_reveal(PlPage *g, const PlLessonState *st) {
    if (st->answer != PL_ANS_RIGHT && !st->solution) return;
    for (int i = g->n - 1; i >= 0; i--)
        if (g->para[i].role == PL_ROLE_RIGHT) {
            g->para[i].part = PL_PART_REVEAL;
            return;
        }
}

void pl_lesson_page(const PlLessonPlay *p, PlLab *lab, PlPage *g) {
    const PlStep *s = pl_lesson_run_step(p->run);
    pl_page_clear(g);
    filled(g, lab, s->text, PL_ROLE_TEXT, 0);
    if (pl_lesson_run_state(p->run)->waiting) {
        gap(g);
        put(g, PL_ROLE_ASIDE, 0, "training in the lab: the step goes on when it ends (train view, 7)");
    }
    question(g, p, lab);
    if (s->summary) {
        gap(g);
        filled(g, lab, s->summary, PL_ROLE_SUMMARY, 2);
    }
    if (!p->due && pl_lesson_run_state(p->run)->step == p->lesson->nsteps - 1) { /* the end, and where to go on */
        char end[300];
        if (p->next[0]) snprintf(end, sizeof end, "The lesson is complete. Next: %s (padlab lesson %s).", p->next, p->next);
        else snprintf(end, sizeof end, "The lesson is complete: it is the last of the lessons.");
        gap(g), put(g, PL_ROLE_NOTE, 0, end);
    }
    const char *note = p->note[0] ? p->note : p->unsaved; /* a failed save is said until the end */
    if (note[0]) gap(g), put(g, PL_ROLE_NOTE, 0, note);
    mark_reveal(g, pl_lesson_run_state(p->run));
}
