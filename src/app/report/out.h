/* Printing results as aligned tables, CSV or JSON.
 *
 * A table collects formatted cells row by row and prints them aligned (text
 * left, numbers right) or as CSV with a header row. The JSON writer streams
 * nested objects and arrays, putting commas and escapes where they belong.
 * A row (OutRow) is one long line of cells, a token per cell, that is
 * elided in the middle when it would not fit the width it is given. */
#ifndef PL_APP_OUT_H
#define PL_APP_OUT_H

#include <stdint.h>
#include <stdio.h>

typedef enum { OUT_TABLE, OUT_CSV, OUT_JSON } OutFormat;

extern const char *const out_format_names[]; /* "table", "csv", "json", NULL */

/* One CSV field: as it is, or quoted with its quotes doubled when it holds a
 * comma, a quote or a newline (RFC 4180). */
void out_csv_cell(FILE *f, const char *s);
/* s as a JSON string, quotes included, escaped as JSON asks. */
void out_json_string(FILE *f, const char *s);

typedef struct {
    int ncols;
    const char *const *head;
    char **cells; /* row-major, ncols per row */
    int ncells, cap;
    int failed; /* a cell could not be stored: the table prints nothing */
} OutTable;

void out_table_init(OutTable *t, int ncols, const char *const *head);
/* Appends the next cell (rows fill left to right). Control bytes and invalid
 * UTF-8 are written out as escapes (\x1b, \u009b: pl_text_printable), so corpus text cannot
 * drive the terminal. Returns 0, -1 on no memory (after which the table
 * refuses every cell and prints nothing). */
int out_table_cell(OutTable *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints as an aligned table (indent spaces before each line) or CSV.
 * Returns 0, or -1 without printing when a cell was lost to no memory. */
int out_table_print(const OutTable *t, FILE *f, OutFormat fmt, int indent);
void out_table_done(OutTable *t);

/* One line of cells after a label ("  ids   " then " 12 7 0 0"): each cell
 * is printed after one space. */
typedef struct {
    char *text; /* the cells, each ending in '\0' */
    size_t len, cap;
    int n;      /* cells */
    int failed; /* a cell could not be stored: the row prints nothing */
} OutRow;

void out_row_init(OutRow *r);
/* Appends a cell, escaped as out_table_cell does. Returns 0, -1 on no memory
 * (the row then prints nothing). */
int out_row_cell(OutRow *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints label and the cells on one line, then a newline. When columns > 0
 * and the line would be wider, prints the cells from the start and from the
 * end that fit, with "… (N more; --full prints all)" between them. Widths
 * count UTF-8 characters. Returns the number of cells left out, or -1
 * without printing when the row lost a cell or no memory is left. */
int out_row_print(const OutRow *r, FILE *f, const char *label, int columns);
void out_row_done(OutRow *r);
/* Columns text takes on a terminal: its UTF-8 characters. */
int out_text_width(const char *s);

#define JSON_MAX_DEPTH 32

typedef struct {
    FILE *f;
    int depth;
    int count[JSON_MAX_DEPTH];     /* items written at each depth */
    const struct PlLedger *ledger; /* json_fig writes the figures it hides as null; NULL: none */
} JsonW;

void json_begin(JsonW *w, FILE *f);       /* opens the top-level object */
void json_end(JsonW *w);                  /* closes it and ends the line */
void json_begin_array(JsonW *w, FILE *f); /* a top-level array instead */
void json_end_array(JsonW *w);
/* key is NULL for an item of an array. */
void json_obj(JsonW *w, const char *key);
void json_arr(JsonW *w, const char *key);
void json_close(JsonW *w, char bracket); /* '}' or ']' */
void json_str(JsonW *w, const char *key, const char *v);
void json_int(JsonW *w, const char *key, int64_t v);
void json_num(JsonW *w, const char *key, double v); /* shortest exact-enough form; NaN/inf as null */
void json_bool(JsonW *w, const char *key, int v);
/* An array of floats on one line, each in the fewest digits that read back
 * as the same float; NaN/inf as null. */
void json_floats(JsonW *w, const char *key, const float *v, int n);
/* A figure: v as json_num (json_fig_int: as json_int) writes it, or null
 * when the writer's ledger hides quantity `names` (ledger.h). */
void json_fig(JsonW *w, const char *key, const char *names, double v);
void json_fig_int(JsonW *w, const char *key, const char *names, int64_t v);
/* Continues a top-level object written to f up to its closing brace (with
 * items in it or not): the next item gets its comma, json_end closes it. */
void json_resume(JsonW *w, FILE *f, int has_items);
/* doc, a whole document this writer wrote (json_begin .. json_end), as the
 * value of key, its lines indented to sit at this depth. */
void json_doc(JsonW *w, const char *key, const char *doc);

#endif
