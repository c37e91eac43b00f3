/* A drill as a front end plays it: the deck, the session (drill.h), the
 * learner's progress book, the lab of a bug case (bugcase.h) or of an
 * item's figures, what the keys do, and what the item says as a page
 * (page.h). The window plays a drill through this alone; it only maps its
 * keys to PlDrillKey and draws the page in its one page pane. */
#ifndef PL_APP_DRILL_PLAY_H
#define PL_APP_DRILL_PLAY_H

#include <stddef.h>

#include "bugcase.h"
#include "drill.h"
#include "page.h"

typedef struct {
    PlDeck *deck; /* owned when opened by name, else the front end's */
    int own_deck;
    PlDrill *drill;
    PlDrillBook *book; /* own_book, or the front end's */
    PlDrillBook own_book;
    int keep;               /* the progress is kept (not for a picture of one item) */
    int book_ok;            /* the progress file could be read: it is written */
    int picker;             /* the front end has a deck picker: the end says Enter opens it */
    PlLabSettings settings; /* the learner's: every case and figure starts from them */
    PlLab *lab;             /* the deck's figures, made when an item holds one */
    PlBugRun *bug;          /* the case on screen */
    int shown_item;         /* the item the lab or the case was set up for; -1 */
    int scroll;             /* lines of the item scrolled past (the front end clamps it) */
    int zoom;               /* the case's view takes the whole pane */
    int ascii;              /* marks as + and x */
    char note[300];         /* a line for the learner (a refused key, a save that failed) */
    char unsaved[300];      /* why the progress could not be written, shown until the end; "" while it is */
} PlDrillPlay;

/* The scroll that shows the end of the item: the front end clamps it. */
#define PL_DRILL_SCROLL_END (1 << 20)

/* Opens deck `name` (a name or a path) on settings s. item >= 0: that item
 * of the deck alone, nothing kept (a picture); item < 0: the session o
 * says, progress read and written. 0, or -1 with why (no such deck, an
 * item past its end, no memory). */
int pl_drill_play_open(PlDrillPlay *p, const char *name, const PlLabSettings *s, const PlDrillOpts *o, int item,
                       double now, char *why, int cap);
/* Starts a session of deck recording into book (both borrowed; they must
 * outlive the play), written after each grade when book_ok. 0, or -1 with
 * why (no memory). */
int pl_drill_play_start(PlDrillPlay *p, PlDeck *deck, PlDrillBook *book, int book_ok, const PlLabSettings *s,
                        const PlDrillOpts *o, double now, char *why, int cap);
/* Saves the progress and frees what the play owns. Harmless on a closed one. */
void pl_drill_play_close(PlDrillPlay *p);

/* Writes the progress now (when it is kept and could be read); a failure
 * goes in the note, once. */
void pl_drill_play_save(PlDrillPlay *p);

/* What a key means to a drill; printable characters come as PL_DK_CHAR. */
typedef enum {
    PL_DK_CHAR,  /* ch: space goes on, 1-4 grade, a-f choose, f fix, 0-9 views, j/k the view, z zoom, q quit */
    PL_DK_ENTER, /* as space; at the end it quits */
    PL_DK_UP,    /* scroll the item */
    PL_DK_DOWN,
    PL_DK_PGUP,
    PL_DK_PGDN,
} PlDrillKey;

enum { PL_DRILL_IGNORED = 0, PL_DRILL_TAKEN = 1, PL_DRILL_QUIT = 2 };

/* Handles a key at app time now: PL_DRILL_TAKEN, PL_DRILL_IGNORED (a key
 * the drill has no use for) or PL_DRILL_QUIT. A refused step says why in
 * the note. */
int pl_drill_play_key(PlDrillPlay *p, PlDrillKey k, int ch, double now);
/* Polls the labs and the clock (a timed question's time running out);
 * 1 when the item should be drawn again. */
int pl_drill_play_tick(PlDrillPlay *p, double now);
/* Whether a case's lab is still computing what the item shows. */
int pl_drill_play_busy(const PlDrillPlay *p);
/* Ticks until what the item shows is computed or timeout seconds pass
 * (pictures, tests). 0, or -1 on timeout. */
int pl_drill_play_wait(PlDrillPlay *p, double timeout);
/* The lab the item's view draws (the case's), or NULL when it has none. */
PlLab *pl_drill_play_view_lab(PlDrillPlay *p);

/* The head: "padlab drill: TITLE (KIND)", and "N of M" (empty at the end). */
void pl_drill_play_head(const PlDrillPlay *p, char *left, int lcap, char *right, int rcap);
/* The key bar's text for the phase. */
const char *pl_drill_play_keys(const PlDrillPlay *p);

/* ---- the page ---- */

/* The item's paragraphs at app time now (or the end's) as a page (page.h),
 * figures filled in from the case's lab or the deck's, and the note last. */
void pl_drill_play_page(PlDrillPlay *p, double now, PlPage *page);

#endif
