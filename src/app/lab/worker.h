/* Training in the background, for every front end.
 *
 * pl_runs_execute trains a list of experiment runs on a few threads at once;
 * a job does the same on a thread of its own, so that the UI can poll its
 * progress, pause it and cancel it without ever waiting for it. Each run is
 * deterministic on its own, so the numbers do not depend on how many
 * threads share the work. */
#ifndef PL_APP_WORKER_H
#define PL_APP_WORKER_H

#include <time.h>

#include "core/experiment.h"
#include "core/train.h"

/* Seconds on a monotonic clock: what the core's timings are measured with. */
double pl_app_clock(void);

/* Threads worth running at once: the online CPUs, 1 at least. */
int pl_app_cores(void);

/* Bytes this process may still take: /proc/meminfo's MemAvailable, or the
 * address-space limit (ulimit -v) when lower; 0 when neither is known. */
uint64_t pl_app_memory_available(void);

/* Called (serialised) after every batch of every run: which run, and its
 * progress. A nonzero return cancels this run and every run not started. */
typedef int (*PlRunsProgressFn)(int run, const PlProgress *p, void *ctx);
/* The runs' clock, called with the same ctx; NULL: pl_app_clock. */
typedef double (*PlRunsClockFn)(void *ctx);

/* Trains runs[0..n) on up to `threads` threads; each run's status and result
 * land in the run. model_of_first, when not NULL, receives the trained model
 * of run 0. Returns PL_OK when every run succeeded, else the first failure
 * (PL_ECANCELED when the progress callback asked to stop). */
PlStatus pl_runs_execute(PlRun *runs, int n, const PlCorpus *c, int threads, PlRunsProgressFn progress,
                         PlRunsClockFn clock, void *ctx, PlModel **model_of_first, PlErr *err);

#define PL_JOB_MAX_RUNS 40

typedef enum { PL_JOB_RUNNING, PL_JOB_DONE, PL_JOB_FAILED, PL_JOB_CANCELED } PlJobState;

/* What a job has done so far, as a copy. */
typedef struct {
    int n;     /* runs */
    int ended; /* runs finished (or failed) */
    int paused;
    double fraction;                                  /* of all the runs' batches, done */
    double active_seconds;                            /* since the start, paused time left out */
    PlProgress latest[PL_JOB_MAX_RUNS];               /* each run's last progress (epoch 0: not started) */
    int done[PL_JOB_MAX_RUNS];                        /* the run has ended */
    float curve[PL_JOB_MAX_RUNS][PL_MAX_EPOCHS];      /* validation accuracy per finished epoch */
    float loss_curve[PL_JOB_MAX_RUNS][PL_MAX_EPOCHS]; /* training loss per finished epoch */
    int curve_n[PL_JOB_MAX_RUNS];
} PlJobView;

typedef struct PlJob PlJob;

/* Starts training runs[0..n) (copied; n <= PL_JOB_MAX_RUNS) on corpus c
 * (which must outlive the job) with up to `threads` threads. Its time (the
 * runs' seconds, active_seconds, pauses) is read from clock(clock_ctx),
 * which any thread may call; NULL: pl_app_clock. NULL when a thread cannot
 * be started or n is out of range; the reason is in err. */
PlJob *pl_job_start(const PlCorpus *c, const PlRun *runs, int n, int threads, PlRunsClockFn clock, void *clock_ctx,
                    PlErr *err);
/* The job's state, and what it has done into *v (when not NULL); never
 * blocks for long. */
PlJobState pl_job_poll(PlJob *j, PlJobView *v);
/* Asks the job to stop after the runs' current batches. */
void pl_job_cancel(PlJob *j);
/* Holds every run after its current batch (paused = 1) or lets them go on.
 * Paused time counts neither in the runs' seconds nor in active_seconds. */
void pl_job_pause(PlJob *j, int paused);
/* Waits for the job, then copies the runs with their results into runs
 * (n entries) and hands over run 0's trained model (when model_of_first is
 * not NULL). Returns the job's status. */
PlStatus pl_job_finish(PlJob *j, PlRun *runs, PlModel **model_of_first, PlErr *err);
/* Cancels the job and waits for its thread until deadline (CLOCK_REALTIME,
 * as pthread_cond_timedwait reads it). Returns 0 when the thread ended (then
 * pl_job_free does not wait), -1 when it is still inside a batch at the
 * deadline: the job is left as it was, and freeing it would wait. NULL: 0. */
int pl_job_stop_by(PlJob *j, const struct timespec *deadline);
/* Cancels if still running, waits, frees. NULL is harmless. */
void pl_job_free(PlJob *j);

#endif
