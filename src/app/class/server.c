/* The class server over libmicrohttpd (server.h). One polling thread reads
 * the requests; each is answered from the session's state under its lock. A
 * request's body is gathered up to BODY_MAX bytes (a longer one gets 413);
 * nothing a student sends is run, opened as a path or kept but as a vote. */
#include "server.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "student.h"

#define BODY_MAX 512
#define COOKIE "padlab_class"

struct PlClassServer {
    struct MHD_Daemon *d;
    PlClass *c;
    int port;
};

typedef struct {
    size_t n;
    int too_big;
    char body[BODY_MAX + 1];
} Req;

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Sends text with status and type; a Location and a Set-Cookie when given. */
static enum MHD_Result send_text(struct MHD_Connection *con, unsigned status, const char *type, const char *text,
                                 size_t n, const char *location, const char *cookie) {
    struct MHD_Response *r = MHD_create_response_from_buffer(n, (void *)text, MHD_RESPMEM_MUST_COPY);
    if (!r) return MHD_NO;
    MHD_add_response_header(r, "Content-Type", type);
    MHD_add_response_header(r, "Cache-Control", "no-store");
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "Content-Security-Policy",
                            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                            "connect-src 'self'; form-action 'self'");
    if (location) MHD_add_response_header(r, "Location", location);
    if (cookie) MHD_add_response_header(r, "Set-Cookie", cookie);
    enum MHD_Result rc = MHD_queue_response(con, status, r);
    MHD_destroy_response(r);
    return rc;
}

static enum MHD_Result send_error(struct MHD_Connection *con, unsigned status, const char *what) {
    char msg[300];
    int n = snprintf(msg, sizeof msg, "%s\n", what);
    return send_text(con, status, "text/plain; charset=utf-8", msg, (size_t)n, NULL, NULL);
}

/* Sends a page or JSON made by fn into memory. */
static enum MHD_Result send_made(struct MHD_Connection *con, unsigned status, const char *type,
                                 void (*fn)(FILE *, PlClass *, int, const char *), PlClass *c, int student,
                                 const char *note) {
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f) return send_error(con, 500, "out of memory");
    fn(f, c, student, note);
    if (fclose(f)) return free(buf), send_error(con, 500, "out of memory");
    enum MHD_Result rc = send_text(con, status, type, buf, n, NULL, NULL);
    free(buf);
    return rc;
}

static int wants_json(struct MHD_Connection *con) {
    const char *a = MHD_lookup_connection_value(con, MHD_HEADER_KIND, "Accept");
    return a && strstr(a, "application/json") && !strstr(a, "text/html");
}

static void client_addr(struct MHD_Connection *con, char *out, int cap) {
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(con, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    snprintf(out, cap, "?");
    if (!ci || !ci->client_addr) return;
    const struct sockaddr *sa = ci->client_addr;
    if (sa->sa_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, out, cap);
    else if (sa->sa_family == AF_INET6)
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, out, cap);
}

/* The student a request comes from: its cookie's token, else t= in its
 * body; -1 when neither is a known token. */
static int student_of(struct MHD_Connection *con, PlClass *c, const char *posted) {
    const char *t = MHD_lookup_connection_value(con, MHD_COOKIE_KIND, COOKIE);
    int s = t ? pl_class_student(c, t) : -1;
    return s >= 0 || !posted || !posted[0] ? s : pl_class_student(c, posted);
}

static enum MHD_Result do_join(struct MHD_Connection *con, PlClass *c, const Req *rq) {
    char code[16], addr[64], token[PL_CLASS_TOKEN_HEX + 1], cookie[128];
    if (pl_class_form_field(rq->body, rq->n, "code", code, sizeof code))
        return send_error(con, 400, "expected code=CODE");
    client_addr(con, addr, sizeof addr);
    for (char *p = code; *p; p++)
        if (*p >= 'a' && *p <= 'z') *p = (char)(*p - 'a' + 'A'); /* a code is read in any case */
    PlClassCodeTry r = pl_class_code_try(c, addr, code, now_ms());
    if (r == PL_CLASS_CODE_LIMITED)
        return send_error(con, 429, "too many wrong codes from this address: wait a minute");
    if (r == PL_CLASS_CODE_WRONG) return send_error(con, 403, "that is not this class's code");
    unsigned char rnd[16];
    if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd)
        return send_error(con, 500, "no random bytes for a token");
    if (pl_class_join(c, rnd, token) < 0) return send_error(con, 503, "the class is full");
    snprintf(cookie, sizeof cookie, COOKIE "=%s; Path=/; HttpOnly; SameSite=Strict", token);
    if (wants_json(con)) {
        char json[80];
        int n = snprintf(json, sizeof json, "{\"token\": \"%s\"}\n", token);
        return send_text(con, 200, "application/json", json, (size_t)n, NULL, cookie);
    }
    return send_text(con, 303, "text/plain", "", 0, "/vote", cookie);
}

static enum MHD_Result do_answer(struct MHD_Connection *con, PlClass *c, const Req *rq) {
    PlClassPost p;
    char why[200];
    if (pl_class_parse_post(rq->body, rq->n, &p, why, sizeof why)) return send_error(con, 400, why);
    int s = student_of(con, c, p.token);
    if (s < 0) return send_error(con, 401, "join the class first: no known token");
    if (pl_class_answer(c, s, p.q, p.a, why, sizeof why)) return send_error(con, 409, why);
    if (wants_json(con)) return send_made(con, 200, "application/json", pl_class_page_state, c, s, NULL);
    return send_text(con, 303, "text/plain", "", 0, "/vote", NULL);
}

static enum MHD_Result do_get(struct MHD_Connection *con, PlClass *c, const char *url) {
    int s = student_of(con, c, MHD_lookup_connection_value(con, MHD_GET_ARGUMENT_KIND, "t"));
    if (!strcmp(url, "/")) {
        if (s >= 0) return send_text(con, 303, "text/plain", "", 0, "/vote", NULL);
        return send_made(con, 200, "text/html; charset=utf-8", pl_class_page_join, c, -1, NULL);
    }
    if (!strcmp(url, "/vote")) {
        if (s < 0) return send_text(con, 303, "text/plain", "", 0, "/", NULL);
        return send_made(con, 200, "text/html; charset=utf-8", pl_class_page_vote, c, s, NULL);
    }
    if (!strcmp(url, "/state")) {
        if (s < 0) return send_error(con, 401, "join the class first: no known token");
        return send_made(con, 200, "application/json", pl_class_page_state, c, s, NULL);
    }
    return send_error(con, 404, "no such page");
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *con, const char *url, const char *method,
                              const char *version, const char *upload, size_t *upload_size, void **con_cls) {
    PlClassServer *sv = cls;
    (void)version;
    int post = !strcmp(method, "POST");
    if (!post && strcmp(method, "GET") && strcmp(method, "HEAD")) return send_error(con, 405, "GET or POST only");
    if (!post) return do_get(con, sv->c, url);
    Req *rq = *con_cls;
    if (!rq) {
        if (!(rq = calloc(1, sizeof *rq))) return MHD_NO;
        *con_cls = rq;
        return MHD_YES;
    }
    if (*upload_size) {
        if (rq->n + *upload_size > BODY_MAX) rq->too_big = 1;
        else memcpy(rq->body + rq->n, upload, *upload_size), rq->n += *upload_size;
        *upload_size = 0;
        return MHD_YES;
    }
    if (rq->too_big) return send_error(con, 413, "the request is longer than 512 bytes");
    if (!strcmp(url, "/join")) return do_join(con, sv->c, rq);
    if (!strcmp(url, "/answer")) return do_answer(con, sv->c, rq);
    return send_error(con, 404, "no such page");
}

static void completed(void *cls, struct MHD_Connection *con, void **con_cls, enum MHD_RequestTerminationCode toe) {
    (void)cls, (void)con, (void)toe;
    free(*con_cls);
    *con_cls = NULL;
}

/* addr and port as a socket address: 0, or -1 when addr is not an address. */
static int sock_addr(const char *addr, int port, struct sockaddr_storage *ss) {
    memset(ss, 0, sizeof *ss);
    struct sockaddr_in *v4 = (struct sockaddr_in *)(void *)ss;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)(void *)ss;
    if (inet_pton(AF_INET, addr, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET, v4->sin_port = htons((uint16_t)port);
        return 0;
    }
    if (inet_pton(AF_INET6, addr, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6, v6->sin6_port = htons((uint16_t)port);
        return 0;
    }
    return -1;
}

PlClassServer *pl_class_server_start(PlClass *c, const char *addr, int port, char *why, int cap) {
    struct sockaddr_storage ss;
    if (port < 0 || port > 65535) return snprintf(why, cap, "%d is not a port (0 to 65535)", port), NULL;
    if (sock_addr(addr, port, &ss))
        return snprintf(why, cap, "%.100s is not an IP address (such as 192.168.1.20 or 127.0.0.1)", addr), NULL;
    PlClassServer *sv = calloc(1, sizeof *sv);
    if (!sv) return snprintf(why, cap, "out of memory"), NULL;
    sv->c = c;
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO;
    if (ss.ss_family == AF_INET6) flags |= MHD_USE_IPv6;
    sv->d = MHD_start_daemon(flags, (uint16_t)port, NULL, NULL, handle, sv, MHD_OPTION_SOCK_ADDR,
                             (struct sockaddr *)&ss, MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
                             MHD_OPTION_CONNECTION_LIMIT, (unsigned)2000, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)30,
                             MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)16384, MHD_OPTION_END);
    if (!sv->d) {
        free(sv);
        return snprintf(why, cap, "cannot listen on %.100s port %d (taken, or not this machine's address)", addr, port),
               NULL;
    }
    const union MHD_DaemonInfo *di = MHD_get_daemon_info(sv->d, MHD_DAEMON_INFO_BIND_PORT);
    sv->port = di ? di->port : port;
    return sv;
}

int pl_class_server_port(const PlClassServer *s) { return s->port; }

void pl_class_server_stop(PlClassServer *s) {
    if (!s) return;
    MHD_stop_daemon(s->d);
    free(s);
}
