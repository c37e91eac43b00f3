/* A lesson in the window: the page the app layer makes of the run
 * (app/lesson_play.h, the same as the terminal's), wrapped to the pane's
 * width in pixels and coloured by role, and SDL's keys as a lesson's keys. */
#ifndef PL_GUI_LESSON_PANE_H
#define PL_GUI_LESSON_PANE_H

#include <SDL.h>

#include "app/teach/lesson_play.h"
#include "dl.h"

/* Lays the pane out in r: the lesson's title, the step, the narration, the
 * question and what came of it, scrolled by p->scroll lines (clamped here).
 * size is the narration's text size (GUI_NORMAL, or GUI_LARGE in classroom
 * mode). Tags the pane "lesson" and its reveal "lesson-reveal". */
void gui_lesson_pane(GuiList *dl, PlLessonPlay *p, PlLab *lab, GuiRect r, int size);
/* The key bar's text while a lesson plays. */
const char *gui_lesson_keys(const PlLessonPlay *p);

/* Gives the lesson an SDL key or text event: PL_LESSON_TAKEN, PL_LESSON_LAB
 * (the lab's: not a lesson's key, or exploring) or PL_LESSON_QUIT. Text
 * comes as SDL_TEXTINPUT; SDL_KEYDOWN brings only the keys without text. */
int gui_lesson_event(PlLessonPlay *p, const SDL_Event *e);

#endif
