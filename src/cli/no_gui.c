/* The window's stand-in, linked into a padlab configured with --disable-gui:
 * padlab gui and padlab export, which draw the window's figures, say in one
 * line that this padlab has none. */
#include <stdio.h>

#include "gui/gui.h"

static int built_without(const char *who) {
    fprintf(stderr, "%s: this padlab was built without the window (configure --disable-gui)\n", who);
    return 2;
}

int gui_run(const GuiArgs *a) {
    (void)a;
    return built_without("padlab gui");
}

int gui_figure_svg(PlLab *lab, const GuiLook *look, int W, int H, const char *path, char *why, int cap) {
    (void)lab, (void)look, (void)W, (void)H, (void)path;
    snprintf(why, (size_t)cap, "this padlab was built without the window (configure --disable-gui): no figures");
    return -2;
}

int gui_export(const PlLabSettings *s, PlView v, const GuiExport *x) {
    (void)s, (void)v, (void)x;
    return built_without("padlab export");
}
