/* Laying text out in lines (see lines.h). */
#include "lines.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void push(TuiLines *L, TuiColor c, int indent, const char *s, int len) {
    if (L->n >= TUI_LINES_MAX) return;
    snprintf(L->text[L->n], TUI_LINE_CAP, "%*s%.*s", indent, "", len, s);
    L->color[L->n++] = c;
}

void tui_lines_wrap(TuiLines *L, const char *text, int w, TuiColor color, int indent) {
    if (w < 10) w = 10;
    for (const char *s = text ? text : ""; *s && L->n < TUI_LINES_MAX;) {
        const char *nl = strchr(s, '\n');
        int para = nl ? (int)(nl - s) : (int)strlen(s), first = 1;
        while (para > 0 && L->n < TUI_LINES_MAX) {
            int room = w - (first ? 0 : indent), cut = para, cols = 0, space = -1, i = 0;
            for (; i < para; i++) { /* columns, not bytes: UTF-8 continuation bytes take none */
                if ((s[i] & 0xc0) != 0x80) cols++;
                if (s[i] == ' ') space = i;
                if (cols > room) break;
            }
            if (i < para) cut = space > 0 ? space : i;
            push(L, color, first ? 0 : indent, s, cut);
            s += cut, para -= cut;
            while (para > 0 && *s == ' ') s++, para--;
            first = 0;
        }
        if (!nl) break;
        s = nl + 1;
        if (*s && strncmp(s, "- ", 2) != 0) push(L, TUI_NORMAL, 0, "", 0);
    }
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
