#include "wrapped.h"

#include <stdio.h>

#include "app/teach/page.h"

void gui_wrapped_begin(GuiWrapped *w, GuiList *dl, int size, const char *base) {
    w->dl = dl, w->size = size, w->base = base, w->n = 0;
    w->now = GUI_C_FG, w->tag = 0;
}

static double measure(void *ctx, const char *s, size_t n) {
    GuiWrapped *w = ctx;
    char buf[1024];
    snprintf(buf, sizeof buf, "%.*s", (int)(n < sizeof buf ? n : sizeof buf - 1), s);
    return gui_text_w(w->dl, w->size, 0, buf);
}

static void add_line(void *ctx, const char *s, size_t n, int kind, double in) {
    GuiWrapped *w = ctx;
    if (w->n >= GUI_WRAP_LINES) return;
    w->line[w->n].from = (size_t)(s - w->base), w->line[w->n].len = kind == 2 ? 0 : n;
    w->line[w->n].color = w->now, w->line[w->n].indent = in, w->line[w->n].tag = w->tag;
    w->n++;
}

void gui_wrapped_para(GuiWrapped *w, const char *text, double width, GuiColor color, double indent, int tag) {
    w->now = color, w->tag = tag;
    pl_page_wrap(text, width, indent, measure, add_line, w);
}

/* Each role of a page in the window's colours. */
static const GuiColor role_color[PL_ROLE_COUNT] = {
    [PL_ROLE_TEXT] = GUI_C_FG,     [PL_ROLE_HEAD] = GUI_C_DIM,    [PL_ROLE_TITLE] = GUI_C_SEL,
    [PL_ROLE_PROMPT] = GUI_C_FG,   [PL_ROLE_CHOICE] = GUI_C_FG,   [PL_ROLE_CHOSEN] = GUI_C_SEL,
    [PL_ROLE_INPUT] = GUI_C_REAL,  [PL_ROLE_ASIDE] = GUI_C_DIM,   [PL_ROLE_HINT] = GUI_C_DIM,
    [PL_ROLE_WRONG] = GUI_C_WARN,  [PL_ROLE_RIGHT] = GUI_C_GOOD,  [PL_ROLE_SOLUTION] = GUI_C_S4,
    [PL_ROLE_SUMMARY] = GUI_C_FG,  [PL_ROLE_REAL] = GUI_C_REAL,   [PL_ROLE_KEYS] = GUI_C_S4,
    [PL_ROLE_CLOCK] = GUI_C_MARK,  [PL_ROLE_NOTE] = GUI_C_DIM,    [PL_ROLE_GAP] = GUI_C_FG,
};

void gui_wrapped_page(GuiWrapped *w, const PlPage *g, double width) {
    double em = gui_text_w(w->dl, w->size, 0, "m");
    gui_wrapped_begin(w, w->dl, w->size, g->buf);
    for (int i = 0; i < g->n; i++) {
        w->now = role_color[g->para[i].role], w->tag = (int)g->para[i].part;
        if (g->para[i].role == PL_ROLE_GAP) add_line(w, pl_page_para(g, i), 0, 2, 0.0);
        else pl_page_wrap(pl_page_para(g, i), width, g->para[i].indent * em * 0.6, measure, add_line, w);
    }
}

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
