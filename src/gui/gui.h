/* The lab in an SDL2 window, and the figures it draws as PNG and SVG.
 *
 * This header is what the command line sees of the window: plain C, no SDL
 * type, so that only the GUI's own targets compile against SDL2, SDL2_ttf,
 * fontconfig and libpng. */
#ifndef PL_GUI_H
#define PL_GUI_H

#include "app/lab/lab.h"

/* How a frame looks. */
typedef struct {
    int present; /* projector mode: large type, thick lines, high contrast, no chrome */
    int dark;    /* the dark theme (0: light) */
    int classic; /* the classic palette (0: the colour-blind-safe one) */
} GuiLook;

/* The smallest frame laid out at full size (the legible check's smallest);
 * a smaller one is the same frame shrunk, down to GUI_MIN_W x GUI_MIN_H,
 * where the small type is still 9 pixels high. */
#define GUI_FULL_W 1024
#define GUI_FULL_H 600
#define GUI_MIN_W 800
#define GUI_MIN_H 480

struct GuiStyle;
/* The sizes and look of a W x H frame at dpi (device pixels per window
 * coordinate): the one place projector mode's zoom is worked out. The
 * fonts' measure, height and ctx are left as they were. */
void gui_style_for(struct GuiStyle *s, const GuiLook *look, int W, int H, double dpi);

typedef struct {
    PlLabSettings settings; /* the defaults with the flags given */
    unsigned given;         /* the settings given as flags */
    const char *session;    /* --session FILE, or NULL */
    GuiLook look;
    int width, height;      /* the window's (or the screenshot's) size */
    const char *screenshot; /* --screenshot FILE.png: one frame, no display needed */
    double timeout;         /* seconds a screenshot waits for its results */
    const char *lesson;     /* --lesson NAME: play it beside the views, or NULL */
    int review;             /* --review: the lesson questions due today (lesson_review.h) */
    int step;               /* --step N - 1: the lesson's step to open at; -1: where the learner's progress reached */
    const char *drill;      /* --drill DECK: play a deck in the window instead of the lab, or NULL */
    int item;               /* --item N - 1: that item alone (a picture, no progress kept); -1: the session */
    int all, count, timed;  /* the drill's --all, --count N, --timed */
    int klass;              /* --class: the class votes on the lesson's questions (app/class/follow.h) */
    const char *listen;     /* with it: the address, the port (0: a free one), the report's file or NULL */
    int port;
    const char *report;
    int exam;  /* --exam: nothing revealed until the end */
    int fresh; /* --new: a new class, not the one kept of the lesson */
    int seats; /* --seats-per-address N: students one address may seat; 0: no cap */
} GuiArgs;

/* Runs the lab in a window until the user quits. Returns the exit status;
 * 2 after one line on stderr when there is no display to open a window on
 * (or the settings cannot be loaded). With a->screenshot it renders one
 * frame offscreen instead, after waiting for the view's results. */
int gui_run(const GuiArgs *a);

/* What an export writes: any of the three may be NULL. */
typedef struct {
    const char *svg;  /* the plot as SVG, from the display list the window draws */
    const char *csv;  /* the plotted data, one row per point or bar */
    const char *json; /* the view's full data, as the lab's export writes it */
    int width, height;
    GuiLook look;
    double timeout;
} GuiExport;

/* Opens a lab on settings s, waits for view v's results and writes what x
 * names. Returns 0, or 2 (bad settings) / 1 (a file could not be written)
 * after one line on stderr. */
int gui_export(const PlLabSettings *s, PlView v, const GuiExport *x);

/* Writes the figure of lab's view (its settings' view, its results as they
 * are, its veil in force) at W x H as SVG at path, through the atomic
 * writer. 0, or -1 with why (no fonts, no memory, a file that cannot be
 * written), or -2 with why in a padlab built without the window. */
int gui_figure_svg(PlLab *lab, const GuiLook *look, int W, int H, const char *path, char *why, int cap);

#endif
