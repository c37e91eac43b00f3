/* padlab gui: the lab in an SDL2 window, or one frame of it as a PNG; and
 * padlab export: a view's plot as SVG and its data as CSV and JSON. Both
 * take every setting of the registry as a flag, as the terminal lab does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/class/limit.h"
#include "app/teach/drill_book.h"
#include "class_present.h"
#include "cli.h"
#include "gui/gui.h"

#define ALL_SETTINGS ((1u << PL_S_COUNT) - 1)

static const char *const themes[] = {"light", "dark", NULL};
static const char *const palettes[] = {"cb", "classic", NULL};

static int read_look(const CliArgs *a, GuiLook *look, int *w, int *h, double *timeout) {
    int theme, palette, t;
    memset(look, 0, sizeof *look);
    if (cli_choice(a, "theme", "light", themes, &theme) || cli_choice(a, "palette", "cb", palettes, &palette)) return 2;
    look->dark = theme, look->classic = palette, look->present = cli_flag(a, "present");
    const char *size = cli_str(a, "size", "1280x800");
    char x;
    if (sscanf(size, "%d%c%d", w, &x, h) != 3 || (x != 'x' && x != 'X') || *w < GUI_MIN_W || *h < GUI_MIN_H ||
        *w > 8192 || *h > 8192)
        return cli_usage_error(a, "--size must be WxH from %dx%d to 8192x8192, got '%s'", GUI_MIN_W, GUI_MIN_H, size);
    if (cli_int(a, "timeout", 120, 1, 86400, &t)) return 2;
    *timeout = t;
    return 0;
}

static int run_gui(const CliArgs *a) {
    pl_drill_book_use_days(); /* today as the learner's days count it */
    GuiArgs g;
    memset(&g, 0, sizeof g);
    g.settings = pl_settings_default();
    if (cli_read_state(a, ALL_SETTINGS, &g.settings, &g.given)) return 2;
    if (read_look(a, &g.look, &g.width, &g.height, &g.timeout)) return 2;
    g.session = cli_str(a, "session", NULL);
    g.screenshot = cli_str(a, "screenshot", NULL);
    if (g.screenshot && !*g.screenshot) return cli_usage_error(a, "--screenshot needs a file name");
    static const char *const outputs[] = {"screenshot", NULL};
    if (cli_outputs_regular(a, outputs)) return 2;
    g.lesson = cli_str(a, "lesson", NULL), g.step = -1;
    if (g.lesson && !*g.lesson) return cli_usage_error(a, "--lesson needs a lesson's name (padlab lesson --list)");
    if (cli_str(a, "step", NULL)) {
        if (!g.lesson) return cli_usage_error(a, "--step needs --lesson NAME");
        if (cli_int(a, "step", 1, 1, 10000, &g.step)) return 2;
        g.step--;
    }
    g.drill = cli_str(a, "drill", NULL), g.item = -1, g.all = cli_flag(a, "all"), g.timed = cli_flag(a, "timed");
    if (g.drill && !*g.drill) return cli_usage_error(a, "--drill needs a deck's name (padlab drill --list)");
    if (g.drill && g.lesson) return cli_usage_error(a, "--drill and --lesson: one at a time");
    g.review = cli_flag(a, "review");
    g.klass = cli_flag(a, "class"), g.exam = cli_flag(a, "exam");
    g.listen = cli_str(a, "listen", "127.0.0.1"), g.report = cli_str(a, "report", NULL);
    if (cli_int(a, "port", 8765, 0, 65535, &g.port)) return 2;
    if (cli_int(a, "seats-per-address", PL_CLASS_SEATS_PER_ADDRESS, 0, PL_CLASS_MAX_STUDENTS, &g.seats)) return 2;
    g.fresh = cli_flag(a, "new");
    if (g.klass && !g.lesson) return cli_usage_error(a, "--class votes on a lesson's questions: give --lesson NAME");
    static const char *const of_class[] = {"exam", "listen", "port", "report", "new", "seats-per-address"};
    for (size_t i = 0; !g.klass && i < sizeof of_class / sizeof *of_class; i++)
        if (cli_flag(a, of_class[i]))
            return cli_usage_error(a, "--%s is a class session's: give --class too", of_class[i]);
    if (g.review && (g.lesson || g.drill))
        return cli_usage_error(a, "--review asks the due lesson questions: without --lesson or --drill");
    if (cli_str(a, "item", NULL)) {
        if (!g.drill) return cli_usage_error(a, "--item needs --drill DECK");
        if (cli_int(a, "item", 1, 1, 10000, &g.item)) return 2;
        g.item--;
    }
    return gui_run(&g);
}

#define LOOK_OPTS                                                                                            \
    {"size", "WxH", "the window's (or the picture's) size in pixels (default 1280x800)"},                    \
        {"present", NULL, "projector mode: large type, thick lines, high contrast, no chrome"},              \
        {"theme", "light|dark", "the theme (default light)"},                                                \
        {"palette", "cb|classic", "cb: the colour-blind-safe palette (default); classic"}, {                 \
        "timeout", "S", "seconds to wait for the view's results before a picture or an export (default 120)" \
    }

static const CliOpt gui_opts[] = {
    {"session", "FILE", "restore the lab from FILE, save it there after every run and on quit"},
    CLI_OPT_STATE,
    {"screenshot", "FILE.png",
     "render one frame of --view offscreen to a PNG (no display needed) and exit; FILE.svg: as SVG"},
    {"lesson", "NAME", "play a lesson beside the views (resumes where you stopped; --present: classroom mode)"},
    {"review", NULL, "the lesson questions you answered that are due again today, each at its step"},
    {"class", NULL, "with --lesson: students vote on each question (as padlab lesson NAME --class; r reveal, v again)"},
    CLI_OPTS_CLASS,
    CLI_OPT_EXAM,
    {"step", "N",
     "with --lesson: open at step N, --view NAME there (a --screenshot shows step 1; no progress is kept)"},
    {"drill", "DECK", "play a drill deck in the window, with the terminal drill's keys (--present: classroom mode)"},
    {"item", "N", "with --drill: item N of the deck alone, no progress kept (a --screenshot shows item 1 unless told)"},
    {"all", NULL, "with --drill: every card or prompt, due or not"},
    {"timed", NULL, "with --drill: each quick-fire question against its time limit"},
    LOOK_OPTS,
    {NULL, NULL, NULL},
};

const CliCommand cli_cmd_gui = {
    .name = "gui",
    .summary = "the lab in a window: plots, heatmaps, a projector mode (SDL2)",
    .usage =
        "[--state LINE] [--SETTING VALUE ...] [--session FILE] [--present] [--lesson NAME [--step N]] [--drill DECK [--item N]]\n"
        "                     [--screenshot FILE.png [--view NAME] [--size WxH]]",
    .details = "Opens the lab in an SDL2 window: the same settings, keys and results as the\n"
               "terminal lab, drawn as plots with axes, legends and the exact value under the\n"
               "mouse. Press ? for the keys, f for projector mode, v to write the plot as SVG.\n"
               "With --lesson it plays a lesson beside the views, with the terminal's keys\n"
               "(space on, PgUp back, h hint, s solution, Esc the lab, F5 classroom mode).\n"
               "With --drill it plays a deck as padlab drill does, a bug case's lab view beside it.\n"
               "With --screenshot it waits for the view's results, renders one frame offscreen\n"
               "and writes it as a PNG; that needs no display. Without a display (and without\n"
               "--screenshot) it says so and exits with status 2: padlab opens the terminal lab.",
    .opts = gui_opts,
    .settings = ALL_SETTINGS,
    .max_pos = 0,
    .run = run_gui,
    .interactive = 1,
};

static int run_export(const CliArgs *a) {
    PlLabSettings s = pl_settings_default();
    if (cli_read_state(a, ALL_SETTINGS, &s, NULL)) return 2;
    GuiExport x;
    memset(&x, 0, sizeof x);
    if (read_look(a, &x.look, &x.width, &x.height, &x.timeout)) return 2;
    x.svg = cli_str(a, "svg", NULL), x.csv = cli_str(a, "csv", NULL), x.json = cli_str(a, "json", NULL);
    if (!x.svg && !x.csv && !x.json)
        return cli_usage_error(a, "nothing to write: give --svg FILE, --csv FILE or --json FILE");
    if ((x.svg && !*x.svg) || (x.csv && !*x.csv) || (x.json && !*x.json))
        return cli_usage_error(a, "--svg, --csv and --json need a file name");
    static const char *const outputs[] = {"svg", "csv", "json", NULL};
    if (cli_outputs_regular(a, outputs)) return 2;
    return gui_export(&s, (PlView)s.view, &x);
}

static const CliOpt export_opts[] = {
    {"svg", "FILE", "the view's plot as SVG: the display list the window draws"},
    {"csv", "FILE", "the plotted numbers, one row per point or bar: figure,series,x,y,label"},
    {"json", "FILE", "the view's full data as JSON (what the lab's e key writes)"},
    CLI_OPT_STATE,
    LOOK_OPTS,
    {NULL, NULL, NULL},
};

const CliCommand cli_cmd_export = {
    .name = "export",
    .summary = "a view's plot as SVG and its data as CSV or JSON",
    .usage = "--view NAME [--svg FILE] [--csv FILE] [--json FILE] [--state LINE] [--SETTING VALUE ...]",
    .details = "Opens a lab on the settings given, waits for the view's results and writes the\n"
               "plot the window would draw as SVG (vector, for slides and papers), the numbers\n"
               "plotted as CSV, and the view's full data as JSON. The train view trains the\n"
               "settings over the seeds first when it has no run to show. Needs no display.",
    .opts = export_opts,
    .settings = ALL_SETTINGS,
    .max_pos = 0,
    .run = run_export,
};
