/* How long the tests wait. A test may wait for a worker (a result, a
 * training) and poll for it, but never assumes how long the work takes: on a
 * loaded machine, under the sanitizers, it can take ten times as long. These
 * are bounds that only a hang reaches. */
#ifndef PL_TEST_PATIENCE_H
#define PL_TEST_PATIENCE_H

/* Seconds a test waits for one thing (pl_lab_wait, a poll loop). */
#define PL_TEST_PATIENCE 600

/* A poll loop's rounds of 10 ms within PL_TEST_PATIENCE. */
#define PL_TEST_POLLS (PL_TEST_PATIENCE * 100)

/* Seconds a whole test may run before Check calls it hung. */
#define PL_TEST_HANG 1800

#endif
