/* The lesson pane: the page the app layer makes of the run's state
 * (app/lesson_play.h), wrapped to the pane's columns and coloured by role. */
#include "lesson_pane.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "screen.h"

int tui_lesson_open(TuiLesson *t, PlLab *lab, const char *name, int present, char *why, int cap) {
    memset(t, 0, sizeof *t);
    int rc = name ? pl_lesson_play_open(&t->play, lab, name, -1, present, why, cap)
                  : pl_lesson_play_review(&t->play, lab, present, why, cap);
    if (rc) return rc;
    if (!(t->layout = malloc(sizeof(TuiLines)))) {
        snprintf(why, (size_t)cap, "out of memory for the lesson");
        tui_lesson_close(t);
        return -1;
    }
    return 0;
}

void tui_lesson_close(TuiLesson *t) {
    pl_lesson_play_close(&t->play);
    free(t->layout);
    memset(t, 0, sizeof *t);
}

/* ---- laying text out ---- */

/* The page at w columns; returns the lines down to the end of the question
 * (its choices, its input line), 0 when the step asks nothing. */
static int lay_out(TuiLines *L, const TuiLesson *t, PlLab *lab, int w) {
    static PlPage page; /* the terminal has one pane; too big for the stack */
    pl_lesson_page(&t->play, lab, &page);
    return tui_lines_page(L, &page, w, PL_PART_QUESTION);
}

/* The head: the lesson's title and the step's, on one line when they fit. */
static void head_text(const PlLessonPlay *p, char *title, char *step, char *head, size_t cap) {
    pl_lesson_play_head(p, title, 300, step, 300);
    snprintf(head, cap, " %s  |  %s%s", title, step, p->explore ? "   (exploring the lab: Esc returns)" : "");
}

/* Whether the step's question still waits for its answer. */
static int question_open(const PlLessonPlay *p) {
    const PlQuestion *q = &pl_lesson_run_step(p->run)->q;
    const PlLessonState *st = pl_lesson_run_state(p->run);
    return (q->kind == PL_Q_ASK || q->kind == PL_Q_CHOOSE) && st->answer != PL_ANS_RIGHT && !st->solution;
}

/* The first line from i on that holds text, or L->n. */
static int next_text(const TuiLines *L, int i) {
    while (i < L->n && L->text[i][0] == '\0') i++;
    return i;
}

int tui_lesson_rows(TuiLesson *t, PlLab *lab, int w) {
    TuiLines *L = t->layout;
    char title[300], step[300], head[700];
    if (!L) return 0;
    head_text(&t->play, title, step, head, sizeof head);
    int question_end = lay_out(L, t, lab, w - 2);
    if (!question_end) return 0;
    /* an open question wants its feedback (a wrong choice's why, a hint) beside it too */
    int lines = question_open(&t->play) ? L->n : question_end;
    int marker = L->n > lines; /* "(more: down)" takes a row of its own */
    return (tui_width(head) > w ? 2 : 1) + lines + marker;
}

/* Line i of L at row `row` of the box. */
static void put_line(const TuiLines *L, TuiBox b, int row, int i) {
    tui_color(L->color[i]);
    tui_put(b.y + row, b.x + 1, b.w - 2, "%s", L->text[i]);
    tui_color_off(L->color[i]);
}

/* A page taller than the pane: the question, and what follows it (hints,
 * feedback, the reveal) when that fits too, pinned at the pane's foot; the
 * narration above it scrolls, so at 80x24 the question and its choices
 * stay in sight. qend is the line after the question. 0 (the page scrolls
 * whole, as it does to show an answer's feedback) when what follows the
 * question does not fit beside it, or the question would leave the
 * narration less than two rows. */
static int draw_pinned(TuiLesson *t, TuiBox b, int rows, int qend) {
    TuiLines *L = t->layout;
    int first = L->upto_first;
    if (first < 0) return 0;
    int after = 0; /* feedback, a hint, the reveal */
    for (int i = qend; i < L->n && !after; i++) after = L->text[i][0] != '\0';
    if (after && L->n - first > rows - 2) return 0;
    int last = L->n - first <= rows - 2 ? L->n : qend;
    int room = rows - (last - first); /* the narration's rows, a marker's among them */
    if (room < 2) return 0;
    int *scroll = &t->play.scroll, text = room - 1;
    if (*scroll > first - text) *scroll = first - text > 0 ? first - text : 0;
    for (int i = 0; i < text && *scroll + i < first; i++) put_line(L, b, 1 + i, *scroll + i);
    if (first - *scroll > text) tui_put(b.y + room, b.x + b.w - 28, 27, " (narration goes on: down) ");
    for (int i = first; i < last; i++) put_line(L, b, 1 + room + (i - first), i);
    return 1;
}

/* An open question whose feedback does not fit beside it (a wrong
 * choice's long explanation): the question and its choices at the top,
 * the feedback under them from its first line, scrolling on its own. 0
 * when the question alone leaves the feedback less than two rows. */
static int draw_question_first(TuiLesson *t, TuiBox b, int rows, int qend) {
    TuiLines *L = t->layout;
    int first = L->upto_first, fb = next_text(L, qend);
    if (first < 0 || !question_open(&t->play) || fb >= L->n) return 0;
    int room = rows - (qend - first) - 1; /* the feedback's rows, a marker's among them */
    if (room < 2) return 0;
    int *scroll = &t->play.scroll, span = L->n - fb;
    if (*scroll >= PL_LESSON_SCROLL_END || *scroll > span - (room - 1)) *scroll = 0; /* from the feedback's start */
    for (int i = first; i < qend; i++) put_line(L, b, 1 + (i - first), i);
    int more = span - *scroll > room, shown = more ? room - 1 : room;
    for (int i = 0; i < shown && fb + *scroll + i < L->n; i++) put_line(L, b, 1 + (qend - first) + i, fb + *scroll + i);
    if (more) tui_put(b.y + rows, b.x + b.w - 16, 15, " (more: down) ");
    return 1;
}

void tui_lesson_draw(TuiLesson *t, PlLab *lab, TuiBox b) {
    TuiLines *L = t->layout;
    if (!L) return;
    PlLessonPlay *p = &t->play;
    char title[300], step[300], head[700];
    head_text(p, title, step, head, sizeof head);
    int two = tui_width(head) > b.w; /* too long for one line: the lesson's title, then the step's */
    tui_color(TUI_TITLE);
    mvhline(b.y, b.x, ' ', b.w);
    if (!two) tui_put(b.y, b.x, b.w, "%s", head);
    else {
        tui_put(b.y, b.x, b.w, " %s%s", title, p->explore ? "  (exploring: Esc returns)" : "");
        tui_color_off(TUI_TITLE);
        tui_color(TUI_CHANGED);
        tui_put(b.y + 1, b.x, b.w, " %s", step);
        tui_color_off(TUI_CHANGED);
        tui_color(TUI_TITLE);
        b.y++, b.h--;
    }
    tui_color_off(TUI_TITLE);
    int qend = lay_out(L, t, lab, b.w - 2), rows = b.h - 1;
    if (L->n > rows && qend > 0 && (draw_pinned(t, b, rows, qend) || draw_question_first(t, b, rows, qend))) return;
    if (p->scroll >= PL_LESSON_SCROLL_END && qend > 0 && L->n > rows) {
        /* an answer's verdict (Right, the solution) and what follows it, longer than the pane (a long
         * reveal), come into view from the verdict's first line, a line above it for context */
        int v = next_text(L, qend), end = L->n - (rows - 1);
        while (v < L->n && L->color[v] != TUI_GOOD && L->color[v] != TUI_CHANGED) v++;
        if (v == L->n) v = next_text(L, qend);
        p->scroll = v - 1 < end ? (v - 1 > 0 ? v - 1 : 0) : end; /* clamped under it */
    }
    int last = L->n <= rows ? 0 : L->n - (rows - 1); /* the furthest scroll, the "more: up" row below it */
    if (p->scroll > last) p->scroll = last;
    int up = p->scroll > 0, avail = rows - up; /* each marker has a row of its own */
    int more = L->n - p->scroll > avail, shown = more ? avail - 1 : avail;
    if (up) tui_put(b.y + 1, b.x + b.w - 14, 13, " (more: up) ");
    for (int i = 0; i < shown && p->scroll + i < L->n; i++) put_line(L, b, 1 + up + i, p->scroll + i);
    if (more) tui_put(b.y + b.h - 1, b.x + b.w - 16, 15, " (more: down) ");
}

void tui_lesson_keybar(const TuiLesson *t, int y, int cols) {
    move(y, 0);
    clrtoeol();
    tui_color(TUI_KEY);
    if (t->play.explore)
        tui_put(y, 0, cols, " exploring the lab: every key works it; Esc back to the lesson, ? help, q quit ");
    else tui_put(y, 0, cols, " space next  PgUp back  h hint  s solution  Esc the lab  F5 classroom  q quit ");
    tui_color_off(TUI_KEY);
}

/* ---- keys ---- */

int tui_lesson_key(TuiLesson *t, PlLab *lab, int ch) {
    PlPlayerKey k;
    (void)lab;
    if (!tui_player_key(ch, &k)) return t->play.explore ? 0 : t->play.blank ? (t->play.blank = 0, 1) : 0;
    return pl_lesson_player.key(&t->play, k, ch, 0.0);
}

int tui_lesson_tick(TuiLesson *t, PlLab *lab) { return pl_lesson_player.tick(&t->play, lab, 0.0); }
