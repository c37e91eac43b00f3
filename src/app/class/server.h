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
 * Wrong codes are limited per address (class.h); bodies are at most 512
 * bytes and headers 16 KB; anything malformed gets a 4xx and the session
 * goes on; every text a page shows is escaped. Built without libmicrohttpd,
 * start says so. */
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
/* Stops listening and waits for the requests under way. NULL is harmless. */
void pl_class_server_stop(PlClassServer *s);

#endif
