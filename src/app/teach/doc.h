/* The files a teacher writes (lessons, decks): where padlab looks for them
 * and how one is read. One place, so that every kind is found the same way
 * and a FIFO, a folder or a huge file named as one gets the same one line. */
#ifndef PL_APP_DATAFILE_H
#define PL_APP_DATAFILE_H

#include <stddef.h>

#include "core/err.h"

/* The largest lesson or deck file read. */
#define PL_DATAFILE_MAX_BYTES (1 << 20)

/* Reads the regular file at path (at most PL_DATAFILE_MAX_BYTES; what names
 * the kind in the message, "a lesson") into a new buffer of *n bytes, freed
 * by the caller. NULL with err: cannot open, not a regular file (never
 * waiting on a FIFO), too large, out of memory. */
char *pl_datafile_read(const char *path, const char *what, size_t *n, PlErr *err);

/* The folders looked in for a kind, in order, each once and only when it
 * exists: those in the environment variable env (':'-separated), then
 * padlab's data folder's SUB (app/dirs.h: by default
 * ~/.local/share/padlab/SUB), then the
 * installed folder and the source tree's. Returns how many (at most max). */
int pl_datafile_dirs(const char *env, const char *sub, const char *installed, const char *source, char dirs[][1024],
                     int max);

/* The longest line a lesson or deck may have, its newline not counted. */
#define PL_DATAFILE_LINE_MAX 2047

/* A line of a teacher's file: number counts from 1; refused is NULL, or says
 * why the line is not given (line is then NULL). */
typedef PlStatus (*PlLineFn)(void *ctx, int number, char *line, const char *refused);

/* Splits text (n bytes, no NUL needed at its end) into lines and hands each
 * to fn in order, until fn returns non-zero; returns that status, or
 * PL_ENOMEM. A text holding a NUL byte is refused at line 1, a line longer
 * than PL_DATAFILE_LINE_MAX at its own; what names the kind ("a lesson"). */
PlStatus pl_datafile_lines(const char *text, size_t n, const char *what, PlLineFn fn, void *ctx);

/* Every problem a check found in a file, so that a teacher fixes them all in
 * one pass: each one line "PATH:LINE: message", kept in line order. Past
 * PL_PROBLEMS_MAX only counted (more). The caller owns it; zeroed is empty. */
#define PL_PROBLEMS_MAX 64
typedef struct {
    int n, more;
    struct {
        int line;
        char msg[512];
    } at[PL_PROBLEMS_MAX];
} PlProblems;

/* Adds msg, found at line, in its place by line (after others of its line). */
void pl_problems_add(PlProblems *p, int line, const char *msg);

#endif
