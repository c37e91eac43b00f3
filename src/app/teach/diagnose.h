/* Feedback that teaches: what a wrong number to a lesson's ask: question
 * most likely is. Before "higher or lower", the slips a learner makes with
 * the lesson's own figures are looked for: a figure that determines the
 * asked one typed for it (the real tokens for the pads, a share for a
 * count), the complement of a share, a percentage typed as a fraction,
 * a figure per head for the total. Each is read from the lab now. */
#ifndef PL_APP_DIAGNOSE_H
#define PL_APP_DIAGNOSE_H

#include "app/lab/lab.h"
#include "app/lab/quantity.h"
#include "lesson.h"

/* The value of a misconception the lesson names (lesson.h): its number, or
 * the lab's figure now for one written as a {quantity}; NAN when the lab has
 * none. The learner's diagnosis and a class's tally read it here. */
double pl_misconception_value(PlLab *lab, const PlMisconception *m);

/* Writes into out (cap bytes) one sentence on the wrong answer `typed` to
 * question q (an ask:), whose value in the lab is v: the misconception the
 * lesson names for it ("4: the reviews packed; ...", the row a class's
 * tally gives it), else the slip it matches, else whether the lab's number
 * is higher or lower. A figure that `others` hides (pl_lesson_run_unnamed;
 * NULL: none) is never named: a misconception or a determiner that another
 * question not answered yet asks is left out.
 * Returns out; "" when typed is not a number. */
const char *pl_diagnose(PlLab *lab, const PlQuestion *q, const PlLedger *others, double v, const char *typed, char *out,
                        int cap);

#endif
