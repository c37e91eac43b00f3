/* Kata files: a coding task a candidate solves in their own language and
 * padlab checks on cases from their corpus (doc/katas.md is the format).
 *
 *   # Masked softmax                 the title
 *   compute: masked_softmax          the computation that gives the expected
 *                                    outputs (task.h: one of padlab's core's)
 *   about: one line for --list
 *   inputs: scores key_padding_mask  what the candidate's code takes, as the
 *   outputs: weights                 computation names them, in its order
 *
 *   ## Task                          sections: what the candidate reads
 *   Free lines of the statement.
 *
 * The file holds no case and no number: every case is computed from the
 * corpus when it is emitted or checked. Read by doc.c's one parser. */
#ifndef PL_APP_KATA_KATA_H
#define PL_APP_KATA_KATA_H

#include "app/teach/doc.h"
#include "task.h"

#define PL_KATA_MAX_SECTIONS 8

typedef struct {
    char name[64];
    char path[1024];
    char *title, *about, *compute, *inputs, *outputs;
    const PlKTask *task;
    int nsec;
    struct {
        char *title, *text;
    } sec[PL_KATA_MAX_SECTIONS];
} PlKata;

/* Parses text[0..n) as the kata file path: the kata, or NULL with err
 * ("PATH:LINE: message"). */
PlKata *pl_kata_parse(const char *path, const char *text, size_t n, PlErr *err);
/* The same, going on past each problem into probs (--check). */
PlKata *pl_kata_parse_all(const char *path, const char *text, size_t n, PlProblems *probs);
PlKata *pl_kata_load(const char *path, PlErr *err);
/* Reads and checks a file, every problem into probs. */
PlKata *pl_kata_check(const char *path, PlProblems *probs);
void pl_kata_free(PlKata *k);

/* Where katas are (PADLAB_KATAS, the data folder's katas/, the installed
 * and the source tree's), as doc.h's pl_doc_list and pl_doc_find. */
int pl_kata_list(char paths[][1024], int max);
int pl_kata_find(const char *name, char *path, int cap);

#endif
