/* The line mode of lessons and drills (lines.c): plain sentences out, a
 * line at a time in, for a screen reader. */
#ifndef PL_CLI_LINES_H
#define PL_CLI_LINES_H

#include "app/teach/drill.h"
#include "cli.h"

/* padlab lesson NAME --lines on settings s: 0, 1 when the progress could not
 * be kept, 2 when the lesson does not open. */
int cli_lesson_lines(const CliArgs *a, const PlLabSettings *s, const char *name);
/* padlab drill DECK --lines, the session o says: the same statuses. */
int cli_drill_lines(const CliArgs *a, const PlLabSettings *s, const char *deck, const PlDrillOpts *o);

#endif
