/* The window's lesson pane (see lesson_pane.h). */
#include "lesson_pane.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plot.h"
#include "player_pane.h"
#include "wrapped.h"

/* The title and the step over the pane; returns the y under them. */
static double head(GuiList *dl, const PlLessonPlay *p, GuiRect r, int size) {
    char title[300], step[300];
    double u = dl->st->unit, y = r.y;
    pl_lesson_play_head(p, title, sizeof title, step, sizeof step);
    int big = size == GUI_LARGE ? GUI_TITLE : GUI_LARGE;
    static GuiWrapped w; /* the title wraps: in classroom mode it is large */
    gui_wrapped_begin(&w, dl, big, title);
    gui_wrapped_para(&w, title, r.w, GUI_C_FG, 0.0, 0);
    for (int i = 0; i < w.n; i++, y += gui_text_h(dl, big))
        gui_text(dl, r.x, y, big, GUI_C_FG, GUI_LEFT, "%.*s", (int)w.line[i].len, title + w.line[i].from);
    y += 2 * u;
    y += gui_text_wrap(dl, r.x, y, r.w, size, GUI_C_SEL, GUI_LEFT, "%s", step);
    if (p->explore)
        y += gui_text_wrap(dl, r.x, y, r.w, GUI_SMALL, GUI_C_WARN, GUI_LEFT, "%s",
                           "exploring the lab: every key works it; Esc returns to the lesson");
    gui_line(dl, r.x, y + 5 * u, r.x + r.w, y + 5 * u, GUI_C_GRID, u, 0);
    return y + 12 * u;
}

void gui_lesson_pane(GuiList *dl, PlLessonPlay *p, PlLab *lab, GuiRect r, int size) {
    static const char *const tags[PL_PART_COUNT] = {[PL_PART_REVEAL] = "lesson-reveal"};
    double u = dl->st->unit, pad = 14 * u;
    gui_rect(dl, r, GUI_C_PANEL);
    gui_tag(dl, "lesson");
    GuiRect in = gui_inset(r, pad);
    double y = head(dl, p, in, size);
    gui_page_pane(dl, &pl_lesson_player, p, lab, 0.0, in, y, size, tags, 1);
}

GuiRect gui_lesson_beside(GuiList *dl, PlLessonPlay *p, PlLab *lab, GuiRect area, const GuiClassBox *k) {
    double u = dl->st->unit, gap = 16 * u;
    int present = dl->st->present, size = present ? GUI_LARGE : GUI_NORMAL;
    double w = present ? area.w * 0.4 : fmin(fmax(area.w * 0.36, 340 * u), 560 * u), below = 0;
    if (k) { /* the class's box at the foot: the lesson's page scrolls above it */
        GuiRect box = {area.x + 14 * u, 0, w - 28 * u, 0};
        double room = fmin(area.h * 0.4, area.h - 12 * gui_text_h(dl, size)); /* the lesson keeps a dozen lines */
        below = gui_class_box(dl, k, box, size, room, 0) + 14 * u;
        box.y = area.y + area.h - below;
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
