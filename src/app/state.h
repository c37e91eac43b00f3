/* The state line: the lab's every setting as one word a shell takes
 * unquoted, for a slide or a chat ("padlab --state v1,corpus=builtin,
 * padding=post,..."). Opening padlab with it restores that lab: the same
 * settings, example and seeds, so the same bits.
 *
 *   v1,NAME=VALUE,NAME=VALUE,...
 *
 * The names and values are the registry's (settings.h): the line is made
 * from its rows and read back through pl_setting_parse, so it lists no
 * setting of its own. It writes every setting, not only those off their
 * defaults, so a line made today opens the same lab after a later padlab
 * changes a default. A value's bytes other than letters, digits and
 * . _ / + : - are written %XX (a corpus path with a space or a comma). A
 * line read may leave settings out: they keep the value they had. */
#ifndef PL_APP_STATE_H
#define PL_APP_STATE_H

#include "core/atomic.h"
#include "settings.h"

#define PL_STATE_VERSION "v1"
/* Room for any line: every row's name and value, each value escaped. */
#define PL_STATE_CAP (PL_S_COUNT * 40 + 3 * 512 + 16)

/* The line of s (without "padlab --state "). Returns buf; cap of
 * PL_STATE_CAP always holds it. */
const char *pl_state_format(const PlLabSettings *s, char *buf, int cap);

/* Reads a line into p (its mask: the settings the line names). Returns 0,
 * or -1 with one line in why saying what was wrong ("'maxlen' must be a
 * whole number from 1 to 2000 or none, got '0'"). Allocates nothing. */
int pl_state_parse(const char *line, PlSettingsPatch *p, char *why, int cap);

/* Writes "padlab --state LINE\n" into a new file dir/padlab-state-N.txt
 * (the first N free; never replaces a file). Returns PL_OK with the path in
 * written, or a status with err naming the file. */
PlStatus pl_state_save_new(const PlLabSettings *s, const char *dir, char *written, int cap, PlErr *err);

/* What the lab's state key does in either front end: saves the line as
 * pl_state_save_new does into dir, and puts in msg the file and the line
 * ("state line (in ./padlab-state-1.txt): padlab --state v1,..."; the file
 * first, as a narrow screen cuts the end), or only the file when the line
 * does not fit in msg, or why it failed. */
void pl_state_key(const PlLabSettings *s, const char *dir, char *msg, int cap);

#endif
