/* A learner's drill progress: for every item practised, its Leitner box and
 * due day (cards, minute prompts) and how often it was answered right and
 * wrong (questions, bug cases), and the learner's salt, which with an
 * item's answer count seeds the order its choices are shown in (choices.h).
 * Kept in padlab's state folder (app/dirs.h: by default
 * ~/.local/state/padlab) in the file "drill", one line per item, and
 * written atomically:
 *
 *   learner = 9c1f04d2a7e35b60
 *   item = cards-attention/key-padding-mask box=2 due=20458 reviews=3 lapses=1 right=0 wrong=0 last=20457
 */
#ifndef PL_APP_DRILL_BOOK_H
#define PL_APP_DRILL_BOOK_H

#include <stdint.h>

#include "core/err.h"
#include "sched.h"

#define PL_DRILL_KEY_CAP 168

typedef struct {
    char key[PL_DRILL_KEY_CAP]; /* "DECK/ID" */
    PlSchedCard s;
    int right, wrong;
} PlDrillRecord;

typedef struct {
    char path[1024];
    uint64_t salt; /* the learner's: seeds the order of choices; 0 in a book of one's own without one */
    PlDrillRecord *r;
    int n, cap;
} PlDrillBook;

/* Reads the state folder's drill file into b (none yet: an empty book),
 * giving the learner a new salt when the file holds none. A damaged file is
 * named in err, with its line, and nothing is read. b must be released with
 * pl_drill_book_done, whatever is returned. */
PlStatus pl_drill_book_load(PlDrillBook *b, PlErr *err);
/* The same from a file of one's own (tests, --state), which gets no salt
 * when it has none: its orders are the same on every run. */
PlStatus pl_drill_book_load_from(PlDrillBook *b, const char *path, PlErr *err);
/* Writes it atomically. */
PlStatus pl_drill_book_save(const PlDrillBook *b, PlErr *err);
void pl_drill_book_done(PlDrillBook *b);

/* The record of deck/id, or NULL. */
const PlDrillRecord *pl_drill_book_find(const PlDrillBook *b, const char *deck, const char *id);
/* The record, made when missing (NULL: no memory, or a name that does not fit). */
PlDrillRecord *pl_drill_book_of(PlDrillBook *b, const char *deck, const char *id);
/* Forgets every record of a deck; returns how many. */
int pl_drill_book_forget(PlDrillBook *b, const char *deck);

#endif
