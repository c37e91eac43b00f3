/* The window's own keys as one table: each row is a line of the help (the
 * keys as shown, what they do) and the keys it binds, typed characters and
 * keys without text, to one action. The window's dispatch and its help
 * are both made from it, so the help cannot leave a bound key out. The
 * settings' keys and the commands' come from their own registries
 * (app/settings.h, app/commands.h); a lesson's and a drill's keys are on
 * their key bars. */
#ifndef PL_GUI_KEYS_H
#define PL_GUI_KEYS_H

#include <SDL.h>

typedef enum {
    GUI_DO_NONE, /* a help line only (the mouse) */
    GUI_DO_VIEW, /* the view of the digit typed */
    GUI_DO_TAB,  /* the next view; with Shift, the previous */
    GUI_DO_EXAMPLE_NEXT,
    GUI_DO_EXAMPLE_PREV,
    GUI_DO_EXPORT,
    GUI_DO_SVG,
    GUI_DO_STATE, /* the state line: shown, saved and copied */
    GUI_DO_PRESENT, /* projector mode; with a lesson or a drill, classroom mode */
    GUI_DO_THEME,
    GUI_DO_PALETTE,
    GUI_DO_AGAIN,  /* the last control clicked, one step again */
    GUI_DO_ESCAPE, /* closes the help, or leaves projector mode */
    GUI_DO_HELP,
    GUI_DO_QUIT,
    /* projector mode without a lesson or a drill */
    GUI_DO_SHOW_NEXT,
    GUI_DO_SHOW_PREV,
    GUI_DO_BLANK,
} GuiDo;

#define GUI_KEY_SYMS 3

typedef struct {
    const char *keys;                /* as the help shows them */
    const char *help;                /* what they do */
    GuiDo act;
    int present;                     /* 1: a key of projector mode without a lesson or a drill */
    const char *chars;               /* the typed characters bound ("" none) */
    SDL_Keycode syms[GUI_KEY_SYMS]; /* the keys without text bound (0 ends) */
} GuiKeyRow;

extern const GuiKeyRow gui_keys[];
extern const int gui_nkeys;

/* The row a typed character is bound to in the mode (present: projector
 * mode without a lesson or a drill, whose rows come first), or NULL. */
const GuiKeyRow *gui_key_of_char(int ch, int present);
/* The row a key without text is bound to, likewise, or NULL. */
const GuiKeyRow *gui_key_of_sym(SDL_Keycode sym, int present);
/* A key's name as the help spells it ("F5", "Tab", "PgDn", "space"). */
const char *gui_key_name(SDL_Keycode sym);

#endif
