/* The ledger: what the learner may see now.
 *
 * Every figure a surface shows (a view, the status line, a lesson's text, an
 * export, a worksheet, the class projector, a student's page) travels as a
 * mark from the code that formats it to the code that draws it:
 *
 *   "\x01" NAMES "\x02" TEXT "\x03"
 *
 * NAMES is the figure's quantity (its name in the quantity table, as
 * "cost.rnn_wasted" or "cost.padding_share(packed)"), or several separated
 * by ',' when one figure is two facts at once (the selected strategy's row
 * is also the current padding share). TEXT is the figure as it is written,
 * and may hold marks of its own (a sentence whose wording follows a figure
 * marks the whole sentence with that figure). The drawer hands the text to
 * pl_ledger_draw, which asks the ledger of each mark: a hidden one is drawn
 * as "?????" whatever it held (its width would tell the value's), or null
 * in JSON; the others as they are; the marks themselves never reach a
 * screen or a file. Text that
 * carries no mark is never hidden: equal digits are not the same fact.
 *
 * A lesson fills the ledger (lesson_run.h): an open question hides its
 * quantity and the quantities declared to determine it (pl_quantity_hide), and a
 * question not answered yet hides its figure on the other steps that show
 * the same fact. A NULL ledger hides nothing (the command line, the key).
 *
 * Layout: n names hidden, each at most PL_FIG_NAME - 1 bytes. A figure of
 * training hides the runs it is read from, every figure of them: "train" the
 * lab's own setting's runs (names "train.*"), "grid(CELL)" a grid cell's
 * ("grid.*(CELL)"), "*" every run; the other settings' runs stay in sight.
 * Those runs hang together (a median lies between the lowest and the highest
 * seed), so a narration's figure may lift them (pl_ledger_show), a name may
 * not. How many seeds ran is the learner's own setting, never hidden so. */
#ifndef PL_APP_LEDGER_H
#define PL_APP_LEDGER_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include "core/chance.h"

#define PL_FIG_BEGIN '\x01'
#define PL_FIG_SEP '\x02'
#define PL_FIG_END '\x03'
#define PL_FIG_NAME 64
#define PL_LEDGER_MAX 64
#define PL_LEDGER_SHOWN 32
#define PL_LEDGER_RUNS 8

typedef struct PlLedger {
    int n;
    char name[PL_LEDGER_MAX][PL_FIG_NAME];
    int training; /* how many run families are hidden: runs[0..training) */
    char runs[PL_LEDGER_RUNS][PL_FIG_NAME];
    int nshown; /* but these (a question answered: its own figure) */
    char shown[PL_LEDGER_SHOWN][PL_FIG_NAME];
} PlLedger;

/* Empties a ledger. */
void pl_ledger_clear(PlLedger *l);
/* Hides the figures named `name` (a quantity's name, or "NAME(*)" for
 * every argument of it); pl_quantity_hide hides a quantity with what
 * determines it. A name already there is not added twice; past
 * PL_LEDGER_MAX names the ledger hides every figure (never too little). A
 * figure of training sets training. */
void pl_ledger_hide(PlLedger *l, const char *name);
/* Shows the figure named `name` (exactly) where training hides the rest:
 * a question answered shows its own answer, though another not answered
 * yet still hides every other figure of training. A name hidden by name
 * stays hidden. */
void pl_ledger_show(PlLedger *l, const char *name);
/* Takes back pl_ledger_hide(l, name) (exactly that name; an overflowed
 * ledger still hides everything): a figure the learner has answered, which
 * another question names among what determines its own. */
void pl_ledger_unhide(PlLedger *l, const char *name);
/* Hides every figure of the runs that figure `name` of training is read
 * from (its family, as the layout above says), which pl_ledger_show may
 * lift. pl_ledger_hide does this for a figure of training by itself. */
void pl_ledger_hide_runs(PlLedger *l, const char *name);
/* Lifts every run family (a figure of training by its name stays hidden). */
void pl_ledger_runs_clear(PlLedger *l);
/* Adds the run families src hides to dst. */
void pl_ledger_runs_merge(PlLedger *dst, const PlLedger *src);
/* Whether l hides nothing (NULL does not). */
int pl_ledger_empty(const PlLedger *l);
/* Whether a figure marked `names` (one name, or several separated by ',',
 * n bytes of them) is hidden. NULL hides nothing. */
int pl_ledger_hides(const PlLedger *l, const char *names, size_t n);
/* Whether any figure named name is hidden: the test for a drawing that
 * shows a quantity without writing it (a bar, a heatmap, a curve). */
int pl_ledger_hides_name(const PlLedger *l, const char *name);

/* ---- writing figures ---- */

/* A figure: fmt's text marked as quantity `names`'s, into buf (cap bytes);
 * names "" (a number of the same kind that is no quantity here) gives the
 * text plain, never hidden. Returns buf; a text too long for buf is cut,
 * its mark still closed. */
const char *pl_fig(char *buf, size_t cap, const char *names, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
const char *pl_vfig(char *buf, size_t cap, const char *names, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));
/* A figure in a buffer of its own, valid to the end of the enclosing block:
 * pane_put(p, y, x, w, "RNN steps %s", PL_FIG("cost.rnn_steps", "%lld", n)). */
#define PL_FIG(names, ...) pl_fig((char[192]){0}, 192, (names), __VA_ARGS__)
/* A figure written straight to a file, drawn as it is written: fmt's text,
 * or '?'s of its width when l hides `names`. The printers of exports and
 * handouts draw this way: the file is the surface. */
void pl_fig_fprintf(FILE *f, const PlLedger *l, const char *names, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The same into buf (cap bytes), drawn at once: for a table's cell. */
const char *pl_fig_drawn(char *buf, size_t cap, const PlLedger *l, const char *names, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* ---- drawing ---- */

typedef enum {
    PL_DRAW_TEXT, /* a hidden figure is '?'s of its width, spaces kept */
    PL_DRAW_JSON, /* a hidden figure is null (its marks wrap a number) */
} PlDrawMode;

/* Draws marked text: in, with each mark resolved by l, into out (cap bytes,
 * cut at a character's edge when it does not fit). Bytes 1 to 3 that make
 * no mark are dropped. Returns out. */
const char *pl_ledger_draw(const PlLedger *l, const char *in, char *out, size_t cap);
/* The same, written to f in mode m. Returns 0, or -1 when f reports an error. */
int pl_ledger_fputs(const PlLedger *l, const char *in, PlDrawMode m, FILE *f);
/* The same into a new string (the caller frees it); NULL when out of memory. */
char *pl_ledger_draw_new(const PlLedger *l, const char *in, PlDrawMode m);
/* Whether text holds a mark. */
int pl_fig_marked(const char *text);

#endif
