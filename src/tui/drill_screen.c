/* The drill's main loop: poll the case's lab and the deck's lab, draw, read
 * a key, turn it into a step of the drill (app/drill.h). The layout:
 *
 *   row 0        the deck and where the session is
 *   rows ..      the item (scrolls), and beside a bug case one view of its
 *                lab: side by side from 130 columns, one above the other
 *                below that; z gives the view the whole screen
 *   last row     the keys of the phase
 *
 * Without a deck named it opens on the picker: every deck, its kind, its
 * items and how many are due today. */
#include "drill_screen.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/worker.h"
#include "drill_ui.h"
#include "views.h"

#define MIN_COLS 80
#define MIN_ROWS 24
#define SIDE_COLS 130
#define VIEW_COLS 80

/* ---- decks and the session ---- */

static void load_decks(TuiDrill *u) {
    char (*paths)[1024] = malloc(TUI_DRILL_DECKS * sizeof *paths);
    int n = paths ? pl_deck_list(paths, TUI_DRILL_DECKS) : 0;
    for (int i = 0; i < n && u->ndecks < TUI_DRILL_DECKS; i++) {
        PlErr err;
        PlDeck *d = pl_deck_load(paths[i], &err);
        if (d) u->decks[u->ndecks++] = d;
        else if (!u->note[0]) snprintf(u->note, sizeof u->note, "left out: %.280s", err.msg);
    }
    free(paths);
}

static void save(TuiDrill *u) {
    PlErr err;
    if (u->book_ok && pl_drill_book_save(&u->book, &err)) {
        snprintf(u->note, sizeof u->note, "progress not saved: %.270s", err.msg);
        u->book_ok = 0; /* said once; the drill goes on */
    }
}

static void drop_case(TuiDrill *u) {
    pl_bug_run_free(u->bug);
    u->bug = NULL;
}

static void close_deck(TuiDrill *u) {
    drop_case(u);
    pl_drill_free(u->drill);
    pl_lab_free(u->lab);
    u->drill = NULL, u->lab = NULL, u->deck = NULL, u->shown_item = -1;
}

/* Sets up what the item on screen needs: its case's lab, or the deck's lab
 * at the item's settings when it holds a figure. */
static void sync_item(TuiDrill *u) {
    const PlDeckItem *it = pl_drill_item(u->drill);
    int item = pl_drill_state(u->drill)->item;
    if (item == u->shown_item) return;
    u->shown_item = item, u->scroll = 0, u->pane.scroll = 0, u->zoom = 0;
    drop_case(u);
    PlErr err;
    if (!it) return;
    if (u->deck->kind == PL_DECK_BUGS) {
        if (!(u->bug = pl_bug_run_new(u->deck, it, &u->a.settings, &err))) snprintf(u->note, sizeof u->note, "%.290s", err.msg);
        return;
    }
    if (!pl_deck_item_kinds(it)) return;
    PlLabSettings s;
    pl_deck_item_settings(&u->a.settings, u->deck, it, &s);
    if (!u->lab && (u->lab = pl_lab_new(&s, &err))) pl_lab_autotrain(u->lab, 0);
    else if (u->lab && pl_lab_apply(u->lab, &s, &err) < 0) snprintf(u->note, sizeof u->note, "%.290s", err.msg);
    if (!u->lab) snprintf(u->note, sizeof u->note, "%.290s", err.msg);
}

static int open_deck(TuiDrill *u, PlDeck *d, double now) {
    close_deck(u);
    PlDrillOpts o = {.today = u->today, .all = u->a.all, .count = u->a.count, .timed = u->a.timed, .seed = (unsigned)u->today};
    if (!(u->drill = pl_drill_new(d, &u->book, &o, now))) return snprintf(u->note, sizeof u->note, "out of memory for the drill"), -1;
    u->deck = d, u->note[0] = '\0';
    sync_item(u);
    return 0;
}

/* ---- drawing ---- */

static void bar(int y, TuiColor c, const char *left, const char *right) {
    tui_color(c);
    mvhline(y, 0, ' ', COLS);
    tui_put(y, 0, COLS, "%s", left);
    int w = tui_width(right);
    if (w + tui_width(left) < COLS) tui_put(y, COLS - w, w, "%s", right);
    tui_color_off(c);
}

static void draw_picker(TuiDrill *u) {
    bar(0, TUI_TITLE, " padlab drill: pick a deck", "");
    int y = 2;
    tui_put(y++, 2, COLS - 4, "%-22s %-10s %5s %5s  %s", "deck", "kind", "items", "due", "title");
    for (int i = 0; i < u->ndecks && y < LINES - 3; i++, y++) {
        const PlDeck *d = u->decks[i];
        TuiColor c = i == u->pick ? TUI_SELECTED : TUI_NORMAL;
        tui_color(c);
        mvhline(y, 1, ' ', COLS - 2);
        tui_put(y, 2, COLS - 4, "%-22.22s %-10s %5d %5d  %s", d->name, pl_deck_kind_name(d->kind), d->n,
                pl_drill_due_count(d, &u->book, u->today), d->title);
        tui_color_off(c);
    }
    if (!u->ndecks) tui_put(y++, 2, COLS - 4, "no decks found (padlab drill --list says where they are looked for)");
    if (u->ndecks && y + 2 < LINES - 2) { /* the chosen deck's title and about in full: the table's column may clip them */
        const PlDeck *d = u->decks[u->pick];
        u->lines->n = 0;
        tui_lines_wrap(u->lines, d->title, COLS - 4, TUI_TITLE, 2);
        if (d->about) tui_lines_wrap(u->lines, d->about, COLS - 4, TUI_NORMAL, 2);
        int scroll = 0;
        tui_lines_draw(u->lines, (TuiBox){y + 1, 2, LINES - 3 - (y + 1), COLS - 4}, &scroll);
    }
    if (u->note[0]) {
        tui_color(TUI_DIM);
        tui_put(LINES - 2, 1, COLS - 2, "%s", u->note);
        tui_color_off(TUI_DIM);
    }
    bar(LINES - 1, TUI_KEY, tui_drill_keys(u), "");
}

/* The boxes of the item's text and of the case's view (h 0: no view). */
static void boxes(const TuiDrill *u, TuiBox *text, TuiBox *view) {
    int top = 1, h = LINES - 2;
    *text = (TuiBox){top, 1, h, COLS - 2};
    *view = (TuiBox){top, 0, 0, 0};
    if (!u->bug) return;
    if (u->zoom) *view = (TuiBox){top, 1, h, COLS - 2}, text->h = 0;
    else if (COLS >= SIDE_COLS) *text = (TuiBox){top, 1, h, COLS - VIEW_COLS - 3}, *view = (TuiBox){top, COLS - VIEW_COLS - 1, h, VIEW_COLS};
    else {
        int th = h * (h < 26 ? 13 : 11) / 20; /* a short screen keeps the case's measure in sight */
        *text = (TuiBox){top, 1, th, COLS - 2};
        *view = (TuiBox){top + th + 1, 1, h - th - 1, COLS - 2};
    }
}

/* A rule of n cells between the text and the view, across or down. */
static void rule(int y, int x, int n, int across) {
    const char *g = tui_glyph(across ? TUI_G_HRULE : TUI_G_VRULE);
    for (int i = 0; i < n; i++) tui_put(across ? y : y + i, across ? x + i : x, 1, "%s", g);
}

static void draw_session(TuiDrill *u, double now) {
    const PlDrillState *s = pl_drill_state(u->drill);
    char left[300], right[64] = "";
    snprintf(left, sizeof left, " padlab drill: %s (%s)", u->deck->title, pl_deck_kind_name(u->deck->kind));
    if (s->phase != PL_DRILL_END) snprintf(right, sizeof right, "%d of %d ", s->at + 1, s->total);
    bar(0, TUI_TITLE, left, right);
    TuiBox text, view;
    boxes(u, &text, &view);
    if (text.h > 0) {
        tui_drill_lay_out(u, text.w - 1, now);
        tui_lines_draw(u->lines, text, &u->scroll);
    }
    if (view.h > 0) {
        if (text.h > 0 && view.y > text.y) rule(view.y - 1, 0, COLS, 1);
        if (text.h > 0 && view.x > text.x) rule(view.y, view.x - 1, view.h, 0);
        PlLab *lab = pl_bug_run_lab(u->bug);
        u->pane.box = view;
        tui_view_draw(lab, (PlView)pl_lab_settings(lab)->view, &u->pane);
    }
    bar(LINES - 1, TUI_KEY, tui_drill_keys(u), "");
}

static void draw(TuiDrill *u, double now) {
    erase();
    u->too_small = LINES < MIN_ROWS || COLS < MIN_COLS;
    if (u->too_small) tui_put(LINES / 2, 0, COLS, "terminal too small (need %dx%d, have %dx%d); q quits", MIN_COLS, MIN_ROWS, COLS, LINES);
    else if (u->drill) draw_session(u, now);
    else draw_picker(u);
    refresh();
}

/* ---- keys ---- */

static int picker_key(TuiDrill *u, int ch, double now) {
    if (ch == KEY_UP || ch == 'k') u->pick = u->pick > 0 ? u->pick - 1 : 0;
    else if (ch == KEY_DOWN || ch == 'j') u->pick = u->pick + 1 < u->ndecks ? u->pick + 1 : u->pick;
    else if ((ch == '\n' || ch == KEY_ENTER || ch == ' ') && u->ndecks) open_deck(u, u->decks[u->pick], now);
    return 0;
}

static void bug_view_key(TuiDrill *u, int ch) {
    PlLab *lab = pl_bug_run_lab(u->bug);
    PlLabSettings next = *pl_lab_settings(lab);
    next.view = ch == '0' ? 9 : ch - '1';
    pl_lab_apply(lab, &next, NULL);
    u->pane.scroll = 0;
}

static void apply_fix(TuiDrill *u) {
    PlErr err;
    if (pl_bug_run_state(u->bug)->phase != PL_BUG_SHOWN) {
        snprintf(u->note, sizeof u->note, "the lab is still computing the symptom: the fix comes once it is shown");
        return;
    }
    if (pl_bug_run_fix(u->bug, &err)) snprintf(u->note, sizeof u->note, "%.290s", err.msg);
    else pl_drill_fix(u->drill);
}

/* Keys of the bug case's view: digits pick a view, j/k scroll it, z zooms. 1 when taken. */
static int case_key(TuiDrill *u, int ch) {
    if (!u->bug) return 0;
    if (ch >= '0' && ch <= '9') return bug_view_key(u, ch), 1;
    if (ch == 'j') return u->pane.scroll++, 1;
    if (ch == 'k') return u->pane.scroll = u->pane.scroll > 0 ? u->pane.scroll - 1 : 0, 1;
    if (ch == 'z') return u->zoom = !u->zoom, 1;
    if (ch == 'f' && pl_drill_state(u->drill)->phase == PL_DRILL_BACK) return apply_fix(u), 1;
    return 0;
}

/* The drill's own steps; 1 when the key was one (taken or refused). */
static int step_key(TuiDrill *u, int ch, double now) {
    const PlDrillState *s = pl_drill_state(u->drill);
    PlDeckKind k = u->deck->kind;
    int go = ch == ' ' || ch == '\n' || ch == KEY_ENTER, rc = 1;
    if (s->phase == PL_DRILL_FRONT && go && (k == PL_DECK_CARDS || k == PL_DECK_MINUTE)) rc = pl_drill_reveal(u->drill, now);
    else if (ch >= '1' && ch <= '4' && (k == PL_DECK_CARDS || k == PL_DECK_MINUTE)) { /* on the front: refused, and told why */
        rc = pl_drill_grade(u->drill, ch - '0', now);
        save(u);
    } else if (s->phase == PL_DRILL_FRONT && ch >= 'a' && ch <= 'f' && (k == PL_DECK_QUESTIONS || k == PL_DECK_BUGS)) {
        rc = pl_drill_choose(u->drill, ch - 'a', now);
        save(u);
    } else if (s->phase != PL_DRILL_FRONT && go && (k == PL_DECK_QUESTIONS || k == PL_DECK_BUGS)) rc = pl_drill_next(u->drill, now);
    else return 0;
    snprintf(u->note, sizeof u->note, "%s", rc ? s->message : "");
    if (!rc) u->scroll = s->phase == PL_DRILL_FRONT ? 0 : TUI_LINES_MAX; /* an answer's feedback comes into view */
    sync_item(u);
    return 1;
}

static int scroll_key(TuiDrill *u, int ch) {
    if (ch == KEY_UP) u->scroll = u->scroll > 0 ? u->scroll - 1 : 0;
    else if (ch == KEY_DOWN) u->scroll++;
    else if (ch == KEY_PPAGE) u->scroll = u->scroll > 10 ? u->scroll - 10 : 0;
    else if (ch == KEY_NPAGE) u->scroll += 10;
    else return 0;
    return 1;
}

/* Returns 1 when the learner asked to quit. */
static int on_key(TuiDrill *u, int ch, double now) {
    if (ch == 'q' || ch == 'Q') return 1;
    if (u->too_small) return 0; /* nothing acts unseen */
    if (!u->drill) return picker_key(u, ch, now);
    if (pl_drill_state(u->drill)->phase == PL_DRILL_END) {
        if (ch == '\n' || ch == KEY_ENTER) {
            close_deck(u);
            if (!u->ndecks) load_decks(u);
        }
        return 0;
    }
    if (scroll_key(u, ch) || step_key(u, ch, now) || case_key(u, ch)) return 0;
    return 0;
}

/* ---- the loop ---- */

/* Polls the labs and the clock; 1 when the screen should be drawn again. */
static int tick(TuiDrill *u, double now) {
    int changed = 0;
    if (u->bug) changed |= pl_bug_run_tick(u->bug);
    if (u->lab) {
        const PlDeckItem *it = pl_drill_item(u->drill);
        if (it) pl_lab_demand(u->lab, pl_deck_item_kinds(it));
        changed |= pl_lab_tick(u->lab);
    }
    if (u->drill && pl_drill_tick(u->drill, now)) changed = 1, save(u);
    return changed;
}

static void loop(TuiDrill *u) {
    double last_draw = -1.0;
    int dirty = 1, pending = 0; /* pending: a change not drawn yet, kept until the throttle lets it through */
    while (!tui_screen_should_quit()) {
        double now = pl_app_clock();
        pending |= tick(u, now);
        int clock = u->drill && pl_drill_time_left(u->drill, now) >= 0.0; /* a countdown on screen */
        int busy = u->bug && pl_bug_run_state(u->bug)->phase != PL_BUG_SHOWN && pl_bug_run_state(u->bug)->phase != PL_BUG_FIXED;
        if ((pending || busy) && now - last_draw > 0.1) dirty = 1;
        if (clock && now - last_draw > 0.25) dirty = 1;
        if (dirty) draw(u, now), dirty = pending = 0, last_draw = now;
        int ch = getch();
        if (ch == ERR) continue;
        if (ch == KEY_RESIZE) {
            clear();
            dirty = 1;
            continue;
        }
        if (on_key(u, ch, pl_app_clock())) break;
        dirty = 1;
    }
}

/* The deck named on the command line: one of the folders', or a file. */
static PlDeck *named_deck(TuiDrill *u, const char *name, char *why, int cap) {
    char path[1024];
    PlErr err;
    if (pl_deck_find(name, path, sizeof path)) return snprintf(why, (size_t)cap, "no deck '%.200s' (padlab drill --list)", name), NULL;
    for (int i = 0; i < u->ndecks; i++)
        if (strcmp(u->decks[i]->path, path) == 0) return u->decks[i];
    PlDeck *d = pl_deck_load(path, &err);
    if (!d) return snprintf(why, (size_t)cap, "%.400s", err.msg), NULL;
    if (u->ndecks < TUI_DRILL_DECKS) u->decks[u->ndecks++] = d;
    return d;
}

static void finish(TuiDrill *u) {
    close_deck(u);
    for (int i = 0; i < u->ndecks; i++) pl_deck_free(u->decks[i]);
    pl_drill_book_done(&u->book);
    free(u->lines);
    free(u);
}

int tui_drill_run(const TuiDrillArgs *a, char *why, int cap) {
    TuiDrill *u = calloc(1, sizeof *u);
    if (!u || !(u->lines = malloc(sizeof *u->lines))) {
        free(u);
        fprintf(stderr, "padlab drill: out of memory\n");
        return 2;
    }
    u->a = *a, u->today = pl_sched_today(), u->shown_item = -1;
    PlErr err;
    u->book_ok = pl_drill_book_load(&u->book, &err) == PL_OK;
    if (!u->book_ok) snprintf(u->note, sizeof u->note, "%.260s (progress will not be saved)", err.msg);
    PlDeck *start = NULL;
    char problem[512];
    if (a->deck && !(start = named_deck(u, a->deck, problem, sizeof problem))) {
        fprintf(stderr, "padlab drill: %s\n", problem);
        finish(u);
        return 2;
    }
    if (!a->deck) load_decks(u);
    if (tui_screen_start(&a->screen, why, cap)) {
        finish(u);
        return -1;
    }
    char note[300];
    snprintf(note, sizeof note, "%s", u->note);
    if (start) open_deck(u, start, pl_app_clock());
    if (note[0] && !u->note[0]) snprintf(u->note, sizeof u->note, "%s", note);
    loop(u);
    tui_screen_end();
    save(u);
    int rc = 0;
    if (!u->book_ok && strncmp(u->note, "progress not saved", 18) == 0) fprintf(stderr, "padlab drill: %s\n", u->note), rc = 1;
    finish(u);
    return rc;
}
