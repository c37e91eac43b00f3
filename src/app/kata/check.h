/* Checking a candidate's outputs against the expected ones, cell by cell:
 * the first wrong cell is named with its case, its indices, the value
 * given, the value expected and why. */
#ifndef PL_APP_KATA_CHECK_H
#define PL_APP_KATA_CHECK_H

#include <stddef.h>

#include "app/json.h"
#include "task.h"

typedef enum { PL_KCHECK_PASS = 0, PL_KCHECK_WRONG = 1 } PlKVerdict;

/* Checks one case's outputs (an object with the task's output names) as
 * case number (from 1). PASS, or WRONG with msg "case N (what), row 3,
 * key 7: weights is 0.12, expected 0: why". */
PlKVerdict pl_kcheck_case(const PlKTask *t, const PlKCase *kc, int number, const PlJson *got, char *msg, size_t cap);

/* The tolerance a float cell passes within: |got - expected| <= atol +
 * rtol * |expected| (float16 cells: rtol 1e-3); infinities must match. */
#define PL_KCHECK_ATOL 1e-5
#define PL_KCHECK_RTOL 1e-4

#endif
