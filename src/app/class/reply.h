/* What `padlab join` reads of the class server's replies: the state
 * (pl_class_page_state's JSON: the question, its choices, the tally once
 * shown, the student's answers at the end) and a join's token. Read as
 * data only, field by field, each text bounded and NUL-terminated, each
 * number a whole number from -1 to PL_CLASS_REPLY_INT_MAX or -1 when it is
 * absent or anything else; whatever a server sends. src/cli/join_curl.c
 * prints what is read; tests/fuzz/fuzz_join.c feeds it anything, and the
 * server's own state to read back. */
#ifndef PL_APP_CLASS_REPLY_H
#define PL_APP_CLASS_REPLY_H

#define PL_CLASS_REPLY_CHOICES 8
#define PL_CLASS_REPLY_INT_MAX 1000000000L

typedef struct {
    char key[64], phase[16], token[40];
    long q, round; /* -1: absent */
    int choose;    /* "kind" is "choose" */
    char prompt[2000], hint[120], mine[600];
    char choices[PL_CLASS_REPLY_CHOICES][600];
    int nchoices;
    /* once shown: the lab's number as text ("" for a choice) or the right choice */
    char value[64];
    long right_choice;
    int nrounds; /* at most 2 */
    long answered[2], right[2];
    int mine_right; /* 1, 0, or -1 when not said */
} PlClassReply;

/* One of an ended class's results. right: 1, 0, or -1 (not revealed). */
typedef struct {
    long question;
    char prompt[1300], mine[600], answer[600];
    int right;
} PlClassReplyResult;

/* Reads the reply json (NUL-terminated) into r. Can't fail: what is absent
 * is "" or -1. */
void pl_class_reply_read(const char *json, PlClassReply *r);
/* The results of an ended class one at a time: *at starts NULL; 1 with
 * res filled, or 0 when there are no more. */
int pl_class_reply_result(const char *json, const char **at, PlClassReplyResult *res);

#endif
