/* The class's box in the window (padlab gui --lesson NAME --class): at the
 * foot of the lesson pane, the join address and its QR code (dark modules
 * on light, a quiet zone of four, whole pixels a module, so a phone reads
 * it off the projector), the code, how many have answered (never what)
 * while a question is open, and after the reveal the tally as bars, rounds
 * side by side, the right answer marked and the lab's number named. It
 * reads the class (app/class/follow.h) and computes nothing. */
#ifndef PL_GUI_CLASS_PANE_H
#define PL_GUI_CLASS_PANE_H

#include "app/class/follow.h"
#include "dl.h"

typedef struct {
    PlClassFollow *f;
    const char *url;   /* where students join */
    double share, eta; /* the step's numbers still train: share done, seconds left (-1: not known); share < 0: done */
} GuiClassBox;

/* The box in r (r.h unused): its height at r.w, drawn when draw is set.
 * size is the text size it starts from and the QR code starts at half the
 * width; rather than more than max_h it takes a smaller type, then smaller
 * modules, down to GUI_SMALL and 3 pixels a module, then the tally without
 * its rows (each round's count right, the most given wrong answer, the
 * right one), then without the wrong one: the code is never left out (the
 * box may then be more than max_h). */
double gui_class_box(GuiList *dl, const GuiClassBox *k, GuiRect r, int size, double max_h, int draw);
/* The box's least height in r while there is the room: GUI_SMALL, the
 * code's side a fifth of the window's height (3 pixels a module at least),
 * the tally whole. */
double gui_class_box_least(GuiList *dl, const GuiClassBox *k, GuiRect r);

#endif
