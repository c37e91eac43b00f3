/* The lab in the terminal. */
#ifndef PL_TUI_H
#define PL_TUI_H

#include "app/lab.h"
#include "screen.h"

typedef struct {
    PlLabSettings settings;
    const char *session;  /* --session FILE, or NULL */
    TuiOptions screen;
} TuiArgs;

/* Runs the lab until the user quits. Returns the exit status, or -1 without
 * having touched the terminal when there is none to draw on (why says why). */
int tui_run(const TuiArgs *a, char *why, int cap);

#endif
