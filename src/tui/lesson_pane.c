/* The lesson pane: the page the app layer makes of the run's state
 * (app/lesson_play.h), wrapped to the pane's columns and coloured by role. */
#include "lesson_pane.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "screen.h"

#define MAX_LINES 400

typedef struct {
    char text[MAX_LINES][256];
    TuiColor color[MAX_LINES];
    int n;
    int question_end; /* the lines up to the end of the question's choices or input (0: no question) */
    TuiColor now;     /* the colour of the paragraph being wrapped */
    int indent;
} Lines;

/* Each role of the page in the terminal's colours. */
static const TuiColor role_color[PL_LR_COUNT] = {
    [PL_LR_TEXT] = TUI_NORMAL,   [PL_LR_WAIT] = TUI_DIM,         [PL_LR_PROMPT] = TUI_GOOD,
    [PL_LR_CHOICE] = TUI_NORMAL, [PL_LR_CHOSEN] = TUI_SELECTED,  [PL_LR_INPUT] = TUI_KEY,
    [PL_LR_ASIDE] = TUI_DIM,     [PL_LR_HINT] = TUI_DIM,         [PL_LR_WRONG] = TUI_WARN,
    [PL_LR_RIGHT] = TUI_GOOD,    [PL_LR_SOLUTION] = TUI_CHANGED, [PL_LR_SUMMARY] = TUI_GOOD,
    [PL_LR_NOTE] = TUI_DIM,      [PL_LR_GAP] = TUI_NORMAL,
};

int tui_lesson_open(TuiLesson *t, PlLab *lab, const char *name, int present, char *why, int cap) {
    memset(t, 0, sizeof *t);
    if (pl_lesson_play_open(&t->play, lab, name, -1, present, why, cap)) return -1;
    if (!(t->layout = malloc(sizeof(Lines)))) {
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

/* Columns, not bytes, for UTF-8 text. */
static double columns(void *ctx, const char *s, size_t n) {
    (void)ctx;
    double cols = 0.0;
    for (size_t i = 0; i < n; i++) cols += (s[i] & 0xc0) != 0x80;
    return cols;
}

static void add_line(void *ctx, const char *s, size_t n, int kind) {
    Lines *L = ctx;
    if (L->n >= MAX_LINES) return;
    snprintf(L->text[L->n], sizeof L->text[0], "%*s%.*s", kind == 1 ? L->indent : 0, "", (int)n, s);
    L->color[L->n++] = kind == 2 ? TUI_NORMAL : L->now;
}

/* Whether a paragraph is the question the learner answers: its prompt, its
 * choices, the answer being typed, and the aside that says how. */
static int asks(PlLessonRole role, PlLessonRole before) {
    return role == PL_LR_PROMPT || role == PL_LR_CHOICE || role == PL_LR_CHOSEN || role == PL_LR_INPUT ||
           (role == PL_LR_ASIDE && before == PL_LR_PROMPT);
}

static void lay_out(Lines *L, const TuiLesson *t, PlLab *lab, int w) {
    static PlLessonPage page; /* the terminal has one pane; too big for the stack */
    pl_lesson_page(&t->play, lab, &page);
    if (w < 10) w = 10;
    L->n = 0, L->question_end = 0;
    for (int i = 0; i < page.n; i++) {
        L->now = role_color[page.para[i].role], L->indent = page.para[i].indent;
        if (page.para[i].role == PL_LR_GAP) add_line(L, "", 0, 2);
        else pl_lesson_wrap(pl_lesson_para(&page, i), w, L->indent, columns, add_line, L);
        if (asks(page.para[i].role, i ? page.para[i - 1].role : PL_LR_GAP)) L->question_end = L->n;
    }
}

/* The head: the lesson's title and the step's, on one line when they fit. */
static void head_text(const PlLessonPlay *p, char *title, char *step, char *head, size_t cap) {
    pl_lesson_play_head(p, title, 300, step, 300);
    snprintf(head, cap, " %s  |  %s%s", title, step, p->explore ? "   (exploring the lab: Esc returns)" : "");
}

int tui_lesson_rows(TuiLesson *t, PlLab *lab, int w) {
    Lines *L = t->layout;
    char title[300], step[300], head[700];
    if (!L) return 0;
    head_text(&t->play, title, step, head, sizeof head);
    lay_out(L, t, lab, w - 2);
    if (!L->question_end) return 0;
    int marker = L->n > L->question_end; /* "(more: down)" takes a row of its own */
    return (tui_width(head) > w ? 2 : 1) + L->question_end + marker;
}

void tui_lesson_draw(TuiLesson *t, PlLab *lab, TuiBox b) {
    Lines *L = t->layout;
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

/* A curses key as a lesson's key: 1, or 0 for one a lesson has no use for. */
static int lesson_key_of(int ch, PlLessonKey *k) {
    static const struct {
        int ch;
        PlLessonKey k;
    } keys[] = {
        {27, PL_LK_EXPLORE},     {'\n', PL_LK_ENTER},    {KEY_ENTER, PL_LK_ENTER}, {KEY_BACKSPACE, PL_LK_ERASE},
        {127, PL_LK_ERASE},      {8, PL_LK_ERASE},       {KEY_NPAGE, PL_LK_NEXT},  {KEY_RIGHT, PL_LK_NEXT},
        {KEY_PPAGE, PL_LK_BACK}, {KEY_LEFT, PL_LK_BACK}, {KEY_UP, PL_LK_UP},       {KEY_DOWN, PL_LK_DOWN},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (keys[i].ch == ch) return *k = keys[i].k, 1;
    if (ch >= 32 && ch < 127) return *k = PL_LK_CHAR, 1;
    return 0;
}

int tui_lesson_key(TuiLesson *t, PlLab *lab, int ch) {
    PlLessonKey k;
    (void)lab;
    if (!lesson_key_of(ch, &k)) return t->play.explore ? 0 : t->play.blank ? (t->play.blank = 0, 1) : 0;
    return pl_lesson_play_key(&t->play, k, ch);
}

int tui_lesson_tick(TuiLesson *t, PlLab *lab) { return pl_lesson_play_tick(&t->play, lab); }
