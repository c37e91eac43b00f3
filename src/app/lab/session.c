/* Lab sessions: the settings, the runs table and the grid, as lines of
 * "key = value". Every setting line comes from the registry (settings.h):
 *
 *   # padlab session
 *   corpus = builtin
 *   padding = post
 *   ...                         one line per setting, in the registry's order
 *   sort = 0                    the runs table's order: 0 as run, 1 by accuracy, 2 by time
 *   grid = padding=pre mask=off ... seeds=3
 *   run = id=4 grid=0 padding=post ... seed=1 best=0.5500 seconds=0.620 batches=9c1e... acc=0.51,0.55 loss=0.69,0.41
 * corpus=builtin
 *
 * batches= is the digest of the batches the run saw (PlLabRun's), 16 hex
 * digits; a run line without one (written before it existed) reads as not
 * known.
 * A run line lists its cold settings as name=value; its corpus comes last and
 * runs to the end of the line, so a path may hold spaces. Runs are kept in
 * the order they finished. The file is written atomically. */
#include <errno.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/atomic.h"
#include "core/corpus_load.h"
#include "core/infile.h"
#include "lab_internal.h"

/* ---- writing ---- */

/* name=value for every cold setting but the corpus (which goes last). */
static void write_cold(FILE *f, const PlLabSettings *s) {
    char buf[600];
    for (int id = 0; id < PL_S_COUNT; id++)
        if (pl_settings[id].cold && id != PL_S_CORPUS && id != PL_S_SEEDS)
            fprintf(f, " %s=%s", pl_settings[id].name, pl_setting_format(s, (PlSettingId)id, buf, sizeof buf));
}

static void write_floats(FILE *f, const char *key, const float *v, int n) {
    fprintf(f, " %s=", key);
    for (int e = 0; e < n; e++) fprintf(f, "%s%.4f", e ? "," : "", (double)v[e]);
}

/* What a session file holds, borrowed from a lab or a PlSession. */
typedef struct {
    const PlLabSettings *s;
    int sort;
    const PlLabSettings *grid_base; /* NULL: no grid line */
    int grid_seeds;
    const PlLabRun *runs;
    int nruns;
} SessionParts;

static int write_session(FILE *f, void *ctx) {
    const SessionParts *p = ctx;
    char buf[600];
    fputs("# padlab session\n", f);
    for (int id = 0; id < PL_S_COUNT; id++)
        fprintf(f, "%s = %s\n", pl_settings[id].name, pl_setting_format(p->s, (PlSettingId)id, buf, sizeof buf));
    fprintf(f, "sort = %d\n", p->sort);
    if (p->grid_base) {
        fputs("grid =", f);
        write_cold(f, p->grid_base);
        fprintf(f, " seeds=%d corpus=%s\n", p->grid_seeds, p->grid_base->corpus);
    }
    for (int i = 0; i < p->nruns; i++) {
        const PlLabRun *r = &p->runs[i];
        fprintf(f, "run = id=%d grid=%d", r->id, r->grid);
        write_cold(f, &r->settings);
        fprintf(f, " best=%.4f seconds=%.3f", (double)r->best_val_acc, r->seconds);
        if (r->batches) fprintf(f, " batches=%016llx", (unsigned long long)r->batches);
        write_floats(f, "acc", r->val_acc, r->epochs);
        write_floats(f, "loss", r->train_loss, r->epochs);
        fprintf(f, " corpus=%s\n", r->settings.corpus);
    }
    return ferror(f) ? -1 : 0;
}

/* ---- two labs on one session ---- */

static int has_run(const PlLabRun *runs, int n, const PlLabRun *r) {
    for (int i = 0; i < n; i++)
        if (runs[i].settings.seed == r->settings.seed && pl_lab_same_setting(&runs[i].settings, &r->settings))
            return 1;
    return 0;
}

/* The runs to write: the file's runs this lab does not hold (another lab's
 * on the same session; the same setting and seed is the same run, since
 * training is deterministic), then the lab's own, the newest
 * PL_LAB_MAX_RUNS kept. A run of the lab whose id is taken by a run before
 * it is numbered after the highest so far. Returns how many, in out
 * (PL_LAB_MAX_RUNS long). */
static int merge_runs(const PlSession *disk, const PlLab *lab, PlLabRun *out) {
    PlLabRun *all = calloc((size_t)(disk->nruns + lab->nruns), sizeof *all);
    if (!all) return -1;
    int n = 0, top = 0;
    for (int i = 0; i < disk->nruns; i++)
        if (!has_run(lab->runs, lab->nruns, &disk->runs[i])) {
            all[n++] = disk->runs[i];
            if (disk->runs[i].id > top) top = disk->runs[i].id;
        }
    for (int i = 0; i < lab->nruns; i++) {
        all[n] = lab->runs[i];
        for (int k = 0; k < n; k++)
            if (all[k].id == all[n].id) {
                all[n].id = top + 1;
                break;
            }
        if (all[n].id > top) top = all[n].id;
        n++;
    }
    int from = n > PL_LAB_MAX_RUNS ? n - PL_LAB_MAX_RUNS : 0;
    memcpy(out, all + from, sizeof *out * (size_t)(n - from));
    free(all);
    return n - from;
}

/* The session as this lab would write it, over what the file holds now. */
static PlStatus save_merged(const PlLab *lab, const char *path, PlErr *err) {
    SessionParts p = {&lab->s,         lab->sort, lab->grid.total ? &lab->grid.base : NULL,
                      lab->grid.seeds, lab->runs, lab->nruns};
    PlErr ignored;
    /* a file that is gone, or that no longer reads, has no runs to keep */
    PlSession *disk = access(path, F_OK) == 0 ? pl_session_read(path, &ignored) : NULL;
    PlLabRun *runs = disk ? calloc(PL_LAB_MAX_RUNS, sizeof *runs) : NULL;
    if (disk && !runs) {
        pl_session_free(disk);
        return pl_err_set(err, PL_ENOMEM, "%s: out of memory", path);
    }
    if (disk) {
        p.nruns = merge_runs(disk, lab, runs);
        p.runs = runs;
        if (!p.grid_base && disk->has_grid) p.grid_base = &disk->grid_base, p.grid_seeds = disk->grid_seeds;
    }
    PlStatus st = p.nruns < 0 ? pl_err_set(err, PL_ENOMEM, "%s: out of memory", path)
                              : pl_write_atomic(path, write_session, &p, err);
    free(runs);
    pl_session_free(disk);
    return st;
}

/* Two labs may share one session (a teacher's and a laptop's): each save
 * reads the file under the lock beside it and keeps the other's runs. */
PlStatus pl_lab_save_session(const PlLab *lab, const char *path, PlErr *err) {
    int fd = pl_lock_beside(path, err);
    if (fd < 0) return PL_EIO;
    PlStatus st = save_merged(lab, path, err);
    close(fd);
    return st;
}

PlStatus pl_session_save(const PlSession *s, const char *path, PlErr *err) {
    SessionParts p = {&s->settings, s->sort, s->has_grid ? &s->grid_base : NULL, s->grid_seeds, s->runs, s->nruns};
    return pl_write_atomic(path, write_session, &p, err);
}

/* ---- reading ---- */

void pl_session_free(PlSession *s) {
    if (!s) return;
    free(s->runs);
    free(s);
}

/* "0.51,0.55,...": at most PL_MAX_EPOCHS numbers from lo to hi (nan and inf
 * are refused: the train view's plots would lose their axes). */
static int parse_floats(char *v, float lo, float hi, float *out, int *n) {
    char *save = NULL, *end;
    *n = 0;
    for (char *a = strtok_r(v, ",", &save); a; a = strtok_r(NULL, ",", &save)) {
        if (*n == PL_MAX_EPOCHS) return -1;
        float x = out[(*n)++] = strtof(a, &end);
        if (end == a || *end || !(x >= lo && x <= hi)) return -1;
    }
    return 0;
}

static int parse_number(const char *v, double lo, double hi, double *out) {
    char *end;
    *out = strtod(v, &end);
    return end != v && !*end && *out >= lo && *out <= hi ? 0 : -1;
}

/* 16 hexadecimal digits, not all 0 (a digest; 0 is "not known", never written). */
static int parse_digest(const char *v, uint64_t *out) {
    if (strlen(v) != 16 || strspn(v, "0123456789abcdef") != 16) return -1;
    *out = strtoull(v, NULL, 16);
    return *out ? 0 : -1;
}

/* One "name=value" of a run or grid line into r (r may be NULL for a grid
 * line, which has seeds= instead). Returns 0, or -1 with what was wrong. */
static int run_field(PlLabSettings *s, PlLabRun *r, int *seeds, const char *key, char *v, char *why, int cap) {
    double x;
    int id = pl_setting_find(key), n = 0;
    if (id >= 0 && pl_settings[id].cold && id != PL_S_SEEDS) {
        char want[160];
        if (!pl_setting_parse(s, (PlSettingId)id, v, want, sizeof want)) return 0;
        return snprintf(why, (size_t)cap, "%s must be %s, got '%.40s'", key, want, v), -1;
    }
    const PlSettingDef *sd = &pl_settings[PL_S_SEEDS]; /* the flag's range */
    if (!r && strcmp(key, "seeds") == 0 && !parse_number(v, sd->lo, sd->hi, &x)) return *seeds = (int)x, 0;
    /* id 0: a run line that had none (pl_lab_restore numbers it), as written back. */
    if (r && strcmp(key, "id") == 0 && !parse_number(v, 0, 1e9, &x)) return r->id = (int)x, 0;
    if (r && strcmp(key, "grid") == 0 && !parse_number(v, 0, 1, &x)) return r->grid = (int)x, 0;
    if (r && strcmp(key, "best") == 0 && !parse_number(v, 0, 1, &x)) return r->best_val_acc = (float)x, 0;
    if (r && strcmp(key, "seconds") == 0 && !parse_number(v, 0, 1e9, &x)) return r->seconds = x, 0;
    if (r && strcmp(key, "batches") == 0) {
        if (!parse_digest(v, &r->batches)) return 0;
        return snprintf(why, (size_t)cap, "batches must be 16 hexadecimal digits, got '%.40s'", v), -1;
    }
    if (r && strcmp(key, "acc") == 0 && !parse_floats(v, 0.0f, 1.0f, r->val_acc, &r->epochs)) return 0;
    if (r && strcmp(key, "loss") == 0 && !parse_floats(v, 0.0f, FLT_MAX, r->train_loss, &n)) {
        if (n == r->epochs) return 0;
        return snprintf(why, (size_t)cap, "loss has %d values and acc %d: one of each per epoch", n, r->epochs), -1;
    }
    if (r && (strcmp(key, "acc") == 0 || strcmp(key, "loss") == 0))
        return snprintf(why, (size_t)cap, "%s takes up to %d numbers%s, got '%.40s'", key, PL_MAX_EPOCHS,
                        *key == 'a' ? " from 0 to 1" : " of 0 or more", v),
               -1;
    static const struct {
        const char *key;
        double lo, hi;
    } numbers[] = {{"id", 0, 1e9}, {"grid", 0, 1}, {"best", 0, 1}, {"seconds", 0, 1e9}};
    for (size_t i = 0; r && i < sizeof numbers / sizeof numbers[0]; i++)
        if (strcmp(key, numbers[i].key) == 0) /* a field of a run, its value out of range */
            return snprintf(why, (size_t)cap, "%s must be a number from %.0f to %.0f, got '%.40s'", key, numbers[i].lo,
                            numbers[i].hi, v),
                   -1;
    if (!r && strcmp(key, "seeds") == 0)
        return snprintf(why, (size_t)cap, "seeds must be a number from %d to %d, got '%.40s'", sd->lo, sd->hi, v), -1;
    return snprintf(why, (size_t)cap, "'%.40s=%.40s' is not a field of a run", key, v), -1;
}

/* "k=v k=v ... corpus=rest of the line". */
static int parse_fields(char *text, PlLabSettings *s, PlLabRun *r, int *seeds, char *why, int cap) {
    char *corpus = strstr(text, "corpus=");
    if (corpus && (corpus == text || corpus[-1] == ' ')) {
        *corpus = '\0';
        char want[160];
        if (pl_setting_parse(s, PL_S_CORPUS, corpus + 7, want, sizeof want))
            return snprintf(why, (size_t)cap, "corpus must be %s", want), -1;
    }
    char *save = NULL;
    for (char *tok = strtok_r(text, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq) return snprintf(why, (size_t)cap, "expected name=value, got '%.40s'", tok), -1;
        *eq = '\0';
        if (run_field(s, r, seeds, tok, eq + 1, why, cap)) return -1;
    }
    return 0;
}

static char *trim(char *s) {
    while (*s == ' ' || *s == '\t') s++;
    char *e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r')) *--e = '\0';
    return s;
}

static PlStatus parse_line(const char *path, int no, char *line, PlSession *out, PlErr *err) {
    char *t = trim(line), why[300];
    if (!*t || *t == '#') return PL_OK;
    char *eq = strchr(t, '=');
    if (!eq) return pl_err_set(err, PL_EINPUT, "%s:%d: expected 'setting = value', got '%.40s'", path, no, t);
    *eq = '\0';
    char *key = trim(t), *v = trim(eq + 1);
    double x;
    int id = pl_setting_find(key);
    if (id >= 0) {
        if (!pl_setting_parse(&out->settings, (PlSettingId)id, v, why, sizeof why)) return PL_OK;
        return pl_err_set(err, PL_EINPUT, "%s:%d: %s must be %s, got '%.40s'", path, no, key, why, v);
    }
    if (strcmp(key, "sort") == 0) {
        if (parse_number(v, 0, 2, &x))
            return pl_err_set(err, PL_EINPUT, "%s:%d: sort must be 0, 1 or 2, got '%.40s'", path, no, v);
        out->sort = (int)x;
        return PL_OK;
    }
    if (strcmp(key, "grid") == 0) {
        out->grid_base = out->settings;
        out->grid_seeds = PL_DEFAULT_SEEDS;
        if (parse_fields(v, &out->grid_base, NULL, &out->grid_seeds, why, sizeof why))
            return pl_err_set(err, PL_EINPUT, "%s:%d: a grid line: %s", path, no, why);
        out->has_grid = 1;
        return PL_OK;
    }
    if (strcmp(key, "run") == 0) {
        PlLabRun r;
        memset(&r, 0, sizeof r);
        r.settings = out->settings;
        if (parse_fields(v, &r.settings, &r, NULL, why, sizeof why))
            return pl_err_set(err, PL_EINPUT, "%s:%d: a run line: %s", path, no, why);
        if (out->nruns == PL_LAB_MAX_RUNS) /* the newest are kept, as the lab keeps them */
            memmove(out->runs, out->runs + 1, (PL_LAB_MAX_RUNS - 1) * sizeof *out->runs), out->nruns--;
        out->runs[out->nruns++] = r;
        return PL_OK;
    }
    return pl_err_set(err, PL_EINPUT, "%s:%d: unknown setting '%.40s'", path, no, key);
}

PlSession *pl_session_read(const char *path, PlErr *err) {
    FILE *f;
    /* only a regular file: a FIFO or a device named as the session would block or never end */
    if (pl_infile_open(path, 0, &f, NULL, err)) return NULL;
    PlSession *s = calloc(1, sizeof *s);
    if (s) s->runs = calloc(PL_LAB_MAX_RUNS, sizeof *s->runs);
    if (!s || !s->runs) {
        fclose(f);
        pl_session_free(s);
        pl_err_set(err, PL_ENOMEM, "%s: out of memory", path);
        return NULL;
    }
    s->settings = pl_settings_default();
    char line[8192];
    int no = 0;
    PlStatus st = PL_OK;
    while (!st && fgets(line, sizeof line, f)) {
        no++;
        if (!strchr(line, '\n') && !feof(f)) st = pl_err_set(err, PL_EINPUT, "%s:%d: line too long", path, no);
        else st = parse_line(path, no, line, s, err);
    }
    fclose(f);
    if (st) {
        pl_session_free(s);
        return NULL;
    }
    return s;
}

/* The chance of the corpus run k trained on: the lab's own when it is the
 * lab's corpus, else read from that corpus (the run of another corpus is
 * read against its own chance); left unknown when it no longer loads. */
static void run_chance(PlLab *lab, int k) {
    PlLabRun *r = &lab->runs[k];
    for (int i = 0; i < k; i++)
        if (strcmp(lab->runs[i].settings.corpus, r->settings.corpus) == 0) {
            r->chance = lab->runs[i].chance;
            return;
        }
    if (strcmp(r->settings.corpus, lab->s.corpus) == 0) {
        r->chance = lab->chance;
        return;
    }
    PlCorpus *c = NULL;
    if (pl_corpus_load(r->settings.corpus, NULL, &c, NULL) == PL_OK) r->chance = pl_chance_of(c, PL_VAL_SPLIT);
    pl_corpus_free(c);
}

void pl_lab_restore(PlLab *lab, const PlSession *s) {
    lab->nruns = s->nruns < PL_LAB_MAX_RUNS ? s->nruns : PL_LAB_MAX_RUNS;
    memcpy(lab->runs, s->runs, sizeof lab->runs[0] * (size_t)lab->nruns);
    for (int i = 0; i < lab->nruns; i++) {
        if (lab->runs[i].id < 1) lab->runs[i].id = i + 1;
        if (lab->runs[i].id >= lab->next_run_id) lab->next_run_id = lab->runs[i].id + 1;
        run_chance(lab, i);
    }
    lab->sort = s->sort;
    if (lab->nruns)
        snprintf(lab->tr.status, sizeof lab->tr.status, "%d run%s from the session, as they were (r retrains)",
                 lab->nruns, lab->nruns > 1 ? "s" : "");
    if (s->has_grid) {
        memset(&lab->grid, 0, sizeof lab->grid);
        lab->grid.base = s->grid_base;
        lab->grid.seeds = s->grid_seeds;
        lab->grid.total = 4 * s->grid_seeds;
        lab->grid.finished = lab->grid.total;
        lab->grid.done = 1;
        snprintf(lab->grid.status, sizeof lab->grid.status, "the grid, as the session kept it");
    }
}

/* ---- opening: the one decision of both front ends ---- */

/* The first of FILE.1 .. FILE.99 that names nothing (not even a link), into alt; 0, or -1
 * when none is free. */
static int name_beside(const char *path, char *alt, size_t cap) {
    for (int k = 1; k < 100; k++) {
        if ((size_t)snprintf(alt, cap, "%s.%d", path, k) >= cap) break;
        struct stat st; /* lstat: a link, even to nowhere, is a name taken */
        if (lstat(alt, &st) != 0 && errno == ENOENT) return 0;
    }
    alt[0] = '\0';
    return -1;
}

/* The flags given, over the session's settings. */
static PlLabSettings merged(const PlLabSettings *session, const PlLabSettings *flags, unsigned given) {
    PlLabSettings m = *session;
    PlSettingsPatch p = {.mask = given, .values = *flags};
    pl_settings_patch_apply(&m, &p);
    return m;
}

void pl_session_open(PlSessionOpen *out, const char *path, const PlLabSettings *flags, unsigned given) {
    memset(out, 0, sizeof *out);
    out->settings = *flags;
    if (!path) return;
    snprintf(out->save, sizeof out->save, "%s", path);
    if (access(path, F_OK) != 0 && errno == ENOENT) return; /* a new session: written after the first run */
    PlErr err;
    out->session = pl_session_read(path, &err);
    if (out->session) {
        out->settings = merged(&out->session->settings, flags, given);
        return;
    }
    snprintf(out->error, sizeof out->error, "%s", err.msg);
    /* a file it could not read is never written over: the session goes beside it */
    int beside = name_beside(path, out->save, sizeof out->save) == 0;
    const char *slash = strrchr(out->save, '/');
    if (beside)
        snprintf(out->problem, sizeof out->problem, "%.150s: the lab will not write over it; saving to %.80s beside it",
                 err.msg, slash ? slash + 1 : out->save);
    else
        snprintf(out->problem, sizeof out->problem,
                 "%.150s: the lab will not write over it; this session will not be saved", err.msg);
}

void pl_session_open_done(PlSessionOpen *o) {
    if (!o) return;
    pl_session_free(o->session);
    o->session = NULL;
}
