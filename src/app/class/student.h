/* What a student's device is sent: the join page, the vote page (plain HTML,
 * no framework, nothing from elsewhere, labelled for a screen reader) and
 * the state as JSON. Every text in them is escaped. Each writes to f for
 * student (a row of class.h; -1 for the join page). */
#ifndef PL_APP_CLASS_STUDENT_H
#define PL_APP_CLASS_STUDENT_H

#include <stdio.h>

#include "class.h"

void pl_class_page_join(FILE *f, PlClass *c, int student, const char *note);
void pl_class_page_vote(FILE *f, PlClass *c, int student, const char *note);
/* {"key", "q", "round", "phase" (wait, open, shown, ended), "kind" (ask or
 * choose), "prompt", "choices", "mine" (the student's vote in the round
 * open), "countdown" (seconds left, while one runs), "hint" (how a number's
 * field reads it: a share, a whole number, a number), once revealed
 * "mine_right" (whether their vote counted) and "tally": {"value",
 * "band_lo", "band_hi", "band" (a number's band counted right, as text) or
 * "right_choice"; "rounds": [{"answered", "right", "counts": per row}];
 * "rows": [{"label", "right"}]}, and at the class's end "ended" and
 * "results": [{"question", "prompt", "mine", "answer", "right" (null: no
 * vote, or never revealed)}]} */
void pl_class_page_state(FILE *f, PlClass *c, int student, const char *note);

/* text with & < > " ' written as entities. */
void pl_class_html_escape(FILE *f, const char *text);

#endif
