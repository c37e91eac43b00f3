/* The table of computations behind the katas (task.h). */
#include "task.h"

#include <stdio.h>
#include <string.h>

#include "task_impl.h"

static const PlKTask *const tasks[] = {
    &pl_ktask_pad,        &pl_ktask_keras, &pl_ktask_torch,      &pl_ktask_hf,          &pl_ktask_inf,
    &pl_ktask_finfo,      &pl_ktask_fp16,  &pl_ktask_mean,       &pl_ktask_softmax,     &pl_ktask_causal,
    &pl_ktask_labels,     &pl_ktask_loss,  &pl_ktask_pos,        &pl_ktask_cu,          &pl_ktask_buckets,
    &pl_ktask_completion, &pl_ktask_kv,    &pl_ktask_packed_pos, &pl_ktask_packed_mask, &pl_ktask_blocks,
    &pl_ktask_shapes,
};
#define NTASKS (int)(sizeof tasks / sizeof tasks[0])

const PlKTask *pl_ktask_find(const char *name) {
    for (int i = 0; i < NTASKS; i++)
        if (strcmp(tasks[i]->name, name) == 0) return tasks[i];
    return NULL;
}

void pl_ktask_names(char *buf, size_t cap) {
    buf[0] = '\0';
    for (int i = 0; i < NTASKS; i++)
        snprintf(buf + strlen(buf), cap - strlen(buf), "%s%s", i ? ", " : "", tasks[i]->name);
}

PlStatus pl_ktask_cases(const PlKTask *t, const PlCorpus *c, PlKCase *cases) {
    memset(cases, 0, sizeof *cases * (size_t)t->ncases);
    for (int k = 0; k < t->ncases; k++) {
        PlStatus st = t->make(&cases[k], k, c);
        if (st) {
            for (int j = 0; j <= k; j++) pl_kcase_done(&cases[j]);
            return st;
        }
    }
    return PL_OK;
}
