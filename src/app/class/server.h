/* A class session on the network: padlab's small HTTP server (libmicrohttpd)
 * for the students' phones and laptops and for `padlab join`. It listens
 * only when the teacher asks (--class), on the address and port given.
 *
 *   GET  /            the join page (a form for the code)
 *   POST /join        code=CODE: a token, as a cookie (303 to /vote) or,
 *                     asked with Accept: application/json, as {"token": ...}
 *   GET  /vote        the student page: the question, the choices or a number
 *                     field, their own answer, the tally once revealed
 *   GET  /state       the same as JSON (the page's poll and padlab join)
 *   POST /answer      q=N&a=ANSWER (t=TOKEN without the cookie)
 *
 * What a class cannot knock over: the right code always joins, and wrong
 * ones are slowed per address and for the whole class (limit.h: a limited
 * join waits its turn, at most 8 s, then is told to try again, 503); one
 * address seats at most PL_CLASS_SEATS_PER_ADDRESS students (429 past it);
 * one address holds at most 512 connections of 2000 (fewer when the process
 * may not open that many files), and a connection silent for 10 s is
 * closed; an address over 1024 bytes or with more than 4 arguments gets 400
 * at once; bodies are at most 512 bytes and headers 16 KB; anything
 * malformed gets a 4xx and the session goes on; every text a page shows is
 * escaped, and no page can be framed by another site. What each request
 * gets is decided by route.h, with no network; this sends it. Built
 * without libmicrohttpd, start says so. */
#ifndef PL_APP_CLASS_SERVER_H
#define PL_APP_CLASS_SERVER_H

#include "class.h"

typedef struct PlClassServer PlClassServer;

/* Starts serving c on addr (an IPv4 or IPv6 address: "127.0.0.1",
 * "192.168.1.20", "0.0.0.0" for every interface) and port (0: one the system
 * picks). NULL with why when it cannot (the port is taken, the address is
 * not this machine's, padlab was built without libmicrohttpd). c outlives
 * the server. */
PlClassServer *pl_class_server_start(PlClass *c, const char *addr, int port, char *why, int cap);
/* The port it listens on. */
int pl_class_server_port(const PlClassServer *s);
/* Students one address may seat from now on: n, or no cap for 0 (a teacher
 * whose class shares one machine or one NAT). Starts at
 * PL_CLASS_SEATS_PER_ADDRESS. */
void pl_class_server_set_seats_per_address(PlClassServer *s, int n);
/* The address students type to join, as a URL (http://HOST:PORT/) in out:
 * listen as it is, or for a listen address that is every interface
 * (0.0.0.0, ::) this machine's first address on the network, IPv4 first,
 * IPv6 in brackets. 0, or -1 when it has none (out then says 127.0.0.1,
 * which only this machine reaches) or out is too small. */
int pl_class_server_url(const PlClassServer *s, const char *listen, char *out, int cap);
/* Stops listening and waits for the requests under way. NULL is harmless. */
void pl_class_server_stop(PlClassServer *s);

#endif
