/* The window's key table (see keys.h). */
#include "keys.h"

#include <string.h>

const GuiKeyRow gui_keys[] = {
    {"1-9 0", "the views (a tab picks one too)", GUI_DO_VIEW, 0, "1234567890", {0}},
    {"Tab", "the next view, Shift-Tab the previous", GUI_DO_TAB, 0, "", {SDLK_TAB}},
    {"l Right", "the next example", GUI_DO_EXAMPLE_NEXT, 0, "l", {SDLK_RIGHT}},
    {"h Left", "the previous example", GUI_DO_EXAMPLE_PREV, 0, "h", {SDLK_LEFT}},
    {"e", "export the view's data as text and JSON", GUI_DO_EXPORT, 0, "e", {0}},
    {"v", "write the plot as SVG (never overwrites)", GUI_DO_SVG, 0, "v", {0}},
    {"i", "the state line (padlab --state ...): shown, copied, saved in padlab-state-N.txt", GUI_DO_STATE, 0, "i",
     {0}},
    {"f F5", "classroom mode (projector mode); Esc leaves it", GUI_DO_PRESENT, 0, "f", {SDLK_F5}},
    {"d", "the dark or the light theme", GUI_DO_THEME, 0, "d", {0}},
    {"y", "the colour-blind-safe or the classic palette", GUI_DO_PALETTE, 0, "y", {0}},
    {"Enter", "the last control clicked, one step forward again", GUI_DO_AGAIN, 0, "", {SDLK_RETURN, SDLK_KP_ENTER}},
    {"Esc", "closes the help; leaves classroom mode", GUI_DO_ESCAPE, 0, "", {SDLK_ESCAPE}},
    {"space PgDn", "classroom mode, no lesson: the next view", GUI_DO_SHOW_NEXT, 1, " ", {SDLK_PAGEDOWN}},
    {"PgUp", "classroom mode, no lesson: the previous view", GUI_DO_SHOW_PREV, 1, "", {SDLK_PAGEUP}},
    {"b", "classroom mode: blanks the screen, or back", GUI_DO_BLANK, 1, "b", {0}},
    {"mouse", "click a tab or a control (right: back), drag", GUI_DO_NONE, 0, "", {0}},
    {"? F1", "this help", GUI_DO_HELP, 0, "?", {SDLK_F1}},
    {"q", "quit (saves the --session)", GUI_DO_QUIT, 0, "qQ", {0}},
};
const int gui_nkeys = (int)(sizeof gui_keys / sizeof gui_keys[0]);

const GuiKeyRow *gui_key_of_char(int ch, int present) {
    if (ch <= 0 || ch > 127) return NULL;
    for (int i = 0; i < gui_nkeys; i++)
        if (gui_keys[i].present == present && strchr(gui_keys[i].chars, ch)) return &gui_keys[i];
    return NULL;
}

const GuiKeyRow *gui_key_of_sym(SDL_Keycode sym, int present) {
    for (int i = 0; i < gui_nkeys; i++)
        for (int k = 0; k < GUI_KEY_SYMS && gui_keys[i].syms[k]; k++)
            if (gui_keys[i].present == present && gui_keys[i].syms[k] == sym) return &gui_keys[i];
    return NULL;
}

const char *gui_key_name(SDL_Keycode sym) {
    static const struct {
        SDL_Keycode sym;
        const char *name;
    } names[] = {
        {SDLK_TAB, "Tab"},      {SDLK_RIGHT, "Right"},  {SDLK_LEFT, "Left"},     {SDLK_F1, "F1"},
        {SDLK_F5, "F5"},        {SDLK_RETURN, "Enter"}, {SDLK_KP_ENTER, "Enter"}, {SDLK_ESCAPE, "Esc"},
        {SDLK_PAGEDOWN, "PgDn"}, {SDLK_PAGEUP, "PgUp"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].sym == sym) return names[i].name;
    return "?";
}
