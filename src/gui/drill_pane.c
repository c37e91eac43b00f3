/* The window's drill (see drill_pane.h). */
#include "drill_pane.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figures.h"
#include "player_pane.h"
#include "wrapped.h"

/* The parts of a page tagged in the window. */
static const char *const part_tag[PL_PART_COUNT] = {
    [PL_PART_NONE] = NULL,           [PL_PART_FRONT] = "drill-front",     [PL_PART_ANSWER] = "drill-answer",
    [PL_PART_WHY] = "drill-why",     [PL_PART_VERDICT] = "drill-verdict", [PL_PART_SYMPTOM] = "drill-symptom",
    [PL_PART_FIXED] = "drill-fixed",
};

/* The deck and where the session is over the pane (the deck's title
 * wraps); returns the y under them. */
static double head(GuiList *dl, const PlDrillPlay *p, GuiRect r, int size) {
    static GuiWrapped w;
    char left[300], right[64];
    double u = dl->st->unit, y = r.y;
    int big = GUI_LARGE; /* in classroom mode the item's own size: the room is the item's */
    (void)size;
    pl_drill_play_head(p, left, sizeof left, right, sizeof right);
    double rw = gui_text(dl, r.x + r.w, y, big, GUI_C_DIM, GUI_RIGHT, "%s", right);
    gui_wrapped_begin(&w, dl, big, left);
    gui_wrapped_para(&w, left, r.w - rw - 12 * u, GUI_C_FG, 0.0, 0);
    for (int i = 0; i < w.n; i++, y += gui_text_h(dl, big))
        gui_text(dl, r.x, y, big, GUI_C_FG, GUI_LEFT, "%.*s", (int)w.line[i].len, left + w.line[i].from);
    gui_line(dl, r.x, y + 5 * u, r.x + r.w, y + 5 * u, GUI_C_GRID, u, 0);
    return y + 12 * u;
}

static void pane(GuiList *dl, PlDrillPlay *p, GuiRect r, int size, double now) {
    double u = dl->st->unit;
    gui_rect(dl, r, GUI_C_PANEL);
    gui_tag(dl, "drill");
    GuiRect in = gui_inset(r, 14 * u);
    double y = head(dl, p, in, size);
    gui_page_pane(dl, &pl_drill_player, p, NULL, now, in, y, size, part_tag, 1);
}

/* Whether the item's whole question (its front) shows in a pane of width
 * w and height h without scrolling, under a head of up to three lines. */
static int front_fits(GuiList *dl, PlDrillPlay *p, double w, double h, int size, double now) {
    static PlPage page;
    static GuiWrapped wr;
    double u = dl->st->unit, lh = gui_text_h(dl, size) * 1.12;
    pl_drill_player.page(p, NULL, now, &page);
    wr.dl = dl, wr.size = size;
    gui_wrapped_page(&wr, &page, w - 28 * u);
    int last = -1;
    for (int i = 0; i < wr.n; i++)
        if (wr.line[i].tag == PL_PART_FRONT) last = i;
    return (last + 2) * lh + 3 * gui_text_h(dl, GUI_LARGE) + 40 * u <= h;
}

void gui_drill_frame(GuiList *dl, PlDrillPlay *p, GuiRect r, int size, double now) {
    PlLab *lab = pl_drill_play_view_lab(p);
    double gap = 16 * dl->st->unit, measure_w = (size == GUI_LARGE ? 1100 : 900) * dl->st->unit;
    double side = size == GUI_LARGE ? r.w * 0.46 : fmin(fmax(r.w * 0.42, 360 * dl->st->unit), 640 * dl->st->unit);
    if (lab && !p->zoom && !front_fits(dl, p, side, r.h, size, now))
        lab = NULL; /* the question first: the pane takes the window, z shows the view */
    if (!lab) { /* lines a reader can follow: the pane at most so wide, in the middle */
        double w = fmin(r.w, measure_w);
        pane(dl, p, (GuiRect){r.x + (r.w - w) / 2, r.y, w, r.h}, size, now);
        return;
    }
    PlView v = (PlView)pl_lab_settings(lab)->view;
    if (p->zoom) {
        gui_figure(dl, lab, v, r);
        gui_tag(dl, "drill-view");
        return;
    }
    pane(dl, p, (GuiRect){r.x, r.y, side, r.h}, size, now);
    gui_figure(dl, lab, v, (GuiRect){r.x + side + gap, r.y, r.w - side - gap, r.h});
    gui_tag(dl, "drill-view");
}

void gui_drill_window(GuiList *dl, PlDrillPlay *p, double now) {
    double u = dl->st->unit;
    int present = dl->st->present;
    GuiRect area = gui_inset((GuiRect){0, 0, dl->W, dl->H}, 18 * u);
    if (!present) {
        const char *keys = pl_drill_play_keys(p);
        double kh = gui_text_h(dl, GUI_SMALL) * gui_wrap_lines(dl, GUI_SMALL, 0, keys, area.w);
        area.h -= kh + 8 * u;
        gui_text_wrap(dl, area.x, area.y + area.h + 8 * u, area.w, GUI_SMALL, GUI_C_DIM, GUI_LEFT, "%s", keys);
        gui_tag(dl, "drill-keys");
    }
    gui_drill_frame(dl, p, area, present ? GUI_LARGE : GUI_NORMAL, now);
}
