/* A learner's progress: for each lesson the step reached, whether it was
 * finished, how often it was opened and how each question went, and the
 * learner's salt, which with the times opened seeds the order of a
 * question's choices (choices.h). Kept in padlab's state folder
 * (app/dirs.h: by default ~/.local/state/padlab) as lines of
 * "learner = 9c1f04d2a7e35b60" and "lesson = NAME step=S done=D opened=N
 * answers=2r,5w", and written atomically. */
#ifndef PL_APP_PROGRESS_H
#define PL_APP_PROGRESS_H

#include <stdint.h>

#include "core/err.h"

#define PL_PROGRESS_MAX 256
#define PL_PROGRESS_ANSWERS 200

typedef struct {
    char name[96];
    int step;                                /* the step reached, from 0 */
    int done;                                /* the lesson was played to its end */
    int opened;                              /* times it was opened with its progress kept */
    signed char answer[PL_PROGRESS_ANSWERS]; /* per step: 0 not answered, 1 right, -1 wrong */
} PlLessonProgress;

typedef struct {
    char path[1024]; /* the progress file */
    uint64_t salt;   /* the learner's (never 0 once loaded) */
    PlLessonProgress lessons[PL_PROGRESS_MAX];
    int n;
} PlProgressBook;

/* Reads the progress file of the state folder (none yet: an empty book),
 * giving the learner a new salt when the file holds none. A damaged file is
 * named in err and nothing is read. */
PlStatus pl_progress_load(PlProgressBook *b, PlErr *err);
/* Writes it atomically. */
PlStatus pl_progress_save(const PlProgressBook *b, PlErr *err);
/* The entry of a lesson, made when missing (NULL when the book is full). */
PlLessonProgress *pl_progress_of(PlProgressBook *b, const char *name);
/* Forgets one lesson (1 when it was there) or every lesson. */
int pl_progress_forget(PlProgressBook *b, const char *name);
void pl_progress_forget_all(PlProgressBook *b);

#endif
