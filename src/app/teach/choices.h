/* The order a learner sees a multiple-choice question's choices in (a deck's
 * question or case, a lesson's choose:). A file lists the right answer
 * wherever its author wrote it, and authors favour the first places; shown
 * in that order, answering the same letter blind beats chance. So the
 * choices are shuffled per learner and per attempt, by a generator seeded
 * from the learner's salt (kept in their progress file) and the attempt's
 * count: the same seed gives the same order, which is what a test fixes.
 *
 * A choice that only makes sense in its place ("None of the above") is
 * pinned by its author with the mark "[pinned]" at the start of its text:
 * it keeps its place, and the others are shuffled around it.
 *
 * Layout of an order (n choices): order[k] is the index, in the file's
 * order, of the choice shown k-th, under the letter 'a' + k. */
#ifndef PL_APP_CHOICES_H
#define PL_APP_CHOICES_H

#include <stdint.h>

/* The most choices any question holds (a lesson's 8, a deck's 6). */
#define PL_CHOICES_MAX 8

/* The mark that pins a choice, at the start of its text. */
#define PL_CHOICES_PIN "[pinned]"

/* The seed of one question's order: the learner's salt, where the question
 * is (a deck's or a lesson's name), which one (an item's id, a step), and
 * the attempt (how often the learner answered it, or opened the lesson). */
uint64_t pl_choices_seed(uint64_t salt, const char *where, const char *which, int attempt);

/* Fills order[0..n) (n at most PL_CHOICES_MAX) from seed: pinned[i] (NULL:
 * none) keeps choice i at place i, the others are shuffled into the places
 * left, each of their orders equally likely. Can't fail. */
void pl_choices_order(uint64_t seed, const int *pinned, int n, int *order);

/* Reads a salt as a book keeps it ("9c1f04d2a7e35b60": 16 hex digits, not
 * 0): 0, or -1 when v is not one. */
int pl_choices_salt_parse(const char *v, uint64_t *salt);

/* The place (from 0) choice i is shown at, or -1 when it is not in order. */
int pl_choices_place(const int *order, int n, int i);

/* Whether text starts with the pin mark; when it does, *rest is the text
 * after it and its blanks. */
int pl_choices_pinned(const char *text, const char **rest);

/* A new learner's salt, for a progress file that has none yet: from the
 * system's random bytes, else from the clock and the process. The app's
 * alone: the core never reads a clock. Never 0. */
uint64_t pl_choices_new_salt(void);

#endif
