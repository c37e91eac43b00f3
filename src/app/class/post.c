/* What a student posts: a form body (q=3&a=19.6&t=TOKEN, and s=1..3 for
 * how sure they are), read field by field with its %XX and + decoded, each
 * field bounded, and nothing but printable ASCII kept. The fuzz harness tests/fuzz/fuzz_post.c feeds it
 * anything. */
#include <stdlib.h>
#include <string.h>

#include "class.h"
#include "core/text.h"

#define POST_MAX 512

/* Decodes v[0..n) into out (cap bytes with its NUL): 0, or -1 when it is too
 * long, badly escaped or holds a byte that is not printable ASCII. */
static int decode(const char *v, size_t n, char *out, int cap) {
    int k = 0;
    for (size_t i = 0; i < n; i++) {
        int ch = (unsigned char)v[i];
        if (ch == '+') ch = ' ';
        else if (ch == '%') {
            if ((ch = pl_text_percent_byte(v + i, n - i)) < 0) return -1;
            i += 2;
        }
        if (ch < 0x20 || ch > 0x7e || k + 1 >= cap) return -1;
        out[k++] = (char)ch;
    }
    out[k] = 0;
    return 0;
}

int pl_class_form_field(const char *body, size_t n, const char *key, char *out, int cap) {
    size_t klen = strlen(key);
    if (n > POST_MAX) return -1;
    for (size_t i = 0; i < n;) {
        size_t end = i;
        while (end < n && body[end] != '&') end++;
        if (end - i > klen && !memcmp(body + i, key, klen) && body[i + klen] == '=')
            return decode(body + i + klen + 1, end - i - klen - 1, out, cap);
        i = end + 1;
    }
    return -2;
}

/* Every field is one of q, a, t and s, each at most once. */
static int fields_known(const char *body, size_t n) {
    int seen[4] = {0, 0, 0, 0};
    for (size_t i = 0; i < n;) {
        size_t end = i;
        while (end < n && body[end] != '&') end++;
        int k = end - i >= 2 && body[i + 1] == '=' ? (body[i] == 'q'   ? 0
                                                      : body[i] == 'a' ? 1
                                                      : body[i] == 't' ? 2
                                                      : body[i] == 's' ? 3
                                                                       : -1)
                                                   : -1;
        if (k < 0 || seen[k]++) return 0;
        i = end + 1;
    }
    return 1;
}

int pl_class_parse_post(const char *body, size_t n, PlClassPost *p, char *why, int cap) {
    char q[8];
    memset(p, 0, sizeof *p);
    if (n > POST_MAX) return snprintf(why, cap, "the answer is longer than %d bytes", POST_MAX), -1;
    if (memchr(body, 0, n) || !fields_known(body, n)) return snprintf(why, cap, "expected q=QUESTION&a=ANSWER"), -1;
    if (pl_class_form_field(body, n, "q", q, sizeof q) || !q[0] || strspn(q, "0123456789") != strlen(q))
        return snprintf(why, cap, "q is not a question's number"), -1;
    p->q = atoi(q);
    if (pl_class_form_field(body, n, "a", p->a, sizeof p->a) || !p->a[0])
        return snprintf(why, cap, "a is missing, empty or longer than %d characters", PL_CLASS_ANSWER_MAX - 1), -1;
    char t[PL_CLASS_TOKEN_HEX + 2] = "";
    int has_t = pl_class_form_field(body, n, "t", t, sizeof t);
    if (has_t == -1) return snprintf(why, cap, "t is not a token"), -1;
    if (!has_t) {
        if (strlen(t) != PL_CLASS_TOKEN_HEX || strspn(t, "0123456789abcdef") != PL_CLASS_TOKEN_HEX)
            return snprintf(why, cap, "t is not a token"), -1;
        memcpy(p->token, t, sizeof p->token);
    }
    char sure[4] = "";
    int has_s = pl_class_form_field(body, n, "s", sure, sizeof sure);
    if (has_s == -1 || (!has_s && (strlen(sure) != 1 || sure[0] < '1' || sure[0] > '3')))
        return snprintf(why, cap, "s (how sure) is 1, 2 or 3"), -1;
    p->sure = has_s ? 0 : sure[0] - '0';
    return 0;
}
