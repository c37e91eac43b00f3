/* The terminal lab's key table (see keys.h). */
#include "keys.h"

#include <curses.h>

const TuiKeyRow tui_keys[] = {
    {"1-9 0", "the views", TUI_DO_VIEW, 0, {'1', '2', '3', '4', '5', '6', '7', '8', '9', '0'}},
    {"Tab", "the next view, Shift-Tab the previous", TUI_DO_VIEW_STEP, 0, {'\t', KEY_BTAB}},
    {"j/k", "scroll the view (also the arrow keys Down and Up, PgDn, PgUp)", TUI_DO_SCROLL, 0,
     {'j', 'k', KEY_DOWN, KEY_UP, KEY_NPAGE, KEY_PPAGE}},
    {"< >", "scroll the view sideways, to read what runs past its right edge", TUI_DO_SIDEWAYS, 0, {'<', '>'}},
    {"f", "the batch view at one character per cell (f again squeezes each row to the pane)", TUI_DO_FULL, 0,
     {'f'}},
    {"h/l", "the previous and next example (also the arrow keys Left and Right)", TUI_DO_EXAMPLE, 0,
     {'h', 'l', KEY_LEFT, KEY_RIGHT}},
    {"e", "export the view's data as text and JSON (never overwrites)", TUI_DO_EXPORT, 0, {'e'}},
    {"i", "the state line (padlab --state ...) that opens this lab again, saved in padlab-state-N.txt", TUI_DO_STATE,
     0, {'i'}},
    {"mouse", "a tab picks a view; a control moves forward, right button back", TUI_DO_NONE, 0, {0}},
    {"Enter", "the last control clicked, one step forward again", TUI_DO_AGAIN, 0, {'\n', KEY_ENTER}},
    {"F5", "classroom mode: one view alone, or a lesson beside one view", TUI_DO_CLASSROOM, 0,
     {KEY_F(5)}},
    {"space", "in classroom mode, no lesson: the next view (PgDn); PgUp back", TUI_DO_SHOW_STEP, 1,
     {' ', KEY_NPAGE, KEY_PPAGE}},
    {"b", "in classroom mode, no lesson: blanks the screen (b again)", TUI_DO_BLANK, 1, {'b'}},
    {"?", "this help (space turns the page; F1 opens it too)", TUI_DO_HELP, 0, {'?', KEY_F(1)}},
    {"q", "quit (a session given with --session is saved)", TUI_DO_QUIT, 0, {'q', 'Q'}},
};
const int tui_nkeys = (int)(sizeof tui_keys / sizeof tui_keys[0]);

const TuiKeyRow *tui_key_of(int ch, int present) {
    for (int i = 0; i < tui_nkeys; i++)
        for (int k = 0; k < TUI_KEY_CODES && tui_keys[i].codes[k]; k++)
            if (tui_keys[i].present == present && tui_keys[i].codes[k] == ch) return &tui_keys[i];
    return NULL;
}
