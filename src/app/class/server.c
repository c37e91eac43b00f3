/* The class server over libmicrohttpd (server.h). One polling thread reads
 * the requests; each is answered from the session's state under its lock by
 * route.h, which decides every answer (this file sends it). A request's body
 * is gathered up to PL_CLASS_BODY_MAX bytes (a longer one gets 413);
 * nothing a student sends is run, opened as a path or kept but as a vote.
 *
 * A join's code waits its turn when its address or the class is metered
 * (limit.h): the request is suspended and kept in held[0..nheld), and the
 * pacer, a thread of its own, lets each go when the limiter gives it a turn,
 * the one whose address has the fewest wrong tries first, then the one that
 * came first; one that waits HOLD_MAX_MS is told to try again, its code
 * unchecked. Lock order: the server's mu, then the class's; no
 * libmicrohttpd call is made under mu (libmicrohttpd calls back under its
 * own locks). */
#include "server.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <microhttpd.h>
#include <net/if.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <time.h>

#include "limit.h"
#include "route.h"

/* Connections at once: all of them (fewer when the process may not open
 * that many files), and from one address: as many as the class has seats,
 * a whole class on one shared machine or behind one NAT (a page polls on
 * one kept-alive connection), so that one address can hold at most a
 * quarter of them and the rest stay free for everyone else. */
#define CONNECTIONS 2000
#define CONNECTIONS_PER_ADDRESS PL_CLASS_MAX_STUDENTS
#define FILES_SPARE 64 /* the files padlab itself keeps open */
/* Seconds a connection may stay silent: a page polls every second, so only
 * a client that stalls mid-request or idles is cut. libmicrohttpd 0.9.75 has
 * no timeout of its own for the headers: this one counts silence, and the
 * limit per address bounds what a client trickling bytes can hold. */
#define IDLE_SECONDS 10
/* How long a join may wait its turn: under padlab join's 10 s. */
#define HOLD_MAX_MS 8000

typedef enum { PACE_NEW, PACE_HELD, PACE_GO, PACE_BUSY, PACE_ENDED } Pace;

typedef struct {
    size_t n;
    int too_big;
    char body[PL_CLASS_BODY_MAX + 1];
    /* a join: its code, and its place while it waits its turn */
    Pace pace;
    char code[16];
    char addr[64];
    struct MHD_Connection *con;
    int wrong;         /* its address's wrong tries when it came: fewer go first */
    unsigned long seq; /* then the earlier */
    int64_t came_ms, not_before_ms;
} Req;

struct PlClassServer {
    struct MHD_Daemon *d;
    PlClass *c;
    int port;
    pthread_mutex_t mu; /* guards what follows */
    pthread_cond_t wake;
    pthread_t pacer;
    Req **held; /* nheld of them, at most cap (the connections) */
    int nheld, cap;
    struct MHD_Connection **going; /* the pacer's: the ones one pass lets go */
    unsigned long seq;
    int stopping;
    int seats; /* students per address, 0: no cap */
};

/* The marker of a request whose address is too long or has too many arguments. */
static char bad_uri;

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Sends out as it is (route.h) and lets go of its body. */
static enum MHD_Result send_out(struct MHD_Connection *con, PlClassResponse *out) {
    struct MHD_Response *r =
        out->body ? MHD_create_response_from_buffer(out->n, out->body, MHD_RESPMEM_MUST_COPY) : NULL;
    for (int i = 0; r && i < out->nheaders; i++)
        MHD_add_response_header(r, out->headers[i].name, out->headers[i].value);
    enum MHD_Result rc = r ? MHD_queue_response(con, out->status, r) : MHD_NO;
    if (r) MHD_destroy_response(r);
    pl_class_response_done(out);
    return rc;
}

static enum MHD_Result send_error(struct MHD_Connection *con, unsigned status, const char *what) {
    PlClassResponse out;
    pl_class_route_error(&out, status, what);
    return send_out(con, &out);
}

/* What libmicrohttpd read of a request, as route.h takes it. */
static void request_of(struct MHD_Connection *con, const char *method, const char *url, const Req *rq, int bad,
                       PlClassRequest *in) {
    memset(in, 0, sizeof *in);
    in->method = method, in->url = url, in->bad_uri = bad;
    in->arg_t = MHD_lookup_connection_value(con, MHD_GET_ARGUMENT_KIND, "t");
    in->cookie = MHD_lookup_connection_value(con, MHD_COOKIE_KIND, PL_CLASS_COOKIE);
    in->accept = MHD_lookup_connection_value(con, MHD_HEADER_KIND, "Accept");
    if (rq) in->body = rq->body, in->n = rq->n, in->too_big = rq->too_big;
}

/* The client's address as text; an IPv4 client of a dual-stack server
 * (::ffff:a.b.c.d) as IPv4, so that it is counted as one. */
static void client_addr(struct MHD_Connection *con, char *out, int cap) {
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(con, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    snprintf(out, cap, "?");
    if (!ci || !ci->client_addr) return;
    const struct sockaddr *sa = ci->client_addr;
    if (sa->sa_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, out, cap);
    else if (sa->sa_family == AF_INET6) {
        const struct in6_addr *a = &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr;
        if (IN6_IS_ADDR_V4MAPPED(a)) inet_ntop(AF_INET, a->s6_addr + 12, out, cap);
        else inet_ntop(AF_INET6, a, out, cap);
    }
}

/* Checks a join's code (its turn taken) and seats the student. */
static enum MHD_Result do_join(struct MHD_Connection *con, PlClassServer *sv, const PlClassRequest *in, const Req *rq) {
    unsigned char rnd[16];
    int have = getrandom(rnd, sizeof rnd, 0) == (ssize_t)sizeof rnd;
    pthread_mutex_lock(&sv->mu);
    int seats = sv->seats;
    pthread_mutex_unlock(&sv->mu);
    PlClassResponse out;
    pl_class_route_join(sv->c, in, rq->addr, rq->code, now_ms(), have ? rnd : NULL, seats, &out);
    return send_out(con, &out);
}

/* A join: checked at once when nothing is metered and none waits, else
 * suspended until the pacer gives it its turn (or tells it to try again). */
static enum MHD_Result join_paced(struct MHD_Connection *con, PlClassServer *sv, const PlClassRequest *in, Req *rq) {
    if (rq->pace == PACE_BUSY) {
        PlClassResponse out;
        pl_class_route_busy(&out);
        return send_out(con, &out);
    }
    if (rq->pace == PACE_ENDED) return send_error(con, 503, "the class has ended");
    if (rq->pace == PACE_GO) return do_join(con, sv, in, rq);
    client_addr(con, rq->addr, sizeof rq->addr);
    pthread_mutex_lock(&sv->mu);
    int64_t now = now_ms();
    int wait = sv->nheld > 0 || pl_class_code_turn(sv->c, rq->addr, now) != 0;
    int room = !sv->stopping && sv->nheld < sv->cap;
    if (wait && room) {
        rq->pace = PACE_HELD, rq->con = con, rq->seq = sv->seq++;
        rq->came_ms = now, rq->not_before_ms = 0;
        rq->wrong = pl_class_code_wrong(sv->c, rq->addr, now);
    }
    pthread_mutex_unlock(&sv->mu);
    if (!wait) return do_join(con, sv, in, rq);
    if (!room) {
        PlClassResponse out;
        pl_class_route_busy(&out);
        return send_out(con, &out);
    }
    MHD_suspend_connection(con); /* before the pacer can see it: it resumes only what is suspended */
    pthread_mutex_lock(&sv->mu);
    int ended = sv->stopping;
    if (ended) rq->pace = PACE_ENDED;
    else sv->held[sv->nheld++] = rq, pthread_cond_signal(&sv->wake);
    pthread_mutex_unlock(&sv->mu);
    if (ended) MHD_resume_connection(con);
    return MHD_YES;
}

/* A POST's body is gathered first (a call per piece), then answered; a
 * join held for its turn is answered when the pacer resumes it. */
static enum MHD_Result handle(void *cls, struct MHD_Connection *con, const char *url, const char *method,
                              const char *version, const char *upload, size_t *upload_size, void **con_cls) {
    PlClassServer *sv = cls;
    (void)version;
    int bad = *con_cls == &bad_uri;
    Req *rq = bad ? NULL : *con_cls;
    if (!bad && !strcmp(method, "POST")) {
        if (!rq) {
            if (!(rq = calloc(1, sizeof *rq))) return MHD_NO;
            *con_cls = rq;
            return MHD_YES;
        }
        if (*upload_size) {
            if (rq->n + *upload_size > PL_CLASS_BODY_MAX) rq->too_big = 1;
            else memcpy(rq->body + rq->n, upload, *upload_size), rq->n += *upload_size;
            *upload_size = 0;
            return MHD_YES;
        }
    }
    PlClassRequest in;
    request_of(con, method, url, rq, bad, &in);
    if (rq && rq->pace != PACE_NEW) return join_paced(con, sv, &in, rq);
    PlClassResponse out;
    if (pl_class_route(sv->c, &in, &out)) return send_out(con, &out);
    memcpy(rq->code, out.code, sizeof rq->code); /* a join's code, read: its turn next */
    pl_class_response_done(&out);
    return join_paced(con, sv, &in, rq);
}

/* Sees each request's address before libmicrohttpd reads its arguments:
 * one too long or with too many is marked for a 400, and its arguments are
 * cut off where they begin. libmicrohttpd 0.9.75 reads them into the
 * connection's 16 KB of memory, and one that runs out there (a few hundred
 * arguments) leaves the request hanging until its connection times out.
 * The address is libmicrohttpd's own buffer, which it reads the arguments
 * from next: writing there is what keeps it from reading them. */
static void *uri_seen(void *cls, const char *uri, struct MHD_Connection *con) {
    (void)cls, (void)con;
    return pl_class_uri_refused((char *)(uintptr_t)uri) ? &bad_uri : NULL;
}

static void completed(void *cls, struct MHD_Connection *con, void **con_cls, enum MHD_RequestTerminationCode toe) {
    (void)cls, (void)con, (void)toe;
    if (*con_cls != &bad_uri) free(*con_cls);
    *con_cls = NULL;
}

static int held_before(const Req *a, const Req *b) {
    return a->wrong != b->wrong ? a->wrong < b->wrong : a->seq < b->seq;
}
static int held_cmp(const void *a, const void *b) {
    const Req *x = *(Req *const *)a, *y = *(Req *const *)b;
    return held_before(x, y) ? -1 : held_before(y, x);
}

/* One look at the joins held, fewest wrong tries first, then the earliest:
 * each whose turn has come goes, each that has waited HOLD_MAX_MS goes to
 * be told to try again. Returns how many go, their connections in
 * sv->going; *wake: when to look next. Locked. */
static int pace_pass(PlClassServer *sv, int64_t now, int64_t *wake) {
    int ngo = 0, kept = 0;
    qsort(sv->held, (size_t)sv->nheld, sizeof *sv->held, held_cmp);
    for (int i = 0; i < sv->nheld; i++) {
        Req *rq = sv->held[i];
        int64_t at = 0;
        if (now - rq->came_ms >= HOLD_MAX_MS) rq->pace = PACE_BUSY;
        else if (rq->not_before_ms <= now && !(at = pl_class_code_turn(sv->c, rq->addr, now))) rq->pace = PACE_GO;
        if (rq->pace != PACE_HELD) {
            sv->going[ngo++] = rq->con;
            continue;
        }
        if (at) rq->not_before_ms = at;
        if (rq->not_before_ms < *wake) *wake = rq->not_before_ms;
        if (rq->came_ms + HOLD_MAX_MS < *wake) *wake = rq->came_ms + HOLD_MAX_MS;
        sv->held[kept++] = rq;
    }
    sv->nheld = kept;
    return ngo;
}

/* The pacer: a pass whenever a join comes to wait or a turn comes, until the server stops. */
static void *pacer_run(void *arg) {
    PlClassServer *sv = arg;
    pthread_mutex_lock(&sv->mu);
    while (!sv->stopping) {
        int64_t now = now_ms(), wake = now + 1000;
        int ngo = pace_pass(sv, now, &wake);
        if (ngo) {
            pthread_mutex_unlock(&sv->mu);
            for (int i = 0; i < ngo; i++) MHD_resume_connection(sv->going[i]);
            pthread_mutex_lock(&sv->mu);
            continue;
        }
        struct timespec until = {.tv_sec = (time_t)(wake / 1000), .tv_nsec = (long)(wake % 1000) * 1000000};
        pthread_cond_timedwait(&sv->wake, &sv->mu, &until);
    }
    pthread_mutex_unlock(&sv->mu);
    return NULL;
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

/* Connections at once: CONNECTIONS, or fewer when the process may not open
 * that many files (accept would fail, for everyone alike, before the limit). */
static unsigned connections(void) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= CONNECTIONS + FILES_SPARE)
        return CONNECTIONS;
    return rl.rlim_cur > 2 * FILES_SPARE ? (unsigned)(rl.rlim_cur - FILES_SPARE) : FILES_SPARE;
}

static void server_free(PlClassServer *sv) {
    pthread_cond_destroy(&sv->wake);
    pthread_mutex_destroy(&sv->mu);
    free(sv->held);
    free(sv->going);
    free(sv);
}

PlClassServer *pl_class_server_start(PlClass *c, const char *addr, int port, char *why, int cap) {
    struct sockaddr_storage ss;
    if (port < 0 || port > 65535) return snprintf(why, cap, "%d is not a port (0 to 65535)", port), NULL;
    if (sock_addr(addr, port, &ss))
        return snprintf(why, cap, "%.100s is not an IP address (such as 192.168.1.20 or 127.0.0.1)", addr), NULL;
    PlClassServer *sv = calloc(1, sizeof *sv);
    if (!sv) return snprintf(why, cap, "out of memory"), NULL;
    unsigned total = connections(),
             per_address = total / 2 < CONNECTIONS_PER_ADDRESS ? total / 2 : CONNECTIONS_PER_ADDRESS;
    pthread_condattr_t ca;
    int ok = !pthread_condattr_init(&ca);
    ok = ok && !pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) && !pthread_cond_init(&sv->wake, &ca);
    if (ok) pthread_condattr_destroy(&ca);
    if (!ok || pthread_mutex_init(&sv->mu, NULL)) return free(sv), snprintf(why, cap, "out of memory"), NULL;
    sv->c = c, sv->cap = (int)total, sv->seats = PL_CLASS_SEATS_PER_ADDRESS;
    sv->held = calloc(total, sizeof *sv->held);
    sv->going = calloc(total, sizeof *sv->going);
    if (!sv->held || !sv->going) goto fail_memory;
    pl_class_seats_per_address(c, sv->seats);
    if (pthread_create(&sv->pacer, NULL, pacer_run, sv)) goto fail_memory;
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_ALLOW_SUSPEND_RESUME;
    if (ss.ss_family == AF_INET6)
        flags |= IN6_IS_ADDR_UNSPECIFIED(&((struct sockaddr_in6 *)(void *)&ss)->sin6_addr)
                     ? MHD_USE_DUAL_STACK /* ::, every interface: IPv4 clients too */
                     : MHD_USE_IPv6;
    sv->d = MHD_start_daemon(flags, (uint16_t)port, NULL, NULL, handle, sv, MHD_OPTION_SOCK_ADDR,
                             (struct sockaddr *)&ss, MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
                             MHD_OPTION_URI_LOG_CALLBACK, uri_seen, NULL, MHD_OPTION_CONNECTION_LIMIT, total,
                             MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_address, MHD_OPTION_CONNECTION_TIMEOUT,
                             (unsigned)IDLE_SECONDS, MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)16384, MHD_OPTION_END);
    if (!sv->d) {
        pthread_mutex_lock(&sv->mu);
        sv->stopping = 1;
        pthread_cond_signal(&sv->wake);
        pthread_mutex_unlock(&sv->mu);
        pthread_join(sv->pacer, NULL);
        server_free(sv);
        return snprintf(why, cap, "cannot listen on %.100s port %d (taken, or not this machine's address)", addr, port),
               NULL;
    }
    const union MHD_DaemonInfo *di = MHD_get_daemon_info(sv->d, MHD_DAEMON_INFO_BIND_PORT);
    sv->port = di ? di->port : port;
    return sv;
fail_memory:
    server_free(sv);
    return snprintf(why, cap, "out of memory"), NULL;
}

int pl_class_server_port(const PlClassServer *s) { return s->port; }

void pl_class_server_set_seats_per_address(PlClassServer *s, int n) {
    pthread_mutex_lock(&s->mu);
    s->seats = n > 0 ? n : 0;
    pthread_mutex_unlock(&s->mu);
    pl_class_seats_per_address(s->c, n);
}

/* The first address of this machine a student can reach: an IPv4 address
 * of an interface that is up, running and not loopback; with v6, failing
 * that, such an IPv6 address but link-local (which needs an interface's
 * name, and a browser takes none). 1, or 0 when there is none. */
static int here_address(int v6, char *host, socklen_t cap) {
    struct ifaddrs *ifs = NULL;
    int found = 0;
    if (getifaddrs(&ifs)) return 0;
    for (int family = 0; family < 1 + v6 && !found; family++)
        for (const struct ifaddrs *i = ifs; i && !found; i = i->ifa_next) {
            unsigned up = IFF_UP | IFF_RUNNING;
            if (!i->ifa_addr || (i->ifa_flags & IFF_LOOPBACK) || (i->ifa_flags & up) != up) continue;
            const void *sa = i->ifa_addr;
            if (family == 0 && i->ifa_addr->sa_family == AF_INET)
                found = inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, host, cap) != NULL;
            const struct in6_addr *a6 = &((const struct sockaddr_in6 *)sa)->sin6_addr;
            if (family == 1 && i->ifa_addr->sa_family == AF_INET6 && !IN6_IS_ADDR_LINKLOCAL(a6) &&
                !IN6_IS_ADDR_LOOPBACK(a6) && !IN6_IS_ADDR_V4MAPPED(a6))
                found = inet_ntop(AF_INET6, a6, host, cap) != NULL;
        }
    freeifaddrs(ifs);
    return found;
}

int pl_class_server_url(const PlClassServer *s, const char *listen, char *out, int cap) {
    char host[INET6_ADDRSTRLEN];
    unsigned char a[16] = {0}, zero[16] = {0};
    int v4 = inet_pton(AF_INET, listen, a) == 1, v6 = !v4 && inet_pton(AF_INET6, listen, a) == 1;
    int every = (v4 || v6) && !memcmp(a, zero, sizeof a), rc = 0;
    snprintf(host, sizeof host, "%s", listen);
    if (every && !here_address(v6, host, sizeof host)) snprintf(host, sizeof host, "127.0.0.1"), rc = -1;
    int n = snprintf(out, (size_t)cap, strchr(host, ':') ? "http://[%s]:%d/" : "http://%s:%d/", host, s->port);
    return n < 0 || n >= cap ? -1 : rc;
}

void pl_class_server_stop(PlClassServer *s) {
    if (!s) return;
    pthread_mutex_lock(&s->mu);
    s->stopping = 1;
    pthread_cond_signal(&s->wake);
    pthread_mutex_unlock(&s->mu);
    pthread_join(s->pacer, NULL);
    /* libmicrohttpd must not be stopped with a connection suspended */
    pthread_mutex_lock(&s->mu);
    int n = s->nheld;
    for (int i = 0; i < n; i++) s->held[i]->pace = PACE_ENDED, s->going[i] = s->held[i]->con;
    s->nheld = 0;
    pthread_mutex_unlock(&s->mu);
    for (int i = 0; i < n; i++) MHD_resume_connection(s->going[i]);
    MHD_stop_daemon(s->d);
    server_free(s);
}
