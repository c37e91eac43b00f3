/* A lesson in the terminal: its pane (the step's narration, its question,
 * the answer being typed, hints, the reveal) and its keys. The lesson runs in
 * the app layer (app/lesson_run.h); this only draws it and reads keys. */
#ifndef PL_TUI_LESSON_PANE_H
#define PL_TUI_LESSON_PANE_H

#include "app/lesson_run.h"
#include "draw.h"

typedef struct {
    PlLesson *lesson;
    PlLessonRun *run;
    PlProgressBook *book;  /* where progress is kept; NULL when the state folder cannot be used */
    char input[40];        /* the answer being typed */
    int explore;           /* Esc: keys go to the lab until Esc again */
    int present;           /* classroom mode */
    int blank;             /* classroom: the screen blanked (b) */
    int scroll;            /* lines of the narration scrolled past */
    char note[300];        /* a line for the learner (where the progress went, why an answer was not checked) */
    void *layout;          /* the pane's lines, laid out on every draw */
} TuiLesson;

/* Opens the lesson named (a name or a path) on lab, at the step the
 * learner's progress reached. 0, or -1 with why. */
int tui_lesson_open(TuiLesson *t, PlLab *lab, const char *name, int present, char *why, int cap);
/* Saves the progress and frees the lesson. */
void tui_lesson_close(TuiLesson *t);

/* Draws the pane into box. */
void tui_lesson_draw(TuiLesson *t, PlLab *lab, TuiBox box);
/* The key bar while a lesson plays. */
void tui_lesson_keybar(const TuiLesson *t, int y, int cols);

/* Handles a key: 1 when the lesson took it, 0 when it belongs to the lab,
 * 2 to quit. */
int tui_lesson_key(TuiLesson *t, PlLab *lab, int ch);
/* Polls the lesson's training and asks for what its step reads; 1 when
 * the pane should be drawn again. */
int tui_lesson_tick(TuiLesson *t, PlLab *lab);

#endif
