/* The lesson pane: the step's narration, its question and what the learner
 * did with it, laid out from the run's state (app/lesson_run.h). */
#include "lesson_pane.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "screen.h"

#define TEXT_CAP 8192
#define MAX_LINES 400

typedef struct {
    char text[MAX_LINES][256];
    TuiColor color[MAX_LINES];
    int n;
} Lines;

/* ---- opening, progress ---- */

static void save_progress(TuiLesson *t) {
    PlErr err;
    if (!t->book) return;
    PlLessonProgress *p = pl_progress_of(t->book, t->lesson->name);
    if (!p) return;
    pl_lesson_run_record(t->run, p);
    if (pl_progress_save(t->book, &err)) {
        snprintf(t->note, sizeof t->note, "progress not saved: %.250s", err.msg);
        free(t->book);
        t->book = NULL; /* said once; the lesson goes on */
    }
}

int tui_lesson_open(TuiLesson *t, PlLab *lab, const char *name, int present, char *why, int cap) {
    memset(t, 0, sizeof *t);
    char path[1024];
    PlErr err;
    if (pl_lesson_find(name, path, sizeof path)) return snprintf(why, (size_t)cap, "no lesson '%.200s' (padlab lesson --list)", name), -1;
    if (!(t->lesson = pl_lesson_load(path, &err))) return snprintf(why, (size_t)cap, "%.400s", err.msg), -1;
    t->book = calloc(1, sizeof *t->book);
    if (t->book && pl_progress_load(t->book, &err)) {
        snprintf(t->note, sizeof t->note, "%.250s (progress will not be saved)", err.msg);
        free(t->book);
        t->book = NULL;
    }
    int step = 0;
    const PlLessonProgress *p = t->book ? pl_progress_of(t->book, t->lesson->name) : NULL;
    if (p && !p->done && p->step > 0) step = p->step, snprintf(t->note, sizeof t->note, "welcome back: you stopped at step %d", step + 1);
    if (!(t->run = pl_lesson_run_new(lab, t->lesson, step, &err))) {
        snprintf(why, (size_t)cap, "%.400s", err.msg);
        tui_lesson_close(t);
        return -1;
    }
    t->present = present;
    if (!(t->layout = malloc(sizeof(Lines)))) {
        snprintf(why, (size_t)cap, "out of memory for the lesson");
        tui_lesson_close(t);
        return -1;
    }
    return 0;
}

void tui_lesson_close(TuiLesson *t) {
    if (t->run) save_progress(t);
    pl_lesson_run_free(t->run);
    pl_lesson_free(t->lesson);
    free(t->book);
    free(t->layout);
    memset(t, 0, sizeof *t);
}

/* ---- laying text out ---- */

/* Wraps text at w columns into lines (a newline ends a paragraph; indent
 * starts each wrapped line after the first). */
static void wrap(Lines *L, const char *text, int w, TuiColor color, int indent) {
    if (w < 10) w = 10;
    for (const char *s = text; *s && L->n < MAX_LINES;) {
        const char *nl = strchr(s, '\n');
        size_t para = nl ? (size_t)(nl - s) : strlen(s);
        int first = 1;
        while (para && L->n < MAX_LINES) {
            int room = w - (first ? 0 : indent), cut = (int)para, cols = 0, last_space = -1, i = 0;
            for (; i < (int)para; i++) { /* count columns, not bytes, for UTF-8 text */
                if ((s[i] & 0xc0) != 0x80) cols++;
                if (s[i] == ' ') last_space = i;
                if (cols > room) break;
            }
            if (i < (int)para) cut = last_space > 0 ? last_space : i;
            snprintf(L->text[L->n], sizeof L->text[0], "%*s%.*s", first ? 0 : indent, "", cut, s);
            L->color[L->n++] = color;
            s += cut, para -= (size_t)cut;
            while (para && *s == ' ') s++, para--;
            first = 0;
        }
        if (!nl) break;
        s = nl + 1;
        if (L->n < MAX_LINES && *s && s[0] != '-') L->text[L->n][0] = '\0', L->color[L->n++] = TUI_NORMAL;
    }
}

static void blank_line(Lines *L) {
    if (L->n > 0 && L->n < MAX_LINES) L->text[L->n][0] = '\0', L->color[L->n++] = TUI_NORMAL;
}

static void filled(Lines *L, PlLab *lab, const char *text, int w, TuiColor c, int indent) {
    char buf[TEXT_CAP];
    if (text && *text) wrap(L, pl_lesson_fill(lab, text, buf, sizeof buf), w, c, indent);
}

static void question_lines(Lines *L, const TuiLesson *t, PlLab *lab, int w) {
    const PlLessonState *st = pl_lesson_run_state(t->run);
    const PlQuestion *q = &pl_lesson_run_step(t->run)->q;
    char line[600];
    if (q->kind == PL_Q_NONE) return;
    blank_line(L);
    filled(L, lab, q->prompt, w, TUI_GOOD, 0);
    if (q->kind == PL_Q_CHOOSE)
        for (int i = 0; i < q->nchoices; i++) {
            snprintf(line, sizeof line, "%c) %s", 'a' + i, q->choices[i].text);
            filled(L, lab, line, w, i == st->chosen ? TUI_SELECTED : TUI_NORMAL, 3);
        }
    if (q->kind == PL_Q_ASK && st->answer != PL_ANS_RIGHT && !st->solution) {
        snprintf(line, sizeof line, "> %s_   (type a number, Enter)", t->input);
        wrap(L, line, w, TUI_KEY, 2);
    }
    if (q->kind == PL_Q_EXERCISE && st->answer != PL_ANS_RIGHT) wrap(L, "(work the lab, then Enter checks it)", w, TUI_DIM, 0);
    for (int i = 0; i < st->hints; i++) {
        snprintf(line, sizeof line, "hint %d: %s", i + 1, q->hints[i]);
        filled(L, lab, line, w, TUI_DIM, 2);
    }
    if (st->chosen >= 0) filled(L, lab, q->choices[st->chosen].explain, w, st->answer == PL_ANS_RIGHT ? TUI_GOOD : TUI_WARN, 0);
    if (st->answer == PL_ANS_WRONG && q->kind != PL_Q_CHOOSE && !st->solution) {
        if (q->kind == PL_Q_ASK) snprintf(line, sizeof line, "%s is not it.", st->typed);
        else snprintf(line, sizeof line, "%s", st->message[0] ? st->message : "Not yet.");
        wrap(L, line, w, TUI_WARN, 0);
        wrap(L, "Try again, h for a hint, s for the solution.", w, TUI_DIM, 0);
    }
    if (st->answer == PL_ANS_RIGHT && q->kind != PL_Q_CHOOSE) wrap(L, "Right.", w, TUI_GOOD, 0);
    if (st->solution) filled(L, lab, q->solution, w, TUI_CHANGED, 0);
    if (st->answer == PL_ANS_RIGHT || st->solution) filled(L, lab, q->reveal, w, TUI_GOOD, 0);
}

static void lay_out(Lines *L, TuiLesson *t, PlLab *lab, int w) {
    const PlStep *s = pl_lesson_run_step(t->run);
    const PlLessonState *st = pl_lesson_run_state(t->run);
    L->n = 0;
    filled(L, lab, s->text, w, TUI_NORMAL, 0);
    if (st->waiting) {
        blank_line(L);
        wrap(L, "training in the lab: the step goes on when it ends (train view, 7)", w, TUI_DIM, 0);
    }
    question_lines(L, t, lab, w);
    if (s->summary) {
        blank_line(L);
        filled(L, lab, s->summary, w, TUI_GOOD, 2);
    }
    if (t->note[0]) blank_line(L), wrap(L, t->note, w, TUI_DIM, 0);
}

void tui_lesson_draw(TuiLesson *t, PlLab *lab, TuiBox b) {
    Lines *L = t->layout;
    if (!L) return;
    const PlLessonState *st = pl_lesson_run_state(t->run);
    const PlLesson *l = t->lesson;
    char head[600];
    snprintf(head, sizeof head, " %s  |  step %d of %d: %s%s", l->title, st->step + 1, l->nsteps, pl_lesson_run_step(t->run)->title,
             t->explore ? "   (exploring the lab: Esc returns)" : "");
    int two = tui_width(head) > b.w; /* too long for one line: the lesson's title, then the step's */
    tui_color(TUI_TITLE);
    mvhline(b.y, b.x, ' ', b.w);
    if (!two) tui_put(b.y, b.x, b.w, "%s", head);
    else {
        tui_put(b.y, b.x, b.w, " %s%s", l->title, t->explore ? "  (exploring: Esc returns)" : "");
        tui_color_off(TUI_TITLE);
        tui_color(TUI_CHANGED);
        tui_put(b.y + 1, b.x, b.w, " step %d of %d: %s", st->step + 1, l->nsteps, pl_lesson_run_step(t->run)->title);
        tui_color_off(TUI_CHANGED);
        tui_color(TUI_TITLE);
        b.y++, b.h--;
    }
    tui_color_off(TUI_TITLE);
    lay_out(L, t, lab, b.w - 2);
    int rows = b.h - 1;
    if (t->scroll > L->n - rows) t->scroll = L->n - rows > 0 ? L->n - rows : 0;
    for (int i = 0; i < rows && t->scroll + i < L->n; i++) {
        tui_color(L->color[t->scroll + i]);
        tui_put(b.y + 1 + i, b.x + 1, b.w - 2, "%s", L->text[t->scroll + i]);
        tui_color_off(L->color[t->scroll + i]);
    }
    if (L->n - t->scroll > rows) tui_put(b.y + b.h - 1, b.x + b.w - 16, 15, " (more: down) ");
}

void tui_lesson_keybar(const TuiLesson *t, int y, int cols) {
    move(y, 0);
    clrtoeol();
    tui_color(TUI_KEY);
    if (t->explore) tui_put(y, 0, cols, " exploring the lab: every key works it; Esc back to the lesson, ? help, q quit ");
    else tui_put(y, 0, cols, " space next  PgUp back  h hint  s solution  Esc the lab  F5 classroom  q quit ");
    tui_color_off(TUI_KEY);
}

/* ---- keys ---- */

static void moved(TuiLesson *t, PlLab *lab, int k) {
    PlErr err;
    t->input[0] = '\0', t->scroll = 0, t->note[0] = '\0';
    if (pl_lesson_run_goto(t->run, k, &err)) snprintf(t->note, sizeof t->note, "%.250s", err.msg);
    (void)lab;
    save_progress(t);
}

static void submit(TuiLesson *t, const char *typed) {
    int got = pl_lesson_run_answer(t->run, typed);
    t->scroll = MAX_LINES; /* the draw clamps it: the answer's feedback, at the end, comes into view */
    if (got == PL_ANS_WRONG) t->input[0] = '\0'; /* the next try starts afresh; the state keeps what was typed */
    if (got < 0) snprintf(t->note, sizeof t->note, "%.290s", pl_lesson_run_state(t->run)->message);
    else t->note[0] = '\0';
    save_progress(t);
}

/* Keys a question takes while it is open; 1 when taken. */
static int question_key(TuiLesson *t, int ch) {
    const PlQuestion *q = &pl_lesson_run_step(t->run)->q;
    const PlLessonState *st = pl_lesson_run_state(t->run);
    size_t n = strlen(t->input);
    if (st->answer == PL_ANS_RIGHT || st->solution) return 0;
    if (q->kind == PL_Q_ASK) {
        if (((ch >= '0' && ch <= '9') || ch == '.' || ch == '-' || ch == '%' || ch == 'e') && n + 1 < sizeof t->input)
            return t->input[n] = (char)ch, t->input[n + 1] = '\0', 1;
        if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && n) return t->input[n - 1] = '\0', 1;
        if ((ch == '\n' || ch == KEY_ENTER) && n) return submit(t, t->input), 1;
        return 0;
    }
    if (q->kind == PL_Q_CHOOSE && ch >= 'a' && ch < 'a' + q->nchoices) {
        char one[2] = {(char)ch, '\0'};
        return submit(t, one), 1;
    }
    if (q->kind == PL_Q_EXERCISE && (ch == '\n' || ch == KEY_ENTER)) return submit(t, ""), 1;
    return 0;
}

int tui_lesson_key(TuiLesson *t, PlLab *lab, int ch) {
    const PlLessonState *st = pl_lesson_run_state(t->run);
    if (ch == 27) { /* Esc: into the lab and back */
        t->explore = !t->explore;
        return 1;
    }
    if (t->explore) return ch == 'q' || ch == 'Q' ? 2 : 0;
    if (t->present && ch == 'b') return t->blank = !t->blank, 1;
    if (t->blank) return t->blank = 0, 1;
    if (ch == 'q' || ch == 'Q') return 2;
    if (question_key(t, ch)) return 1;
    if (ch == ' ' || ch == KEY_NPAGE || ch == KEY_RIGHT || ch == '\n' || ch == KEY_ENTER) {
        if (st->step + 1 < t->lesson->nsteps) moved(t, lab, st->step + 1);
        else snprintf(t->note, sizeof t->note, "the end of the lesson: q quits, PgUp goes back");
        return 1;
    }
    if (ch == KEY_PPAGE || ch == KEY_LEFT) {
        if (st->step > 0) moved(t, lab, st->step - 1);
        return 1;
    }
    if (ch == KEY_UP) return t->scroll > 0 ? t->scroll-- : 0, 1;
    if (ch == KEY_DOWN) return t->scroll++, 1;
    if (ch == 'h' && pl_lesson_run_step(t->run)->q.nhints) {
        if (!pl_lesson_run_hint(t->run)) snprintf(t->note, sizeof t->note, "no more hints: s shows the solution after a try");
        t->scroll = MAX_LINES;
        return 1;
    }
    if (ch == 's' && pl_lesson_run_step(t->run)->q.kind != PL_Q_NONE) {
        if (!pl_lesson_run_solution(t->run)) snprintf(t->note, sizeof t->note, "try an answer first: the solution comes after a try");
        else save_progress(t);
        t->scroll = MAX_LINES;
        return 1;
    }
    return 0;
}

int tui_lesson_tick(TuiLesson *t, PlLab *lab) {
    pl_lab_demand(lab, pl_lesson_run_kinds(t->run));
    return pl_lesson_run_tick(t->run);
}
