/* The JSON reader (json.h): recursive descent over a bounded depth. */
#include "json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *s;
    size_t n, at;
    int depth;
    long items; /* read so far, of at most PL_JSON_MAX_ITEMS */
    PlErr *err;
} Reader;

static const char *const kinds[] = {"null", "true or false", "a number", "a string", "a list", "an object"};

const char *pl_json_kind(PlJType t) { return kinds[t]; }

static PlStatus fail(Reader *r, const char *what) {
    int line = 1, col = 1;
    for (size_t i = 0; i < r->at && i < r->n; i++) r->s[i] == '\n' ? (line++, col = 1) : col++;
    if (r->at >= r->n) return pl_err_set(r->err, PL_EINPUT, "line %d, column %d: %s, got the end of the text", line, col, what);
    unsigned char c = (unsigned char)r->s[r->at];
    if (c >= 0x20 && c < 0x7f) return pl_err_set(r->err, PL_EINPUT, "line %d, column %d: %s, got '%c'", line, col, what, c);
    return pl_err_set(r->err, PL_EINPUT, "line %d, column %d: %s, got byte 0x%02x", line, col, what, c);
}

static void skip_space(Reader *r) {
    while (r->at < r->n && strchr(" \t\r\n", r->s[r->at]) && r->s[r->at]) r->at++;
}

static int word(Reader *r, const char *w) {
    size_t len = strlen(w);
    if (r->n - r->at < len || memcmp(r->s + r->at, w, len) != 0) return 0;
    r->at += len;
    return 1;
}

static PlStatus value(Reader *r, PlJson *v);

static PlStatus number(Reader *r, PlJson *v) {
    char tok[64];
    size_t k = 0;
    v->t = PL_J_NUM;
    if (word(r, "NaN")) return v->num = NAN, PL_OK;
    if (word(r, "Infinity")) return v->num = INFINITY, PL_OK;
    if (word(r, "-Infinity")) return v->num = -INFINITY, PL_OK;
    while (r->at < r->n && k < sizeof tok - 1 && strchr("0123456789+-.eE", r->s[r->at]) && r->s[r->at])
        tok[k++] = r->s[r->at++];
    tok[k] = '\0';
    char *end;
    v->num = strtod(tok, &end);
    if (!k || *end || (tok[0] == '-' ? tok[1] : tok[0]) < '0' || (tok[0] == '-' ? tok[1] : tok[0]) > '9') {
        r->at -= k;
        return fail(r, "expected a value (a number, a list, an object, true, false, null or a string)");
    }
    return PL_OK;
}

static PlStatus string(Reader *r, char **out) {
    r->at++; /* the opening quote */
    size_t start = r->at, len = 0;
    char *s = malloc(r->n - start + 1);
    if (!s) return pl_err_set(r->err, PL_ENOMEM, "out of memory");
    while (r->at < r->n && r->s[r->at] != '"') {
        char c = r->s[r->at++];
        if ((unsigned char)c < 0x20) return free(s), r->at--, fail(r, "a string ends on its line");
        if (c == '\\') {
            if (r->at >= r->n) break;
            c = r->s[r->at++];
            if (c == 'u') {
                if (r->n - r->at < 4) return free(s), fail(r, "expected four hex digits after \\u");
                r->at += 4, c = '?';
            } else if (c == 'n') c = '\n';
            else if (c == 't') c = '\t';
            else if (!strchr("\"\\/bfr", c)) return free(s), r->at--, fail(r, "expected an escape (\\\" \\\\ \\n ...)");
        }
        s[len++] = c;
    }
    if (r->at >= r->n) return free(s), fail(r, "expected the string's closing quote");
    r->at++;
    s[len] = '\0';
    *out = s;
    return PL_OK;
}

/* Appends a zeroed item to v (and a key slot for an object) into *out.
 * Capacity doubles, so a long list costs no quadratic copying. */
static PlStatus grow(Reader *r, PlJson *v, PlJson **out) {
    if (++r->items > PL_JSON_MAX_ITEMS) return fail(r, "at most 4000000 values in all");
    if ((v->n & (v->n - 1)) == 0) { /* n is 0 or a power of two: full */
        size_t cap = v->n ? (size_t)v->n * 2 : 1;
        PlJson *items = realloc(v->items, sizeof *items * cap);
        if (!items) return pl_err_set(r->err, PL_ENOMEM, "out of memory");
        v->items = items;
        if (v->t == PL_J_OBJ) {
            char **keys = realloc(v->keys, sizeof *keys * cap);
            if (!keys) return pl_err_set(r->err, PL_ENOMEM, "out of memory");
            v->keys = keys;
        }
    }
    if (v->keys) v->keys[v->n] = NULL;
    memset(&v->items[v->n], 0, sizeof v->items[0]);
    *out = &v->items[v->n++];
    return PL_OK;
}

static PlStatus container(Reader *r, PlJson *v, char close) {
    v->t = close == ']' ? PL_J_ARR : PL_J_OBJ;
    if (++r->depth > PL_JSON_MAX_DEPTH) return fail(r, "at most 32 levels of nesting");
    r->at++;
    skip_space(r);
    if (r->at < r->n && r->s[r->at] == close) return r->at++, r->depth--, PL_OK;
    for (;;) {
        skip_space(r);
        PlJson *item = NULL;
        PlStatus st = grow(r, v, &item);
        if (st) return st;
        if (v->t == PL_J_OBJ) {
            if (r->at >= r->n || r->s[r->at] != '"') return fail(r, "expected a key in quotes");
            st = string(r, &v->keys[v->n - 1]);
            if (st) return st;
            skip_space(r);
            if (r->at >= r->n || r->s[r->at] != ':') return fail(r, "expected ':' after the key");
            r->at++;
        }
        st = value(r, item);
        if (st) return st;
        skip_space(r);
        if (r->at < r->n && r->s[r->at] == ',') {
            r->at++;
            continue;
        }
        if (r->at < r->n && r->s[r->at] == close) return r->at++, r->depth--, PL_OK;
        return fail(r, close == ']' ? "expected ',' or ']'" : "expected ',' or '}'");
    }
}

static PlStatus value(Reader *r, PlJson *v) {
    skip_space(r);
    if (r->at >= r->n) return fail(r, "expected a value");
    char c = r->s[r->at];
    if (c == '[') return container(r, v, ']');
    if (c == '{') return container(r, v, '}');
    if (c == '"') return v->t = PL_J_STR, string(r, &v->str);
    if (word(r, "true")) return v->t = PL_J_BOOL, v->num = 1.0, PL_OK;
    if (word(r, "false")) return v->t = PL_J_BOOL, v->num = 0.0, PL_OK;
    if (word(r, "null")) return v->t = PL_J_NULL, PL_OK;
    return number(r, v);
}

static void clear(PlJson *j) {
    for (int i = 0; i < j->n; i++) {
        clear(&j->items[i]);
        if (j->keys) free(j->keys[i]);
    }
    free(j->items), free(j->keys), free(j->str);
}

void pl_json_free(PlJson *j) {
    if (!j) return;
    clear(j);
    free(j);
}

PlStatus pl_json_parse_status(const char *text, size_t n, PlJson **out, PlErr *err) {
    *out = NULL;
    if (n > PL_JSON_MAX_BYTES) return pl_err_set(err, PL_EINPUT, "the output is over 64 MB");
    PlJson *v = calloc(1, sizeof *v);
    if (!v) return pl_err_set(err, PL_ENOMEM, "out of memory");
    Reader r = {text, n, 0, 0, 0, err};
    PlStatus st = value(&r, v);
    if (!st) {
        skip_space(&r);
        if (r.at < r.n) st = fail(&r, "expected the end after the value");
    }
    if (st) return pl_json_free(v), st;
    *out = v;
    return PL_OK;
}

PlJson *pl_json_parse(const char *text, size_t n, PlErr *err) {
    PlJson *v;
    pl_json_parse_status(text, n, &v, err);
    return v;
}

const PlJson *pl_json_get(const PlJson *o, const char *key) {
    for (int i = 0; o->t == PL_J_OBJ && i < o->n; i++)
        if (o->keys[i] && strcmp(o->keys[i], key) == 0) return &o->items[i];
    return NULL;
}
