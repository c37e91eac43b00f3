/* Training in the background, for every front end.
 *
 * A job trains one model on its own thread and reports progress through a
 * shared snapshot the UI polls; pl_runs_execute trains a list of experiment
 * runs on a few threads at once. Each run is deterministic on its own, so
 * the numbers do not depend on how many threads share the work. */
#ifndef PL_APP_WORKER_H
#define PL_APP_WORKER_H

#include "core/experiment.h"
#include "core/train.h"

/* Seconds on a monotonic clock: what the core's timings are measured with. */
double pl_app_clock(void);

typedef enum { PL_JOB_RUNNING, PL_JOB_DONE, PL_JOB_FAILED, PL_JOB_CANCELED } PlJobState;

typedef struct PlJob PlJob;

/* Starts training cfg on corpus c (which must outlive the job). NULL when a
 * thread cannot be started; the reason is in err. */
PlJob *pl_job_start(const PlCorpus *c, const PlTrainConfig *cfg, PlErr *err);
/* The latest progress (a copy) and the job's state; never blocks for long. */
PlJobState pl_job_poll(PlJob *j, PlProgress *latest);
/* Asks the job to stop after its current batch. */
void pl_job_cancel(PlJob *j);
/* Holds the job after its current batch (paused = 1) or lets it go on. */
void pl_job_pause(PlJob *j, int paused);
/* The validation accuracy of every epoch finished so far; returns how many. */
int pl_job_curve(PlJob *j, float *val_acc, int max);
/* Waits for the job, then hands over its result and (if model is not NULL)
 * the trained model; returns the run's status. */
PlStatus pl_job_finish(PlJob *j, PlTrainResult *res, PlModel **model, PlErr *err);
/* Cancels if still running, waits, frees. NULL is harmless. */
void pl_job_free(PlJob *j);

/* Called (serialised) after every batch of every run: which run, and its
 * progress. A nonzero return cancels this run and every run not started. */
typedef int (*PlRunsProgressFn)(int run, const PlProgress *p, void *ctx);

/* Trains runs[0..n) on up to `threads` threads; each run's status and result
 * land in the run. model_of_first, when not NULL, receives the trained model
 * of run 0. Returns PL_OK when every run succeeded, else the first failure. */
PlStatus pl_runs_execute(PlRun *runs, int n, const PlCorpus *c, int threads, PlRunsProgressFn progress,
                         void *ctx, PlModel **model_of_first, PlErr *err);

#endif
