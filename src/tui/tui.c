/* The lab's main loop: poll the training, draw, read a key or a click, turn
 * it into an action. The layout:
 *
 *   row 0      title and view tabs
 *   rows 1-2   the control strip (every setting as text, cold ones starred)
 *   row 3      status: training progress, messages
 *   rows 4..   one view (two side by side on wide terminals)
 *   last row   the key bar */
#include "tui.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "views.h"

#define MIN_COLS 80
#define MIN_ROWS 24
#define CONTROLS 9

typedef struct {
    PlLab *lab;
    int help, selected;
    int scroll[PL_VIEW_COUNT]; /* rows scrolled in each view (j/k) */
    char message[256];
    unsigned flash;        /* settings changed recently */
    double flash_until;
    int tab_x[PL_VIEW_COUNT + 1];
    int ctl_y[CONTROLS], ctl_x[CONTROLS + 1];
} Tui;

/* ---- keys ---- */

static const struct {
    int key;
    PlAction act;
} keymap[] = {
    {'p', PL_ACT_PADDING},      {'t', PL_ACT_TRUNCATING},   {'m', PL_ACT_MASK},           {'+', PL_ACT_MAXLEN_UP},
    {'=', PL_ACT_MAXLEN_UP},    {'-', PL_ACT_MAXLEN_DOWN},  {'b', PL_ACT_BATCHING},       {'M', PL_ACT_MODEL},
    {'c', PL_ACT_CONVENTION},   {'n', PL_ACT_NEXT_EXAMPLE}, {'N', PL_ACT_PREV_EXAMPLE},   {'l', PL_ACT_NEXT_EXAMPLE},
    {KEY_RIGHT, PL_ACT_NEXT_EXAMPLE}, {'h', PL_ACT_PREV_EXAMPLE}, {KEY_LEFT, PL_ACT_PREV_EXAMPLE},
    {'r', PL_ACT_RUN},          {' ', PL_ACT_PAUSE},        {'S', PL_ACT_NEXT_SEED},        {'\t', PL_ACT_NEXT_VIEW},     {KEY_BTAB, PL_ACT_PREV_VIEW},
    {'s', PL_ACT_SORT_RUNS},    {'g', PL_ACT_GRID},
};

/* The control strip: which action each control's click or Enter applies. */
static const PlAction control_act[CONTROLS] = {PL_ACT_PADDING, PL_ACT_TRUNCATING, PL_ACT_MASK, PL_ACT_MAXLEN_UP, PL_ACT_BATCHING,
                                               PL_ACT_MODEL, PL_ACT_CONVENTION, PL_ACT_NEXT_SEED, PL_ACT_NEXT_EXAMPLE};
static const unsigned control_chg[CONTROLS] = {PL_CHG_PADDING, PL_CHG_TRUNCATING, PL_CHG_MASK, PL_CHG_MAXLEN, PL_CHG_BATCHING,
                                               PL_CHG_MODEL, PL_CHG_CONV, PL_CHG_SEED, PL_CHG_EXAMPLE};

static const char *const help_lines[] = {
    "padlab lab: every number is computed from the corpus and a real model",
    "",
    "  p  padding pre/post *        t  truncating pre/post *     m  mask on/off *",
    "  +  maxlen up *               -  maxlen down *             b  batching strategy *",
    "  M  model *                   c  mask convention shown     n/N  next/previous example",
    "  r  train now                 space  pause/resume          s  sort the runs table",
    "  S  next seed *               g  the padding x mask grid over 3 seeds (train view)",
    "  1-9 or Tab  views            j/k  scroll a long view (the runs table, the layers)",
    "  h/l  previous/next example   e  export the view as text   q  quit",
    "",
    "* cold settings change what a model learns: the probes recompute and the model",
    "  retrains in the background. The others are hot: they only change what you see.",
    "The mouse selects views (top row) and controls (second row; Enter repeats the last).",
    "",
    "press any key to close this help",
};

/* ---- drawing ---- */

static void draw_tabs(Tui *u) {
    const PlLabSettings *s = pl_lab_settings(u->lab);
    tui_color(TUI_TITLE);
    mvhline(0, 0, ' ', COLS);
    const char *base = strrchr(s->corpus, '/');
    base = base && base[1] ? base + 1 : s->corpus;
    int x = COLS >= 110 ? 24 : 1;
    if (x > 1) tui_put(0, 0, x - 1, " padlab  %s", base);
    tui_color_off(TUI_TITLE);
    static const char *const short_names[PL_VIEW_COUNT] = {"batch", "cost", "attn", "rnn", "pool", "loss", "train", "layers", "gen"};
    for (int v = 0; v < PL_VIEW_COUNT; v++) {
        char tab[32];
        snprintf(tab, sizeof tab, " %d %s ", v + 1, COLS >= 110 ? pl_view_name((PlView)v) : short_names[v]);
        u->tab_x[v] = x;
        TuiColor c = v == (int)s->view ? TUI_SELECTED : TUI_TITLE;
        tui_color(c);
        tui_put(0, x, COLS - x, "%s", tab);
        tui_color_off(c);
        x += (int)strlen(tab);
    }
    u->tab_x[PL_VIEW_COUNT] = x;
}

static void control_text(const PlLabSettings *s, int i, char *buf, size_t cap) {
    switch (i) {
    case 0: snprintf(buf, cap, "padding: %s*", pl_side_name(s->padding)); break;
    case 1: snprintf(buf, cap, "truncating: %s*", pl_side_name(s->truncating)); break;
    case 2: snprintf(buf, cap, "mask: %s*", s->mask ? "on" : "off"); break;
    case 3: snprintf(buf, cap, "maxlen: %d*", s->maxlen); break;
    case 4: snprintf(buf, cap, "batching: %s*", pl_batching_name(s->batching)); break;
    case 5: snprintf(buf, cap, "model: %s*", pl_arch_name(s->model)); break;
    case 6: snprintf(buf, cap, "convention: %s", pl_mask_conv_name(s->conv)); break;
    case 7: snprintf(buf, cap, "seed: %d*", s->seed); break;
    default: snprintf(buf, cap, "example: %d", s->example); break;
    }
}

static void draw_controls(Tui *u, double now) {
    const PlLabSettings *s = pl_lab_settings(u->lab);
    int y = 1, x = 1;
    mvhline(1, 0, ' ', COLS);
    mvhline(2, 0, ' ', COLS);
    for (int i = 0; i < CONTROLS; i++) {
        char buf[64];
        control_text(s, i, buf, sizeof buf);
        int w = (int)strlen(buf);
        if (x + w + 2 > COLS) y = 2, x = 1;
        u->ctl_y[i] = y, u->ctl_x[i] = x;
        TuiColor c = i == u->selected ? TUI_SELECTED : (u->flash & control_chg[i]) && now < u->flash_until ? TUI_CHANGED : TUI_NORMAL;
        tui_color(c);
        tui_put(y, x, COLS - x, "%s", buf);
        tui_color_off(c);
        x += w + 3;
    }
    const char *base = strrchr(s->corpus, '/');
    base = base && base[1] ? base + 1 : s->corpus;
    if (x < COLS - 12) tui_put(y, x, COLS - x - 1, "corpus: %s (%d)", base, pl_lab_corpus(u->lab)->n);
}

static void draw_status(Tui *u) {
    const PlLabTraining *t = pl_lab_training(u->lab);
    const PlProgress *p = &t->progress;
    move(3, 0);
    clrtoeol();
    tui_color(TUI_DIM);
    if (u->message[0]) tui_put(3, 1, COLS - 2, "%s", u->message);
    else if (t->active && p->batches)
        tui_put(3, 1, COLS - 2, "%s: epoch %d/%d batch %d/%d, ETA %.1f s   (* = cold: retrains)", t->paused ? "paused" : "training",
                p->epoch, p->epochs, p->batch, p->batches, t->eta);
    else tui_put(3, 1, COLS - 2, "%s   (* = cold: retrains)", t->status);
    tui_color_off(TUI_DIM);
}

static void draw_keybar(void) {
    static const char *const keys[][2] = {{"p", "pad"}, {"t", "trunc"}, {"m", "mask"}, {"+-", "maxlen"}, {"b", "batch"},
                                          {"M", "model"}, {"c", "conv"}, {"n", "next"}, {"r", "run"}, {"?", "help"}, {"q", "quit"}};
    int x = 0;
    move(LINES - 1, 0);
    clrtoeol();
    for (size_t i = 0; i < sizeof keys / sizeof keys[0] && x < COLS - 8; i++) {
        tui_color(TUI_KEY);
        tui_put(LINES - 1, x, COLS - x, "%s", keys[i][0]);
        tui_color_off(TUI_KEY);
        x += (int)strlen(keys[i][0]);
        tui_put(LINES - 1, x, COLS - x, "%s ", keys[i][1]);
        x += (int)strlen(keys[i][1]) + 1;
    }
}

static void draw_help(void) {
    int n = (int)(sizeof help_lines / sizeof help_lines[0]), w = 84 < COLS - 2 ? 84 : COLS - 2;
    int y0 = (LINES - n - 2) / 2, x0 = (COLS - w) / 2;
    for (int i = -1; i <= n; i++) {
        tui_color(TUI_SELECTED);
        mvhline(y0 + i + 1, x0, ' ', w);
        if (i >= 0 && i < n) tui_put(y0 + i + 1, x0 + 1, w - 2, "%s", help_lines[i]);
        tui_color_off(TUI_SELECTED);
    }
}

static void draw(Tui *u, double now) {
    erase();
    if (LINES < MIN_ROWS || COLS < MIN_COLS) {
        tui_put(LINES / 2, 0, COLS, "terminal too small (need %dx%d, have %dx%d)", MIN_COLS, MIN_ROWS, COLS, LINES);
        refresh();
        return;
    }
    draw_tabs(u);
    draw_controls(u, now);
    draw_status(u);
    /* As many views as fit at 80 columns each: the chosen one, then the train
     * view and the cost view as companions. */
    PlView v = pl_lab_settings(u->lab)->view, shown[3] = {v, PL_VIEW_TRAIN, PL_VIEW_COST};
    if (v == PL_VIEW_TRAIN) shown[1] = PL_VIEW_COST, shown[2] = PL_VIEW_RNN;
    if (v == PL_VIEW_COST) shown[2] = PL_VIEW_RNN;
    int n = COLS >= 3 * (MIN_COLS + 1) ? 3 : COLS >= 2 * (MIN_COLS + 1) ? 2 : 1, w = COLS / n;
    for (int i = 0; i < n; i++) tui_view_draw(u->lab, shown[i], (TuiBox){5, i * w + 1, LINES - 6, w - 2}, &u->scroll[shown[i]]);
    draw_keybar();
    if (u->help) draw_help();
    refresh();
}

/* ---- export: the view's text as it stands on the screen ---- */

static void export_view(Tui *u) {
    char path[128], tmp[160];
    snprintf(path, sizeof path, "padlab-%s.txt", pl_view_name(pl_lab_settings(u->lab)->view));
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(u->message, sizeof u->message, "cannot write %s", tmp);
        return;
    }
    wchar_t line[1024];
    char out[4096];
    for (int y = 1; y < LINES - 1; y++) {
        int n = mvinnwstr(y, 0, line, (int)(sizeof line / sizeof line[0]) - 1);
        if (n < 0) n = 0;
        line[n] = L'\0';
        size_t m = wcstombs(out, line, sizeof out - 1);
        if (m == (size_t)-1) m = 0;
        while (m > 0 && out[m - 1] == ' ') m--;
        out[m] = '\0';
        fprintf(f, "%s\n", out);
    }
    int ok = fclose(f) == 0 && rename(tmp, path) == 0;
    snprintf(u->message, sizeof u->message, ok ? "exported the view to %s" : "cannot write %s", path);
}

/* ---- input ---- */

static void apply(Tui *u, PlAction a, double now) {
    int what = pl_lab_act(u->lab, a);
    unsigned changes = pl_lab_take_changes(u->lab);
    if (changes) {
        u->flash = changes;
        u->flash_until = now + 1.5;
    }
    if (what == PL_LAB_COLD) snprintf(u->message, sizeof u->message, "cold setting: probes recomputed, retraining in the background");
}

static void on_click(Tui *u, double now) {
    MEVENT ev;
    if (getmouse(&ev) != OK) return;
    if (ev.y == 0) {
        for (int v = 0; v < PL_VIEW_COUNT; v++)
            if (ev.x >= u->tab_x[v] && ev.x < u->tab_x[v + 1]) pl_lab_set_view(u->lab, (PlView)v);
        return;
    }
    for (int i = 0; i < CONTROLS; i++) {
        char buf[64];
        control_text(pl_lab_settings(u->lab), i, buf, sizeof buf);
        if (ev.y == u->ctl_y[i] && ev.x >= u->ctl_x[i] && ev.x < u->ctl_x[i] + (int)strlen(buf)) {
            u->selected = i;
            apply(u, control_act[i], now);
        }
    }
}

/* Returns 1 when the user asked to quit. */
static int on_key(Tui *u, int ch, double now) {
    if (u->help) {
        u->help = 0;
        return 0;
    }
    u->message[0] = '\0';
    if (ch == 'q' || ch == 'Q') return 1;
    if (ch == '?' || ch == KEY_F(1)) u->help = 1;
    else if (ch >= '1' && ch <= '9') pl_lab_set_view(u->lab, (PlView)(ch - '1'));
    else if (ch == 'e') export_view(u);
    else if (ch == KEY_MOUSE) on_click(u, now);
    else if (ch == 'j' || ch == KEY_DOWN) u->scroll[pl_lab_settings(u->lab)->view]++;
    else if ((ch == 'k' || ch == KEY_UP) && u->scroll[pl_lab_settings(u->lab)->view] > 0) u->scroll[pl_lab_settings(u->lab)->view]--;
    else if (ch == '\n' || ch == KEY_ENTER) apply(u, control_act[u->selected], now);
    else
        for (size_t i = 0; i < sizeof keymap / sizeof keymap[0]; i++)
            if (keymap[i].key == ch) apply(u, keymap[i].act, now);
    return 0;
}

/* Redraws after a key, at most every 0.1 s while training or the grid runs,
 * and once when the highlight of a changed setting expires; idle, nothing. */
static void loop(Tui *u) {
    int dirty = 1, pending = 0, was_training = 0;
    double last_draw = 0.0;
    while (!tui_screen_should_quit()) {
        double now = pl_app_clock();
        pending |= pl_lab_tick(u->lab);
        int training = pl_lab_training(u->lab)->active;
        if (was_training && !training) u->message[0] = '\0'; /* the run's result replaces "retraining" */
        was_training = training;
        if (pending && now - last_draw > 0.1) dirty = 1;
        if (u->flash_until > last_draw && now >= u->flash_until) dirty = 1;
        if (dirty) {
            draw(u, now);
            dirty = pending = 0;
            last_draw = now;
        }
        int ch = getch();
        if (ch == ERR) continue;
        if (ch == KEY_RESIZE) {
            clear();
            dirty = 1;
            continue;
        }
        if (on_key(u, ch, now)) break;
        dirty = 1;
    }
}

int tui_run(const TuiArgs *a, char *why, int cap) {
    PlLabSettings s = a->settings;
    PlLabRun *runs = calloc(PL_LAB_MAX_RUNS, sizeof *runs);
    int nruns = 0;
    PlErr err;
    if (!runs) return snprintf(why, (size_t)cap, "out of memory"), 1;
    if (a->session) {
        FILE *probe = fopen(a->session, "r");
        if (probe) {
            fclose(probe);
            if (pl_lab_read_session(a->session, &s, runs, &nruns, &err)) {
                fprintf(stderr, "padlab: %s; starting with the default settings\n", err.msg);
                s = a->settings;
                nruns = 0;
            }
        }
    }
    PlLab *lab = pl_lab_new(&s, &err);
    if (!lab) {
        free(runs);
        fprintf(stderr, "padlab: %s\n", err.msg);
        return 2;
    }
    pl_lab_set_runs(lab, runs, nruns);
    free(runs);
    if (tui_screen_start(&a->screen, why, cap)) {
        pl_lab_free(lab);
        return -1;
    }
    Tui u;
    memset(&u, 0, sizeof u);
    u.lab = lab;
    pl_lab_act(lab, PL_ACT_RUN);
    pl_lab_take_changes(lab);
    loop(&u);
    tui_screen_end();
    int rc = 0;
    if (a->session && pl_lab_save_session(lab, a->session, &err)) {
        fprintf(stderr, "padlab: %s\n", err.msg);
        rc = 1;
    }
    pl_lab_free(lab);
    return rc;
}
