/* The presenter view (class_presenter.h). */
#include "class_presenter.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "class_screen.h"
#include "core/text.h"

int cli_presenter_open(const char *path, char *why, int cap) {
    int fd = open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0 && errno == ENXIO)
        return snprintf(why, (size_t)cap, "%s: a FIFO no one reads yet (start its reader first)", path), -1;
    if (fd < 0) return snprintf(why, (size_t)cap, "%s: cannot open: %s", path, strerror(errno)), -1;
    struct stat st;
    if (fstat(fd, &st) || (!isatty(fd) && !S_ISFIFO(st.st_mode))) {
        close(fd);
        return snprintf(why, (size_t)cap, "%s: not a terminal (run tty in the terminal the presenter view goes to)",
                        path),
               -1;
    }
    return fd;
}

static void clock_text(char *out, size_t cap, double s) {
    long t = s > 0 ? (long)s : 0;
    snprintf(out, cap, "%ld:%02ld", t / 60, t % 60);
}

/* The class's part: students joined, and the answers to the step's question. */
static void answers(FILE *f, PlClass *c, const ClassPresenter *s) {
    PlClassNow n;
    pl_class_now(c, &n);
    fprintf(f, "students: %d", pl_class_students(c));
    if (s->qi < 0) fputs("   (no question on this step)\n", f);
    else if (n.q != s->qi || n.phase == PL_CLASS_WAIT) fputs("   (the question is not open)\n", f);
    else if (n.phase == PL_CLASS_OPEN) {
        fprintf(f, "   answered: %d of %d, round %d", pl_class_count(c, n.q, n.round), pl_class_students(c), n.round);
        if (n.round == 2) fprintf(f, " (round 1: %d)", pl_class_count(c, n.q, 1));
        fputs(s->exam ? "   (an exam: revealed at the end)\n" : "\n", f);
    } else fputs("   revealed on the projector\n", f);
}

/* The notes, wrapped at the terminal's width at spaces (a terminal would cut words). */
static void notes(FILE *f, const char *text, int cols) {
    char para[4200];
    snprintf(para, sizeof para, "notes: %s", text ? text : "(none for this step)");
    cli_wrap_text(f, para, cols, 7);
}

static void frame(FILE *f, PlClass *c, const ClassPresenter *s, int cols) {
    char on[32], all[32];
    clock_text(on, sizeof on, s->on_step), clock_text(all, sizeof all, s->in_all);
    pl_text_printf_lines(f, "presenter: %s\n", s->title);
    pl_text_printf_lines(f, "step %d of %d: %s\n", s->step + 1, s->nsteps, s->step_title);
    fprintf(f, "on this step %s, in all %s\n", on, all);
    answers(f, c, s);
    fputc('\n', f);
    notes(f, s->notes, cols);
    if (s->next_title) pl_text_printf_lines(f, "\nnext: %s\n", s->next_title);
    else fputs("\nnext: the end (q)\n", f);
}

void cli_presenter_draw(int fd, PlClass *c, const ClassPresenter *s) {
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f) return;
    struct winsize ws;
    int tty = isatty(fd), cols = tty && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20 ? ws.ws_col : 80;
    fputs(tty ? "\033[H\033[2J" : "----\n", f);
    frame(f, c, s, cols);
    if (fclose(f) == 0)
        for (size_t off = 0; off < n;) { /* a terminal that cannot take it now loses the frame, not the lesson */
            ssize_t w = write(fd, buf + off, n - off);
            if (w <= 0) break;
            off += (size_t)w;
        }
    free(buf);
}
