/* Named quantities: every number a lesson, a drill or a test may ask the lab
 * for, one const table, each row reading one figure of one result (or of the
 * settings, or of the training). A lesson never writes a number: it names a
 * quantity, and the lab computes it at that moment.
 *
 * A name is "result.figure", some with an argument in brackets:
 * "cost.cells_saved(tf_bucket)", "layers.leak(lstm off)",
 * "cost.maxlen_keeping(0.9)", "grid.median(post on)". A setting is named
 * as it is in the registry ("maxlen", "padding"); a choice reads as its
 * index-free value (compare it with a name: padding == post). */
#ifndef PL_APP_QUANTITY_H
#define PL_APP_QUANTITY_H

#include "lab.h"
#include "ledger.h"

typedef enum {
    PL_QF_COUNT,   /* a whole number: "1330" */
    PL_QF_VALUE,   /* a measured value: "0.0335" (4 significant digits) */
    PL_QF_SHARE,   /* a share, written as a percentage: "19.6%"; answers may be 19.6 or 0.196 */
    PL_QF_SETTING, /* a setting's value as the registry writes it */
} PlQuantityFormat;

typedef struct {
    int def;       /* row of the table */
    char arg[48];  /* the argument, or "" */
    int arg_index; /* the argument resolved (a strategy, a step, a layer row, a grid cell) */
} PlQuantity;

/* Parses a quantity's name. Returns 0, or -1 with what is wrong in why. */
int pl_quantity_parse(const char *text, PlQuantity *q, char *why, int cap);

/* The result kinds the quantity reads (a bit per PlResultKind); 0 for a
 * setting or a figure of the training. */
unsigned pl_quantity_kinds(const PlQuantity *q);

/* The settings among its results' that leave the quantity as it is (a bit
 * per PlSettingId; PL_QUANTITY_ANY_SETTINGS: a figure fixed by how it is
 * made, as the inverted mask's 100%, whatever the settings). 0 for most. */
#define PL_QUANTITY_ANY_SETTINGS (~0u)
unsigned pl_quantity_ignores(const PlQuantity *q);

/* Whether the quantity is a result of training (the runs, the grid). */
int pl_quantity_reads_training(const PlQuantity *q);

/* The value in the lab now. Returns 0, or -1 with why (no result yet, the
 * figure does not exist here: no grid has run, no such layer). */
int pl_quantity_value(PlLab *lab, const PlQuantity *q, double *v, char *why, int cap);

/* The value in a result of the quantity's kind computed elsewhere (an
 * exercise checks a goal at another setting this way); -1 when it has none. */
int pl_quantity_value_in(const PlQuantity *q, const void *result, const PlLabSettings *s, double *v);

/* A value written as the quantity writes it ("19.6%", "1330", "post"). */
const char *pl_quantity_format(const PlQuantity *q, double v, char *buf, int cap);
PlQuantityFormat pl_quantity_kind_of_format(const PlQuantity *q);
const char *pl_quantity_name(const PlQuantity *q, char *buf, int cap);
/* What q is, in the words --quantities gives it ("the pad cells of the
 * example's batch"): a phrase that stands alone. */
const char *pl_quantity_help_of(const PlQuantity *q);

/* How close an answer must be. */
typedef struct {
    enum { PL_TOL_DEFAULT, PL_TOL_ABSOLUTE, PL_TOL_RELATIVE } kind;
    double value; /* absolute: in the quantity's unit (percentage points for a share); relative: a fraction */
} PlTolerance;

/* Parses "0", "0.01", "5%" (relative) or "2 points" (a share's points).
 * Returns 0 or -1. */
int pl_tolerance_parse(const char *text, PlTolerance *t);

/* A share and its complement are told apart when they lie this far apart
 * (5 points) or more. */
#define PL_COMPLEMENT_APART 0.05

/* Whether answer (as typed) is v within the tolerance. By default a count
 * must be exact, a share within 2 percentage points (typed as 19.6, 19.6% or
 * 0.196), a value within 10%, a setting equal (typed by its name). A share
 * nearer 1 - v than v is not v, whatever the tolerance (53.8% for 46.2%:
 * the other part), where the two lie PL_COMPLEMENT_APART apart. Returns 1,
 * 0, or -1 when the answer cannot be read. */
int pl_quantity_check(const PlQuantity *q, double v, const char *answer, const PlTolerance *t);
/* The two halves of that check, for a class's histogram: a typed answer as
 * a number in the quantity's unit (a share as a fraction; 0, or -1 when it
 * is not a number), and the band [lo, hi] of answers counted right. */
int pl_quantity_read(const PlQuantity *q, const char *answer, double *a);
/* A share's band stops halfway to its complement (see pl_quantity_check). */
void pl_quantity_band(const PlQuantity *q, double v, const PlTolerance *t, double *lo, double *hi);
/* Whether b lies in the band of answers around a: the same answer, as a
 * class's tally and a learner's diagnosis read a named misconception. */
int pl_quantity_same_answer(const PlQuantity *q, const PlTolerance *t, double a, double b);

/* The quantities that give quantity `name` away (its canonical name, as
 * pl_quantity_name writes it), separated by spaces, "NAME(*)" standing for
 * NAME with any argument, into buf (cap bytes): the row declared for name,
 * else for NAME(*) with each $ written as name's argument. Returns buf, or
 * NULL when none is declared. The ledger hides them with it (ledger.h). */
const char *pl_quantity_determiners(const char *name, char *buf, size_t cap);
/* The names the figure of q at settings s also goes by on a surface drawn
 * at other settings, space-separated into buf (NULL when none): the cost
 * view's sweep draws static batching at each maxlen, so a figure of the
 * corpus's padding asked at static batching and maxlen M is the sweep's
 * point at M, whatever the lab's maxlen when it is drawn. Packed, the
 * example's kept tokens are every view's close-up width. A batch's pads are
 * the close-up's in a batch of 4 rows or fewer, and the corpus's when the
 * corpus (of `reviews` reviews, 0: not known) is one batch. */
const char *pl_quantity_aliases(const PlQuantity *q, const PlLabSettings *s, int reviews, char *buf, size_t cap);
/* Hides in l quantity `name` and the quantities that determine it. */
void pl_quantity_hide(PlLedger *l, const char *name);
/* The same, but for the determiners given(determiner, ctx) says are handed
 * over (a question that names them to work from): those stay in sight. */
void pl_quantity_hide_but(PlLedger *l, const char *name, int (*given)(const char *name, void *ctx), void *ctx);

/* The number of quantities, and row i's name pattern and help (for --help
 * and doc/lesson-format.md). */
int pl_quantity_count(void);
const char *pl_quantity_pattern(int i);
const char *pl_quantity_help(int i);

#endif
