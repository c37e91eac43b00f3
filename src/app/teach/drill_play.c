/* A drill as a front end plays it (see drill_play.h): opening the deck,
 * setting up what each item needs, the keys as drill steps, saving. */
#include "drill_play.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pl_drill_play_save(PlDrillPlay *p) {
    PlErr err;
    if (p->keep && p->book_ok && pl_drill_book_save(p->book, &err)) {
        snprintf(p->unsaved, sizeof p->unsaved, "progress not saved: %.270s", err.msg);
        snprintf(p->note, sizeof p->note, "%s", p->unsaved);
        p->book_ok = 0; /* the drill goes on, and the note stays */
    } else if (p->keep && p->book_ok && p->book->notice[0]) {
        snprintf(p->note, sizeof p->note, "%.290s", p->book->notice);
        p->book->notice[0] = '\0';
    }
}

static void drop_case(PlDrillPlay *p) {
    pl_bug_run_free(p->bug);
    p->bug = NULL;
}

/* Sets up what the item on screen needs: its case's lab, or the deck's lab
 * at the item's settings when it holds a figure. */
static void sync_item(PlDrillPlay *p) {
    const PlDeckItem *it = pl_drill_item(p->drill);
    int item = pl_drill_state(p->drill)->item;
    if (item == p->shown_item) return;
    p->shown_item = item, p->scroll = 0, p->zoom = 0;
    drop_case(p);
    PlErr err;
    if (!it) return;
    if (p->deck->kind == PL_DECK_BUGS) {
        if (!(p->bug = pl_bug_run_new(p->deck, it, &p->settings, &err)))
            snprintf(p->note, sizeof p->note, "%.290s", err.msg);
        return;
    }
    if (!pl_deck_item_kinds(it)) return;
    PlLabSettings s;
    pl_deck_item_settings(&p->settings, p->deck, it, &s);
    if (!p->lab && (p->lab = pl_lab_new(&s, &err))) pl_lab_autotrain(p->lab, 0);
    else if (p->lab && pl_lab_apply(p->lab, &s, &err) < 0) snprintf(p->note, sizeof p->note, "%.290s", err.msg);
    if (!p->lab) snprintf(p->note, sizeof p->note, "%.290s", err.msg);
}

static int load_deck(PlDrillPlay *p, const char *name, int item, char *why, int cap) {
    char path[1024];
    PlErr err;
    int found = pl_deck_find(name, path, sizeof path);
    if (found == -2) return snprintf(why, (size_t)cap, "out of memory while looking for the deck '%.200s'", name), -1;
    if (found) return snprintf(why, (size_t)cap, "no deck '%.200s' (padlab drill --list)", name), -1;
    if (!(p->deck = pl_deck_load(path, &err))) return snprintf(why, (size_t)cap, "%.400s", err.msg), -1;
    p->own_deck = 1;
    if (item >= p->deck->n)
        return snprintf(why, (size_t)cap, "%.96s has %s 1 to %d, not %d", p->deck->name,
                        pl_deck_item_noun(p->deck->kind), p->deck->n, item + 1),
               -1;
    return 0;
}

static int begin(PlDrillPlay *p, const PlDrillOpts *o, double now, char *why, int cap) {
    if (!(p->drill = pl_drill_new(p->deck, p->book, o, now)))
        return snprintf(why, (size_t)cap, "out of memory for the drill"), pl_drill_play_close(p), -1;
    sync_item(p);
    return 0;
}

int pl_drill_play_open(PlDrillPlay *p, const char *name, const PlLabSettings *s, const PlDrillOpts *o, int item,
                       double now, char *why, int cap) {
    memset(p, 0, sizeof *p);
    p->settings = *s, p->shown_item = -1, p->keep = item < 0, p->book = &p->own_book;
    pl_drill_book_init(p->book, ""); /* an item alone keeps its grades in memory only */
    if (load_deck(p, name, item, why, cap)) return pl_drill_play_close(p), -1;
    PlErr err;
    if (p->keep) {
        p->book_ok = pl_drill_book_load(p->book, &err) == PL_OK;
        if (!p->book_ok) snprintf(p->note, sizeof p->note, "%.260s (progress will not be saved)", err.msg);
        else if (p->book->notice[0]) snprintf(p->note, sizeof p->note, "%.290s", p->book->notice);
    }
    PlDrillOpts oo = *o;
    if (item >= 0) oo.only = item + 1, oo.all = 1;
    return begin(p, &oo, now, why, cap);
}

int pl_drill_play_start(PlDrillPlay *p, PlDeck *deck, PlDrillBook *book, int book_ok, const PlLabSettings *s,
                        const PlDrillOpts *o, double now, char *why, int cap) {
    memset(p, 0, sizeof *p);
    p->settings = *s, p->shown_item = -1, p->keep = 1, p->deck = deck, p->book = book, p->book_ok = book_ok;
    return begin(p, o, now, why, cap);
}

void pl_drill_play_close(PlDrillPlay *p) {
    if (p->drill) pl_drill_play_save(p);
    drop_case(p);
    pl_drill_free(p->drill);
    pl_lab_close(p->lab, 1.0); /* quitting never waits on a batch beyond a second */
    if (p->own_deck) pl_deck_free(p->deck);
    pl_drill_book_done(&p->own_book);
    memset(p, 0, sizeof *p);
    p->shown_item = -1;
}

/* ---- keys ---- */

static void view_key(PlDrillPlay *p, int ch) {
    PlLab *lab = pl_bug_run_lab(p->bug);
    PlLabSettings next = *pl_lab_settings(lab);
    next.view = ch == '0' ? 9 : ch - '1';
    pl_lab_apply(lab, &next, NULL);
}

static void apply_fix(PlDrillPlay *p) {
    PlErr err;
    if (pl_bug_run_state(p->bug)->phase != PL_BUG_SHOWN) {
        snprintf(p->note, sizeof p->note, "the lab is still computing the symptom: the fix comes once it is shown");
        return;
    }
    if (pl_bug_run_fix(p->bug, &err)) snprintf(p->note, sizeof p->note, "%.290s", err.msg);
    else pl_drill_fix(p->drill), p->note[0] = '\0';
}

/* Keys of a bug case's view: digits pick a view, z zooms, f fixes. 1 when taken. */
static int case_key(PlDrillPlay *p, int ch) {
    if (!p->bug) return 0;
    if (ch >= '0' && ch <= '9') return view_key(p, ch), 1;
    if (ch == 'z') return p->zoom = !p->zoom, 1;
    if (ch == 'f' && pl_drill_state(p->drill)->phase == PL_DRILL_BACK) return apply_fix(p), 1;
    return 0;
}

static int cards_like(PlDeckKind k) { return k == PL_DECK_CARDS || k == PL_DECK_MINUTE; }

/* The drill's own steps; 1 when the key was one (taken or refused). */
static int step_key(PlDrillPlay *p, int ch, double now) {
    const PlDrillState *s = pl_drill_state(p->drill);
    PlDeckKind k = p->deck->kind;
    int go = ch == ' ' || ch == '\n', rc;
    if (s->phase == PL_DRILL_FRONT && go && cards_like(k)) rc = pl_drill_reveal(p->drill, now);
    else if (ch >= '1' && ch <= '4' && cards_like(k))
        rc = pl_drill_grade(p->drill, ch - '0', now), pl_drill_play_save(p); /* on the front: refused, and told why */
    else if (s->phase == PL_DRILL_FRONT && ch >= 'a' && ch <= 'f' && !cards_like(k))
        rc = pl_drill_choose(p->drill, ch - 'a', now), pl_drill_play_save(p);
    else if (s->phase != PL_DRILL_FRONT && go && !cards_like(k)) rc = pl_drill_next(p->drill, now);
    else return 0;
    snprintf(p->note, sizeof p->note, "%s", rc ? s->message : p->unsaved);
    if (!rc)
        p->scroll = s->phase == PL_DRILL_FRONT ? 0 : PL_DRILL_SCROLL_END; /* an answer's feedback comes into view */
    sync_item(p);
    return 1;
}

static int scroll_key(PlDrillPlay *p, PlDrillKey k) {
    int by = k == PL_DK_UP ? -1 : k == PL_DK_DOWN ? 1 : k == PL_DK_PGUP ? -10 : k == PL_DK_PGDN ? 10 : 0;
    if (!by) return 0;
    if (p->scroll >= PL_DRILL_SCROLL_END)
        p->scroll = PL_DRILL_SCROLL_END - 1; /* clamped by the front end on the next frame */
    p->scroll = p->scroll + by > 0 ? p->scroll + by : 0;
    return 1;
}

int pl_drill_play_key(PlDrillPlay *p, PlDrillKey k, int ch, double now) {
    if (!p->drill) return PL_DRILL_IGNORED;
    if (k == PL_DK_CHAR && (ch == 'q' || ch == 'Q')) return PL_DRILL_QUIT;
    if (pl_drill_state(p->drill)->phase == PL_DRILL_END) return k == PL_DK_ENTER ? PL_DRILL_QUIT : PL_DRILL_IGNORED;
    if (scroll_key(p, k)) return PL_DRILL_TAKEN;
    if (k == PL_DK_ENTER) k = PL_DK_CHAR, ch = '\n';
    if (k != PL_DK_CHAR) return PL_DRILL_IGNORED;
    return step_key(p, ch, now) || case_key(p, ch) ? PL_DRILL_TAKEN : PL_DRILL_IGNORED;
}

/* ---- the labs ---- */

int pl_drill_play_tick(PlDrillPlay *p, double now) {
    int changed = 0;
    if (!p->drill) return 0;
    if (p->bug) changed |= pl_bug_run_tick(p->bug);
    if (p->lab) {
        const PlDeckItem *it = pl_drill_item(p->drill);
        if (it) pl_lab_demand(p->lab, pl_deck_item_kinds(it));
        changed |= pl_lab_tick(p->lab);
    }
    if (pl_drill_tick(p->drill, now)) changed = 1, pl_drill_play_save(p);
    return changed;
}

int pl_drill_play_busy(const PlDrillPlay *p) {
    if (!p->bug) return 0;
    PlBugPhase ph = pl_bug_run_state(p->bug)->phase;
    return ph == PL_BUG_COMPUTING || ph == PL_BUG_FIXING;
}

int pl_drill_play_wait(PlDrillPlay *p, double timeout) {
    if (p->bug) return pl_bug_run_wait(p->bug, timeout);
    const PlDeckItem *it = p->drill ? pl_drill_item(p->drill) : NULL;
    if (p->lab && it) return pl_lab_wait(p->lab, pl_deck_item_kinds(it), timeout) ? -1 : 0;
    return 0;
}

PlLab *pl_drill_play_view_lab(PlDrillPlay *p) { return p->bug ? pl_bug_run_lab(p->bug) : NULL; }

void pl_drill_play_head(const PlDrillPlay *p, char *left, int lcap, char *right, int rcap) {
    const PlDrillState *s = pl_drill_state(p->drill);
    snprintf(left, (size_t)lcap, "padlab drill: %s (%s)", p->deck->title, pl_deck_kind_name(p->deck->kind));
    if (s->phase != PL_DRILL_END) snprintf(right, (size_t)rcap, "%d of %d", s->at + 1, s->total);
    else snprintf(right, (size_t)rcap, "%s", "");
}

/* A key bar's text, and the same when the progress cannot be written. */
#define KEPT(text) \
    { text " (progress is kept)", text " (progress NOT saved)" }
#define SAME(text) \
    { text, text }

static const char *const keys[PL_DECK_KINDS][3][2] = {
    [PL_DECK_CARDS] = {KEPT("space show the answer   up/down scroll   q quit"),
                       SAME("1 again  2 hard  3 good  4 easy   up/down scroll   q quit"),
                       {"", ""}},
    [PL_DECK_QUESTIONS] = {KEPT("a-f answer   up/down scroll   q quit"),
                           SAME("space next question   up/down scroll   q quit"),
                           {"", ""}},
    [PL_DECK_BUGS] = {SAME("a-f the cause   1-0 views   z zoom   up/down scroll   q quit"),
                      SAME("f apply the fix   space next case   1-0 views   z zoom   q quit"),
                      SAME("space next case   1-0 views   z zoom   up/down scroll   q quit")},
    [PL_DECK_MINUTE] = {KEPT("space show the model answer   up/down scroll   q quit"),
                        SAME("1 again  2 hard  3 good  4 easy   up/down scroll   q quit"),
                        {"", ""}},
};
static const char *const end_keys[2] = KEPT("Enter or q quit");

const char *pl_drill_play_keys(const PlDrillPlay *p) {
    const PlDrillState *s = pl_drill_state(p->drill);
    int lost = p->unsaved[0] != '\0';
    if (s->phase == PL_DRILL_END) return end_keys[lost];
    return keys[p->deck->kind][s->phase == PL_DRILL_FRONT ? 0 : s->phase == PL_DRILL_BACK ? 1 : 2][lost];
}
