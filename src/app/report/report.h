/* Printing results: one text printer and one JSON printer per kind of
 * result, reached through a const table indexed by PlResultKind. The probe
 * commands print through it and the lab's export writes through it, so a
 * number reads the same on the command line and in an exported file.
 *
 * Every text printer opens with the line that says where the result came
 * from (which batch of the plan, its rows and width, the strategy, the rows
 * the close-up used, the weights), as the lab's views do; every JSON printer
 * closes its object with the same facts under "source". A printer writes to
 * f and returns PL_OK, or PL_EIO when f reports a write error; it never
 * computes anything. */
#ifndef PL_APP_REPORT_H
#define PL_APP_REPORT_H

#include <stdio.h>

#include "app/lab/lab.h"
#include "out.h"

typedef struct {
    int full;            /* print every cell of a long row */
    int columns;         /* elide rows wider than this (0: never) */
    int rows_given;      /* the batch is rows the user named, not a batch of the plan */
    const char *weights; /* the file the model's weights came from; NULL: fresh or a run's (info says) */
    int settings_line;   /* text: a second line with every setting the result depends on */
    const PlLedger *ledger; /* the figures it hides are written as ?s (text) or null (JSON); NULL: none */
} PlReportOpts;

typedef PlStatus (*PlReportFn)(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                               const PlReportOpts *o);

typedef struct {
    PlReportFn text, json;
} PlReport;

extern const PlReport pl_reports[PL_R_COUNT];

/* Prints result r of kind k as text (json = 0) or JSON. */
PlStatus pl_report_print(FILE *f, PlResultKind k, int json, const PlCorpus *c, const void *r, const PlResultInfo *info,
                         const PlReportOpts *o);

/* The source line of a result of kind k (no newline), into buf, its figures
 * marked (ledger.h): draw it through a ledger. Returns buf. */
const char *pl_report_source(PlResultKind k, const PlCorpus *c, const PlResultInfo *info, const PlReportOpts *o,
                             char *buf, int cap);

/* ---- what the printers share (print.c) ---- */

/* Prints the source line (and the settings line when asked), then a blank line. */
void pl_report_header(FILE *f, PlResultKind k, const PlCorpus *c, const PlResultInfo *info, const PlReportOpts *o);
/* Writes "settings" and "source" into w, closes the object and returns its
 * status (PL_EIO after a write error). */
PlStatus pl_report_json_end(JsonW *w, PlResultKind k, const PlCorpus *c, const PlResultInfo *info,
                            const PlReportOpts *o);
/* PL_OK, or PL_EIO when f has seen a write error. */
PlStatus pl_report_status(FILE *f);
/* The elision width of o: 0 when o asks for every cell. */
int pl_report_columns(const PlReportOpts *o);
/* Where the weights came from, for a sentence: "fresh weights from seed 3",
 * "the weights in FILE (avgpool)", "the weights of run 2 (gru, seed 1)". */
const char *pl_report_weights(const PlResultInfo *info, const PlReportOpts *o, char *buf, int cap);
/* Whether the weights are a trained model's, not fresh ones. */
int pl_report_trained(const PlResultInfo *info, const PlReportOpts *o);

void pl_report_json_floats(JsonW *w, const char *key, const float *v, int n);
void pl_report_json_matrix(JsonW *w, const char *key, const float *m, int rows, int cols);
/* The same for ids and counts (int32), and for masks (bytes), row-major. */
void pl_report_json_ints(JsonW *w, const char *key, const int32_t *v, int n);
void pl_report_json_int_matrix(JsonW *w, const char *key, const int32_t *m, int rows, int cols);
void pl_report_json_byte_matrix(JsonW *w, const char *key, const uint8_t *m, int rows, int cols);
/* A row of n ids or positions under label, elided past the report's
 * columns (out_row_print). Returns 0, or -1 when out of memory. */
int pl_report_int_row(FILE *f, const char *label, const int32_t *v, int n, const PlReportOpts *o);
/* A decoder probe's line for prompt b of len tokens in a batch of width T:
 * its review, its tokens (cut from the whole review's), its pads; prompt 0
 * is the example, its figures named PROBE.example_kept and .example_pads. */
void pl_report_prompt_line(FILE *f, const PlCorpus *c, const PlResultInfo *info, const PlReportOpts *o,
                           const char *probe, int b, int len, int T);

/* The printers of each kind, one file each (print_KIND.c). */
PlStatus pl_report_batch_text(FILE *, const PlCorpus *, const void *, const PlResultInfo *, const PlReportOpts *);
PlStatus pl_report_batch_json(FILE *, const PlCorpus *, const void *, const PlResultInfo *, const PlReportOpts *);
/* The strategy rows of a comparison, as `padlab buckets` and the cost
 * result print them: a JSON array "strategies", or a table (selected, a
 * PlBatching or -1, is starred). */
void pl_report_strategies_json(JsonW *w, const PlStrategyRow *rows, int n, int selected);
int pl_report_strategies_table(FILE *f, const PlStrategyRow *rows, int n, OutFormat fmt, int selected,
                               const PlLedger *l);
/* What a strategy's shapes mean, in three parts short enough for a line of
 * an 80-column terminal each; PL_REPORT_SHAPES_NOTE is the sentence whole. */
#define PL_REPORT_SHAPES_WHAT "shapes: the distinct rows x width of an epoch's batches;"
#define PL_REPORT_SHAPES_WHY "XLA, or torch.compile without dynamic shapes, compiles once per shape;"
#define PL_REPORT_SHAPES_BOUND "multiple_of_8 and the buckets bound them, dynamic padding does not"
#define PL_REPORT_SHAPES_NOTE PL_REPORT_SHAPES_WHAT " " PL_REPORT_SHAPES_WHY " " PL_REPORT_SHAPES_BOUND
/* What a strategy computes against static, in words, from its saving (1 -
 * its cells / static's): "18.6% fewer", "14.3% more", "12.4x as many", or
 * "same"; with than_static, "... than static" / "... as static". The one
 * phrasing the terminal, the window and the tables share, so a strategy
 * that computes more is never called a saving. Returns buf. */
const char *pl_report_vs_static(double saved, int than_static, char *buf, int cap);
/* The names of a figure of the cost headline, which is the selected
 * strategy's row: "cost.BARE,cost.ROW(strategy)" ("cost.rnn_steps,
 * cost.cells(dynamic)"), so that a question on that strategy's row hides it
 * here too. Returns buf. */
const char *pl_report_selected_names(char *buf, size_t cap, const char *bare, const char *row, int selected);
/* Where real cells hold the pad's id (an end token written as the pad), the
 * sentence every surface of the masks says under its conventions' code:
 * the masks come from the lengths, and the code, which compares ids, would
 * hide those cells too. "" when none does. Returns buf. */
const char *pl_report_masks_ids_note(const PlProbeMasks *r, char *buf, size_t cap);
/* The names of figure q ("cells", "padding_share", ...) of strategy row i
 * of rows (n of them), into buf: "cost.q(NAME)", and the plain "cost.q"
 * too when the row is the selected batching's, or has exactly its batches,
 * cells and tokens cut: then each of its figures is the lab's own figure
 * (dynamic batches of the same widths as static ones are the same cells).
 * selected -1: the row's own name only. Returns buf. */
const char *pl_report_row_names(char *buf, size_t cap, const char *q, const PlStrategyRow *rows, int n, int i,
                                int selected);
PlStatus pl_report_cost_text(FILE *, const PlCorpus *, const void *, const PlResultInfo *, const PlReportOpts *);
PlStatus pl_report_cost_json(FILE *, const PlCorpus *, const void *, const PlResultInfo *, const PlReportOpts *);
PlStatus pl_report_attention_text(FILE *, const PlCorpus *, const void *, const PlResultInfo *, const PlReportOpts *);
PlStatus pl_report_attention_json(FILE *, const PlCorpus *, const void *, const PlResultInfo *, const PlReportOpts *);
PlStatus pl_report_rnn_text(FILE *, const PlCorpus *, const void *, const PlResultInfo *, const PlReportOpts *);
PlStatus pl_report_rnn_json(FILE *, const PlCorpus *, const void *, const PlResultInfo *, const PlReportOpts *);
PlStatus pl_report_pooling_text(FILE *, const PlCorpus *, const void *, const PlResultInfo *, const PlReportOpts *);
PlStatus pl_report_pooling_json(FILE *, const PlCorpus *, const void *, const PlResultInfo *, const PlReportOpts *);
PlStatus pl_report_loss_text(FILE *, const PlCorpus *, const void *, const PlResultInfo *, const PlReportOpts *);
PlStatus pl_report_loss_json(FILE *, const PlCorpus *, const void *, const PlResultInfo *, const PlReportOpts *);
/* Whether padding the loss's rows wider left the per-token loss as it was
 * (to float rounding): the word "unchanged" the loss's printers and views
 * write beside it is conditioned on this. */
int pl_report_loss_unchanged(const PlProbeLoss *r);
/* The figures the chat batch's labels give by counting (its answer tokens,
 * as a count and as shares, and its prompt tokens): one mark for them all. */
#define PL_LOSS_CHAT_COUNTS \
    "loss.completion_tokens,loss.completion_share,loss.completion_cell_share,loss.chat_prompt_tokens"
/* Row b of the chat batch's labels in runs ("-100 x57 | 12 845 3 ... 77 |
 * -100 x10"), marked as one figure of PL_LOSS_CHAT_COUNTS, into buf (cap
 * bytes). Returns buf. */
const char *pl_report_loss_labels(char *buf, size_t cap, const PlProbeLoss *r, int b);
/* Whether the page a lesson shows now names a figure of the chat batch
 * (pl_lab_reads): where the loss view cannot show all its parts, both
 * front ends then show the chat batch's. */
int pl_report_loss_reads_chats(const PlLab *lab);
PlStatus pl_report_layers_text(FILE *, const PlCorpus *, const void *, const PlResultInfo *, const PlReportOpts *);
PlStatus pl_report_layers_json(FILE *, const PlCorpus *, const void *, const PlResultInfo *, const PlReportOpts *);
PlStatus pl_report_generate_text(FILE *, const PlCorpus *, const void *, const PlResultInfo *, const PlReportOpts *);
PlStatus pl_report_generate_json(FILE *, const PlCorpus *, const void *, const PlResultInfo *, const PlReportOpts *);
PlStatus pl_report_kvcache_text(FILE *, const PlCorpus *, const void *, const PlResultInfo *, const PlReportOpts *);
PlStatus pl_report_kvcache_json(FILE *, const PlCorpus *, const void *, const PlResultInfo *, const PlReportOpts *);
PlStatus pl_report_masks_text(FILE *, const PlCorpus *, const void *, const PlResultInfo *, const PlReportOpts *);
PlStatus pl_report_masks_json(FILE *, const PlCorpus *, const void *, const PlResultInfo *, const PlReportOpts *);
PlStatus pl_report_identity_text(FILE *, const PlCorpus *, const void *, const PlResultInfo *, const PlReportOpts *);
PlStatus pl_report_identity_json(FILE *, const PlCorpus *, const void *, const PlResultInfo *, const PlReportOpts *);
PlStatus pl_report_blocks_text(FILE *, const PlCorpus *, const void *, const PlResultInfo *, const PlReportOpts *);
PlStatus pl_report_blocks_json(FILE *, const PlCorpus *, const void *, const PlResultInfo *, const PlReportOpts *);
PlStatus pl_report_packing_text(FILE *, const PlCorpus *, const void *, const PlResultInfo *, const PlReportOpts *);
PlStatus pl_report_packing_json(FILE *, const PlCorpus *, const void *, const PlResultInfo *, const PlReportOpts *);

/* ---- the train view: the runs table and the grid ---- */

typedef struct {
    const PlLabGroup *groups; /* (ngroups) the runs table, in its sort order */
    int ngroups;
    const PlLabRun *runs; /* (nruns) in the order they finished */
    int nruns;
    PlLabGrid grid;
    PlChance chance; /* the corpus's, every accuracy is read against it */
    unsigned parts;  /* what to write, a bit per PlViewPart: what the view draws (pl_lab_view_draws) */
    const PlLedger *ledger; /* the figures it hides are written as ?s (text) or null (JSON); NULL: none */
    PlRunNames names;       /* the names each setting's figures carry (pl_lab_run_names) */
} PlTrainReport;

PlStatus pl_report_train_text(FILE *f, const PlTrainReport *t);
/* "chance": {"share", "label", "n_val", "noise"}: how every JSON output
 * states the line its accuracies are read against. */
void pl_report_json_chance(JsonW *w, const PlChance *ch);
PlStatus pl_report_train_json(FILE *f, const PlTrainReport *t);

#endif
