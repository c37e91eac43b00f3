/* padlab lesson NAME --handout DIR: a printable worksheet and its answer
 * key, with the lesson's figures as SVG (lesson_handout.c). */
#ifndef PL_CLI_LESSON_HANDOUT_H
#define PL_CLI_LESSON_HANDOUT_H

#include "app/settings.h"
#include "cli.h"

/* Writes the handout of lesson name into dir (made when missing) from a lab
 * on s. Returns the exit status after its lines. */
int cli_lesson_handout(const CliArgs *a, const PlLabSettings *s, const char *name, const char *dir);

#endif
