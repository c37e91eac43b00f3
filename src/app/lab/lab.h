/* The lab: the one state every front end shows. It holds the settings (rows
 * of the registry in settings.h), moves them on actions, keeps the results
 * every view draws, and trains models in the background.
 *
 * Results are computed on a worker thread after a change, never on the
 * caller's thread: a view asks for its result, gets the last one (marked
 * stale while a newer one computes) and draws it. Each result is cached by
 * the settings it depends on, so a change recomputes only what it touches.
 *
 * Settings are hot (the example, the view, the mask convention shown: they
 * change only what is drawn) or cold (they change what a model learns). A
 * cold change retrains the model over several seeds at once: a result of
 * training is a spread over seeds, never one run. */
#ifndef PL_APP_LAB_H
#define PL_APP_LAB_H

#include <stdio.h>

#include "core/cost.h"
#include "core/chance.h"
#include "core/experiment.h"
#include "core/probe.h"
#include "core/stats.h"
#include "core/train.h"
#include "app/commands.h"
#include "app/settings.h"
#include "ledger.h"
#include "worker.h"

/* What a change did. */
enum { PL_LAB_HOT = 1, PL_LAB_COLD = 2 };

/* ---- results ---- */

typedef enum {
    PL_R_BATCH,
    PL_R_COST,
    PL_R_ATTENTION,
    PL_R_RNN,
    PL_R_POOLING,
    PL_R_LOSS,
    PL_R_LAYERS,
    PL_R_GENERATE,
    PL_R_MASKS,
    PL_R_IDENTITY,
    PL_R_KVCACHE,
    PL_R_BLOCKS,
    PL_R_PACKING,
    PL_R_COUNT
} PlResultKind;

/* How much of the batch a kind of result looks at: the header of its
 * printout names that much. */
typedef enum {
    PL_LOOK_CORPUS,  /* the whole corpus (cost) */
    PL_LOOK_BATCH,   /* the whole batch (batch; packing, which takes its documents from it) */
    PL_LOOK_EXAMPLE, /* the example alone at the batch's width (rnn, pooling) */
    PL_LOOK_FOCUS    /* the example and its batch-mates (the other close-ups) */
} PlLook;

PlLook pl_result_look(PlResultKind k);
const char *pl_result_name(PlResultKind k);

/* Where a result came from: what the header of a view says. */
typedef struct {
    PlLabSettings settings;   /* what it was computed with */
    int batch_index, batches; /* the batch of the plan that holds the example */
    int batch_rows, width;    /* its rows and its width (packed: tokens in the row) */
    int packed;
    int rows[PL_PROBE_FOCUS_ROWS]; /* the close-up rows (corpus rows), the example first */
    int nrows, focus_width;
    int weights_run; /* 0: fresh weights drawn from settings.seed; N: run N's model */
    int weights_seed;
    int weights_arch; /* PlArch of run N's model */
    /* The lab's trained model when this result does not read it (it lacks
     * what the result needs, pl_result_lacks): why the weights are fresh.
     * unread_run 0: no such model. */
    int unread_run, unread_seed, unread_arch;
    PlResultKind kind;
    int longest; /* the corpus's longest review: what settings.maxlen none stood for */
    double seconds; /* how long it took to compute */
} PlResultInfo;

typedef struct {
    const PlResultInfo *info; /* NULL until a first result exists */
    int stale;                /* the settings moved since: a newer result is on its way */
    const char *error;        /* the last computation failed: why; NULL otherwise */
} PlResultStatus;

/* Figures of the cost view, all for the whole corpus. */
#define PL_LAB_SWEEP 32
#define PL_LAB_LEN_BINS 40
#define PL_LAB_KEEP_STEPS 20
typedef struct {
    PlCost cost; /* the selected batching at the selected maxlen */
    double padding_share, kept_share, truncated_share;
    int64_t tokens_cut; /* tokens thrown away by truncation */
    int sweep_maxlen[PL_LAB_SWEEP];
    double sweep_padding[PL_LAB_SWEEP], sweep_kept[PL_LAB_SWEEP];
    double sweep_cut[PL_LAB_SWEEP];           /* the share of tokens cut: 1 - kept */
    int sweep_at;                             /* the sweep point nearest the current maxlen */
    PlStrategyRow strategies[PL_BATCH_COUNT]; /* what `padlab buckets` prints for these settings */
    int nstrategies;
    PlLengthSummary lengths;            /* of the corpus's reviews (start token included) */
    int keep_maxlen[PL_LAB_KEEP_STEPS]; /* the smallest maxlen that keeps 5%, 10%, ... 100% of the tokens */
    /* The reviews' lengths (start token included): PL_LAB_LEN_BINS bins of
     * len_bin_width tokens from 0, the last also holding every longer review
     * (the bins reach past maxlen and the 99th percentile), and the
     * percentiles .lengths lacks. */
    int len_bin_width;
    int len_hist[PL_LAB_LEN_BINS];
    double len_p90, len_p99;
    int len_over_maxlen; /* reviews longer than maxlen: truncation cuts them */
    int len_first_bucket; /* reviews shorter than maxlen / 4: the buckets' first, as pl_plan_quarter_bounds splits them */
    /* Where the sweep's padding share meets the share of tokens cut
     * (1 - kept): the maxlen at which the pads paid for equal the words
     * thrown away, interpolated between sweep points; -1 when they do not
     * meet within the sweep. */
    double cross_maxlen, cross_share;
} PlLabCost;

typedef struct PlLab PlLab;

/* The result of kind k, or NULL while none exists (or the last failed: st
 * says why). Asks the worker for a fresh one when the settings moved.
 * Borrowed: valid until the next pl_lab_tick, change or command. st may be
 * NULL. Never computes on the caller's thread. */
const void *pl_lab_result(PlLab *lab, PlResultKind k, PlResultStatus *st);
static inline const PlProbeBatch *pl_lab_batch(PlLab *l, PlResultStatus *s) { return pl_lab_result(l, PL_R_BATCH, s); }
static inline const PlLabCost *pl_lab_cost(PlLab *l, PlResultStatus *s) { return pl_lab_result(l, PL_R_COST, s); }
static inline const PlProbeAttention *pl_lab_attention(PlLab *l, PlResultStatus *s) {
    return pl_lab_result(l, PL_R_ATTENTION, s);
}
static inline const PlProbeRnn *pl_lab_rnn(PlLab *l, PlResultStatus *s) { return pl_lab_result(l, PL_R_RNN, s); }
static inline const PlProbePooling *pl_lab_pooling(PlLab *l, PlResultStatus *s) {
    return pl_lab_result(l, PL_R_POOLING, s);
}
static inline const PlProbeLoss *pl_lab_loss(PlLab *l, PlResultStatus *s) { return pl_lab_result(l, PL_R_LOSS, s); }
static inline const PlProbeLayers *pl_lab_layers(PlLab *l, PlResultStatus *s) {
    return pl_lab_result(l, PL_R_LAYERS, s);
}
static inline const PlProbeGenerate *pl_lab_generate(PlLab *l, PlResultStatus *s) {
    return pl_lab_result(l, PL_R_GENERATE, s);
}
static inline const PlProbeMasks *pl_lab_masks(PlLab *l, PlResultStatus *s) { return pl_lab_result(l, PL_R_MASKS, s); }
static inline const PlProbeIdentity *pl_lab_identity(PlLab *l, PlResultStatus *s) {
    return pl_lab_result(l, PL_R_IDENTITY, s);
}
static inline const PlProbeBlocks *pl_lab_blocks(PlLab *l, PlResultStatus *s) {
    return pl_lab_result(l, PL_R_BLOCKS, s);
}

static inline const PlProbePacking *pl_lab_packing(PlLab *l, PlResultStatus *s) {
    return pl_lab_result(l, PL_R_PACKING, s);
}

/* ---- what each view shows ---- */

/* The parts of a view drawn from the runs rather than from a result (the
 * train view's). A part is drawn, and exported, only when it has something
 * to show: pl_lab_view_draws is the one place that decides. */
typedef enum {
    PL_VIEW_PART_RUNS,   /* the runs table (median and min-max per setting) and each run's curves per epoch */
    PL_VIEW_PART_CHANCE, /* the chance line every accuracy is read against */
    PL_VIEW_PART_GRID,   /* the padding x mask grid, once one was started: running, stopped or done */
    PL_VIEW_PART_COUNT
} PlViewPart;

/* A part's name ("runs", "chance", "grid"), as messages say it. */
const char *pl_view_part_name(PlViewPart p);

/* The results a view draws, the first its main figure, and the parts it
 * draws from the runs (a bit per PlViewPart). The one list the exporter, the
 * terminal and the window read: a front end asks for a view's result
 * through pl_lab_view_result and for a part through pl_lab_view_draws, and
 * the view's export writes every result and part listed here. A result in
 * packed_only is drawn only while the batching packs (the packing probe
 * beside a packed batch): the settings decide the row. */
#define PL_VIEW_MAX_RESULTS 2
typedef struct {
    PlResultKind results[PL_VIEW_MAX_RESULTS];
    int nresults;
    unsigned parts;
    unsigned packed_only; /* a bit per PlResultKind */
} PlViewShows;

/* View v's row (v in range): every result it can draw. */
const PlViewShows *pl_view_shows(PlView v);
/* The results it draws under settings s as a bit per PlResultKind (for
 * pl_lab_wait and pl_lab_demand); s NULL: every one it can draw. */
unsigned pl_view_results(PlView v, const PlLabSettings *s);
/* View v's result of kind k, as pl_lab_result; NULL, with st->error saying
 * so, when v does not show k under the lab's settings: no view draws a
 * result its export leaves out. */
const void *pl_lab_view_result(PlLab *lab, PlView v, PlResultKind k, PlResultStatus *st);
/* The kinds asked for (pl_lab_result) since the last call, a bit per
 * PlResultKind: what a frame read, for the tests that hold a view to its row. */
unsigned pl_lab_asked(PlLab *lab);
/* Whether view v draws part p now: its row names p and the part has
 * something to show (the grid: once one was started). The terminal, the
 * window and the export all ask here before they draw or write a part, and
 * each yes is noted for pl_lab_drew. Can't fail. */
int pl_lab_view_draws(PlLab *lab, PlView v, PlViewPart p);
/* The parts pl_lab_view_draws said yes to since the last call, a bit per
 * PlViewPart: what a frame or an export drew, for the tests. */
unsigned pl_lab_drew(PlLab *lab);

/* Asks the worker for the kinds in `kinds` (a bit per PlResultKind) without
 * waiting: what a lesson reads is computed even when no view shows it. */
void pl_lab_demand(PlLab *lab, unsigned kinds);

/* Asks for the kinds in `kinds` (a bit per PlResultKind) and waits until
 * each is current or failed, up to timeout seconds. Returns 0, or -1 on
 * timeout. For tests, lessons and the commands: front ends never wait. */
int pl_lab_wait(PlLab *lab, unsigned kinds, double timeout);

/* The probe options the settings s stand for: the one translation from the
 * registry to the core, which the lab and the probe commands share. */
PlProbeOpts pl_lab_probe_opts(const PlLabSettings *s);

/* ---- one result, computed right here ---- */

/* The knobs of the probes that the lab leaves at their defaults. */
typedef struct {
    int heads, dhead;  /* attention: 2 heads of 16 */
    int steps;         /* kvcache: tokens decoded after each prompt (8) */
    int cache_len;     /* kvcache: a static cache's slots per row (0: maxlen + steps) */
    int block, window; /* blocks: tiles of 128 (FlexAttention's default), a sliding window of 64 */
    const int *rows;   /* the batch's rows, instead of the plan's batch (NULL) */
    int nrows;
} PlResultParams;

PlResultParams pl_result_params_default(void);

/* Computes a result of kind k for settings s on the caller's thread: what
 * the lab's worker runs, and what the commands print, so that the two can
 * never disagree. lens are the corpus's lengths; weights may be NULL (fresh
 * weights from s->seed) and is used only by the kinds that read a trained
 * model of its kind (pl_result_reads). *out gets a new result to free with
 * pl_result_free; info says where it came from. */
PlStatus pl_result_compute(const PlCorpus *c, const int *lens, PlResultKind k, const PlLabSettings *s,
                           const PlResultParams *prm, const PlModel *weights, void **out, PlResultInfo *info,
                           PlErr *err);
void pl_result_free(PlResultKind k, void *r);
/* The settings a result depends on, a bit per PlSettingId. */
unsigned pl_result_deps(PlResultKind k);
/* Whether a result of kind k reads the trained model m (NULL: no). */
int pl_result_reads(PlResultKind k, const PlLabSettings *s, const PlModel *m);
/* What a trained model lacks when a result of kind k does not read it ("has
 * no attention layer"), and what its fresh weights are ("attention
 * weights"); NULL for the kinds that never read a model. */
const char *pl_result_lacks(PlResultKind k);
const char *pl_result_fresh(PlResultKind k);

/* Writes view v's full data (not the screen) as text and as JSON into dir,
 * as padlab-VIEW-N.txt and .json with the first N that names no file yet,
 * so nothing is overwritten. written gets the .txt path. */
PlStatus pl_lab_export(PlLab *lab, PlView v, const char *dir, char *written, int cap, PlErr *err);

/* Writes view v's full data as text (json = 0) or JSON to f: what
 * pl_lab_export puts in each of its two files. PL_EINPUT when the view has
 * no result yet. */
PlStatus pl_lab_write_view(PlLab *lab, PlView v, int json, FILE *f, PlErr *err);

/* ---- training: several seeds at once ---- */

/* A run counts as memorised when its training loss falls under this while
 * its validation accuracy stays at (or under) the corpus's chance: it
 * learned the training reviews by heart and nothing that carries over. */
#define PL_MEMORISE_LOSS 0.05f
#define PL_LAB_FEW_VAL 20 /* fewer validation reviews than this: the status says how few */

/* One finished run. */
typedef struct {
    int id;                 /* 1, 2, ...: the order the runs finished in */
    PlLabSettings settings; /* seed: this run's seed */
    float val_acc[PL_MAX_EPOCHS], train_loss[PL_MAX_EPOCHS];
    int epochs;
    float best_val_acc;
    double seconds;
    int grid;       /* trained by the padding x mask grid */
    PlChance chance; /* of the corpus it trained on (its settings name it): what it is read against */
    uint64_t batches; /* the digest of the batches it saw (PlTrainResult's); 0: not known */
} PlLabRun;

/* "chance 0.512 (always positive)": how every front end names the chance
 * line. Returns buf. Can't fail. */
const char *pl_lab_chance_text(const PlLab *lab, char *buf, int cap);

/* Whether run r memorised, judged against the chance of the corpus it
 * trained on (ch, when the run does not know it: a run of an old session). */
int pl_lab_run_memorised(const PlLabRun *r, const PlChance *ch);

/* The curves of one setting over its seeds: each finished run's validation
 * accuracy and training loss per epoch (borrowed runs, valid until the next
 * tick), their median per epoch over the runs that reached it, and the same
 * median over the seeds of the retrain in progress when it trains that
 * setting (live: its curves are in PlLabTraining.job). */
#define PL_LAB_CURVE_RUNS 32
typedef struct {
    int nruns;
    const PlLabRun *runs[PL_LAB_CURVE_RUNS];
    int epochs; /* the most epochs a finished run has */
    float median_acc[PL_MAX_EPOCHS], median_loss[PL_MAX_EPOCHS];
    int live; /* the retrain in progress trains this setting */
    int live_epochs;
    float live_median_acc[PL_MAX_EPOCHS], live_median_loss[PL_MAX_EPOCHS];
} PlLabCurves;

#define PL_LAB_MAX_RUNS 256

/* The runs of one setting over its seeds: a row of the runs table. */
typedef struct {
    PlLabSettings settings; /* seed: the lowest seed among the runs */
    int n;                  /* runs (seeds) */
    int memorised;          /* of which memorised */
    int at_chance;          /* of which at or under chance (memorised ones too) */
    float median, min, max; /* of the best validation accuracy */
    float chance;           /* its corpus's chance share, what it is read against */
    PlChance ch;            /* the same, whole: its corpus's chance (every run of a group shares its corpus) */
    double seconds;         /* mean per run */
    int last_id;            /* the newest run's id */
} PlLabGroup;

/* The retraining the train view follows. */
typedef struct {
    int active, paused;
    PlLabSettings settings; /* what trains (seed: the first seed) */
    int n;                  /* seeds training: settings.seed, seed + 1, ... */
    PlJobView job;          /* each seed's progress and curves */
    double eta;             /* seconds left, without paused time */
    int trained;            /* a retrain has finished in this lab */
    char status[400];       /* its figures marked (ledger.h) */
    char failed[200];       /* why the last retrain trained nothing (refused, failed); "" otherwise */
} PlLabTraining;

/* The padding x mask grid: the selected model and settings, pre/post x mask
 * off/on, over the seeds. Its runs join the runs table. */
typedef struct {
    int active, done;
    int finished, total; /* runs */
    double eta;
    PlLabSettings base; /* its model and settings (seed: the first seed) */
    int seeds;
    PlLabGroup cells[4]; /* pre/off, pre/on, post/off, post/on, from the runs table */
    int ncells;
    /* pre+mask against post+mask on the same seed: the largest difference in
     * validation accuracy over the epochs, one per seed that has both. */
    float drift[PL_MAX_SEEDS];
    int drift_seed[PL_MAX_SEEDS];
    int ndrift;
    char status[200];
} PlLabGrid;

/* ---- the lab ---- */

/* Loads the corpus named in s and resolves an automatic example. NULL on
 * failure (err names the file and line). Starts no training. */
PlLab *pl_lab_new(const PlLabSettings *s, PlErr *err);
/* Stops the worker and the training, frees everything. NULL is harmless. */
void pl_lab_free(PlLab *lab);
/* Quitting: asks every training and the result worker to stop, and waits
 * for them at most patience seconds. Returns 0 when they stopped (the lab is
 * then freed), -1 when one is still inside a batch or a BLAS call: the lab is
 * left as it was, for the process's exit to reclaim (freeing it would wait
 * for that thread). Save the session before. NULL: 0. */
int pl_lab_close(PlLab *lab, double patience);

const PlLabSettings *pl_lab_settings(const PlLab *lab);
const PlCorpus *pl_lab_corpus(const PlLab *lab);
/* The corpus row settings s follow in the lab's corpus: their example, or
 * the automatic one at their maxlen when it is auto (as the lab resolves it
 * when s are applied); s->example as it is when s name another corpus, which
 * the lab has not loaded. Can't fail. */
int pl_lab_example_of(const PlLab *lab, const PlLabSettings *s);
/* The corpus's chance: its validation split's majority share, computed once
 * when the corpus loads; what every accuracy the lab shows is read against.
 * Borrowed, valid until the corpus changes. Can't fail. */
const PlChance *pl_lab_chance(const PlLab *lab);
/* The corpus's longest review (start token included): what maxlen none
 * stands for (pl_maxlen_of, pl_maxlen_text). Can't fail. */
int pl_lab_longest(const PlLab *lab);

/* Moves the lab to the settings *next: the previous settings go on the undo
 * stack, what changed is recomputed and a cold change retrains. A new corpus
 * is loaded first; when it cannot be, nothing changes and -1 is returned
 * with err. Returns PL_LAB_COLD, PL_LAB_HOT or 0 (nothing changed). */
int pl_lab_apply(PlLab *lab, const PlLabSettings *next, PlErr *err);
/* One step of one setting forward (dir > 0) or back (a key press). The
 * example wraps around the corpus. Returns as pl_lab_apply. */
int pl_lab_step(PlLab *lab, PlSettingId id, int dir);
/* Sets one setting from its text (a session line, a flag, a lesson's set
 * line). Returns as pl_lab_apply, or -1 with err naming what was expected. */
int pl_lab_set(PlLab *lab, PlSettingId id, const char *text, PlErr *err);
/* Runs a command; returns PL_LAB_HOT, PL_LAB_COLD or 0 (nothing to do). */
int pl_lab_command(PlLab *lab, PlCommand c);

/* The clock the lab's trainings read their time from: the runs' seconds,
 * the ETA, the paused time left out. clock(ctx) is called from the
 * training threads too; NULL (the default) is pl_app_clock. Trainings that
 * start after the call use it: tests move time themselves instead of
 * sleeping. */
void pl_lab_clock(PlLab *lab, PlRunsClockFn clock, void *ctx);

/* Whether a cold change retrains at once (on, as the lab starts) or waits
 * for PL_CMD_RUN (off: a drill that measures probes wants no training). */
void pl_lab_autotrain(PlLab *lab, int on);

/* The instructor's lock: pl_lab_step, undo and reset leave the settings in
 * bits as they are and say so in a notice; pl_lab_apply and pl_lab_set (what
 * a lesson uses) still change them. The view cannot be locked. */
void pl_lab_lock(PlLab *lab, unsigned bits);
unsigned pl_lab_locked(const PlLab *lab);

/* Polls the training, the grid and the worker: finished results replace the
 * ones the views draw. Returns 1 when something on screen may have changed. */
int pl_lab_tick(PlLab *lab);
/* Settings that changed since the last call, a bit per PlSettingId. */
unsigned pl_lab_take_changes(PlLab *lab);
/* A message for the status line (a failed autosave, a finished grid) that
 * appeared since the last call: copied into buf, 1; else 0. */
int pl_lab_take_notice(PlLab *lab, char *buf, int cap);

const PlLabTraining *pl_lab_training(const PlLab *lab);
/* The ledger of what the learner may see (ledger.h), which a lesson fills
 * and every surface draws the lab's figures through: the views, the status
 * line, the exports; NULL (or an empty one) hides nothing. Copied. */
void pl_lab_set_ledger(PlLab *lab, const PlLedger *l);
/* The ledger in force, or NULL when nothing is hidden. Borrowed, valid
 * until the next pl_lab_set_ledger. */
const PlLedger *pl_lab_ledger(const PlLab *lab);
/* The figures the page a lesson shows now names: its narration's and its
 * question's answer. A view with more lines than its pane holds draws the
 * part they name first (the loss view's chat lines when a step asks about
 * the chat batch). A lesson sets them with its ledger each frame
 * (pl_lesson_run_sync_ledger); clearing leaves none. Past PL_LAB_READING
 * names the rest are dropped: this orders lines, it hides nothing. */
void pl_lab_clear_reading(PlLab *lab);
void pl_lab_add_reading(PlLab *lab, const char *name);
/* Whether a figure the page names starts with prefix ("loss.chat_"). */
int pl_lab_reads(const PlLab *lab, const char *prefix);
/* The status line every front end draws: the retrain's or the grid's
 * progress while one runs, else what the last one came to. Returns buf. */
const char *pl_lab_status_text(const PlLab *lab, char *buf, int cap);
/* Cancels the retrain that runs (not the grid), saying why in its status. */
void pl_lab_retrain_cancel(PlLab *lab, const char *why);
/* A copy of the grid's state. */
PlLabGrid pl_lab_grid(PlLab *lab);
/* The runs in the order they finished. Borrowed, valid until the next tick. */
const PlLabRun *pl_lab_runs(const PlLab *lab, int *n);
/* The runs table: one row per setting, its seeds grouped, ordered by the
 * sort mode. Fills up to max rows; returns how many there are. */
int pl_lab_groups(const PlLab *lab, PlLabGroup *out, int max);
/* The curves of settings s (seed and seeds ignored) into *out; returns
 * nruns. Can't fail. */
int pl_lab_curves(const PlLab *lab, const PlLabSettings *s, PlLabCurves *out);
/* The sort mode of the runs table: 0 in order, 1 by median accuracy, 2 by time. */
int pl_lab_runs_sort(const PlLab *lab);
/* Two settings train the same thing, but for the seed. */
int pl_lab_same_setting(const PlLabSettings *a, const PlLabSettings *b);

/* The names a figure of a setting's runs carries (ledger.h), in one rule
 * for every surface (run_names.c): train.STAT for the lab's current
 * settings, grid.STAT(CELL) for a cell of the grid, and always the
 * setting's key (pl_lab_setting_key), and for another setting than the
 * lab's, the batches key of its runs (pl_lab_batches_key). A question of
 * training hides every train.* and grid.* figure, the runs of its own
 * setting by their key and the runs that saw the same batches by theirs;
 * the runs of another setting are another fact and stay. Read once a frame
 * (pl_lab_run_names), then per figure; STAT: median, min, max, seeds,
 * memorised, at_chance, over_chance. */
typedef struct {
    PlLabSettings now, cell[4];
    int ncells;
    const PlLab *lab; /* its runs, for their batches key */
} PlRunNames;
PlRunNames pl_lab_run_names(PlLab *lab);
const char *pl_run_names(const PlRunNames *w, const PlLabSettings *s, const char *stat, char *buf, size_t cap);
/* "runs.XXXXXXXX": the same for two settings exactly when they train the
 * same thing (pl_lab_same_setting). Returns buf. */
const char *pl_lab_setting_key(const PlLabSettings *s, char *buf, size_t cap);
/* "batches.XXXXXXXXXXXXXXXX": the same for two settings whose runs see the
 * same batches, seed for seed, under the same settings but the batching
 * (static and dynamic padding where every batch holds a row cut to maxlen):
 * they are the same runs, to the bit, and a question of one hides the
 * other's. Worked out from the digest of the batches (pl_train_batches) of
 * seeds s->seed .. s->seed + s->seeds - 1 on the lab's corpus. Returns buf,
 * or NULL when s is of another corpus or its batches cannot be planned. */
const char *pl_lab_batches_key(PlLab *lab, const PlLabSettings *s, char *buf, size_t cap);
/* The group that holds the runs of settings s (seed and seeds ignored);
 * 0 when there is none. */
int pl_lab_group_of(const PlLab *lab, const PlLabSettings *s, PlLabGroup *out);
/* For a row of the runs table that trained on another corpus than the
 * lab's now: " on CORPUS (its chance 0.500)", in the one phrasing every
 * front end writes beside the row; "" for the lab's own corpus. Returns buf. */
const char *pl_lab_group_corpus(const PlLab *lab, const PlLabGroup *g, char *buf, int cap);
/* Where a setting's median stands against the corpus's chance. */
PlChanceVerdict pl_lab_group_verdict(const PlLab *lab, const PlLabGroup *g);

/* ---- sessions: the settings, the runs and the grid, in a readable file ---- */

typedef struct {
    PlLabSettings settings;
    PlLabRun *runs; /* (nruns) */
    int nruns;
    int sort;
    int has_grid; /* a grid ran: its base settings and seeds */
    PlLabSettings grid_base;
    int grid_seeds;
} PlSession;

/* Reads a session file. Returns a new session, or NULL with err naming the
 * line at fault. */
PlSession *pl_session_read(const char *path, PlErr *err);
void pl_session_free(PlSession *s);
/* Writes a session read by pl_session_read back, as the lab would write it
 * (atomically). Returns PL_OK, or PL_EIO / PL_ENOMEM with a message. */
PlStatus pl_session_save(const PlSession *s, const char *path, PlErr *err);
/* How a front end opens --session FILE: what to restore, the settings to
 * start with, and where the lab saves. */
typedef struct {
    PlSession *session;     /* the runs, sort and grid to restore (free with pl_session_open_done); NULL: none */
    PlLabSettings settings; /* the session's settings with the flags given over them; the flags alone without one */
    /* Where the lab saves (autosave and quit): the file itself, or, when the
     * file exists but cannot be read, FILE.1, FILE.2 ... the first free name
     * beside it, so a damaged file is never written over; "" to save nowhere. */
    char save[4096];
    char error[512];   /* why the file could not be read (FILE:LINE: ...); "" when it was, or is new */
    char problem[300]; /* that, and where the session goes instead: the status line's words; "" when all is well */
} PlSessionOpen;

/* Reads path (NULL: no session) for a lab started with the settings flags,
 * given a bit per setting given on the command line (those win over the
 * session's). A file that does not exist is a new session, saved there.
 * The one decision of the terminal and the window alike. Can't fail: a
 * problem is described in out and the flags are used. */
void pl_session_open(PlSessionOpen *out, const char *path, const PlLabSettings *flags, unsigned given);
void pl_session_open_done(PlSessionOpen *o);

/* Puts a session's runs, sort mode and grid into the lab (its settings are
 * the ones the lab was made with): nothing retrains. */
void pl_lab_restore(PlLab *lab, const PlSession *s);
/* Writes the lab's session atomically (temp file, fsync, rename). */
PlStatus pl_lab_save_session(const PlLab *lab, const char *path, PlErr *err);
/* Saves to path after every finished retrain and grid (NULL: never); a
 * failure is a notice at once. */
void pl_lab_autosave(PlLab *lab, const char *path);

#endif
