/* A small JSON reader for JSON from outside: a kata candidate's outputs, as
 * Python's json.dumps writes them (NaN, Infinity and -Infinity included),
 * and an experiment's part files (report/part.h). It is user input: any
 * bytes give a value or one line naming where and what was expected, never
 * a crash; depth, size and counts are bounded. */
#ifndef PL_APP_JSON_H
#define PL_APP_JSON_H

#include <stddef.h>

#include "core/err.h"

typedef enum { PL_J_NULL, PL_J_BOOL, PL_J_NUM, PL_J_STR, PL_J_ARR, PL_J_OBJ } PlJType;

typedef struct PlJson {
    PlJType t;
    double num;           /* NUM, and BOOL as 0 or 1 */
    char *str;            /* STR */
    int n;                /* ARR, OBJ: items */
    struct PlJson *items; /* (n) */
    char **keys;          /* OBJ: (n) */
} PlJson;

/* The deepest nesting read, and the most bytes. */
#define PL_JSON_MAX_DEPTH 32
#define PL_JSON_MAX_BYTES (64 << 20)
/* The most values in one text (about 200 MB of tree). */
#define PL_JSON_MAX_ITEMS 4000000L

/* Parses text[0..n) (no NUL needed): a new value, or NULL with err "line L,
 * column C: what was expected" (PL_EINPUT) or PL_ENOMEM. */
PlJson *pl_json_parse(const char *text, size_t n, PlErr *err);
/* The same, with the status: PL_OK and *out, or PL_EINPUT / PL_ENOMEM with
 * err and *out NULL, so that a caller can tell bad text from no memory. */
PlStatus pl_json_parse_status(const char *text, size_t n, PlJson **out, PlErr *err);
void pl_json_free(PlJson *j);
/* The member of object o named key, or NULL. */
const PlJson *pl_json_get(const PlJson *o, const char *key);
/* What a value is, for a message: "a number", "a list", ... */
const char *pl_json_kind(PlJType t);

#endif
