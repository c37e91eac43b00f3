/* The window's drill (see drill_pane.h). */
#include "drill_pane.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figures.h"
#include "wrapped.h"

/* The parts of a page tagged in the window. */
static const char *const part_tag[PL_PART_COUNT] = {
    [PL_PART_NONE] = NULL,           [PL_PART_FRONT] = "drill-front",     [PL_PART_ANSWER] = "drill-answer",
    [PL_PART_WHY] = "drill-why",     [PL_PART_VERDICT] = "drill-verdict", [PL_PART_SYMPTOM] = "drill-symptom",
    [PL_PART_FIXED] = "drill-fixed",
};

/* The deck and where the session is over the pane (the deck's title wraps
 * to two lines, then is cut); returns the y under them. */
static double head(GuiList *dl, const PlDrillPlay *p, GuiRect r, int size) {
    static GuiWrapped w;
    char left[300], right[64], fit[300];
    double u = dl->st->unit, y = r.y;
    int big = GUI_LARGE; /* in classroom mode the item's own size: the room is the item's */
    (void)size;
    pl_drill_play_head(p, left, sizeof left, right, sizeof right);
    double rw = gui_text(dl, r.x + r.w, y, big, GUI_C_DIM, GUI_RIGHT, "%s", right);
    gui_wrapped_begin(&w, dl, big, left);
    gui_wrapped_para(&w, left, r.w - rw - 12 * u, GUI_C_FG, 0.0, 0);
    for (int i = 0; i < w.n && i < 2; i++, y += gui_text_h(dl, big)) {
        if (i == 1 && w.n > 2)
            gui_text(dl, r.x, y, big, GUI_C_FG, GUI_LEFT, "%s",
                     gui_fit(dl, big, 0, left + w.line[i].from, r.w - rw - 12 * u, fit, sizeof fit));
        else gui_text(dl, r.x, y, big, GUI_C_FG, GUI_LEFT, "%.*s", (int)w.line[i].len, left + w.line[i].from);
    }
    gui_line(dl, r.x, y + 5 * u, r.x + r.w, y + 5 * u, GUI_C_GRID, u, 0);
    return y + 12 * u;
}

static void pane(GuiList *dl, PlDrillPlay *p, GuiRect r, int size, double now) {
    static PlPage page; /* one pane is laid out at a time; too big for the stack */
    static GuiWrapped w;
    double u = dl->st->unit;
    gui_rect(dl, r, GUI_C_PANEL);
    gui_tag(dl, "drill");
    GuiRect in = gui_inset(r, 14 * u);
    double y = head(dl, p, in, size), lh = gui_text_h(dl, size) * 1.12;
    pl_drill_play_page(p, now, &page);
    w.dl = dl, w.size = size;
    gui_wrapped_page(&w, &page, in.w);
    int rows = (int)floor((in.y + in.h - y) / lh);
    if (w.n > rows && rows > 2) rows--; /* the more-marker's own row */
    if (rows < 1) rows = 1;
    if (p->scroll > w.n - rows) p->scroll = w.n - rows > 0 ? w.n - rows : 0;
    gui_wrapped_draw(dl, &w, in, y, lh, rows, p->scroll, part_tag);
}

void gui_drill_frame(GuiList *dl, PlDrillPlay *p, GuiRect r, int size, double now) {
    PlLab *lab = pl_drill_play_view_lab(p);
    double gap = 16 * dl->st->unit, measure_w = (size == GUI_LARGE ? 1100 : 900) * dl->st->unit;
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
    double w = size == GUI_LARGE ? r.w * 0.46 : fmin(fmax(r.w * 0.42, 360 * dl->st->unit), 640 * dl->st->unit);
    pane(dl, p, (GuiRect){r.x, r.y, w, r.h}, size, now);
    gui_figure(dl, lab, v, (GuiRect){r.x + w + gap, r.y, r.w - w - gap, r.h});
    gui_tag(dl, "drill-view");
}

/* ---- keys ---- */

static const struct {
    SDL_Keycode key;
    PlDrillKey k;
} keys[] = {
    {SDLK_RETURN, PL_DK_ENTER}, {SDLK_KP_ENTER, PL_DK_ENTER}, {SDLK_UP, PL_DK_UP},
    {SDLK_DOWN, PL_DK_DOWN},    {SDLK_PAGEUP, PL_DK_PGUP},    {SDLK_PAGEDOWN, PL_DK_PGDN},
};

int gui_drill_event(PlDrillPlay *p, const SDL_Event *e, double now) {
    if (e->type == SDL_TEXTINPUT) {
        unsigned char ch = (unsigned char)e->text.text[0];
        if (!ch || e->text.text[1] || ch < 32 || ch >= 127) return PL_DRILL_IGNORED;
        return pl_drill_play_key(p, PL_DK_CHAR, ch, now);
    }
    if (e->type != SDL_KEYDOWN) return PL_DRILL_IGNORED;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (keys[i].key == e->key.keysym.sym) return pl_drill_play_key(p, keys[i].k, 0, now);
    return PL_DRILL_IGNORED;
}
