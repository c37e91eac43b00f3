/* The lab: the settings a learner moves, the actions that move them, and the
 * results every view draws. Front ends send actions and draw results; they
 * never compute.
 *
 * Settings are hot (which example, which view, the mask convention shown:
 * they only change what is drawn) or cold (padding, truncating, mask,
 * maxlen, batching, model: they change what a model learns). A cold change
 * recomputes the probes at once and retrains the model in the background. */
#ifndef PL_APP_LAB_H
#define PL_APP_LAB_H

#include "core/cost.h"
#include "core/experiment.h"
#include "core/probe.h"
#include "core/stats.h"
#include "core/train.h"
#include "worker.h"

typedef enum {
    PL_VIEW_BATCH,
    PL_VIEW_COST,
    PL_VIEW_ATTENTION,
    PL_VIEW_RNN,
    PL_VIEW_POOLING,
    PL_VIEW_LOSS,
    PL_VIEW_TRAIN,
    PL_VIEW_LAYERS,
    PL_VIEW_GENERATE,
    PL_VIEW_COUNT
} PlView;

const char *pl_view_name(PlView v);
int pl_view_parse(const char *s, PlView *out);

/* The batching strategies the lab offers, in the order `b` cycles them. */
#define PL_LAB_BATCHINGS 5
extern const PlBatching pl_lab_batchings[PL_LAB_BATCHINGS];
/* The models `M` cycles. */
#define PL_LAB_MODELS 5
extern const PlArch pl_lab_models[PL_LAB_MODELS];

typedef struct {
    char corpus[512];
    PlSide padding, truncating;
    int mask;
    int maxlen;
    PlBatching batching;
    PlArch model;
    PlMaskConv conv;
    int seed;
    int example;
    PlView view;
} PlLabSettings;

/* The tutorial's settings: pre/pre, maxlen 200, mask off, static batches,
 * SimpleRNN, the Keras convention, seed 0, example 0, the batch view. */
PlLabSettings pl_lab_settings_default(void);

typedef enum {
    PL_ACT_PADDING, PL_ACT_TRUNCATING, PL_ACT_MASK, PL_ACT_MAXLEN_UP, PL_ACT_MAXLEN_DOWN,
    PL_ACT_BATCHING, PL_ACT_MODEL, PL_ACT_CONVENTION, PL_ACT_NEXT_EXAMPLE, PL_ACT_PREV_EXAMPLE,
    PL_ACT_RUN, PL_ACT_PAUSE, PL_ACT_NEXT_VIEW, PL_ACT_PREV_VIEW, PL_ACT_SORT_RUNS, PL_ACT_NEXT_SEED,
    PL_ACT_GRID, /* the 2 x 2 of padding x mask over three seeds, in the background */
    PL_ACT_COUNT
} PlAction;

/* What an action did. */
enum { PL_LAB_HOT = 1, PL_LAB_COLD = 2 };

/* One finished (or canceled) training run, for the train view's table. */
typedef struct {
    PlLabSettings settings;
    float val_acc[PL_MAX_EPOCHS];
    int epochs;
    float best_val_acc;
    double seconds;
} PlLabRun;

#define PL_LAB_MAX_RUNS 64

/* The training shown in the train view. */
typedef struct {
    int active;            /* a job is running (or paused) */
    int paused;
    PlProgress progress;   /* latest */
    double eta;            /* seconds left, estimated */
    float curve[PL_MAX_EPOCHS]; /* validation accuracy per finished epoch */
    int curve_n;
    float prev_curve[PL_MAX_EPOCHS]; /* the previous run's, for comparison */
    int prev_n;
    char status[160];
} PlLabTraining;

/* Figures of the cost view. */
#define PL_LAB_SWEEP 32
typedef struct {
    PlCost cost;           /* the chosen batching at the chosen maxlen */
    double padding_share, kept_share, truncated_share;
    int sweep_maxlen[PL_LAB_SWEEP];
    double sweep_padding[PL_LAB_SWEEP], sweep_kept[PL_LAB_SWEEP];
    int sweep_at;          /* index of the sweep point nearest the current maxlen */
    PlStrategyRow strategies[PL_BATCH_COUNT];
    int nstrategies;
} PlLabCost;

/* The padding x mask grid the train view can run: SimpleRNN, pre/post x
 * mask off/on, seeds 0, 1, 2, at the lab's maxlen. */
#define PL_LAB_GRID_SEEDS 3
typedef struct {
    int active;            /* running */
    int done;              /* finished: the summary is filled */
    int finished, total;   /* runs */
    PlSummary summary[4];
    int n;
    char status[160];
} PlLabGrid;

typedef struct PlLab PlLab;

/* Loads the corpus named in s. NULL on failure (err names the file and line). */
PlLab *pl_lab_new(const PlLabSettings *s, PlErr *err);
void pl_lab_free(PlLab *lab);

const PlLabSettings *pl_lab_settings(const PlLab *lab);
const PlCorpus *pl_lab_corpus(const PlLab *lab);

/* Applies an action; returns PL_LAB_HOT, PL_LAB_COLD or 0 (nothing changed). */
int pl_lab_act(PlLab *lab, PlAction a);
/* Selects a view directly. */
void pl_lab_set_view(PlLab *lab, PlView v);
/* Polls the background training and the grid; returns 1 when something the
 * train view shows may have changed (while either runs, and once as it ends). */
int pl_lab_tick(PlLab *lab);
/* Keys that changed since the last call, as a bit per setting (for highlighting). */
unsigned pl_lab_take_changes(PlLab *lab);
enum { PL_CHG_PADDING = 1, PL_CHG_TRUNCATING = 2, PL_CHG_MASK = 4, PL_CHG_MAXLEN = 8, PL_CHG_BATCHING = 16,
       PL_CHG_MODEL = 32, PL_CHG_CONV = 64, PL_CHG_EXAMPLE = 128, PL_CHG_VIEW = 256, PL_CHG_SEED = 512 };

/* The results of the views, computed on demand from the current settings.
 * Borrowed; valid until the next action. NULL with a message in err on failure. */
const PlProbeBatch *pl_lab_batch(PlLab *lab, PlErr *err);
const PlLabCost *pl_lab_cost(PlLab *lab, PlErr *err);
const PlProbeAttention *pl_lab_attention(PlLab *lab, PlErr *err);
const PlProbeRnn *pl_lab_rnn(PlLab *lab, PlErr *err);
const PlProbePooling *pl_lab_pooling(PlLab *lab, PlErr *err);
const PlProbeLoss *pl_lab_loss(PlLab *lab, PlErr *err);
const PlProbeLayers *pl_lab_layers(PlLab *lab, PlErr *err);
const PlProbeGenerate *pl_lab_generate(PlLab *lab, PlErr *err);
const PlLabTraining *pl_lab_training(const PlLab *lab);
/* A copy of the grid's state (it runs on its own thread). */
PlLabGrid pl_lab_grid(PlLab *lab);
const PlLabRun *pl_lab_runs(const PlLab *lab, int *n);
/* The column the runs table is sorted by (0 settings order, 1 best accuracy, 2 time). */
int pl_lab_runs_sort(const PlLab *lab);

/* Sessions: the settings and the runs table in a readable key = value file,
 * written atomically. Loading a damaged file fails with the line at fault. */
PlStatus pl_lab_save_session(const PlLab *lab, const char *path, PlErr *err);
PlStatus pl_lab_read_session(const char *path, PlLabSettings *s, PlLabRun *runs, int *nruns, PlErr *err);
/* Puts runs read from a session into the lab's table. */
void pl_lab_set_runs(PlLab *lab, const PlLabRun *runs, int n);

#endif
