/* padlab join: a student's terminal in a class session, over HTTP (libcurl;
 * join_curl.c, or no_join.c in a padlab built without it). */
#ifndef PL_CLI_JOIN_H
#define PL_CLI_JOIN_H

#include "cli.h"

/* Joins the class at address with code (or comes back with token when it is
 * not NULL), then shows each question and sends the lines typed as answers
 * until end of input; with answer, sends that one answer to the open
 * question and returns. Returns the exit status. */
int cli_join_run(const CliArgs *a, const char *address, const char *code, const char *token, const char *answer);

#endif
