/* The drill's screen: the session's labs polled, drawn and given keys by
 * the terminal's one loop (loop.h), the session played by the app layer
 * (app/drill_play.h, the same as the window's). The layout:
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

#include "app/lab/worker.h"
#include "app/teach/lesson_review.h"
#include "drill_ui.h"
#include "loop.h"
#include "views.h"

#define MIN_COLS 80
#define MIN_ROWS 24
#define SIDE_COLS 130
#define VIEW_COLS 80
#define VIEW_MIN_ROWS 6 /* what a case's view keeps when the causes grow the text */

/* ---- decks and the session ---- */

static void load_decks(TuiDrill *u) {
    char(*paths)[1024] = malloc(TUI_DRILL_DECKS * sizeof *paths);
    int n = paths ? pl_deck_list(paths, TUI_DRILL_DECKS) : -1;
    if (n < 0) snprintf(u->note, sizeof u->note, "out of memory while listing the decks");
    for (int i = 0; i < n && u->ndecks < TUI_DRILL_DECKS; i++) {
        PlErr err;
        PlDeck *d = pl_deck_load(paths[i], &err);
        if (d) u->decks[u->ndecks++] = d;
        else if (!u->note[0]) snprintf(u->note, sizeof u->note, "left out: %.280s", err.msg);
    }
    free(paths);
    PlErr err;
    pl_deck_free(u->lessons), u->lessons = NULL;
    PlDeck *d = pl_lesson_deck(&u->book, u->today, NULL, NULL, &err);
    if (!d) snprintf(u->note, sizeof u->note, "%.290s", err.msg);
    if (d && d->n) u->lessons = d, u->lesson_due = pl_drill_due_count(d, &u->book, u->today);
    else pl_deck_free(d);
}

static void save(TuiDrill *u) {
    PlErr err;
    if (u->book_ok && pl_drill_book_save(&u->book, &err)) {
        snprintf(u->unsaved, sizeof u->unsaved, "progress not saved: %.270s", err.msg);
        snprintf(u->note, sizeof u->note, "%s", u->unsaved);
        u->book_ok = 0; /* said once; the drill goes on */
    }
}

/* Ends the session, its progress written; a save that failed is told. */
static void close_deck(TuiDrill *u) {
    if (!u->play.drill) return;
    pl_drill_play_save(&u->play);
    u->book_ok = u->play.book_ok;
    if (u->play.unsaved[0]) snprintf(u->unsaved, sizeof u->unsaved, "%s", u->play.unsaved);
    if (u->play.unsaved[0]) snprintf(u->note, sizeof u->note, "%s", u->play.unsaved);
    pl_drill_play_close(&u->play);
}

static int open_deck(TuiDrill *u, PlDeck *d, double now) {
    close_deck(u);
    PlDrillOpts o = {
        .today = u->today, .all = u->a.all, .count = u->a.count, .timed = u->a.timed, .seed = (unsigned)u->today};
    char why[300];
    if (pl_drill_play_start(&u->play, d, &u->book, u->book_ok, &u->a.settings, &o, now, why, sizeof why))
        return snprintf(u->note, sizeof u->note, "%s", why), -1;
    if (u->unsaved[0]) snprintf(u->play.unsaved, sizeof u->play.unsaved, "%s", u->unsaved);
    u->play.picker = 1, u->pane_item = u->play.shown_item, u->pane.scroll = 0, u->note[0] = '\0';
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
    const PlDeck *l = u->lessons;
    if (l && y < LINES - 3) { /* the lesson questions: picked, they play in the lab */
        TuiColor c = u->pick == u->ndecks ? TUI_SELECTED : TUI_NORMAL;
        tui_color(c);
        mvhline(y, 1, ' ', COLS - 2);
        tui_put(y++, 2, COLS - 4, "%-22.22s %-10s %5d %5d  %s", l->name, pl_deck_kind_name(l->kind), l->n,
                u->lesson_due, l->title);
        tui_color_off(c);
    }
    if (!u->ndecks) tui_put(y++, 2, COLS - 4, "no decks found (padlab drill --list says where they are looked for)");
    if ((u->ndecks || l) &&
        y + 2 < LINES - 2) { /* the chosen deck's title and about in full: the table's column may clip them */
        const PlDeck *d = u->pick < u->ndecks ? u->decks[u->pick] : l;
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

/* The rows of text above a case's view when they share the height h: a
 * short screen keeps the case's measure in sight, and before the pick the
 * text grows to show the causes, the view keeping VIEW_MIN_ROWS. */
static int text_rows(TuiDrill *u, int h, double now) {
    int th = h * (h < 26 ? 13 : 11) / 20;
    if (pl_drill_state(u->play.drill)->phase != PL_DRILL_FRONT) return th;
    tui_drill_lay_out(u, COLS - 3, now);
    int want = u->lines->n < h - 1 - VIEW_MIN_ROWS ? u->lines->n : h - 1 - VIEW_MIN_ROWS;
    return want > th ? want : th;
}

/* The boxes of the item's text and of the case's view (h 0: no view). */
static void boxes(TuiDrill *u, TuiBox *text, TuiBox *view, double now) {
    int top = 1, h = LINES - 2;
    *text = (TuiBox){top, 1, h, COLS - 2};
    *view = (TuiBox){top, 0, 0, 0};
    if (!pl_drill_play_view_lab(&u->play)) return;
    if (u->play.zoom) *view = (TuiBox){top, 1, h, COLS - 2}, text->h = 0;
    else if (COLS >= SIDE_COLS)
        *text = (TuiBox){top, 1, h, COLS - VIEW_COLS - 3}, *view = (TuiBox){top, COLS - VIEW_COLS - 1, h, VIEW_COLS};
    else {
        int th = text_rows(u, h, now);
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
    char head[300], at[64], left[304], right[68];
    pl_drill_play_head(&u->play, head, sizeof head, at, sizeof at);
    snprintf(left, sizeof left, " %s", head);
    snprintf(right, sizeof right, at[0] ? "%s " : "%s", at);
    bar(0, TUI_TITLE, left, right);
    TuiBox text, view;
    boxes(u, &text, &view, now);
    if (text.h > 0) {
        tui_drill_lay_out(u, text.w - 1, now);
        tui_lines_draw(u->lines, text, &u->play.scroll);
    }
    if (view.h > 0) {
        if (text.h > 0 && view.y > text.y) rule(view.y - 1, 0, COLS, 1);
        if (text.h > 0 && view.x > text.x) rule(view.y, view.x - 1, view.h, 0);
        PlLab *lab = pl_drill_play_view_lab(&u->play);
        u->pane.box = view;
        tui_view_draw(lab, (PlView)pl_lab_settings(lab)->view, &u->pane);
    }
    bar(LINES - 1, TUI_KEY, tui_drill_keys(u), "");
}

static void draw(TuiDrill *u, double now) {
    erase();
    u->too_small = LINES < MIN_ROWS || COLS < MIN_COLS;
    if (u->too_small)
        tui_put(LINES / 2, 0, COLS, "terminal too small (need %dx%d, have %dx%d); q quits", MIN_COLS, MIN_ROWS, COLS,
                LINES);
    else if (u->play.drill) draw_session(u, now);
    else draw_picker(u);
    refresh();
}

/* ---- keys ---- */

/* 1 when the learner picked the lesson questions: the drill ends, the review follows. */
static int picker_key(TuiDrill *u, int ch, double now) {
    int rows = u->ndecks + (u->lessons != NULL);
    int enter = ch == '\n' || ch == KEY_ENTER || ch == ' ';
    if (ch == KEY_UP || ch == 'k') u->pick = u->pick > 0 ? u->pick - 1 : 0;
    else if (ch == KEY_DOWN || ch == 'j') u->pick = u->pick + 1 < rows ? u->pick + 1 : u->pick;
    else if (enter && u->pick == u->ndecks && u->lessons) {
        if (!u->lesson_due) return snprintf(u->note, sizeof u->note, "none of your lesson questions is due today"), 0;
        if (u->a.review) return *u->a.review = 1;
    } else if (enter && u->ndecks) open_deck(u, u->decks[u->pick], now);
    return 0;
}

/* j/k scroll a case's view: the terminal's own keys, its view being text. 1 when taken. */
static int pane_key(TuiDrill *u, int ch) {
    if (!pl_drill_play_view_lab(&u->play)) return 0;
    if (ch == 'j') return u->pane.scroll++, 1;
    if (ch == 'k') return u->pane.scroll = u->pane.scroll > 0 ? u->pane.scroll - 1 : 0, 1;
    return 0;
}

/* A key to the session; a new item or another view of a case starts its view at the top. */
static void session_key(TuiDrill *u, int ch, double now) {
    PlLab *lab = pl_drill_play_view_lab(&u->play);
    int view = lab ? pl_lab_settings(lab)->view : -1;
    PlPlayerKey k;
    if (tui_player_key(ch, &k)) pl_drill_player.key(&u->play, k, ch, now);
    lab = pl_drill_play_view_lab(&u->play);
    if (u->play.shown_item != u->pane_item || (lab && pl_lab_settings(lab)->view != view)) u->pane.scroll = 0;
    u->pane_item = u->play.shown_item;
}

/* Returns 1 when the learner asked to quit. */
static int on_key(TuiDrill *u, int ch, double now) {
    if (ch == 'q' || ch == 'Q') return 1;
    if (u->too_small) return 0;                        /* nothing acts unseen */
    if (!u->play.drill) return picker_key(u, ch, now); /* 1: the lesson questions were picked */
    if (pl_drill_state(u->play.drill)->phase == PL_DRILL_END) {
        if (ch == '\n' || ch == KEY_ENTER) {
            close_deck(u);
            if (!u->ndecks) load_decks(u);
        }
        return 0;
    }
    if (!pane_key(u, ch)) session_key(u, ch, now);
    return 0;
}

/* ---- the loop ---- */

/* Polls the labs and the clock: 1 when the screen should be drawn again,
 * or while a case's lab computes what the item shows. */
static int drill_tick(void *self, double now) {
    TuiDrill *u = self;
    int changed = pl_drill_play_tick(&u->play, now);
    return changed || pl_drill_play_busy(&u->play);
}

/* A countdown on screen is drawn four times a second. */
static int drill_due(void *self, double now, double last_draw) {
    TuiDrill *u = self;
    return u->play.drill && pl_drill_time_left(u->play.drill, now) >= 0.0 && now - last_draw > 0.25;
}

static void drill_draw(void *self, double now) { draw(self, now); }
static int drill_on_key(void *self, int ch, double now) { return on_key(self, ch, now); }

static void loop(TuiDrill *u) {
    const TuiLoop l = {.self = u, .tick = drill_tick, .due = drill_due, .draw = drill_draw, .key = drill_on_key};
    tui_loop_run(&l);
}

/* The deck named on the command line: one of the folders', or a file. */
static PlDeck *named_deck(TuiDrill *u, const char *name, char *why, int cap) {
    char path[1024];
    PlErr err;
    int found = pl_deck_find(name, path, sizeof path);
    if (found == -2) return snprintf(why, (size_t)cap, "out of memory while looking for the deck '%.200s'", name), NULL;
    if (found) return snprintf(why, (size_t)cap, "no deck '%.200s' (padlab drill --list)", name), NULL;
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
    pl_deck_free(u->lessons);
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
    u->a = *a, u->today = pl_sched_today(), u->play.shown_item = -1;
    PlErr err;
    u->book_ok = pl_drill_book_load(&u->book, &err) == PL_OK;
    if (!u->book_ok) snprintf(u->note, sizeof u->note, "%.260s (progress will not be saved)", err.msg);
    else if (u->book.notice[0]) snprintf(u->note, sizeof u->note, "%.290s", u->book.notice);
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
    if (note[0] && u->play.drill && !u->play.note[0])
        snprintf(u->play.note, sizeof u->play.note, "%s", note); /* the session shows its own note */
    loop(u);
    tui_screen_end();
    close_deck(u);
    save(u);
    int rc = 0;
    if (u->unsaved[0]) fprintf(stderr, "padlab drill: %s\n", u->unsaved), rc = 1;
    finish(u);
    if (tui_screen_quit_signal()) rc = 128 + tui_screen_quit_signal(); /* as a shell would report it */
    return rc;
}
