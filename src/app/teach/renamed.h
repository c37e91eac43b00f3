/* Lessons that changed their name: the one table of old names, read by the
 * lesson finder (an old name opens the lesson it became) and by the
 * learner's books (progress and drill records kept under an old name read
 * as the new lesson's; a save writes the new names).
 *
 * A row says where a range of an old lesson's steps went: old steps
 * from..to-1 (to 0: to its end) are the new lesson's steps step + shift.
 * Most rows move a whole lesson; 09-batching split, its three
 * padding-free packing steps becoming steps of 11-packing. A lesson's
 * first row holds its first step, and the row whose range runs to the end
 * is its main one: it takes the step reached, the lesson finished and the
 * times opened. */
#ifndef PL_APP_RENAMED_H
#define PL_APP_RENAMED_H

typedef struct {
    const char *old, *now; /* file names without .lesson */
    int from, to;          /* the old steps, from..to-1 (to 0: to the end) */
    int shift;             /* each becomes the new lesson's step + shift */
    /* the card ids (pl_lesson_card_id's part after "NAME:") of the steps
     * the row moves, when it moves only some of them: "slug slug ..."; NULL
     * for every step */
    const char *cards;
} PlLessonRenamed;

/* The rows, in order (*n of them). */
const PlLessonRenamed *pl_lesson_renames(int *n);
/* The lesson an old name now is (its first row's), or NULL when the name
 * is not an old one. */
const char *pl_lesson_renamed(const char *old);
/* Where step of the old lesson went: the new lesson's name, and *step its
 * step there; NULL (and *step as it was) when old is not an old name. */
const char *pl_lesson_renamed_step(const char *old, int *step);
/* The old name of a lesson renamed whole (its every step where it was), or
 * NULL: a class kept under that name resumes as this lesson's. */
const char *pl_lesson_was(const char *now);
/* The lesson a card of the old lesson (its id's part after "NAME:", the
 * step title's slug) went to, or NULL when old is not an old name. */
const char *pl_lesson_renamed_card(const char *old, const char *slug);

#endif
