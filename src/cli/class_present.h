/* padlab lesson NAME --class: the lesson on the projector, the class voting. */
#ifndef PL_CLI_CLASS_PRESENT_H
#define PL_CLI_CLASS_PRESENT_H

#include "app/settings.h"

typedef struct {
    const char *lesson;
    const PlLabSettings *settings;
    const char *listen; /* the address to listen on */
    int port;           /* 0: one the system picks */
    const char *report; /* where the class report goes, or NULL */
    int exam;           /* no reveal until the end, then every question's tally */
    const char *presenter; /* the teacher's own terminal for the presenter view, or NULL */
} ClassPresentArgs;

/* Runs the class session to the lesson's end or q. Returns the exit status. */
int cli_class_present(const ClassPresentArgs *o);

#endif
