/* A lesson in the terminal: its pane (the step's narration, its question,
 * the answer being typed, hints, the reveal) and its keys. The lesson is
 * played in the app layer (app/lesson_play.h, the same as the window's);
 * this only lays its page out in columns, draws it and maps curses keys. */
#ifndef PL_TUI_LESSON_PANE_H
#define PL_TUI_LESSON_PANE_H

#include "app/teach/lesson_play.h"
#include "draw.h"
#include "lines.h"

typedef struct {
    PlLessonPlay play; /* play.run is set while a lesson plays */
    TuiLines *layout;  /* the pane's lines, laid out on every draw */
} TuiLesson;

/* Opens the lesson named (a name or a path) on lab, at the step the
 * learner's progress reached; with name NULL, a review of the lesson
 * questions due today. 0; 1 with why when no question is due; or -1 with why. */
int tui_lesson_open(TuiLesson *t, PlLab *lab, const char *name, int present, char *why, int cap);
/* Saves the progress and frees the lesson. */
void tui_lesson_close(TuiLesson *t);

/* Draws the pane into box. */
void tui_lesson_draw(TuiLesson *t, PlLab *lab, TuiBox box);
/* The rows a pane w columns wide needs to show its step down to the end of
 * the question (its choices, its input line), or 0 when the step asks
 * nothing: the screen grows the pane to it, so no choice hides below. */
int tui_lesson_rows(TuiLesson *t, PlLab *lab, int w);
/* The key bar while a lesson plays. */
void tui_lesson_keybar(const TuiLesson *t, int y, int cols);

/* Handles a key: 1 when the lesson took it, 0 when it belongs to the lab,
 * 2 to quit. */
int tui_lesson_key(TuiLesson *t, PlLab *lab, int ch);
/* Polls the lesson's training and asks for what its step reads; 1 when
 * the pane should be drawn again. */
int tui_lesson_tick(TuiLesson *t, PlLab *lab);

#endif
