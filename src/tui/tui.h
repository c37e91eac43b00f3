/* The lab in the terminal. */
#ifndef PL_TUI_H
#define PL_TUI_H

#include "app/lab/lab.h"
#include "screen.h"

typedef struct {
    PlLabSettings settings; /* the defaults with the flags given */
    unsigned given;         /* the settings given as flags: they win over a session's */
    const char *session;    /* --session FILE, or NULL */
    const char *lesson;     /* a lesson to play: its name or path, or NULL */
    int present;            /* classroom mode: the narration large beside one view */
    int review;             /* lesson --review: the lesson questions due today, no lesson named */
    TuiOptions screen;
} TuiArgs;

/* The settings the lab opens with: the session's (when a->session names
 * one), then the flags given. A session that cannot be read is named on
 * stderr and in problem (may be NULL), and the defaults are used. Returns
 * the session read (free with pl_session_free) or NULL. */
PlSession *tui_start_settings(const TuiArgs *a, PlLabSettings *s, char *problem, int cap);

/* Runs the lab until the user quits. Returns the exit status, or -1 without
 * having touched the terminal when there is none to draw on (why says why). */
int tui_run(const TuiArgs *a, char *why, int cap);

#endif
