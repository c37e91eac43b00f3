#include "plot.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

GuiRect gui_inset(GuiRect r, double m) { return (GuiRect){r.x + m, r.y + m, r.w - 2 * m, r.h - 2 * m}; }

void gui_split_for_cats(const GuiList *dl, GuiRect a, double frac, double gap, int ncats, GuiRect *top,
                        GuiRect *bottom) {
    double th = gui_text_h(dl, GUI_SMALL), need = ncats * th * 1.2 + 7 * th, h = a.h * frac - gap;
    if (h < need) h = need;
    *top = (GuiRect){a.x, a.y, a.w, a.h - h - gap};
    *bottom = (GuiRect){a.x, a.y + a.h - h, a.w, h};
}

double gui_plot_need(GuiList *dl, double w, const GuiPlotSpec *sp, double inner) {
    double u = dl->st->unit, th = gui_text_h(dl, GUI_SMALL), lh = gui_text_h(dl, GUI_LARGE), y = 0.0, title_w = 0.0;
    if (sp->title) {
        int lines = gui_wrap_lines(dl, GUI_LARGE, 0, sp->title, w);
        title_w = lines == 1 ? gui_text_w(dl, GUI_LARGE, 0, sp->title) : w;
        y += lines * lh + 2 * u;
    }
    if (sp->nkeys) {
        double lw = gui_legend_width(dl, sp->keys, sp->nkeys);
        if (!(sp->title && w - title_w - 16 * u >= lw)) {
            int rows = 1;
            for (int i = 0, j; i < sp->nkeys; i = j, rows++) {
                double x = 0.0;
                for (j = i; j < sp->nkeys; j++) {
                    double kw = gui_legend_width(dl, sp->keys + j, 1) + (j > i ? 12 * u : 0.0);
                    if (j > i && x + kw > w) break;
                    x += kw;
                }
            }
            y += (lw <= w ? 1 : rows - 1) * (th + 4 * u);
        }
    }
    if (sp->note) y += th * gui_wrap_lines(dl, GUI_SMALL, 0, sp->note, w) + 2 * u;
    if (sp->ylabel && !sp->ncats) y += th + 2 * u;
    return y + th / 2 + th + 4 * u + (sp->xlabel ? th + 2 * u : 0.0) + inner;
}

GuiRect gui_col(GuiRect r, int n, int i, double gap) {
    double w = (r.w - gap * (n - 1)) / n;
    return (GuiRect){r.x + i * (w + gap), r.y, w, r.h};
}

GuiRect gui_row(GuiRect r, int n, int i, double gap) {
    double h = (r.h - gap * (n - 1)) / n;
    return (GuiRect){r.x, r.y + i * (h + gap), r.w, h};
}

const char *gui_num(double v, GuiTickFmt f, char *buf, int cap) {
    double a = fabs(v);
    if (f == GUI_FMT_PCT) snprintf(buf, (size_t)cap, "%.0f%%", 100.0 * v);
    else if (a >= 1e9) snprintf(buf, (size_t)cap, "%.3gG", v / 1e9);
    else if (a >= 1e6) snprintf(buf, (size_t)cap, "%.3gM", v / 1e6);
    else if (a >= 1e4) snprintf(buf, (size_t)cap, "%.3gk", v / 1e3);
    else if (f == GUI_FMT_INT || (a >= 1.0 && v == floor(v))) snprintf(buf, (size_t)cap, "%.0f", v);
    else if (a != 0.0 && a < 1e-3) snprintf(buf, (size_t)cap, "%.0e", v);
    else snprintf(buf, (size_t)cap, "%.3g", v);
    return buf;
}

/* A step of 1, 2 or 5 times a power of ten giving about n ticks over span. */
static double nice_step(double span, int n) {
    double raw = span / (n > 1 ? n : 1), p = pow(10.0, floor(log10(raw))), m = raw / p;
    return (m <= 1.0 ? 1.0 : m <= 2.0 ? 2.0 : m <= 5.0 ? 5.0 : 10.0) * p;
}

double gui_plot_x(const GuiPlot *p, double x) {
    double a = p->x0, b = p->x1;
    if (p->logx) x = log10(x > 1e-300 ? x : 1e-300), a = log10(a), b = log10(b);
    return p->in.x + (b > a ? (x - a) / (b - a) : 0.0) * p->in.w;
}

double gui_plot_y(const GuiPlot *p, double y) {
    double a = p->y0, b = p->y1;
    if (p->logy) y = log10(y > 1e-300 ? y : 1e-300), a = log10(a), b = log10(b);
    return p->in.y + p->in.h - (b > a ? (y - a) / (b - a) : 0.0) * p->in.h;
}

GuiRect gui_plot_cat(const GuiPlot *p, int i) {
    double h = p->in.h / (p->ncats > 0 ? p->ncats : 1);
    return (GuiRect){p->in.x, p->in.y + i * h, p->in.w, h};
}

/* The ticks of an axis: linear ones at nice steps, log ones at powers of ten. */
static int ticks(double a, double b, int logs, int n, int whole, double *out, int max) {
    int k = 0;
    if (logs) {
        for (double e = ceil(log10(a) - 1e-9); e <= log10(b) + 1e-9 && k < max; e++) out[k++] = pow(10.0, e);
        return k;
    }
    double step = nice_step(b - a, n);
    if (whole && step < 1.0) step = 1.0;
    for (double v = ceil(a / step - 1e-9) * step; v <= b + step * 1e-9 && k < max; v += step)
        out[k++] = fabs(v) < step * 1e-9 ? 0.0 : v;
    return k;
}

void gui_plot_begin(GuiList *dl, GuiPlot *p, GuiRect box, const GuiPlotSpec *sp) {
    const GuiStyle *st = dl->st;
    double u = st->unit, pad = 8 * u, th = gui_text_h(dl, GUI_SMALL), lh = gui_text_h(dl, GUI_LARGE);
    memset(p, 0, sizeof *p);
    p->box = box;
    p->x0 = sp->x0, p->x1 = sp->x1 > sp->x0 ? sp->x1 : sp->x0 + 1.0;
    p->y0 = sp->y0, p->y1 = sp->y1 > sp->y0 ? sp->y1 : sp->y0 + 1.0;
    p->logx = sp->logx, p->logy = sp->logy, p->ncats = sp->ncats;
    double y = box.y;
    char buf[256];
    if (sp->title) {
        int one = gui_wrap_lines(dl, GUI_LARGE, 0, sp->title, box.w) == 1;
        p->title_w = one ? gui_text_w(dl, GUI_LARGE, 0, sp->title) : box.w;
        p->legend_y = y + (lh - th) / 2;
        y += gui_text_wrap(dl, box.x, y, box.w, GUI_LARGE, GUI_C_FG, GUI_LEFT, "%s", sp->title) + 2 * u;
    }
    if (sp->nkeys) { /* beside the title, or rows of their own under it */
        double lw = gui_legend_width(dl, sp->keys, sp->nkeys);
        if (sp->title && box.w - p->title_w - 16 * u >= lw)
            gui_legend_at(dl, box.x + box.w - lw, p->legend_y, sp->keys, sp->nkeys);
        else if (lw <= box.w) {
            gui_legend_at(dl, box.x + box.w - lw, y, sp->keys, sp->nkeys);
            y += th + 4 * u;
        } else /* wider than the panel: key by key over as many rows as they need */
            for (int i = 0, j; i < sp->nkeys; i = j) {
                double w = 0.0;
                for (j = i; j < sp->nkeys; j++) {
                    double kw = gui_legend_width(dl, sp->keys + j, 1) + (j > i ? 12 * u : 0.0);
                    if (j > i && w + kw > box.w) break;
                    w += kw;
                }
                gui_legend_at(dl, box.x, y, sp->keys + i, j - i);
                y += th + 4 * u;
            }
    }
    if (sp->note) {
        y += gui_text_wrap(dl, box.x, y, box.w, GUI_SMALL, GUI_C_DIM, GUI_LEFT, "%s", sp->note) + 2 * u;
    }
    if (sp->ylabel && !sp->ncats) {
        gui_text(dl, box.x, y, GUI_SMALL, GUI_C_DIM, GUI_LEFT, "%s", sp->ylabel);
        y += th + 2 * u;
    }
    double yt[32], xt[32];
    int ny = sp->ncats ? 0
                       : ticks(p->y0, p->y1, p->logy, (int)((box.y + box.h - y) / (th * 2.6)) + 1,
                               sp->yfmt == GUI_FMT_INT, yt, 32);
    double left = 0.0;
    for (int i = 0; i < ny; i++) {
        double w = gui_text_w(dl, GUI_SMALL, 0, gui_num(yt[i], sp->yfmt, buf, sizeof buf));
        left = w > left ? w : left;
    }
    for (int i = 0; i < sp->ncats; i++) {
        double w = gui_text_w(dl, GUI_SMALL, 0, sp->ycats[i]);
        left = w > left ? w : left;
    }
    double bottom = th + 4 * u + (sp->xlabel ? th + 2 * u : 0.0);
    p->in = (GuiRect){box.x + left + pad, y + th / 2, box.w - left - pad - 2 * u, box.y + box.h - bottom - y - th / 2};
    if (p->in.h < 10 * u) p->in.h = 10 * u;
    if (p->in.w < 10 * u) p->in.w = 10 * u;
    double lw = u > 1.0 ? u : 1.0;
    int nx = ticks(p->x0, p->x1, p->logx, (int)(p->in.w / (gui_text_w(dl, GUI_SMALL, 0, "0000.0") * 1.8)) + 1,
                   sp->xint || sp->xfmt == GUI_FMT_INT, xt, 32);
    double last_top = 1e300;
    for (int i = 0; i < ny; i++) {
        double py = gui_plot_y(p, yt[i]);
        gui_line(dl, p->in.x, py, p->in.x + p->in.w, py, GUI_C_GRID, lw, 0);
        if (py + th / 2 > last_top) continue; /* a label that would touch the one under it is left out */
        gui_text(dl, p->in.x - 4 * u, py - th / 2, GUI_SMALL, GUI_C_DIM, GUI_RIGHT, "%s",
                 gui_num(yt[i], sp->yfmt, buf, sizeof buf));
        last_top = py - th / 2;
    }
    for (int i = 0; i < sp->ncats; i++) {
        GuiRect c = gui_plot_cat(p, i);
        gui_text(dl, p->in.x - 4 * u, c.y + c.h / 2 - th / 2, GUI_SMALL, GUI_C_FG, GUI_RIGHT, "%s", sp->ycats[i]);
    }
    double last_right = -1e9;
    int xhid = sp->xfigs && pl_ledger_hides(dl->ledger, sp->xfigs, strlen(sp->xfigs));
    for (int i = 0; i < nx; i++) {
        double px = gui_plot_x(p, xt[i]);
        gui_line(dl, px, p->in.y, px, p->in.y + p->in.h, GUI_C_GRID, lw, 0);
        gui_line(dl, px, p->in.y + p->in.h, px, p->in.y + p->in.h + 3 * u, GUI_C_AXIS, lw, 0);
        if (xhid && xt[i] != p->x0) continue; /* the ticks would count the hidden extent */
        const char *t = gui_num(xt[i], sp->xfmt, buf, sizeof buf);
        double w = gui_text_w(dl, GUI_SMALL, 0, t);
        if (px - w / 2 < last_right + 4 * u) continue; /* a label that would touch the last one is left out */
        gui_text(dl, px, p->in.y + p->in.h + 4 * u, GUI_SMALL, GUI_C_DIM, GUI_CENTER, "%s", t);
        last_right = px + w / 2;
    }
    if (xhid) /* the axis's end, as the hidden figure it is */
        gui_text(dl, p->in.x + p->in.w, p->in.y + p->in.h + 4 * u, GUI_SMALL, GUI_C_DIM, GUI_RIGHT, "%s",
                 PL_FIG(sp->xfigs, "%s", gui_num(p->x1, sp->xfmt, buf, sizeof buf)));
    gui_line(dl, p->in.x, p->in.y + p->in.h, p->in.x + p->in.w, p->in.y + p->in.h, GUI_C_AXIS, lw, 0);
    if (!sp->ncats) gui_line(dl, p->in.x, p->in.y, p->in.x, p->in.y + p->in.h, GUI_C_AXIS, lw, 0);
    if (sp->xlabel)
        gui_text(dl, p->in.x + p->in.w, p->in.y + p->in.h + th + 6 * u, GUI_SMALL, GUI_C_DIM, GUI_RIGHT, "%s",
                 sp->xlabel);
    if (!sp->title) p->legend_y = box.y;
}

double gui_legend_width(GuiList *dl, const GuiKey *k, int n) {
    double u = dl->st->unit, sw = 18 * u, gap = 12 * u, total = 0.0;
    for (int i = 0; i < n; i++) total += sw + 4 * u + gui_text_w(dl, GUI_SMALL, 0, k[i].name) + (i ? gap : 0.0);
    return total;
}

void gui_legend_at(GuiList *dl, double x, double y, const GuiKey *k, int n) {
    double u = dl->st->unit, th = gui_text_h(dl, GUI_SMALL), sw = 18 * u, gap = 12 * u;
    for (int i = 0; i < n; i++) {
        double cy = y + th / 2, lw = k[i].lw > 0.0 ? k[i].lw : dl->st->line;
        if (k[i].kind == GUI_KEY_LINE) gui_line(dl, x, cy, x + sw, cy, k[i].color, lw, k[i].dash);
        else if (k[i].kind == GUI_KEY_BOX) {
            gui_rect_pat(dl, (GuiRect){x, y + 2 * u, sw, th - 4 * u}, k[i].color, k[i].pattern, GUI_C_FG);
            gui_frame(dl, (GuiRect){x, y + 2 * u, sw, th - 4 * u}, GUI_C_DIM, u);
        } else gui_line(dl, x + sw / 2, y, x + sw / 2, y + th, k[i].color, lw, k[i].dash);
        x += sw + 4 * u;
        x += gui_text(dl, x, y, GUI_SMALL, GUI_C_FG, GUI_LEFT, "%s", k[i].name) + gap;
    }
}

void gui_legend(GuiList *dl, const GuiPlot *p, const GuiKey *k, int n) {
    double u = dl->st->unit, th = gui_text_h(dl, GUI_SMALL), sw = 18 * u, gap = 12 * u, total = 0.0;
    for (int i = 0; i < n; i++) total += sw + 4 * u + gui_text_w(dl, GUI_SMALL, 0, k[i].name) + (i ? gap : 0.0);
    double x = p->box.x + p->box.w - total, y = p->legend_y;
    if (x < p->box.x + p->title_w + 16 * u) { /* no room beside the title: inside the area, top right, on a backing */
        x = p->in.x + p->in.w - total - 4 * u, y = p->in.y + 4 * u;
        gui_rect(dl, (GuiRect){x - 6 * u, y - 3 * u, total + 8 * u, th + 6 * u}, GUI_C_BG);
        gui_frame(dl, (GuiRect){x - 6 * u, y - 3 * u, total + 8 * u, th + 6 * u}, GUI_C_GRID, u);
    }
    if (x < p->box.x) x = p->box.x;
    for (int i = 0; i < n; i++) {
        double cy = y + th / 2, lw = k[i].lw > 0.0 ? k[i].lw : dl->st->line;
        if (k[i].kind == GUI_KEY_LINE) gui_line(dl, x, cy, x + sw, cy, k[i].color, lw, k[i].dash);
        else if (k[i].kind == GUI_KEY_BOX) {
            gui_rect_pat(dl, (GuiRect){x, y + 2 * u, sw, th - 4 * u}, k[i].color, k[i].pattern, GUI_C_FG);
            gui_frame(dl, (GuiRect){x, y + 2 * u, sw, th - 4 * u}, GUI_C_DIM, u);
        } else gui_line(dl, x + sw / 2, y, x + sw / 2, y + th, k[i].color, lw, k[i].dash);
        x += sw + 4 * u;
        x += gui_text(dl, x, y, GUI_SMALL, GUI_C_FG, GUI_LEFT, "%s", k[i].name) + gap;
    }
}

void gui_plot_vmark(GuiList *dl, const GuiPlot *p, double x, GuiColor c, double lw, int dash, const char *label,
                    int label_row) {
    double px = gui_plot_x(p, x);
    if (px < p->in.x - 0.5 || px > p->in.x + p->in.w + 0.5) return;
    gui_line(dl, px, p->in.y, px, p->in.y + p->in.h, c, lw, dash);
    if (label) gui_plot_vlabel(dl, p, x, c, label, label_row);
}

/* Whether data x is on the plot's area. */
static int on_area(const GuiPlot *p, double px) { return px >= p->in.x - 0.5 && px <= p->in.x + p->in.w + 0.5; }

/* The left edge of a marker's label of width w: right of the line where it
 * fits, else left of it, never out of the area. */
static double vlabel_x(GuiList *dl, const GuiPlot *p, double px, double w) {
    double u = dl->st->unit;
    if (px + 4 * u + w <= p->in.x + p->in.w) return px + 4 * u;
    return fmax(p->in.x + 2 * u, px - 4 * u - w);
}

void gui_plot_vlabel(GuiList *dl, const GuiPlot *p, double x, GuiColor c, const char *label, int label_row) {
    double px = gui_plot_x(p, x), u = dl->st->unit, th = gui_text_h(dl, GUI_SMALL);
    if (!on_area(p, px)) return;
    double w = gui_text_w(dl, GUI_SMALL, 0, label), y = p->in.y + 2 * u + label_row * (th + 2 * u);
    double lx = vlabel_x(dl, p, px, w);
    gui_rect(dl, (GuiRect){lx - 2 * u, y, w + 4 * u, th}, GUI_C_BG);
    gui_text(dl, lx, y, GUI_SMALL, c, GUI_LEFT, "%s", label);
}

#define VLABELS_MAX 8

/* Each label on the first row from first_row on where it meets no label
 * placed before it (its backing and a gap of 4 units), so that labels far
 * apart share a row and fewer bars are covered. */
void gui_plot_vlabels(GuiList *dl, const GuiPlot *p, int n, const double *x, const char *const *label, GuiColor c,
                      int first_row) {
    double u = dl->st->unit, from[VLABELS_MAX], to[VLABELS_MAX];
    int row[VLABELS_MAX], placed = 0;
    for (int i = 0; i < n && i < VLABELS_MAX; i++) {
        double px = gui_plot_x(p, x[i]);
        if (!on_area(p, px)) continue;
        double w = gui_text_w(dl, GUI_SMALL, 0, label[i]), lx = vlabel_x(dl, p, px, w);
        double a = lx - 2 * u, b = lx + w + 2 * u;
        int r = first_row;
        for (int again = 1; again;) {
            again = 0;
            for (int j = 0; j < placed; j++)
                if (row[j] == r && a < to[j] + 4 * u && from[j] < b + 4 * u) r++, again = 1;
        }
        from[placed] = a, to[placed] = b, row[placed++] = r;
        gui_plot_vlabel(dl, p, x[i], c, label[i], r);
    }
}
