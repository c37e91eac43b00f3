/* padlab drill's interview plan (cmd_drill_plan.c): --retention and
 * --until kept in the drill book, and --plan's table of what today holds
 * and the predicted recall by topic. */
#ifndef PL_CLI_DRILL_PLAN_H
#define PL_CLI_DRILL_PLAN_H

#include "app/teach/deck.h"
#include "cli.h"

/* Keeps --retention and --until (when given) in the drill book; 0, or 2
 * after one line saying what was wrong (a bad value, a date before today,
 * a bad PADLAB_NOW, a book that cannot be written). */
int cli_drill_plan_settings(const CliArgs *a);
/* Prints the plan for decks (n of them): 0, or 1 when the book cannot be read. */
int cli_drill_plan_print(const CliArgs *a, PlDeck *const *decks, int n);

#endif
