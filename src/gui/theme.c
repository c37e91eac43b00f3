/* Colours by meaning, for the light and the dark theme, in the
 * colour-blind-safe palette (Okabe and Ito's eight colours; ramps that stay
 * ordered in lightness) or the classic one. Projector mode turns the
 * contrast up: pure background, pure foreground, no mid-grey text. Pads are
 * never told by colour alone: their cells are hatched as well. */
#include <math.h>

#include "dl.h"
#include "gui.h"

/* [dark][classic][colour] */
static const uint32_t palette[2][2][GUI_C_COUNT] = {
    [0][0] =
        {
            [GUI_C_BG] = 0xffffffff,        [GUI_C_PANEL] = 0xf3f4f6ff,  [GUI_C_FG] = 0x1a1a1aff,
            [GUI_C_DIM] = 0x5f6368ff,       [GUI_C_GRID] = 0xe3e5e8ff,   [GUI_C_AXIS] = 0x3c4043ff,
            [GUI_C_REAL] = 0x0072b2ff,      [GUI_C_REAL2] = 0x56b4e9ff,  [GUI_C_PAD] = 0xd9d9d9ff,
            [GUI_C_TRUNC] = 0xd55e00ff,     [GUI_C_MARK] = 0xd55e00ff,   [GUI_C_SEL] = 0xcc79a7ff,
            [GUI_C_GOOD] = 0x009e73ff,      [GUI_C_WARN] = 0xd55e00ff,   [GUI_C_NEGINF] = 0x7f7f7fff,
            [GUI_C_S1] = 0x0072b2ff,        [GUI_C_S2] = 0xe69f00ff,     [GUI_C_S3] = 0x009e73ff,
            [GUI_C_S4] = 0xcc79a7ff,        [GUI_C_MEDIAN] = 0x000000ff, [GUI_C_BUTTON] = 0xe8eaedff,
            [GUI_C_BUTTON_ON] = 0x0072b2ff, [GUI_C_TIP] = 0xfffbe6ff,
        },
    [0][1] =
        {
            [GUI_C_BG] = 0xffffffff,        [GUI_C_PANEL] = 0xf3f4f6ff,  [GUI_C_FG] = 0x1a1a1aff,
            [GUI_C_DIM] = 0x5f6368ff,       [GUI_C_GRID] = 0xe3e5e8ff,   [GUI_C_AXIS] = 0x3c4043ff,
            [GUI_C_REAL] = 0x2ca02cff,      [GUI_C_REAL2] = 0x98df8aff,  [GUI_C_PAD] = 0xd9d9d9ff,
            [GUI_C_TRUNC] = 0xd62728ff,     [GUI_C_MARK] = 0xd62728ff,   [GUI_C_SEL] = 0xff7f0eff,
            [GUI_C_GOOD] = 0x2ca02cff,      [GUI_C_WARN] = 0xd62728ff,   [GUI_C_NEGINF] = 0x7f7f7fff,
            [GUI_C_S1] = 0x1f77b4ff,        [GUI_C_S2] = 0xff7f0eff,     [GUI_C_S3] = 0x2ca02cff,
            [GUI_C_S4] = 0x9467bdff,        [GUI_C_MEDIAN] = 0x000000ff, [GUI_C_BUTTON] = 0xe8eaedff,
            [GUI_C_BUTTON_ON] = 0x1f77b4ff, [GUI_C_TIP] = 0xfffbe6ff,
        },
    [1][0] =
        {
            [GUI_C_BG] = 0x15171aff,        [GUI_C_PANEL] = 0x22252aff,  [GUI_C_FG] = 0xe8eaedff,
            [GUI_C_DIM] = 0x9aa0a6ff,       [GUI_C_GRID] = 0x30343aff,   [GUI_C_AXIS] = 0xbdc1c6ff,
            [GUI_C_REAL] = 0x56b4e9ff,      [GUI_C_REAL2] = 0x0072b2ff,  [GUI_C_PAD] = 0x3c4043ff,
            [GUI_C_TRUNC] = 0xe69f00ff,     [GUI_C_MARK] = 0xf0e442ff,   [GUI_C_SEL] = 0xcc79a7ff,
            [GUI_C_GOOD] = 0x009e73ff,      [GUI_C_WARN] = 0xe69f00ff,   [GUI_C_NEGINF] = 0x9aa0a6ff,
            [GUI_C_S1] = 0x56b4e9ff,        [GUI_C_S2] = 0xe69f00ff,     [GUI_C_S3] = 0x009e73ff,
            [GUI_C_S4] = 0xcc79a7ff,        [GUI_C_MEDIAN] = 0xffffffff, [GUI_C_BUTTON] = 0x30343aff,
            [GUI_C_BUTTON_ON] = 0x56b4e9ff, [GUI_C_TIP] = 0x3c4043ff,
        },
    [1][1] =
        {
            [GUI_C_BG] = 0x15171aff,        [GUI_C_PANEL] = 0x22252aff,  [GUI_C_FG] = 0xe8eaedff,
            [GUI_C_DIM] = 0x9aa0a6ff,       [GUI_C_GRID] = 0x30343aff,   [GUI_C_AXIS] = 0xbdc1c6ff,
            [GUI_C_REAL] = 0x2ca02cff,      [GUI_C_REAL2] = 0x98df8aff,  [GUI_C_PAD] = 0x3c4043ff,
            [GUI_C_TRUNC] = 0xff6b6bff,     [GUI_C_MARK] = 0xff6b6bff,   [GUI_C_SEL] = 0xffbb78ff,
            [GUI_C_GOOD] = 0x2ca02cff,      [GUI_C_WARN] = 0xff6b6bff,   [GUI_C_NEGINF] = 0x9aa0a6ff,
            [GUI_C_S1] = 0x4fa3e0ff,        [GUI_C_S2] = 0xff9f40ff,     [GUI_C_S3] = 0x4cc94cff,
            [GUI_C_S4] = 0xb48ee0ff,        [GUI_C_MEDIAN] = 0xffffffff, [GUI_C_BUTTON] = 0x30343aff,
            [GUI_C_BUTTON_ON] = 0x4fa3e0ff, [GUI_C_TIP] = 0x3c4043ff,
        },
};

/* Ramps as five stops, from the value at 0 to the value at 1: [dark][classic][ramp][stop]. The
 * sequential ramps start at the background's lightness, so a zero weight reads as nothing. */
static const uint32_t ramps[2][2][2][5] = {
    [0][0] = {{0xf7fbffff, 0xc6dbefff, 0x6baed6ff, 0x2171b5ff, 0x08306bff},  /* blues */
              {0x2166acff, 0x92c5deff, 0xf7f7f7ff, 0xfdb863ff, 0xb35806ff}}, /* blue-orange */
    [0][1] = {{0xfff5f0ff, 0xfcbba1ff, 0xfb6a4aff, 0xcb181dff, 0x67000dff},  /* reds */
              {0x2166acff, 0x92c5deff, 0xf7f7f7ff, 0xf4a582ff, 0xb2182bff}}, /* blue-red */
    [1][0] = {{0x000004ff, 0x420a68ff, 0x932667ff, 0xdd513aff, 0xfcffa4ff},  /* inferno */
              {0x5ab4e5ff, 0x1f5f8bff, 0x101010ff, 0x8c5a13ff, 0xf2a93bff}},
    [1][1] = {{0x000000ff, 0x3b0f70ff, 0x8c2981ff, 0xde4968ff, 0xfcfdbfff}, /* magma */
              {0x4393c3ff, 0x1c4f7aff, 0x101010ff, 0x8a2c2cff, 0xd6604dff}},
};

uint32_t gui_color(const GuiStyle *st, GuiColor c) {
    uint32_t v = palette[st->dark != 0][st->classic != 0][c];
    if (st->present) { /* projector: pure background and foreground, dim text as strong as the rest */
        if (c == GUI_C_BG) v = st->dark ? 0x000000ff : 0xffffffff;
        if (c == GUI_C_FG || c == GUI_C_DIM || c == GUI_C_AXIS) v = st->dark ? 0xffffffff : 0x000000ff;
        if (c == GUI_C_GRID) v = st->dark ? 0x3a3a3aff : 0xd0d0d0ff;
    }
    return v;
}

static uint32_t mix(uint32_t a, uint32_t b, double t) {
    uint32_t out = 0xff;
    for (int s = 24; s >= 8; s -= 8) {
        double x = (double)((a >> s) & 0xff), y = (double)((b >> s) & 0xff);
        out |= (uint32_t)lround(x + (y - x) * t) << s;
    }
    return out;
}

uint32_t gui_ramp(const GuiStyle *st, GuiRamp r, double t) {
    const uint32_t *stop = ramps[st->dark != 0][st->classic != 0][r];
    t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
    double at = t * 4.0;
    int i = (int)at;
    if (i >= 4) return stop[4];
    return mix(stop[i], stop[i + 1], at - i);
}

uint32_t gui_heat_color(const GuiStyle *st, GuiRamp r, double v, double lo, double hi) {
    if (isnan(v)) return gui_color(st, GUI_C_BG);
    return gui_ramp(st, r, hi > lo ? (v - lo) / (hi - lo) : 0.0);
}

void gui_style_for(GuiStyle *s, const GuiLook *look, int W, int H, double dpi) {
    double u = dpi;
    if (look->present) u *= fmax(1.5, fmin(W / 1280.0 / dpi, H / 800.0 / dpi) * 1.6);
    /* Below GUI_FULL_W x GUI_FULL_H (an old 800x600 projector, a small
     * window) everything shrinks by the same factor: the frame is then the
     * one a frame of the full size would be, smaller, so nothing that holds
     * there is cut or drawn over here. */
    u *= fmin(1.0, fmin(W / (GUI_FULL_W * dpi), H / (GUI_FULL_H * dpi)));
    s->unit = u;
    s->text[GUI_SMALL] = 12 * u, s->text[GUI_NORMAL] = 14 * u, s->text[GUI_LARGE] = 16 * u, s->text[GUI_TITLE] = 20 * u;
    s->line = (look->present ? 2.5 : 2.0) * u;
    s->present = look->present, s->dark = look->dark, s->classic = look->classic;
}
