/* The class server in a padlab built without libmicrohttpd: it says so. */
#include <stdio.h>

#include "server.h"

PlClassServer *pl_class_server_start(PlClass *c, const char *addr, int port, char *why, int cap) {
    (void)c, (void)addr, (void)port;
    snprintf(why, cap,
             "this padlab was built without libmicrohttpd (Debian: apt-get install libmicrohttpd-dev, then "
             "configure and make again): no class session");
    return NULL;
}
int pl_class_server_port(const PlClassServer *s) { return (void)s, 0; }
void pl_class_server_stop(PlClassServer *s) { (void)s; }
void pl_class_server_set_seats_per_address(PlClassServer *s, int n) { (void)s, (void)n; }
int pl_class_server_url(const PlClassServer *s, const char *listen, char *out, int cap) {
    (void)s, (void)listen;
    if (cap > 0) out[0] = '\0';
    return -1;
}
