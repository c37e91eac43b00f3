/* A page of paragraphs by meaning, and the one wrap both front ends lay it
 * out with (see page.h). */
#include "page.h"

#include <string.h>

void pl_page_clear(PlPage *g) { g->n = 0, g->used = 0; }

void pl_page_add(PlPage *g, PlRole role, PlPart part, int indent, const char *text) {
    size_t len = strlen(text);
    if (g->n >= PL_PAGE_PARAS || g->used + len + 1 > sizeof g->buf) return;
    memcpy(g->buf + g->used, text, len + 1);
    g->para[g->n].role = role, g->para[g->n].part = part, g->para[g->n].indent = indent;
    g->para[g->n].text = g->used;
    g->n++, g->used += len + 1;
}

void pl_page_gap(PlPage *g) {
    if (g->n > 0 && g->para[g->n - 1].role != PL_ROLE_GAP) pl_page_add(g, PL_ROLE_GAP, PL_PART_NONE, 0, "");
}

/* ---- wrapping ---- */

/* Where the line starting at s (n bytes left) ends: the last space at which
 * it still fits, or all of it, or as many characters as fit (one at least). */
static size_t line_end(const char *s, size_t n, double room, double (*measure)(void *, const char *, size_t),
                       void *ctx) {
    if (measure(ctx, s, n) <= room) return n;
    size_t best = 0;
    for (size_t i = 1; i < n; i++)
        if (s[i] == ' ' && s[i - 1] != ' ') {
            if (measure(ctx, s, i) > room) break;
            best = i;
        }
    if (best) return best;
    size_t cut = 0;
    for (size_t i = 1; i <= n; i++) {
        if (i < n && (s[i] & 0xc0) == 0x80) continue; /* inside a UTF-8 character */
        if (measure(ctx, s, i) > room) break;
        cut = i;
    }
    if (cut) return cut;
    for (cut = 1; cut < n && (s[cut] & 0xc0) == 0x80; cut++) {}
    return cut;
}

/* A list item: "- " and its text. A paragraph that merely starts with '-'
 * (a negative number, an option) is an ordinary one. */
static int list_item(const char *s) { return s[0] == '-' && s[1] == ' '; }

void pl_page_wrap(const char *text, double width, double indent,
                  double (*measure)(void *ctx, const char *s, size_t n),
                  void (*line)(void *ctx, const char *s, size_t n, int kind, double in), void *ctx) {
    for (const char *s = text ? text : ""; *s;) {
        const char *nl = strchr(s, '\n');
        size_t para = nl ? (size_t)(nl - s) : strlen(s);
        double hang = indent;
        if (list_item(s) && measure(ctx, s, 2) > hang) hang = measure(ctx, s, 2);
        for (int first = 1; para; first = 0) {
            size_t cut = line_end(s, para, width - (first ? 0.0 : hang), measure, ctx);
            line(ctx, s, cut, first ? 0 : 1, first ? 0.0 : hang);
            s += cut, para -= cut;
            while (para && *s == ' ') s++, para--;
        }
        if (!nl) break;
        s = nl + 1;
        if (*s && !list_item(s)) line(ctx, "", 0, 2, 0.0);
    }
}
