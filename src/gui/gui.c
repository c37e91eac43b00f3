/* The window: initialise; per frame handle events -> update -> draw ->
 * present; shut down in reverse. A frame is a display list made afresh from
 * the lab (chrome, figure, tooltip), drawn only when something changed: a
 * key, a click, the mouse over a new value, a result that arrived, or the
 * training moving on (at most ten times a second). The loop waits for
 * events at most a quarter of a second, so the lab is polled and the window
 * never blocks on the worker.
 *
 * Screenshots and exports build the same list with no window: a software
 * renderer over a surface gives the PNG, the SVG writer the vector figure.
 *
 * With a lesson (--lesson) its pane stands left of the figure, under the
 * chrome; in classroom mode (projector mode with a lesson) the pane and one
 * figure fill the window. The lesson takes the keys first, as in the
 * terminal; what it leaves goes to the lab.
 *
 * With a drill (--drill) the window plays a deck instead of the lab: the
 * item on the left, a bug case's lab view beside it, the keys of the
 * terminal drill (drill_pane.h); projector mode is its classroom mode. */
#include "gui.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "app/state.h"
#include "backend.h"
#include "chrome.h"
#include "class_run.h"
#include "core/atomic.h"
#include "drill_pane.h"
#include "figures.h"
#include "keys.h"
#include "lesson_pane.h"
#include "player_pane.h"

typedef struct {
    PlLab *lab;
    GuiLook look;
    GuiFonts fonts;
    GuiStyle style;
    GuiList dl;
    GuiChromeState cs;
    double dpi; /* device pixels per window coordinate, times the screen's DPI / 96 */
    int W, H;   /* device pixels */
    int help;
    char message[512];
    double flash_until;
    int last_hit; /* the control Enter steps again (-1: none) */
    GuiRect drag_track;
    PlLessonPlay lesson; /* the lesson playing when lesson.run is set; its blank flag blanks classroom mode */
    PlDrillPlay drill;   /* the drill playing when drill.drill is set */
    GuiClass klass;      /* a class session (--class, class_run.h); klass.box.f is NULL without one */
} Gui;

/* ---- the look ---- */

static void set_style(Gui *g) {
    GuiStyle *s = &g->style;
    gui_style_for(s, &g->look, g->W, g->H, g->dpi);
    s->measure = gui_fonts_measure, s->height = gui_fonts_height, s->ctx = &g->fonts;
    g->dl.st = s, g->dl.W = g->W, g->dl.H = g->H;
}

/* Builds the frame: chrome and figure (projector mode: the figure alone),
 * a lesson's pane beside the figure; classroom mode blanked: nothing. */
static void build(Gui *g, int with_chrome) {
    GuiList *dl = &g->dl;
    gui_dl_reset(dl);
    double now = pl_app_clock();
    g->cs.flash = now < g->flash_until ? g->cs.flash : 0;
    g->cs.message = g->message[0] ? g->message : NULL;
    g->cs.keys = g->lesson.run ? gui_lesson_keys(&g->lesson, g->klass.box.f != NULL) : NULL;
    if (g->look.present && g->lesson.blank) return;
    if (g->lesson.run) pl_lesson_run_sync_ledger(g->lesson.run); /* the open question's figure stays hidden */
    if (g->drill.drill) {
        gui_drill_window(dl, &g->drill, now);
        return;
    }
    GuiRect area;
    if (with_chrome && !g->look.present) area = gui_chrome(dl, g->lab, &g->cs);
    else area = gui_inset((GuiRect){0, 0, g->W, g->H}, 18 * g->style.unit);
    if (g->lesson.run) area = gui_lesson_beside(dl, &g->lesson, g->lab, area, g->klass.box.f ? &g->klass.box : NULL);
    gui_figure(dl, g->lab, (PlView)pl_lab_settings(g->lab)->view, area);
    if (g->look.present && g->cs.flash && with_chrome) gui_flash_banner(dl, g->lab, g->cs.flash);
    if (g->help) gui_help(dl);
    gui_tooltip(dl);
}

/* ---- starting ---- */

static int start(Gui *g, const PlLabSettings *s, const GuiLook *look, int W, int H, char *why, int cap) {
    memset(g, 0, sizeof *g);
    g->look = *look, g->W = W, g->H = H, g->dpi = 1.0, g->last_hit = -1, g->cs.drag_id = -1;
    if (gui_fonts_init(&g->fonts, why, cap)) return -1;
    PlErr err;
    g->lab = pl_lab_new(s, &err);
    if (!g->lab) {
        snprintf(why, (size_t)cap, "%s", err.msg);
        gui_fonts_done(&g->fonts);
        return -1;
    }
    gui_dl_init(&g->dl, &g->style, W, H);
    set_style(g);
    return 0;
}

static void stop(Gui *g) {
    gui_class_done(&g->klass);
    pl_lesson_play_close(&g->lesson);
    pl_drill_play_close(&g->drill);
    gui_dl_done(&g->dl);
    /* a training inside a long batch is not waited for beyond a second */
    pl_lab_close(g->lab, 1.0);
    gui_fonts_done(&g->fonts);
}

/* Waits for what view v draws: its results, and for the train view a
 * finished retrain (one is started when there is no run yet). */
static int wait_view(Gui *g, PlView v, double timeout) {
    double until = pl_app_clock() + timeout;
    unsigned kinds = pl_view_results(v, pl_lab_settings(g->lab));
    if (g->drill.drill) { /* the case's measures, then what its view beside them draws */
        PlLab *lab = pl_drill_play_view_lab(&g->drill);
        if (pl_drill_play_wait(&g->drill, timeout)) return -1;
        double left = until - pl_app_clock();
        return lab ? pl_lab_wait(lab, pl_view_results((PlView)pl_lab_settings(lab)->view, pl_lab_settings(lab)),
                                 left > 0.1 ? left : 0.1)
                   : 0;
    }
    if (g->lesson.run) { /* the step's own training first, then what its text and question read */
        while ((pl_lab_tick(g->lab), pl_lesson_play_tick(&g->lesson, g->lab),
                pl_lesson_run_state(g->lesson.run)->waiting) &&
               pl_app_clock() < until)
            usleep(20000);
        kinds |= pl_lesson_run_kinds(g->lesson.run);
    }
    if (v == PL_VIEW_TRAIN) {
        int n;
        pl_lab_runs(g->lab, &n);
        if (!n && !pl_lab_training(g->lab)->active) pl_lab_command(g->lab, PL_CMD_RUN);
        while (pl_lab_training(g->lab)->active && pl_app_clock() < until) {
            pl_lab_tick(g->lab);
            usleep(20000);
        }
        pl_lab_tick(g->lab);
    }
    double left = until - pl_app_clock();
    return pl_lab_wait(g->lab, kinds, left > 0.1 ? left : 0.1);
}

/* ---- offscreen: one frame to PNG, or its display list to SVG ---- */

static int ends_with(const char *s, const char *tail) {
    size_t n = strlen(s), k = strlen(tail);
    return n >= k && strcasecmp(s + n - k, tail) == 0;
}

static int screenshot(Gui *g, const char *path, int with_chrome, char *why, int cap) {
    if (ends_with(path, ".svg")) { /* the same frame as the v key saves it: every text the window draws */
        build(g, with_chrome);
        return gui_svg_write(path, &g->dl, why, cap);
    }
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, g->W, g->H, 32, SDL_PIXELFORMAT_ARGB8888);
    SDL_Renderer *r = surf ? SDL_CreateSoftwareRenderer(surf) : NULL;
    if (!r) {
        snprintf(why, (size_t)cap, "cannot make an offscreen renderer: %s", SDL_GetError());
        if (surf) SDL_FreeSurface(surf);
        return -1;
    }
    GuiRenderer gr;
    gui_renderer_init(&gr, r, &g->fonts);
    double t0 = pl_app_clock();
    build(g, with_chrome);
    gui_render(&gr, &g->dl);
    SDL_RenderPresent(r);
    double t1 = pl_app_clock();
    int rc = gui_png_write(path, surf->pixels, surf->w, surf->h, surf->pitch, why, cap);
    if (getenv("PADLAB_GUI_STATS"))
        fprintf(stderr, "padlab gui: frame %dx%d built and drawn in %.1f ms (%d items), PNG written in %.1f ms\n", g->W,
                g->H, 1e3 * (t1 - t0), g->dl.n, 1e3 * (pl_app_clock() - t1));
    gui_renderer_flush(&gr);
    SDL_DestroyRenderer(r);
    SDL_FreeSurface(surf);
    return rc;
}

/* ---- the window ---- */

typedef struct {
    SDL_Window *win;
    SDL_Renderer *r;
    GuiRenderer gr;
    int quit, dirty;
    char tip[sizeof((GuiList *)0)->tip];
    int frames;
    double frame_total, frame_max;
    const char *keys; /* PADLAB_GUI_KEYS: keys pushed into the event queue once the window is up, one every 0.3 s
                         (',' pushes nothing: a pause), for tests and timings */
    double key_at;
} Win;

static void after_change(Gui *g, int what) {
    unsigned changes = pl_lab_take_changes(g->lab);
    if (changes) g->cs.flash = changes, g->flash_until = pl_app_clock() + 1.5;
    if (what == PL_LAB_COLD)
        snprintf(g->message, sizeof g->message, "cold: retraining %d seed%s in the background; the views recompute",
                 pl_lab_settings(g->lab)->seeds, pl_lab_settings(g->lab)->seeds > 1 ? "s" : "");
}

static void set_view(Gui *g, int v) {
    PlLabSettings next = *pl_lab_settings(g->lab);
    next.view = ((v % PL_VIEW_COUNT) + PL_VIEW_COUNT) % PL_VIEW_COUNT;
    after_change(g, pl_lab_apply(g->lab, &next, NULL));
}

static void step(Gui *g, int id, int dir) { after_change(g, pl_lab_step(g->lab, (PlSettingId)id, dir)); }

static void set_value(Gui *g, int id, int value) {
    PlLabSettings next = *pl_lab_settings(g->lab);
    if (pl_setting_set(&next, (PlSettingId)id, value) == 0) after_change(g, pl_lab_apply(g->lab, &next, NULL));
}

/* Writes the figure as SVG under the first free padlab-VIEW-N.svg, made
 * new: a name already there (a file, a planted link) is passed over. */
static void export_svg(Gui *g) {
    const char *view = pl_view_name((PlView)pl_lab_settings(g->lab)->view);
    char path[600], why[300] = "no free name up to padlab-VIEW-100000.svg";
    GuiList *dl = &g->dl;
    gui_dl_reset(dl);
    double mx = dl->mx;
    dl->mx = -1, dl->titles = 1;
    gui_figure(dl, g->lab, (PlView)pl_lab_settings(g->lab)->view,
               gui_inset((GuiRect){0, 0, g->W, g->H}, 18 * g->style.unit));
    int taken = 1, rc = -1;
    for (int k = 1; k <= 100000 && taken; k++) {
        snprintf(path, sizeof path, "padlab-%s-%d.svg", view, k);
        rc = gui_svg_write_new(path, dl, &taken, why, sizeof why);
    }
    if (rc) snprintf(g->message, sizeof g->message, "SVG export failed: %.200s", why);
    else snprintf(g->message, sizeof g->message, "wrote the plot to %.200s", path);
    dl->titles = 0, dl->mx = mx;
}

static void draw_frame(Gui *g, Win *w);

static void export_data(Gui *g, Win *w) {
    char path[512];
    PlErr err;
    /* a wide attention map is hundreds of megabytes: say so before the wait, not after */
    snprintf(g->message, sizeof g->message, "writing the %s view's data...",
             pl_view_name((PlView)pl_lab_settings(g->lab)->view));
    draw_frame(g, w);
    if (pl_lab_export(g->lab, (PlView)pl_lab_settings(g->lab)->view, ".", path, sizeof path, &err))
        snprintf(g->message, sizeof g->message, "export failed: %.200s", err.msg);
    else snprintf(g->message, sizeof g->message, "exported the view's data to %.200s (and .json)", path);
}

/* The state line on the status line, in a new file and on the clipboard. */
static void state_line(Gui *g) {
    char line[PL_STATE_CAP], cmd[PL_STATE_CAP + 32];
    snprintf(cmd, sizeof cmd, "padlab --state %s", pl_state_format(pl_lab_settings(g->lab), line, sizeof line));
    SDL_SetClipboardText(cmd); /* without a clipboard (offscreen) it fails, and the file still holds it */
    pl_state_key(pl_lab_settings(g->lab), ".", g->message, sizeof g->message);
}

static void relook(Gui *g, Win *w) {
    set_style(g);
    gui_renderer_flush(&w->gr);
}

/* Projector mode on or off; with a lesson, that is classroom mode. */
static void toggle_present(Gui *g, Win *w) {
    g->look.present = !g->look.present;
    g->lesson.present = g->look.present, g->lesson.blank = 0;
    relook(g, w);
}

/* Classroom mode without a lesson, as in the terminal: a clicker's keys go
 * through the views, b blanks the screen (the key table's projector rows).
 * 1 when the key was taken. */
static int present_key(Gui *g, const SDL_Event *e) {
    int v = pl_lab_settings(g->lab)->view;
    if (!g->look.present || g->lesson.run || g->help) return 0;
    int text = e->type == SDL_TEXTINPUT && e->text.text[0] && !e->text.text[1];
    const GuiKeyRow *k = text                     ? gui_key_of_char((unsigned char)e->text.text[0], 1)
                         : e->type == SDL_KEYDOWN ? gui_key_of_sym(e->key.keysym.sym, 1)
                                                  : NULL;
    if (k && k->act == GUI_DO_BLANK) return g->lesson.blank = !g->lesson.blank, 1;
    if (g->lesson.blank && (e->type == SDL_TEXTINPUT || e->type == SDL_KEYDOWN))
        return e->type == SDL_TEXTINPUT ? (g->lesson.blank = 0, 1) : 0;
    if (k && k->act == GUI_DO_SHOW_NEXT) return set_view(g, v + 1), 1;
    if (k && k->act == GUI_DO_SHOW_PREV) return set_view(g, v - 1), 1;
    return 0;
}

/* Whether e is the key without text that switches projector (classroom)
 * mode: it goes past a lesson and a drill. */
static int present_toggle(const SDL_Event *e) {
    const GuiKeyRow *k = e->type == SDL_KEYDOWN ? gui_key_of_sym(e->key.keysym.sym, 0) : NULL;
    return k && k->act == GUI_DO_PRESENT;
}

/* ---- a class session (class_run.h) ---- */

/* r, v, t and q to the class first: 1 when it took the key. */
static int class_key(Gui *g, Win *w, const SDL_Event *e) {
    if (e->type != SDL_TEXTINPUT || !e->text.text[0] || e->text.text[1]) return 0;
    int got = gui_class_key(&g->klass, &g->lesson, g->lab, (unsigned char)e->text.text[0]);
    if (got == 2) w->quit = 1;
    return got != 0;
}

/* A key to the lesson first: 1 when it took it (or quit). */
static int lesson_key(Gui *g, Win *w, const SDL_Event *e) {
    if (!g->lesson.run || g->help || present_toggle(e)) return 0;
    int got = gui_player_event(&pl_lesson_player, &g->lesson, e, pl_app_clock());
    if (got == PL_LESSON_QUIT) w->quit = 1;
    if (got != PL_LESSON_LAB) g->message[0] = '\0', after_change(g, 0);
    return got != PL_LESSON_LAB;
}

/* A key to the drill: in a drill every key is the drill's but F5 and, in
 * classroom mode, Esc (out of it). 1 when a drill plays. */
static int drill_key(Gui *g, Win *w, const SDL_Event *e) {
    if (!g->drill.drill) return 0;
    SDL_Keycode k = e->type == SDL_KEYDOWN ? e->key.keysym.sym : 0;
    if (present_toggle(e) || (k == SDLK_ESCAPE && g->look.present)) return toggle_present(g, w), 1;
    if (gui_player_event(&pl_drill_player, &g->drill, e, pl_app_clock()) == PL_PLAYER_QUIT) w->quit = 1;
    return 1;
}

/* Does what a row of the key table says; shift: Shift is held. */
static void key_act(Gui *g, Win *w, const GuiKeyRow *k, int ch, int shift) {
    int v = pl_lab_settings(g->lab)->view;
    switch (k->act) {
    case GUI_DO_VIEW: set_view(g, ch == '0' ? 9 : ch - '1'); break;
    case GUI_DO_TAB: set_view(g, shift ? v - 1 : v + 1); break;
    case GUI_DO_EXAMPLE_NEXT: step(g, PL_S_EXAMPLE, 1); break;
    case GUI_DO_EXAMPLE_PREV: step(g, PL_S_EXAMPLE, -1); break;
    case GUI_DO_EXPORT: export_data(g, w); break;
    case GUI_DO_SVG: export_svg(g); break;
    case GUI_DO_STATE: state_line(g); break;
    case GUI_DO_PRESENT: toggle_present(g, w); break;
    case GUI_DO_THEME: g->look.dark = !g->look.dark, relook(g, w); break;
    case GUI_DO_PALETTE: g->look.classic = !g->look.classic, relook(g, w); break;
    case GUI_DO_AGAIN:
        if (g->last_hit >= 0) step(g, g->last_hit, 1);
        break;
    case GUI_DO_ESCAPE:
        if (g->help) g->help = 0;
        else if (g->look.present) toggle_present(g, w);
        break;
    case GUI_DO_HELP: g->help = !g->help; break;
    case GUI_DO_QUIT: w->quit = 1; break;
    default: break;
    }
}

/* A key as a character: the window's own (the key table), the commands,
 * the registry's keys. */
static void on_char(Gui *g, Win *w, int ch) {
    if (g->help) {
        g->help = 0;
        return;
    }
    g->message[0] = '\0';
    int cmd, dir, id;
    const GuiKeyRow *k = gui_key_of_char(ch, 0);
    if (k) key_act(g, w, k, ch, 0);
    else if ((cmd = pl_command_of_key(ch)) >= 0) after_change(g, pl_lab_command(g->lab, (PlCommand)cmd));
    else if ((id = pl_setting_of_key(ch, &dir)) >= 0) step(g, id, dir);
}

static void on_keydown(Gui *g, Win *w, const SDL_KeyboardEvent *k) {
    const GuiKeyRow *row = gui_key_of_sym(k->keysym.sym, 0);
    if (row) key_act(g, w, row, 0, (k->keysym.mod & KMOD_SHIFT) != 0);
}

static const GuiHit *hit_at(const GuiList *dl, double x, double y) {
    for (int i = dl->nhits - 1; i >= 0; i--) {
        const GuiRect *r = &dl->hits[i].r;
        if (x >= r->x && x < r->x + r->w && y >= r->y && y < r->y + r->h) return &dl->hits[i];
    }
    return NULL;
}

static void on_click(Gui *g, Win *w, double x, double y, int right) {
    if (g->help) {
        g->help = 0;
        return;
    }
    const GuiHit *h = hit_at(&g->dl, x, y);
    if (!h) return;
    g->message[0] = '\0';
    int id = h->arg;
    switch (h->action) {
    case GUI_ACT_TAB: set_view(g, h->arg); break;
    case GUI_ACT_PREV: step(g, id, -1), g->last_hit = id; break;
    case GUI_ACT_NEXT: step(g, id, right ? -1 : 1), g->last_hit = id; break;
    case GUI_ACT_CHOICE:
        set_value(g, h->arg / 64, pl_settings[h->arg / 64].values[h->arg % 64]), g->last_hit = h->arg / 64;
        break;
    case GUI_ACT_SLIDER: /* dragged until the button is let go: the lab changes once, on release */
        g->cs.drag_id = id, g->cs.drag_value = gui_slider_value((PlSettingId)id, h->r, x), g->drag_track = h->r,
        g->last_hit = id;
        break;
    case GUI_ACT_COMMAND: after_change(g, pl_lab_command(g->lab, (PlCommand)h->arg)); break;
    case GUI_ACT_KEY: on_char(g, w, h->arg); break;
    default: break;
    }
}

static void on_event(Gui *g, Win *w, const SDL_Event *e) {
    double x, y;
    switch (e->type) {
    case SDL_QUIT: w->quit = 1; break;
    case SDL_TEXTINPUT:
        if (!drill_key(g, w, e) && !class_key(g, w, e) && !lesson_key(g, w, e) && !present_key(g, e) &&
            e->text.text[0] && !e->text.text[1])
            on_char(g, w, (unsigned char)e->text.text[0]);
        w->dirty = 1;
        break;
    case SDL_KEYDOWN:
        if (!drill_key(g, w, e) && !lesson_key(g, w, e) && !present_key(g, e)) on_keydown(g, w, &e->key);
        w->dirty = 1;
        break;
    case SDL_MOUSEBUTTONDOWN:
        x = e->button.x * g->dpi, y = e->button.y * g->dpi;
        if (e->button.button == SDL_BUTTON_LEFT || e->button.button == SDL_BUTTON_RIGHT)
            on_click(g, w, x, y, e->button.button == SDL_BUTTON_RIGHT);
        w->dirty = 1;
        break;
    case SDL_MOUSEBUTTONUP:
        if (g->cs.drag_id >= 0) {
            int id = g->cs.drag_id;
            g->cs.drag_id = -1;
            set_value(g, id, g->cs.drag_value);
            w->dirty = 1;
        }
        break;
    case SDL_MOUSEMOTION:
        g->dl.mx = e->motion.x * g->dpi, g->dl.my = e->motion.y * g->dpi;
        if (g->cs.drag_id >= 0) {
            int v = gui_slider_value((PlSettingId)g->cs.drag_id, g->drag_track, g->dl.mx);
            if (v != g->cs.drag_value) g->cs.drag_value = v, w->dirty = 1;
        } else w->dirty |= 2; /* the tooltip may have changed: redrawn only when it did */
        break;
    case SDL_WINDOWEVENT:
        if (e->window.event == SDL_WINDOWEVENT_LEAVE) g->dl.mx = g->dl.my = -1, w->dirty = 1;
        if (e->window.event == SDL_WINDOWEVENT_SIZE_CHANGED || e->window.event == SDL_WINDOWEVENT_EXPOSED) w->dirty = 1;
        break;
    default: break;
    }
}

/* The window's size in device pixels, and how many of them a coordinate is. */
static void measure_window(Gui *g, Win *w) {
    int ww, wh, ow, oh;
    SDL_GetWindowSize(w->win, &ww, &wh);
    SDL_GetRendererOutputSize(w->r, &ow, &oh);
    float ddpi = 96.0f;
    double screen =
        SDL_GetDisplayDPI(SDL_GetWindowDisplayIndex(w->win), &ddpi, NULL, NULL) == 0 ? (double)ddpi / 96.0 : 1.0;
    screen = screen < 1.0 ? 1.0 : screen > 3.0 ? 3.0 : screen;
    double ratio = ww > 0 ? (double)ow / ww : 1.0;
    if (g->W != ow || g->H != oh || fabs(g->dpi - ratio * screen) > 1e-9) {
        g->W = ow, g->H = oh, g->dpi = ratio * screen;
        set_style(g);
    }
}

static void draw_frame(Gui *g, Win *w) {
    double t0 = pl_app_clock();
    measure_window(g, w);
    build(g, 1);
    gui_render(&w->gr, &g->dl);
    SDL_RenderPresent(w->r);
    double dt = pl_app_clock() - t0;
    w->frames++, w->frame_total += dt, w->frame_max = fmax(w->frame_max, dt);
    memcpy(w->tip, g->dl.tip, sizeof w->tip);
}

/* Pushes the next test key into SDL's event queue, as a keyboard would. */
static void push_key(Win *w, double now) {
    if (!w->keys || !*w->keys || !w->frames || now - w->key_at < 0.3) return;
    if (*w->keys != ',') {
        SDL_Event e;
        memset(&e, 0, sizeof e);
        e.type = SDL_TEXTINPUT;
        e.text.text[0] = *w->keys;
        SDL_PushEvent(&e);
    }
    w->keys++, w->key_at = now;
}

static int window_loop(Gui *g, char *why, int cap) {
    Win w;
    memset(&w, 0, sizeof w);
    w.win = SDL_CreateWindow("padlab", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, g->W, g->H,
                             SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    if (w.win) SDL_SetWindowMinimumSize(w.win, GUI_MIN_W, GUI_MIN_H); /* smaller, the small type goes under 9 px */
    if (w.win) w.r = SDL_CreateRenderer(w.win, -1, SDL_RENDERER_ACCELERATED);
    if (w.win && !w.r) w.r = SDL_CreateRenderer(w.win, -1, SDL_RENDERER_SOFTWARE);
    if (!w.r) {
        snprintf(why, (size_t)cap, "cannot open a window: %s", SDL_GetError());
        if (w.win) SDL_DestroyWindow(w.win);
        return -1;
    }
    gui_renderer_init(&w.gr, w.r, &g->fonts);
    SDL_StartTextInput();
    w.keys = getenv("PADLAB_GUI_KEYS");
    int nruns;
    pl_lab_runs(g->lab, &nruns);
    if (!nruns && !g->lesson.run && !g->drill.drill)
        pl_lab_command(g->lab,
                       PL_CMD_RUN); /* as the terminal lab: a first retrain at once; a lesson trains when it says */
    pl_lab_take_changes(g->lab);
    double last_draw = 0.0;
    int pending = 0;
    w.dirty = 1;
    while (!w.quit) {
        double now = pl_app_clock();
        int training = pl_lab_training(g->lab)->active;
        if (g->lesson.run) pending |= pl_lesson_play_tick(&g->lesson, g->lab);
        if (gui_class_tick(&g->klass, &g->lesson, g->lab, now)) w.dirty = 1;
        if (gui_class_signal()) w.quit = 1; /* INT, TERM, HUP, QUIT: the class ends as q ends it */
        if (g->drill.drill) {               /* a countdown on screen moves four times a second; a case computing, ten */
            pending |= pl_drill_play_tick(&g->drill, now) | pl_drill_play_busy(&g->drill);
            if (pl_drill_time_left(g->drill.drill, now) >= 0.0 && now - last_draw > 0.25) w.dirty = 1;
        }
        pending |= pl_lab_tick(g->lab);
        if (pl_lab_take_notice(g->lab, g->message, sizeof g->message)) pending = 1;
        if ((pending || training) && now - last_draw > 0.1) w.dirty = 1;
        if (g->flash_until > last_draw && now >= g->flash_until) w.dirty = 1;
        if (w.dirty & 1) {
            draw_frame(g, &w);
            w.dirty = pending = 0, last_draw = now;
        } else if (w.dirty & 2) { /* the mouse moved: a frame only when the value under it changed */
            build(g, 1);
            if (strcmp(g->dl.tip, w.tip)) draw_frame(g, &w), last_draw = now;
            w.dirty = 0;
        }
        push_key(&w, now);
        SDL_Event e;
        if (SDL_WaitEventTimeout(&e, training || pending || (w.keys && *w.keys) ? 50 : 250)) {
            on_event(g, &w, &e);
            while (SDL_PollEvent(&e)) on_event(g, &w, &e);
        }
    }
    if (getenv("PADLAB_GUI_STATS") && w.frames)
        fprintf(stderr, "padlab gui: %d frames at %dx%d, %.2f ms mean, %.2f ms at most\n", w.frames, g->W, g->H,
                1e3 * w.frame_total / w.frames, 1e3 * w.frame_max);
    SDL_StopTextInput();
    gui_renderer_flush(&w.gr);
    SDL_DestroyRenderer(w.r);
    SDL_DestroyWindow(w.win);
    return 0;
}

/* Starts SDL's video for a window. Returns 0, or -1 with why. A driver that
 * draws nowhere (SDL falls back to offscreen, or is told dummy) is no
 * display: the window would run unseen. With neither X nor Wayland named
 * and no driver asked for, SDL is not started at all (its Wayland probe
 * would print its own line, and its fallback would run unseen). */
static int open_video(char *why, int cap) {
    const char *asked = getenv("SDL_VIDEODRIVER");
    /* a test that drives the window with PADLAB_GUI_KEYS may run it unseen, on SDL's dummy driver */
    int driven = getenv("PADLAB_GUI_KEYS") != NULL;
    if ((!asked || !*asked) && !getenv("DISPLAY") && !getenv("WAYLAND_DISPLAY")) {
        snprintf(why, (size_t)cap, "neither DISPLAY nor WAYLAND_DISPLAY is set");
        return -1;
    }
#ifdef SDL_HINT_VIDEODRIVER
    if ((!asked || !*asked) && !getenv("WAYLAND_DISPLAY")) /* X alone: no Wayland probe, no fallback */
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "x11");
#endif
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        snprintf(why, (size_t)cap, "%s", SDL_GetError());
        return -1;
    }
    const char *drv = SDL_GetCurrentVideoDriver();
    if (!driven && drv && (strcmp(drv, "offscreen") == 0 || strcmp(drv, "dummy") == 0)) {
        snprintf(why, (size_t)cap, "SDL's video driver is %s, which shows nothing", drv);
        SDL_Quit();
        return -1;
    }
    return 0;
}

int gui_run(const GuiArgs *a) {
    char why[512];
    int W = a->width > 0 ? a->width : 1280, H = a->height > 0 ? a->height : 800;
    if (!a->screenshot) {
        if (open_video(why, sizeof why)) {
            fprintf(stderr, "padlab gui: no display to open a window on (%s); padlab opens the lab in the terminal\n",
                    why);
            return 2;
        }
    } else if (SDL_Init(0) != 0) {
        fprintf(stderr, "padlab gui: SDL cannot start: %s\n", SDL_GetError());
        return 2;
    }
    PlSessionOpen so; /* the terminal's decision, from the app layer: a damaged file is saved beside */
    pl_session_open(&so, a->session, &a->settings, a->given);
    if (so.error[0]) fprintf(stderr, "padlab gui: %s; starting with the default settings\n", so.error);
    PlLabSettings s = so.settings;
    PlSession *sess = so.session;
    Gui g;
    if (start(&g, &s, &a->look, W, H, why, sizeof why)) {
        pl_session_free(sess);
        fprintf(stderr, "padlab gui: %s\n", why);
        SDL_Quit();
        return 2;
    }
    if (sess) pl_lab_restore(g.lab, sess);
    pl_session_free(sess);
    /* a picture of a step starts there and keeps no progress; the window resumes where the learner stopped */
    int step = a->step >= 0 ? a->step : a->screenshot ? 0 : -1;
    PlDrillOpts o = {.today = pl_sched_today(),
                     .all = a->all,
                     .count = a->count,
                     .timed = a->timed,
                     .seed = (unsigned)pl_sched_today()};
    if (a->drill &&
        pl_drill_play_open(&g.drill, a->drill, &s, &o, a->screenshot ? (a->item > 0 ? a->item : 0) : a->item,
                           pl_app_clock(), why, sizeof why)) {
        fprintf(stderr, "padlab gui: %s\n", why);
        stop(&g);
        SDL_Quit();
        return 2;
    }
    int opened = a->review   ? pl_lesson_play_review(&g.lesson, g.lab, a->look.present, why, sizeof why)
                 : a->lesson ? pl_lesson_play_open(&g.lesson, g.lab, a->lesson, step, a->look.present, why, sizeof why)
                             : 0;
    if (opened) { /* 1: no question is due, which is said, not an error */
        fprintf(opened > 0 ? stdout : stderr, "padlab gui: %s\n", why);
        stop(&g);
        SDL_Quit();
        return opened > 0 ? 0 : 2;
    }
    GuiClassArgs ka = {.listen = a->listen,
                       .port = a->port,
                       .seats = a->seats,
                       .exam = a->exam,
                       .fresh = a->fresh,
                       .report = a->report,
                       .unkept = a->screenshot != NULL};
    if (a->klass && gui_class_start(&g.klass, &g.lesson, g.lab, &s, &ka, why, sizeof why)) {
        fprintf(stderr, "padlab gui: --class: %s\n", why);
        stop(&g);
        SDL_Quit();
        return 2;
    }
    if (g.lesson.run && (a->given & PL_S_BIT(PL_S_VIEW))) { /* another view at the step, as its number key opens */
        PlLabSettings v = *pl_lab_settings(g.lab);
        PlErr err;
        v.view = a->settings.view;
        pl_lab_apply(g.lab, &v, &err); /* a view is a hot setting: nothing to load, nothing fails */
    }
    pl_lab_take_changes(g.lab);
    int rc = 0;
    if (a->screenshot) {
        PlView v = (PlView)pl_lab_settings(g.lab)->view;
        if (wait_view(&g, v, a->timeout > 0 ? a->timeout : 120.0))
            fprintf(stderr, "padlab gui: the %s view's results were not ready in time; the picture says so\n",
                    pl_view_name(v));
        gui_class_tick(&g.klass, &g.lesson, g.lab, pl_app_clock()); /* the step's question, its numbers in */
        if (screenshot(&g, a->screenshot, 1, why, sizeof why)) fprintf(stderr, "padlab gui: %s\n", why), rc = 1;
    } else {
        const char *save = so.save[0] ? so.save : NULL;
        snprintf(g.message, sizeof g.message, "%s", so.problem);
        pl_lab_autosave(g.lab, save);
        if (window_loop(&g, why, sizeof why)) {
            fprintf(stderr, "padlab gui: no display to open a window on (%s); padlab opens the lab in the terminal\n",
                    why);
            rc = 2;
        } else if (save) {
            PlErr err;
            if (pl_lab_save_session(g.lab, save, &err)) fprintf(stderr, "padlab gui: %s\n", err.msg), rc = 1;
        }
        if (g.lesson.run) pl_lesson_play_save(&g.lesson);
        if (g.lesson.run && g.lesson.unsaved[0]) fprintf(stderr, "padlab gui: %s\n", g.lesson.unsaved), rc = 1;
        if (g.drill.drill && g.drill.unsaved[0]) fprintf(stderr, "padlab gui: %s\n", g.drill.unsaved), rc = 1;
    }
    int ended = gui_class_end(&g.klass, g.lesson.lesson ? g.lesson.lesson->title : "");
    if (ended) rc = ended;
    stop(&g);
    SDL_Quit();
    return rc;
}

/* The view's full data as JSON at path, whole or not at all; 0, or -1 after saying why. */
static int export_json(Gui *g, PlView v, const char *path) {
    PlAtomic a;
    PlErr err;
    if (pl_atomic_open(&a, path, 0, &err)) return fprintf(stderr, "padlab export: %s\n", err.msg), -1;
    if (pl_lab_write_view(g->lab, v, 1, a.f, &err) && !ferror(a.f)) {
        pl_atomic_abort(&a); /* nothing to export; a failed write is the commit's to report */
        return fprintf(stderr, "padlab export: %s: %s\n", path, err.msg), -1;
    }
    if (pl_atomic_commit(&a, &err)) return fprintf(stderr, "padlab export: %s\n", err.msg), -1;
    return 0;
}

int gui_figure_svg(PlLab *lab, const GuiLook *look, int W, int H, const char *path, char *why, int cap) {
    Gui g;
    memset(&g, 0, sizeof g);
    g.look = *look, g.W = W, g.H = H, g.dpi = 1.0;
    if (SDL_Init(0) != 0) return snprintf(why, (size_t)cap, "SDL cannot start: %s", SDL_GetError()), -1;
    int rc = gui_fonts_init(&g.fonts, why, cap);
    if (!rc) {
        gui_dl_init(&g.dl, &g.style, W, H);
        set_style(&g);
        g.dl.titles = 1;
        gui_dl_reset(&g.dl);
        gui_figure(&g.dl, lab, (PlView)pl_lab_settings(lab)->view, gui_inset((GuiRect){0, 0, W, H}, 18 * g.style.unit));
        rc = gui_svg_write(path, &g.dl, why, cap) ? -1 : 0;
        gui_dl_done(&g.dl);
        gui_fonts_done(&g.fonts);
    }
    SDL_Quit();
    return rc;
}

int gui_export(const PlLabSettings *s, PlView v, const GuiExport *x) {
    char why[512];
    if (SDL_Init(0) != 0) {
        fprintf(stderr, "padlab export: SDL cannot start: %s\n", SDL_GetError());
        return 2;
    }
    Gui g;
    PlLabSettings ss = *s;
    ss.view = v;
    if (start(&g, &ss, &x->look, x->width > 0 ? x->width : 1280, x->height > 0 ? x->height : 800, why, sizeof why)) {
        fprintf(stderr, "padlab export: %s\n", why);
        SDL_Quit();
        return 2;
    }
    int rc = 0;
    if (wait_view(&g, v, x->timeout > 0 ? x->timeout : 120.0)) {
        fprintf(stderr, "padlab export: the %s view's results were not ready in time\n", pl_view_name(v));
        rc = 1;
    }
    const PlLabTraining *tr = pl_lab_training(g.lab);
    if (!rc && v == PL_VIEW_TRAIN && tr->failed[0]) /* an empty runs table is no export of these settings */
        fprintf(stderr, "padlab export: not trained: %s\n", tr->failed), rc = 1;
    GuiList *dl = &g.dl;
    dl->titles = 1, dl->want_data = 1;
    gui_dl_reset(dl);
    gui_figure(dl, g.lab, v, gui_inset((GuiRect){0, 0, g.W, g.H}, 18 * g.style.unit));
    if (!rc && x->svg && gui_svg_write(x->svg, dl, why, sizeof why))
        fprintf(stderr, "padlab export: %s\n", why), rc = 1;
    if (!rc && x->csv && gui_csv_write(x->csv, dl, why, sizeof why))
        fprintf(stderr, "padlab export: %s\n", why), rc = 1;
    if (!rc && x->json && export_json(&g, v, x->json)) rc = 1;
    stop(&g);
    SDL_Quit();
    return rc;
}
