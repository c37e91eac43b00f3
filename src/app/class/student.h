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
/* {"q", "round", "phase", "kind", "prompt", "choices", "mine", "version",
 * and once revealed "tally": {"value", "right_choice", "answered", "right",
 * "bins" or "chosen"}} */
void pl_class_page_state(FILE *f, PlClass *c, int student, const char *note);

/* text with & < > " ' written as entities. */
void pl_class_html_escape(FILE *f, const char *text);

#endif
