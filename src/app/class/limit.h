/* The join code's limiter and the seats per address: how a class keeps
 * guessing its code slow without ever refusing the right code to a class
 * that shares one address (a school's NAT, a shared machine), and keeps one
 * address from taking every seat. Plain state with the time handed in
 * (milliseconds on a steady clock): no clock, no lock, no network of its
 * own. The pl_class_ wrappers at the end take the class's lock.
 *
 * Layout: rows[0..nrows) of wrong tries, one per address that sent a wrong
 * code (an IPv4 address, or an IPv6 address cut to its /64: one host's
 * addresses, so that hopping inside it gains nothing), each counted in a
 * window of PL_CLASS_CODE_WINDOW_MS from its first wrong try; the class's
 * own window of wrong tries from every address; seats[0..nseats) of joins
 * per exact address.
 *
 * What it promises:
 *   - the right code always joins: wrong tries never refuse it;
 *   - an address past PL_CLASS_CODE_TRIES wrong codes in its window is
 *     metered: its tries are checked one per PL_LIMIT_ADDRESS_GAP_MS, and
 *     each wrong one is answered LIMITED (429);
 *   - once the class has seen PL_LIMIT_CLASS_WRONG wrong codes in its
 *     window, every try from anywhere is metered: one checked per
 *     PL_LIMIT_CLASS_GAP_MS (the server lets the address with the fewest
 *     wrong tries go first), each wrong one LIMITED, to the window's end;
 *   - a full table keeps the worst offenders: a new address takes the row
 *     with the fewest wrong tries (an expired row first, then the stalest),
 *     never one with more.
 * Metering delays the check, the right code's too: that is what makes it a
 * limit. Were a metered try checked at once, a right guess would join at
 * once and a wrong one get its 429 at once, and guessing would go as fast
 * as the server answers (26^5 codes: half of them in about 20 minutes).
 *
 * Figures (tests/class_flood.sh measures the rates): an address alone is
 * held to 4 checks a second, 245 a minute, below the class's limit of 300,
 * so one address cannot slow the rest of the class; any number of
 * addresses together to at most 300 + 10 a second over a minute's window,
 * about 900 a minute: half the code space takes 4 to 5 days, and an hour's
 * class gives a guesser 1 chance in 220. */
#ifndef PL_APP_CLASS_LIMIT_H
#define PL_APP_CLASS_LIMIT_H

#include <stdint.h>

#include "class.h"

#define PL_LIMIT_ROWS 256           /* addresses whose wrong tries are kept */
#define PL_LIMIT_ADDRESS_GAP_MS 250 /* a metered address: one check per this */
#define PL_LIMIT_CLASS_WRONG 300    /* wrong codes per window, all addresses, before all are metered */
#define PL_LIMIT_CLASS_GAP_MS 100   /* the class metered: one check per this */
/* Students one address may seat, unless the teacher says otherwise: twice a
 * large school class behind one NAT, each of them able to join again once
 * (a new phone, a private window), and an eighth of the class's 512 seats,
 * so that one address cannot fill it or outvote the rest. */
#define PL_CLASS_SEATS_PER_ADDRESS 64

/* Why a try is metered (pl_limit_metered): a mask. */
#define PL_LIMIT_ADDRESS 1
#define PL_LIMIT_CLASS 2

typedef struct {
    unsigned char key[16]; /* IPv4 as ::ffff:a.b.c.d, IPv6 cut to its /64 */
    int wrong;             /* wrong tries in the window */
    int64_t start_ms;      /* the window's start: its first wrong try */
    int64_t last_ms;       /* its last wrong try: ties in eviction go to the stalest */
    int64_t next_ms;       /* metered, its next check may come then */
} PlLimitRow;

typedef struct {
    unsigned char key[16]; /* the exact address */
    int seats;
} PlLimitSeats;

/* All zero is an empty limiter with no cap on seats. */
typedef struct {
    PlLimitRow rows[PL_LIMIT_ROWS];
    int nrows;
    int wrong;        /* the class's wrong tries in its window */
    int64_t start_ms; /* the class's window's start */
    int64_t next_ms;  /* the class metered, its next check may come then */
    PlLimitSeats seats[PL_CLASS_MAX_STUDENTS];
    int nseats;
    int seat_cap; /* students per address; 0: no cap */
} PlClassLimit;

/* Why a try from addr (an address as text; anything else counts as one
 * unknown address) must wait its turn at now_ms: 0, or PL_LIMIT_ADDRESS
 * and/or PL_LIMIT_CLASS. */
int pl_limit_metered(PlClassLimit *l, const char *addr, int64_t now_ms);
/* Takes addr's turn to have a code checked: 0 when it may be checked now
 * (an unmetered try always may; a metered one uses up its address's or the
 * class's turn), else the time from which to ask again, after now_ms. */
int64_t pl_limit_turn(PlClassLimit *l, const char *addr, int64_t now_ms);
/* Counts a code checked, right or not: OK when right (always), LIMITED when
 * wrong and addr or the class was metered, else WRONG. A wrong try takes a
 * row for addr, the fewest wrong tries' when the table is full. */
PlClassCodeTry pl_limit_code(PlClassLimit *l, const char *addr, int right, int64_t now_ms);
/* addr's wrong tries in its window (0 when it has none kept). */
int pl_limit_wrong(const PlClassLimit *l, const char *addr, int64_t now_ms);

/* A seat for a student joining from addr: 0, or -1 when addr has the cap
 * already. pl_limit_seat_give hands back a seat a join did not use (the
 * class was full). pl_limit_seats: how many addr has. */
int pl_limit_seat_take(PlClassLimit *l, const char *addr);
void pl_limit_seat_give(PlClassLimit *l, const char *addr);
int pl_limit_seats(const PlClassLimit *l, const char *addr);

/* ---- the same on a class, under its lock (pl_class_code_try is in class.h) ---- */

int pl_class_code_metered(PlClass *c, const char *addr, int64_t now_ms);
int64_t pl_class_code_turn(PlClass *c, const char *addr, int64_t now_ms);
int pl_class_code_wrong(PlClass *c, const char *addr, int64_t now_ms);
/* Students one address may seat: n, or no cap for 0 (a class starts with no
 * cap; its server sets PL_CLASS_SEATS_PER_ADDRESS). */
void pl_class_seats_per_address(PlClass *c, int n);
int pl_class_seat_take(PlClass *c, const char *addr);
void pl_class_seat_give(PlClass *c, const char *addr);

#endif
