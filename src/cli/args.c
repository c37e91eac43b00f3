#include "args.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/report/out.h"
#include "core/names.h"
#include "core/text.h"

int cli_usage_error(const CliArgs *a, const char *fmt, ...) {
    va_list ap;
    char msg[1024];
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char *shown = pl_text_printable(msg); /* a value with a newline or ESC stays on one line */
    fprintf(stderr, "%s: %s\n", a->cmd, shown ? shown : msg);
    free(shown);
    return 2;
}

static int find_opt(const CliOpt *opts, const char *name, size_t len) {
    for (int i = 0; opts && opts[i].name; i++)
        if (strlen(opts[i].name) == len && strncmp(opts[i].name, name, len) == 0) return i;
    return -1;
}

/* Handles one "--name[=value]" at argv[*i]; advances *i past a separate value. */
static int parse_long(CliArgs *a, int argc, char **argv, int *i) {
    const char *name = argv[*i] + 2;
    const char *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    int k = find_opt(a->opts, name, len);
    if (k < 0) {
        if (len == 4 && strncmp(name, "help", 4) == 0) return a->help = 1, 0;
        return cli_usage_error(a, "unknown option '--%.*s' (see %s --help)", (int)len, name, a->cmd);
    }
    if (!a->opts[k].arg) {
        if (eq) return cli_usage_error(a, "--%s takes no value", a->opts[k].name);
        a->val[k] = "";
    } else if (eq) {
        a->val[k] = eq + 1;
    } else if (*i + 1 < argc) {
        a->val[k] = argv[++*i];
    } else {
        return cli_usage_error(a, "--%s needs a value (%s)", a->opts[k].name, a->opts[k].arg);
    }
    return 0;
}

int cli_parse(CliArgs *a, const char *cmd, const CliOpt *opts, int max_pos, int argc, char **argv) {
    memset(a, 0, sizeof *a);
    a->cmd = cmd;
    a->opts = opts;
    int only_pos = 0;
    for (int i = 0; i < argc; i++) {
        const char *s = argv[i];
        if (!only_pos && strcmp(s, "--") == 0) {
            only_pos = 1;
        } else if (!only_pos && strncmp(s, "--", 2) == 0) {
            if (parse_long(a, argc, argv, &i)) return 2;
        } else if (!only_pos && strcmp(s, "-h") == 0) {
            a->help = 1;
        } else if (!only_pos && s[0] == '-' && s[1] != '\0') {
            return cli_usage_error(a, "unknown option '%s' (see %s --help)", s, cmd);
        } else if (a->npos < max_pos && a->npos < CLI_MAX_POS) {
            a->pos[a->npos++] = s;
        } else {
            return cli_usage_error(a, "unexpected argument '%s' (see %s --help)", s, cmd);
        }
    }
    return 0;
}

/* "  --name ARG   " in a 24-column field, or on a line of its own when it is
 * wider, so every help text starts in the same column. */
static void opt_left(FILE *f, const char *left) {
    if (strlen(left) > 24) fprintf(f, "  %s\n  %-24s ", left, "");
    else fprintf(f, "  %-24s ", left);
}

void cli_print_opts(FILE *f, const CliOpt *opts) {
    PlLabSettings d = pl_settings_default();
    for (int i = 0; opts && opts[i].name; i++) {
        char left[64], def[600], values[256];
        snprintf(left, sizeof left, "--%s%s%s", opts[i].name, opts[i].arg ? " " : "", opts[i].arg ? opts[i].arg : "");
        int k = pl_setting_find(opts[i].name);
        opt_left(f, left);
        if (k < 0 || opts[i].help != pl_settings[k].help) {
            fprintf(f, "%s\n", opts[i].help);
            continue;
        }
        PlSettingId id = (PlSettingId)k;
        fprintf(f, "%s (default %s)\n", opts[i].help, pl_setting_format(&d, id, def, sizeof def));
        if (pl_settings[id].type == PL_ST_CHOICE && strchr(opts[i].arg, '|') == NULL)
            fprintf(f, "  %-24s   %s\n", "", pl_setting_values_text(id, values, sizeof values));
    }
    fprintf(f, "  %-24s %s\n", "--help", "show this help");
}

int cli_settings_opts(unsigned mask, const CliOpt *extra, CliOpt *out, int cap) {
    int n = 0;
    for (int id = 0; id < PL_S_COUNT && n < cap - 1; id++)
        if (mask & PL_S_BIT(id)) out[n++] = (CliOpt){pl_settings[id].name, pl_settings[id].arg, pl_settings[id].help};
    for (int i = 0; extra && extra[i].name && n < cap - 1; i++) out[n++] = extra[i];
    out[n] = (CliOpt){NULL, NULL, NULL};
    return n;
}

int cli_read_settings(const CliArgs *a, unsigned mask, PlLabSettings *s, unsigned *given) {
    if (given) *given = 0;
    for (int id = 0; id < PL_S_COUNT; id++) {
        if (!(mask & PL_S_BIT(id))) continue;
        const char *v = cli_str(a, pl_settings[id].name, NULL);
        char want[160];
        if (!v) continue;
        if (pl_setting_parse(s, (PlSettingId)id, v, want, sizeof want))
            return cli_usage_error(a, "--%s: expected %s, got '%s'", pl_settings[id].name, want, v);
        if (given) *given |= PL_S_BIT(id);
    }
    return 0;
}

static const char *value_of(const CliArgs *a, const char *name) {
    int k = find_opt(a->opts, name, strlen(name));
    return k < 0 ? NULL : a->val[k];
}

const char *cli_str(const CliArgs *a, const char *name, const char *def) {
    const char *v = value_of(a, name);
    return v ? v : def;
}

int cli_flag(const CliArgs *a, const char *name) { return value_of(a, name) != NULL; }

/* Parses a whole decimal integer in [lo, hi]. */
static int parse_int(const char *s, int lo, int hi, int *out) {
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || errno || v < lo || v > hi) return -1;
    *out = (int)v;
    return 0;
}

int cli_int(const CliArgs *a, const char *name, int def, int lo, int hi, int *out) {
    const char *v = value_of(a, name);
    *out = def;
    if (!v) return 0;
    if (parse_int(v, lo, hi, out) == 0) return 0;
    return cli_usage_error(a, "--%s: expected an integer from %d to %d, got '%s'", name, lo, hi, v);
}

int cli_int_list(const CliArgs *a, const char *name, const char *def, int lo, int hi, int *out, int max, int *n) {
    const char *v = value_of(a, name);
    const char *s = v ? v : def;
    char buf[1024], *save = NULL;
    snprintf(buf, sizeof buf, "%s", s);
    *n = 0;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (*n == max) return cli_usage_error(a, "--%s: at most %d values, got '%s'", name, max, s);
        if (parse_int(tok, lo, hi, &out[*n]))
            return cli_usage_error(a, "--%s: expected integers from %d to %d separated by commas, got '%s'", name, lo,
                                   hi, s);
        ++*n;
    }
    if (*n == 0) return cli_usage_error(a, "--%s: expected at least one value", name);
    return 0;
}

int cli_maxlen_list(const CliArgs *a, const char *def, int lo, int hi, const PlCorpus *c, int *out, int max, int *n) {
    const char *v = value_of(a, "maxlen");
    const char *s = v ? v : def;
    char buf[1024], *save = NULL;
    snprintf(buf, sizeof buf, "%s", s);
    *n = 0;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (*n == max) return cli_usage_error(a, "--maxlen: at most %d values, got '%s'", max, s);
        if (strcmp(tok, "none") == 0) out[*n] = c ? pl_corpus_longest(c) : PL_MAXLEN_NONE;
        else if (parse_int(tok, lo, hi, &out[*n]))
            return cli_usage_error(a, max == 1 ? "--maxlen: expected an integer from %d to %d or none, got '%s'"
                                                : "--maxlen: expected integers from %d to %d or none, separated by commas, "
                                                  "got '%s'",
                                   lo, hi, s);
        ++*n;
    }
    if (*n == 0) return cli_usage_error(a, "--maxlen: expected at least one value");
    return 0;
}

int cli_choice(const CliArgs *a, const char *name, const char *def, const char *const *choices, int *out) {
    const char *v = cli_str(a, name, def);
    int i = pl_name_find(choices, v);
    if (i >= 0) return *out = i, 0;
    char list[256] = "";
    for (i = 0; choices[i]; i++) {
        strncat(list, i ? "|" : "", sizeof list - strlen(list) - 1);
        strncat(list, choices[i], sizeof list - strlen(list) - 1);
    }
    return cli_usage_error(a, "--%s: expected %s, got '%s'", name, list, v);
}
