/* A class session: the whole class answers a lesson's questions on their own
 * devices, in one or two rounds, and the projector reveals the tally against
 * the number the teacher's lab computed. This is its state alone: no network,
 * no clock, no randomness of its own (the caller hands in the join code, the
 * random bytes of each token and the time of each try). server.h puts it on
 * the network; the projector (src/cli) drives it.
 *
 * Layout: questions qs[0..nq), each a number (an ask: with its quantity and
 * tolerance) or a choice (a choose: with its choices in the order the class
 * sees them, right the index of the right one in that order). Students are
 * rows 0..nstudents), each known by a token of 32 hex digits. A vote is kept
 * per question, per round (0 and 1 for rounds 1 and 2), per student: a
 * re-answer replaces it, a student who comes back with their token keeps it.
 *
 * Every function takes the session's lock: the server's threads and the
 * projector call them at the same time. */
#ifndef PL_APP_CLASS_H
#define PL_APP_CLASS_H

#include <stdint.h>
#include <stdio.h>

#include "app/lab/quantity.h"
#include "app/teach/choices.h"

#define PL_CLASS_MAX_QUESTIONS 64
#define PL_CLASS_MAX_STUDENTS 512
#define PL_CLASS_ANSWER_MAX 32 /* bytes of a typed number, with its NUL */
#define PL_CLASS_TOKEN_HEX 32
#define PL_CLASS_CODE_LEN 5
#define PL_CLASS_BINS 10
/* Wrong join codes one address may send per minute before it must wait. */
#define PL_CLASS_CODE_TRIES 5
#define PL_CLASS_CODE_WINDOW_MS 60000

typedef enum { PL_CLASS_NUMBER, PL_CLASS_CHOICE } PlClassKind;

/* Where the session is: no question open yet (or between questions), a
 * question open for votes, or its tally shown. */
typedef enum { PL_CLASS_WAIT, PL_CLASS_OPEN, PL_CLASS_SHOWN } PlClassPhase;

typedef struct PlClass PlClass;

/* What a student (or the projector) sees now. prompt and choices are copies. */
typedef struct {
    PlClassPhase phase;
    int q;     /* the question, -1 before the first */
    int round; /* 1 or 2 */
    PlClassKind kind;
    char prompt[1200];
    char choices[PL_CHOICES_MAX][400];
    int nchoices;
    unsigned version; /* changes whenever anything a view shows changes */
} PlClassNow;

/* One question's tally, rounds side by side (round r in [r - 1]). For a
 * number: a histogram of the answers over [edge0, edge0 + nbins * width)
 * (the range of the answers and the band, in the quantity's unit), the
 * lab's value, its band and their bins; for a choice: a count per choice.
 * right counts exist once the value is known (revealed). */
typedef struct {
    PlClassKind kind;
    int rounds;
    int answered[2], right[2];
    int revealed;
    /* number */
    int nbins;
    double edge0, width;
    int bins[2][PL_CLASS_BINS];
    double value, band_lo, band_hi;
    int value_bin, band_bin_lo, band_bin_hi;
    char value_text[48];
    double unit; /* what a view multiplies a bin's edges by: 100 for a share (shown in %), else 1 */
    /* choice */
    int nchoices, right_choice;
    int chosen[2][PL_CHOICES_MAX];
    /* the most common wrong answer of round 1 ("" when none), and how many gave it */
    char wrong[400];
    int wrong_count;
} PlClassTally;

typedef enum { PL_CLASS_CODE_OK, PL_CLASS_CODE_WRONG, PL_CLASS_CODE_LIMITED } PlClassCodeTry;

/* A session with the join code given (PL_CLASS_CODE_LEN characters); NULL
 * when memory ran out. pl_class_free(NULL) is harmless. */
PlClass *pl_class_new(const char *code);
void pl_class_free(PlClass *c);
const char *pl_class_code(const PlClass *c);

/* Adds a question; returns its index, or -1 when there are
 * PL_CLASS_MAX_QUESTIONS already or memory ran out. The texts are copied. */
int pl_class_add_number(PlClass *c, const char *prompt, const PlQuantity *q, const PlTolerance *t, int step);
int pl_class_add_choice(PlClass *c, const char *prompt, const char *const *choices, int n, int right, int step);
int pl_class_questions(const PlClass *c);
/* Replaces a question's texts with the ones filled from the lab now (the
 * lesson's placeholders); choices may be NULL. 0, or -1 when out of memory. */
int pl_class_set_text(PlClass *c, int qi, const char *prompt, const char *const *choices);

/* Checks a join code sent from addr (the client's address as text) at
 * now_ms. Each address may get it wrong PL_CLASS_CODE_TRIES times in a
 * window of PL_CLASS_CODE_WINDOW_MS; after that every try, right or not, is
 * LIMITED until the window ends. */
PlClassCodeTry pl_class_code_try(PlClass *c, const char *addr, const char *code, int64_t now_ms);

/* A new student: token (PL_CLASS_TOKEN_HEX + 1 bytes) made from the 16
 * random bytes given. Returns the student's row, or -1 when the class is
 * full. pl_class_student finds a token's row, -1 when it is unknown. */
int pl_class_join(PlClass *c, const unsigned char rnd[16], char *token);
int pl_class_student(PlClass *c, const char *token);
int pl_class_students(PlClass *c);

/* The teacher's moves. open: question qi, round 1, votes open. again: the
 * open or shown question's round 2 (round 1's votes stay). reveal: the tally
 * shown, with the lab's value for a number. Each returns 0, or -1 when it
 * does not fit where the session is. */
int pl_class_open(PlClass *c, int qi);
int pl_class_again(PlClass *c);
int pl_class_reveal(PlClass *c, double value);
int pl_class_close(PlClass *c); /* back to waiting between questions */
/* Reveals question qi with the lab's value and shows it, whatever is open
 * (an exam's end: every question in turn); 0, or -1 for no such question. */
int pl_class_reveal_at(PlClass *c, int qi, double value);

/* A student's answer to question qi in the round open now: a choice's letter
 * ("a".."h") or a number as the quantity takes it ("19.6", "19.6%",
 * "0.196"). Replaces their earlier vote of this round. Returns 0, or -1 with
 * why (no question open, another question, not a letter or number). */
int pl_class_answer(PlClass *c, int student, int qi, const char *text, char *why, int cap);

/* The student's vote in the open round as they would read it back ("" when
 * none): the number as typed, or "b. the choice's text". */
void pl_class_mine(PlClass *c, int student, char *out, int cap);

void pl_class_now(PlClass *c, PlClassNow *now);
/* How many have answered question qi in round (1 or 2). */
int pl_class_count(PlClass *c, int qi, int round);
/* The tally of question qi (0, or -1 when there is no such question). */
int pl_class_tally(PlClass *c, int qi, PlClassTally *t);
/* Row i of a tally, as every view labels it: "c." for a choice, "1400 to
 * 1450" (or "20.3% to 20.9%" for a share) for a number's bin; and whether
 * it counts right (the right choice, a bin inside the band). */
int pl_class_tally_label(const PlClassTally *t, int i, char *out, int cap);
/* How many rows it has, and the largest count of any row in any round (at least 1). */
int pl_class_tally_rows(const PlClassTally *t, int *most);
/* Row i's count in round r (from 0). */
int pl_class_tally_count(const PlClassTally *t, int r, int i);

/* The class report: for each question, answered and right in each round and
 * the most common wrong answer. fmt is "md", "csv" or "json". */
void pl_class_report_print(PlClass *c, FILE *f, const char *fmt, const char *title);
/* Writes it through the atomic writer. fmt NULL: by path's extension (.md,
 * .csv, .json), or all three beside path when it has none of them. Returns
 * 0, or -1 with a one-line message in err. */
int pl_class_report_write(PlClass *c, const char *path, const char *title, char *err, int cap);

/* A student's posted answer (application/x-www-form-urlencoded: q=N&a=TEXT,
 * in any order, nothing else but t=TOKEN). Bounded: at most 512 bytes. */
typedef struct {
    int q;
    char a[PL_CLASS_ANSWER_MAX];
    char token[PL_CLASS_TOKEN_HEX + 1];
} PlClassPost;
/* Returns 0, or -1 with why when the body is not one. */
int pl_class_parse_post(const char *body, size_t n, PlClassPost *p, char *why, int cap);
/* Reads one field of a form body (code=..., for the join page) into out,
 * decoded, printable ASCII only: 0, -2 when it is absent, or -1 when it is
 * too long or badly written. */
int pl_class_form_field(const char *body, size_t n, const char *key, char *out, int cap);

#endif
