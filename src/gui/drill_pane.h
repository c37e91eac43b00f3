/* A drill in the window: the item as the app layer says it
 * (app/drill_play.h, the same as the terminal's), wrapped to the pane's
 * width in pixels and coloured by role, a bug case's lab view beside it,
 * and SDL's keys as the drill's keys. */
#ifndef PL_GUI_DRILL_PANE_H
#define PL_GUI_DRILL_PANE_H

#include <SDL.h>

#include "app/teach/drill_play.h"
#include "dl.h"

/* Lays the drill out in r at app time now: its head, the item scrolled by
 * p->scroll lines (clamped here), and beside a bug case its lab's view (the
 * whole of r when zoomed). size is the text size (GUI_NORMAL, or GUI_LARGE
 * in classroom mode). Tags the pane "drill", the item's lines by their
 * part ("drill-front", "drill-answer", "drill-why", "drill-verdict",
 * "drill-symptom", "drill-fixed") and the view "drill-view". */
void gui_drill_frame(GuiList *dl, PlDrillPlay *p, GuiRect r, int size, double now);

/* Gives the drill an SDL key or text event at app time now:
 * PL_DRILL_TAKEN, PL_DRILL_IGNORED or PL_DRILL_QUIT. Text comes as
 * SDL_TEXTINPUT; SDL_KEYDOWN brings only the keys without text. */
int gui_drill_event(PlDrillPlay *p, const SDL_Event *e, double now);

#endif
