/* The class's projector on a terminal: the session's side of the curses
 * screen (src/tui/class_pane.h, which draws and reads the keys). It says
 * what the projector shows, polls the lab and the class, and hands the keys
 * to the session (class_present.c). */
#include <string.h>

#include "class_present_int.h"
#include "tui/class_pane.h"
#include "tui/screen.h"

typedef struct {
    Present *p;
    unsigned shown; /* the class's version last shown */
    int students;   /* and its students */
    int step;       /* the step last shown */
} Projector;

static int started; /* curses runs */

static void screen(void *self, TuiClassScreen *s) {
    Projector *j = self;
    Present *p = j->p;
    PlClassNow n;
    pl_class_now(p->c, &n);
    *s = (TuiClassScreen){.title = p->l->title,
                          .step = p->step,
                          .nsteps = p->l->nsteps,
                          .url = p->url,
                          .code = pl_class_code(p->c),
                          .narration = p->narration,
                          .board = {.qi = pl_class_follow_question(p->f, p->step),
                                    .exam = p->f->exam,
                                    .after = cp_after(p),
                                    .share = p->computing ? p->share : -1,
                                    .eta = p->eta,
                                    .note = p->f->note[0] ? p->f->note : NULL},
                          .new_step = p->step != j->step};
    cp_draw_presenter(p);
    j->shown = n.version, j->students = pl_class_students(p->c), j->step = p->step;
}

static int tick(void *self) {
    Projector *j = self;
    Present *p = j->p;
    int changed = pl_lab_tick(p->lab) | cp_tick(p);
    PlClassNow n;
    pl_class_now(p->c, &n);
    cp_keep(p, 0);
    return changed || n.version != j->shown || pl_class_students(p->c) != j->students;
}

static int moving(void *self) {
    Projector *j = self;
    PlClassNow n;
    pl_class_now(j->p->c, &n);
    return n.countdown > 0 || j->p->computing || j->p->pres >= 0;
}

static int key(void *self, int k) {
    Projector *j = self;
    if (!cp_key(j->p, k)) return 1;
    cp_keep(j->p, 0);
    return 0;
}

static Projector projector;
static int exam_qs[PL_CLASS_MAX_QUESTIONS];

static void page(void *self, int i) {
    Projector *j = self;
    pl_class_reveal_at(j->p->c, exam_qs[i], j->p->f->value[exam_qs[i]]); /* current: the pages show it too */
}

static TuiClassLoop loop_of(Present *p) {
    projector = (Projector){.p = p, .shown = ~0u, .students = -1, .step = -1};
    return (TuiClassLoop){.self = &projector,
                          .lab = p->lab,
                          .c = p->c,
                          .tick = tick,
                          .screen = screen,
                          .moving = moving,
                          .key = key,
                          .page = page};
}

int cp_projector_run(Present *p) {
    char why[200];
    TuiClassLoop l = loop_of(p);
    if (tui_class_run(&l, why, sizeof why)) return -1;
    started = 1;
    return 0;
}

void cp_projector_exam(Present *p, const int *qs, int n) {
    TuiClassLoop l = loop_of(p);
    memcpy(exam_qs, qs, (size_t)n * sizeof *qs);
    tui_class_exam(&l, exam_qs, n);
}

void cp_projector_end(Present *p) {
    (void)p;
    if (started) tui_screen_end(), started = 0;
}
