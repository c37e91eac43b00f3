/* A learner's progress: for each lesson the step reached, whether it was
 * finished, how often it was opened and how each question went, and the
 * learner's salt, which with the times opened seeds the order of a
 * question's choices (choices.h). A book (book.h) in the file "progress"
 * of padlab's state folder (app/dirs.h: by default
 * ~/.local/state/padlab), one line per lesson:
 *
 *   lesson = 03-mask step=4 done=0 opened=3 answers=2r,5w
 *
 * A lesson's name is its file's name: any bytes (book.h writes the ones a
 * line cannot hold as %XX). A record kept under a lesson's old name
 * (renamed.h) reads as the new lesson's, its answers at their new steps;
 * the file changes only at the next save, which writes the new names. */
#ifndef PL_APP_PROGRESS_H
#define PL_APP_PROGRESS_H

#include <stdint.h>

#include "book.h"
#include "core/err.h"

#define PL_PROGRESS_ANSWERS 200

typedef struct {
    char name[PL_BOOK_NAME_CAP];
    int step;                                /* the step reached, from 0 */
    int done;                                /* the lesson was played to its end */
    int opened;                              /* times it was opened with its progress kept */
    signed char answer[PL_PROGRESS_ANSWERS]; /* per step: 0 not answered, 1 right, -1 wrong */
} PlLessonProgress;

typedef PlBook PlProgressBook;

/* Reads the progress file of the state folder (none yet: an empty book),
 * giving the learner a new salt when the file holds none. A damaged file is
 * set aside (b->notice says where) and the book starts empty; one that
 * cannot be read is named in err and nothing is read. Release b with
 * pl_progress_done whatever is returned. */
PlStatus pl_progress_load(PlProgressBook *b, PlErr *err);
/* Merges it into the file under its lock and writes it atomically (book.h):
 * another instance's progress is kept, and b then holds it too. */
PlStatus pl_progress_save(PlProgressBook *b, PlErr *err);
void pl_progress_done(PlProgressBook *b);
/* The entry of a lesson, made when missing (NULL when the book is full or
 * out of memory). Valid until the next call that can add or save. */
PlLessonProgress *pl_progress_of(PlProgressBook *b, const char *name);
/* Forgets one lesson (1 when it was there) or every lesson. */
int pl_progress_forget(PlProgressBook *b, const char *name);
void pl_progress_forget_all(PlProgressBook *b);

/* The kind of record of a progress book (book.h), for tests and the fuzz harness. */
extern const PlBookKind pl_progress_kind;

#endif
