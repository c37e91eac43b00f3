/* libFuzzer harness: the class server's answers (app/class/route.h), driven
 * as server.c drives them once libmicrohttpd has read a request. The input
 * is requests, each a block of lines ended by a line "--":
 *
 *   METHOD ADDRESS          the first line: GET /state?t=$0, POST /answer, ...
 *   cookie: TEXT            the Cookie header (padlab_class=$1; other=x)
 *   accept: TEXT            the Accept header
 *   body: TEXT              a POST's body (over 512 bytes: too big)
 *   addr: TEXT              the client's address, for a join
 *   rnd: none               the system gave no random bytes, for a join
 *   ! open N | ! reveal X | ! again | ! close | ! end | ! text PROMPT
 *                           the teacher's moves, before the request
 *
 * $0..$9 in the address, the cookie and the body stand for the tokens of
 * the students seated so far (two are seated before the first request).
 * Whatever comes, every answer has a status the server uses, a body, the
 * headers every answer carries (no framing, CSP with frame-ancestors
 * 'none', nosniff, no-store); an error is one line; JSON is valid JSON; a
 * page never holds a tag from the lesson's text (! text <x-tag>); a join that seats
 * sets an HttpOnly SameSite=Strict cookie with a new token; and each
 * question's count in each round is exactly the students whose answer was
 * taken: a vote counted at most once per token. */
#include <math.h>

#include "app/class/limit.h"
#include "app/class/route.h"
#include "fuzz_util.h"

#define TOKENS 32

typedef struct {
    PlClass *c;
    char tokens[TOKENS][PL_CLASS_TOKEN_HEX + 1];
    int ntokens;
    unsigned char voted[2][2][PL_CLASS_MAX_STUDENTS]; /* [question][round][student]: an answer was taken */
    char prompt[600];                                 /* the lesson's text shown, as the teacher set it */
    int64_t now;
    unsigned seq;
} Http;

/* line with $N replaced by token N (when there is one) into out. */
static void expand(const Http *h, const char *line, char *out, size_t cap) {
    size_t k = 0;
    for (const char *p = line; *p && k + 1 < cap; p++) {
        if (*p == '$' && p[1] >= '0' && p[1] <= '9' && p[1] - '0' < h->ntokens) {
            const char *t = h->tokens[p[1] - '0'];
            size_t n = strlen(t) < cap - 1 - k ? strlen(t) : cap - 1 - k;
            memcpy(out + k, t, n), k += n, p++;
        } else out[k++] = *p;
    }
    out[k] = '\0';
}

static const PlClassHeader *header_of(const PlClassResponse *r, const char *name) {
    for (int i = 0; i < r->nheaders; i++)
        if (!strcmp(r->headers[i].name, name)) return &r->headers[i];
    return NULL;
}

static void check_headers(const PlClassResponse *r) {
    const PlClassHeader *csp = header_of(r, "Content-Security-Policy"), *xfo = header_of(r, "X-Frame-Options");
    const PlClassHeader *type = header_of(r, "Content-Type"), *sniff = header_of(r, "X-Content-Type-Options");
    const PlClassHeader *cache = header_of(r, "Cache-Control");
    FUZZ_CHECK(csp && strstr(csp->value, "frame-ancestors 'none'") && strstr(csp->value, "default-src 'none'"));
    FUZZ_CHECK(xfo && !strcmp(xfo->value, "DENY") && sniff && !strcmp(sniff->value, "nosniff"));
    FUZZ_CHECK(cache && !strcmp(cache->value, "no-store") && type && type->value[0]);
    for (int i = 0; i < r->nheaders; i++) FUZZ_CHECK(!strpbrk(r->headers[i].value, "\r\n"));
}

/* Whether body[0..n) holds text. */
static int holds(const char *body, size_t n, const char *text) {
    size_t k = strlen(text);
    for (size_t i = 0; k && i + k <= n; i++)
        if (!memcmp(body + i, text, k)) return 1;
    return 0;
}

/* What every answer holds, whatever the request. */
static void check_answer(const Http *h, const PlClassResponse *r) {
    static const unsigned used[] = {200, 303, 400, 401, 403, 404, 405, 409, 413, 429, 500, 503};
    int known = 0;
    for (size_t i = 0; i < sizeof used / sizeof *used; i++) known |= r->status == used[i];
    FUZZ_CHECK(known && r->body != NULL);
    check_headers(r);
    const char *type = header_of(r, "Content-Type")->value;
    if (r->status >= 400) { /* one line, its own words */
        FUZZ_CHECK(r->n > 1 && r->body[r->n - 1] == '\n' && !memchr(r->body, '\n', r->n - 1));
        FUZZ_CHECK(!strncmp(type, "text/plain", 10));
    }
    if (r->status == 303) {
        const PlClassHeader *loc = header_of(r, "Location");
        FUZZ_CHECK(loc && (!strcmp(loc->value, "/") || !strcmp(loc->value, "/vote")));
    }
    if (r->status == 200 && !strcmp(type, "application/json")) FUZZ_CHECK(fuzz_json_valid(r->body, r->n));
    if (r->status == 200 && !strncmp(type, "text/html", 9)) {
        FUZZ_CHECK(r->n > 15 && !memcmp(r->body, "<!DOCTYPE html>", 15));
        /* the lesson's text with markup in it never reaches a page as markup (no page has an <x- tag of its own) */
        if (strstr(h->prompt, "<x-")) FUZZ_CHECK(!holds(r->body, r->n, "<x-"));
    }
}

/* The teacher's move on a "! " line. */
static void teacher(Http *h, const char *move) {
    if (!strncmp(move, "open ", 5)) pl_class_open(h->c, atoi(move + 5) & 1);
    else if (!strncmp(move, "reveal ", 7)) pl_class_reveal(h->c, strtod(move + 7, NULL));
    else if (!strcmp(move, "again")) pl_class_again(h->c);
    else if (!strcmp(move, "close")) pl_class_close(h->c);
    else if (!strcmp(move, "end")) pl_class_end(h->c);
    else if (!strncmp(move, "text ", 5)) {
        snprintf(h->prompt, sizeof h->prompt, "%s", move + 5);
        pl_class_set_text(h->c, 0, h->prompt, NULL);
        pl_class_set_text(h->c, 1, h->prompt, NULL);
    }
}

/* The padlab_class cookie of a Cookie header, as libmicrohttpd reads it. */
static const char *cookie_value(char *header) {
    for (char *save = NULL, *kv = strtok_r(header, ";", &save); kv; kv = strtok_r(NULL, ";", &save)) {
        while (*kv == ' ') kv++;
        if (!strncmp(kv, PL_CLASS_COOKIE "=", sizeof PL_CLASS_COOKIE)) return kv + sizeof PL_CLASS_COOKIE;
    }
    return NULL;
}

/* A join whose code was read: its turn at once, as server.c gives it when
 * nothing is metered; a seated student's token is kept for $N. */
static void join(Http *h, const PlClassRequest *rq, const char *code, const char *addr, int no_rnd) {
    unsigned char rnd[16] = {0};
    h->seq++;
    memcpy(rnd, &h->seq, sizeof h->seq);
    int before = pl_class_students(h->c);
    PlClassResponse out;
    pl_class_route_join(h->c, rq, addr, code, h->now, no_rnd ? NULL : rnd, 3, &out);
    check_answer(h, &out);
    const PlClassHeader *set = header_of(&out, "Set-Cookie");
    FUZZ_CHECK((set != NULL) == (pl_class_students(h->c) == before + 1));
    if (set) {
        FUZZ_CHECK(strstr(set->value, "; HttpOnly") && strstr(set->value, "SameSite=Strict"));
        char t[PL_CLASS_TOKEN_HEX + 1];
        snprintf(t, sizeof t, "%s", set->value + sizeof PL_CLASS_COOKIE); /* the token, up to its ';' */
        FUZZ_CHECK(!strncmp(set->value, PL_CLASS_COOKIE "=", sizeof PL_CLASS_COOKIE) &&
                   pl_class_student(h->c, t) == before);
        if (h->ntokens < TOKENS) snprintf(h->tokens[h->ntokens++], PL_CLASS_TOKEN_HEX + 1, "%s", t);
    }
    pl_class_response_done(&out);
}

/* An answer taken: the student it counts for is marked in its round. */
static void taken(Http *h, const PlClassRequest *rq, int qi, int round) {
    PlClassPost p;
    char why[200];
    FUZZ_CHECK(pl_class_parse_post(rq->body, rq->n, &p, why, sizeof why) == 0 && p.q == qi);
    int s = rq->cookie ? pl_class_student(h->c, rq->cookie) : -1;
    if (s < 0) s = pl_class_student(h->c, p.token);
    FUZZ_CHECK(s >= 0);
    h->voted[qi][round - 1][s] = 1;
}

static void check_counts(Http *h) {
    int n = pl_class_students(h->c);
    for (int qi = 0; qi < 2; qi++)
        for (int r = 0; r < 2; r++) {
            int want = 0;
            for (int s = 0; s < n; s++) want += h->voted[qi][r][s];
            FUZZ_CHECK(pl_class_count(h->c, qi, r + 1) == want);
        }
}

/* One request block. */
static void request(Http *h, char *block) {
    char *save = NULL, *first = strtok_r(block, "\n", &save);
    if (!first) return;
    char uri[2048], cookie[600] = "", body[2048] = "", accept[200] = "", addr[64] = "10.0.0.1", targ[200];
    int has_cookie = 0, has_accept = 0, has_body = 0, no_rnd = 0;
    for (char *line = strtok_r(NULL, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (!strncmp(line, "! ", 2)) teacher(h, line + 2);
        else if (!strncmp(line, "cookie: ", 8)) expand(h, line + 8, cookie, sizeof cookie), has_cookie = 1;
        else if (!strncmp(line, "accept: ", 8)) snprintf(accept, sizeof accept, "%s", line + 8), has_accept = 1;
        else if (!strncmp(line, "body: ", 6)) expand(h, line + 6, body, sizeof body), has_body = 1;
        else if (!strncmp(line, "addr: ", 6)) snprintf(addr, sizeof addr, "%s", line + 6);
        else if (!strcmp(line, "rnd: none")) no_rnd = 1;
    }
    char *sp = strchr(first, ' ');
    if (!sp) return;
    *sp = '\0';
    expand(h, sp + 1, uri, sizeof uri);
    PlClassRequest rq = {.method = first, .url = uri};
    rq.bad_uri = pl_class_uri_refused(uri);
    char *q = strchr(uri, '?');
    if (q) { /* the t= argument, as libmicrohttpd finds it */
        *q = '\0';
        for (char *s2 = NULL, *kv = strtok_r(q + 1, "&", &s2); kv; kv = strtok_r(NULL, "&", &s2))
            if (!strncmp(kv, "t=", 2)) snprintf(targ, sizeof targ, "%s", kv + 2), rq.arg_t = targ;
    }
    rq.cookie = has_cookie ? cookie_value(cookie) : NULL;
    rq.accept = has_accept ? accept : NULL;
    size_t n = strlen(body);
    if (has_body && n > PL_CLASS_BODY_MAX) rq.too_big = 1;
    else if (has_body) rq.body = body, rq.n = n;
    PlClassNow now;
    pl_class_now(h->c, &now);
    PlClassResponse out;
    unsigned st = pl_class_route(h->c, &rq, &out);
    FUZZ_CHECK(st == out.status);
    if (st == 0) {
        FUZZ_CHECK(!strcmp(first, "POST") && !strcmp(uri, "/join") && !rq.bad_uri && out.body == NULL);
        join(h, &rq, out.code, addr, no_rnd);
    } else {
        check_answer(h, &out);
        if (!strcmp(uri, "/answer") && (st == 200 || st == 303)) taken(h, &rq, now.q, now.round);
    }
    pl_class_response_done(&out);
    check_counts(h);
    h->now += 1500;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    Http *h = calloc(1, sizeof *h);
    char *text = malloc(size + 1), why[200];
    FUZZ_CHECK(h && text);
    memcpy(text, data, size), text[size] = '\0';
    h->c = pl_class_new("K7P2Q");
    PlQuantity q;
    PlTolerance t = {PL_TOL_DEFAULT, 0};
    const char *choices[] = {"post", "pre", "none"};
    FUZZ_CHECK(h->c && pl_quantity_parse("batch.pad_share", &q, why, sizeof why) == 0);
    FUZZ_CHECK(pl_class_add_number(h->c, "share?", &q, &t, 0) == 0);
    FUZZ_CHECK(pl_class_add_choice(h->c, "which?", choices, 3, 1, 1) == 1);
    pl_class_seats_per_address(h->c, 3);
    for (int i = 0; i < 2; i++) {
        unsigned char rnd[16] = {(unsigned char)(0xa0 + i)};
        FUZZ_CHECK(pl_class_join(h->c, rnd, h->tokens[h->ntokens++]) == i);
    }
    pl_class_open(h->c, 0);
    for (char *p = text, *end; p; p = end) {
        end = strstr(p, "\n--\n");
        if (end) *end = '\0', end += 4;
        request(h, p);
    }
    pl_class_free(h->c);
    free(h), free(text);
    return 0;
}
