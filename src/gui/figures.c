/* The table of figures and what they share: the header every view opens
 * with, and the source line that says where a result came from. */
#include "figures.h"

#include <stdarg.h>
#include <stdio.h>

#include "app/report/report.h"

typedef void (*FigFn)(GuiList *dl, PlLab *lab, GuiRect r, int *current);

/* The figure of each view; which results it draws is the app layer's table (pl_view_shows). */
static const FigFn figs[PL_VIEW_COUNT] = {
    [PL_VIEW_BATCH] = gui_fig_batch, [PL_VIEW_COST] = gui_fig_cost,       [PL_VIEW_ATTENTION] = gui_fig_attention,
    [PL_VIEW_RNN] = gui_fig_rnn,     [PL_VIEW_POOLING] = gui_fig_pooling, [PL_VIEW_LOSS] = gui_fig_loss,
    [PL_VIEW_TRAIN] = gui_fig_train, [PL_VIEW_LAYERS] = gui_fig_layers,   [PL_VIEW_GENERATE] = gui_fig_generate,
    [PL_VIEW_MASKS] = gui_fig_masks,
};

int gui_figure(GuiList *dl, PlLab *lab, PlView v, GuiRect r) {
    int current = 1;
    gui_figure_name(dl, pl_view_name(v));
    /* a lesson's open questions: the figures they ask are drawn as ?s and the
     * drawings of them left empty; the figure code reads dl->ledger alone */
    dl->ledger = pl_lab_ledger(lab);
    figs[v](dl, lab, r, &current);
    dl->ledger = NULL;
    return current;
}

GuiColor gui_series_color(int i) {
    static const GuiColor c[] = {GUI_C_S1, GUI_C_S2, GUI_C_S3, GUI_C_S4};
    return c[((i % 4) + 4) % 4];
}

double gui_fig_line(GuiList *dl, GuiRect r, double y, GuiColor c, const char *fmt, ...) {
    char buf[1024]; /* a line of figures is longer with its marks (app/lab/ledger.h) */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    double h = gui_text_wrap(dl, r.x, y, r.w, GUI_NORMAL, c, GUI_LEFT, "%s", buf);
    return y + h + gui_text_h(dl, GUI_NORMAL) * 0.15;
}

const char *gui_fig_source(PlLab *lab, PlResultKind k, const PlResultStatus *st, char *buf, int cap) {
    buf[0] = '\0';
    if (!st->info) return buf;
    PlReportOpts o = {0};
    return pl_report_source(k, pl_lab_corpus(lab), st->info, &o, buf, cap);
}

GuiRect gui_fig_header(GuiList *dl, GuiRect r, const char *title, const char *source, const char *look,
                       const PlResultStatus *st, int have) {
    double u = dl->st->unit, y = r.y;
    double badge = st && st->stale && have ? gui_text_w(dl, GUI_SMALL, 0, "updating") + 24 * u : 0.0;
    double th = gui_text_wrap(dl, r.x, y, r.w - badge, GUI_TITLE, GUI_C_FG, GUI_LEFT, "%s", title);
    if (st && st->stale && have) {
        double w = gui_text_w(dl, GUI_SMALL, 0, "updating") + 12 * u, h = gui_text_h(dl, GUI_SMALL) + 4 * u;
        gui_rect(dl, (GuiRect){r.x + r.w - w, y, w, h}, GUI_C_WARN);
        gui_text(dl, r.x + r.w - w / 2, y + 2 * u, GUI_SMALL, GUI_C_BG, GUI_CENTER, "updating");
        gui_tag(dl, "updating");
    }
    y += th;
    if (source && *source && !dl->st->present)
        y += gui_text_wrap(dl, r.x, y, r.w, GUI_SMALL, GUI_C_DIM, GUI_LEFT, "%s", source) + 2 * u;
    if (look && *look) y += gui_text_wrap(dl, r.x, y, r.w, GUI_NORMAL, GUI_C_FG, GUI_LEFT, "%s", look);
    y += 8 * u;
    if (!have) {
        if (st && st->error)
            gui_text_wrap(dl, r.x, y, r.w, GUI_NORMAL, GUI_C_WARN, GUI_LEFT, "cannot compute this view: %s", st->error);
        else gui_text(dl, r.x, y, GUI_NORMAL, GUI_C_DIM, GUI_LEFT, "computing...");
        gui_tag(dl, "computing");
        return (GuiRect){r.x, y, r.w, 0};
    }
    return (GuiRect){r.x, y, r.w, r.y + r.h - y};
}
