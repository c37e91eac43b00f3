/* padlab lesson NAME --class: the lesson on the projector, the class voting. */
#ifndef PL_CLI_CLASS_PRESENT_H
#define PL_CLI_CLASS_PRESENT_H

#include "app/settings.h"

typedef struct {
    const char *lesson;
    const PlLabSettings *settings;
    const char *listen;    /* the address to listen on */
    int port;              /* 0: one the system picks */
    const char *report;    /* where the class report goes, or NULL */
    int exam;              /* no reveal until the end, then every question's tally */
    const char *presenter; /* the teacher's own terminal for the presenter view, or NULL */
    int fresh;             /* --new: a new class, not the one saved of this lesson */
    int seats;             /* students one address may seat; 0: no cap */
} ClassPresentArgs;

/* The options of a class session, for padlab lesson and padlab gui. */
#define CLI_OPTS_CLASS                                                                                                 \
    {"listen", "ADDR", "with --class: the address to serve on (default 127.0.0.1; the laptop's own for a classroom)"}, \
        {"port", "N", "with --class: the port (default 8765; 0 picks a free one)"},                                    \
        {"report", "FILE", "with --class: the class report at the end (.md, .csv, .json; all three without)"},         \
        {"seats-per-address", "N",                                                                                     \
         "with --class: students one address may seat (default 64; 0: no cap, for a class on one machine)"},           \
    {                                                                                                                  \
        "new", NULL, "with --class: a new class (the same command resumes the class saved of the lesson)"              \
    }
#define CLI_OPT_EXAM \
    { "exam", NULL, "with --class: nothing revealed until the end, then every question against the lab's number" }

/* Runs the class session to the lesson's end or q. Returns the exit status. */
int cli_class_present(const ClassPresentArgs *o);

#endif
