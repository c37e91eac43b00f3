/* A class session in the window (padlab gui --lesson NAME --class): the
 * session (app/class/session.h: kept on disk, resumed by the same command,
 * its report checked at the start and written at the end, never over
 * another's), its server, and the class following the lesson the window
 * plays. A step's question opens to the class when the step does, though
 * its numbers still train (students predict meanwhile); its words are
 * filled again when they are in. r reveals (not before the lab has the
 * number: the box says how long), v opens a second round, t a minute's
 * countdown, q twice ends the class. INT, TERM, HUP and QUIT end it as q
 * does, its report written, and padlab exits with 128 + the signal. */
#ifndef PL_GUI_CLASS_RUN_H
#define PL_GUI_CLASS_RUN_H

#include "app/class/server.h"
#include "app/class/session.h"
#include "app/teach/lesson_play.h"
#include "class_pane.h"

typedef struct {
    PlClassSession s;
    PlClassServer *server;
    GuiClassBox box; /* what the lesson pane draws (box.f NULL: no class) */
    char url[128];
    PlLedger ask;  /* what the question's words may show */
    unsigned seen; /* the class's version last drawn, and its students */
    int students;
    int quitting;  /* q pressed once */
    int computing; /* the step's numbers still train */
    long second;   /* the second last drawn: a countdown and a training move each second */
    int picture;   /* a picture of a step: nothing kept, no page waited for */
} GuiClass;

typedef struct {
    const char *listen;
    int port, seats, exam, fresh;
    const char *report;
    int unkept; /* a picture: neither resumed nor kept */
} GuiClassArgs;

/* Starts the session on the lesson playing (resumed: at its step) and
 * catches the signals that end it. 0, or -1 with why. */
int gui_class_start(GuiClass *k, PlLessonPlay *lesson, PlLab *lab, const PlLabSettings *settings, const GuiClassArgs *a,
                    char *why, int cap);
/* Follows the lesson: 1 when the box should be drawn again (a step, a
 * vote, a join, a second of a countdown or a training). */
int gui_class_tick(GuiClass *k, PlLessonPlay *lesson, PlLab *lab, double now);
/* A typed character: 1 when it was the class's, 2 to end the class. */
int gui_class_key(GuiClass *k, PlLessonPlay *lesson, PlLab *lab, int ch);
/* The signal that ended the class, or 0. */
int gui_class_signal(void);
/* The end: an exam's questions revealed, the session ended (report
 * written), the pages given time to see it, the server stopped. Returns
 * the exit status it adds: 0, 1 (the report failed), or 128 + the signal. */
int gui_class_end(GuiClass *k, const char *title);
void gui_class_done(GuiClass *k);

#endif
