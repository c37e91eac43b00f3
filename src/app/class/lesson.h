/* A class session's questions from a lesson: every ask: whose answer is a
 * number and every choose:, in the lesson's order. */
#ifndef PL_APP_CLASS_LESSON_H
#define PL_APP_CLASS_LESSON_H

#include <stdint.h>

#include "app/teach/lesson.h"
#include "class.h"

/* Adds the lesson's questions to c; a choose:'s choices in one order for the
 * whole class, shuffled from salt (pinned ones keep their place). Fills
 * step_q[0..nsteps) with each step's question (-1 for a step without one,
 * or an ask: of a setting, which a class does not vote on). Returns how many
 * were added, or -1 when memory ran out or there are too many. */
int pl_class_add_lesson(PlClass *c, const PlLesson *l, uint64_t salt, int *step_q);

/* The order (choices.h) question step's choices are shown in. */
void pl_class_lesson_order(const PlLesson *l, int step, uint64_t salt, int *order);

#endif
