#include "wrapped.h"

#include <stdio.h>

#include "app/teach/lesson_play.h"

void gui_wrapped_begin(GuiWrapped *w, GuiList *dl, int size, const char *base) {
    w->dl = dl, w->size = size, w->base = base, w->n = 0;
    w->now = GUI_C_FG, w->indent = 0.0, w->tag = 0;
}

static double measure(void *ctx, const char *s, size_t n) {
    GuiWrapped *w = ctx;
    char buf[1024];
    snprintf(buf, sizeof buf, "%.*s", (int)(n < sizeof buf ? n : sizeof buf - 1), s);
    return gui_text_w(w->dl, w->size, 0, buf);
}

static void add_line(void *ctx, const char *s, size_t n, int kind) {
    GuiWrapped *w = ctx;
    if (w->n >= GUI_WRAP_LINES) return;
    w->line[w->n].from = (size_t)(s - w->base), w->line[w->n].len = kind == 2 ? 0 : n;
    w->line[w->n].color = w->now, w->line[w->n].indent = kind == 1 ? w->indent : 0.0, w->line[w->n].tag = w->tag;
    w->n++;
}

void gui_wrapped_para(GuiWrapped *w, const char *text, double width, GuiColor color, double indent, int tag) {
    w->now = color, w->indent = indent, w->tag = tag;
    pl_lesson_wrap(text, width, indent, measure, add_line, w);
}

void gui_wrapped_gap(GuiWrapped *w, const char *text) { add_line(w, text, 0, 2); }

void gui_wrapped_draw(GuiList *dl, const GuiWrapped *w, GuiRect in, double y, double lh, int rows, int scroll,
                      const char *const *tags) {
    double u = dl->st->unit;
    char text[1024];
    for (int i = 0; i < rows && scroll + i < w->n; i++) {
        int k = scroll + i;
        if (!w->line[k].len) continue;
        snprintf(text, sizeof text, "%.*s", (int)w->line[k].len, w->base + w->line[k].from);
        gui_text(dl, in.x + w->line[k].indent, y + i * lh, w->size, w->line[k].color, GUI_LEFT, "%s", text);
        if (tags && tags[w->line[k].tag]) gui_tag(dl, tags[w->line[k].tag]);
    }
    if (w->n - scroll > rows)
        gui_text(dl, in.x + in.w, in.y + in.h - gui_text_h(dl, GUI_SMALL), GUI_SMALL, GUI_C_DIM, GUI_RIGHT,
                 "more: Down");
    if (scroll > 0)
        gui_text(dl, in.x + in.w, y - 10 * u - gui_text_h(dl, GUI_SMALL), GUI_SMALL, GUI_C_DIM, GUI_RIGHT, "more: Up");
}
