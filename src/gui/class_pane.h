/* The class's box in the window (padlab gui --lesson NAME --class): at the
 * foot of the lesson pane, the join address and code, how many have
 * answered (never what) while a question is open, and after the reveal the
 * tally as bars, rounds side by side, the right answer marked and the lab's
 * number named. It reads the class (app/class/follow.h) and computes
 * nothing. */
#ifndef PL_GUI_CLASS_PANE_H
#define PL_GUI_CLASS_PANE_H

#include "app/class/follow.h"
#include "dl.h"

typedef struct {
    PlClassFollow *f;
    const char *url; /* where students join */
} GuiClassBox;

/* The box in r (r.h unused): its height at r.w, drawn when draw is set.
 * size is the text size it starts from; it takes a smaller one rather
 * than more than most of the column (max_h). */
double gui_class_box(GuiList *dl, const GuiClassBox *k, GuiRect r, int size, double max_h, int draw);

#endif
