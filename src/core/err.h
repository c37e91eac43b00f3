/* Status codes and error messages for the padlab core.
 *
 * Functions that can fail return a PlStatus and, when the caller passed a
 * PlErr, fill it with one line naming what went wrong and where. The core never
 * prints and never exits; only main() decides what to do with a failure. */
#ifndef PL_ERR_H
#define PL_ERR_H

typedef enum {
    PL_OK = 0,
    PL_EINPUT = 1,   /* the input (a file, a flag value) is malformed */
    PL_EIO = 2,      /* a file or folder could not be read */
    PL_ENOMEM = 3,   /* an allocation failed or a size would overflow */
    PL_ERANGE = 4,   /* a parameter is outside what the function accepts */
    PL_ECANCELED = 5 /* the caller asked the work to stop */
} PlStatus;

typedef struct {
    char msg[512];
} PlErr;

/* Fills err (when not NULL) with a formatted one-line message and returns st. */
PlStatus pl_err_set(PlErr *err, PlStatus st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Returns err's message, or "" for a NULL err. */
const char *pl_errmsg(const PlErr *err);

#endif
