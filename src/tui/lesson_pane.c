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

int tui_lesson_rows(TuiLesson *t, PlLab *lab, int w) {
    TuiLines *L = t->layout;
    char title[300], step[300], head[700];
    if (!L) return 0;
    head_text(&t->play, title, step, head, sizeof head);
    int question_end = lay_out(L, t, lab, w - 2);
    if (!question_end) return 0;
    int marker = L->n > question_end; /* "(more: down)" takes a row of its own */
    return (tui_width(head) > w ? 2 : 1) + question_end + marker;
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
    lay_out(L, t, lab, b.w - 2);
    int rows = b.h - 1;
    if (p->scroll > L->n - rows) p->scroll = L->n - rows > 0 ? L->n - rows : 0;
    int more = L->n - p->scroll > rows, shown = more ? rows - 1 : rows; /* the marker has a row of its own */
    for (int i = 0; i < shown && p->scroll + i < L->n; i++) {
        tui_color(L->color[p->scroll + i]);
        tui_put(b.y + 1 + i, b.x + 1, b.w - 2, "%s", L->text[p->scroll + i]);
        tui_color_off(L->color[p->scroll + i]);
    }
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
