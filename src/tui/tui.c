/* The lab's screen, run by the terminal's one loop (loop.h): poll the lab,
 * draw, read a key or a click, turn it into a change of a setting or a
 * command (the key table, keys.h, and the registries). The layout:
 *
 *   row 0        the view tabs
 *   rows 1..     the control strip (every setting as text, cold ones starred)
 *   next row     status: training progress, messages
 *   rows ..      a lesson's pane, when one plays
 *   rows ..      one view (two or three side by side on wide terminals)
 *   last row     the key bar
 *
 * Classroom mode (--present, F5) keeps only the lesson's narration and one
 * view, side by side on a wide screen, one above the other on a narrow one. */
#include "tui.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/state.h"
#include "keys.h"
#include "lesson_pane.h"
#include "loop.h"
#include "strip.h"
#include "views.h"

#define MIN_COLS 80
#define MIN_ROWS 24
#define VIEW_COLS 80    /* a view's width when several share the screen */
#define VIEW_MIN_ROWS 5 /* what a view keeps when a lesson's question grows its pane */

typedef struct {
    PlLab *lab;
    int help;     /* 0: closed; else the page shown + 1 */
    int selected; /* the control the mouse last picked; -1: none */
    TuiPane panes[PL_VIEW_COUNT];
    char message[512];
    unsigned flash; /* settings changed recently */
    double flash_until;
    int tab_x[PL_VIEW_COUNT + 1];
    TuiStrip strip;
    int too_small;
    int cold_message;   /* the message is the "retraining" one */
    int was_training;   /* the lab trained at the last tick */
    TuiLesson lesson;   /* the lesson playing, when lesson.play.run is set */
    const PlStep *step; /* its step at the last frame */
    int present;        /* classroom mode */
} Tui;

/* ---- drawing ---- */

static void draw_tabs(Tui *u) {
    const PlLabSettings *s = pl_lab_settings(u->lab);
    int wide = COLS >= 120, x = 1;
    tui_color(TUI_TITLE);
    mvhline(0, 0, ' ', COLS);
    if (wide) x += tui_put(0, 0, 9, " padlab ");
    tui_color_off(TUI_TITLE);
    for (int v = 0; v < PL_VIEW_COUNT; v++) {
        char tab[32];
        snprintf(tab, sizeof tab, wide ? " %d %s " : "%d %s ", (v + 1) % 10,
                 wide ? pl_view_name((PlView)v) : tui_view_short((PlView)v));
        u->tab_x[v] = x;
        TuiColor c = v == s->view ? TUI_SELECTED : TUI_TITLE;
        tui_color(c);
        x += tui_put(0, x, COLS - x, "%s", tab);
        tui_color_off(c);
    }
    u->tab_x[PL_VIEW_COUNT] = x;
}

/* The status line, or the message in its place; one that does not fit in
 * the width goes on over a second row (cut at a space), so its last figure
 * is never lost. Returns the rows it took. */
static int draw_status(Tui *u, int y) {
    char buf[800], veiled[800];
    const char *s = u->message[0] ? u->message : pl_lab_status_text(u->lab, buf, sizeof buf);
    tui_ledger(pl_lab_ledger(u->lab));
    tui_drawn(s, veiled, sizeof veiled);
    tui_ledger(NULL);
    int w = COLS - 2, n = (int)strlen(veiled), rows = 1, cut = n;
    for (int i = 0, chars = 0; veiled[i]; i++) /* the byte where the first row's columns run out */
        if ((veiled[i] & 0xc0) != 0x80 && ++chars > w) {
            cut = i;
            break;
        }
    if (cut < n) {
        int at = cut;
        while (at > 0 && veiled[at] != ' ') at--;
        cut = at > 0 ? at : cut, rows = 2;
    }
    tui_color(TUI_DIM);
    for (int r = 0; r < rows; r++) {
        move(y + r, 0);
        clrtoeol();
    }
    char first[800];
    snprintf(first, sizeof first, "%.*s", cut, veiled);
    tui_put_plain(y, 1, w, first);
    if (rows == 2) tui_put_plain(y + 1, 1, w, veiled + cut + (veiled[cut] == ' '));
    tui_color_off(TUI_DIM);
    return rows;
}

/* The views on screen: the chosen one, then the train view and the cost
 * view as companions when there is room for them. */
static int shown_views(PlView v, PlView out[3]) {
    out[0] = v, out[1] = PL_VIEW_TRAIN, out[2] = PL_VIEW_COST;
    if (v == PL_VIEW_TRAIN) out[1] = PL_VIEW_COST, out[2] = PL_VIEW_RNN;
    if (v == PL_VIEW_COST) out[2] = PL_VIEW_RNN;
    return COLS >= 3 * (VIEW_COLS + 1) ? 3 : COLS >= 2 * (VIEW_COLS + 1) ? 2 : 1;
}

static void draw_views(Tui *u, int top, int left, int width, int bottom, int many) {
    PlView shown[3];
    int n = shown_views((PlView)pl_lab_settings(u->lab)->view, shown), w;
    if (!many) n = 1;
    w = width / n;
    for (int i = 0; i < n; i++) {
        TuiPane *p = &u->panes[shown[i]];
        p->box = (TuiBox){top, left + i * w + 1, bottom - top, w - 2};
        tui_ledger(pl_lab_ledger(u->lab));
        tui_view_draw(u->lab, shown[i], p);
        tui_ledger(NULL);
    }
}

/* Classroom mode: the narration and one view, nothing else. */
static void draw_present(Tui *u) {
    int playing = u->lesson.play.run != NULL;
    if (u->lesson.play.blank) return;
    if (!playing) {
        draw_views(u, 0, 0, COLS, LINES, 0);
        return;
    }
    if (COLS >= 120) {
        int w = COLS * 2 / 5;
        tui_lesson_draw(&u->lesson, u->lab, (TuiBox){0, 0, LINES, w});
        draw_views(u, 0, w, COLS - w, LINES, 0);
    } else {
        int h = LINES * 2 / 5;
        tui_lesson_draw(&u->lesson, u->lab, (TuiBox){0, 0, h, COLS});
        draw_views(u, h, 0, COLS, LINES, 0);
    }
}

/* The lesson's open question hides its figure from the views and the
 * status line (the lab keeps the veil; the screen draws through it). */
static void update_veil(Tui *u) {
    if (u->lesson.play.run) pl_lesson_run_sync_ledger(u->lesson.play.run);
}

/* A step that asks of masks as rules opens the masks view at their tiles,
 * below the fold at 80x24 (the lesson's narration says j scrolls there). */
static void follow_step(Tui *u) {
    const PlStep *s = pl_lesson_run_step(u->lesson.play.run);
    if (s == u->step) return;
    u->step = s;
    char name[96] = "";
    if (s->q.kind == PL_Q_ASK && s->q.has_answer) pl_quantity_name(&s->q.answer, name, sizeof name);
    if (s->q.kind == PL_Q_CHOOSE && s->q.nhides) pl_quantity_name(&s->q.hides[0], name, sizeof name);
    u->panes[PL_VIEW_MASKS].follow = strncmp(name, "blocks.", 7) == 0;
}

static void draw(Tui *u, double now) {
    erase();
    update_veil(u);
    u->too_small = LINES < MIN_ROWS || COLS < MIN_COLS;
    if (u->too_small) {
        tui_put(LINES / 2, 0, COLS, "terminal too small (need %dx%d, have %dx%d); q quits", MIN_COLS, MIN_ROWS, COLS,
                LINES);
        refresh();
        return;
    }
    if (u->present) {
        draw_present(u);
        refresh();
        return;
    }
    draw_tabs(u);
    unsigned flash = now < u->flash_until ? u->flash : 0;
    int strip_rows =
        tui_strip_draw(&u->strip, pl_lab_settings(u->lab), pl_lab_longest(u->lab), flash, u->selected, 1, COLS);
    int status = 1 + strip_rows, top = status + draw_status(u, status);
    if (u->lesson.play.run) {
        follow_step(u);
        int room = LINES - top - 1, h = room * 2 / 5, want = tui_lesson_rows(&u->lesson, u->lab, COLS);
        if (h < 7) h = 7;
        if (want > room - VIEW_MIN_ROWS) want = room - VIEW_MIN_ROWS;
        if (want > h) h = want; /* a question's choices in sight, the view keeping a few rows */
        tui_lesson_draw(&u->lesson, u->lab, (TuiBox){top, 0, h, COLS});
        top += h;
    }
    int bar = u->lesson.play.run ? 1 : tui_keybar_rows(COLS);
    draw_views(u, top, 0, COLS, LINES - bar, 1);
    if (u->lesson.play.run) tui_lesson_keybar(&u->lesson, LINES - 1, COLS);
    else tui_keybar_draw(LINES - bar, COLS);
    if (u->help && !tui_help_draw(u->help - 1, LINES - bar + 1, COLS)) u->help = 0; /* above the key bar */
    refresh();
}

/* ---- input ---- */

static void after(Tui *u, int what, double now) {
    unsigned changes = pl_lab_take_changes(u->lab);
    if (changes) {
        u->flash = changes;
        u->flash_until = now + 1.5;
    }
    if (changes & (pl_result_deps(PL_R_BATCH) & ~PL_S_BIT(PL_S_CONVENTION))) u->panes[PL_VIEW_BATCH].follow = 1;
    if (what == PL_LAB_COLD)
        snprintf(u->message, sizeof u->message, "cold: retraining %d seed%s in the background; the views recompute",
                 pl_lab_settings(u->lab)->seeds, pl_lab_settings(u->lab)->seeds > 1 ? "s" : "");
    u->cold_message = what == PL_LAB_COLD;
}

static void set_view(Tui *u, int v, double now) {
    PlLabSettings next = *pl_lab_settings(u->lab);
    next.view = v;
    after(u, pl_lab_apply(u->lab, &next, NULL), now);
}

static void step(Tui *u, int id, int dir, double now) { after(u, pl_lab_step(u->lab, (PlSettingId)id, dir), now); }

static void export_view(Tui *u, double now) {
    char path[512];
    PlErr err;
    /* a wide attention map is hundreds of megabytes: say so before the wait, not after */
    snprintf(u->message, sizeof u->message, "writing the %s view's data...",
             pl_view_name((PlView)pl_lab_settings(u->lab)->view));
    draw(u, now);
    if (pl_lab_export(u->lab, (PlView)pl_lab_settings(u->lab)->view, ".", path, sizeof path, &err))
        snprintf(u->message, sizeof u->message, "export failed: %.200s", err.msg);
    else snprintf(u->message, sizeof u->message, "exported the view's data to %.200s (and .json)", path);
}

#define MOUSE_ACTS \
    (BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON3_CLICKED | BUTTON3_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED)

/* Reads the mouse event behind a KEY_MOUSE; 0 when it does nothing (a
 * release, a middle button), so that it leaves the screen as it is. */
static int mouse_read(MEVENT *ev) { return getmouse(ev) == OK && (ev->bstate & MOUSE_ACTS); }

static void on_mouse(Tui *u, const MEVENT *ev, double now) {
    TuiPane *p = &u->panes[pl_lab_settings(u->lab)->view];
    if (ev->bstate & BUTTON4_PRESSED) p->scroll -= 3;
    if (ev->bstate & BUTTON5_PRESSED) p->scroll += 3;
    int click = ev->bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED),
        back = ev->bstate & (BUTTON3_CLICKED | BUTTON3_PRESSED);
    if (!click && !back) return;
    if (ev->y == 0) {
        for (int v = 0; v < PL_VIEW_COUNT; v++)
            if (ev->x >= u->tab_x[v] && ev->x < u->tab_x[v + 1]) set_view(u, v, now);
        return;
    }
    int id = tui_strip_hit(&u->strip, ev->y, ev->x);
    if (id < 0) return;
    u->selected = id;
    step(u, id, back ? -1 : 1, now);
}

/* The view a line or a page down or up (j, k and the arrows; PgDn, PgUp). */
static void scroll_view(Tui *u, int ch) {
    TuiPane *p = &u->panes[pl_lab_settings(u->lab)->view];
    int page = p->box.h - p->fixed > 1 ? p->box.h - p->fixed - 1 : 1;
    if (ch == 'j' || ch == KEY_DOWN) p->scroll++;
    else if (ch == 'k' || ch == KEY_UP) p->scroll--;
    else if (ch == KEY_NPAGE) p->scroll += page;
    else if (ch == KEY_PPAGE) p->scroll -= page;
    if (p->scroll < 0) p->scroll = 0;
}

/* Does what the key table's row k says for key ch; returns 1 to quit. */
static int key_act(Tui *u, const TuiKeyRow *k, int ch, double now) {
    int v = pl_lab_settings(u->lab)->view;
    switch (k->act) {
    case TUI_DO_VIEW: set_view(u, ch == '0' ? 9 : ch - '1', now); break;
    case TUI_DO_VIEW_STEP: set_view(u, (v + (ch == KEY_BTAB ? PL_VIEW_COUNT - 1 : 1)) % PL_VIEW_COUNT, now); break;
    case TUI_DO_EXAMPLE: step(u, PL_S_EXAMPLE, ch == 'l' || ch == KEY_RIGHT ? 1 : -1, now); break;
    case TUI_DO_SCROLL: scroll_view(u, ch); break;
    case TUI_DO_SIDEWAYS: u->panes[v].hscroll += ch == '>' ? 8 : -8; break;
    case TUI_DO_FULL: u->panes[PL_VIEW_BATCH].full = !u->panes[PL_VIEW_BATCH].full; break;
    case TUI_DO_EXPORT: export_view(u, now); break;
    case TUI_DO_STATE: pl_state_key(pl_lab_settings(u->lab), ".", u->message, sizeof u->message); break;
    case TUI_DO_AGAIN:
        if (u->selected >= 0) step(u, u->selected, 1, now);
        break;
    case TUI_DO_HELP: u->help = 1; break;
    case TUI_DO_QUIT: return 1;
    default: break;
    }
    return 0;
}

static int lab_key(Tui *u, int ch, double now) {
    int cmd = pl_command_of_key(ch);
    if (cmd >= 0) return after(u, pl_lab_command(u->lab, (PlCommand)cmd), now), 1;
    int dir, id = pl_setting_of_key(ch, &dir);
    if (id < 0) return 0;
    step(u, id, dir, now);
    return 1;
}

/* Keys of classroom mode without a lesson (the key table's rows of it):
 * next and previous view on the clicker's keys, b blanks. */
static int present_key(Tui *u, int ch, double now) {
    int v = pl_lab_settings(u->lab)->view;
    const TuiKeyRow *k = tui_key_of(ch, 1);
    if (!k) return 0;
    if (k->act == TUI_DO_BLANK) u->lesson.play.blank = !u->lesson.play.blank;
    else set_view(u, (v + (ch == KEY_PPAGE ? PL_VIEW_COUNT - 1 : 1)) % PL_VIEW_COUNT, now);
    return 1;
}

/* Returns 1 when the user asked to quit. */
static int on_key(Tui *u, int ch, double now) {
    MEVENT ev;
    if (ch == KEY_MOUSE && !mouse_read(&ev)) return 0;
    if (u->too_small) return ch == 'q' || ch == 'Q'; /* nothing acts unseen */
    if (u->help) {
        u->help = ch == ' ' || ch == KEY_NPAGE ? u->help + 1 : 0;
        return 0;
    }
    u->message[0] = '\0';
    const TuiKeyRow *k = tui_key_of(ch, 0);
    if (k && k->act == TUI_DO_CLASSROOM) {
        u->present = !u->present;
        u->lesson.play.present = u->present;
        u->lesson.play.blank = 0;
        return 0;
    }
    if (u->lesson.play.run) {
        int taken = tui_lesson_key(&u->lesson, u->lab, ch);
        if (taken == 2) return 1;
        if (taken) return after(u, 0, now), 0;
    } else if (u->present && present_key(u, ch, now)) return 0;
    if (ch == KEY_MOUSE) on_mouse(u, &ev, now);
    else if (k) return key_act(u, k, ch, now);
    else lab_key(u, ch, now);
    return 0;
}

/* ---- the loop (loop.h): redrawn after a key, at most every 0.1 s while
 * training runs or results arrive, and once when the highlight of a changed
 * setting expires; idle, nothing ---- */

static int lab_tick(void *self, double now) {
    Tui *u = self;
    (void)now;
    int changed = u->lesson.play.run && tui_lesson_tick(&u->lesson, u->lab);
    changed |= pl_lab_tick(u->lab);
    int training = pl_lab_training(u->lab)->active;
    if (u->was_training && !training && u->cold_message) u->message[0] = '\0'; /* the result replaces "retraining" */
    u->was_training = training;
    if (pl_lab_take_notice(u->lab, u->message, sizeof u->message)) changed = 1;
    return changed;
}

static int lab_due(void *self, double now, double last_draw) {
    const Tui *u = self;
    return u->flash_until > last_draw && now >= u->flash_until;
}

static void lab_draw(void *self, double now) { draw(self, now); }
static int lab_on_key(void *self, int ch, double now) { return on_key(self, ch, now); }

static void loop(Tui *u) {
    const TuiLoop l = {.self = u, .tick = lab_tick, .due = lab_due, .draw = lab_draw, .key = lab_on_key};
    tui_loop_run(&l);
}

PlSession *tui_start_settings(const TuiArgs *a, PlLabSettings *s, char *problem, int cap) {
    PlSessionOpen o;
    pl_session_open(&o, a->session, &a->settings, a->given);
    if (o.error[0]) fprintf(stderr, "padlab: %s; starting with the default settings\n", o.error);
    if (problem) snprintf(problem, (size_t)cap, "%s", o.problem);
    *s = o.settings;
    return o.session;
}

int tui_run(const TuiArgs *a, char *why, int cap) {
    PlSessionOpen so;
    pl_session_open(&so, a->session, &a->settings, a->given);
    if (so.error[0]) fprintf(stderr, "padlab: %s; starting with the default settings\n", so.error);
    PlLabSettings s = so.settings;
    PlSession *sess = so.session;
    const char *save = so.save[0] ? so.save : NULL;
    char problem[sizeof so.problem];
    snprintf(problem, sizeof problem, "%s", so.problem);
    PlErr err;
    PlLab *lab = pl_lab_new(&s, &err);
    if (!lab) {
        pl_session_free(sess);
        fprintf(stderr, "padlab: %s\n", err.msg);
        return 2;
    }
    if (sess) pl_lab_restore(lab, sess);
    pl_session_free(sess);
    Tui u;
    memset(&u, 0, sizeof u);
    int opened =
        a->lesson || a->review ? tui_lesson_open(&u.lesson, lab, a->lesson, a->present, problem, sizeof problem) : 0;
    if (opened) { /* 1: no question is due, which is said, not an error */
        fprintf(opened > 0 ? stdout : stderr, "padlab: %s\n", problem);
        pl_lab_free(lab);
        return opened > 0 ? 0 : 2;
    }
    if (tui_screen_start(&a->screen, why, cap)) {
        if (u.lesson.play.run) tui_lesson_close(&u.lesson);
        pl_lab_free(lab);
        return -1;
    }
    pl_lab_autosave(lab, save);
    u.lab = lab;
    snprintf(u.message, sizeof u.message, "%.255s", problem);
    u.selected = -1;
    u.panes[PL_VIEW_BATCH].follow = 1;
    u.present = a->present;
    int nruns;
    pl_lab_runs(lab, &nruns);
    if (!nruns && !u.lesson.play.run)
        pl_lab_command(lab, PL_CMD_RUN); /* a session's runs come back as they were; a lesson trains when it says */
    pl_lab_take_changes(lab);
    loop(&u);
    tui_screen_end();
    int rc = 0;
    if (u.lesson.play.run) {
        pl_lesson_play_save(&u.lesson.play);
        if (u.lesson.play.unsaved[0]) fprintf(stderr, "padlab: %s\n", u.lesson.play.unsaved), rc = 1;
        tui_lesson_close(&u.lesson);
    }
    if (save && pl_lab_save_session(lab, save, &err)) {
        fprintf(stderr, "padlab: %s\n", err.msg);
        rc = 1;
    }
    /* The session is saved: a training inside a long batch, or a worker stuck
     * in OpenBLAS, is not waited for beyond a second; the exit ends it. */
    pl_lab_close(lab, 1.0);
    if (tui_screen_quit_signal()) rc = 128 + tui_screen_quit_signal();
    return rc;
}
