/* A learner's drill progress: for every item practised, its Leitner box and
 * due day (cards, minute prompts) and how often it was answered right and
 * wrong (questions, bug cases), and the learner's salt, which with an
 * item's answer count seeds the order its choices are shown in (choices.h).
 * A book (book.h) in the file "drill" of padlab's state folder (app/dirs.h:
 * by default ~/.local/state/padlab), one line per item, named DECK/ID:
 *
 *   item = cards-attention/key-padding-mask box=2 due=20458 reviews=3 lapses=1 right=0 wrong=0 last=20457
 */
#ifndef PL_APP_DRILL_BOOK_H
#define PL_APP_DRILL_BOOK_H

#include <stdint.h>

#include "book.h"
#include "core/err.h"
#include "sched.h"

typedef struct {
    char key[PL_BOOK_NAME_CAP]; /* "DECK/ID" */
    PlSchedCard s;
    int right, wrong;
} PlDrillRecord;

typedef PlBook PlDrillBook;

/* Reads the state folder's drill file into b (none yet: an empty book),
 * giving the learner a new salt when the file holds none. A damaged file is
 * set aside (b->notice says where) and the book starts empty; one that
 * cannot be read is named in err and nothing is read. b must be released
 * with pl_drill_book_done, whatever is returned. */
PlStatus pl_drill_book_load(PlDrillBook *b, PlErr *err);
/* The same from a file of one's own (tests, --state), which gets no salt
 * when it has none: its orders are the same on every run. */
PlStatus pl_drill_book_load_from(PlDrillBook *b, const char *path, PlErr *err);
/* An empty book that saves to path (tests). */
void pl_drill_book_init(PlDrillBook *b, const char *path);
/* Merges it into the file under its lock and writes it atomically (book.h):
 * another drill's grades are kept, and b then holds them too. */
PlStatus pl_drill_book_save(PlDrillBook *b, PlErr *err);
void pl_drill_book_done(PlDrillBook *b);

/* The record of deck/id, or NULL. */
const PlDrillRecord *pl_drill_book_find(const PlDrillBook *b, const char *deck, const char *id);
/* The record, made when missing (NULL: no memory, or a name that does not
 * fit). Valid until the next call that can add or save. */
PlDrillRecord *pl_drill_book_of(PlDrillBook *b, const char *deck, const char *id);
/* Forgets every record of a deck; returns how many. */
int pl_drill_book_forget(PlDrillBook *b, const char *deck);

/* The kind of record of a drill book (book.h), for tests and the fuzz harness. */
extern const PlBookKind pl_drill_kind;

#endif
