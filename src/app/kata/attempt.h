/* A candidate's attempt at a kata: the cases written out for their code
 * (emit), and their outputs checked, read from a file or from their own
 * program run on each case (check). */
#ifndef PL_APP_KATA_ATTEMPT_H
#define PL_APP_KATA_ATTEMPT_H

#include <stdio.h>

#include "check.h"
#include "kata.h"

/* Every case of k as one JSON object {"kata": NAME, "cases": [...]} on f. */
int pl_kata_emit_json(FILE *f, const PlKata *k, const PlKCase *cases);
/* Every case into the folder dir (made when missing): caseN.json, or with
 * npy a folder caseN/ of NAME.npy files. PL_OK, or PL_EIO with err. */
PlStatus pl_kata_emit_dir(const char *dir, const PlKata *k, const PlKCase *cases, int npy, PlErr *err);

/* Reads a file of answers (a regular file of at most PL_JSON_MAX_BYTES)
 * into a new buffer of *n bytes; NULL with err naming the file. */
char *pl_kata_read_answers(const char *path, size_t *n, PlErr *err);

/* The verdict on an attempt: PASS with *passed = every case, WRONG with msg
 * naming the first wrong cell; or -1 when the answers are not an attempt
 * at all (not a list of one object per case), with msg saying why. */
int pl_kata_check_answers(const PlKata *k, const PlKCase *cases, const PlJson *answers, int *passed, char *msg,
                          size_t cap);
/* What `check --run` makes of the output of the program on case number
 * (from 1), out[0..n): PASS, or WRONG with msg (not JSON, or the first
 * wrong cell, and the known bug it is when it is one); -1 with msg when
 * there was no memory to read it. */
int pl_kata_judge_output(const PlKata *k, const PlKCase *c, int number, const char *out, size_t n, char *msg,
                         size_t cap);
/* Runs command on each case in turn (run.h), the case file in a private
 * folder; PASS or WRONG as above (a program that fails, runs out of time or
 * prints no JSON is a wrong attempt at its case); -1 with msg when padlab
 * could not run it at all. */
int pl_kata_check_run(const PlKata *k, const PlKCase *cases, const char *command, int seconds, int *passed,
                      char *msg, size_t cap);

#endif
