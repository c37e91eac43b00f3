/* A player: what plays a page beside or instead of the lab, a lesson or a
 * drill, as one const table of functions (as tmux's window modes are). A
 * front end holds the player and its state, maps its own keys once to
 * PlPlayerKey, polls it, and draws its head and its page (page.h) in its
 * one page pane; it never asks which player it has.
 *
 *   pl_lesson_player   self is a PlLessonPlay (lesson_play.h)
 *   pl_drill_player    self is a PlDrillPlay (drill_play.h) */
#ifndef PL_APP_PLAYER_H
#define PL_APP_PLAYER_H

#include "app/lab/lab.h"
#include "page.h"

/* A key as a player reads it; printable characters come as PL_PK_CHAR. */
typedef enum {
    PL_PK_CHAR,
    PL_PK_ENTER,
    PL_PK_ERASE, /* Backspace */
    PL_PK_ESC,
    PL_PK_UP,
    PL_PK_DOWN,
    PL_PK_PGUP,
    PL_PK_PGDN,
    PL_PK_LEFT,
    PL_PK_RIGHT,
} PlPlayerKey;

/* What became of a key: PL_PLAYER_PASS, not the player's (the lab's, or
 * nobody's); PL_PLAYER_TAKEN; PL_PLAYER_QUIT. */
enum { PL_PLAYER_PASS = 0, PL_PLAYER_TAKEN = 1, PL_PLAYER_QUIT = 2 };

typedef struct {
    const char *name; /* "lesson", "drill" */
    /* Handles a key at app time now; see the enum above. */
    int (*key)(void *self, PlPlayerKey k, int ch, double now);
    /* Polls what the page reads (lab: the lab beside it, or NULL); 1 when
     * the page should be drawn again. */
    int (*tick)(void *self, PlLab *lab, double now);
    /* The page now, its figures filled from lab (or the player's own). */
    void (*page)(void *self, PlLab *lab, double now, PlPage *out);
    /* The head's two halves: the title, and where the learner is. */
    void (*head)(const void *self, char *left, int lcap, char *right, int rcap);
    /* The lines of the page scrolled past, which the pane clamps. */
    int *(*scroll)(void *self);
    /* Saves the progress and frees what the player holds. */
    void (*close)(void *self);
} PlPlayer;

extern const PlPlayer pl_lesson_player;
extern const PlPlayer pl_drill_player;

#endif
