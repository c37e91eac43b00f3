#include "err.h"

#include <stdarg.h>
#include <stdio.h>

PlStatus pl_err_set(PlErr *err, PlStatus st, const char *fmt, ...) {
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return st;
}

const char *pl_errmsg(const PlErr *err) { return err ? err->msg : ""; }
