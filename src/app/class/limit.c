/* The join code's limiter and the seats per address (limit.h). Every
 * function here looks a row up by a scan: 256 rows of 16 bytes, a few
 * microseconds, which is nothing beside an HTTP request. */
#include "limit.h"

#include <arpa/inet.h>
#include <string.h>

#include "class_internal.h"

/* addr as a row's key: IPv4 as ::ffff:a.b.c.d; IPv6 whole, or cut to its
 * /64 when cut64 (a v4-mapped address is IPv4, never cut). Anything that
 * is not an address is one key of its own, all ones. */
static void key_of(const char *addr, int cut64, unsigned char key[16]) {
    static const unsigned char mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    memcpy(key, mapped, sizeof mapped);
    if (inet_pton(AF_INET, addr, key + 12) == 1) return;
    if (inet_pton(AF_INET6, addr, key) == 1) {
        if (cut64 && memcmp(key, mapped, sizeof mapped)) memset(key + 8, 0, 8);
        return;
    }
    memset(key, 0xff, 16);
}

/* Whether a window that began at start is over at now (or the clock went
 * back past its start). */
static int window_over(int64_t start, int64_t now) { return now < start || now - start >= PL_CLASS_CODE_WINDOW_MS; }

/* A row's wrong tries in its window: none once it is over. */
static int row_wrong(const PlLimitRow *r, int64_t now) { return window_over(r->start_ms, now) ? 0 : r->wrong; }

/* The index of addr's row of wrong tries, -1 when it has none kept. */
static int row_find(const PlClassLimit *l, const char *addr) {
    unsigned char key[16];
    key_of(addr, 1, key);
    for (int i = 0; i < l->nrows; i++)
        if (!memcmp(l->rows[i].key, key, sizeof key)) return i;
    return -1;
}

/* The class's wrong tries in its window. */
static int class_wrong(const PlClassLimit *l, int64_t now) { return window_over(l->start_ms, now) ? 0 : l->wrong; }

/* A row for addr, which has none: a free one, else the one with the fewest
 * wrong tries in their window (an expired row has none), the stalest of
 * those tied: never one with more than another. */
static PlLimitRow *row_take(PlClassLimit *l, const char *addr, int64_t now) {
    PlLimitRow *r = &l->rows[0];
    if (l->nrows < PL_LIMIT_ROWS) r = &l->rows[l->nrows++];
    else
        for (int i = 1; i < PL_LIMIT_ROWS; i++) {
            const PlLimitRow *t = &l->rows[i];
            int tw = row_wrong(t, now), rw = row_wrong(r, now);
            if (tw < rw || (tw == rw && t->last_ms < r->last_ms)) r = &l->rows[i];
        }
    memset(r, 0, sizeof *r);
    key_of(addr, 1, r->key);
    return r;
}

int pl_limit_metered(PlClassLimit *l, const char *addr, int64_t now_ms) {
    int i = row_find(l, addr);
    return (i >= 0 && row_wrong(&l->rows[i], now_ms) >= PL_CLASS_CODE_TRIES ? PL_LIMIT_ADDRESS : 0) |
           (class_wrong(l, now_ms) >= PL_LIMIT_CLASS_WRONG ? PL_LIMIT_CLASS : 0);
}

int64_t pl_limit_turn(PlClassLimit *l, const char *addr, int64_t now_ms) {
    int i = row_find(l, addr), whole = class_wrong(l, now_ms) >= PL_LIMIT_CLASS_WRONG;
    PlLimitRow *r = i >= 0 && row_wrong(&l->rows[i], now_ms) >= PL_CLASS_CODE_TRIES ? &l->rows[i] : NULL;
    int64_t at = 0;
    if (r && r->next_ms > now_ms) at = r->next_ms;
    if (whole && l->next_ms > now_ms && l->next_ms > at) at = l->next_ms;
    if (at) return at;
    if (r) r->next_ms = now_ms + PL_LIMIT_ADDRESS_GAP_MS;
    if (whole) l->next_ms = now_ms + PL_LIMIT_CLASS_GAP_MS;
    return 0;
}

PlClassCodeTry pl_limit_code(PlClassLimit *l, const char *addr, int right, int64_t now_ms) {
    if (right) return PL_CLASS_CODE_OK;
    int metered = pl_limit_metered(l, addr, now_ms), i = row_find(l, addr);
    PlLimitRow *r = i >= 0 ? &l->rows[i] : row_take(l, addr, now_ms);
    if (!row_wrong(r, now_ms)) r->wrong = 0, r->start_ms = now_ms, r->next_ms = 0;
    r->wrong++, r->last_ms = now_ms;
    if (!class_wrong(l, now_ms)) l->wrong = 0, l->start_ms = now_ms, l->next_ms = 0;
    l->wrong++;
    return metered ? PL_CLASS_CODE_LIMITED : PL_CLASS_CODE_WRONG;
}

int pl_limit_wrong(const PlClassLimit *l, const char *addr, int64_t now_ms) {
    int i = row_find(l, addr);
    return i >= 0 ? row_wrong(&l->rows[i], now_ms) : 0;
}

/* The index of addr's seats row, -1 when it has none. */
static int seats_find(const PlClassLimit *l, const char *addr) {
    unsigned char key[16];
    key_of(addr, 0, key);
    for (int i = 0; i < l->nseats; i++)
        if (!memcmp(l->seats[i].key, key, sizeof key)) return i;
    return -1;
}

int pl_limit_seat_take(PlClassLimit *l, const char *addr) {
    int i = seats_find(l, addr);
    for (int j = 0; i < 0 && j < l->nseats; j++)
        if (!l->seats[j].seats) i = j; /* a row whose joins all failed */
    if (i < 0 && l->nseats < PL_CLASS_MAX_STUDENTS) i = l->nseats++;
    if (i < 0) return 0; /* each row holds a student: the class is full, which its join says */
    PlLimitSeats *s = &l->seats[i];
    if (!s->seats) key_of(addr, 0, s->key);
    if (l->seat_cap > 0 && s->seats >= l->seat_cap) return -1;
    s->seats++;
    return 0;
}

void pl_limit_seat_give(PlClassLimit *l, const char *addr) {
    int i = seats_find(l, addr);
    if (i >= 0 && l->seats[i].seats > 0) l->seats[i].seats--;
}

int pl_limit_seats(const PlClassLimit *l, const char *addr) {
    int i = seats_find(l, addr);
    return i >= 0 ? l->seats[i].seats : 0;
}

/* ---- on a class, under its lock ---- */

PlClassCodeTry pl_class_code_try(PlClass *c, const char *addr, const char *code, int64_t now_ms) {
    pthread_mutex_lock(&c->mu);
    PlClassCodeTry r = pl_limit_code(&c->limit, addr, !strcmp(code, c->code), now_ms);
    pthread_mutex_unlock(&c->mu);
    return r;
}

int pl_class_code_metered(PlClass *c, const char *addr, int64_t now_ms) {
    pthread_mutex_lock(&c->mu);
    int r = pl_limit_metered(&c->limit, addr, now_ms);
    pthread_mutex_unlock(&c->mu);
    return r;
}

int64_t pl_class_code_turn(PlClass *c, const char *addr, int64_t now_ms) {
    pthread_mutex_lock(&c->mu);
    int64_t r = pl_limit_turn(&c->limit, addr, now_ms);
    pthread_mutex_unlock(&c->mu);
    return r;
}

int pl_class_code_wrong(PlClass *c, const char *addr, int64_t now_ms) {
    pthread_mutex_lock(&c->mu);
    int r = pl_limit_wrong(&c->limit, addr, now_ms);
    pthread_mutex_unlock(&c->mu);
    return r;
}

void pl_class_seats_per_address(PlClass *c, int n) {
    pthread_mutex_lock(&c->mu);
    c->limit.seat_cap = n > 0 ? n : 0;
    pthread_mutex_unlock(&c->mu);
}

int pl_class_seat_take(PlClass *c, const char *addr) {
    pthread_mutex_lock(&c->mu);
    int r = pl_limit_seat_take(&c->limit, addr);
    pthread_mutex_unlock(&c->mu);
    return r;
}

void pl_class_seat_give(PlClass *c, const char *addr) {
    pthread_mutex_lock(&c->mu);
    pl_limit_seat_give(&c->limit, addr);
    pthread_mutex_unlock(&c->mu);
}
