/* A class session as both projectors run it (the terminal's,
 * src/cli/class_present.c, and the window's, src/gui/gui.c): the class
 * following the lesson, kept on disk on every change so that a quit, a
 * crash or a signal loses nothing, resumed by the same command (same code,
 * students, votes and step; fresh: a new one), and at its end every page
 * told and the report written where it was checked at the start, never
 * over another class's. Clocks come from the caller: nothing here reads
 * the time. */
#ifndef PL_APP_CLASS_SESSION_H
#define PL_APP_CLASS_SESSION_H

#include <stdint.h>
#include <stdio.h>

#include "app/settings.h"
#include "follow.h"

typedef struct {
    PlClassFollow f;          /* the class, following the lesson */
    PlClass *c;               /* f.c */
    PlClassMeta meta;         /* what is kept beside the class */
    char saved[1100];         /* where the class is kept, "" when it cannot be */
    char kept[1100];          /* where a saved class is read from: saved, or the file kept under the
                               * lesson's old name (app/teach/renamed.h) when only that one is there */
    char lost[300];           /* why keeping it failed ("" while it is kept): the end says so */
    char report[1100];        /* where the report goes, or "" */
    unsigned saved_version;   /* the class's version last written */
    int64_t began_ms;         /* the votes' clock starts here (ms since 1970) */
    int64_t (*wall_ms)(void); /* the caller's clock: ms since 1970 */
    int resumed;              /* a saved class was resumed */
    int step;                 /* the step to open at: where a resumed class was, else 0 */
} PlClassSession;

typedef struct {
    const PlLesson *l;
    const PlLabSettings *settings;
    int exam;
    int fresh;                /* a new class, not the one saved of the lesson */
    const char *report;       /* the report asked for, or NULL */
    int64_t (*wall_ms)(void); /* ms since 1970 */
    int unkept;               /* neither resumed nor kept (a picture of a step, not a class) */
} PlClassSessionArgs;

/* Opens the class: the one saved of this lesson and settings (resumed:
 * its round and phase too), or a new one, and checks where its report
 * goes. why may also hold a warning on success (the class cannot be kept:
 * it goes on unkept). 0, or -1 with one line in why. */
int pl_class_session_open(PlClassSession *s, const PlClassSessionArgs *a, char *why, int cap);
/* Writes the class when it changed since it was last written (or always),
 * with the step on the projector. A failure is said once in f.note and the
 * class goes on, unkept. */
void pl_class_session_keep(PlClassSession *s, int step, int always);
/* The end: the class kept as it ended (the same command resumes it there),
 * every page told, and the report written with lesson title. 0 with the
 * report's path in written ("" when none asked), or -1 with why: the report
 * could not be written, or the class could not be kept (a resume would not
 * find it; the report is written first all the same). */
int pl_class_session_end(PlClassSession *s, int step, const char *title, char *written, int wcap, char *why, int cap);
void pl_class_session_done(PlClassSession *s);
/* The line a resumed class starts with, on f: how many students, and the
 * step it opens at (nothing for a new class). */
void pl_class_session_say_resumed(const PlClassSession *s, FILE *f);

#endif
