/* The window's lesson pane (see lesson_pane.h).
 *
 * The pane, top to bottom: the head (the title, the step), then the page.
 * The page's lines scroll, all but the question's (its prompt, its choices,
 * the answer being typed): those stay in sight, in their place while it is
 * on screen, else at the edge it would have scrolled past. In classroom
 * mode the pane is CLASSROOM_CHARS characters of the large type wide
 * whatever the step, and the rest of the window is the figure's; its type
 * is the largest in which every step of the lesson shows its head, its
 * question whole and a row of its narration beside the class's box, so
 * that the type keeps its size from step to step. */
#include "lesson_pane.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "player_pane.h"
#include "plot.h"
#include "wrapped.h"

#define CLASSROOM_CHARS 28 /* a column a projector's reader follows; the figure takes the rest */
#define NARRATION_ROWS 3   /* in classroom mode the class's box leaves the narration these rows */
#define NARRATION_LEAST 1  /* and the type is the largest that leaves every step's narration this many */
#define SAMPLE "the quick brown fox jumps over the lazy dog" /* a line's average letter */

/* The page, as wrapped last (one pane is laid out at a time; too big for the stack). */
static PlPage page;
static GuiWrapped wrapped;

static double line_h(const GuiList *dl, int size) { return gui_text_h(dl, size) * 1.12; }

/* The title and the step over the pane: their height at r.w, drawn when draw is set. */
static double head_of(GuiList *dl, const char *title, const char *step, int exploring, GuiRect r, int size, int draw) {
    double u = dl->st->unit, y = r.y;
    int big = size < GUI_TITLE ? size + 1 : GUI_TITLE;
    static GuiWrapped w; /* the title wraps: in classroom mode it is large */
    gui_wrapped_begin(&w, dl, big, title);
    gui_wrapped_para(&w, title, r.w, GUI_C_FG, 0.0, 0);
    for (int i = 0; i < w.n; i++, y += gui_text_h(dl, big))
        if (draw) gui_text(dl, r.x, y, big, GUI_C_FG, GUI_LEFT, "%.*s", (int)w.line[i].len, title + w.line[i].from);
    y += 2 * u;
    if (draw) y += gui_text_wrap(dl, r.x, y, r.w, size, GUI_C_SEL, GUI_LEFT, "%s", step);
    else y += gui_wrap_lines(dl, size, 0, step, r.w) * gui_text_h(dl, size);
    if (exploring) {
        static const char *const explore = "exploring the lab: every key works it; Esc returns to the lesson";
        if (draw) y += gui_text_wrap(dl, r.x, y, r.w, GUI_SMALL, GUI_C_WARN, GUI_LEFT, "%s", explore);
        else y += gui_wrap_lines(dl, GUI_SMALL, 0, explore, r.w) * gui_text_h(dl, GUI_SMALL);
    }
    if (draw) gui_line(dl, r.x, y + 5 * u, r.x + r.w, y + 5 * u, GUI_C_GRID, u, 0);
    return y + 12 * u - r.y;
}

static double head(GuiList *dl, const PlLessonPlay *p, GuiRect r, int size, int draw) {
    char title[300], step[300];
    pl_lesson_play_head(p, title, sizeof title, step, sizeof step);
    return head_of(dl, title, step, p->explore, r, size, draw);
}

/* Wraps the page (made last by make_page) to width in size, into
 * `wrapped`; the question's lines are [*q0, *q1), none when equal. */
static void wrap_page(GuiList *dl, double width, int size, int *q0, int *q1) {
    wrapped.dl = dl, wrapped.size = size;
    gui_wrapped_page(&wrapped, &page, width);
    *q0 = *q1 = 0;
    for (int i = 0; i < wrapped.n; i++)
        if (wrapped.line[i].tag == PL_PART_QUESTION) {
            if (*q1 == 0) *q0 = i;
            *q1 = i + 1;
        }
}

static void make_page(PlLessonPlay *p, PlLab *lab) { pl_lesson_player.page(p, lab, 0.0, &page); }

/* The wrapped page in `in` from y down, scrolled by p->scroll (clamped
 * here) with the question's lines [q0, q1) kept in sight (where it has not
 * the room, it alone, scrolled); a row for "more: Down" when lines are left
 * below (over the question when they are the lines before it), "more: Up"
 * over y when scrolled. */
static void page_lines(GuiList *dl, PlLessonPlay *p, GuiRect in, double y, int size, int q0, int q1) {
    static const char *const tags[PL_PART_COUNT] = {
        [PL_PART_QUESTION] = "lesson-question", [PL_PART_REVEAL] = "lesson-reveal"};
    static GuiWrapped shown; /* the lines on screen, in their order */
    double u = dl->st->unit, lh = line_h(dl, size), small = gui_text_h(dl, GUI_SMALL);
    int n = wrapped.n, rows = (int)fmax(0.0, floor((in.y + in.h - y) / lh + 1e-6));
    if (n > rows && rows > 0) rows--; /* the row for "more: Down": never under a line */
    int whole = q1 - q0 <= rows, last = (whole ? n : q1 - q0) - rows;
    if (p->scroll > last) p->scroll = last;
    if (p->scroll < 0) p->scroll = 0;
    /* the others scroll in rows - keep rows; the question goes among them where it stands, or at the edge */
    int keep = whole ? q1 - q0 : 0, others = rows - keep, s = p->scroll;
    int at = q0 - s < 0 ? 0 : q0 - s > others ? others : q0 - s, marker = -1;
    gui_wrapped_begin(&shown, dl, size, wrapped.base);
    for (int i = 0; !whole && i < rows; i++) shown.line[shown.n++] = wrapped.line[q0 + s + i];
    for (int i = 0; whole && i <= others; i++) {
        if (keep && i == at) {
            if (s + others < q0) marker = shown.n++; /* lines hidden between the last shown and the question */
            for (int q = q0; q < q1; q++) shown.line[shown.n++] = wrapped.line[q];
        }
        int k = s + i + (keep && s + i >= q0 ? keep : 0);
        if (i < others && k < n) shown.line[shown.n++] = wrapped.line[k];
    }
    if (marker >= 0) shown.line[marker].len = 0, shown.line[marker].tag = PL_PART_NONE;
    gui_wrapped_draw(dl, &shown, in, y, lh, shown.n, 0, tags);
    if (s < last && rows > 0) /* in its row: over the question, or at the foot */
        gui_text(dl, in.x + in.w, marker >= 0 ? y + marker * lh + (lh - small) / 2 : in.y + in.h - small, GUI_SMALL,
                 GUI_C_DIM, GUI_RIGHT, "more: Down");
    if (s > 0) gui_text(dl, in.x + in.w, y - 10 * u - small, GUI_SMALL, GUI_C_DIM, GUI_RIGHT, "more: Up");
}

void gui_lesson_pane(GuiList *dl, PlLessonPlay *p, PlLab *lab, GuiRect r, int size) {
    double pad = 14 * dl->st->unit;
    int q0, q1;
    gui_rect(dl, r, GUI_C_PANEL);
    gui_tag(dl, "lesson");
    GuiRect in = gui_inset(r, pad);
    double y = in.y + head(dl, p, in, size, 1);
    make_page(p, lab);
    wrap_page(dl, in.w, size, &q0, &q1);
    page_lines(dl, p, in, y, size, q0, q1);
}

/* The height a pane w wide in size needs to show its head, its question
 * whole and up to `rows` of its other lines (and the row for "more: Down");
 * the page is make_page's. */
static double pane_need(GuiList *dl, const PlLessonPlay *p, double w, int size, int rows) {
    double pad = 14 * dl->st->unit;
    int q0, q1;
    GuiRect in = {0, 0, w - 2 * pad, 0};
    wrap_page(dl, in.w, size, &q0, &q1);
    int others = wrapped.n - (q1 - q0), more = others > rows;
    return 2 * pad + head(dl, p, in, size, 0) + (q1 - q0 + (more ? rows : others) + more) * line_h(dl, size);
}

/* A figure as wide as a wide one ("83.3%", "1,300"), for a step's words
 * before the lab fills them. */
#define WIDE_FIGURE "000000"

/* The height step k's head and question (its prompt, its choices, the
 * line to answer on) take at w in size, with NARRATION_LEAST and the row
 * for "more: Down": what pane_need asks of the step, from its words. */
static double step_need(GuiList *dl, const PlLessonPlay *p, int k, double w, int size) {
    static PlPage est; /* too big for the stack */
    static GuiWrapped lines;
    const PlLesson *l = p->lesson;
    const PlQuestion *q = &l->steps[k].q;
    char step[300], buf[2048], choice[2048];
    double pad = 14 * dl->st->unit;
    pl_page_clear(&est);
    pl_page_add(&est, PL_ROLE_PROMPT, PL_PART_QUESTION, 0, pl_lesson_unfilled(q->prompt, WIDE_FIGURE, buf, sizeof buf));
    for (int c = 0; q->kind == PL_Q_CHOOSE && c < q->nchoices; c++) {
        snprintf(choice, sizeof choice, "%c) %s", 'a' + c,
                 pl_lesson_unfilled(q->choices[c].text, WIDE_FIGURE, buf, sizeof buf));
        pl_page_add(&est, PL_ROLE_CHOICE, PL_PART_QUESTION, 3, choice);
    }
    if (q->kind == PL_Q_ASK) pl_page_add(&est, PL_ROLE_INPUT, PL_PART_QUESTION, 2, "> _   (type a number, Enter)");
    if (q->kind == PL_Q_EXERCISE)
        pl_page_add(&est, PL_ROLE_ASIDE, PL_PART_QUESTION, 0, "(work the lab, then Enter checks it)");
    lines.dl = dl, lines.size = size;
    gui_wrapped_page(&lines, &est, w - 2 * pad);
    snprintf(step, sizeof step, "step %d of %d: %s", k + 1, l->nsteps, l->steps[k].title);
    double h = head_of(dl, l->title, step, 0, (GuiRect){0, 0, w - 2 * pad, 0}, size, 0);
    int asked = q->kind == PL_Q_NONE ? 0 : lines.n;
    return 2 * pad + h + (asked + NARRATION_LEAST + 1) * line_h(dl, size);
}

/* The largest type in which every step of the lesson shows its head, its
 * question and NARRATION_LEAST in height h, w wide (a step too long for the
 * smallest type aside): a projector's type keeps its size from step to
 * step. Kept for the lesson, w and h. */
static int lesson_size(GuiList *dl, const PlLessonPlay *p, double w, double h) {
    static const PlLesson *at;
    static double at_w, at_h, at_unit;
    static int size;
    if (at == p->lesson && at_w == w && at_h == h && at_unit == dl->st->unit) return size;
    at = p->lesson, at_w = w, at_h = h, at_unit = dl->st->unit, size = GUI_LARGE;
    for (int k = 0; k < p->lesson->nsteps; k++) {
        int fits = size;
        while (fits >= GUI_SMALL && step_need(dl, p, k, w, fits) > h) fits--;
        if (fits >= GUI_SMALL) size = fits;
    }
    return size;
}

/* Classroom mode's pane in area, with the class's box (k, else NULL) at its
 * foot: CLASSROOM_CHARS characters of the large type wide (and the join
 * address on one line), two fifths of the area at most, whatever the step,
 * so the figure beside it keeps its place; the largest type in which every
 * step shows its head, its question whole, NARRATION_LEAST of the narration
 * and the box at its smallest, so that the type keeps its size from step to
 * step (smaller only where a step's page needs it), else the smallest. Sets
 * *size and *w. */
static void classroom_pane(GuiList *dl, const PlLessonPlay *p, GuiRect area, const GuiClassBox *k, int *size,
                           double *w) {
    double pad = 14 * dl->st->unit, letter = gui_text_w(dl, GUI_LARGE, 0, SAMPLE) / (double)strlen(SAMPLE);
    double least = k ? gui_text_w(dl, GUI_SMALL, 0, k->url) + 2 * pad : 0;
    *w = fmin(fmax(CLASSROOM_CHARS * letter + 2 * pad, least), area.w * 0.4);
    double box = k ? gui_class_box_least(dl, k, (GuiRect){0, 0, *w - 2 * pad, 0}) + pad : 0;
    for (*size = lesson_size(dl, p, *w, area.h - 1 - box); *size > GUI_SMALL; (*size)--)
        if (pane_need(dl, p, *w, *size, NARRATION_LEAST) + box <= area.h - 1) return;
}

GuiRect gui_lesson_beside(GuiList *dl, PlLessonPlay *p, PlLab *lab, GuiRect area, const GuiClassBox *k) {
    double u = dl->st->unit, gap = 16 * u, pad = 14 * u, w = fmin(fmax(area.w * 0.36, 340 * u), 560 * u), below = 0;
    int size = GUI_NORMAL;
    if (dl->st->present || k) make_page(p, lab);
    if (dl->st->present) classroom_pane(dl, p, area, k, &size, &w);
    if (k) { /* the class's box at the foot, under the pane's head and its question whole */
        GuiRect box = {area.x + pad, 0, w - 2 * pad, 0};
        double most = area.h - pane_need(dl, p, w, size, 0) - pad - 1; /* (1: the box on a whole pixel) */
        /* two fifths at most, leaving NARRATION_ROWS; past them for the code at a fifth of the window's height */
        double room = fmax(fmin(area.h * 0.4, area.h - pane_need(dl, p, w, size, NARRATION_ROWS) - pad - 1),
                           fmin(gui_class_box_least(dl, k, box), most));
        below = gui_class_box(dl, k, box, size, room, 0) + pad;
        box.y = floor(area.y + area.h - below), below = area.y + area.h - box.y;
        gui_rect(dl, (GuiRect){area.x, box.y, w, below}, GUI_C_PANEL);
        gui_class_box(dl, k, box, size, room, 1);
    }
    gui_lesson_pane(dl, p, lab, (GuiRect){area.x, area.y, w, area.h - below}, size);
    return (GuiRect){area.x + w + gap, area.y, area.w - w - gap, area.h};
}

const char *gui_lesson_keys(const PlLessonPlay *p, int with_class) {
    if (p->explore) return "exploring the lab: every key works it   Esc back to the lesson   ? help   q quit";
    if (with_class)
        return "space / PgDn next   PgUp back   r reveal   v vote again   h hint   s solution   Esc work the lab   F5 "
               "classroom   q quit";
    return "space / PgDn next   PgUp back   h hint   s solution   Esc work the lab   F5 classroom   q quit";
}
