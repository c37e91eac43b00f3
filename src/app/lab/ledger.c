/* The ledger (ledger.h): which figures are hidden, the marks that carry a
 * figure's name to the drawer, and the drawing that resolves them. */
#include "ledger.h"

#include <stdlib.h>
#include <string.h>

void pl_ledger_clear(PlLedger *l) { memset(l, 0, sizeof *l); }

int pl_ledger_empty(const PlLedger *l) { return !l || (!l->n && !l->training); }

/* A figure of training: what the runs scored. How many seeds ran is the
 * learner's own setting, not a result. */
static int training_name(const char *s, size_t n) {
    if ((n >= 11 && memcmp(s, "train.seeds", 11) == 0) || (n >= 10 && memcmp(s, "grid.seeds", 10) == 0)) return 0;
    return (n > 6 && memcmp(s, "train.", 6) == 0) || (n > 5 && memcmp(s, "grid.", 5) == 0);
}

/* The runs a figure of training is read from (ledger.h's layout), into fam:
 * 0 for a figure that names none (grid.drift, read from two cells, says
 * which by its determiners) and for each seed's own figure ("runs"), which
 * a question hides by its name. */
static int family_of(const char *s, size_t n, char *fam, size_t cap) {
    if (!training_name(s, n)) return 0;
    const char *dot = memchr(s, '.', n), *open = memchr(s, '(', n);
    size_t stat = (size_t)((open ? open : s + n) - dot - 1);
    if (stat == 4 && memcmp(dot + 1, "runs", 4) == 0) return 0;
    if (s[0] == 't') return snprintf(fam, cap, "train"), 1;
    if (!open || s[n - 1] != ')') return 0;
    snprintf(fam, cap, "grid%.*s", (int)(s + n - open), open);
    return 1;
}

/* Whether figure s[0..n) is of the runs of family fam. */
static int in_family(const char *fam, const char *s, size_t n) {
    if (strcmp(fam, "*") == 0) return 1;
    if (strcmp(fam, "train") == 0) return n > 6 && memcmp(s, "train.", 6) == 0;
    if (strlen(fam) < 6) return 0;
    size_t arg = strlen(fam) - 4; /* "(CELL)" */
    return n > 5 + arg && memcmp(s, "grid.", 5) == 0 && memcmp(s + n - arg, fam + 4, arg) == 0;
}

/* Whether hidden entry h names s[0..n): the same name, or h is "NAME(*)"
 * and s is NAME with any argument (or none). */
static int entry_names(const char *h, const char *s, size_t n) {
    size_t hn = strlen(h);
    if (hn == n && memcmp(h, s, n) == 0) return 1;
    if (hn < 3 || strcmp(h + hn - 3, "(*)") != 0) return 0;
    size_t base = hn - 3;
    return n >= base && memcmp(h, s, base) == 0 && (n == base || s[base] == '(');
}

static int shown(const PlLedger *l, const char *s, size_t n) {
    for (int i = 0; i < l->nshown && i < PL_LEDGER_SHOWN; i++)
        if (strlen(l->shown[i]) == n && memcmp(l->shown[i], s, n) == 0) return 1;
    return 0;
}

void pl_ledger_show(PlLedger *l, const char *name) {
    size_t n = strlen(name);
    if (n && n < PL_FIG_NAME && l->nshown < PL_LEDGER_SHOWN && !shown(l, name, n))
        memcpy(l->shown[l->nshown++], name, n + 1);
}

void pl_ledger_unhide(PlLedger *l, const char *name) {
    if (l->n > PL_LEDGER_MAX) return; /* overflowed: it hides everything, never too little */
    for (int i = 0; i < l->n;)
        if (strcmp(l->name[i], name) == 0)
            memmove(l->name[i], l->name[i + 1], (size_t)(--l->n - i) * sizeof l->name[i]);
        else i++;
}

static int hides_one(const PlLedger *l, const char *s, size_t n) {
    if (n == 0) return 0;
    for (int i = 0; i < l->training && training_name(s, n); i++)
        if (in_family(l->runs[i], s, n) && !shown(l, s, n)) return 1;
    for (int i = 0; i < l->n; i++)
        if (entry_names(l->name[i], s, n)) return 1;
    return 0;
}

int pl_ledger_hides(const PlLedger *l, const char *names, size_t n) {
    if (pl_ledger_empty(l)) return 0;
    if (l->n > PL_LEDGER_MAX) return 1; /* overflowed: everything */
    for (size_t a = 0; a < n;) {
        size_t b = a;
        while (b < n && names[b] != ',') b++;
        if (hides_one(l, names + a, b - a)) return 1;
        a = b + 1;
    }
    return 0;
}

int pl_ledger_hides_name(const PlLedger *l, const char *name) { return pl_ledger_hides(l, name, strlen(name)); }

static void add_family(PlLedger *l, const char *fam) {
    for (int i = 0; i < l->training; i++)
        if (strcmp(l->runs[i], fam) == 0 || strcmp(l->runs[i], "*") == 0) return;
    if (l->training >= PL_LEDGER_RUNS) fam = "*", l->training = 0; /* too many: every run */
    snprintf(l->runs[l->training++], PL_FIG_NAME, "%s", fam);
}

void pl_ledger_hide_runs(PlLedger *l, const char *name) {
    char fam[PL_FIG_NAME];
    if (family_of(name, strlen(name), fam, sizeof fam)) add_family(l, fam);
}

void pl_ledger_runs_clear(PlLedger *l) { l->training = 0; }

void pl_ledger_runs_merge(PlLedger *dst, const PlLedger *src) {
    for (int i = 0; i < src->training; i++) add_family(dst, src->runs[i]);
}

/* Adds one name, unless it is there. */
static void add_name(PlLedger *l, const char *name, size_t n) {
    if (n == 0) return;
    char fam[PL_FIG_NAME]; /* and the runs it is read from, which pl_ledger_show may lift; the name stays */
    if (n < PL_FIG_NAME && family_of(name, n, fam, sizeof fam)) add_family(l, fam);
    for (int i = 0; i < l->n && i < PL_LEDGER_MAX; i++)
        if (strlen(l->name[i]) == n && memcmp(l->name[i], name, n) == 0) return;
    if (l->n >= PL_LEDGER_MAX || n >= PL_FIG_NAME) { /* hide too much rather than too little */
        l->n = PL_LEDGER_MAX + 1;
        return;
    }
    memcpy(l->name[l->n], name, n);
    l->name[l->n++][n] = '\0';
}

void pl_ledger_hide(PlLedger *l, const char *name) { add_name(l, name, strlen(name)); }

/* ---- writing ---- */

const char *pl_vfig(char *buf, size_t cap, const char *names, const char *fmt, va_list ap) {
    if (!names || !*names) return vsnprintf(buf, cap, fmt, ap), buf; /* no quantity: plain text, never hidden */
    if (cap < 4) return cap ? (buf[0] = '\0', buf) : buf;
    int k = snprintf(buf, cap, "%c%s%c", PL_FIG_BEGIN, names, PL_FIG_SEP);
    size_t n = k < 0 ? 0 : (size_t)k >= cap - 2 ? cap - 2 : (size_t)k;
    int t = vsnprintf(buf + n, cap - 1 - n, fmt, ap);
    n = t < 0 ? n : n + (size_t)t >= cap - 2 ? cap - 2 : n + (size_t)t;
    buf[n] = PL_FIG_END;
    buf[n + 1] = '\0';
    return buf;
}

const char *pl_fig(char *buf, size_t cap, const char *names, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    pl_vfig(buf, cap, names, fmt, ap);
    va_end(ap);
    return buf;
}

void pl_fig_fprintf(FILE *f, const PlLedger *l, const char *names, const char *fmt, ...) {
    char text[1024], drawn[1024];
    va_list ap;
    va_start(ap, fmt);
    pl_vfig(text, sizeof text, names, fmt, ap);
    va_end(ap);
    fputs(pl_ledger_draw(l, text, drawn, sizeof drawn), f);
}

const char *pl_fig_drawn(char *buf, size_t cap, const PlLedger *l, const char *names, const char *fmt, ...) {
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    pl_vfig(text, sizeof text, names, fmt, ap);
    va_end(ap);
    return pl_ledger_draw(l, text, buf, cap);
}

int pl_fig_marked(const char *text) { return text && strchr(text, PL_FIG_BEGIN) != NULL; }

/* ---- drawing ---- */

/* Where drawn text goes: a buffer (cut at a character's edge) or a file. */
typedef struct {
    char *out;
    size_t n, cap;
    FILE *f;
    int full; /* the buffer ran out: nothing more is written */
} Sink;

static void emit(Sink *k, const char *s, size_t n) {
    if (k->f) {
        fwrite(s, 1, n, k->f);
        return;
    }
    if (k->full) return;
    if (k->n + n >= k->cap) {
        size_t room = k->cap - 1 - k->n;
        while (room > 0 && ((unsigned char)s[room] & 0xC0) == 0x80) room--; /* not inside a character */
        n = room, k->full = 1;
    }
    memcpy(k->out + k->n, s, n);
    k->n += n;
}

/* The end of the mark that begins at s[0] (PL_FIG_BEGIN): the PL_FIG_END
 * that closes it, counting marks inside; NULL when it is not closed. */
static const char *mark_end(const char *s) {
    int depth = 0;
    for (; *s; s++) {
        if (*s == PL_FIG_BEGIN) depth++;
        else if (*s == PL_FIG_END && --depth == 0) return s;
    }
    return NULL;
}

/* A hidden figure's text, whatever it held: its width, its words, its
 * padding or whether it was empty would each tell something of the value
 * ("?" was 0 beside "????" for 0.67; "??????" was 100.0% beside "?????"
 * for 75.0%), so every hidden figure is drawn in this one shape. */
#define HIDDEN_SHAPE "?????"

static void draw_span(const PlLedger *l, const char *s, const char *e, PlDrawMode m, Sink *k);

/* The mark at s (to its end e): its text drawn, or hidden. */
static void draw_mark(const PlLedger *l, const char *s, const char *e, PlDrawMode m, Sink *k) {
    const char *sep = memchr(s + 1, PL_FIG_SEP, (size_t)(e - s - 1));
    if (!sep) return; /* a mark without a name: dropped */
    if (!pl_ledger_hides(l, s + 1, (size_t)(sep - s - 1))) return draw_span(l, sep + 1, e, m, k);
    if (m == PL_DRAW_JSON) return emit(k, "null", 4);
    emit(k, HIDDEN_SHAPE, sizeof HIDDEN_SHAPE - 1);
}

static int mark_byte(char c) { return c == PL_FIG_BEGIN || c == PL_FIG_SEP || c == PL_FIG_END; }

static void draw_span(const PlLedger *l, const char *s, const char *e, PlDrawMode m, Sink *k) {
    while (s < e) {
        const char *next = s;
        while (next < e && !mark_byte(*next)) next++;
        if (next > s) emit(k, s, (size_t)(next - s));
        if (next >= e) return;
        const char *end = *next == PL_FIG_BEGIN ? mark_end(next) : NULL;
        if (*next == PL_FIG_BEGIN && (!end || end >= e)) { /* cut before its end: a mark to the end of the text */
            draw_mark(l, next, e, m, k);
            return;
        }
        if (end) {
            draw_mark(l, next, end, m, k);
            s = end + 1;
        } else s = next + 1; /* a stray mark byte: dropped */
    }
}

const char *pl_ledger_draw(const PlLedger *l, const char *in, char *out, size_t cap) {
    if (!cap) return out;
    Sink k = {out, 0, cap, NULL, 0};
    if (in) draw_span(l, in, in + strlen(in), PL_DRAW_TEXT, &k);
    out[k.n] = '\0';
    return out;
}

int pl_ledger_fputs(const PlLedger *l, const char *in, PlDrawMode m, FILE *f) {
    Sink k = {NULL, 0, 0, f, 0};
    if (in) draw_span(l, in, in + strlen(in), m, &k);
    return ferror(f) ? -1 : 0;
}

char *pl_ledger_draw_new(const PlLedger *l, const char *in, PlDrawMode m) {
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f) return NULL;
    int bad = pl_ledger_fputs(l, in, m, f);
    if (fclose(f) != 0 || bad) {
        free(buf);
        return NULL;
    }
    return buf;
}

