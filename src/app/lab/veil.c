#include "veil.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void pl_veil_add(PlVeil *v, double value) {
    if (v->n < PL_VEIL_MAX && isfinite(value)) v->v[v->n++] = value;
}

/* Where a number starts: a digit, or a sign or point right before one, not
 * inside a word ("x2", "fp16" hold no figure) nor after another number's
 * digits ("0.5-0.8" is two numbers). */
static int number_start(const char *text, size_t i) {
    char c = text[i];
    int digit_next = isdigit((unsigned char)text[i + 1]);
    if (!isdigit((unsigned char)c) && !((c == '-' || c == '.') && digit_next)) return 0;
    if (i == 0) return 1;
    char b = text[i - 1];
    if (c == '-' && (isdigit((unsigned char)b) || b == '.')) return 0;
    return !isalnum((unsigned char)b) && b != '_' && b != '.';
}

/* The length of the number at s: digits, a point and digits, an exponent,
 * a per cent sign. */
static size_t number_len(const char *s) {
    size_t i = s[0] == '-';
    while (isdigit((unsigned char)s[i])) i++;
    if (s[i] == '.' && isdigit((unsigned char)s[i + 1]))
        for (i++; isdigit((unsigned char)s[i]);) i++;
    if ((s[i] == 'e' || s[i] == 'E') &&
        (isdigit((unsigned char)s[i + 1]) || ((s[i + 1] == '-' || s[i + 1] == '+') && isdigit((unsigned char)s[i + 2]))))
        for (i += 2; isdigit((unsigned char)s[i]);) i++;
    if (s[i] == '%') i++;
    return i;
}

int pl_veil_number(const PlVeil *v, const char *s, size_t n) {
    if (!v || !v->n || n == 0 || n > 40) return 0;
    char buf[48];
    memcpy(buf, s, n);
    buf[n] = '\0';
    int pct = buf[n - 1] == '%';
    if (pct) buf[--n] = '\0';
    const char *dot = strchr(buf, '.'), *exp = strpbrk(buf, "eE");
    double t = strtod(buf, NULL), half;
    if (exp) /* 1.1e-08: half a unit in its mantissa's last digit */
        half = 0.5 * pow(10.0, strtod(exp + 1, NULL) - (dot && dot < exp ? (double)(exp - dot - 1) : 0.0));
    else if (dot) half = 0.5 * pow(10.0, -(double)(n - (size_t)(dot - buf) - 1));
    else half = 0.5;
    if (pct) t /= 100.0, half /= 100.0;
    int whole = !dot && !exp && !pct;
    for (int i = 0; i < v->n; i++) {
        double x = v->v[i];
        if (whole && fabs(x - rint(x)) > 1e-9 && fabs(x) < 10.0) continue; /* "0" or "1" shows no share */
        if (fabs(t - x) <= half * (1.0 + 1e-9)) return 1;
    }
    return 0;
}

const char *pl_veil_text(const PlVeil *v, const char *text, char *out, size_t cap) {
    size_t len = strlen(text);
    if (cap == 0) return out;
    if (len >= cap) len = cap - 1;
    memcpy(out, text, len);
    out[len] = '\0';
    if (!v || (!v->n)) return out;
    for (size_t i = 0; i < len; i++) {
        if (!number_start(out, i)) continue;
        size_t n = number_len(out + i);
        if (i + n > len) n = len - i;
        if (pl_veil_number(v, out + i, n)) memset(out + i, '?', n);
        i += n - 1;
    }
    return out;
}
