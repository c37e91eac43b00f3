/* padlab with no command: the lab in the terminal, or the report when there
 * is no terminal to draw on. Its settings flags come from the registry. */
#include <stdio.h>
#include <string.h>

#include "app/state.h"
#include "cli.h"
#include "tui/tui.h"

#define ALL_SETTINGS ((1u << PL_S_COUNT) - 1)

/* The settings the lab would open with, as session lines. Read through the
 * app alone, so that a padlab built without the terminal lab prints them too. */
static int print_settings(const TuiArgs *t) {
    PlSessionOpen o;
    pl_session_open(&o, t->session, &t->settings, t->given);
    if (o.error[0]) fprintf(stderr, "padlab: %s; starting with the default settings\n", o.error);
    char buf[600];
    for (int id = 0; id < PL_S_COUNT; id++)
        printf("%s = %s\n", pl_settings[id].name, pl_setting_format(&o.settings, (PlSettingId)id, buf, sizeof buf));
    pl_session_open_done(&o);
    return 0;
}

/* The state line of the settings the lab would open with. */
static int print_state(const TuiArgs *t) {
    PlSessionOpen o;
    pl_session_open(&o, t->session, &t->settings, t->given);
    if (o.error[0]) fprintf(stderr, "padlab: %s; starting with the default settings\n", o.error);
    char line[PL_STATE_CAP];
    printf("padlab --state %s\n", pl_state_format(&o.settings, line, sizeof line));
    pl_session_open_done(&o);
    return 0;
}

static int run(const CliArgs *a) {
    TuiArgs t;
    memset(&t, 0, sizeof t);
    t.settings = pl_settings_default();
    if (cli_read_state(a, ALL_SETTINGS, &t.settings, &t.given)) return 2;
    t.session = cli_str(a, "session", NULL);
    t.screen.mono = cli_flag(a, "mono");
    t.screen.ascii = cli_flag(a, "ascii");
    t.present = cli_flag(a, "present");
    if (cli_flag(a, "print-settings")) return print_settings(&t);
    if (cli_flag(a, "print-state")) return print_state(&t);
    char why[256];
    int rc = tui_run(&t, why, sizeof why);
    if (rc >= 0) return rc;
    fprintf(stderr, "padlab: %s, so here is the report instead of the lab\n", why);
    return cli_cmd_report.run(a);
}

static const CliOpt opts[] = {
    {"session", "FILE", "restore the lab from FILE, save it there after every run and on quit"},
    {"present", NULL, "classroom mode: one view alone on the screen (F5 switches it in the lab)"},
    {"mono", NULL, "no colours (also when NO_COLOR is set)"},
    {"ascii", NULL, "no Unicode block characters (also in a locale without UTF-8)"},
    {"print-settings", NULL, "print the settings the lab would open with (session, then flags) and exit"},
    CLI_OPT_STATE,
    {"print-state", NULL, "print the state line of the lab it would open (padlab --state ...) and exit"},
    {NULL, NULL, NULL},
};

const CliCommand cli_cmd_lab = {
    .name = "lab",
    .summary = "the interactive lab in the terminal (what padlab opens with no command)",
    .usage = "[--state LINE] [--SETTING VALUE ...] [--session FILE] [--present] [--mono] [--ascii]",
    .details = "Opens the lab: a control strip over views computed from real batches and real\n"
               "models. A cold setting (starred) retrains the model over several seeds in the\n"
               "background; the views recompute on a worker and never freeze the screen.\n"
               "Every setting below can be given as a flag; with --session, the flags given\n"
               "win over the session's. --state LINE (from --print-state or the i key) opens\n"
               "the lab it was made from; flags given beside it win. Press ? in the lab for\n"
               "the keys. Without a terminal padlab prints the report instead.",
    .opts = opts,
    .settings = ALL_SETTINGS,
    .max_pos = 0,
    .run = run,
    .interactive = 1,
};
