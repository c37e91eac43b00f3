/* The display list on an SDL renderer: the window's, or a software one over
 * a surface for screenshots. Thick lines are quads (SDL_RenderGeometry),
 * patterns are lines on one grid across the frame so neighbouring cells'
 * hatching lines up, heat grids are one texture each, text is rendered by
 * SDL_ttf once per string, size and colour and kept as a texture. */
#include <math.h>
#include <string.h>

#include "backend.h"

void gui_renderer_init(GuiRenderer *g, SDL_Renderer *r, GuiFonts *f) {
    memset(g, 0, sizeof *g);
    g->r = r, g->fonts = f;
}

void gui_renderer_flush(GuiRenderer *g) {
    for (int i = 0; i < GUI_TEXT_CACHE; i++)
        if (g->text[i].tex) SDL_DestroyTexture(g->text[i].tex), g->text[i].tex = NULL;
    g->ntext = 0;
}

static SDL_Color sdl_color(uint32_t c) {
    return (SDL_Color){(Uint8)(c >> 24), (Uint8)(c >> 16), (Uint8)(c >> 8), (Uint8)c};
}

static void set_color(SDL_Renderer *r, uint32_t c) {
    SDL_SetRenderDrawColor(r, (Uint8)(c >> 24), (Uint8)(c >> 16), (Uint8)(c >> 8), (Uint8)c);
}

/* A segment of width lw as two triangles (1 px and under: a plain line). */
static void segment(SDL_Renderer *r, uint32_t c, double x, double y, double x2, double y2, double lw) {
    if (lw <= 1.25) {
        SDL_RenderDrawLineF(r, (float)x, (float)y, (float)x2, (float)y2);
        return;
    }
    double dx = x2 - x, dy = y2 - y, len = sqrt(dx * dx + dy * dy);
    if (len < 1e-9) return;
    double nx = -dy / len * lw / 2, ny = dx / len * lw / 2;
    SDL_Color col = sdl_color(c);
    SDL_Vertex v[4] = {{{(float)(x + nx), (float)(y + ny)}, col, {0, 0}},
                       {{(float)(x - nx), (float)(y - ny)}, col, {0, 0}},
                       {{(float)(x2 + nx), (float)(y2 + ny)}, col, {0, 0}},
                       {{(float)(x2 - nx), (float)(y2 - ny)}, col, {0, 0}}};
    static const int idx[6] = {0, 1, 2, 1, 3, 2};
    SDL_RenderGeometry(r, NULL, v, 4, idx, 6);
}

/* A polyline, dashed when asked (the phase runs on across its points). */
static void path(SDL_Renderer *r, uint32_t c, const double *xy, int n, double lw, int dash) {
    double on = fmax(6.0, lw * 4), off = fmax(4.0, lw * 2.5), left = on;
    int drawing = 1; /* the dash pattern runs on across the points: in a dash or a gap, and how much of it is left */
    for (int i = 0; i + 1 < n; i++) {
        double x = xy[2 * i], y = xy[2 * i + 1], x2 = xy[2 * i + 2], y2 = xy[2 * i + 3];
        if (!isfinite(x) || !isfinite(y) || !isfinite(x2) || !isfinite(y2)) continue;
        if (!dash) {
            segment(r, c, x, y, x2, y2, lw);
            if (lw > 2.0) { /* a square at the joint hides the notch between two quads */
                SDL_FRect j = {(float)(x2 - lw / 2.5), (float)(y2 - lw / 2.5), (float)(lw / 1.25), (float)(lw / 1.25)};
                SDL_RenderFillRectF(r, &j);
            }
            continue;
        }
        double dx = x2 - x, dy = y2 - y, len = sqrt(dx * dx + dy * dy), at = 0.0;
        while (at < len) {
            double take = fmin(left, len - at);
            if (drawing)
                segment(r, c, x + dx * at / len, y + dy * at / len, x + dx * (at + take) / len,
                        y + dy * (at + take) / len, lw);
            at += take, left -= take;
            if (left <= 1e-9) drawing = !drawing, left = drawing ? on : off;
        }
    }
}

/* The hatching of r: lines x + y = k s (and x - y = k s for a cross), or dots. */
static void pattern(SDL_Renderer *r, GuiRect b, int pat, double s) {
    double x0 = b.x, y0 = b.y, x1 = b.x + b.w, y1 = b.y + b.h;
    if (pat == GUI_PAT_DOTS) {
        for (double y = ceil(y0 / s) * s; y < y1; y += s)
            for (double x = ceil(x0 / s) * s; x < x1; x += s) SDL_RenderDrawPointF(r, (float)x, (float)y);
        return;
    }
    for (double k = ceil((x0 + y0) / s); k * s <= x1 + y1; k++) {
        double c = k * s, xa = fmax(x0, c - y1), xb = fmin(x1, c - y0);
        if (xa < xb) SDL_RenderDrawLineF(r, (float)xa, (float)(c - xa), (float)xb, (float)(c - xb));
    }
    if (pat != GUI_PAT_CROSS) return;
    for (double k = floor((x0 - y1) / s); k * s <= x1 - y0; k++) {
        double c = k * s, xa = fmax(x0, c + y0), xb = fmin(x1, c + y1);
        if (xa < xb) SDL_RenderDrawLineF(r, (float)xa, (float)(xa - c), (float)xb, (float)(xb - c));
    }
}

static uint64_t text_hash(const char *s, double size, int mono, uint32_t c) {
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    h = (h ^ (uint64_t)lround(size * 8)) * 1099511628211ull;
    h = (h ^ (uint64_t)mono) * 1099511628211ull;
    return (h ^ c) * 1099511628211ull;
}

/* The slot of h: where it is, else an empty slot within 8 probes of its
 * home, else its home slot emptied (the string there is rendered again when
 * next drawn). A text is never left undrawn because the cache is full. */
static unsigned text_slot(GuiRenderer *g, uint64_t h) {
    if (g->ntext > GUI_TEXT_CACHE * 3 / 4) gui_renderer_flush(g); /* full enough: start again */
    unsigned home = (unsigned)(h % GUI_TEXT_CACHE), slot = home;
    for (int probe = 0; probe < 8; probe++, slot = (slot + 1) % GUI_TEXT_CACHE)
        if (!g->text[slot].tex || g->text[slot].hash == h) return slot;
    SDL_DestroyTexture(g->text[home].tex), g->text[home].tex = NULL, g->ntext--;
    return home;
}

static void text(GuiRenderer *g, const GuiItem *it, const char *s, uint32_t c) {
    if (!*s) return;
    uint64_t h = text_hash(s, it->size, it->mono, c);
    unsigned slot = text_slot(g, h);
    if (!g->text[slot].tex) {
        TTF_Font *font = gui_font(g->fonts, it->size, it->mono);
        SDL_Surface *surf = font ? TTF_RenderUTF8_Blended(font, s, sdl_color(c)) : NULL;
        if (!surf) return; /* no font or no memory: nothing can draw it */
        g->text[slot].tex = SDL_CreateTextureFromSurface(g->r, surf);
        g->text[slot].w = surf->w, g->text[slot].h = surf->h, g->text[slot].hash = h;
        SDL_FreeSurface(surf);
        if (!g->text[slot].tex) return;
        g->ntext++;
    }
    SDL_FRect d = {(float)round(it->x), (float)round(it->y), (float)g->text[slot].w, (float)g->text[slot].h};
    SDL_RenderCopyF(g->r, g->text[slot].tex, NULL, &d);
}

static void heat(GuiRenderer *g, const GuiList *dl, const GuiItem *it) {
    SDL_RendererInfo info;
    SDL_GetRendererInfo(g->r, &info);
    int maxw = info.max_texture_width > 0 ? info.max_texture_width : 16384,
        maxh = info.max_texture_height > 0 ? info.max_texture_height : 16384;
    int tw = it->cols < maxw ? it->cols : maxw, th = it->rows < maxh ? it->rows : maxh;
    SDL_Texture *t = SDL_CreateTexture(g->r, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_STATIC, tw, th);
    uint32_t *px = t ? malloc((size_t)tw * th * sizeof *px) : NULL;
    if (px) {
        for (int i = 0; i < th; i++)
            for (int j = 0; j < tw; j++) {
                int row = (int)((int64_t)i * it->rows / th), col = (int)((int64_t)j * it->cols / tw);
                uint32_t c = gui_heat_color(dl->st, it->ramp, gui_heat_at(dl, it, row, col), it->lo, it->hi);
                px[(size_t)i * tw + j] = 0xff000000u | (c >> 8);
            }
        SDL_UpdateTexture(t, NULL, px, tw * 4);
        SDL_SetTextureScaleMode(t, SDL_ScaleModeNearest);
        SDL_FRect d = {(float)it->x, (float)it->y, (float)it->w, (float)it->h};
        SDL_RenderCopyF(g->r, t, NULL, &d);
    }
    free(px);
    if (t) SDL_DestroyTexture(t);
}

void gui_render(GuiRenderer *g, const GuiList *dl) {
    SDL_Renderer *r = g->r;
    const GuiStyle *st = dl->st;
    double hatch = fmax(5.0, 6.0 * st->unit);
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);
    set_color(r, gui_color(st, GUI_C_BG));
    SDL_RenderClear(r);
    for (int i = 0; i < dl->n; i++) {
        const GuiItem *it = &dl->items[i];
        uint32_t c = it->color < GUI_C_COUNT ? gui_color(st, it->color) : 0;
        switch (it->kind) {
        case GUI_I_RECT: {
            SDL_FRect f = {(float)it->x, (float)it->y, (float)it->w, (float)it->h};
            if (it->color < GUI_C_COUNT) {
                set_color(r, c);
                SDL_RenderFillRectF(r, &f);
            }
            if (it->pattern) {
                set_color(r, gui_color(st, it->color2));
                pattern(r, (GuiRect){it->x, it->y, it->w, it->h}, it->pattern, hatch);
            }
            break;
        }
        case GUI_I_LINE: {
            double xy[4] = {it->x, it->y, it->x2, it->y2};
            set_color(r, c);
            path(r, c, xy, 2, it->lw, it->dash);
            break;
        }
        case GUI_I_POLY:
            set_color(r, c);
            path(r, c, dl->fl + it->fl, it->cols, it->lw, it->dash);
            break;
        case GUI_I_TEXT: text(g, it, gui_dl_str(dl, it->str), c); break;
        case GUI_I_HEAT: heat(g, dl, it); break;
        default: break;
        }
    }
}
