/* The display list's storage: items, strings, floats and data rows, each a
 * growing array; an allocation that fails marks the list short (oom) and
 * drops the item, so a frame is drawn incomplete rather than not at all. */
#include "dl.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gui_dl_init(GuiList *dl, const GuiStyle *st, double W, double H) {
    memset(dl, 0, sizeof *dl);
    dl->st = st, dl->W = W, dl->H = H;
    dl->mx = dl->my = -1.0;
    dl->figure = SIZE_MAX;
}

void gui_dl_reset(GuiList *dl) {
    dl->n = 0, dl->nstr = 0, dl->nfl = 0, dl->ndata = 0, dl->nhits = 0;
    dl->tip[0] = '\0';
    dl->figure = SIZE_MAX;
    dl->oom = 0;
}

void gui_dl_done(GuiList *dl) {
    free(dl->items), free(dl->str), free(dl->fl), free(dl->data), free(dl->hits);
    memset(dl, 0, sizeof *dl);
}

/* Makes room for `more` elements of size `size` in *buf; 0, or -1 (oom). */
static int grow(GuiList *dl, void **buf, size_t *cap, size_t used, size_t more, size_t size) {
    if (used + more <= *cap) return 0;
    size_t want = *cap ? *cap : 256;
    while (want < used + more) want *= 2;
    void *p = realloc(*buf, want * size);
    if (!p) return dl->oom = 1, -1;
    *buf = p, *cap = want;
    return 0;
}

static GuiItem *add(GuiList *dl, int kind) {
    size_t cap = (size_t)dl->cap;
    if (grow(dl, (void **)&dl->items, &cap, (size_t)dl->n, 1, sizeof *dl->items)) return NULL;
    dl->cap = (int)cap;
    GuiItem *it = &dl->items[dl->n++];
    memset(it, 0, sizeof *it);
    it->kind = (uint8_t)kind;
    it->str = it->tag = SIZE_MAX;
    return it;
}

size_t gui_dl_intern(GuiList *dl, const char *s) {
    size_t n = strlen(s) + 1;
    if (grow(dl, (void **)&dl->str, &dl->capstr, dl->nstr, n, 1)) return SIZE_MAX;
    memcpy(dl->str + dl->nstr, s, n);
    dl->nstr += n;
    return dl->nstr - n;
}

const char *gui_dl_str(const GuiList *dl, size_t o) { return o == SIZE_MAX || o >= dl->nstr ? "" : dl->str + o; }

static size_t floats(GuiList *dl, size_t n) {
    if (grow(dl, (void **)&dl->fl, &dl->capfl, dl->nfl, n, sizeof *dl->fl)) return SIZE_MAX;
    dl->nfl += n;
    return dl->nfl - n;
}

void gui_rect_pat(GuiList *dl, GuiRect r, GuiColor c, GuiPattern p, GuiColor pc) {
    if (r.w <= 0.0 || r.h <= 0.0) return;
    GuiItem *it = add(dl, GUI_I_RECT);
    if (!it) return;
    it->x = r.x, it->y = r.y, it->w = r.w, it->h = r.h;
    it->color = (uint8_t)c, it->pattern = (uint8_t)p, it->color2 = (uint8_t)pc;
}

void gui_rect(GuiList *dl, GuiRect r, GuiColor c) { gui_rect_pat(dl, r, c, GUI_PAT_NONE, c); }

void gui_frame(GuiList *dl, GuiRect r, GuiColor c, double lw) {
    gui_line(dl, r.x, r.y, r.x + r.w, r.y, c, lw, 0);
    gui_line(dl, r.x + r.w, r.y, r.x + r.w, r.y + r.h, c, lw, 0);
    gui_line(dl, r.x + r.w, r.y + r.h, r.x, r.y + r.h, c, lw, 0);
    gui_line(dl, r.x, r.y + r.h, r.x, r.y, c, lw, 0);
}

void gui_line(GuiList *dl, double x, double y, double x2, double y2, GuiColor c, double lw, int dash) {
    GuiItem *it = add(dl, GUI_I_LINE);
    if (!it) return;
    it->x = x, it->y = y, it->x2 = x2, it->y2 = y2, it->lw = lw, it->color = (uint8_t)c, it->dash = (uint8_t)dash;
}

void gui_poly(GuiList *dl, const double *xy, int n, GuiColor c, double lw, int dash, const char *series) {
    if (n < 1) return;
    size_t at = floats(dl, 2 * (size_t)n);
    if (at == SIZE_MAX) return;
    memcpy(dl->fl + at, xy, 2 * (size_t)n * sizeof *xy);
    size_t name = series ? gui_dl_intern(dl, series) : SIZE_MAX;
    GuiItem *it = add(dl, GUI_I_POLY);
    if (!it) return;
    it->fl = at, it->cols = n, it->color = (uint8_t)c, it->lw = lw, it->dash = (uint8_t)dash, it->str = name;
}

/* A text item of s as it is (already veiled); returns its width. */
static double text_item(GuiList *dl, double x, double y, int size, int mono, GuiColor c, GuiAlign a, const char *s) {
    double w = gui_text_w(dl, size, mono, s);
    size_t at = gui_dl_intern(dl, s);
    GuiItem *it = add(dl, GUI_I_TEXT);
    if (!it) return w;
    it->x = a == GUI_LEFT ? x : a == GUI_CENTER ? x - w / 2 : x - w;
    it->y = y, it->w = w, it->h = gui_text_h(dl, size);
    it->size = dl->st->text[size], it->mono = (uint8_t)mono, it->color = (uint8_t)c, it->align = (uint8_t)a,
    it->str = at;
    return w;
}

static double text_va(GuiList *dl, double x, double y, int size, int mono, GuiColor c, GuiAlign a, const char *fmt,
                      va_list ap) {
    char raw[1024], buf[1024];
    vsnprintf(raw, sizeof raw, fmt, ap);
    pl_ledger_draw(dl->ledger, raw, buf, sizeof buf);
    return text_item(dl, x, y, size, mono, c, a, buf);
}

double gui_text(GuiList *dl, double x, double y, int size, GuiColor c, GuiAlign a, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    double w = text_va(dl, x, y, size, 0, c, a, fmt, ap);
    va_end(ap);
    return w;
}

double gui_text_mono(GuiList *dl, double x, double y, int size, GuiColor c, GuiAlign a, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    double w = text_va(dl, x, y, size, 1, c, a, fmt, ap);
    va_end(ap);
    return w;
}

static void heat(GuiList *dl, GuiRect r, const float *v, int cols, int rows, double lo, double hi, GuiRamp ramp,
                 const char *tag, int tr) {
    if (cols < 1 || rows < 1) return;
    size_t at = floats(dl, (size_t)cols * rows);
    if (at == SIZE_MAX) return;
    for (size_t i = 0; i < (size_t)cols * rows; i++) dl->fl[at + i] = (double)v[i];
    GuiItem *it = add(dl, GUI_I_HEAT);
    if (!it) return;
    it->x = r.x, it->y = r.y, it->w = r.w, it->h = r.h, it->fl = at, it->cols = cols, it->rows = rows;
    it->lo = lo, it->hi = hi, it->ramp = (uint8_t)ramp, it->transposed = (uint8_t)tr;
    if (tag) gui_tag(dl, tag);
}

void gui_heat(GuiList *dl, GuiRect r, const float *v, int cols, int rows, double lo, double hi, GuiRamp ramp,
              const char *tag) {
    heat(dl, r, v, cols, rows, lo, hi, ramp, tag, 0);
}

void gui_heat_transposed(GuiList *dl, GuiRect r, const float *v, int cols, int rows, double lo, double hi, GuiRamp ramp,
                         const char *tag) {
    heat(dl, r, v, cols, rows, lo, hi, ramp, tag, 1);
}

void gui_tag(GuiList *dl, const char *tag) {
    if (!dl->n) return;
    size_t s = gui_dl_intern(dl, tag);
    dl->items[dl->n - 1].tag = s;
}

int gui_mouse_in(const GuiList *dl, GuiRect r) {
    return dl->mx >= r.x && dl->mx < r.x + r.w && dl->my >= r.y && dl->my < r.y + r.h;
}

void gui_hover(GuiList *dl, GuiRect r, const char *fmt, ...) {
    int in = gui_mouse_in(dl, r);
    if (!in && !dl->titles) return;
    char raw[320], buf[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    pl_ledger_draw(dl->ledger, raw, buf, sizeof buf);
    if (in) memcpy(dl->tip, buf, sizeof dl->tip);
    if (!dl->titles) return;
    size_t s = gui_dl_intern(dl, buf);
    GuiItem *it = add(dl, GUI_I_TITLE);
    if (!it) return;
    it->x = r.x, it->y = r.y, it->w = r.w, it->h = r.h, it->str = s;
}

void gui_hit(GuiList *dl, GuiRect r, int action, int arg) {
    size_t cap = (size_t)dl->caphits;
    if (grow(dl, (void **)&dl->hits, &cap, (size_t)dl->nhits, 1, sizeof *dl->hits)) return;
    dl->caphits = (int)cap;
    dl->hits[dl->nhits++] = (GuiHit){r, action, arg};
}

void gui_figure_name(GuiList *dl, const char *name) { dl->figure = gui_dl_intern(dl, name); }

void gui_datum(GuiList *dl, const char *series, double x, double y, const char *label) {
    if (!dl->want_data) return;
    size_t cap = (size_t)dl->capdata;
    size_t s = gui_dl_intern(dl, series), l = label ? gui_dl_intern(dl, label) : SIZE_MAX;
    if (grow(dl, (void **)&dl->data, &cap, (size_t)dl->ndata, 1, sizeof *dl->data)) return;
    dl->capdata = (int)cap;
    dl->data[dl->ndata++] = (GuiDatum){dl->figure, s, l, x, y};
}

double gui_text_w(const GuiList *dl, int size, int mono, const char *s) {
    char drawn[1024];
    if (pl_fig_marked(s)) s = pl_ledger_draw(dl->ledger, s, drawn, sizeof drawn); /* measured as it is drawn */
    return dl->st->measure ? dl->st->measure(dl->st->ctx, dl->st->text[size], mono, s)
                           : 0.6 * dl->st->text[size] * (double)strlen(s);
}

double gui_text_h(const GuiList *dl, int size) {
    return dl->st->height ? dl->st->height(dl->st->ctx, dl->st->text[size], 0) : 1.2 * dl->st->text[size];
}

double gui_px(const GuiList *dl, double units) { return units * dl->st->unit; }

/* The length of s's first line at width w: whole words while they fit
 * (a break after a space), else as many whole characters as fit (at least
 * one); never past a newline. */
static size_t line_len(const GuiList *dl, int size, int mono, const char *s, double w) {
    char buf[1024];
    size_t n = strcspn(s, "\n"), best = 0, chars = 0;
    if (n >= sizeof buf) n = sizeof buf - 1;
    memcpy(buf, s, n), buf[n] = '\0';
    if (gui_text_w(dl, size, mono, buf) <= w) return n;
    for (size_t i = 1; i <= n; i++) {
        if (i < n && ((unsigned char)s[i] & 0xC0) == 0x80) continue; /* whole UTF-8 characters */
        buf[i] = '\0';
        int fits = gui_text_w(dl, size, mono, buf) <= w;
        buf[i] = s[i < n ? i : n];
        if (!fits) break;
        chars = i;
        if (i < n && s[i] == ' ') best = i;
    }
    if (best) return best;
    return chars ? chars : (n ? 1 : 0);
}

/* How far the continuations of the paragraph at s are set in: one that
 * starts with spaces (an item of a list) hangs its later lines two spaces
 * further in than its first, so that a continuation never reads as the next
 * item; none where that would take half the width. */
static double hang_of(const GuiList *dl, int size, int mono, const char *s, double w) {
    size_t lead = strspn(s, " ");
    if (!lead) return 0.0;
    char spaces[64];
    size_t n = lead + 2 < sizeof spaces ? lead + 2 : sizeof spaces - 1;
    memset(spaces, ' ', n), spaces[n] = '\0';
    double hang = gui_text_w(dl, size, mono, spaces);
    return hang > w / 2 ? 0.0 : hang;
}

/* Calls line(ctx, from, len, dx) for each line of s wrapped to w, dx the
 * indent of a hanging continuation; returns the count. */
static int wrap(const GuiList *dl, int size, int mono, const char *s, double w,
                void (*line)(void *ctx, const char *from, size_t len, double dx), void *ctx) {
    int k = 0;
    double hang = hang_of(dl, size, mono, s, w), dx = 0.0;
    while (*s) {
        size_t n = line_len(dl, size, mono, s, w - dx);
        if (line) line(ctx, s, n, dx);
        k++;
        s += n;
        while (*s == ' ') s++;
        dx = hang;
        if (*s == '\n') s++, dx = 0.0, hang = hang_of(dl, size, mono, s, w);
    }
    return k ? k : 1;
}

int gui_wrap_lines(const GuiList *dl, int size, int mono, const char *s, double w) {
    char drawn[1024];
    if (pl_fig_marked(s)) s = pl_ledger_draw(dl->ledger, s, drawn, sizeof drawn);
    return wrap(dl, size, mono, s, w, NULL, NULL);
}

typedef struct {
    GuiList *dl;
    double x, y, lh;
    int size, mono;
    GuiColor c;
    GuiAlign a;
    double widest;
} WrapCtx;

static void wrap_line(void *ctx, const char *from, size_t len, double dx) {
    WrapCtx *c = ctx;
    char buf[1024];
    snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), from);
    if (c->a != GUI_LEFT) dx = 0.0; /* only a left-aligned item hangs */
    double w = text_item(c->dl, c->x + dx, c->y, c->size, c->mono, c->c, c->a, buf) + dx;
    c->widest = w > c->widest ? w : c->widest;
    c->y += c->lh;
}

static double wrap_va(GuiList *dl, double x, double y, double w, int size, int mono, GuiColor c, GuiAlign a,
                      const char *fmt, va_list ap) {
    char raw[1024], buf[1024];
    vsnprintf(raw, sizeof raw, fmt, ap);
    pl_ledger_draw(dl->ledger, raw, buf, sizeof buf);
    WrapCtx ctx = {dl, x, y, gui_text_h(dl, size), size, mono, c, a, 0.0};
    wrap(dl, size, mono, buf, w, wrap_line, &ctx);
    return ctx.y - y;
}

double gui_text_wrap(GuiList *dl, double x, double y, double w, int size, GuiColor c, GuiAlign a, const char *fmt,
                     ...) {
    va_list ap;
    va_start(ap, fmt);
    double h = wrap_va(dl, x, y, w, size, 0, c, a, fmt, ap);
    va_end(ap);
    return h;
}

double gui_text_wrap_mono(GuiList *dl, double x, double y, double w, int size, GuiColor c, GuiAlign a,
                          const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    double h = wrap_va(dl, x, y, w, size, 1, c, a, fmt, ap);
    va_end(ap);
    return h;
}
