/* The terminal lab's own keys as one table: each row is a line of the help
 * (the keys as shown, what they do) and the keys it binds (characters and
 * curses key codes) to one action. The lab's dispatch and its help are
 * both made from it, so the help cannot leave a bound key out. The
 * settings' keys and the commands' come from their own registries
 * (app/settings.h, app/commands.h); a lesson's keys are on its key bar. */
#ifndef PL_TUI_KEYS_H
#define PL_TUI_KEYS_H

typedef enum {
    TUI_DO_NONE,      /* a help line only (the mouse) */
    TUI_DO_VIEW,      /* the view of the digit typed */
    TUI_DO_VIEW_STEP, /* the next view; Shift-Tab the previous */
    TUI_DO_EXAMPLE,   /* the next example; h and Left the previous */
    TUI_DO_SCROLL,    /* the view a line or a page down or up */
    TUI_DO_SIDEWAYS,  /* the view 8 columns right (>) or left (<) */
    TUI_DO_FULL,      /* the batch view: one character per cell, or rows squeezed to the pane */
    TUI_DO_EXPORT,
    TUI_DO_STATE, /* the state line: shown and saved */
    TUI_DO_AGAIN, /* the last control clicked, one step again */
    TUI_DO_CLASSROOM,
    TUI_DO_HELP,
    TUI_DO_QUIT,
    /* classroom mode without a lesson */
    TUI_DO_SHOW_STEP, /* the next view; PgUp the previous */
    TUI_DO_BLANK,
} TuiDo;

#define TUI_KEY_CODES 12

typedef struct {
    const char *keys; /* as the help shows them */
    const char *help; /* what they do, naming every key the row binds */
    TuiDo act;
    int present;               /* 1: a key of classroom mode without a lesson */
    int codes[TUI_KEY_CODES]; /* characters and curses key codes (0 ends) */
} TuiKeyRow;

extern const TuiKeyRow tui_keys[];
extern const int tui_nkeys;

/* The row key code ch is bound to in the mode (present: classroom mode
 * without a lesson, whose rows are looked at alone), or NULL. */
const TuiKeyRow *tui_key_of(int ch, int present);

#endif
