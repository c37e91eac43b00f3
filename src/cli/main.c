/* padlab: the entry point. With no command it opens the lab; with a command
 * it runs that headless command and prints its numbers. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/dirs.h"
#include "cli.h"
#include "core/stats.h"
#include "probe_cli.h"

static const CliCommand *const commands[] = {
    &cli_cmd_lab,        &cli_cmd_gui,   &cli_cmd_export, &cli_cmd_pad,    &cli_cmd_stats, &cli_cmd_buckets,
    &cli_cmd_experiment, &cli_cmd_bench, &cli_cmd_report, &cli_cmd_lesson, &cli_cmd_drill,
    &cli_cmd_kata,
    &cli_cmd_join,
};
enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

/* The kinds, from the table: "batch, attention, ... or identity". */
static void print_probe_kinds(FILE *f) {
    for (int i = 0; i < cli_nprobes; i++)
        fprintf(f, "%s%s", i == 0 ? "" : i == cli_nprobes - 1 ? " or " : ", ", cli_probes[i].name);
}

static void print_probe_help(void) {
    printf("usage: padlab probe KIND [OPTIONS]\n\nKIND is one of:\n");
    for (int i = 0; i < cli_nprobes; i++) printf("  %-10s %s\n", cli_probes[i].name, cli_probes[i].summary);
    printf("\n  padlab probe KIND --help   options of one probe\n");
}

static int run_probe(int argc, char **argv) {
    if (argc < 1) {
        fprintf(stderr, "padlab probe: expected a probe kind: ");
        print_probe_kinds(stderr);
        fprintf(stderr, " (usage: padlab probe KIND [OPTIONS])\n");
        return 2;
    }
    if (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0) {
        print_probe_help();
        return 0;
    }
    const CliProbe *p = cli_probe_find(argv[0]);
    if (!p) {
        fprintf(stderr, "padlab probe: unknown probe '%s' (see padlab probe --help)\n", argv[0]);
        return 2;
    }
    return cli_probe_main(p, argc - 1, argv + 1);
}

static const CliCommand *find_command(const char *name) {
    for (int i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i]->name, name) == 0) return commands[i];
    return NULL;
}

static void print_main_help(void) {
    printf("padlab %s - an interactive simulator for sequence padding and masking\n\n", PACKAGE_VERSION);
    printf("usage: padlab [COMMAND] [OPTIONS]\n\n");
    printf("With no command, padlab opens the lab in the terminal (without a terminal it\n"
           "prints the report instead).\n\n");
    printf("commands:\n");
    for (int i = 0; i < NCOMMANDS; i++) printf("  %-10s %s\n", commands[i]->name, commands[i]->summary);
    printf("  %-10s the teaching probes: ", "probe");
    print_probe_kinds(stdout);
    putchar('\n');
    printf("\n  padlab COMMAND --help   options of one command\n"
           "  padlab --version        the version\n\n"
           "See padlab(1) and README.md for the numbers each command prints.\n");
}

static void print_command_help(const CliCommand *c) {
    CliOpt opts[CLI_MAX_OPTS];
    cli_settings_opts(c->settings, c->opts, opts, CLI_MAX_OPTS);
    printf("usage: padlab %s %s\n\n%s\n\noptions:\n", c->name, c->usage, c->details);
    cli_print_opts(stdout, opts);
}

static int run_command(const CliCommand *c, int argc, char **argv) {
    char name[64];
    snprintf(name, sizeof name, "padlab %s", c->name);
    CliOpt opts[CLI_MAX_OPTS];
    cli_settings_opts(c->settings, c->opts, opts, CLI_MAX_OPTS);
    CliArgs a;
    if (cli_parse(&a, name, opts, c->max_pos, argc, argv)) return 2;
    if (a.help) {
        print_command_help(c);
        return 0;
    }
    return c->run(&a);
}

/* A headless command's stdout, held in memory until the command has ended
 * (when stdout is not a terminal), so that a command failing part-way prints
 * no partial table, and stdout's write errors are seen in one place. glibc
 * documents stdout as an ordinary variable that may be assigned. */
typedef struct {
    FILE *real, *mem;
    char *buf;
    size_t len;
} HeldOutput;

static void hold_stdout(HeldOutput *h, int interactive) {
    memset(h, 0, sizeof *h);
    h->real = stdout;
#ifdef __GLIBC__
    if (!interactive && !isatty(STDOUT_FILENO) && (h->mem = open_memstream(&h->buf, &h->len))) stdout = h->mem;
#else
    (void)interactive;
#endif
}

/* Writes what was held when the command succeeded (rc 0), drops it when it
 * failed, and turns a write error on stdout into one line and status 1. */
static int release_stdout(HeldOutput *h, int rc) {
    if (h->mem) {
        stdout = h->real;
        /* glibc's fclose ends with a realloc of the buffer to its length; when
         * that fails it still returns 0, but leaves buf NULL. */
        if ((fclose(h->mem) != 0 || !h->buf) && rc == 0) {
            fprintf(stderr, "padlab: out of memory while holding the output\n");
            rc = 1;
        }
        if (rc == 0 && h->buf && h->len) fwrite(h->buf, 1, h->len, stdout);
        free(h->buf);
    }
    errno = 0;
    if ((fflush(stdout) != 0 || ferror(stdout)) && rc == 0) {
        fprintf(stderr, "padlab: cannot write to standard output: %s\n", errno ? strerror(errno) : "write error");
        rc = 1;
    }
    return rc;
}

static int run_held(const CliCommand *c, int argc, char **argv) {
    HeldOutput h;
    hold_stdout(&h, c->interactive);
    return release_stdout(&h, run_command(c, argc, argv));
}

static int run_probe_held(int argc, char **argv) {
    HeldOutput h;
    hold_stdout(&h, 0);
    return release_stdout(&h, run_probe(argc, argv));
}

static int dispatch(int argc, char **argv) {
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        print_main_help();
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
        printf("padlab %s\n", PACKAGE_VERSION);
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "help") == 0) {
        const CliCommand *c = argc >= 3 ? find_command(argv[2]) : NULL;
        if (argc >= 3 && !c) {
            fprintf(stderr, "padlab: unknown command '%s' (see padlab --help)\n", argv[2]);
            return 2;
        }
        if (c) print_command_help(c);
        else print_main_help();
        return 0;
    }
    /* No command, or options first: the lab (the report without a terminal). */
    if (argc < 2 || argv[1][0] == '-') return run_held(&cli_cmd_lab, argc - 1, argv + 1);
    if (strcmp(argv[1], "probe") == 0) return run_probe_held(argc - 2, argv + 2);
    const CliCommand *c = find_command(argv[1]);
    if (!c) {
        fprintf(stderr, "padlab: unknown command '%s' (see padlab --help)\n", argv[1]);
        return 2;
    }
    return run_held(c, argc - 2, argv + 2);
}

int main(int argc, char **argv) {
    pl_dirs_setup_core(); /* the corpus cache and the kernel level, from the environment: the core reads none */
    int rc = dispatch(argc, argv);
    /* --help and --version print straight to stdout: their write errors too. */
    errno = 0;
    if ((fflush(stdout) != 0 || ferror(stdout)) && rc == 0) {
        fprintf(stderr, "padlab: cannot write to standard output: %s\n", errno ? strerror(errno) : "write error");
        rc = 1;
    }
    return rc;
}
