/* The reader of the class server's replies (reply.h): fields found by their
 * key, as pl_class_page_state writes them ("key": value); the server
 * escapes every quote inside a text, so a text never reads as a key. */
#include "reply.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int hex_digit(char ch) {
    return ch >= '0' && ch <= '9' ? ch - '0' : (ch | 32) >= 'a' && (ch | 32) <= 'f' ? (ch | 32) - 'a' + 10 : -1;
}

/* The JSON string at p (just after its opening quote) into out, decoded;
 * returns the byte after its closing quote. A \u escape is its character
 * when printable ASCII, else '?'; one without four hex digits is '?'. */
static const char *json_string(const char *p, char *out, int cap) {
    int k = 0;
    for (; *p && *p != '"'; p++) {
        char ch = *p;
        if (ch == '\\' && p[1]) {
            ch = *++p == 'n' ? '\n' : *p == 't' ? '\t' : *p == 'r' ? '\r' : *p;
            if (*p == 'u') {
                unsigned v = 0;
                int i = 0;
                for (; i < 4 && hex_digit(p[1]) >= 0; i++) v = v * 16 + (unsigned)hex_digit(*++p);
                ch = i == 4 && v >= 0x20 && v < 0x7f ? (char)v : '?';
            }
        }
        if (k + 1 < cap) out[k++] = ch;
    }
    out[k] = 0;
    return *p ? p + 1 : p;
}

/* Where the value of key begins ("key": ), or NULL. */
static const char *value_of(const char *json, const char *key) {
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": ", key);
    const char *p = strstr(json, pat);
    return p ? p + strlen(pat) : NULL;
}

/* The string field key ("" when absent or not a string). */
static void field(const char *json, const char *key, char *out, int cap) {
    const char *p = value_of(json, key);
    out[0] = 0;
    if (p && *p == '"') json_string(p + 1, out, cap);
}

/* A whole number at p from -1 to PL_CLASS_REPLY_INT_MAX, else -1. */
static long whole(const char *p) {
    char *end;
    long v = p ? strtol(p, &end, 10) : -1;
    return p && end != p && v >= -1 && v <= PL_CLASS_REPLY_INT_MAX ? v : -1;
}

/* A true/false field: 1, 0, or -1 when absent or null. */
static int field_bool(const char *json, const char *key) {
    const char *p = value_of(json, key);
    return !p ? -1 : !strncmp(p, "true", 4) ? 1 : !strncmp(p, "false", 5) ? 0 : -1;
}

/* The next object of an array, from p: copied into out (up to cap - 1
 * bytes), its end returned; NULL when the array ends first. Braces and
 * brackets inside strings are text. */
static const char *next_object(const char *p, char *out, int cap) {
    while (*p && *p != '{' && *p != ']') p++;
    if (*p != '{') return NULL;
    const char *s = p;
    int depth = 0, in_str = 0;
    for (; *p; p++) {
        if (in_str) {
            if (*p == '\\' && p[1]) p++;
            else if (*p == '"') in_str = 0;
        } else if (*p == '"') in_str = 1;
        else if (*p == '{') depth++;
        else if (*p == '}' && !--depth) break;
    }
    if (!*p) return NULL;
    int n = (int)(p - s + 1) < cap ? (int)(p - s + 1) : cap - 1;
    memcpy(out, s, (size_t)n);
    out[n] = 0;
    return p + 1;
}

/* The state's "choices", up to PL_CLASS_REPLY_CHOICES. */
static void choices_of(const char *json, PlClassReply *r) {
    const char *p = value_of(json, "choices");
    if (!p || *p++ != '[') return;
    while (r->nchoices < PL_CLASS_REPLY_CHOICES) {
        while (*p == ' ' || *p == '\n' || *p == ',') p++;
        if (*p != '"') return;
        p = json_string(p + 1, r->choices[r->nchoices++], sizeof r->choices[0]);
    }
}

/* The tally's rounds: each its answered and right, the first two. */
static void rounds_of(const char *json, PlClassReply *r) {
    const char *p = value_of(json, "rounds");
    char obj[400];
    while (p && r->nrounds < 2 && (p = next_object(p, obj, sizeof obj))) {
        r->answered[r->nrounds] = whole(value_of(obj, "answered"));
        r->right[r->nrounds++] = whole(value_of(obj, "right"));
    }
}

void pl_class_reply_read(const char *json, PlClassReply *r) {
    memset(r, 0, sizeof *r);
    field(json, "key", r->key, sizeof r->key);
    field(json, "phase", r->phase, sizeof r->phase);
    field(json, "token", r->token, sizeof r->token);
    r->q = whole(value_of(json, "q"));
    r->round = whole(value_of(json, "round"));
    const char *kind = value_of(json, "kind");
    r->choose = kind && !strncmp(kind, "\"choose\"", 8);
    field(json, "prompt", r->prompt, sizeof r->prompt);
    field(json, "hint", r->hint, sizeof r->hint);
    field(json, "mine", r->mine, sizeof r->mine);
    choices_of(json, r);
    field(json, "value", r->value, sizeof r->value);
    r->right_choice = whole(value_of(json, "right_choice"));
    rounds_of(json, r);
    r->mine_right = field_bool(json, "mine_right");
}

int pl_class_reply_result(const char *json, const char **at, PlClassReplyResult *res) {
    char obj[8000];
    const char *from = *at ? *at : value_of(json, "results");
    *at = from ? next_object(from, obj, sizeof obj) : NULL;
    if (!*at) {
        *at = ""; /* read to the end: no more */
        return 0;
    }
    res->question = whole(value_of(obj, "question"));
    field(obj, "prompt", res->prompt, sizeof res->prompt);
    field(obj, "mine", res->mine, sizeof res->mine);
    field(obj, "answer", res->answer, sizeof res->answer);
    res->right = field_bool(obj, "right");
    return 1;
}
