/* The lab's state, shared by the files of the app layer that make it up
 * (lab.c: settings, undo and commands; result_cache.c: the result worker;
 * trainer.c: training, runs and the grid; session.c). Nothing outside
 * src/app/lab includes this.
 *
 * Threads: the caller's thread (the UI) owns everything here except what
 * `lock` guards, which the result worker shares: the slots' wanted keys and
 * incoming results, and the weights' reference counts. */
#ifndef PL_APP_LAB_INTERNAL_H
#define PL_APP_LAB_INTERNAL_H

#include <pthread.h>

#include "lab.h"

/* A trained model the probes may read, counted: the lab holds one
 * reference, and the worker one while a probe reads it. */
typedef struct {
    PlModel *model;
    int refs;
    int run_id;
    int seed;
} PlWeights;

/* What a result depends on: its settings (the others reset) and the weights. */
typedef struct {
    PlLabSettings s; /* the settings it depends on; the others at their defaults */
    int weights_run; /* the run whose model it reads; 0: fresh weights */
    int valid;
    PlLabSettings full; /* every setting when it was asked for (not compared) */
} PlResultKey;

typedef struct {
    void *data; /* the result views draw (UI thread only) */
    PlResultInfo info;
    PlResultKey key; /* what data was computed from */
    int failed;
    char error[256];
    /* guarded by lock */
    PlResultKey want; /* what the settings ask for now */
    long demand;      /* the generation of settings in which it was last asked for */
    int busy;         /* the worker is computing it */
    void *incoming;   /* finished, not yet taken by the UI */
    PlResultInfo in_info;
    PlResultKey in_key;
    int in_failed;
    char in_error[256];
    int has_incoming;
} PlSlot;

#define PL_UNDO_DEPTH 64
#define PL_LAB_READING 32

struct PlLab {
    PlLabSettings s;
    PlCorpus *corpus;
    int *lens;
    PlChance chance; /* of corpus */
    PlLedger ledger; /* what the learner may not see now (a lesson's questions) */
    int nreading;    /* the figures a lesson's page names now (pl_lab_reads) */
    char reading[PL_LAB_READING][PL_FIG_NAME];
    int longest; /* the corpus's longest review: what maxlen none stands for */
    unsigned changes;
    unsigned locked;  /* settings a lesson keeps the learner from changing */
    int no_autotrain; /* a cold change does not retrain (pl_lab_autotrain) */
    char notice[256];
    int has_notice;
    PlLabSettings undo[PL_UNDO_DEPTH];
    int nundo;

    /* results and their worker */
    pthread_mutex_t lock;
    pthread_cond_t wake; /* the worker: there may be work */
    pthread_cond_t done; /* waiters: a result came in or the worker went idle */
    pthread_t worker;
    int worker_started, quit, hold, computing;
    long gen; /* bumped by every change of the wanted keys */
    PlSlot slots[PL_R_COUNT];
    PlWeights *weights; /* the model the probes read, or NULL */
    unsigned asked;     /* kinds asked for since pl_lab_asked last read it */
    unsigned drew;      /* parts pl_lab_view_draws said yes to since pl_lab_drew last read it */
    char refused[160];  /* why pl_lab_view_result gave nothing */

    /* training */
    PlJob *job;
    PlLabTraining tr;
    PlRun *job_runs; /* (tr.n) what the job trains */
    PlJob *grid_job;
    PlJob *retired[8]; /* stopped jobs finishing their batch */
    PlRun *grid_runs;
    PlLabGrid grid;
    PlRunsClockFn clock; /* what the trainings' time is read from (pl_lab_clock); NULL: pl_app_clock */
    void *clock_ctx;
    PlLabRun *runs; /* (PL_LAB_MAX_RUNS) */
    int nruns, next_run_id, sort;
    char *autosave;
    unsigned events; /* PL_TRAINED_*: what the trainer did since lab.c last read it */
    /* The batches keys of settings not yet trained (pl_lab_batches_key),
     * each worked out once on the lab's corpus; emptied when it changes. */
    struct {
        PlLabSettings s;
        char key[40];
    } batches_memo[8];
    int nbatches_memo, batches_next; /* filled; the one to replace next when all are */
};

/* What the trainer reports to lab.c (which saves the session and posts the
 * notices); the trainer never calls back up into lab.c. */
enum { PL_TRAINED_RUNS = 1, PL_TRAINED_GRID = 2 };

/* result_cache.c */
int pl_lab_results_start(PlLab *lab, PlErr *err);
void pl_lab_results_stop(PlLab *lab);
/* Asks the worker to stop and waits for it until deadline (CLOCK_REALTIME):
 * 0 when it stopped (joined), -1 when it is still computing a result. */
int pl_lab_results_stop_by(PlLab *lab, const struct timespec *deadline);
/* Recomputes every slot's wanted key from the settings and the weights. */
void pl_lab_results_want(PlLab *lab);
/* Moves finished results to the views; 1 when one arrived. */
int pl_lab_results_take(PlLab *lab);
/* Holds the worker until it is idle (hold = 1) or lets it go (0). */
void pl_lab_results_hold(PlLab *lab, int hold);
/* Frees every result (the corpus changed). */
void pl_lab_results_drop(PlLab *lab);
/* Whether the result cache is well kept (result_cache.c says what that
 * means); takes the lock. 1 or 0; for pl_assert and the tests. */
int pl_lab_cache_is_consistent(PlLab *lab);
/* Makes m (owned from now on) the weights the probes read; NULL: none. */
void pl_lab_set_weights(PlLab *lab, PlModel *m, int run_id, int seed);

/* trainer.c */
void pl_lab_train_start(PlLab *lab);
void pl_lab_train_stop(PlLab *lab);
/* Cancels every training and waits for them until deadline (CLOCK_REALTIME):
 * 0 when all ended (then freed), -1 when one is still inside a batch. */
int pl_lab_train_stop_by(PlLab *lab, const struct timespec *deadline);
int pl_lab_train_tick(PlLab *lab);
int pl_lab_grid_start(PlLab *lab);
int pl_lab_pause_toggle(PlLab *lab);
/* What a run of settings s with this seed trains: the one configuration
 * for the trainer and for pl_lab_batches_key. */
PlTrainConfig pl_lab_train_config(const PlLab *lab, const PlLabSettings *s, int seed);

/* lab.c */
void pl_lab_notice(PlLab *lab, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
