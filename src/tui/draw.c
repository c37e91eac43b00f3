#include "draw.h"

#include <curses.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "app/report/report.h"
#include "app/teach/page.h"

/* The screen row of a pane row, or -1 when it is not in view. */
static int screen_row(const TuiPane *p, int row) {
    int y = row < p->fixed ? row : row - p->scroll;
    if (row >= p->fixed && y < p->fixed) return -1;
    return y >= 0 && y < p->box.h ? p->box.y + y : -1;
}

/* The byte offset of the n-th character of s (UTF-8), or its end. */
static size_t skip_chars(const char *s, int n) {
    size_t i = 0;
    for (; s[i] && n > 0; n--)
        for (i++; (s[i] & 0xc0) == 0x80; i++) {
        }
    return i;
}

/* The characters of s, UTF-8 (padlab's glyphs are each one column wide). */
static int count_chars(const char *s) {
    int n = 0;
    for (; *s; s++) n += (*s & 0xc0) != 0x80;
    return n;
}

/* buf, already through the veil, at (row, col) as pane_put puts it. */
static void put_drawn(TuiPane *p, int row, int col, int w, const char *buf) {
    if (row + 1 > p->rows) p->rows = row + 1;
    int len = count_chars(buf);
    if (col + w >= p->box.w) w = len; /* to the end of the text */
    int vis = len < w ? len : w, x = col - p->hscroll, skip = x < 0 ? -x : 0;
    if (col + vis > p->cols) p->cols = col + vis;
    int y = screen_row(p, row);
    if (y < 0 || skip >= vis) return;
    x += skip;
    int show = vis - skip;
    if (x + show > p->box.w) show = p->box.w - x, p->cut = 1;
    if (show <= 0) return;
    tui_put_plain(y, p->box.x + x, show, buf + skip_chars(buf, skip));
}

static void put_va(TuiPane *p, int row, int col, int w, const char *fmt, va_list ap) {
    char raw[2048], buf[2048];
    vsnprintf(raw, sizeof raw, fmt, ap);
    tui_drawn(raw, buf, sizeof buf); /* before the sideways cut, so no part of a hidden figure shows */
    put_drawn(p, row, col, w, buf);
}

void pane_put(TuiPane *p, int row, int col, int w, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    put_va(p, row, col, w, fmt, ap);
    va_end(ap);
}

void pane_putc(TuiPane *p, TuiColor c, int row, int col, int w, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    tui_color(c);
    put_va(p, row, col, w, fmt, ap);
    tui_color_off(c);
    va_end(ap);
}

typedef struct {
    TuiPane *p;
    int row, col, rows;
} Wrap;

static double wrap_measure(void *ctx, const char *s, size_t n) {
    (void)ctx;
    double chars = 0;
    for (size_t i = 0; i < n; i++) chars += (s[i] & 0xc0) != 0x80;
    return chars;
}

static void wrap_line(void *ctx, const char *s, size_t n, int kind, double in) {
    Wrap *w = ctx;
    if (kind == 2) return; /* one paragraph: no empty lines */
    char line[2048];
    snprintf(line, sizeof line, "%.*s", (int)n, s);
    int col = w->col + (kind == 1 ? (int)in : 0);
    put_drawn(w->p, w->row + w->rows++, col, w->p->box.w - col, line);
}

int pane_wrap(TuiPane *p, TuiColor c, int row, int col, const char *fmt, ...) {
    char raw[2048], buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    tui_drawn(raw, buf, sizeof buf); /* the veil first: the lines break where the reader sees spaces */
    Wrap w = {p, row, col, 0};
    int width = p->box.w - col;
    tui_color(c);
    pl_page_wrap(buf, width < 10 ? 10 : width, 2, wrap_measure, wrap_line, &w);
    tui_color_off(c);
    return w.rows ? w.rows : 1;
}

void pane_bar(TuiPane *p, int row, int col, int width, double v, TuiColor c) {
    int full = (int)(v * width + 0.5);
    for (int i = 0; i < width; i++)
        pane_putc(p, c, row, col + i, 1, "%s", i < full ? tui_glyph(TUI_G_BAR) : tui_glyph(TUI_G_EMPTY));
}

void tui_clamp_scroll(TuiPane *p) {
    int body = p->box.h - p->fixed, content = p->rows - p->fixed;
    int most = content > body ? content - body : 0;
    if (p->scroll > most) p->scroll = most;
    if (p->scroll < 0) p->scroll = 0;
    int wide = p->cols > p->box.w ? p->cols - p->box.w : 0;
    if (p->hscroll > wide) p->hscroll = wide;
    if (p->hscroll < 0) p->hscroll = 0;
}

void tui_sideways_mark(TuiPane *p) {
    if (!p->cut && !p->hscroll) return;
    char m[40];
    int n = snprintf(m, sizeof m, " < > sideways: %d/%d ", p->hscroll, p->cols > p->box.w ? p->cols - p->box.w : 0);
    if (n >= p->box.w) return;
    tui_color(TUI_WARN);
    tui_put(p->box.y, p->box.x + p->box.w - n, n, "%s", m);
    tui_color_off(TUI_WARN);
}

static void count_line(void *ctx, const char *s, size_t n, int kind, double in) {
    (void)s, (void)n, (void)in;
    *(int *)ctx += kind != 2;
}

/* The rows pane_wrap would give raw (one at least). */
static int wrap_rows(const TuiPane *p, const char *raw) {
    char buf[2048];
    tui_drawn(raw, buf, sizeof buf);
    int rows = 0;
    pl_page_wrap(buf, p->box.w < 10 ? 10 : p->box.w, 2, wrap_measure, count_line, &rows);
    return rows ? rows : 1;
}

int tui_header(TuiPane *p, const char *title, const char *source, const char *look, const PlResultStatus *st,
               int have) {
    p->fixed = p->box.h; /* every row of the header stays put */
    pane_putc(p, TUI_GOOD, 0, 0, p->box.w, "%s", title);
    if (st && st->stale && have) pane_putc(p, TUI_WARN, 0, p->box.w - 10, 10, " updating ");
    char line[1200];
    snprintf(line, sizeof line, "%s %s", tui_glyph(TUI_G_LOOK), look);
    /* the source and the look wrap where the view keeps two rows under them; in a pane too short for that
     * they take a row each, the rest read sideways (< >), so that the view's own lines stay in sight */
    int wrap = 1 + (*source ? wrap_rows(p, source) : 1) + wrap_rows(p, line) + 2 <= p->box.h, row = 1;
    if (!*source) row++;
    else if (wrap) row += pane_wrap(p, TUI_DIM, row, 0, "%s", source);
    else pane_putc(p, TUI_DIM, row++, 0, p->box.w, "%s", source);
    if (wrap) row += pane_wrap(p, TUI_NORMAL, row, 0, "%s", line);
    else pane_put(p, row++, 0, p->box.w, "%s", line);
    p->fixed = row;
    if (have) return 1;
    if (st && st->error) pane_wrap(p, TUI_WARN, row, 0, "cannot compute this view: %s", st->error);
    else pane_putc(p, TUI_DIM, row, 0, p->box.w, "computing...");
    return 0;
}

const char *tui_source(const PlResultInfo *in, unsigned what, char *buf, int cap) {
    char w[600], where[96];
    PlReportOpts o = {0};
    int n = 0, weights = (what & TUI_SRC_WEIGHTS) != 0;
    buf[0] = '\0';
    if (!in) return buf;
    if (weights) pl_report_weights(in, &o, w, sizeof w);
    if (weights && in->unread_run) { /* why the weights are fresh leads, where 80 columns keep it */
        n += snprintf(buf, (size_t)cap, "%s; ", w);
        weights = 0;
    }
    int lead = n; /* what follows the leading reason needs no separator */
    const char *strategy = pl_batching_name((PlBatching)in->settings.batching);
    snprintf(where, sizeof where, "%s batch %d/%d", strategy, in->batch_index + 1, in->batches);
    if ((what & TUI_SRC_BATCH) && n < cap) {
        if (in->packed)
            n += snprintf(buf + n, (size_t)(cap - n), "packed batch %d/%d: %d review%s in one row of %d tokens",
                          in->batch_index + 1, in->batches, in->batch_rows, in->batch_rows == 1 ? "" : "s", in->width);
        else
            n += snprintf(buf + n, (size_t)(cap - n), "%s: %s x %s", where,
                          PL_FIG("batch.rows", "%d row%s", in->batch_rows, in->batch_rows == 1 ? "" : "s"),
                          PL_FIG("batch.width", "%d", in->width));
    }
    if ((what & (TUI_SRC_FOCUS | TUI_SRC_EXAMPLE)) && n < cap) {
        const char *sep = n > lead ? "; " : "";
        if (in->packed)
            n += snprintf(buf + n, (size_t)(cap - n), "%sex %d alone, %s tokens (%s)", sep, in->rows[0],
                          PL_FIG("batch.close_up_width", "%d", in->focus_width), where);
        else if ((what & TUI_SRC_FOCUS) && in->nrows > 1)
            n += snprintf(buf + n, (size_t)(cap - n), "%sex %d + %d mates, width %s (%s)", sep, in->rows[0],
                          in->nrows - 1, PL_FIG("batch.close_up_width", "%d", in->focus_width), where);
        else
            n += snprintf(buf + n, (size_t)(cap - n), "%sex %d, width %s (%s)", sep, in->rows[0],
                          PL_FIG("batch.close_up_width", "%d", in->focus_width), where);
    }
    if (weights && n < cap) snprintf(buf + n, (size_t)(cap - n), "%s%s", n > lead ? "; " : "", w);
    return buf;
}

void tui_cells(TuiPane *p, int row, int col, int w, const uint8_t *mask, int T) {
    int cols = T < w ? T : w;
    for (int c = 0; c < cols; c++) {
        int a = (int)((int64_t)c * T / cols), z = (int)((int64_t)(c + 1) * T / cols), real = 0, pad = 0;
        for (int t = a; t < z; t++) real += mask[t] != 0, pad += mask[t] == 0;
        TuiColor color = pad && !real ? TUI_PAD : TUI_REAL;
        const char *g = pad && real ? tui_glyph(TUI_G_MIXED) : real ? tui_glyph(TUI_G_REAL) : tui_glyph(TUI_G_PAD);
        pane_putc(p, color, row, col + c, 1, "%s", g);
    }
}

int tui_chart_col(int i, int n, int w) { return n > 1 ? (int)(((int64_t)i * (w - 1) + (n - 1) / 2) / (n - 1)) : 0; }

/* One column of the chart: the step it samples, shaded when that is a pad,
 * the rule when it holds the marked step, then the points (b first, so a
 * shows on top). */
static void chart_column(TuiPane *p, int row, int col, int c, int w, int h, const TuiChart *ch) {
    int n = ch->n, i = n > 1 ? (int)((int64_t)c * (n - 1) / (w - 1)) : 0;
    int pad = ch->strip && !ch->strip[i], rule = ch->mark >= 0 && c == tui_chart_col(ch->mark, n, w);
    if (ch->strip)
        pane_putc(p, pad ? TUI_PAD : TUI_REAL, row + h, col + c, 1, "%s",
                  pad ? tui_glyph(TUI_G_PAD) : tui_glyph(TUI_G_REAL));
    for (int r = 0; r < h && (pad || rule); r++)
        pane_putc(p, rule ? TUI_GOOD : TUI_DIM, row + r, col + c, 1, "%s",
                  rule ? tui_glyph(TUI_G_VRULE) : tui_glyph(TUI_G_PAD));
    for (int s = 1; s >= 0; s--) {
        const float *v = s ? ch->b : ch->a;
        if (!v) continue;
        double f = ((double)v[i] - ch->lo) / (ch->hi - ch->lo);
        if (!isfinite(f)) continue;
        f = f < 0 ? 0 : f > 1 ? 1 : f;
        int r = h - 1 - (int)(f * (h - 1) + 0.5);
        pane_putc(p, s ? TUI_PAD : TUI_REAL, row + r, col + c, 1, "%s", tui_glyph(s ? TUI_G_POINT2 : TUI_G_POINT));
    }
}

void tui_chart(TuiPane *p, int row, int col, int w, int h, const TuiChart *c) {
    if (w < 2 || h < 2 || c->n < 1) return;
    for (int x = 0; x < w; x++) chart_column(p, row, col, x, w, h, c);
}
