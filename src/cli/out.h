/* Printing results as aligned tables, CSV or JSON.
 *
 * A table collects formatted cells row by row and prints them aligned (text
 * left, numbers right) or as CSV with a header row. The JSON writer streams
 * nested objects and arrays, putting commas and escapes where they belong. */
#ifndef PL_CLI_OUT_H
#define PL_CLI_OUT_H

#include <stdint.h>
#include <stdio.h>

typedef enum { OUT_TABLE, OUT_CSV, OUT_JSON } OutFormat;

extern const char *const out_format_names[]; /* "table", "csv", "json", NULL */

typedef struct {
    int ncols;
    const char *const *head;
    char **cells; /* row-major, ncols per row */
    int ncells, cap;
} OutTable;

void out_table_init(OutTable *t, int ncols, const char *const *head);
/* Appends the next cell (rows fill left to right). Returns 0, -1 on no memory. */
int out_table_cell(OutTable *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints as an aligned table (indent spaces before each line) or CSV. */
void out_table_print(const OutTable *t, FILE *f, OutFormat fmt, int indent);
void out_table_done(OutTable *t);

#define JSON_MAX_DEPTH 32

typedef struct {
    FILE *f;
    int depth;
    int count[JSON_MAX_DEPTH]; /* items written at each depth */
} JsonW;

void json_begin(JsonW *w, FILE *f);  /* opens the top-level object */
void json_end(JsonW *w);             /* closes it and ends the line */
/* key is NULL for an item of an array. */
void json_obj(JsonW *w, const char *key);
void json_arr(JsonW *w, const char *key);
void json_close(JsonW *w, char bracket); /* '}' or ']' */
void json_str(JsonW *w, const char *key, const char *v);
void json_int(JsonW *w, const char *key, int64_t v);
void json_num(JsonW *w, const char *key, double v); /* shortest exact-enough form; NaN/inf as null */
void json_bool(JsonW *w, const char *key, int v);

#endif
