/* The headless commands: a const table of them, and what they share. */
#ifndef PL_CLI_H
#define PL_CLI_H

#include "app/report/out.h"
#include "args.h"
#include "core/corpus.h"
#include "core/cost.h"

typedef struct CliCommand {
    const char *name;
    const char *summary; /* one line for `padlab --help` */
    const char *usage;   /* what follows the command name */
    const char *details; /* the paragraph under the usage in `--help` */
    const CliOpt *opts;  /* its own options */
    unsigned settings;   /* registry settings it takes as --NAME flags too (bits of PlSettingId) */
    int max_pos;         /* positional arguments accepted */
    int (*run)(const CliArgs *a);
    int interactive; /* talks to the user as it runs: its stdout is not held until it ends */
} CliCommand;

extern const CliCommand cli_cmd_pad, cli_cmd_stats, cli_cmd_buckets, cli_cmd_report, cli_cmd_experiment, cli_cmd_bench,
    cli_cmd_lab, cli_cmd_lesson, cli_cmd_gui, cli_cmd_export, cli_cmd_drill;
extern const CliCommand cli_cmd_kata;
extern const CliCommand cli_cmd_join;

/* A default in a help text, from the constant itself: "default " CLI_DEF_BATCH. */
#define PL_STR_(x) #x
#define PL_STR(x) PL_STR_(x)
#define CLI_DEF_MAXLEN PL_STR(PL_DEFAULT_MAXLEN)
#define CLI_DEF_BATCH PL_STR(PL_DEFAULT_BATCH)
#define CLI_DEF_EPOCHS PL_STR(PL_DEFAULT_EPOCHS)

/* What every corpus-reading command takes: the registry's --corpus (in its
 * .settings) and, as a row of its own table, --num-words. */
#define CLI_CORPUS PL_S_BIT(PL_S_CORPUS)
/* clang-format off */
#define CLI_OPT_CORPUS \
    {"num-words", "N", "keep word ids below N, the rest become <oov> (default " PL_STR(PL_DEFAULT_NUM_WORDS) ")"}
#define CLI_OPT_FORMAT {"format", "FMT", "table (default), csv or json"}
/* clang-format on */

/* Loads the corpus named by --corpus/--num-words. Returns 0, or the exit
 * status (2) after printing the loader's one-line error. */
int cli_load_corpus(const CliArgs *a, PlCorpus **out);

/* Prints "CMD: out of memory while WHAT" and returns the exit status, 1. */
int cli_no_memory(const CliArgs *a, const char *what);
/* Each of the options named (a NULL-terminated list) that is given a file
 * to write: 0 when none names a FIFO, a device, a socket or a folder; else 2
 * after one line naming the option, the path and what it is. Commands check
 * their outputs so before any work, and before any of them is written. */
int cli_outputs_regular(const CliArgs *a, const char *const *opts);

/* The settings of a lab: --state LINE first (app/state.h), then the flags
 * of the settings in mask over it, into s; *given gets a bit per setting
 * either named. Returns 0, or 2 after one line naming what was wrong. */
int cli_read_state(const CliArgs *a, unsigned mask, PlLabSettings *s, unsigned *given);
#define CLI_OPT_STATE {"state", "LINE", "open the lab a state line describes (padlab lab --print-state makes one)"}

/* Reads --format. Returns 0 or 2. */
int cli_format(const CliArgs *a, OutFormat *fmt);
/* printf to stdout for lines that hold text from teachers' files (titles,
 * cards, questions): every control byte but the newlines is written out as
 * pl_text_printable shows it, so a file cannot drive the terminal. */
void cli_print_shown(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same to stderr, for an error line that names a teacher's file's text. */
void cli_error_shown(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Copies the corpus's sequence lengths into a new array (NULL on no memory,
 * which the caller reports). */
int *cli_lengths(const PlCorpus *c);

/* Prints "  LABEL TEXT" with the lab's figures filled in (nothing for no
 * text). A figure that could not be computed shows as "...", and a line
 * after it says which and why (with the training's or the grid's status
 * for their figures): then it returns 1, else 0. For the printed answers, where "..." would
 * pass for a figure. */
typedef struct PlLab PlLab;
int cli_print_filled(PlLab *lab, const char *label, const char *text);

/* The shared parts of `stats` and the report. */
int cli_print_stats(const PlCorpus *c, const int *maxlens, int nmax, OutFormat fmt);
int cli_print_buckets(const PlCorpus *c, const PlCompareOpts *o, OutFormat fmt);

#endif
