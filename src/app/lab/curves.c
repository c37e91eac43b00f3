/* The train view's curves: a setting's runs per epoch and their medians,
 * over the finished runs and over the seeds of the retrain in progress. */
#include <stdlib.h>
#include <string.h>

#include "lab.h"

static int cmp_float(const void *a, const void *b) {
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static float median_of(float *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_float);
    return n % 2 ? v[n / 2] : 0.5f * (v[n / 2 - 1] + v[n / 2]);
}

int pl_lab_curves(const PlLab *lab, const PlLabSettings *s, PlLabCurves *out) {
    memset(out, 0, sizeof *out);
    int n;
    const PlLabRun *runs = pl_lab_runs(lab, &n);
    for (int i = 0; i < n && out->nruns < PL_LAB_CURVE_RUNS; i++) {
        if (!pl_lab_same_setting(&runs[i].settings, s)) continue;
        out->runs[out->nruns++] = &runs[i];
        out->epochs = runs[i].epochs > out->epochs ? runs[i].epochs : out->epochs;
    }
    float acc[PL_LAB_CURVE_RUNS > PL_JOB_MAX_RUNS ? PL_LAB_CURVE_RUNS : PL_JOB_MAX_RUNS];
    float loss[sizeof acc / sizeof acc[0]];
    for (int e = 0; e < out->epochs; e++) {
        int m = 0;
        for (int i = 0; i < out->nruns; i++)
            if (out->runs[i]->epochs > e) acc[m] = out->runs[i]->val_acc[e], loss[m++] = out->runs[i]->train_loss[e];
        out->median_acc[e] = median_of(acc, m);
        out->median_loss[e] = median_of(loss, m);
    }
    const PlLabTraining *t = pl_lab_training(lab);
    if (t->active && pl_lab_same_setting(&t->settings, s)) {
        out->live = 1;
        const PlJobView *v = &t->job;
        for (int i = 0; i < t->n && i < v->n; i++)
            out->live_epochs = v->curve_n[i] > out->live_epochs ? v->curve_n[i] : out->live_epochs;
        for (int e = 0; e < out->live_epochs; e++) {
            int m = 0;
            for (int i = 0; i < t->n && i < v->n; i++)
                if (v->curve_n[i] > e) acc[m] = v->curve[i][e], loss[m++] = v->loss_curve[i][e];
            out->live_median_acc[e] = median_of(acc, m);
            out->live_median_loss[e] = median_of(loss, m);
        }
    }
    return out->nruns;
}
