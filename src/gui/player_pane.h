/* The window's one page pane and its keys, for whichever player plays
 * (app/teach/player.h): SDL's keys mapped once to a player's, and a page
 * wrapped to a pane's width, scrolled and drawn. The lesson pane and the
 * drill's frame each draw their own head over it. */
#ifndef PL_GUI_PLAYER_PANE_H
#define PL_GUI_PLAYER_PANE_H

#include <SDL.h>

#include "app/teach/player.h"
#include "dl.h"

/* Gives player pl (state self) an SDL key or text event at app time now:
 * PL_PLAYER_TAKEN, PL_PLAYER_PASS or PL_PLAYER_QUIT. Text comes as
 * SDL_TEXTINPUT; SDL_KEYDOWN brings only the keys without text. */
int gui_player_event(const PlPlayer *pl, void *self, const SDL_Event *e, double now);

/* Draws the player's page at text size in `in`, from y down, scrolled by
 * its scroll (clamped here); lines tagged by their part's tags[part] (NULL:
 * none). marker_row: the "more" marker takes a row of its own. */
void gui_page_pane(GuiList *dl, const PlPlayer *pl, void *self, PlLab *lab, double now, GuiRect in, double y,
                   int size, const char *const *tags, int marker_row);

#endif
