/* A lesson in the window: the page the app layer makes of the run
 * (app/lesson_play.h, the same as the terminal's), wrapped to the pane's
 * width in pixels in the window's one page pane (player_pane.h), whose
 * keys are the lesson's too. */
#ifndef PL_GUI_LESSON_PANE_H
#define PL_GUI_LESSON_PANE_H

#include "app/teach/lesson_play.h"
#include "class_pane.h"
#include "dl.h"

/* Lays the pane out in r: the lesson's title, the step, the narration, the
 * question and what came of it, scrolled by p->scroll lines (clamped here).
 * size is the narration's text size (GUI_NORMAL; in classroom mode
 * GUI_LARGE, or smaller where that leaves no room). The question's lines
 * (its prompt, its choices, the answer typed) stay in sight however it
 * scrolls, where they fit. Tags the pane "lesson", the question's lines
 * "lesson-question" and its reveal "lesson-reveal". */
void gui_lesson_pane(GuiList *dl, PlLessonPlay *p, PlLab *lab, GuiRect r, int size);
/* The pane at the left of area, drawn: in the window about a third of it;
 * in classroom mode as narrow as its type (the largest that leaves the
 * narration a few rows) allows, the rest the figure's. With a class (k,
 * else NULL) its box at the pane's foot (class_pane.h), under the pane's
 * head and its question. Returns what is left for the view beside it. */
GuiRect gui_lesson_beside(GuiList *dl, PlLessonPlay *p, PlLab *lab, GuiRect area, const GuiClassBox *k);
/* The key bar's text while a lesson plays (with a class voting: r and v too). */
const char *gui_lesson_keys(const PlLessonPlay *p, int with_class);

#endif
