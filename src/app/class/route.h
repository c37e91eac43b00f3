/* What the class server answers, decided without the network: libmicrohttpd
 * reads the bytes of a request (server.c) and hands padlab its method, its
 * address, the t= argument, the class's cookie, the Accept header and the
 * body; this decides the status, the type, the body and the headers of the
 * answer, which server.c sends as they are. tests/fuzz/fuzz_http.c drives it
 * as the server does.
 *
 * Every answer carries the same headers first: its Content-Type, then
 * nothing kept, nothing sniffed, never framed, nothing run or fetched from
 * elsewhere (PL_CLASS_CSP); then a Location, a Set-Cookie or a Retry-After
 * where the answer has one. */
#ifndef PL_APP_CLASS_ROUTE_H
#define PL_APP_CLASS_ROUTE_H

#include <stddef.h>
#include <stdint.h>

#include "class.h"

#define PL_CLASS_BODY_MAX 512 /* a longer body gets 413 */
/* The pages' own addresses are short (/state?t= and 32 hex digits) and
 * carry one argument at most. */
#define PL_CLASS_URI_MAX 1024
#define PL_CLASS_URI_ARGS_MAX 4
#define PL_CLASS_COOKIE "padlab_class"
#define PL_CLASS_CSP                                                              \
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; " \
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'"
#define PL_CLASS_HEADERS_MAX 8

/* A request as libmicrohttpd read it. Every text is borrowed; NULL: absent. */
typedef struct {
    const char *method, *url; /* url: the path, without its arguments */
    const char *arg_t;        /* the address's t= argument (a token) */
    const char *cookie;       /* the value of the padlab_class cookie (a token) */
    const char *accept;       /* the Accept header */
    const char *body;         /* a POST's body, n bytes (at most PL_CLASS_BODY_MAX) */
    size_t n;
    int too_big; /* the body was longer than PL_CLASS_BODY_MAX: none of it kept */
    int bad_uri; /* pl_class_uri_refused refused its address */
} PlClassRequest;

typedef struct {
    const char *name;
    char value[200];
} PlClassHeader;

/* An answer. status 0: a join whose code was read (into code, upper case)
 * and waits for its turn (limit.h), after which pl_class_route_join answers
 * it. body is n bytes the answer owns (pl_class_response_done), NULL only
 * when memory ran out (no answer can be sent). */
typedef struct {
    unsigned status;
    char code[16];
    char *body;
    size_t n;
    PlClassHeader headers[PL_CLASS_HEADERS_MAX];
    int nheaders;
} PlClassResponse;

/* Whether a request's raw address (path and arguments, libmicrohttpd's own
 * buffer) is refused: longer than PL_CLASS_URI_MAX or with more than
 * PL_CLASS_URI_ARGS_MAX arguments. A refused one has its arguments cut off
 * where they begin, so that libmicrohttpd does not read them. 1 or 0. */
int pl_class_uri_refused(char *uri);

/* Answers rq from c (the session's lock is c's own): GET or HEAD of /,
 * /vote, /state; POST of /join (status 0 when its code was read) and
 * /answer; anything else a 4xx with one line. Each returns the status. */
unsigned pl_class_route(PlClass *c, const PlClassRequest *rq, PlClassResponse *out);
/* A join's turn: checks code, tried from addr at now_ms, and seats the
 * student with a token made from rnd (16 bytes; NULL: the system gave none,
 * 500), unless addr has seats students already (429, the message naming
 * seats). A token as a cookie, and as JSON when rq asked for it. */
unsigned pl_class_route_join(PlClass *c, const PlClassRequest *rq, const char *addr, const char *code, int64_t now_ms,
                             const unsigned char *rnd, int seats, PlClassResponse *out);
/* A join that could not have its turn: 503, try again in 5 seconds. */
unsigned pl_class_route_busy(PlClassResponse *out);
/* status with what, one line. */
unsigned pl_class_route_error(PlClassResponse *out, unsigned status, const char *what);
/* Frees the body. Harmless twice. */
void pl_class_response_done(PlClassResponse *out);

#endif
