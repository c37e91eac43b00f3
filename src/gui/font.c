/* Fonts: fontconfig picks the files (never a path written here), SDL2_ttf
 * opens them at each pixel size asked for, once. */
#include <fontconfig/fontconfig.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "backend.h"

static int match(const char *name, char *out, int cap) {
    FcPattern *pat = FcNameParse((const FcChar8 *)name);
    if (!pat) return -1;
    FcConfigSubstitute(NULL, pat, FcMatchPattern);
    FcDefaultSubstitute(pat);
    FcResult res;
    FcPattern *m = FcFontMatch(NULL, pat, &res);
    FcPatternDestroy(pat);
    FcChar8 *file = NULL;
    int ok = m && FcPatternGetString(m, FC_FILE, 0, &file) == FcResultMatch && file;
    if (ok) snprintf(out, (size_t)cap, "%s", (const char *)file);
    if (m) FcPatternDestroy(m);
    return ok ? 0 : -1;
}

int gui_fonts_init(GuiFonts *f, char *why, int cap) {
    memset(f, 0, sizeof *f);
    if (!FcInit()) return snprintf(why, (size_t)cap, "fontconfig cannot start"), -1;
    if (match("DejaVu Sans", f->path[0], sizeof f->path[0]) ||
        match("DejaVu Sans Mono", f->path[1], sizeof f->path[1])) {
        if (match("monospace", f->path[1], sizeof f->path[1]) || match("sans-serif", f->path[0], sizeof f->path[0])) {
            FcFini();
            return snprintf(why, (size_t)cap, "fontconfig finds no font (install fonts-dejavu-core)"), -1;
        }
    }
    if (TTF_Init() != 0) {
        FcFini();
        return snprintf(why, (size_t)cap, "SDL_ttf cannot start: %s", TTF_GetError()), -1;
    }
    return 0;
}

void gui_fonts_done(GuiFonts *f) {
    for (int i = 0; i < f->nopen; i++) TTF_CloseFont(f->open[i].font);
    f->nopen = 0;
    TTF_Quit();
    FcFini();
}

TTF_Font *gui_font(GuiFonts *f, double px, int mono) {
    int size = (int)lround(px);
    size = size < 4 ? 4 : size;
    for (int i = 0; i < f->nopen; i++)
        if (f->open[i].px == size && f->open[i].mono == mono) return f->open[i].font;
    TTF_Font *font = TTF_OpenFont(f->path[mono != 0], size);
    if (!font) return NULL;
    if (f->nopen == GUI_FONT_CACHE) { /* full: the oldest goes */
        TTF_CloseFont(f->open[0].font);
        memmove(f->open, f->open + 1, sizeof f->open[0] * (GUI_FONT_CACHE - 1));
        f->nopen--;
    }
    f->open[f->nopen].px = size, f->open[f->nopen].mono = mono, f->open[f->nopen].font = font;
    f->nopen++;
    return font;
}

double gui_fonts_measure(void *ctx, double size, int mono, const char *s) {
    TTF_Font *font = gui_font(ctx, size, mono);
    int w = 0, h = 0;
    if (!font || !*s || TTF_SizeUTF8(font, s, &w, &h)) return 0.0;
    return w;
}

double gui_fonts_height(void *ctx, double size, int mono) {
    TTF_Font *font = gui_font(ctx, size, mono);
    return font ? TTF_FontHeight(font) : 1.2 * size;
}
