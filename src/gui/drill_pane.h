/* A drill in the window: the item as the app layer says it
 * (app/drill_play.h, the same as the terminal's), wrapped to the pane's
 * width in pixels in the window's one page pane (player_pane.h), whose
 * keys are the drill's too, and a bug case's lab view beside it. */
#ifndef PL_GUI_DRILL_PANE_H
#define PL_GUI_DRILL_PANE_H

#include "app/teach/drill_play.h"
#include "dl.h"

/* Lays the drill out in r at app time now: its head, the item scrolled by
 * p->scroll lines (clamped here), and beside a bug case its lab's view (the
 * whole of r when zoomed). size is the text size (GUI_NORMAL, or GUI_LARGE
 * in classroom mode). Tags the pane "drill", the item's lines by their
 * part ("drill-front", "drill-answer", "drill-why", "drill-verdict",
 * "drill-symptom", "drill-fixed") and the view "drill-view". */
void gui_drill_frame(GuiList *dl, PlDrillPlay *p, GuiRect r, int size, double now);
/* The drill over the whole W x H list at app time now, as the window draws
 * it: the keys along the bottom (classroom mode: none, the type large). */
void gui_drill_window(GuiList *dl, PlDrillPlay *p, double now);

#endif
