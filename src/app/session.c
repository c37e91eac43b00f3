/* Lab sessions: the settings and the runs table as "key = value" lines.
 *
 *   # padlab session
 *   corpus = builtin
 *   padding = post
 *   ...
 *   run = model=rnn padding=post truncating=pre mask=off maxlen=200 batching=static seed=0 best=0.5500 seconds=0.62 acc=0.51,0.55
 *
 * Written to FILE.tmp and renamed over FILE, so a crash never leaves half a
 * session. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"

static const char *const onoff[] = {"off", "on"};

static void write_settings(FILE *f, const PlLabSettings *s, const char *sep, const char *eq) {
    fprintf(f, "model%s%s%spadding%s%s%struncating%s%s%smask%s%s%smaxlen%s%d%sbatching%s%s%sseed%s%d", eq,
            pl_arch_name(s->model), sep, eq, pl_side_name(s->padding), sep, eq, pl_side_name(s->truncating), sep, eq,
            onoff[s->mask], sep, eq, s->maxlen, sep, eq, pl_batching_name(s->batching), sep, eq, s->seed);
}

PlStatus pl_lab_save_session(const PlLab *lab, const char *path, PlErr *err) {
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) return pl_err_set(err, PL_EIO, "%s: cannot write: %s", tmp, strerror(errno));
    const PlLabSettings *s = pl_lab_settings(lab);
    fprintf(f, "# padlab session\ncorpus = %s\n", s->corpus);
    write_settings(f, s, "\n", " = ");
    fprintf(f, "\nconvention = %s\nexample = %d\nview = %s\n", pl_mask_conv_name(s->conv), s->example, pl_view_name(s->view));
    int n;
    const PlLabRun *runs = pl_lab_runs(lab, &n);
    for (int i = 0; i < n; i++) {
        fputs("run = ", f);
        write_settings(f, &runs[i].settings, " ", "=");
        fprintf(f, " best=%.4f seconds=%.3f acc=", (double)runs[i].best_val_acc, runs[i].seconds);
        for (int e = 0; e < runs[i].epochs; e++) fprintf(f, "%s%.4f", e ? "," : "", (double)runs[i].val_acc[e]);
        fputc('\n', f);
    }
    int ok = !ferror(f);
    if (fclose(f) != 0) ok = 0;
    if (!ok || rename(tmp, path) != 0) {
        int e = errno;
        remove(tmp);
        return pl_err_set(err, PL_EIO, "%s: cannot write: %s", path, strerror(e));
    }
    return PL_OK;
}

/* Sets one setting from its text; returns 0, or -1 with what was expected in *want. */
static int set_value(PlLabSettings *s, const char *key, const char *v, const char **want) {
    int n;
    char end;
    if (strcmp(key, "model") == 0) return *want = "rnn, gru, lstm, avgpool or attention", pl_arch_parse(v, &s->model);
    if (strcmp(key, "padding") == 0) return *want = "pre or post", pl_side_parse(v, &s->padding);
    if (strcmp(key, "truncating") == 0) return *want = "pre or post", pl_side_parse(v, &s->truncating);
    if (strcmp(key, "batching") == 0) return *want = "a batching strategy", pl_batching_parse(v, &s->batching);
    if (strcmp(key, "convention") == 0) return *want = "keras, torch, hf or additive", pl_mask_conv_parse(v, &s->conv);
    if (strcmp(key, "view") == 0) return *want = "a view name", pl_view_parse(v, &s->view);
    if (strcmp(key, "mask") == 0) {
        *want = "on or off";
        if (strcmp(v, "on") && strcmp(v, "off")) return -1;
        s->mask = strcmp(v, "on") == 0;
        return 0;
    }
    int *target = strcmp(key, "maxlen") == 0 ? &s->maxlen : strcmp(key, "seed") == 0 ? &s->seed : strcmp(key, "example") == 0 ? &s->example : NULL;
    if (!target) return *want = "a known setting", -2;
    *want = "a whole number";
    if (sscanf(v, "%d%c", &n, &end) != 1 || n < 0 || (target == &s->maxlen && (n < 1 || n > 100000))) return -1;
    *target = n;
    return 0;
}

/* "k=v k=v ..." of a run line. */
static int parse_run(char *text, PlLabRun *r, const char **want) {
    memset(r, 0, sizeof *r);
    r->settings = pl_lab_settings_default();
    char *save = NULL;
    for (char *tok = strtok_r(text, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq) return *want = "key=value pairs", -1;
        *eq = '\0';
        char *v = eq + 1;
        if (strcmp(tok, "best") == 0) r->best_val_acc = strtof(v, NULL);
        else if (strcmp(tok, "seconds") == 0) r->seconds = strtod(v, NULL);
        else if (strcmp(tok, "acc") == 0) {
            char *s2 = NULL;
            for (char *a = strtok_r(v, ",", &s2); a && r->epochs < PL_MAX_EPOCHS; a = strtok_r(NULL, ",", &s2)) r->val_acc[r->epochs++] = strtof(a, NULL);
        } else if (set_value(&r->settings, tok, v, want)) return -1;
    }
    return 0;
}

static char *trim(char *s) {
    while (*s == ' ' || *s == '\t') s++;
    char *e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r')) *--e = '\0';
    return s;
}

static PlStatus parse_line(const char *path, int line_no, char *line, PlLabSettings *s, PlLabRun *runs, int *nruns, PlErr *err) {
    char *t = trim(line);
    if (!*t || *t == '#') return PL_OK;
    char *eq = strchr(t, '=');
    if (!eq) return pl_err_set(err, PL_EINPUT, "%s:%d: expected 'setting = value', got '%.40s'", path, line_no, t);
    *eq = '\0';
    char *key = trim(t), *v = trim(eq + 1);
    const char *want = "";
    if (strcmp(key, "corpus") == 0) {
        if (!*v || strlen(v) >= sizeof s->corpus) return pl_err_set(err, PL_EINPUT, "%s:%d: corpus must be a name or a path", path, line_no);
        snprintf(s->corpus, sizeof s->corpus, "%s", v);
        return PL_OK;
    }
    if (strcmp(key, "run") == 0) {
        if (*nruns >= PL_LAB_MAX_RUNS) return PL_OK;
        if (parse_run(v, &runs[*nruns], &want)) return pl_err_set(err, PL_EINPUT, "%s:%d: a run needs %s", path, line_no, want);
        ++*nruns;
        return PL_OK;
    }
    int rc = set_value(s, key, v, &want);
    if (rc == -2) return pl_err_set(err, PL_EINPUT, "%s:%d: unknown setting '%.40s'", path, line_no, key);
    if (rc) return pl_err_set(err, PL_EINPUT, "%s:%d: %s must be %s, got '%.40s'", path, line_no, key, want, v);
    return PL_OK;
}

PlStatus pl_lab_read_session(const char *path, PlLabSettings *s, PlLabRun *runs, int *nruns, PlErr *err) {
    FILE *f = fopen(path, "r");
    if (!f) return pl_err_set(err, PL_EIO, "%s: cannot open: %s", path, strerror(errno));
    PlLabSettings got = pl_lab_settings_default();
    char line[8192];
    int line_no = 0, n = 0;
    PlStatus st = PL_OK;
    while (!st && fgets(line, sizeof line, f)) {
        line_no++;
        if (!strchr(line, '\n') && !feof(f)) st = pl_err_set(err, PL_EINPUT, "%s:%d: line too long", path, line_no);
        else st = parse_line(path, line_no, line, &got, runs, &n, err);
    }
    fclose(f);
    if (st) return st;
    *s = got;
    *nruns = n;
    return PL_OK;
}
