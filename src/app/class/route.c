/* The class server's answers (route.h): which page, which status, which
 * headers; nothing here touches the network, the clock or randomness. */
#include "route.h"

#include <stdlib.h>
#include <string.h>

#include "limit.h"
#include "student.h"

static void header(PlClassResponse *out, const char *name, const char *value) {
    if (out->nheaders >= PL_CLASS_HEADERS_MAX) return;
    PlClassHeader *h = &out->headers[out->nheaders++];
    h->name = name;
    snprintf(h->value, sizeof h->value, "%s", value);
}

/* An answer holding n bytes of text (copied), with the headers every
 * answer carries. */
static unsigned answer(PlClassResponse *out, unsigned status, const char *type, const char *text, size_t n) {
    memset(out, 0, sizeof *out);
    out->status = status;
    if ((out->body = malloc(n ? n : 1))) memcpy(out->body, text, n), out->n = n;
    header(out, "Content-Type", type);
    header(out, "Cache-Control", "no-store");
    header(out, "X-Content-Type-Options", "nosniff");
    header(out, "X-Frame-Options", "DENY");
    header(out, "Content-Security-Policy", PL_CLASS_CSP);
    return status;
}

unsigned pl_class_route_error(PlClassResponse *out, unsigned status, const char *what) {
    char msg[300];
    int n = snprintf(msg, sizeof msg, "%s\n", what);
    return answer(out, status, "text/plain; charset=utf-8", msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1);
}

unsigned pl_class_route_busy(PlClassResponse *out) {
    static const char msg[] = "the class is busy checking join codes: try again in a few seconds\n";
    answer(out, 503, "text/plain; charset=utf-8", msg, sizeof msg - 1);
    header(out, "Retry-After", "5");
    return 503;
}

static unsigned see_other(PlClassResponse *out, const char *where) {
    answer(out, 303, "text/plain", "", 0);
    header(out, "Location", where);
    return 303;
}

void pl_class_response_done(PlClassResponse *out) {
    free(out->body);
    out->body = NULL, out->n = 0;
}

/* A page or JSON made by fn for student. */
static unsigned made(PlClassResponse *out, const char *type, void (*fn)(FILE *, PlClass *, int, const char *),
                     PlClass *c, int student) {
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f) return pl_class_route_error(out, 500, "out of memory");
    fn(f, c, student, NULL);
    if (fclose(f)) return free(buf), pl_class_route_error(out, 500, "out of memory");
    answer(out, 200, type, buf, n);
    free(buf);
    return 200;
}

static int wants_json(const PlClassRequest *rq) {
    return rq->accept && strstr(rq->accept, "application/json") && !strstr(rq->accept, "text/html");
}

/* The student a request comes from: its cookie's token, else the token it
 * sent (t=); -1 when neither is a known token. */
static int student_of(PlClass *c, const PlClassRequest *rq, const char *sent) {
    int s = rq->cookie ? pl_class_student(c, rq->cookie) : -1;
    return s >= 0 || !sent || !sent[0] ? s : pl_class_student(c, sent);
}

int pl_class_uri_refused(char *uri) {
    char *q = strchr(uri, '?');
    int args = q && q[1];
    for (const char *p = q; p && *p; p++) args += *p == '&';
    if (strlen(uri) <= PL_CLASS_URI_MAX && args <= PL_CLASS_URI_ARGS_MAX) return 0;
    if (q) q[1] = '\0';
    return 1;
}

unsigned pl_class_route_join(PlClass *c, const PlClassRequest *rq, const char *addr, const char *code, int64_t now_ms,
                             const unsigned char *rnd, int seats, PlClassResponse *out) {
    char token[PL_CLASS_TOKEN_HEX + 1], cookie[128], msg[200];
    PlClassCodeTry r = pl_class_code_try(c, addr, code, now_ms);
    if (r == PL_CLASS_CODE_LIMITED)
        return pl_class_route_error(out, 429,
                                    pl_class_code_metered(c, addr, now_ms) & PL_LIMIT_ADDRESS
                                        ? "too many wrong codes from this address: check the code on the projector "
                                          "(the right one still joins)"
                                        : "too many wrong codes tried in this class this minute: check the code on "
                                          "the projector (the right one still joins)");
    if (r == PL_CLASS_CODE_WRONG) return pl_class_route_error(out, 403, "that is not this class's code");
    if (!rnd) return pl_class_route_error(out, 500, "no random bytes for a token");
    if (pl_class_seat_take(c, addr)) {
        snprintf(msg, sizeof msg,
                 "%d students have joined from this address already, as many as the teacher allows for one address",
                 seats);
        return pl_class_route_error(out, 429, msg);
    }
    if (pl_class_join(c, rnd, token) < 0) {
        pl_class_seat_give(c, addr);
        return pl_class_route_error(out, 503, "the class is full");
    }
    snprintf(cookie, sizeof cookie, PL_CLASS_COOKIE "=%s; Path=/; HttpOnly; SameSite=Strict", token);
    if (wants_json(rq)) {
        char json[80];
        int n = snprintf(json, sizeof json, "{\"token\": \"%s\"}\n", token);
        answer(out, 200, "application/json", json, (size_t)n);
    } else see_other(out, "/vote");
    header(out, "Set-Cookie", cookie);
    return out->status;
}

/* A join's code, read; status 0 for its turn. */
static unsigned join_code(const PlClassRequest *rq, PlClassResponse *out) {
    memset(out, 0, sizeof *out);
    if (pl_class_form_field(rq->body, rq->n, "code", out->code, sizeof out->code))
        return pl_class_route_error(out, 400, "expected code=CODE");
    for (char *p = out->code; *p; p++)
        if (*p >= 'a' && *p <= 'z') *p = (char)(*p - 'a' + 'A'); /* a code is read in any case */
    return 0;
}

static unsigned do_answer(PlClass *c, const PlClassRequest *rq, PlClassResponse *out) {
    PlClassPost p;
    char why[200];
    if (pl_class_parse_post(rq->body, rq->n, &p, why, sizeof why)) return pl_class_route_error(out, 400, why);
    int s = student_of(c, rq, p.token);
    if (s < 0) return pl_class_route_error(out, 401, "join the class first: no known token");
    if (pl_class_answer(c, s, p.q, p.a, why, sizeof why)) return pl_class_route_error(out, 409, why);
    if (p.sure && pl_class_rate(c, s, p.q, p.sure, why, sizeof why)) return pl_class_route_error(out, 409, why);
    if (wants_json(rq)) return made(out, "application/json", pl_class_page_state, c, s);
    return see_other(out, "/vote");
}

static unsigned do_get(PlClass *c, const PlClassRequest *rq, PlClassResponse *out) {
    int s = student_of(c, rq, rq->arg_t);
    if (!strcmp(rq->url, "/")) {
        if (s >= 0) return see_other(out, "/vote");
        return made(out, "text/html; charset=utf-8", pl_class_page_join, c, -1);
    }
    if (!strcmp(rq->url, "/vote")) {
        if (s < 0) return see_other(out, "/");
        return made(out, "text/html; charset=utf-8", pl_class_page_vote, c, s);
    }
    if (!strcmp(rq->url, "/state")) {
        if (s < 0) return pl_class_route_error(out, 401, "join the class first: no known token");
        return made(out, "application/json", pl_class_page_state, c, s);
    }
    return pl_class_route_error(out, 404, "no such page");
}

unsigned pl_class_route(PlClass *c, const PlClassRequest *rq, PlClassResponse *out) {
    PlClassRequest in = *rq;
    if (!in.body) in.body = "", in.n = 0; /* a GET's */
    rq = &in;
    if (rq->bad_uri)
        return pl_class_route_error(out, 400, "the address is too long or has too many arguments (the pages send one)");
    int post = !strcmp(rq->method, "POST");
    if (!post && strcmp(rq->method, "GET") && strcmp(rq->method, "HEAD"))
        return pl_class_route_error(out, 405, "GET or POST only");
    if (!post) return do_get(c, rq, out);
    if (rq->too_big) return pl_class_route_error(out, 413, "the request is longer than 512 bytes");
    if (!strcmp(rq->url, "/join")) return join_code(rq, out);
    if (!strcmp(rq->url, "/answer")) return do_answer(c, rq, out);
    return pl_class_route_error(out, 404, "no such page");
}
