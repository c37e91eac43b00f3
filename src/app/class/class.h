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
#define PL_CLASS_ROWS 12  /* a number's tally: at most this many rows */
#define PL_CLASS_MISCON 4 /* misconceptions a question may name */
/* Wrong join codes one address may send per minute before its tries are slowed (limit.h). */
#define PL_CLASS_CODE_TRIES 5
#define PL_CLASS_CODE_WINDOW_MS 60000

typedef enum { PL_CLASS_NUMBER, PL_CLASS_CHOICE } PlClassKind;

/* Where the session is: no question open yet (or between questions), a
 * question open for votes, or its tally shown. */
typedef enum { PL_CLASS_WAIT, PL_CLASS_OPEN, PL_CLASS_SHOWN, PL_CLASS_ENDED } PlClassPhase;

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
    int countdown;    /* seconds left of the discussion's countdown (pl_class_countdown), -1: none */
} PlClassNow;

/* What a row of a number's tally holds. */
typedef enum {
    PL_ROW_ANSWERS,       /* the answers the class gave there, one value or a cluster of near ones */
    PL_ROW_RIGHT,         /* the band counted right (once revealed): always a row of its own */
    PL_ROW_MISCONCEPTION, /* a wrong answer the lesson names, with what it comes from */
    PL_ROW_OUTLIERS,      /* the answers far from every other, in one row */
} PlClassRowKind;

typedef struct {
    PlClassRowKind kind;
    double lo, hi;   /* the answers it holds, in the quantity's unit */
    char label[256]; /* "1400", "20.3% to 24.1%", "1: zeroed after the softmax", "far off: 1e+03, -5" */
    int count[2];    /* per round */
} PlClassRow;

/* One question's tally, rounds side by side (round r in [r - 1]). For a
 * number: the answers the class actually gave, grouped: each distinct
 * value (within the question's tolerance) a row of its own while they fit,
 * near values clustered otherwise, far ones in a row of outliers; once
 * revealed, the band counted right is a row that no wrong answer shares,
 * and each misconception the lesson names a labelled row. For a choice: a
 * count per choice. Right counts exist once the value is known (revealed).
 * A student who answered both rounds switched (wrong to right, right to
 * wrong) or stayed: peer instruction's measure of a discussion. */
typedef struct {
    PlClassKind kind;
    int rounds;
    int answered[2], right[2];
    int revealed;
    /* number */
    int nrows;
    PlClassRow rows[PL_CLASS_ROWS];
    double value, band_lo, band_hi;
    int value_row; /* the row of the lab's value (the right band), -1 before the reveal */
    char value_text[48];
    double unit; /* what a view multiplies a value by: 100 for a share (shown in %), else 1 */
    /* choice */
    int nchoices, right_choice;
    int chosen[2][PL_CHOICES_MAX];
    /* the most common wrong answer of round 1 ("" when none), and how many gave it; tied: each of them */
    char wrong[400];
    int wrong_count, wrong_tied;
    /* round 1 to round 2, over the students who answered both (once the right answer is known) */
    int to_right, to_wrong, stayed_right, stayed_wrong;
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
 * now_ms and counts it (limit.c). The right code is always OK, however
 * many wrong ones came before it. A wrong one is WRONG, or LIMITED once its
 * address got it wrong PL_CLASS_CODE_TRIES times in a window of
 * PL_CLASS_CODE_WINDOW_MS, or the class PL_LIMIT_CLASS_WRONG times (limit.h:
 * a limited address's tries also wait their turn, pl_class_code_turn). */
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
/* How sure the student is of their answer to the open question qi in this
 * round: 1 (a guess), 2 (fairly) or 3 (sure), kept beside the vote for the
 * report. 0, or -1 with why (no vote to rate, sure not 1 to 3). */
int pl_class_rate(PlClass *c, int student, int qi, int sure, char *why, int cap);

void pl_class_now(PlClass *c, PlClassNow *now);
/* Whether the student's vote of question qi in round (1 or 2) counted
 * right: 1, 0, or -1 when there is no vote or its answer is not known yet
 * (a number not revealed). */
int pl_class_vote_right(PlClass *c, int student, int qi, int round);
/* How sure the student said they were of that vote: 1 to 3, 0 when not
 * said (or no vote). */
int pl_class_vote_sure(PlClass *c, int student, int qi, int round);
/* The student's vote of question qi in round as they would read it back
 * ("" when none): the number as typed, or "b. the choice's text". */
void pl_class_vote_text(PlClass *c, int student, int qi, int round, char *out, int cap);
/* Question qi's prompt, whether it was opened to the class, and the
 * answer once known ("" before): the lab's number, or the right choice. */
int pl_class_question_info(PlClass *c, int qi, char *prompt, int pcap, char *answer, int acap);
/* How many have answered question qi in round (1 or 2). */
int pl_class_count(PlClass *c, int qi, int round);
/* The tally of question qi (0, or -1 when there is no such question). */
int pl_class_tally(PlClass *c, int qi, PlClassTally *t);
/* Row i of a tally, as every view labels it: "c." for a choice, the row's
 * label for a number; and whether it counts right (the right choice, the
 * band). */
int pl_class_tally_label(const PlClassTally *t, int i, char *out, int cap);
/* Names a wrong answer a class is expected to give to number question qi
 * (in the quantity's unit, as pl_quantity_read reads it) and what it comes
 * from; its tally row is labelled with it. A value NAN is the lab's to
 * measure (pl_class_set_misconception); until then no vote is it. 0, or -1
 * (no such question, a choice, four named already, out of memory). */
int pl_class_add_misconception(PlClass *c, int qi, double value, const char *text);
/* Sets misconception m of question qi to the value the lab measures where
 * the question is asked; the class's file keeps it. NAN takes it back (a
 * figure the class may not see yet): no vote is it. 0, or -1. */
int pl_class_set_misconception(PlClass *c, int qi, int m, double value);
/* How the answer field reads a number of question qi ("a share: 19.6%, 19.6
 * or 0.196"), for the pages' hint. */
const char *pl_class_answer_hint(PlClass *c, int qi, char *out, int cap);
/* Sets the clock the votes are timed with (milliseconds since the class
 * began; NULL: none, every vote at 0). The class takes no time of its own. */
void pl_class_set_clock(PlClass *c, int64_t (*now_ms)(void *ctx), void *ctx);
/* Starts a countdown of seconds for the discussion (0 stops it), on the
 * class's clock: the projector and every page show what is left. */
void pl_class_countdown(PlClass *c, int seconds);
/* The class's end: every page says so, and no vote is taken. */
int pl_class_end(PlClass *c);
/* How many rows it has, and the largest count of any row in any round (at least 1). */
int pl_class_tally_rows(const PlClassTally *t, int *most);
/* Row i's count in round r (from 0). */
int pl_class_tally_count(const PlClassTally *t, int r, int i);

/* What the projector keeps beside the class's own state. */
typedef struct {
    char lesson[96];    /* the lesson's name */
    char settings[800]; /* the lab's settings as a state line (pl_state_format) */
    char code[16];      /* the join code */
    uint64_t salt;      /* the class's order of each choose:'s choices */
    int exam;
    long long began;   /* when the class began, seconds since 1970 (the caller's clock) */
    char report[1100]; /* where its report goes, "" for none */
    int step;          /* the lesson's step on the projector, from 0 */
} PlClassMeta;

/* The class report (report.c): a header, then each question the class was
 * asked: its tally round by round, the switches, the most common wrong
 * answer; and every response (round, answer, counted right, time, the
 * student's token hashed). fmt is "md", "csv" (a row per response) or
 * "json". */
void pl_class_report_print(PlClass *c, FILE *f, const char *fmt, const char *title);
/* The report's header: the date, the lesson, the corpus and seed (from m),
 * and how long the class ran (to ended, seconds since 1970). */
void pl_class_report_meta(PlClass *c, const PlClassMeta *m, long long ended);
/* Where a report asked for as `asked` goes, checked before the class
 * begins (so that no vote is lost to a path that cannot be written): a
 * folder takes it inside as `name` (the lesson's); the folder must exist and
 * be writable; a FIFO, device or socket of that name is refused; a report
 * already there is never replaced (a numbered name, base-2 ...) unless
 * reuse (the same class, resumed, writes its whole report again). 0 with
 * the path in out, or -1 with one line in why. */
int pl_class_report_path(const char *asked, const char *name, int reuse, char *out, int cap, char *why, int whycap);
/* Writes it through the atomic writer. fmt NULL: by path's extension (.md,
 * .csv, .json), or all three beside path when it has none of them. Returns
 * 0, or -1 with a one-line message in err. */
int pl_class_report_write(PlClass *c, const char *path, const char *title, char *err, int cap);

/* ---- a class kept on disk, resumed by the same command (store.c) ---- */

/* Writes c and m to path through the atomic writer: every student, every
 * vote with its time, each question's rounds and reveal, where the class
 * is. 0, or -1 with one line in why. */
int pl_class_save(PlClass *c, const PlClassMeta *m, const char *path, char *why, int cap);
/* Reads a saved class's meta. 0, or -1 with why ("PATH:LINE: ..."). */
int pl_class_meta_read(const char *path, PlClassMeta *m, char *why, int cap);
/* Restores a saved class into c, a class made anew from the same lesson
 * with the saved code and salt: its students, votes and rounds, the
 * question open (an ended class goes on: it was resumed). 0, or -1 with
 * why naming the line that does not fit the lesson. */
int pl_class_restore(PlClass *c, const char *path, char *why, int cap);
/* Puts a restored class back in the question, round and phase it was in
 * (opening its step's question again started round 1): students who joined
 * since are kept. */
void pl_class_resume_now(PlClass *c);

/* A student's posted answer (application/x-www-form-urlencoded: q=N&a=TEXT,
 * in any order, nothing else but t=TOKEN and s=SURE, 1 to 3). Bounded: at
 * most 512 bytes. */
typedef struct {
    int q;
    char a[PL_CLASS_ANSWER_MAX];
    char token[PL_CLASS_TOKEN_HEX + 1];
    int sure; /* s=1..3: how sure (pl_class_rate); 0: not given */
} PlClassPost;
/* Returns 0, or -1 with why when the body is not one. */
int pl_class_parse_post(const char *body, size_t n, PlClassPost *p, char *why, int cap);
/* Reads one field of a form body (code=..., for the join page) into out,
 * decoded, printable ASCII only: 0, -2 when it is absent, or -1 when it is
 * too long or badly written. */
int pl_class_form_field(const char *body, size_t n, const char *key, char *out, int cap);

#endif
