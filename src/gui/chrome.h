/* The window's chrome, made from the settings registry and the command
 * table: the view tabs, the control strip (buttons, segmented choices and
 * sliders, one per setting row), the status line, the key bar, the help
 * overlay and the tooltip. Each clickable part is a hit region with an
 * action, so the window's click handler reads no list of settings either. */
#ifndef PL_GUI_CHROME_H
#define PL_GUI_CHROME_H

#include "app/lab/lab.h"
#include "dl.h"

typedef enum {
    GUI_ACT_NONE,
    GUI_ACT_TAB,  /* arg: the view */
    GUI_ACT_PREV, /* arg: the setting */
    GUI_ACT_NEXT,
    GUI_ACT_CHOICE,  /* arg: setting * 64 + the index of the value */
    GUI_ACT_SLIDER,  /* arg: the setting; the value from where on the track */
    GUI_ACT_COMMAND, /* arg: the PlCommand */
    GUI_ACT_KEY      /* arg: a key the window itself handles (f, d, y, v, e, ?) */
} GuiAction;

typedef struct {
    unsigned flash; /* settings changed recently */
    int drag_id;    /* the slider being dragged (-1: none) and its value so far */
    int drag_value;
    const char *message; /* the status line's message, or NULL */
    const char *keys;    /* the key bar's text instead of the lab's keys (a lesson's), or NULL */
} GuiChromeState;

/* Lays out the chrome over the whole list; returns the area left for the figure. */
GuiRect gui_chrome(GuiList *dl, PlLab *lab, const GuiChromeState *cs);
/* The setting value a slider's track gives at x (its hit region r). */
int gui_slider_value(PlSettingId id, GuiRect r, double x);
/* The help over everything. */
void gui_help(GuiList *dl);
/* The tooltip at the mouse, when dl->tip holds one. */
void gui_tooltip(GuiList *dl);
/* Projector mode: a setting that changed, in large type at the bottom. */
void gui_flash_banner(GuiList *dl, PlLab *lab, unsigned flash);

#endif
