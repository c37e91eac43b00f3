#include "fill.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger.h"

/* The } that closes the { at s, counting nested braces; NULL when none. */
static const char *closing(const char *s) {
    int depth = 0;
    for (; *s; s++) {
        if (*s == '{') depth++;
        else if (*s == '}' && --depth == 0) return s;
    }
    return NULL;
}

/* A conditional's parts, as offsets into its text (between "{?" and "}"). */
typedef struct {
    char cond[256];
    const char *then, *other; /* into the source text */
    size_t nthen, nother;
} Cond;

/* Splits the inside of "{? ... }" (body[0..n)) at its top-level '|'s. */
static int split(const char *body, size_t n, Cond *c, char *why, int cap) {
    const char *bar[3];
    int nbar = 0, depth = 0;
    for (size_t i = 0; i < n; i++) {
        if (body[i] == '{') depth++;
        else if (body[i] == '}') depth--;
        else if (body[i] == '|' && depth == 0) {
            if (nbar == 2)
                return snprintf(why, (size_t)cap, "a conditional has at most two | (COND | TEXT | OTHERWISE)"), -1;
            bar[nbar++] = body + i;
        }
    }
    if (!nbar) return snprintf(why, (size_t)cap, "a conditional is {? COND | TEXT | OTHERWISE}: it needs a |"), -1;
    size_t nc = (size_t)(bar[0] - body);
    if (nc >= sizeof c->cond) return snprintf(why, (size_t)cap, "a conditional's condition is too long"), -1;
    memcpy(c->cond, body, nc);
    c->cond[nc] = '\0';
    c->then = bar[0] + 1;
    c->nthen = (size_t)((nbar == 2 ? bar[1] : body + n) - c->then);
    c->other = nbar == 2 ? bar[1] + 1 : body + n;
    c->nother = nbar == 2 ? (size_t)(body + n - c->other) : 0;
    return 0;
}

/* ---- conditions: TERM OP TERM joined by & ---- */

static const char *const ops[] = {"<=", ">=", "==", "!=", "<", ">"};

static void trim(char *s) {
    char *a = s;
    while (isspace((unsigned char)*a)) a++;
    memmove(s, a, strlen(a) + 1);
    for (char *e = s + strlen(s); e > s && isspace((unsigned char)e[-1]);) *--e = '\0';
}

/* What a text reads: the result kinds, and whether any figure is training's. */
typedef struct {
    unsigned kinds;
    int training;
} Reads;

/* A term's value: a number, or a quantity's value now. 1, 0 when the lab
 * has not computed it, -1 when it is neither (why says so). lab may be NULL
 * (only checking). */
static int term(PlLab *lab, const char *t, double *v, Reads *rd, char *why, int cap) {
    char *end;
    *v = strtod(t, &end);
    if (end != t && !*end) return 1;
    PlQuantity q;
    if (pl_quantity_parse(t, &q, why, cap)) return -1;
    if (rd) rd->kinds |= pl_quantity_kinds(&q), rd->training |= pl_quantity_reads_training(&q);
    if (!lab) return 1;
    return pl_quantity_value(lab, &q, v, why, cap) == 0; /* why: what it waits for */
}

/* Evaluates cond: 1 holds, 0 fails, 2 a figure is not computed, -1 not a
 * condition (why). */
static int evaluate(PlLab *lab, const char *cond, Reads *rd, char *why, int cap) {
    char copy[256], *save = NULL;
    snprintf(copy, sizeof copy, "%s", cond);
    int result = 1, parts = 0;
    for (char *part = strtok_r(copy, "&", &save); part; part = strtok_r(NULL, "&", &save), parts++) {
        int k = 0;
        while (k < 6 && !strstr(part, ops[k])) k++;
        if (k == 6)
            return snprintf(why, (size_t)cap, "a condition is TERM OP TERM (OP one of < <= > >= == !=), got '%.60s'",
                            part),
                   -1;
        char a[128], b[128];
        const char *at = strstr(part, ops[k]);
        snprintf(a, sizeof a, "%.*s", (int)(at - part), part);
        snprintf(b, sizeof b, "%s", at + strlen(ops[k]));
        trim(a), trim(b);
        double x, y;
        int ra = term(lab, a, &x, rd, why, cap), rb = ra < 0 ? -1 : term(lab, b, &y, rd, why, cap);
        if (ra < 0 || rb < 0) return -1;
        if (!ra || !rb) {
            result = 2;
            continue;
        }
        int holds = k == 0 ? x <= y : k == 1 ? x >= y : k == 2 ? x == y : k == 3 ? x != y : k == 4 ? x < y : x > y;
        if (!holds && result == 1) result = 0;
    }
    if (!parts) return snprintf(why, (size_t)cap, "a conditional needs its condition before the |"), -1;
    return result;
}

/* ---- checking, filling, listing ---- */

/* Checks one placeholder's name. */
static int check_name(const char *name, char *why, int cap) {
    PlQuantity q;
    return pl_quantity_parse(name, &q, why, cap);
}

static int check_span(const char *text, size_t n, int nested, char *why, int cap);

/* Checks "{? ... }" at s (e its closing brace). */
static int check_cond(const char *s, const char *e, char *why, int cap) {
    Cond c;
    if (split(s + 2, (size_t)(e - s - 2), &c, why, cap)) return -1;
    if (evaluate(NULL, c.cond, NULL, why, cap) < 0) return -1;
    return check_span(c.then, c.nthen, 1, why, cap) || check_span(c.other, c.nother, 1, why, cap) ? -1 : 0;
}

static int check_span(const char *text, size_t n, int nested, char *why, int cap) {
    for (size_t i = 0; i < n; i++) {
        if (text[i] == '}') return snprintf(why, (size_t)cap, "a } that no { opens"), -1;
        if (text[i] != '{') continue;
        const char *e = closing(text + i);
        if (!e || e >= text + n) return snprintf(why, (size_t)cap, "a { that no } closes (a figure is {quantity})"), -1;
        if (text[i + 1] == '?') {
            if (nested) return snprintf(why, (size_t)cap, "a conditional's text cannot hold another conditional"), -1;
            if (check_cond(text + i, e, why, cap)) return -1;
        } else {
            char name[96];
            if (e - text - (long)i - 1 >= (long)sizeof name)
                return snprintf(why, (size_t)cap, "a placeholder's name is too long"), -1;
            snprintf(name, sizeof name, "%.*s", (int)(e - text - (long)i - 1), text + i + 1);
            if (check_name(name, why, cap)) return -1;
        }
        i = (size_t)(e - text);
    }
    return 0;
}

int pl_fill_check(const char *text, char *why, int cap) {
    return text ? check_span(text, strlen(text), 0, why, cap) : 0;
}

typedef struct {
    char *out;
    int n, cap;
    char *why; /* the first figure that could not be computed: why; NULL when nobody asks */
    int whycap, missing;
} Out;

/* Keeps why the first figure shown as "..." is missing. */
static void note_missing(Out *o, const char *name, const char *why) {
    if (o->missing++ || !o->why) return;
    snprintf(o->why, (size_t)o->whycap, "{%.90s}: %.200s", name, why);
}

static void emit(Out *o, const char *s, size_t n) {
    if (o->n >= o->cap - 1) return;
    if ((int)n > o->cap - 1 - o->n) n = (size_t)(o->cap - 1 - o->n);
    memcpy(o->out + o->n, s, n);
    o->n += (int)n;
}

static void fill_span(PlLab *lab, const char *text, size_t n, Out *o);

/* A figure as the text shows it: maxlen none names the longest review it
 * stands for, as the views do. */
static void format_value(PlLab *lab, const PlQuantity *q, double v, char *buf, int cap) {
    char name[32];
    if (v == PL_MAXLEN_NONE && strcmp(pl_quantity_name(q, name, sizeof name), "maxlen") == 0)
        pl_maxlen_text(PL_MAXLEN_NONE, pl_lab_longest(lab), buf, cap);
    else pl_quantity_format(q, v, buf, cap);
}

static void fill_placeholder(PlLab *lab, const char *s, const char *e, Out *o) {
    char name[96], value[96], why[200];
    snprintf(name, sizeof name, "%.*s", (int)(e - s - 1), s + 1);
    PlQuantity q;
    double v;
    if (pl_quantity_parse(name, &q, why, sizeof why) == 0 && pl_quantity_value(lab, &q, &v, why, sizeof why) == 0) {
        char canon[96], mark[200];
        format_value(lab, &q, v, value, sizeof value);
        pl_fig(mark, sizeof mark, pl_quantity_name(&q, canon, sizeof canon), "%s", value);
        emit(o, mark, strlen(mark));
    } else {
        emit(o, "...", 3);
        note_missing(o, name, why);
    }
}

/* The quantities a condition reads, as a mark's names ("a,b"): the text it
 * chooses tells what they are, so it is hidden with them. */
static void condition_names(const char *cond, char *names, size_t cap) {
    char copy[256], *save = NULL;
    size_t n = 0;
    names[0] = '\0';
    snprintf(copy, sizeof copy, "%s", cond);
    for (char *t = strtok_r(copy, "&<>=! ", &save); t; t = strtok_r(NULL, "&<>=! ", &save)) {
        PlQuantity q;
        char why[160], canon[96];
        if (pl_quantity_parse(t, &q, why, sizeof why)) continue; /* a number */
        pl_quantity_name(&q, canon, sizeof canon);
        int k = snprintf(names + n, cap - n, "%s%s", n ? "," : "", canon);
        if (k < 0 || (size_t)k >= cap - n) return;
        n += (size_t)k;
    }
}

static void fill_cond(PlLab *lab, const char *s, const char *e, Out *o) {
    Cond c;
    char why[200] = "";
    if (split(s + 2, (size_t)(e - s - 2), &c, why, sizeof why)) return;
    int r = evaluate(lab, c.cond, NULL, why, sizeof why);
    if (r != 0 && r != 1) {
        emit(o, "...", 3), note_missing(o, c.cond, why);
        return;
    }
    char names[PL_FIG_NAME * 4], open[sizeof names + 2], close = PL_FIG_END;
    condition_names(c.cond, names, sizeof names);
    snprintf(open, sizeof open, "%c%s%c", PL_FIG_BEGIN, names, PL_FIG_SEP);
    emit(o, open, strlen(open));
    if (r == 1) fill_span(lab, c.then, c.nthen, o);
    else fill_span(lab, c.other, c.nother, o);
    emit(o, &close, 1);
}

static void fill_span(PlLab *lab, const char *text, size_t n, Out *o) {
    /* A branch's own spaces next to its bars are layout, not text. */
    while (n && text[0] == ' ') text++, n--;
    while (n && text[n - 1] == ' ') n--;
    for (size_t i = 0; i < n; i++) {
        const char *e = text[i] == '{' ? closing(text + i) : NULL;
        if (!e || e >= text + n) {
            emit(o, text + i, 1);
            continue;
        }
        if (text[i + 1] == '?') fill_cond(lab, text + i, e, o);
        else fill_placeholder(lab, text + i, e, o);
        i = (size_t)(e - text);
    }
}

/* Fills text into o; returns how many figures show as "...". */
static int fill_into(PlLab *lab, const char *text, Out *o) {
    if (o->cap <= 0) return 0;
    const char *t = text ? text : "";
    for (size_t i = 0, n = strlen(t); i < n;) { /* the whole text keeps its edges: only branches are trimmed */
        const char *e = t[i] == '{' ? closing(t + i) : NULL;
        if (!e) {
            emit(o, t + i, 1);
            i++;
            continue;
        }
        if (t[i + 1] == '?') fill_cond(lab, t + i, e, o);
        else fill_placeholder(lab, t + i, e, o);
        i = (size_t)(e - t) + 1;
    }
    o->out[o->n] = '\0';
    return o->missing;
}

/* Fills text with marked figures, then draws it through the ledger into
 * out. Returns how many figures show as "...", or -1 when out of memory. */
static int fill_drawn(PlLab *lab, const PlLedger *ledger, const char *text, char *out, int cap, char *why, int whycap) {
    if (cap <= 0) return 0;
    int mcap = 2 * cap + 1024; /* room for the marks, which the drawing drops */
    char stack[20 * 1024] = ""; /* a page's text fits here: filling it never runs out of memory */
    char *marked = mcap <= (int)sizeof stack ? stack : malloc((size_t)mcap);
    if (!marked) {
        snprintf(out, (size_t)cap, "...");
        if (whycap > 0) snprintf(why, (size_t)whycap, "out of memory");
        return -1;
    }
    Out o = {marked, 0, mcap, why, whycap, 0};
    int missing = fill_into(lab, text, &o);
    pl_ledger_draw(ledger, marked, out, (size_t)cap);
    if (marked != stack) free(marked);
    return missing;
}

const char *pl_fill(PlLab *lab, const PlLedger *ledger, const char *text, char *out, int cap) {
    fill_drawn(lab, ledger, text, out, cap, NULL, 0);
    return out;
}

int pl_fill_all(PlLab *lab, const PlLedger *ledger, const char *text, char *out, int cap, char *why, int whycap) {
    if (whycap > 0) why[0] = '\0';
    return fill_drawn(lab, ledger, text, out, cap, why, whycap) ? -1 : 0;
}

static void reads_span(const char *text, size_t n, Reads *rd) {
    for (size_t i = 0; i < n; i++) {
        const char *e = text[i] == '{' ? closing(text + i) : NULL;
        if (!e || e >= text + n) continue;
        char why[200];
        if (text[i + 1] == '?') {
            Cond c;
            if (!split(text + i + 2, (size_t)(e - text - (long)i - 2), &c, why, sizeof why)) {
                evaluate(NULL, c.cond, rd, why, sizeof why);
                reads_span(c.then, c.nthen, rd), reads_span(c.other, c.nother, rd);
            }
        } else {
            char name[96];
            PlQuantity q;
            snprintf(name, sizeof name, "%.*s", (int)(e - text - (long)i - 1), text + i + 1);
            if (!pl_quantity_parse(name, &q, why, sizeof why))
                rd->kinds |= pl_quantity_kinds(&q), rd->training |= pl_quantity_reads_training(&q);
        }
        i = (size_t)(e - text);
    }
}

unsigned pl_fill_kinds(const char *text) {
    Reads rd = {0, 0};
    if (text) reads_span(text, strlen(text), &rd);
    return rd.kinds;
}

int pl_fill_reads_training(const char *text) {
    Reads rd = {0, 0};
    if (text) reads_span(text, strlen(text), &rd);
    return rd.training;
}

int pl_fill_conditions(PlLab *lab, const char *text, void (*fn)(const char *cond, int holds, void *ctx), void *ctx) {
    int count = 0;
    for (const char *s = text ? strstr(text, "{?") : NULL; s; s = strstr(s + 2, "{?")) {
        const char *e = closing(s);
        Cond c;
        char why[200];
        if (!e || split(s + 2, (size_t)(e - s - 2), &c, why, sizeof why)) continue;
        int r = evaluate(lab, c.cond, NULL, why, sizeof why);
        count++;
        if (fn) fn(c.cond, r == 2 ? -1 : r, ctx);
    }
    return count;
}
