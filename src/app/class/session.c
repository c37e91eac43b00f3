/* A class session kept on disk and resumed (session.h). */
#include "session.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "app/dirs.h"
#include "app/state.h"
#include "app/teach/choices.h"
#include "app/teach/renamed.h"
#include "core/folder.h"

/* Where a class of this lesson is kept: STATE/classes/NAME.class (an exam
 * NAME-exam.class), and where a saved one is read from: the same, or the
 * file of the lesson's old name when only that one is there (it is kept
 * under the new name from then on). 0, or -1 with why. */
/* The file of the class of lesson `name` in dir (an exam's: NAME-exam.class). */
static void class_file(char *out, size_t cap, const char *dir, const char *name, int exam) {
    snprintf(out, cap, "%.900s/%.90s%s.class", dir, name, exam ? "-exam" : "");
}

static int saved_path(PlClassSession *s, const PlLesson *l, int exam, char *why, int cap) {
    char dir[900];
    PlErr err;
    if (pl_dir_state(dir, sizeof dir - 16, &err)) return snprintf(why, (size_t)cap, "%s", err.msg), -1;
    strcat(dir, "/classes");
    if (pl_folder_make(dir, &err)) return snprintf(why, (size_t)cap, "%s", err.msg), -1;
    class_file(s->saved, sizeof s->saved, dir, l->name, exam);
    snprintf(s->kept, sizeof s->kept, "%s", s->saved);
    const char *was = pl_lesson_was(l->name);
    char old[1100];
    class_file(old, sizeof old, dir, was ? was : "", exam);
    if (was && access(s->saved, F_OK) && !access(old, F_OK)) snprintf(s->kept, sizeof s->kept, "%s", old);
    return 0;
}

/* A class kept under an old name of this lesson that split (its steps now
 * in two lessons) cannot be resumed: said in why, the new class begins
 * beside it. Nothing when this lesson's own class is kept, or none is. */
static void split_note(const PlClassSession *s, const PlLesson *l, int exam, char *why, int cap) {
    int n;
    const PlLessonRenamed *r = pl_lesson_renames(&n);
    if (!access(s->kept, F_OK)) return;
    for (int i = 0; i < n; i++) {
        char dir[1100], old[1100], went[200] = "";
        if (strcmp(r[i].now, l->name)) continue;
        snprintf(dir, sizeof dir, "%s", s->saved);
        *(strrchr(dir, '/') ? strrchr(dir, '/') : dir) = '\0'; /* the folder saved_path made */
        class_file(old, sizeof old, dir, r[i].old, exam);
        if (access(old, F_OK)) continue;
        for (int j = 0; j < n; j++) /* the lessons its steps went to, each once */
            if (!strcmp(r[j].old, r[i].old) && !strstr(went, r[j].now))
                snprintf(went + strlen(went), sizeof went - strlen(went), "%s%s", went[0] ? " and " : "", r[j].now);
        snprintf(why, (size_t)cap,
                 "a class of %.90s, kept from before the lessons were renumbered, cannot be resumed: its steps are "
                 "now in %.150s; a new class begins (the old one stays in %.400s)",
                 r[i].old, went, old);
        return;
    }
}

/* The votes' clock: milliseconds since the class began (resumed: since it
 * first began). */
static int64_t class_ms(void *ctx) {
    const PlClassSession *s = ctx;
    int64_t t = s->wall_ms() - s->began_ms;
    return t > 0 ? t : 0;
}

/* Whether the saved class is this one (lesson and settings): 1, 0 when
 * there is none to resume, -1 with why when it cannot be read or is
 * another's. */
static int saved_one(PlClassSession *s, const PlClassSessionArgs *a, PlClassMeta *m, char *why, int cap) {
    if (a->fresh || access(s->kept, F_OK)) return 0;
    if (pl_class_meta_read(s->kept, m, why, cap)) return -1;
    const char *now = pl_lesson_renamed(m->lesson);
    if (now && strcmp(now, s->meta.lesson) == 0) snprintf(m->lesson, sizeof m->lesson, "%s", now);
    if (strcmp(m->lesson, s->meta.lesson) || strcmp(m->settings, s->meta.settings))
        return snprintf(why, (size_t)cap,
                        "a class of %.90s on other settings is kept in %.400s: give its settings, or --new", m->lesson,
                        s->kept),
               -1;
    return 1;
}

/* Where the report goes: the resumed class's own (written again whole), or
 * a name no other report has. 0, or -1 with why. */
static int report_path(PlClassSession *s, const char *asked, const char *name, char *why, int cap) {
    if (!asked) return snprintf(s->report, sizeof s->report, "%s", s->resumed ? s->meta.report : ""), 0;
    int same = s->resumed && s->meta.report[0] && !strncmp(s->meta.report, asked, strlen(asked));
    char msg[300];
    if (pl_class_report_path(asked, name, same, s->report, sizeof s->report, msg, sizeof msg))
        return snprintf(why, (size_t)cap, "--report: %s", msg), -1;
    if (same) snprintf(s->report, sizeof s->report, "%s", s->meta.report);
    snprintf(s->meta.report, sizeof s->meta.report, "%s", s->report);
    return 0;
}

int pl_class_session_open(PlClassSession *s, const PlClassSessionArgs *a, char *why, int cap) {
    PlErr err;
    PlClassMeta m;
    char msg[700];
    memset(s, 0, sizeof *s);
    s->wall_ms = a->wall_ms;
    why[0] = '\0';
    pl_state_format(a->settings, s->meta.settings, sizeof s->meta.settings);
    snprintf(s->meta.lesson, sizeof s->meta.lesson, "%s", a->l->name);
    s->meta.exam = a->exam;
    int resume = 0;
    if (a->unkept) s->saved[0] = '\0';
    else if (saved_path(s, a->l, a->exam, msg, sizeof msg))
        snprintf(why, (size_t)cap, "the class will not be kept: %.250s", msg), s->saved[0] = '\0',
            snprintf(s->lost, sizeof s->lost, "the class was not kept, so the same command cannot resume it: %.200s",
                     msg);
    else if ((resume = saved_one(s, a, &m, msg, sizeof msg)) < 0)
        return snprintf(why, (size_t)cap, "%.600s%s", msg, strstr(msg, "--new") ? "" : " (--new starts a new class)"),
               -1;
    if (!resume && !a->fresh && s->saved[0]) split_note(s, a->l, a->exam, why, cap);
    if (resume) s->meta = m;
    else pl_class_new_code(s->meta.code), s->meta.salt = pl_choices_new_salt(), s->meta.began = a->wall_ms() / 1000;
    if (pl_class_follow_init(&s->f, a->l, s->meta.code, s->meta.salt, a->exam, &err))
        return snprintf(why, (size_t)cap, "%s", err.msg), -1;
    s->c = s->f.c;
    if (resume && pl_class_restore(s->c, s->kept, msg, sizeof msg))
        return snprintf(why, (size_t)cap, "%.600s (--new starts a new class)", msg), -1;
    s->resumed = resume;
    s->began_ms = (int64_t)s->meta.began * 1000;
    pl_class_set_clock(s->c, class_ms, s);
    s->step = resume && s->meta.step < a->l->nsteps ? s->meta.step : 0;
    return report_path(s, a->report, a->l->name, why, cap);
}

void pl_class_session_keep(PlClassSession *s, int step, int always) {
    PlClassNow n;
    char why[300];
    if (!s->saved[0] || !s->c) return;
    pl_class_now(s->c, &n);
    if (!always && n.version == s->saved_version && s->meta.step == step) return;
    s->meta.step = step;
    if (pl_class_save(s->c, &s->meta, s->saved, why, sizeof why)) {
        snprintf(s->f.note, sizeof s->f.note, "the class is not kept: %.170s", why);
        snprintf(s->lost, sizeof s->lost, "the class could not be kept, so the same command cannot resume it: %.170s",
                 why);
        s->saved[0] = '\0';
        return;
    }
    s->saved_version = n.version;
}

int pl_class_session_end(PlClassSession *s, int step, const char *title, char *written, int wcap, char *why, int cap) {
    written[0] = '\0';
    pl_class_session_keep(s, step, 1); /* as it was when it ended: the same command resumes it there */
    pl_class_end(s->c);                /* every page says so */
    if (s->report[0]) {
        pl_class_report_meta(s->c, &s->meta, (long long)(s->wall_ms() / 1000));
        if (pl_class_report_write(s->c, s->report, title, why, cap)) return -1;
        snprintf(written, (size_t)wcap, "%s", s->report);
    }
    if (s->lost[0]) return snprintf(why, (size_t)cap, "%s", s->lost), -1;
    return 0;
}

void pl_class_session_done(PlClassSession *s) {
    pl_class_follow_done(&s->f);
    s->c = NULL;
}

void pl_class_session_say_resumed(const PlClassSession *s, FILE *f) {
    if (!s->resumed) return;
    int n = pl_class_students(s->c);
    fprintf(f, "class: resumed, %d student%s, at step %d\n", n, n == 1 ? "" : "s", s->step + 1);
}
