#include "worker.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double pl_app_clock(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct PlJob {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;  /* signalled when pause or cancel changes */
    int paused;
    float curve[PL_MAX_EPOCHS];
    int curve_n;
    const PlCorpus *corpus;
    PlTrainConfig cfg;
    PlProgress latest;
    int cancel, finished, joined;
    PlStatus status;
    PlErr err;
    PlTrainResult res;
    PlModel *model;
};

static int job_progress(const PlProgress *p, void *ctx) {
    PlJob *j = ctx;
    pthread_mutex_lock(&j->lock);
    j->latest = *p;
    if (p->val_acc >= 0.0f && j->curve_n < PL_MAX_EPOCHS) j->curve[j->curve_n++] = p->val_acc;
    while (j->paused && !j->cancel) pthread_cond_wait(&j->wake, &j->lock);
    int stop = j->cancel;
    pthread_mutex_unlock(&j->lock);
    return stop;
}

static void *job_main(void *arg) {
    PlJob *j = arg;
    PlModel *m = NULL;
    PlStatus st = pl_train(j->corpus, &j->cfg, job_progress, j, pl_app_clock, &j->res, &m, &j->err);
    pthread_mutex_lock(&j->lock);
    j->status = st;
    j->model = m;
    j->finished = 1;
    pthread_mutex_unlock(&j->lock);
    return NULL;
}

PlJob *pl_job_start(const PlCorpus *c, const PlTrainConfig *cfg, PlErr *err) {
    PlJob *j = calloc(1, sizeof *j);
    if (!j) {
        pl_err_set(err, PL_ENOMEM, "out of memory starting a training job");
        return NULL;
    }
    j->corpus = c;
    j->cfg = *cfg;
    j->latest.val_acc = -1.0f;
    pthread_mutex_init(&j->lock, NULL);
    pthread_cond_init(&j->wake, NULL);
    if (pthread_create(&j->thread, NULL, job_main, j) != 0) {
        pthread_mutex_destroy(&j->lock);
        pthread_cond_destroy(&j->wake);
        free(j);
        pl_err_set(err, PL_ENOMEM, "cannot start a training thread");
        return NULL;
    }
    return j;
}

PlJobState pl_job_poll(PlJob *j, PlProgress *latest) {
    pthread_mutex_lock(&j->lock);
    if (latest) *latest = j->latest;
    PlJobState s = !j->finished ? PL_JOB_RUNNING
                   : j->status == PL_OK ? PL_JOB_DONE
                   : j->status == PL_ECANCELED ? PL_JOB_CANCELED
                                               : PL_JOB_FAILED;
    pthread_mutex_unlock(&j->lock);
    return s;
}

void pl_job_cancel(PlJob *j) {
    pthread_mutex_lock(&j->lock);
    j->cancel = 1;
    pthread_cond_broadcast(&j->wake);
    pthread_mutex_unlock(&j->lock);
}

void pl_job_pause(PlJob *j, int paused) {
    pthread_mutex_lock(&j->lock);
    j->paused = paused;
    pthread_cond_broadcast(&j->wake);
    pthread_mutex_unlock(&j->lock);
}

int pl_job_curve(PlJob *j, float *val_acc, int max) {
    pthread_mutex_lock(&j->lock);
    int n = j->curve_n < max ? j->curve_n : max;
    for (int i = 0; i < n; i++) val_acc[i] = j->curve[i];
    pthread_mutex_unlock(&j->lock);
    return n;
}

static void job_join(PlJob *j) {
    if (!j->joined) pthread_join(j->thread, NULL);
    j->joined = 1;
}

PlStatus pl_job_finish(PlJob *j, PlTrainResult *res, PlModel **model, PlErr *err) {
    job_join(j);
    if (res) *res = j->res;
    if (model) {
        *model = j->model;
        j->model = NULL;
    }
    if (j->status && err) *err = j->err;
    return j->status;
}

void pl_job_free(PlJob *j) {
    if (!j) return;
    pl_job_cancel(j);
    job_join(j);
    pl_model_free(j->model);
    pthread_mutex_destroy(&j->lock);
    pthread_cond_destroy(&j->wake);
    free(j);
}

/* ---- several runs on a few threads ---- */

typedef struct {
    PlRun *runs;
    int n, next;
    const PlCorpus *corpus;
    pthread_mutex_t lock;
    PlRunsProgressFn progress;
    void *ctx;
    PlModel *first;
    PlErr err;
    int failed;
    int canceled;
} Pool;

typedef struct {
    Pool *pool;
    int run;
} RunCtx;

static int pool_progress(const PlProgress *p, void *arg) {
    RunCtx *rc = arg;
    Pool *pool = rc->pool;
    pthread_mutex_lock(&pool->lock);
    if (pool->progress && pool->progress(rc->run, p, pool->ctx)) pool->canceled = 1;
    int stop = pool->canceled;
    pthread_mutex_unlock(&pool->lock);
    return stop;
}

static void *pool_main(void *arg) {
    Pool *pool = arg;
    for (;;) {
        pthread_mutex_lock(&pool->lock);
        int i = pool->next < pool->n && !pool->canceled ? pool->next++ : -1;
        pthread_mutex_unlock(&pool->lock);
        if (i < 0) return NULL;
        RunCtx rc = {pool, i};
        PlErr err;
        PlModel *m = NULL;
        PlRun *r = &pool->runs[i];
        r->status = pl_train(pool->corpus, &r->cfg, pool_progress, &rc, pl_app_clock, &r->res, i == 0 ? &m : NULL, &err);
        pthread_mutex_lock(&pool->lock);
        if (i == 0) pool->first = m;
        if (r->status && !pool->failed) {
            pool->failed = 1;
            pool->err = err;
        }
        pthread_mutex_unlock(&pool->lock);
    }
}

PlStatus pl_runs_execute(PlRun *runs, int n, const PlCorpus *c, int threads, PlRunsProgressFn progress,
                         void *ctx, PlModel **model_of_first, PlErr *err) {
    Pool pool = {runs, n, 0, c, PTHREAD_MUTEX_INITIALIZER, progress, ctx, NULL, {{0}}, 0, 0};
    pthread_t tid[16];
    int started = 0;
    if (threads > 16) threads = 16;
    for (int t = 1; t < threads && t < n; t++)
        if (pthread_create(&tid[started], NULL, pool_main, &pool) == 0) started++;
    pool_main(&pool);
    for (int t = 0; t < started; t++) pthread_join(tid[t], NULL);
    if (model_of_first) *model_of_first = pool.first;
    else pl_model_free(pool.first);
    if (pool.canceled) {
        pl_err_set(err, PL_ECANCELED, "runs canceled");
        return PL_ECANCELED;
    }
    if (pool.failed) {
        if (err) *err = pool.err;
        for (int i = 0; i < n; i++)
            if (runs[i].status) return runs[i].status;
    }
    return PL_OK;
}
