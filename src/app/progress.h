/* A learner's progress: for each lesson the step reached, whether it was
 * finished and how each question went, kept in padlab's state folder
 * ($XDG_STATE_HOME/padlab, by default ~/.local/state/padlab) as lines of
 * "lesson = NAME step=S done=D answers=2r,5w" and written atomically. */
#ifndef PL_APP_PROGRESS_H
#define PL_APP_PROGRESS_H

#include "core/err.h"

#define PL_PROGRESS_MAX 256
#define PL_PROGRESS_ANSWERS 200

typedef struct {
    char name[96];
    int step;                                /* the step reached, from 0 */
    int done;                                /* the lesson was played to its end */
    signed char answer[PL_PROGRESS_ANSWERS]; /* per step: 0 not answered, 1 right, -1 wrong */
} PlLessonProgress;

typedef struct {
    char path[1024]; /* the progress file */
    PlLessonProgress lessons[PL_PROGRESS_MAX];
    int n;
} PlProgressBook;

/* The state folder (created when missing, 0700); 0 or -1 with err. */
int pl_state_dir(char *dir, int cap, PlErr *err);

/* Reads the progress file of the state folder (none yet: an empty book).
 * A damaged file is named in err and nothing is read. */
PlStatus pl_progress_load(PlProgressBook *b, PlErr *err);
/* Writes it atomically. */
PlStatus pl_progress_save(const PlProgressBook *b, PlErr *err);
/* The entry of a lesson, made when missing (NULL when the book is full). */
PlLessonProgress *pl_progress_of(PlProgressBook *b, const char *name);
/* Forgets one lesson (1 when it was there) or every lesson. */
int pl_progress_forget(PlProgressBook *b, const char *name);
void pl_progress_forget_all(PlProgressBook *b);

#endif
