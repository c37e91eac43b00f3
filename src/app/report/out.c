#include "out.h"

#include "app/lab/ledger.h"
#include "core/text.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *const out_format_names[] = {"table", "csv", "json", NULL};

void out_table_init(OutTable *t, int ncols, const char *const *head) {
    memset(t, 0, sizeof *t);
    t->ncols = ncols;
    t->head = head;
}

int out_table_cell(OutTable *t, const char *fmt, ...) {
    if (t->failed) return -1;
    if (t->ncells == t->cap) {
        int cap = t->cap ? t->cap * 2 : 64;
        char **cells = realloc(t->cells, (size_t)cap * sizeof *cells);
        if (!cells) return t->failed = 1, -1;
        t->cells = cells;
        t->cap = cap;
    }
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    char *s = pl_text_printable(buf);
    if (!s) return t->failed = 1, -1;
    t->cells[t->ncells++] = s;
    return 0;
}

void out_table_done(OutTable *t) {
    for (int i = 0; i < t->ncells; i++) free(t->cells[i]);
    free(t->cells);
    memset(t, 0, sizeof *t);
}

static int is_number(const char *s) {
    if (*s == '-' || *s == '+') s++;
    if (!*s) return 0;
    for (; *s; s++)
        if (!strchr("0123456789.%eE-+x", *s)) return 0;
    return 1;
}

void out_csv_cell(FILE *f, const char *s) {
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void print_csv(const OutTable *t, FILE *f) {
    for (int c = 0; c < t->ncols; c++) {
        if (c) fputc(',', f);
        out_csv_cell(f, t->head[c]);
    }
    fputc('\n', f);
    for (int i = 0; i < t->ncells; i++) {
        out_csv_cell(f, t->cells[i]);
        fputc((i + 1) % t->ncols ? ',' : '\n', f);
    }
}

int out_table_print(const OutTable *t, FILE *f, OutFormat fmt, int indent) {
    if (t->failed) return -1;
    if (fmt == OUT_CSV) {
        print_csv(t, f);
        return 0;
    }
    int width[64] = {0};
    int nc = t->ncols < 64 ? t->ncols : 64;
    for (int c = 0; c < nc; c++) width[c] = (int)strlen(t->head[c]);
    for (int i = 0; i < t->ncells; i++) {
        int w = (int)strlen(t->cells[i]);
        if (w > width[i % t->ncols]) width[i % t->ncols] = w;
    }
    /* A column is right-aligned when all its cells are numbers. */
    int right[64];
    for (int c = 0; c < nc; c++) right[c] = 1;
    for (int i = 0; i < t->ncells; i++)
        if (!is_number(t->cells[i])) right[i % t->ncols] = 0;
    for (int r = -1; r < t->ncells / t->ncols; r++) {
        fprintf(f, "%*s", indent, "");
        for (int c = 0; c < nc; c++) {
            const char *s = r < 0 ? t->head[c] : t->cells[r * t->ncols + c];
            int last = c == nc - 1;
            if (right[c]) fprintf(f, "%*s", width[c], s);
            else if (last) fputs(s, f);
            else fprintf(f, "%-*s", width[c], s);
            if (!last) fputs("  ", f);
        }
        fputc('\n', f);
    }
    return 0;
}

/* ---- rows ---- */

void out_row_init(OutRow *r) { memset(r, 0, sizeof *r); }

void out_row_done(OutRow *r) {
    free(r->text);
    memset(r, 0, sizeof *r);
}

int out_row_cell(OutRow *r, const char *fmt, ...) {
    if (r->failed) return -1;
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    char *cell = pl_text_printable(buf);
    if (!cell) return r->failed = 1, -1;
    size_t n = strlen(cell) + 1;
    if (r->len + n > r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 256;
        while (cap < r->len + n) cap *= 2;
        char *text = realloc(r->text, cap);
        if (!text) return free(cell), r->failed = 1, -1;
        r->text = text;
        r->cap = cap;
    }
    memcpy(r->text + r->len, cell, n);
    free(cell);
    r->len += n;
    r->n++;
    return 0;
}

int out_text_width(const char *s) {
    int w = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) w += (*p & 0xC0) != 0x80;
    return w;
}

int out_row_print(const OutRow *r, FILE *f, const char *label, int columns) {
    /* Where each cell starts, and the width of the whole line. */
    if (r->failed) return -1;
    const char **cell = malloc(((size_t)r->n + 1) * sizeof *cell);
    int *w = malloc(((size_t)r->n + 1) * sizeof *w);
    if (!cell || !w) {
        free(cell);
        free(w);
        return -1;
    }
    int total = out_text_width(label), left_out = 0;
    const char *s = r->text;
    for (int i = 0; i < r->n; i++, s += strlen(s) + 1) {
        cell[i] = s;
        w[i] = 1 + out_text_width(s);
        total += w[i];
    }
    fputs(label, f);
    if (columns <= 0 || total <= columns) {
        for (s = r->text; s && s < r->text + r->len; s += strlen(s) + 1) fprintf(f, " %s", s);
    } else {
        char note[64];
        snprintf(note, sizeof note, " \xe2\x80\xa6 (%d more; --full prints all)", r->n);
        int room = columns - out_text_width(label) - out_text_width(note), head = 0, tail = 0, used = 0;
        while (head < r->n && (head == 0 || used + w[head] <= room / 2)) used += w[head++];
        while (tail < r->n - head && (tail == 0 || used + w[r->n - 1 - tail] <= room)) used += w[r->n - 1 - tail++];
        left_out = r->n - head - tail;
        for (int i = 0; i < head; i++) fprintf(f, " %s", cell[i]);
        if (left_out) fprintf(f, " \xe2\x80\xa6 (%d more; --full prints all)", left_out);
        for (int i = r->n - tail; i < r->n; i++) fprintf(f, " %s", cell[i]);
    }
    fputc('\n', f);
    free(cell);
    free(w);
    return left_out;
}

/* ---- JSON ---- */

void out_json_string(FILE *f, const char *s) {
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\t': fputs("\\t", f); break;
        case '\r': fputs("\\r", f); break;
        default:
            if (*p < 0x20) fprintf(f, "\\u%04x", *p);
            else fputc(*p, f);
        }
    }
    fputc('"', f);
}

/* Writes the separator, indentation and key before a value. */
static void json_key(JsonW *w, const char *key) {
    if (w->count[w->depth]++) fputc(',', w->f);
    fprintf(w->f, "\n%*s", 2 * w->depth, "");
    if (key) {
        out_json_string(w->f, key);
        fputs(": ", w->f);
    }
}

void json_begin(JsonW *w, FILE *f) {
    memset(w, 0, sizeof *w);
    w->f = f;
    fputc('{', f);
    w->depth = 1;
}

void json_end(JsonW *w) {
    json_close(w, '}');
    fputc('\n', w->f);
}

void json_begin_array(JsonW *w, FILE *f) {
    memset(w, 0, sizeof *w);
    w->f = f;
    fputc('[', f);
    w->depth = 1;
}

void json_end_array(JsonW *w) {
    json_close(w, ']');
    fputc('\n', w->f);
}

static void json_open(JsonW *w, const char *key, char bracket) {
    json_key(w, key);
    fputc(bracket, w->f);
    if (w->depth + 1 < JSON_MAX_DEPTH) w->depth++;
    w->count[w->depth] = 0;
}

void json_obj(JsonW *w, const char *key) { json_open(w, key, '{'); }
void json_arr(JsonW *w, const char *key) { json_open(w, key, '['); }

void json_close(JsonW *w, char bracket) {
    int had = w->count[w->depth];
    if (w->depth > 0) w->depth--;
    if (had) fprintf(w->f, "\n%*s", 2 * w->depth, "");
    fputc(bracket, w->f);
}

void json_str(JsonW *w, const char *key, const char *v) {
    json_key(w, key);
    out_json_string(w->f, v);
}

void json_int(JsonW *w, const char *key, int64_t v) {
    json_key(w, key);
    fprintf(w->f, "%lld", (long long)v);
}

void json_num(JsonW *w, const char *key, double v) {
    json_key(w, key);
    if (!isfinite(v)) {
        fputs("null", w->f);
        return;
    }
    char buf[64];
    /* The shortest of %.6g .. %.17g that reads back as the same double. */
    for (int prec = 6; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v) break;
    }
    fputs(buf, w->f);
}

/* f in the fewest digits that read back as the same float: %.6g when that
 * does, else %.9g, which always does (a float has 24 bits). */
static void float_text(char *buf, size_t cap, float f) {
    snprintf(buf, cap, "%.6g", (double)f);
    if (strtof(buf, NULL) != f) snprintf(buf, cap, "%.9g", (double)f);
}

void json_floats(JsonW *w, const char *key, const float *v, int n) {
    json_key(w, key);
    fputc('[', w->f);
    char buf[32];
    for (int i = 0; i < n; i++) {
        if (i) fputs(", ", w->f);
        if (isfinite(v[i])) float_text(buf, sizeof buf, v[i]);
        else snprintf(buf, sizeof buf, "null");
        fputs(buf, w->f);
    }
    fputc(']', w->f);
}

void json_fig(JsonW *w, const char *key, const char *names, double v) {
    if (!pl_ledger_hides_name(w->ledger, names)) return json_num(w, key, v);
    json_key(w, key);
    fputs("null", w->f);
}

void json_fig_int(JsonW *w, const char *key, const char *names, int64_t v) {
    if (!pl_ledger_hides_name(w->ledger, names)) return json_int(w, key, v);
    json_key(w, key);
    fputs("null", w->f);
}

void json_bool(JsonW *w, const char *key, int v) {
    json_key(w, key);
    fputs(v ? "true" : "false", w->f);
}

void json_resume(JsonW *w, FILE *f, int has_items) {
    memset(w, 0, sizeof *w);
    w->f = f;
    w->depth = 1;
    w->count[1] = has_items != 0;
}

void json_doc(JsonW *w, const char *key, const char *doc) {
    json_key(w, key);
    size_t n = strlen(doc);
    while (n && doc[n - 1] == '\n') n--; /* the document's own line end: the item after it brings one */
    for (size_t i = 0; i < n; i++) {
        fputc(doc[i], w->f);
        if (doc[i] == '\n') fprintf(w->f, "%*s", 2 * w->depth, "");
    }
}
