#include "chrome.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "keys.h"

static double button(GuiList *dl, double x, double y, double h, const char *text, int on, int action, int arg,
                     int flash) {
    double u = dl->st->unit, w = gui_text_w(dl, GUI_NORMAL, 0, text) + 14 * u;
    GuiRect r = {x, y, w, h};
    gui_rect(dl, r, on ? GUI_C_BUTTON_ON : GUI_C_BUTTON);
    if (flash) gui_frame(dl, r, GUI_C_SEL, 2 * u);
    gui_text(dl, x + 7 * u, y + (h - gui_text_h(dl, GUI_NORMAL)) / 2, GUI_NORMAL, on ? GUI_C_BG : GUI_C_FG, GUI_LEFT,
             "%s", text);
    if (action) gui_hit(dl, r, action, arg);
    return w;
}

/* The width a setting's control takes (for wrapping), drawn when draw. */
static double control(GuiList *dl, PlLab *lab, int id, double x, double y, double h, const GuiChromeState *cs,
                      int draw) {
    const PlSettingDef *d = &pl_settings[id];
    const PlLabSettings *s = pl_lab_settings(lab);
    double u = dl->st->unit, x0 = x, gap = 3 * u;
    char label[64], v[600];
    int locked = (pl_lab_locked(lab) & PL_S_BIT(id)) != 0;
    snprintf(label, sizeof label, "%s%s%s", d->name, d->cold ? "*" : "", locked ? " (locked)" : "");
    int flash = (cs->flash & PL_S_BIT(id)) != 0;
    double lw = gui_text_w(dl, GUI_SMALL, 0, label) + 5 * u;
    if (draw) {
        gui_text(dl, x, y + (h - gui_text_h(dl, GUI_SMALL)) / 2, GUI_SMALL,
                 flash    ? GUI_C_SEL
                 : locked ? GUI_C_WARN
                          : GUI_C_DIM,
                 GUI_LEFT, "%s", label);
        char help[300];
        snprintf(help, sizeof help, "%s: %s%s%s", d->name, d->help, d->cold ? " (cold: a change retrains)" : "",
                 locked ? "; locked by the lesson" : "");
        gui_hover(dl, (GuiRect){x, y, lw, h}, "%s", help);
    }
    x += lw;
    if (d->type == PL_ST_TEXT) {
        pl_setting_format(s, (PlSettingId)id, v, sizeof v);
        char fit[200];
        pl_corpus_label(v, fit, sizeof fit); /* the one text control is the corpus */
        if (draw) return x - x0 + button(dl, x, y, h, fit, 0, 0, 0, flash);
        return x - x0 + gui_text_w(dl, GUI_NORMAL, 0, fit) + 14 * u;
    }
    int nvalues = 0;
    if (d->type == PL_ST_CHOICE)
        while (d->names[nvalues]) nvalues++;
    if (d->type == PL_ST_CHOICE && nvalues <= 3) { /* segmented: every value a button */
        for (int i = 0; i < nvalues; i++) {
            int on = d->values[i] == pl_setting_get(s, (PlSettingId)id);
            if (draw) x += button(dl, x, y, h, d->names[i], on, GUI_ACT_CHOICE, id * 64 + i, flash && on);
            else x += gui_text_w(dl, GUI_NORMAL, 0, d->names[i]) + 14 * u;
        }
        return x - x0;
    }
    int slider = d->type == PL_ST_INT && (d->ladder || (long)d->hi - d->lo <= 16);
    int value = id == cs->drag_id ? cs->drag_value : pl_setting_get(s, (PlSettingId)id);
    PlLabSettings shown = *s; /* while dragging, the value under the knob ("none" past the top) */
    pl_setting_set(&shown, (PlSettingId)id, value);
    if (id == PL_S_EXAMPLE) snprintf(v, sizeof v, "%d", value);
    else pl_setting_format(&shown, (PlSettingId)id, v, sizeof v);
    if (slider) {
        double track = 110 * u, vw = gui_text_w(dl, GUI_NORMAL, 0, "0000") + 8 * u;
        if (!draw) return x - x0 + track + vw;
        GuiRect r = {x, y, track, h};
        gui_rect(dl, (GuiRect){x, y + h / 2 - 2 * u, track, 4 * u}, GUI_C_BUTTON);
        int n = d->ladder ? d->nladder : (int)((long)d->hi - d->lo + 1), at = 0;
        for (int i = 0; i < n; i++) {
            int vi = d->ladder ? d->ladder[i] : d->lo + i;
            if (vi <= value) at = i;
        }
        double kx = x + (n > 1 ? at * track / (n - 1) : 0.0), ks = 7 * u;
        gui_rect(dl, (GuiRect){x, y + h / 2 - 2 * u, kx - x, 4 * u}, GUI_C_BUTTON_ON);
        gui_rect(dl, (GuiRect){kx - ks, y + h / 2 - ks, 2 * ks, 2 * ks}, flash ? GUI_C_SEL : GUI_C_BUTTON_ON);
        gui_hit(dl, r, GUI_ACT_SLIDER, id);
        gui_text(dl, x + track + 8 * u, y + (h - gui_text_h(dl, GUI_NORMAL)) / 2, GUI_NORMAL,
                 flash ? GUI_C_SEL : GUI_C_FG, GUI_LEFT, "%s", v);
        return x - x0 + track + vw;
    }
    /* a stepper: < value > */
    double aw = gui_text_w(dl, GUI_NORMAL, 0, "<") + 12 * u;
    if (!draw) return x - x0 + 2 * aw + gui_text_w(dl, GUI_NORMAL, 0, v) + 14 * u + 2 * gap;
    x += button(dl, x, y, h, "<", 0, GUI_ACT_PREV, id, 0) + gap;
    x += button(dl, x, y, h, v, 0, GUI_ACT_NEXT, id, flash) + gap;
    x += button(dl, x, y, h, ">", 0, GUI_ACT_NEXT, id, 0);
    return x - x0;
}

int gui_slider_value(PlSettingId id, GuiRect r, double x) {
    const PlSettingDef *d = &pl_settings[id];
    int n = d->ladder ? d->nladder : d->hi - d->lo + 1;
    double f = r.w > 0 ? (x - r.x) / r.w : 0.0;
    int i = (int)lround(f * (n - 1));
    i = i < 0 ? 0 : i >= n ? n - 1 : i;
    return d->ladder ? d->ladder[i] : d->lo + i;
}

/* The status line in r (its top and width); returns the height it took
 * (it wraps: nothing is cut). */
static double status_line(GuiList *dl, PlLab *lab, GuiRect r, const GuiChromeState *cs) {
    const PlLabTraining *t = pl_lab_training(lab);
    double u = dl->st->unit, th = gui_text_h(dl, GUI_NORMAL), y = r.y + (r.h - th) / 2;
    char buf[800];
    if (cs->message) snprintf(buf, sizeof buf, "%s", cs->message);
    else pl_lab_status_text(lab, buf, sizeof buf);
    dl->ledger = pl_lab_ledger(lab);
    double bar = t->active ? 160 * u : 0.0;
    if (t->active) {
        gui_rect(dl, (GuiRect){r.x, y + th / 2 - 4 * u, bar, 8 * u}, GUI_C_BUTTON);
        gui_rect(dl, (GuiRect){r.x, y + th / 2 - 4 * u, bar * t->job.fraction, 8 * u}, GUI_C_GOOD);
        bar += 10 * u;
    }
    double h = gui_text_wrap(dl, r.x + bar, y, r.w - bar, GUI_NORMAL, cs->message ? GUI_C_FG : GUI_C_DIM, GUI_LEFT,
                             "%s", buf);
    dl->ledger = NULL;
    return h + (r.h - th);
}

/* The tab row: padlab, the views' tabs, then the window's toggles at the
 * right; what does not fit on a row goes on the next. Returns the y under it. */
static double tab_rows(GuiList *dl, PlLab *lab, double m, double bh) {
    static const struct {
        const char *name;
        int key;
    } toggles[] = {{"? help", '?'}, {"y palette", 'y'}, {"d theme", 'd'}, {"f projector", 'f'}, {"v svg", 'v'}};
    const int ntog = (int)(sizeof toggles / sizeof toggles[0]);
    double u = dl->st->unit, W = dl->W, x = m, y = m, row = bh + 4 * u;
    x += gui_text(dl, x, y + (bh - gui_text_h(dl, GUI_LARGE)) / 2, GUI_LARGE, GUI_C_FG, GUI_LEFT, "padlab") + 14 * u;
    for (int v = 0; v < PL_VIEW_COUNT; v++) {
        char tab[48];
        snprintf(tab, sizeof tab, "%d %s", (v + 1) % 10, pl_view_name((PlView)v));
        double w = gui_text_w(dl, GUI_NORMAL, 0, tab) + 14 * u;
        if (x + w > W - m && x > m) x = m, y += row;
        x += button(dl, x, y, bh, tab, v == pl_lab_settings(lab)->view, GUI_ACT_TAB, v, 0) + 4 * u;
    }
    double tw = 0.0; /* the toggles, together, at the right of the last row or of one under it */
    for (int i = 0; i < ntog; i++) tw += gui_text_w(dl, GUI_NORMAL, 0, toggles[i].name) + 18 * u;
    if (x + 10 * u + tw > W - m) y += row;
    double tx = W - m;
    for (int i = 0; i < ntog; i++) {
        double w = gui_text_w(dl, GUI_NORMAL, 0, toggles[i].name) + 14 * u;
        if (tx - w < m) tx = W - m, y += row; /* narrower than the toggles: they wrap too */
        tx -= w;
        button(dl, tx, y, bh, toggles[i].name, 0, GUI_ACT_KEY, toggles[i].key, 0);
        tx -= 4 * u;
    }
    return y + bh;
}

/* The control strip from y0: every setting but the view, wrapped; in a
 * window too short for it (it would take more than a quarter of the height)
 * one line says the keys do the same. Returns the y under it. */
static double control_strip(GuiList *dl, PlLab *lab, const GuiChromeState *cs, double y0, double m, double bh) {
    double u = dl->st->unit, W = dl->W, x = m, y = y0 + m * 0.6;
    for (int id = 0; id < PL_S_COUNT; id++) {
        if (id == PL_S_VIEW) continue;
        double w = control(dl, lab, id, x, y, bh, cs, 0);
        if (x + w > W - m && x > m) x = m, y += bh + 6 * u;
        x += w + 16 * u;
    }
    double end = y + bh + m * 0.6;
    if (end - y0 > dl->H / 4) {
        double h = gui_text_wrap(dl, m, y0 + m * 0.6, W - 2 * m, GUI_SMALL, GUI_C_DIM, GUI_LEFT, "%s",
                                 "the controls need a larger window: every setting has its keys (? help)");
        gui_tag(dl, "controls-folded");
        return y0 + h + m * 0.6;
    }
    gui_rect(dl, (GuiRect){0, y0, W, end - y0}, GUI_C_BG);
    gui_line(dl, 0, end, W, end, GUI_C_GRID, u, 0);
    x = m, y = y0 + m * 0.6;
    for (int id = 0; id < PL_S_COUNT; id++) {
        if (id == PL_S_VIEW) continue;
        double w = control(dl, lab, id, x, y, bh, cs, 0);
        if (x + w > W - m && x > m) x = m, y += bh + 6 * u;
        control(dl, lab, id, x, y, bh, cs, 1);
        x += w + 16 * u;
    }
    return end;
}

/* The key bar's items (a lesson's keys are one item), flowed over as many
 * rows as they need from the bottom up; returns its top. */
static double key_bar(GuiList *dl, const GuiChromeState *cs, double m) {
    double u = dl->st->unit, W = dl->W, th = gui_text_h(dl, GUI_SMALL), gap = 14 * u;
    static char items[64][96];
    int n = 0;
    for (int id = 0; !cs->keys && id < PL_S_COUNT && n < 64; id++) {
        char keys[32];
        if (!pl_settings[id].key_next) continue;
        snprintf(items[n++], sizeof items[0], "%s %s", pl_setting_keys_text((PlSettingId)id, keys, sizeof keys),
                 pl_settings[id].name);
    }
    for (int i = 0; !cs->keys && pl_command_keys[i].keys && n < 64; i++)
        snprintf(items[n++], sizeof items[0], "%s %s", pl_command_keys[i].keys,
                 pl_command_keys[i].cmd == PL_CMD_RUN         ? "retrain"
                 : pl_command_keys[i].cmd == PL_CMD_PAUSE     ? "pause"
                 : pl_command_keys[i].cmd == PL_CMD_GRID      ? "grid"
                 : pl_command_keys[i].cmd == PL_CMD_SORT_RUNS ? "sort"
                 : pl_command_keys[i].cmd == PL_CMD_UNDO      ? "undo"
                                                              : "reset");
    int rows = 1;
    double x = m;
    if (cs->keys) rows = gui_wrap_lines(dl, GUI_SMALL, 0, cs->keys, W - 2 * m);
    else
        for (int i = 0; i < n; i++) {
            double w = gui_text_w(dl, GUI_SMALL, 0, items[i]);
            if (x + w > W - m && x > m) x = m, rows++;
            x += w + gap;
        }
    double ky = dl->H - rows * th - 8 * u, y = ky + 4 * u;
    gui_rect(dl, (GuiRect){0, ky, W, dl->H - ky}, GUI_C_PANEL);
    if (cs->keys) {
        gui_text_wrap(dl, m, y, W - 2 * m, GUI_SMALL, GUI_C_DIM, GUI_LEFT, "%s", cs->keys);
        return ky;
    }
    x = m;
    for (int i = 0; i < n; i++) {
        double w = gui_text_w(dl, GUI_SMALL, 0, items[i]);
        if (x + w > W - m && x > m) x = m, y += th;
        gui_text(dl, x, y, GUI_SMALL, GUI_C_DIM, GUI_LEFT, "%s", items[i]);
        x += w + gap;
    }
    return ky;
}

GuiRect gui_chrome(GuiList *dl, PlLab *lab, const GuiChromeState *cs) {
    double u = dl->st->unit, m = 10 * u, W = dl->W;
    double bh = gui_text_h(dl, GUI_NORMAL) + 8 * u;
    size_t top = (size_t)dl->n;
    gui_rect(dl, (GuiRect){0, 0, W, 1}, GUI_C_PANEL); /* sized once the rows are known */
    double y = tab_rows(dl, lab, m, bh) + m;
    if (dl->n > (int)top) dl->items[top].h = y;
    y = control_strip(dl, lab, cs, y, m, bh);
    y += status_line(dl, lab, (GuiRect){m, y + 2 * u, W - 2 * m, bh}, cs) + 4 * u;
    gui_line(dl, 0, y, W, y, GUI_C_GRID, u, 0);
    double ky = key_bar(dl, cs, m);
    return (GuiRect){m * 1.6, y + m, W - 3.2 * m, ky - y - 2 * m};
}

/* One entry of the help: the keys, then what they do wrapped to the rest
 * of w, at size; drawn when draw. Returns the height it takes. */
static double help_line(GuiList *dl, double x, double y, double w, const char *keys, const char *text, int size,
                        int draw) {
    double kx = x + fmax(90 * dl->st->unit, gui_text_w(dl, size, 0, keys) + 10 * dl->st->unit);
    double lh = gui_text_h(dl, size);
    if (!draw) return lh * gui_wrap_lines(dl, size, 0, text, w - (kx - x)) * 1.05;
    gui_text(dl, x, y, size, GUI_C_SEL, GUI_LEFT, "%s", keys);
    return gui_text_wrap(dl, kx, y, w - (kx - x), size, GUI_C_FG, GUI_LEFT, "%s", text) * 1.05;
}

/* The help's two columns from y at size, drawn when draw; returns the y
 * under the longer one. */
static double help_columns(GuiList *dl, GuiRect r, double y, int size, int draw) {
    double u = dl->st->unit, col = (r.w - 24 * u) / 2, rx = r.x + col + 24 * u, ly = y, ry = y;
    char keys[32], line[300];
    for (int id = 0; id < PL_S_COUNT; id++) {
        snprintf(line, sizeof line, "%s: %s%s", pl_settings[id].name, pl_settings[id].help,
                 pl_settings[id].cold ? " *" : "");
        ly += help_line(dl, r.x, ly, col, pl_setting_keys_text((PlSettingId)id, keys, sizeof keys), line, size, draw);
    }
    for (int i = 0; pl_command_keys[i].keys; i++)
        ry += help_line(dl, rx, ry, col, pl_command_keys[i].keys, pl_command_keys[i].help, size, draw);
    for (int i = 0; i < gui_nkeys; i++) ry += help_line(dl, rx, ry, col, gui_keys[i].keys, gui_keys[i].help, size, draw);
    return fmax(ly, ry);
}

/* Two columns: the settings from their registry on the left; the commands
 * from theirs and the window's own keys from its key table on the right;
 * in the normal size when every entry fits the window, else the small one. */
void gui_help(GuiList *dl) {
    double u = dl->st->unit, W = dl->W, H = dl->H;
    double w = fmin(W - 40 * u, 1240 * u), x = (W - w) / 2;
    GuiRect r = {x + 16 * u, 20 * u + 12 * u, w - 32 * u, H};
    static const char *const title = "padlab: every number is computed from the corpus and a real model";
    static const char *const left = "settings (* cold: a change retrains over the seeds; the rest only change the view)";
    static const char *const right = "commands, and the window's own keys";
    int size = GUI_NORMAL;
    double head = 0.0, need = 0.0;
    for (int k = 0; k < 2; k++, size = GUI_SMALL) {
        double col = (r.w - 24 * u) / 2;
        head = gui_text_h(dl, GUI_LARGE) * gui_wrap_lines(dl, GUI_LARGE, 0, title, r.w) + 6 * u +
               gui_text_h(dl, size) * fmax(gui_wrap_lines(dl, size, 0, left, col), gui_wrap_lines(dl, size, 0, right, col)) +
               4 * u;
        need = help_columns(dl, r, r.y + head, size, 0) - r.y + 24 * u;
        if (need <= H - 40 * u) break;
    }
    double h = fmin(need, H - 40 * u), y = (H - h) / 2;
    r.y = y + 12 * u;
    gui_rect(dl, (GuiRect){x, y, w, h}, GUI_C_TIP);
    gui_frame(dl, (GuiRect){x, y, w, h}, GUI_C_AXIS, 2 * u);
    double ty = r.y + gui_text_wrap(dl, r.x, r.y, r.w, GUI_LARGE, GUI_C_FG, GUI_LEFT, "%s", title) + 6 * u;
    double col = (r.w - 24 * u) / 2;
    double h1 = gui_text_wrap(dl, r.x, ty, col, size, GUI_C_DIM, GUI_LEFT, "%s", left);
    double h2 = gui_text_wrap(dl, r.x + col + 24 * u, ty, col, size, GUI_C_DIM, GUI_LEFT, "%s", right);
    help_columns(dl, r, ty + fmax(h1, h2) + 4 * u, size, 1);
}

void gui_tooltip(GuiList *dl) {
    if (!dl->tip[0] || dl->mx < 0) return;
    double u = dl->st->unit, w = gui_text_w(dl, GUI_NORMAL, 0, dl->tip) + 16 * u,
           h = gui_text_h(dl, GUI_NORMAL) + 10 * u;
    double x = dl->mx + 14 * u, y = dl->my + 18 * u;
    if (x + w > dl->W) x = dl->W - w - 2 * u;
    if (x < 0) x = 0;
    if (y + h > dl->H) y = dl->my - h - 8 * u;
    char tip[sizeof dl->tip];
    memcpy(tip, dl->tip, sizeof tip);
    gui_rect(dl, (GuiRect){x, y, w, h}, GUI_C_TIP);
    gui_frame(dl, (GuiRect){x, y, w, h}, GUI_C_AXIS, u);
    gui_text(dl, x + 8 * u, y + 5 * u, GUI_NORMAL, GUI_C_FG, GUI_LEFT, "%s", tip);
    gui_tag(dl, "tooltip");
}

void gui_flash_banner(GuiList *dl, PlLab *lab, unsigned flash) {
    char line[400] = "";
    const PlLabSettings *s = pl_lab_settings(lab);
    for (int id = 0; id < PL_S_COUNT; id++) {
        if (!(flash & PL_S_BIT(id)) || id == PL_S_VIEW) continue;
        char v[600];
        size_t n = strlen(line);
        snprintf(line + n, sizeof line - n, "%s%s: %.40s", n ? "   " : "", pl_settings[id].name,
                 pl_setting_format(s, (PlSettingId)id, v, sizeof v));
    }
    if (!line[0]) return;
    double u = dl->st->unit, w = gui_text_w(dl, GUI_LARGE, 0, line) + 30 * u, h = gui_text_h(dl, GUI_LARGE) + 16 * u;
    GuiRect r = {(dl->W - w) / 2, dl->H - h - 14 * u, w, h};
    gui_rect(dl, r, GUI_C_FG);
    gui_text(dl, r.x + 15 * u, r.y + 8 * u, GUI_LARGE, GUI_C_BG, GUI_LEFT, "%s", line);
}
