/* The lesson and the drill as players (see player.h): each maps the one set
 * of keys to its own and hands the rest to its play. */
#include "player.h"

#include "drill_play.h"
#include "lesson_play.h"

/* A lesson's and a drill's answers to a key are a player's, value for value. */
_Static_assert((int)PL_LESSON_LAB == (int)PL_PLAYER_PASS && (int)PL_LESSON_TAKEN == (int)PL_PLAYER_TAKEN &&
                   (int)PL_LESSON_QUIT == (int)PL_PLAYER_QUIT,
               "a lesson's answer to a key is a player's");
_Static_assert((int)PL_DRILL_IGNORED == (int)PL_PLAYER_PASS && (int)PL_DRILL_TAKEN == (int)PL_PLAYER_TAKEN &&
                   (int)PL_DRILL_QUIT == (int)PL_PLAYER_QUIT,
               "a drill's answer to a key is a player's");

/* ---- the lesson ---- */

static int lesson_key(void *self, PlPlayerKey k, int ch, double now) {
    static const PlLessonKey as[] = {
        [PL_PK_CHAR] = PL_LK_CHAR, [PL_PK_ENTER] = PL_LK_ENTER, [PL_PK_ERASE] = PL_LK_ERASE,
        [PL_PK_ESC] = PL_LK_EXPLORE, [PL_PK_UP] = PL_LK_UP,     [PL_PK_DOWN] = PL_LK_DOWN,
        [PL_PK_PGUP] = PL_LK_BACK,   [PL_PK_PGDN] = PL_LK_NEXT, [PL_PK_LEFT] = PL_LK_BACK,
        [PL_PK_RIGHT] = PL_LK_NEXT,
    };
    (void)now;
    return pl_lesson_play_key(self, as[k], ch); /* PL_LESSON_LAB, _TAKEN, _QUIT are the player's 0, 1, 2 */
}

static int lesson_tick(void *self, PlLab *lab, double now) {
    (void)now;
    return pl_lesson_play_tick(self, lab);
}

static void lesson_page(void *self, PlLab *lab, double now, PlPage *out) {
    (void)now;
    pl_lesson_page(self, lab, out);
}

static void lesson_head(const void *self, char *left, int lcap, char *right, int rcap) {
    pl_lesson_play_head(self, left, lcap, right, rcap);
}

static int *lesson_scroll(void *self) { return &((PlLessonPlay *)self)->scroll; }
static void lesson_close(void *self) { pl_lesson_play_close(self); }

const PlPlayer pl_lesson_player = {
    .name = "lesson",
    .key = lesson_key,
    .tick = lesson_tick,
    .page = lesson_page,
    .head = lesson_head,
    .scroll = lesson_scroll,
    .close = lesson_close,
};

/* ---- the drill ---- */

static int drill_key(void *self, PlPlayerKey k, int ch, double now) {
    switch (k) {
    case PL_PK_CHAR: return pl_drill_play_key(self, PL_DK_CHAR, ch, now);
    case PL_PK_ENTER: return pl_drill_play_key(self, PL_DK_ENTER, ch, now);
    case PL_PK_UP: return pl_drill_play_key(self, PL_DK_UP, ch, now);
    case PL_PK_DOWN: return pl_drill_play_key(self, PL_DK_DOWN, ch, now);
    case PL_PK_PGUP: return pl_drill_play_key(self, PL_DK_PGUP, ch, now);
    case PL_PK_PGDN: return pl_drill_play_key(self, PL_DK_PGDN, ch, now);
    default: return PL_PLAYER_PASS; /* the drill has no use for Esc, Backspace, left and right */
    }
}

static int drill_tick(void *self, PlLab *lab, double now) {
    (void)lab; /* a drill's figures come from its own labs */
    return pl_drill_play_tick(self, now);
}

static void drill_page(void *self, PlLab *lab, double now, PlPage *out) {
    (void)lab;
    pl_drill_play_page(self, now, out);
}

static void drill_head(const void *self, char *left, int lcap, char *right, int rcap) {
    pl_drill_play_head(self, left, lcap, right, rcap);
}

static int *drill_scroll(void *self) { return &((PlDrillPlay *)self)->scroll; }
static void drill_close(void *self) { pl_drill_play_close(self); }

const PlPlayer pl_drill_player = {
    .name = "drill",
    .key = drill_key,
    .tick = drill_tick,
    .page = drill_page,
    .head = drill_head,
    .scroll = drill_scroll,
    .close = drill_close,
};
