/* Running a candidate's own program on a case: the command they typed, run
 * by /bin/sh -c in a process group of its own, with the case's JSON on its
 * standard input (and the case file's path in PADLAB_KATA_CASE), its
 * standard output kept (at most PL_KRUN_MAX_OUT bytes), its standard error
 * passed through. When it ends, runs out of time or padlab gets a signal,
 * its whole tree is killed: its process group, and what left the group
 * (padlab is a child subreaper: orphans of the program come back to it). */
#ifndef PL_APP_KATA_RUN_H
#define PL_APP_KATA_RUN_H

#include <stddef.h>

#include "core/err.h"

#define PL_KRUN_MAX_OUT (64 << 20)

typedef struct {
    char *out; /* its standard output, NUL-terminated; the caller frees it */
    size_t n;
    int exited, status; /* exited: its exit status in status; else killed by signal status */
    int timed_out;      /* the time ran out: its group was killed */
    int too_long;       /* it printed more than PL_KRUN_MAX_OUT: its group was killed */
} PlKRun;

/* Runs command with the file case_path on its standard input, for at most
 * seconds. PL_OK with r filled (whatever the program did), or PL_EIO /
 * PL_ENOMEM with err when it could not be started. */
PlStatus pl_krun(const char *command, const char *case_path, int seconds, PlKRun *r, PlErr *err);
/* The signal (INT, TERM, HUP, QUIT) that came while a program ran, or 0:
 * the program's whole tree was killed, and no other is started. The caller
 * removes what it made and ends with 128 + the signal. */
int pl_krun_stopped(void);

#endif
