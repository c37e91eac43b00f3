/* The lab's commands: what a key does that is not a setting, and the one
 * key table the terminal lab and the window both read, for their keys and
 * for their help. Below the lab: the lab runs them (pl_lab_command). */
#ifndef PL_APP_COMMANDS_H
#define PL_APP_COMMANDS_H

/* What a key does that is not a setting. */
typedef enum {
    PL_CMD_RUN,       /* retrain now */
    PL_CMD_PAUSE,     /* pause or resume the training */
    PL_CMD_GRID,      /* the padding x mask grid of the selected model over the seeds */
    PL_CMD_SORT_RUNS, /* the runs table: in order, by median accuracy, by time */
    PL_CMD_UNDO,      /* back to the settings before the last change */
    PL_CMD_RESET,     /* every setting but the corpus to its default */
    PL_CMD_COUNT
} PlCommand;

/* A key that runs a command rather than moving a setting: the one table the
 * terminal lab and the window both read (their help lists it). */
typedef struct {
    int key;
    const char *keys; /* as the help shows it */
    PlCommand cmd;
    const char *help;
} PlCommandKey;

/* Terminated by a row whose keys is NULL. */
extern const PlCommandKey pl_command_keys[];

/* The command a key runs, or -1. */
int pl_command_of_key(int key);

#endif
