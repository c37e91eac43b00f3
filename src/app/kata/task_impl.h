/* What the task files share (task.h is the interface). */
#ifndef PL_APP_KATA_TASK_IMPL_H
#define PL_APP_KATA_TASK_IMPL_H

#include "batch.h"
#include "core/plan.h"
#include "task.h"

/* A (B,T) mask of b into a: 1 at real cells, or 1 at pads when pad_is_one. */
PlStatus pl_ktask_mask_input(PlKArray *a, const char *name, const PlKBatch *b, PlKType t, int pad_is_one);
/* Whether cell (row, token) idx is a pad, read from the case's inputs. */
int pl_ktask_is_pad(const PlKCase *kc, const int *idx);

/* The plan of a compile_shapes case, from its inputs (the core's
 * pl_plan_make): PL_OK, PL_ERANGE for a strategy it does not know, or the
 * plan's error. The caller frees *p. */
PlStatus pl_ktask_shapes_plan(const PlKCase *kc, PlPlan **p);

extern const PlKTask pl_ktask_pad, pl_ktask_keras, pl_ktask_torch, pl_ktask_hf, pl_ktask_inf, pl_ktask_finfo,
    pl_ktask_causal, pl_ktask_labels, pl_ktask_pos, pl_ktask_cu, pl_ktask_fp16, pl_ktask_mean, pl_ktask_softmax,
    pl_ktask_loss, pl_ktask_buckets, pl_ktask_completion, pl_ktask_kv, pl_ktask_packed_pos, pl_ktask_packed_mask,
    pl_ktask_blocks, pl_ktask_shapes;

#endif
