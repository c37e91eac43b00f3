/* The state line (see state.h): made from the settings registry's rows and
 * read back through them. */
#include "state.h"

#include <stdio.h>
#include <string.h>

#include "core/text.h"

/* Bytes a value keeps as they are: a shell word needs no quotes for them,
 * and none of them is the line's ',' or '=' or the escape's '%'. */
static int plain(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("._/+:-", c) != NULL;
}

static void put_escaped(char *buf, int cap, const char *v) {
    size_t at = strlen(buf);
    for (const unsigned char *p = (const unsigned char *)v; *p && at + 4 < (size_t)cap; p++) {
        if (plain(*p)) buf[at++] = (char)*p;
        else at += (size_t)snprintf(buf + at, (size_t)cap - at, "%%%02X", *p);
    }
    buf[at] = '\0';
}

const char *pl_state_format(const PlLabSettings *s, char *buf, int cap) {
    char v[600];
    snprintf(buf, (size_t)cap, "%s", PL_STATE_VERSION);
    for (int id = 0; id < PL_S_COUNT; id++) {
        size_t at = strlen(buf);
        snprintf(buf + at, (size_t)cap - at, ",%s=", pl_settings[id].name);
        put_escaped(buf, cap, pl_setting_format(s, (PlSettingId)id, v, sizeof v));
    }
    return buf;
}

/* The value of one pair (len bytes at v) unescaped into out. */
static int unescape(const char *name, const char *v, size_t len, char *out, size_t cap, char *why, int wcap) {
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        int c = (unsigned char)v[i];
        if (c == '%') {
            if ((c = pl_text_percent_byte(v + i, len - i)) < 0)
                return snprintf(why, (size_t)wcap, "'%s' has a bad escape: %% must be followed by two hex digits",
                                name),
                       -1;
            i += 2;
        } else if (!plain((unsigned char)c)) {
            return snprintf(why, (size_t)wcap, "'%s' holds a byte 0x%02X that a state line writes as %%%02X", name, c,
                            c),
                   -1;
        }
        if (n + 1 >= cap) return snprintf(why, (size_t)wcap, "the value of '%s' is too long", name), -1;
        out[n++] = (char)c;
    }
    out[n] = '\0';
    return 0;
}

/* At most 40 of the len bytes at text, for a message: a byte that is not
 * printable ASCII shows as '?', so the message stays one plain line. */
static const char *shown(const char *text, size_t len, char out[41]) {
    size_t n = len > 40 ? 40 : len;
    for (size_t i = 0; i < n; i++) out[i] = text[i] >= 0x20 && text[i] < 0x7f ? text[i] : '?';
    out[n] = '\0';
    return out;
}

/* One "name=value" (len bytes at tok) into p. */
static int state_pair(const char *tok, size_t len, PlSettingsPatch *p, char *why, int cap) {
    const char *eq = memchr(tok, '=', len);
    char name[32], value[600], want[256], show[41];
    if (!eq) return snprintf(why, (size_t)cap, "expected NAME=VALUE, got '%s'", shown(tok, len, show)), -1;
    size_t nlen = (size_t)(eq - tok);
    if (nlen == 0 || nlen >= sizeof name)
        return snprintf(why, (size_t)cap, "'%s' is not a setting", shown(tok, nlen, show)), -1;
    memcpy(name, tok, nlen), name[nlen] = '\0';
    int id = pl_setting_find(name);
    if (id < 0)
        return snprintf(why, (size_t)cap, "'%s' is not a setting (padlab lab --help lists them)",
                        shown(name, nlen, show)),
               -1;
    if (p->mask & PL_S_BIT(id)) return snprintf(why, (size_t)cap, "'%s' is given twice", name), -1;
    if (unescape(name, eq + 1, len - nlen - 1, value, sizeof value, why, cap)) return -1;
    if (pl_setting_parse(&p->values, (PlSettingId)id, value, want, sizeof want))
        return snprintf(why, (size_t)cap, "'%s' must be %s, got '%s'", name, want, shown(value, strlen(value), show)),
               -1;
    p->mask |= PL_S_BIT(id);
    return 0;
}

int pl_state_parse(const char *line, PlSettingsPatch *p, char *why, int cap) {
    memset(p, 0, sizeof *p);
    p->values = pl_settings_default();
    size_t vlen = strlen(PL_STATE_VERSION);
    if (strncmp(line, PL_STATE_VERSION, vlen) != 0 || (line[vlen] != ',' && line[vlen] != '\0'))
        return snprintf(why, (size_t)cap, "a state line starts with '%s,' (padlab lab --print-state makes one)",
                        PL_STATE_VERSION),
               -1;
    for (const char *at = line + vlen; *at;) {
        at++; /* the comma */
        size_t len = strcspn(at, ",");
        if (!len) return snprintf(why, (size_t)cap, "an empty NAME=VALUE between two commas or at the end"), -1;
        if (state_pair(at, len, p, why, cap)) return -1;
        at += len;
    }
    if (!p->mask) return snprintf(why, (size_t)cap, "the state line names no setting"), -1;
    return 0;
}

static int write_line(FILE *f, void *ctx) {
    fprintf(f, "padlab --state %s\n", (const char *)ctx);
    return ferror(f) ? -1 : 0;
}

PlStatus pl_state_save_new(const PlLabSettings *s, const char *dir, char *written, int cap, PlErr *err) {
    char line[PL_STATE_CAP];
    pl_state_format(s, line, sizeof line);
    for (int n = 1; n < 1000; n++) {
        int taken = 0;
        snprintf(written, (size_t)cap, "%s/padlab-state-%d.txt", dir && *dir ? dir : ".", n);
        PlStatus st = pl_write_atomic_new(written, write_line, line, &taken, err);
        if (st == PL_OK || !taken) return st;
    }
    return pl_err_set(err, PL_EIO, "padlab-state-1.txt to padlab-state-999.txt all exist in %s", dir);
}

void pl_state_key(const PlLabSettings *s, const char *dir, char *msg, int cap) {
    char line[PL_STATE_CAP], path[600];
    PlErr err;
    if (pl_state_save_new(s, dir, path, sizeof path, &err)) {
        snprintf(msg, (size_t)cap, "the state line could not be saved: %.200s", err.msg);
        return;
    }
    pl_state_format(s, line, sizeof line);
    if (snprintf(msg, (size_t)cap, "state line (in %s): padlab --state %s", path, line) >= cap)
        snprintf(msg, (size_t)cap, "the state line (padlab --state ...) is in %.200s", path);
}
