/* The text of lessons and decks as the learner reads it: every {quantity}
 * filled with the lab's value now, and every conditional sentence shown only
 * when its condition on the figures holds:
 *
 *   {? COND | TEXT | OTHERWISE}     COND: TERM OP TERM [& TERM OP TERM ...]
 *                                   TERM: a quantity or a number; OP: < <= > >= == !=
 *
 * "{? grid.at_chance(post off) >= 2 | stays at chance | learns a little}".
 * The branches may hold placeholders (not another conditional); OTHERWISE
 * may be left out, and then nothing shows when COND fails. A condition
 * whose figures are not computed yet shows "...", as a placeholder does. */
#ifndef PL_APP_FILL_H
#define PL_APP_FILL_H

#include "lab.h"
#include "ledger.h"
#include "quantity.h"

/* Checks every placeholder and conditional of text: 0, or -1 with why. */
int pl_fill_check(const char *text, char *why, int cap);

/* Fills text with the lab's values now into out (cap bytes), drawn through
 * ledger (NULL: every figure shows): a hidden placeholder is '?'s of its
 * width, and a conditional whose condition reads a hidden figure is hidden
 * whole, since the text it picks tells the figure. Returns out. */
const char *pl_fill(PlLab *lab, const PlLedger *ledger, const char *text, char *out, int cap);
/* As pl_fill, for a printout that must not pass "..." off as a figure: 0
 * when every figure was there, or -1 with why naming the first that was not
 * ("{train.min}: no runs yet"). */
int pl_fill_all(PlLab *lab, const PlLedger *ledger, const char *text, char *out, int cap, char *why, int whycap);

/* The result kinds text reads (a bit per PlResultKind), conditions too. */
unsigned pl_fill_kinds(const char *text);
/* Whether text reads a figure of training (train.*, grid.*), conditions too. */
int pl_fill_reads_training(const char *text);

/* Calls fn once for each conditional of text with its condition and where
 * it stands now: 1 holds, 0 fails, -1 its figures are not computed. Returns
 * how many conditionals text has. */
int pl_fill_conditions(PlLab *lab, const char *text, void (*fn)(const char *cond, int holds, void *ctx), void *ctx);

#endif
