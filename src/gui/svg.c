/* The display list as SVG: the same items the window draws, one element
 * each, colours resolved through the theme, patterns as <pattern>s on the
 * same grid, heat grids as embedded PNG images, tooltips as <title>s, and
 * every series named (data-series) so a script can find it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "app/report/out.h"
#include "core/atomic.h"

static void esc(FILE *f, const char *s) {
    for (; *s; s++) {
        if (*s == '<') fputs("&lt;", f);
        else if (*s == '>') fputs("&gt;", f);
        else if (*s == '&') fputs("&amp;", f);
        else if (*s == '"') fputs("&quot;", f);
        else if ((unsigned char)*s < 0x20) fputc(' ', f);
        else fputc(*s, f);
    }
}

static void hex(FILE *f, uint32_t c) { fprintf(f, "#%06x", (unsigned)(c >> 8)); }

static void b64(FILE *f, const unsigned char *p, size_t n) {
    static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);
        fputc(t[v >> 18 & 63], f), fputc(t[v >> 12 & 63], f);
        fputc(i + 1 < n ? t[v >> 6 & 63] : '=', f), fputc(i + 2 < n ? t[v & 63] : '=', f);
    }
}

static void dash(FILE *f, const GuiItem *it) {
    if (it->dash) fprintf(f, " stroke-dasharray=\"%.1f %.1f\"", fmax(6.0, it->lw * 4), fmax(4.0, it->lw * 2.5));
}

static void tag(FILE *f, const GuiList *dl, const GuiItem *it) {
    if (it->tag == SIZE_MAX) return;
    fputs(" data-tag=\"", f);
    esc(f, gui_dl_str(dl, it->tag));
    fputc('"', f);
}

static void heat(FILE *f, const GuiList *dl, const GuiItem *it) {
    uint32_t *px = malloc((size_t)it->cols * it->rows * sizeof *px);
    unsigned char *png = NULL;
    size_t len = 0;
    if (px) {
        for (int i = 0; i < it->rows; i++)
            for (int j = 0; j < it->cols; j++)
                px[(size_t)i * it->cols + j] =
                    0xff000000u | (gui_heat_color(dl->st, it->ramp, gui_heat_at(dl, it, i, j), it->lo, it->hi) >> 8);
        if (gui_png_encode(px, it->cols, it->rows, it->cols * 4, &png, &len)) png = NULL;
    }
    if (png) {
        fprintf(f,
                "<image x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
                "preserveAspectRatio=\"none\" style=\"image-rendering:pixelated\"",
                it->x, it->y, it->w, it->h);
        tag(f, dl, it);
        fputs(" href=\"data:image/png;base64,", f);
        b64(f, png, len);
        fputs("\"/>\n", f);
    }
    free(px), free(png);
}

/* The whole document into f. */
static void write_svg(FILE *f, const GuiList *dl) {
    const GuiStyle *st = dl->st;
    double s = fmax(5.0, 6.0 * st->unit);
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
            "font-family=\"DejaVu Sans, sans-serif\">\n",
            dl->W, dl->H, dl->W, dl->H);
    fprintf(f, "<defs>\n");
    for (int c = 0; c < GUI_C_COUNT; c++) { /* a hatch and a cross per colour */
        fprintf(f,
                "<pattern id=\"h%d\" patternUnits=\"userSpaceOnUse\" width=\"%.2f\" height=\"%.2f\">"
                "<path d=\"M0 %.2f L%.2f 0\" stroke=\"",
                c, s, s, s, s);
        hex(f, gui_color(st, (GuiColor)c));
        fprintf(f, "\" stroke-width=\"1\"/></pattern>\n");
        fprintf(f,
                "<pattern id=\"x%d\" patternUnits=\"userSpaceOnUse\" width=\"%.2f\" height=\"%.2f\">"
                "<path d=\"M0 %.2f L%.2f 0 M0 0 L%.2f %.2f\" stroke=\"",
                c, s, s, s, s, s, s);
        hex(f, gui_color(st, (GuiColor)c));
        fprintf(f, "\" stroke-width=\"1\"/></pattern>\n");
        fprintf(f,
                "<pattern id=\"d%d\" patternUnits=\"userSpaceOnUse\" width=\"%.2f\" height=\"%.2f\">"
                "<rect width=\"1\" height=\"1\" fill=\"",
                c, s, s);
        hex(f, gui_color(st, (GuiColor)c));
        fprintf(f, "\"/></pattern>\n");
    }
    fprintf(f, "</defs>\n<rect width=\"100%%\" height=\"100%%\" fill=\"");
    hex(f, gui_color(st, GUI_C_BG));
    fprintf(f, "\"/>\n");
    for (int i = 0; i < dl->n; i++) {
        const GuiItem *it = &dl->items[i];
        switch (it->kind) {
        case GUI_I_RECT:
            if (it->color < GUI_C_COUNT) {
                fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"", it->x, it->y, it->w,
                        it->h);
                hex(f, gui_color(st, it->color));
                fputc('"', f);
                tag(f, dl, it);
                fputs("/>\n", f);
            }
            if (it->pattern)
                fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"url(#%c%d)\"/>\n", it->x,
                        it->y, it->w, it->h,
                        it->pattern == GUI_PAT_HATCH   ? 'h'
                        : it->pattern == GUI_PAT_CROSS ? 'x'
                                                       : 'd',
                        it->color2);
            break;
        case GUI_I_LINE:
            fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"", it->x, it->y, it->x2, it->y2);
            hex(f, gui_color(st, it->color));
            fprintf(f, "\" stroke-width=\"%.2f\"", it->lw);
            dash(f, it);
            tag(f, dl, it);
            fputs("/>\n", f);
            break;
        case GUI_I_POLY:
            fputs("<polyline fill=\"none\" stroke-linejoin=\"round\" stroke=\"", f);
            hex(f, gui_color(st, it->color));
            fprintf(f, "\" stroke-width=\"%.2f\"", it->lw);
            dash(f, it);
            if (it->str != SIZE_MAX) {
                fputs(" data-series=\"", f);
                esc(f, gui_dl_str(dl, it->str));
                fputc('"', f);
            }
            fputs(" points=\"", f);
            for (int k = 0; k < it->cols; k++) {
                double x = dl->fl[it->fl + 2 * (size_t)k], y = dl->fl[it->fl + 2 * (size_t)k + 1];
                if (isfinite(x) && isfinite(y)) fprintf(f, "%s%.2f,%.2f", k ? " " : "", x, y);
            }
            fputs("\"/>\n", f);
            break;
        case GUI_I_TEXT:
            /* the size the text was measured at: the fonts open at whole pixels (font.c) */
            fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"%ld\"%s fill=\"", it->x, it->y + it->h * 0.797,
                    lround(it->size), it->mono ? " font-family=\"DejaVu Sans Mono, monospace\" xml:space=\"preserve\"" : "");
            hex(f, gui_color(st, it->color));
            fputc('"', f);
            tag(f, dl, it);
            fputc('>', f);
            esc(f, gui_dl_str(dl, it->str));
            fputs("</text>\n", f);
            break;
        case GUI_I_HEAT: heat(f, dl, it); break;
        case GUI_I_TITLE:
            fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"transparent\"><title>", it->x,
                    it->y, it->w, it->h);
            esc(f, gui_dl_str(dl, it->str));
            fputs("</title></rect>\n", f);
            break;
        default: break;
        }
    }
    fputs("</svg>\n", f);
}

/* Commits a, or says why not into why. Returns 0 or -1. */
static int commit(PlAtomic *a, char *why, int cap) {
    PlErr err;
    if (pl_atomic_commit(a, &err) == PL_OK) return 0;
    snprintf(why, (size_t)cap, "%s", err.msg);
    return -1;
}

int gui_svg_write(const char *path, const GuiList *dl, char *why, int cap) {
    PlAtomic a;
    PlErr err;
    if (pl_atomic_open(&a, path, 0, &err)) return snprintf(why, (size_t)cap, "%s", err.msg), -1;
    write_svg(a.f, dl);
    return commit(&a, why, cap);
}

static int write_svg_to(FILE *f, void *dl) {
    write_svg(f, dl);
    return ferror(f) ? -1 : 0;
}

int gui_svg_write_new(const char *path, const GuiList *dl, int *taken, char *why, int cap) {
    PlErr err;
    if (pl_write_atomic_new(path, write_svg_to, (void *)dl, taken, &err) == PL_OK) return 0;
    snprintf(why, (size_t)cap, "%s", err.msg);
    return -1;
}

int gui_csv_write(const char *path, const GuiList *dl, char *why, int cap) {
    PlAtomic a;
    PlErr err;
    if (pl_atomic_open(&a, path, 0, &err)) return snprintf(why, (size_t)cap, "%s", err.msg), -1;
    FILE *f = a.f;
    fputs("figure,series,x,y,label\n", f);
    for (int i = 0; i < dl->ndata; i++) {
        const GuiDatum *d = &dl->data[i];
        out_csv_cell(f, gui_dl_str(dl, d->figure));
        fputc(',', f);
        out_csv_cell(f, gui_dl_str(dl, d->series));
        fprintf(f, ",%.10g,%.10g,", d->x, d->y);
        out_csv_cell(f, gui_dl_str(dl, d->label));
        fputc('\n', f);
    }
    return commit(&a, why, cap);
}
