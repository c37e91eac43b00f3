/* The window's page pane and a player's keys (see player_pane.h). */
#include "player_pane.h"

#include <math.h>

#include "wrapped.h"

int gui_player_event(const PlPlayer *pl, void *self, const SDL_Event *e, double now) {
    static const struct {
        SDL_Keycode key;
        PlPlayerKey k;
    } keys[] = {
        {SDLK_ESCAPE, PL_PK_ESC},      {SDLK_RETURN, PL_PK_ENTER},  {SDLK_KP_ENTER, PL_PK_ENTER},
        {SDLK_BACKSPACE, PL_PK_ERASE}, {SDLK_PAGEDOWN, PL_PK_PGDN}, {SDLK_RIGHT, PL_PK_RIGHT},
        {SDLK_PAGEUP, PL_PK_PGUP},     {SDLK_LEFT, PL_PK_LEFT},     {SDLK_UP, PL_PK_UP},
        {SDLK_DOWN, PL_PK_DOWN},
    };
    if (e->type == SDL_TEXTINPUT) {
        unsigned char ch = (unsigned char)e->text.text[0];
        if (!ch || e->text.text[1] || ch < 32 || ch >= 127) return PL_PLAYER_PASS;
        return pl->key(self, PL_PK_CHAR, ch, now);
    }
    if (e->type != SDL_KEYDOWN) return PL_PLAYER_PASS;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (keys[i].key == e->key.keysym.sym) return pl->key(self, keys[i].k, 0, now);
    return PL_PLAYER_PASS;
}

void gui_page_pane(GuiList *dl, const PlPlayer *pl, void *self, PlLab *lab, double now, GuiRect in, double y,
                   int size, const char *const *tags, int marker_row) {
    static PlPage page; /* one pane is laid out at a time; too big for the stack */
    static GuiWrapped w;
    double lh = gui_text_h(dl, size) * 1.12;
    int *scroll = pl->scroll(self);
    pl->page(self, lab, now, &page);
    w.dl = dl, w.size = size;
    gui_wrapped_page(&w, &page, in.w);
    int rows = (int)floor((in.y + in.h - y) / lh);
    if (rows < 0) rows = 0;
    if (marker_row && w.n > rows && rows > 0) rows--; /* the last row for "more: Down": never under a line */
    if (*scroll > w.n - rows) *scroll = w.n - rows > 0 ? w.n - rows : 0;
    gui_wrapped_draw(dl, &w, in, y, lh, rows, *scroll, tags);
}
