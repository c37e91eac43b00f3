/* Command-line options for the headless commands.
 *
 * Each command declares its options as a const table; cli_parse matches
 * "--name value", "--name=value" and flags, collects positional arguments,
 * and reports an unknown option or a missing value in one line. The typed
 * getters print a one-line error naming the option and return 2 (the exit
 * status for bad usage) when a value does not parse. */
#ifndef PL_CLI_ARGS_H
#define PL_CLI_ARGS_H

#include <stdio.h>

#include "app/settings.h"
#include "core/corpus.h"

typedef struct {
    const char *name; /* long name, without the dashes */
    const char *arg;  /* metavariable, or NULL for a flag */
    const char *help; /* a row made from the registry points at its row's help (its default is shown) */
} CliOpt;

#define CLI_MAX_OPTS 48
#define CLI_MAX_POS 1024 /* padlab experiment --merge takes a part file a shard */

typedef struct {
    const char *cmd;               /* for messages: "padlab stats" */
    const CliOpt *opts;            /* terminated by a {NULL} row */
    const char *val[CLI_MAX_OPTS]; /* given value; "" for a flag; NULL if absent */
    const char *pos[CLI_MAX_POS];
    int npos;
    int help; /* --help or -h was given */
} CliArgs;

/* Parses argv[0..argc) (the arguments after the command name). Returns 0, or
 * 2 after printing a one-line error to stderr. */
int cli_parse(CliArgs *a, const char *cmd, const CliOpt *opts, int max_pos, int argc, char **argv);

/* Prints the option table (for --help). */
void cli_print_opts(FILE *f, const CliOpt *opts);

/* The raw value of an option, or def when absent. */
const char *cli_str(const CliArgs *a, const char *name, const char *def);
int cli_flag(const CliArgs *a, const char *name);

/* Typed getters: 0 on success (or absence: *out = def), 2 after an error. */
int cli_int(const CliArgs *a, const char *name, int def, int lo, int hi, int *out);
int cli_int_list(const CliArgs *a, const char *name, const char *def, int lo, int hi, int *out, int max, int *n);
/* --maxlen N,N,... where none stands for c's longest review (nothing cut;
 * PL_MAXLEN_NONE while c is NULL, to check the flag before the corpus
 * loads); integers from lo to hi. */
int cli_maxlen_list(const CliArgs *a, const char *def, int lo, int hi, const PlCorpus *c, int *out, int max, int *n);
int cli_choice(const CliArgs *a, const char *name, const char *def, const char *const *choices, int *out);

/* Fills out with one option per registry setting in mask (a bit per
 * PlSettingId), then the rows of extra, then the end row. Returns the count. */
int cli_settings_opts(unsigned mask, const CliOpt *extra, CliOpt *out, int cap);
/* Reads the flags of the settings in mask into s (each parsed by its row);
 * *given (may be NULL) gets a bit per flag present. Returns 0, or 2 after a
 * one-line error naming the flag and what it takes. */
int cli_read_settings(const CliArgs *a, unsigned mask, PlLabSettings *s, unsigned *given);

/* Prints "padlab CMD: message" to stderr and returns 2. */
int cli_usage_error(const CliArgs *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
