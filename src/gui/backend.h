/* The back ends of the display list and what they need: fonts found
 * through fontconfig and opened with SDL2_ttf, the SDL renderer (a window's
 * or a software one on a surface), the PNG writer and the SVG writer. The
 * files that include this are the only ones that see SDL. */
#ifndef PL_GUI_BACKEND_H
#define PL_GUI_BACKEND_H

#include <SDL.h>
#include <SDL_ttf.h>

#include "dl.h"

/* ---- fonts (font.c) ---- */

#define GUI_FONT_CACHE 24
#define GUI_TEXT_CACHE 1024

typedef struct {
    char path[2][1024]; /* sans, mono: the files fontconfig matched */
    struct {
        int px, mono;
        TTF_Font *font;
    } open[GUI_FONT_CACHE];
    int nopen;
} GuiFonts;

/* Finds the fonts ("DejaVu Sans", "monospace") and starts SDL_ttf. Returns
 * 0, or -1 with why. */
int gui_fonts_init(GuiFonts *f, char *why, int cap);
void gui_fonts_done(GuiFonts *f);
/* The font at px pixels (NULL when it cannot be opened). */
TTF_Font *gui_font(GuiFonts *f, double px, int mono);
/* GuiStyle's measure and height, with a GuiFonts as ctx. */
double gui_fonts_measure(void *ctx, double size, int mono, const char *s);
double gui_fonts_height(void *ctx, double size, int mono);

/* ---- the renderer (render.c) ---- */

typedef struct {
    SDL_Renderer *r;
    GuiFonts *fonts;
    struct {
        uint64_t hash;
        SDL_Texture *tex;
        int w, h;
    } text[GUI_TEXT_CACHE];
    int ntext;
} GuiRenderer;

void gui_renderer_init(GuiRenderer *g, SDL_Renderer *r, GuiFonts *f);
/* Frees the text textures (before the renderer goes, or on a theme change). */
void gui_renderer_flush(GuiRenderer *g);
/* Draws the list (background first). */
void gui_render(GuiRenderer *g, const GuiList *dl);

/* ---- files (png.c, svg.c) ---- */

/* Writes pixels (w x h, 0xAARRGGBB, stride bytes a row) as an RGB PNG.
 * Returns 0, or -1 with why. */
int gui_png_write(const char *path, const uint32_t *px, int w, int h, int stride, char *why, int cap);
/* The same into a new buffer (*out, *len; free with free). */
int gui_png_encode(const uint32_t *px, int w, int h, int stride, unsigned char **out, size_t *len);
/* Reads a PNG as 0xAARRGGBB pixels into a new buffer; NULL on failure. */
uint32_t *gui_png_read(const char *path, int *w, int *h);

/* Writes the list as an SVG document. Returns 0, or -1 with why. */
int gui_svg_write(const char *path, const GuiList *dl, char *why, int cap);
/* The same as a new file: an existing name (a file, a link, anything) is
 * never written through or replaced: -1 with *taken = 1. */
int gui_svg_write_new(const char *path, const GuiList *dl, int *taken, char *why, int cap);
/* Writes the list's data rows as CSV (figure,series,x,y,label). */
int gui_csv_write(const char *path, const GuiList *dl, char *why, int cap);

#endif
