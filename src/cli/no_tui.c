/* The terminal lab's stand-in, linked into a padlab configured with
 * --disable-tui: the headless commands work as ever, and where the lab, a
 * lesson or a drill would take over the terminal, one line says why not. */
#include <stdio.h>
#include <unistd.h>

#include "tui/class_pane.h"
#include "tui/drill_screen.h"
#include "tui/screen.h"
#include "tui/tui.h"

/* Without a terminal the commands answer as the real lab does (-1: the lab
 * prints the report, a lesson or a drill says how to rehearse it); in one,
 * the line and status 2. */
static int built_without(const char *who, char *why, int cap) {
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        snprintf(why, (size_t)cap, "no terminal attached");
        return -1;
    }
    fprintf(stderr, "%s: this padlab was built without the terminal lab (configure --disable-tui)\n", who);
    return 2;
}

int tui_run(const TuiArgs *a, char *why, int cap) {
    return built_without(a->lesson || a->review ? "padlab lesson" : "padlab", why, cap);
}

int tui_drill_run(const TuiDrillArgs *a, char *why, int cap) {
    (void)a;
    return built_without("padlab drill", why, cap);
}

/* A class's projector: its text frames, as on a terminal curses cannot drive. */
int tui_class_run(const TuiClassLoop *l, char *why, int cap) {
    (void)l;
    snprintf(why, (size_t)cap, "this padlab was built without the terminal lab");
    return -1;
}

void tui_class_exam(const TuiClassLoop *l, const int *qs, int n) { (void)l, (void)qs, (void)n; }
int tui_screen_quit_signal(void) { return 0; }
void tui_screen_end(void) {}
