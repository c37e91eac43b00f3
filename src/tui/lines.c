/* Laying text out in lines (see lines.h). */
#include "lines.h"

#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void push(TuiLines *L, TuiColor c, int indent, const char *s, int len) {
    if (L->n >= TUI_LINES_MAX) return;
    snprintf(L->text[L->n], TUI_LINE_CAP, "%*s%.*s", indent, "", len, s);
    L->color[L->n++] = c;
}

/* Columns, not bytes, for UTF-8 text: continuation bytes take none. */
static double columns(void *ctx, const char *s, size_t n) {
    (void)ctx;
    double cols = 0.0;
    for (size_t i = 0; i < n; i++) cols += (s[i] & 0xc0) != 0x80;
    return cols;
}

typedef struct {
    TuiLines *L;
    TuiColor color;
} Wrapping;

static void add_line(void *ctx, const char *s, size_t n, int kind, double in) {
    Wrapping *w = ctx;
    push(w->L, kind == 2 ? TUI_NORMAL : w->color, (int)in, s, (int)n);
}

void tui_lines_wrap(TuiLines *L, const char *text, int w, TuiColor color, int indent) {
    Wrapping wr = {L, color};
    pl_page_wrap(text, w < 10 ? 10 : w, indent, columns, add_line, &wr);
}

/* Each role of a page in the terminal's colours. */
static const TuiColor role_color[PL_ROLE_COUNT] = {
    [PL_ROLE_TEXT] = TUI_NORMAL,     [PL_ROLE_HEAD] = TUI_DIM,      [PL_ROLE_TITLE] = TUI_GOOD,
    [PL_ROLE_PROMPT] = TUI_GOOD,     [PL_ROLE_CHOICE] = TUI_NORMAL, [PL_ROLE_CHOSEN] = TUI_SELECTED,
    [PL_ROLE_INPUT] = TUI_KEY,       [PL_ROLE_ASIDE] = TUI_DIM,     [PL_ROLE_HINT] = TUI_DIM,
    [PL_ROLE_WRONG] = TUI_WARN,      [PL_ROLE_RIGHT] = TUI_GOOD,    [PL_ROLE_SOLUTION] = TUI_CHANGED,
    [PL_ROLE_SUMMARY] = TUI_GOOD,    [PL_ROLE_REAL] = TUI_REAL,     [PL_ROLE_KEYS] = TUI_KEY,
    [PL_ROLE_CLOCK] = TUI_CHANGED,   [PL_ROLE_NOTE] = TUI_DIM,      [PL_ROLE_GAP] = TUI_NORMAL,
};

int tui_lines_page(TuiLines *L, const PlPage *g, int w, PlPart upto) {
    int end = 0;
    L->n = 0;
    L->upto_first = -1;
    for (int i = 0; i < g->n; i++) {
        TuiColor c = role_color[g->para[i].role];
        if (upto != PL_PART_NONE && g->para[i].part == upto && L->upto_first < 0) L->upto_first = L->n;
        if (g->para[i].role == PL_ROLE_GAP) tui_lines_blank(L);
        else if (g->para[i].part == PL_PART_CLOCK) tui_lines_add(L, c, " %s ", pl_page_para(g, i)); /* a bar */
        else tui_lines_wrap(L, pl_page_para(g, i), w, c, g->para[i].indent);
        if (upto != PL_PART_NONE && g->para[i].part == upto) end = L->n;
    }
    return end;
}

void tui_lines_add(TuiLines *L, TuiColor color, const char *fmt, ...) {
    if (L->n >= TUI_LINES_MAX) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(L->text[L->n], TUI_LINE_CAP, fmt, ap);
    va_end(ap);
    L->color[L->n++] = color;
}

void tui_lines_blank(TuiLines *L) {
    if (L->n > 0 && L->text[L->n - 1][0]) push(L, TUI_NORMAL, 0, "", 0);
}

void tui_lines_draw(const TuiLines *L, TuiBox b, int *scroll) {
    if (*scroll > L->n - b.h) *scroll = L->n - b.h;
    if (*scroll < 0) *scroll = 0;
    for (int i = 0; i < b.h && *scroll + i < L->n; i++) {
        tui_color(L->color[*scroll + i]);
        tui_put(b.y + i, b.x, b.w, "%s", L->text[*scroll + i]);
        tui_color_off(L->color[*scroll + i]);
    }
    if (L->n - *scroll > b.h && b.w > 20) {
        int ascii = tui_screen_options()->ascii, cols = ascii ? 14 : 11; /* the mark's columns, at the right edge */
        tui_color(TUI_KEY);
        tui_put(b.y + b.h - 1, b.x + b.w - cols, cols, "%s", ascii ? " (more: down) " : " (more: \xe2\x86\x93) ");
        tui_color_off(TUI_KEY);
    }
}

int tui_player_key(int ch, PlPlayerKey *k) {
    static const struct {
        int ch;
        PlPlayerKey k;
    } keys[] = {
        {27, PL_PK_ESC},         {'\n', PL_PK_ENTER},    {KEY_ENTER, PL_PK_ENTER}, {KEY_BACKSPACE, PL_PK_ERASE},
        {127, PL_PK_ERASE},      {8, PL_PK_ERASE},       {KEY_NPAGE, PL_PK_PGDN},  {KEY_RIGHT, PL_PK_RIGHT},
        {KEY_PPAGE, PL_PK_PGUP}, {KEY_LEFT, PL_PK_LEFT}, {KEY_UP, PL_PK_UP},       {KEY_DOWN, PL_PK_DOWN},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (keys[i].ch == ch) return *k = keys[i].k, 1;
    if (ch >= 32 && ch < 127) return *k = PL_PK_CHAR, 1;
    return 0;
}
