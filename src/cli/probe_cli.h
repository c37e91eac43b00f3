/* padlab probe KIND: a const table with a row per probe, and one run body
 * for all of them (cmd_probe.c).
 *
 * A probe's settings flags are exactly the settings its result depends on
 * (pl_result_deps), read through the registry as the lab reads them; its
 * own options are the few knobs the lab leaves at their defaults. Every
 * probe computes its result with pl_result_compute, as the lab's worker
 * does, and prints it with the app layer's printers (app/report.h), as the
 * lab's export does: the command and the lab cannot disagree. */
#ifndef PL_CLI_PROBE_H
#define PL_CLI_PROBE_H

#include "app/lab/lab.h"
#include "cli.h"

typedef struct {
    const char *name;    /* padlab probe NAME */
    PlResultKind kind;   /* what it computes and prints */
    const char *summary; /* one line for `padlab probe --help` */
    const char *details; /* the paragraph of `padlab probe NAME --help` */
    const CliOpt *opts;  /* its own options beyond the shared ones ({NULL} ended), or NULL */
    /* Reads its own options into prm and checks the settings; returns 0,
     * or 2 after a one-line error. NULL: it has none. */
    int (*read_opts)(const CliArgs *a, const PlLabSettings *s, PlResultParams *prm);
    /* What --weights must hold, for the error when it does not (NULL: the
     * probe reads no model, and takes no --weights). */
    const char *needs;
} CliProbe;

extern const CliProbe cli_probes[];
extern const int cli_nprobes;

/* The probe named name, or NULL. */
const CliProbe *cli_probe_find(const char *name);
/* Parses argv (after `padlab probe NAME`), then prints the help or runs the
 * probe. Returns the exit status. */
int cli_probe_main(const CliProbe *p, int argc, char **argv);

#endif
