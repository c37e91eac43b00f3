/* The parts of the screen made from the settings registry and the command
 * table: the control strip, the key bar and the help overlay. None of them
 * lists a setting itself. */
#include "strip.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "keys.h"
#include "screen.h"

/* Settings the strip shows: every row but the view, which the tabs show. */
static int on_strip(int id) { return id != PL_S_VIEW; }

static void control_text(const PlLabSettings *s, int longest, int id, char *buf, int cap) {
    char v[600];
    if (id == PL_S_MAXLEN) pl_maxlen_text(s->maxlen, longest, v, sizeof v);
    else pl_setting_format(s, (PlSettingId)id, v, sizeof v);
    if (id == PL_S_CORPUS) {
        char label[200];
        snprintf(buf, (size_t)cap, "corpus: %.100s", pl_corpus_label(v, label, sizeof label));
    } else {
        snprintf(buf, (size_t)cap, "%s: %.60s%s", pl_settings[id].name, v, pl_settings[id].cold ? "*" : "");
    }
}

int tui_strip_draw(TuiStrip *t, const PlLabSettings *s, int longest, unsigned flash, int selected, int y0, int cols) {
    int y = y0, x = 1;
    for (int id = 0; id < PL_S_COUNT; id++) {
        t->y[id] = -1;
        if (!on_strip(id)) continue;
        char buf[128];
        control_text(s, longest, id, buf, sizeof buf);
        int w = tui_width(buf);
        if (x + w + 1 > cols && x > 1) y++, x = 1;
        t->y[id] = y, t->x[id] = x, t->w[id] = w;
        TuiColor c = id == selected ? TUI_SELECTED : (flash & PL_S_BIT(id)) ? TUI_CHANGED : TUI_NORMAL;
        tui_color(c);
        tui_put(y, x, cols - x, "%s", buf);
        tui_color_off(c);
        x += w + 3;
    }
    return y - y0 + 1;
}

int tui_strip_hit(const TuiStrip *t, int y, int x) {
    for (int id = 0; id < PL_S_COUNT; id++)
        if (t->y[id] == y && x >= t->x[id] && x < t->x[id] + t->w[id]) return id;
    return -1;
}

/* One key and its word on the key bar; returns the new x, or -1 when it does not fit. */
static int bar_item(int y, int x, int limit, const char *key, const char *word, int draw) {
    int need = tui_width(key) + 1 + tui_width(word);
    if (x + need > limit) return -1;
    if (!draw) return x + need + 1;
    tui_color(TUI_KEY);
    x += tui_put(y, x, limit - x, "%s", key);
    tui_color_off(TUI_KEY);
    x += tui_put(y, x, limit - x, " %s", word);
    return x + 1;
}

#define BAR_END 15 /* "? help q quit" at the end of the last row */

/* Every setting's keys, from row y over at most rows rows, drawn when draw;
 * returns 1 when they all fit. */
static int bar_settings(int y, int rows, int cols, int draw) {
    int x = 0, row = 0;
    for (int id = 0; id < PL_S_COUNT; id++) {
        const PlSettingDef *d = &pl_settings[id];
        char keys[3] = {(char)d->key_next, (char)d->key_prev, '\0'};
        if (!d->key_next) continue;
        int nx;
        while ((nx = bar_item(y + row, x, row + 1 < rows ? cols : cols - BAR_END, keys, d->name, draw)) < 0) {
            if (++row >= rows) return 0;
            x = 0;
        }
        x = nx;
    }
    return 1;
}

int tui_keybar_rows(int cols) { return bar_settings(0, 1, cols, 0) ? 1 : 2; }

void tui_keybar_draw(int y, int cols) {
    int rows = tui_keybar_rows(cols);
    for (int r = 0; r < rows; r++) move(y + r, 0), clrtoeol();
    bar_settings(y, rows, cols, 1);
    int x = bar_item(y + rows - 1, cols - BAR_END, cols, "?", "help", 1);
    if (x >= 0) bar_item(y + rows - 1, x, cols, "q", "quit", 1);
}

/* The help as lines, made from the registry and the command tables. */
static int help_lines(char lines[][160], int max) {
    int n = 0;
    char keys[32];
    snprintf(lines[n++], 160, "padlab lab: every number is computed from the corpus and a real model");
    snprintf(lines[n++], 160, "%s", "");
    snprintf(lines[n++], 160, "settings (* cold: a change retrains over the seeds; the rest only change the view):");
    for (int id = 0; id < PL_S_COUNT && n < max; id++)
        snprintf(lines[n++], 160, "  %-7s %-10s %s%s", pl_setting_keys_text((PlSettingId)id, keys, sizeof keys),
                 pl_settings[id].name, pl_settings[id].help, pl_settings[id].cold ? " *" : "");
    snprintf(lines[n++], 160, "%s", "");
    snprintf(lines[n++], 160, "commands:");
    for (int i = 0; pl_command_keys[i].keys && n < max; i++)
        snprintf(lines[n++], 160, "  %-7s %s", pl_command_keys[i].keys, pl_command_keys[i].help);
    for (int i = 0; i < tui_nkeys && n < max; i++) /* the lab's own keys, from their table */
        snprintf(lines[n++], 160, "  %-7s %s", tui_keys[i].keys, tui_keys[i].help);
    return n;
}

#define HELP_INDENT 21 /* where the text of a key's line starts, for its wrapped rest */

/* Wraps the help lines at w columns (breaking at spaces, the rest indented
 * under the text); returns the display lines. */
static int wrap_help(char in[][160], int n, char out[][160], int max, int w) {
    int m = 0;
    for (int i = 0; i < n && m < max; i++) {
        const char *s = in[i];
        int first = 1;
        do {
            int indent = first ? 0 : HELP_INDENT, room = w - indent, len = (int)strlen(s);
            int cut = len <= room ? len : room;
            while (cut < len && cut > 0 && s[cut] != ' ') cut--;
            if (cut == 0) cut = room < len ? room : len;
            snprintf(out[m++], 160, "%*s%.*s", indent, "", cut, s);
            s += cut;
            while (*s == ' ') s++;
            first = 0;
        } while (*s && m < max);
    }
    return m;
}

int tui_help_draw(int page, int rows, int cols) {
    char lines[64][160], shown[128][160];
    int w = cols - 2 < 96 ? cols - 2 : 96, per = rows - 4;
    int n = wrap_help(lines, help_lines(lines, 64), shown, 128, w - 2);
    int pages = (n + per - 1) / per;
    if (page >= pages) return 0;
    int x0 = (cols - w) / 2, y0 = 1;
    for (int i = 0; i < per + 2; i++) {
        int k = page * per + i - 1;
        tui_color(TUI_SELECTED);
        mvhline(y0 + i, x0, ' ', w);
        if (i > 0 && i <= per && k < n) tui_put(y0 + i, x0 + 1, w - 2, "%s", shown[k]);
        if (i == per + 1)
            tui_put(y0 + i, x0 + 1, w - 2, "page %d of %d: %s", page + 1, pages,
                    page + 1 < pages ? "space for the next, any other key closes" : "any key closes");
        tui_color_off(TUI_SELECTED);
    }
    return 1;
}
