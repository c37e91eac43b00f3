#include "worker.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

double pl_app_clock(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int pl_app_cores(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

uint64_t pl_app_memory_available(void) {
    uint64_t avail = 0;
    FILE *f = fopen("/proc/meminfo", "r");
    if (f) {
        char line[128];
        unsigned long long kb;
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) avail = (uint64_t)kb * 1024;
        fclose(f);
    }
    struct rlimit as;
    if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY && (!avail || as.rlim_cur < avail))
        avail = (uint64_t)as.rlim_cur;
    return avail;
}

/* ---- several runs on a few threads ---- */

typedef struct {
    PlRun *runs;
    int n, next;
    const PlCorpus *corpus;
    pthread_mutex_t lock;
    PlRunsProgressFn progress;
    PlRunsClockFn clock;
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

static double pool_clock(void *arg) {
    const Pool *pool = ((const RunCtx *)arg)->pool;
    return pool->clock ? pool->clock(pool->ctx) : pl_app_clock();
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
        r->status = pl_train(pool->corpus, &r->cfg, pool_progress, &rc, pool_clock, &r->res, i == 0 ? &m : NULL, &err);
        /* The run's last call: epoch 0 tells the caller it has ended. */
        PlProgress end = {0, 0, 0, 0, 0.0f, 0.0f, -1.0f};
        pool_progress(&end, &rc);
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
                         PlRunsClockFn clock, void *ctx, PlModel **model_of_first, PlErr *err) {
    Pool pool = {runs, n, 0, c, PTHREAD_MUTEX_INITIALIZER, progress, clock, ctx, NULL, {{0}}, 0, 0};
    pthread_t tid[16];
    int started = 0;
    if (threads > 16) threads = 16;
    /* A training that cannot fit is refused before it starts, in one line,
     * rather than growing until the machine swaps. */
    uint64_t avail = pl_app_memory_available();
    int at_once = threads < 1 ? 1 : threads < n ? threads : n;
    for (int i = 0; i < n; i++) {
        PlErr why;
        PlStatus st = pl_train_memory_check(&runs[i].cfg, c->num_words, at_once, avail, &why);
        if (st) {
            runs[i].status = st;
            if (err) *err = why;
            return st;
        }
    }
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

/* ---- a job: runs on a thread of their own ---- */

struct PlJob {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake; /* signalled when pause or cancel changes */
    const PlCorpus *corpus;
    PlRun *runs;
    int threads;
    PlJobView view; /* guarded by lock */
    int cancel, finished, joined;
    PlRunsClockFn clock; /* the job's time; NULL: pl_app_clock */
    void *clock_ctx;
    double start, paused_at, paused_total;
    PlStatus status;
    PlErr err;
    PlModel *first;
};

static double job_now(const PlJob *j) { return j->clock ? j->clock(j->clock_ctx) : pl_app_clock(); }

/* Seconds since the start with the paused time left out; lock held. */
static double active_seconds(const PlJob *j) {
    double now = job_now(j);
    return now - j->start - j->paused_total - (j->view.paused ? now - j->paused_at : 0.0);
}

static double job_clock(void *ctx) {
    PlJob *j = ctx;
    pthread_mutex_lock(&j->lock);
    double t = active_seconds(j);
    pthread_mutex_unlock(&j->lock);
    return t;
}

static double run_fraction(const PlJobView *v, int i) {
    const PlProgress *p = &v->latest[i];
    if (v->done[i]) return 1.0;
    if (p->batches < 1 || p->epochs < 1) return 0.0;
    return ((p->epoch - 1) * (double)p->batches + p->batch) / ((double)p->epochs * p->batches);
}

static void record(PlJobView *v, int run, const PlProgress *p) {
    if (p->epoch == 0) {
        v->done[run] = 1;
        v->ended++;
    } else {
        v->latest[run] = *p;
        if (p->val_acc >= 0.0f && v->curve_n[run] < PL_MAX_EPOCHS) {
            v->curve[run][v->curve_n[run]] = p->val_acc;
            v->loss_curve[run][v->curve_n[run]++] = p->loss;
        }
    }
    double f = 0.0;
    for (int i = 0; i < v->n; i++) f += run_fraction(v, i);
    v->fraction = v->n ? f / v->n : 1.0;
}

static int job_progress(int run, const PlProgress *p, void *ctx) {
    PlJob *j = ctx;
    pthread_mutex_lock(&j->lock);
    record(&j->view, run, p);
    while (j->view.paused && !j->cancel) pthread_cond_wait(&j->wake, &j->lock);
    int stop = j->cancel;
    pthread_mutex_unlock(&j->lock);
    return stop;
}

static void *job_main(void *arg) {
    PlJob *j = arg;
    PlErr err;
    PlModel *first = NULL;
    PlStatus st = pl_runs_execute(j->runs, j->view.n, j->corpus, j->threads, job_progress, job_clock, j, &first, &err);
    pthread_mutex_lock(&j->lock);
    j->status = st;
    j->err = err;
    j->first = first;
    j->finished = 1;
    pthread_cond_broadcast(&j->wake); /* pl_job_stop_by may be waiting for it */
    pthread_mutex_unlock(&j->lock);
    return NULL;
}

PlJob *pl_job_start(const PlCorpus *c, const PlRun *runs, int n, int threads, PlRunsClockFn clock, void *clock_ctx,
                    PlErr *err) {
    if (n < 1 || n > PL_JOB_MAX_RUNS) {
        pl_err_set(err, PL_ERANGE, "a job trains 1 to %d runs, not %d", PL_JOB_MAX_RUNS, n);
        return NULL;
    }
    PlJob *j = calloc(1, sizeof *j);
    PlRun *copy = malloc((size_t)n * sizeof *copy);
    if (!j || !copy) {
        free(j), free(copy);
        pl_err_set(err, PL_ENOMEM, "out of memory starting a training job");
        return NULL;
    }
    memcpy(copy, runs, (size_t)n * sizeof *copy);
    j->corpus = c, j->runs = copy, j->threads = threads < 1 ? 1 : threads;
    j->view.n = n;
    for (int i = 0; i < n; i++) j->view.latest[i].val_acc = -1.0f;
    j->clock = clock, j->clock_ctx = clock_ctx;
    j->start = job_now(j);
    pthread_mutex_init(&j->lock, NULL);
    pthread_cond_init(&j->wake, NULL);
    if (pthread_create(&j->thread, NULL, job_main, j) != 0) {
        pthread_mutex_destroy(&j->lock);
        pthread_cond_destroy(&j->wake);
        free(copy), free(j);
        pl_err_set(err, PL_ENOMEM, "cannot start a training thread");
        return NULL;
    }
    return j;
}

PlJobState pl_job_poll(PlJob *j, PlJobView *v) {
    pthread_mutex_lock(&j->lock);
    if (v) {
        *v = j->view;
        v->active_seconds = active_seconds(j);
    }
    PlJobState s = !j->finished                ? PL_JOB_RUNNING
                   : j->status == PL_OK        ? PL_JOB_DONE
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
    paused = paused != 0;
    if (paused != j->view.paused) {
        double now = job_now(j);
        if (paused) j->paused_at = now;
        else j->paused_total += now - j->paused_at;
        j->view.paused = paused;
    }
    pthread_cond_broadcast(&j->wake);
    pthread_mutex_unlock(&j->lock);
}

static void job_join(PlJob *j) {
    if (!j->joined) pthread_join(j->thread, NULL);
    j->joined = 1;
}

PlStatus pl_job_finish(PlJob *j, PlRun *runs, PlModel **model_of_first, PlErr *err) {
    job_join(j);
    if (runs) memcpy(runs, j->runs, (size_t)j->view.n * sizeof *runs);
    if (model_of_first) {
        *model_of_first = j->first;
        j->first = NULL;
    }
    if (j->status && err) *err = j->err;
    return j->status;
}

int pl_job_stop_by(PlJob *j, const struct timespec *deadline) {
    if (!j || j->joined) return 0;
    /* timed: a thread stuck inside the clock holds the lock */
    if (pthread_mutex_timedlock(&j->lock, deadline) != 0) return -1;
    j->cancel = 1;
    pthread_cond_broadcast(&j->wake);
    int rc = 0;
    while (!j->finished && rc == 0) rc = pthread_cond_timedwait(&j->wake, &j->lock, deadline);
    int ended = j->finished;
    pthread_mutex_unlock(&j->lock);
    if (!ended) return -1;
    job_join(j); /* it has returned: this does not wait */
    return 0;
}

void pl_job_free(PlJob *j) {
    if (!j) return;
    pl_job_cancel(j);
    job_join(j);
    pl_model_free(j->first);
    pthread_mutex_destroy(&j->lock);
    pthread_cond_destroy(&j->wake);
    free(j->runs);
    free(j);
}
