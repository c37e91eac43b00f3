/* The keys of the lab's commands: one table that the terminal lab and the
 * window both read, for their keys and for their help. */
#include "commands.h"

#include <stddef.h>

const PlCommandKey pl_command_keys[] = {
    {'r', "r", PL_CMD_RUN, "retrain now, over the seeds"},
    {' ', "space", PL_CMD_PAUSE, "pause or resume the training"},
    {'g', "g", PL_CMD_GRID, "the padding x mask grid of the selected model (g again stops it)"},
    {'o', "o", PL_CMD_SORT_RUNS, "sort the runs table: in order, by median accuracy, by time"},
    {'u', "u", PL_CMD_UNDO, "undo the last change of a setting"},
    {'R', "R", PL_CMD_RESET, "every setting back to its default (but the corpus and the view)"},
    {0, NULL, PL_CMD_COUNT, NULL},
};

int pl_command_of_key(int key) {
    for (int i = 0; pl_command_keys[i].keys; i++)
        if (pl_command_keys[i].key == key) return (int)pl_command_keys[i].cmd;
    return -1;
}
