#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t pl_utf8_seq_len(const unsigned char *p, size_t n) {
    unsigned char c = p[0];
    if (c < 0x80) return 1;
    size_t len;
    unsigned char lo = 0x80, hi = 0xBF; /* allowed range of the second byte */
    if (c >= 0xC2 && c <= 0xDF) len = 2;
    else if (c == 0xE0) {
        len = 3;
        lo = 0xA0;
    } else if (c >= 0xE1 && c <= 0xEC) len = 3;
    else if (c == 0xED) {
        len = 3;
        hi = 0x9F;
    } else if (c >= 0xEE && c <= 0xEF) len = 3;
    else if (c == 0xF0) {
        len = 4;
        lo = 0x90;
    } else if (c >= 0xF1 && c <= 0xF3) len = 4;
    else if (c == 0xF4) {
        len = 4;
        hi = 0x8F;
    } else return 0;
    if (n < len) return 0;
    if (p[1] < lo || p[1] > hi) return 0;
    for (size_t i = 2; i < len; i++)
        if (p[i] < 0x80 || p[i] > 0xBF) return 0;
    return len;
}

size_t pl_text_clean_cap(size_t n) { return 3 * n + 1; }

/* Keras's default filter characters, plus tab and newline (and NUL, which
 * the loaders refuse but an in-memory text may hold), become spaces; ASCII
 * capitals become small letters. One entry per ASCII byte, so the cleaner
 * maps a byte with one lookup instead of a scan of the filter list. */
#define FILTERED(c)                                                                                                   \
    ((c) == 0 || (c) == '!' || (c) == '"' || (c) == '#' || (c) == '$' || (c) == '%' || (c) == '&' || (c) == '(' ||    \
     (c) == ')' || (c) == '*' || (c) == '+' || (c) == ',' || (c) == '-' || (c) == '.' || (c) == '/' || (c) == ':' ||  \
     (c) == ';' || (c) == '<' || (c) == '=' || (c) == '>' || (c) == '?' || (c) == '@' || (c) == '[' || (c) == '\\' || \
     (c) == ']' || (c) == '^' || (c) == '_' || (c) == '`' || (c) == '{' || (c) == '|' || (c) == '}' || (c) == '~' ||  \
     (c) == '\t' || (c) == '\n')
#define MAP(c) (unsigned char)(FILTERED(c) ? ' ' : (c) >= 'A' && (c) <= 'Z' ? (c) + 32 : (c))
#define MAP4(c) MAP(c), MAP(c + 1), MAP(c + 2), MAP(c + 3)
#define MAP16(c) MAP4(c), MAP4(c + 4), MAP4(c + 8), MAP4(c + 12)
static const unsigned char ascii_map[128] = {MAP16(0),  MAP16(16), MAP16(32), MAP16(48),
                                             MAP16(64), MAP16(80), MAP16(96), MAP16(112)};

typedef signed char Bytes16 __attribute__((vector_size(16)));

static Bytes16 in_range(Bytes16 v, signed char lo, signed char hi) { return (Bytes16)((v >= lo) & (v <= hi)); }

/* ascii_map for 16 plain ASCII bytes at once (SSE2, which every x86-64 has). */
static void map16(const unsigned char *p, char *out) {
    Bytes16 v;
    memcpy(&v, p, 16);
    Bytes16 filtered = (Bytes16)((v == 0) | (v == '\t') | (v == '\n')) | in_range(v, '!', '&') | in_range(v, '(', '/') |
                       in_range(v, ':', '@') | in_range(v, '[', '`') | in_range(v, '{', '~');
    Bytes16 mapped = v + (in_range(v, 'A', 'Z') & 32);
    Bytes16 r = (filtered & ' ') | (~filtered & mapped);
    memcpy(out, &r, 16);
}

/* Bit i set when p[i] is not plain ASCII (a byte >= 0x80) or is '<'. */
static unsigned special16(const unsigned char *p) {
    Bytes16 v;
    memcpy(&v, p, 16);
    return (unsigned)__builtin_ia32_pmovmskb128((__attribute__((vector_size(16))) char)((v < 0) | (v == '<')));
}

/* The plain ASCII bytes from p[*i] on, up to the next special one: 16 at a
 * time while a whole block is plain, then one lookup a byte. */
static void plain_run(const unsigned char *p, size_t n, size_t *i, char *out, size_t *o) {
    while (n - *i >= 16) {
        unsigned special = special16(p + *i);
        if (special) {
            for (size_t k = (size_t)__builtin_ctz(special); k > 0; k--) out[(*o)++] = (char)ascii_map[p[(*i)++]];
            return;
        }
        map16(p + *i, out + *o);
        *i += 16, *o += 16;
    }
    while (*i < n && p[*i] < 0x80 && p[*i] != '<') out[(*o)++] = (char)ascii_map[p[(*i)++]];
}

size_t pl_text_clean(const char *in, size_t n, char *out) {
    const unsigned char *p = (const unsigned char *)in;
    size_t i = 0, o = 0;
    while (i < n) {
        plain_run(p, n, &i, out, &o); /* the common case */
        if (i == n) break;
        if (p[i] == '<') {
            if (n - i >= 6 && memcmp(p + i, "<br />", 6) == 0) {
                out[o++] = ' ';
                i += 6;
            } else {
                out[o++] = ' ';
                i++;
            }
            continue;
        }
        size_t len = pl_utf8_seq_len(p + i, n - i);
        if (len == 0) { /* not UTF-8: U+FFFD stands in for the byte */
            memcpy(out + o, "\xEF\xBF\xBD", 3);
            o += 3;
            i += 1;
        } else {
            memcpy(out + o, p + i, len);
            /* Latin-1 capitals U+00C0..U+00DE (but not U+00D7, the sign x). */
            if (len == 2 && p[i] == 0xC3 && p[i + 1] >= 0x80 && p[i + 1] <= 0x9E && p[i + 1] != 0x97)
                out[o + 1] = (char)(p[i + 1] + 0x20);
            o += len;
            i += len;
        }
    }
    out[o] = '\0';
    return o;
}

size_t pl_text_split(const char *clean, size_t n, PlTokenFn fn, void *ctx) {
    size_t count = 0, i = 0;
    while (i < n) {
        while (i < n && clean[i] == ' ') i++;
        size_t start = i;
        while (i < n && clean[i] != ' ') i++;
        if (i > start) {
            fn(clean + start, i - start, ctx);
            count++;
        }
    }
    return count;
}

/* Length of the UTF-8 sequence at p as a terminal reads it (1 to 4), or 0
 * when it is not one. Looser than pl_utf8_seq_len: what it lets through is
 * shown, not acted on. */
static int shown_len(const unsigned char *p) {
    int n = p[0] < 0x80 ? 1 : (p[0] & 0xE0) == 0xC0 ? 2 : (p[0] & 0xF0) == 0xE0 ? 3 : (p[0] & 0xF8) == 0xF0 ? 4 : 0;
    if (n == 2 && p[0] < 0xC2) return 0; /* overlong */
    for (int i = 1; i < n; i++)
        if ((p[i] & 0xC0) != 0x80) return 0;
    return n;
}

int pl_text_shown_char(const char *s, char out[7]) {
    const unsigned char *p = (const unsigned char *)s;
    int k = *p ? shown_len(p) : 0;
    out[0] = '\0';
    if (!*p) return 0;
    if (k == 0 || (k == 1 && (*p < 0x20 || *p == 0x7F))) snprintf(out, 7, "\\x%02x", *p), k = 1;
    else if (k == 2 && p[0] == 0xC2 && p[1] < 0xA0) snprintf(out, 7, "\\u%04x", p[1]);
    else memcpy(out, p, (size_t)k), out[k] = '\0';
    return k;
}

char *pl_text_printable(const char *s) {
    char *d = malloc(6 * strlen(s) + 1), *q = d, c[7];
    if (!d) return NULL;
    for (int k; (k = pl_text_shown_char(s, c)) > 0; s += k) q = stpcpy(q, c);
    *q = '\0';
    return d;
}

int pl_text_put_printable(FILE *f, const char *s) {
    char c[7];
    for (int k; (k = pl_text_shown_char(s, c)) > 0; s += k)
        if (fputs(c, f) == EOF) return -1;
    return 0;
}

static int hex_digit(int c) {
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

int pl_text_percent_byte(const char *s, size_t left) {
    if (left < 3) return -1;
    int hi = hex_digit((unsigned char)s[1]), lo = hi < 0 ? -1 : hex_digit((unsigned char)s[2]);
    return lo < 0 || (hi == 0 && lo == 0) ? -1 : hi * 16 + lo;
}

int pl_text_put_printable_lines(FILE *f, const char *s) {
    char c[7];
    for (int k; (k = pl_text_shown_char(s, c)) > 0; s += k)
        if (*s == '\n' ? fputc('\n', f) == EOF : fputs(c, f) == EOF) return -1;
    return 0;
}

int pl_text_vprintf_lines(FILE *f, const char *fmt, va_list ap) {
    char line[20000]; /* more than any filled text (8192) with its label */
    vsnprintf(line, sizeof line, fmt, ap);
    return pl_text_put_printable_lines(f, line);
}

int pl_text_printf_lines(FILE *f, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int rc = pl_text_vprintf_lines(f, fmt, ap);
    va_end(ap);
    return rc;
}
