/* The table of views: which function draws each, and its short name. */
#include "views.h"

static const struct {
    TuiViewFn draw;
    const char *short_name;
} views[PL_VIEW_COUNT] = {
    [PL_VIEW_BATCH] = {tui_view_batch, "batch"},        [PL_VIEW_COST] = {tui_view_cost, "cost"},
    [PL_VIEW_ATTENTION] = {tui_view_attention, "attn"}, [PL_VIEW_RNN] = {tui_view_rnn, "rnn"},
    [PL_VIEW_POOLING] = {tui_view_pooling, "pool"},     [PL_VIEW_LOSS] = {tui_view_loss, "loss"},
    [PL_VIEW_TRAIN] = {tui_view_train, "train"},        [PL_VIEW_LAYERS] = {tui_view_layers, "layers"},
    [PL_VIEW_GENERATE] = {tui_view_generate, "gen"},    [PL_VIEW_MASKS] = {tui_view_masks, "masks"},
};

void tui_view_draw(PlLab *lab, PlView v, TuiPane *p) {
    p->rows = 0;
    p->fixed = 0;
    p->cols = 0;
    p->cut = 0;
    views[v].draw(lab, p);
    tui_clamp_scroll(p);
    tui_sideways_mark(p);
}

const char *tui_view_short(PlView v) { return views[v].short_name; }
