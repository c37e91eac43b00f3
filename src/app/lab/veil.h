/* The veil: while a lesson's question is open, the figure it asks for is
 * shown nowhere. A front end hands every text it draws for a view, the
 * status line and the lesson pane through pl_veil_text, which blanks each
 * number that shows a veiled value (as a count, a share in per cent or a
 * fraction, or a value at the number's own precision) with '?' of the same
 * width, so layouts do not move. A question about training veils every
 * training result: the front ends then draw none until it is answered.
 *
 * Layout: n values in v, each with the kind it is formatted as. */
#ifndef PL_APP_VEIL_H
#define PL_APP_VEIL_H

#include <stddef.h>

#define PL_VEIL_MAX 8

typedef struct {
    int n;
    double v[PL_VEIL_MAX];
    int training; /* hide every training result (accuracies, losses, the runs) */
} PlVeil;

/* Adds a value to hide; beyond PL_VEIL_MAX values it is dropped. */
void pl_veil_add(PlVeil *v, double value);

/* Whether the number spelled by s[0..n) ("238197", "23.8%", "0.2382",
 * "-1.5e-07") shows one of the veiled values at its own precision. A
 * whole number matches a whole value, or a value of 10 or more rounded
 * ("230" shows 229.7), never a small fraction ("0" does not show 0.24). */
int pl_veil_number(const PlVeil *v, const char *s, size_t n);

/* Copies text into out (at most cap bytes with its NUL) with every number
 * that shows a veiled value replaced by '?'s. v may be NULL (a copy).
 * Returns out. */
const char *pl_veil_text(const PlVeil *v, const char *text, char *out, size_t cap);

#endif
