/* A part file: what one shard of an experiment trained (padlab experiment
 * --shard I/N), with all that --merge needs to print the whole experiment's
 * tables as one machine would have printed them, without the corpus.
 *
 * Layout, one JSON object:
 *   "padlab_part": 1                     the format
 *   "padlab": "0.1.0"                    the version that planned and trained it
 *   "experiment", "epochs", "maxlen", "seeds": [...]   the plan's settings
 *   "corpus": its source, "corpus_digest": 16 hex digits (pl_corpus_digest)
 *   "chance": {"n_val", "label", "count", "share", "noise"} of that corpus
 *   "arithmetic": "avx2, OpenBLAS Haswell"   the kernels that computed the runs
 *   "shard": I, "shards": N
 *   "runs": [{"run": k, "seed", "dilution", "epochs_done", "train_loss": [...],
 *             "train_acc", "val_loss", "val_acc", "best_val_acc", "best_epoch",
 *             "best_val_loss", "bucket_hi", "bucket_n", "bucket_acc", "n_train",
 *             "n_val", "steps", "real_tokens", "seconds", "epoch_seconds"}, ...]
 * k is the run's place in the plan, and run k belongs to shard k mod N. Every
 * float and double is a string in C's %a form ("0x1.9p-1", "inf", "-nan"),
 * read back bit for bit; counts are JSON integers. */
#ifndef PL_APP_REPORT_PART_H
#define PL_APP_REPORT_PART_H

#include <stdint.h>
#include <stdio.h>

#include "core/chance.h"
#include "core/experiment.h"

#define PL_PART_FORMAT 1
#define PL_PART_MAX_SEEDS 64
#define PL_PART_MAX_SHARDS 1024

typedef struct {
    char padlab[32];
    char experiment[32];
    int epochs, maxlen;
    PlSeed seeds[PL_PART_MAX_SEEDS];
    int n_seeds;
    char corpus[512];
    uint64_t corpus_digest;
    PlChance chance;
    char arithmetic[96];
    int shard, shards;
    int n;       /* runs held */
    int *index;  /* (n) each run's place in the plan */
    PlRun *runs; /* (n) cfg.seed, dilution and res filled; the rest zero */
} PlPart;

/* Writes p as a part file to f. Returns 0, or nonzero when f failed. */
int pl_part_write(FILE *f, const PlPart *p);

/* Reads a part file from text[0..n) into p (freed with pl_part_done, also
 * after a failure). PL_EINPUT with one line naming the field and what it
 * should hold, or PL_ENOMEM. */
PlStatus pl_part_read(const char *text, size_t n, PlPart *p, PlErr *err);

/* Reads the part file at path; a message names path. */
PlStatus pl_part_load(const char *path, PlPart *p, PlErr *err);

/* Frees what p owns; p may be zeroed or half read. */
void pl_part_done(PlPart *p);

/* The whole experiment from its parts: they must be of one padlab version
 * (this one's, `version`), one experiment with one set of settings, one
 * corpus, one arithmetic and one N, and cover every shard once. Fills *whole
 * with the settings (its runs left empty) and *runs (*n of them, freed by the
 * caller with free()) in plan order. names[i] names parts[i] in messages.
 * PL_EINPUT with one line saying what is wrong, or PL_ENOMEM. */
PlStatus pl_part_merge(const PlPart *parts, const char *const *names, int np, const char *version, PlPart *whole,
                       PlRun **runs, int *n, PlErr *err);

/* The options of the plan p's settings name (seeds borrowed from p). */
PlExperimentOpts pl_part_opts(const PlPart *p);

#endif
