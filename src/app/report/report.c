/* The table of printers, one row per kind of result, and the one call that
 * prints through it. What the printers share is in print.c. */
#include "report.h"

#include <stdio.h>
#include <string.h>

const PlReport pl_reports[PL_R_COUNT] = {
    [PL_R_BATCH] = {pl_report_batch_text, pl_report_batch_json},
    [PL_R_COST] = {pl_report_cost_text, pl_report_cost_json},
    [PL_R_ATTENTION] = {pl_report_attention_text, pl_report_attention_json},
    [PL_R_RNN] = {pl_report_rnn_text, pl_report_rnn_json},
    [PL_R_POOLING] = {pl_report_pooling_text, pl_report_pooling_json},
    [PL_R_LOSS] = {pl_report_loss_text, pl_report_loss_json},
    [PL_R_LAYERS] = {pl_report_layers_text, pl_report_layers_json},
    [PL_R_GENERATE] = {pl_report_generate_text, pl_report_generate_json},
    [PL_R_MASKS] = {pl_report_masks_text, pl_report_masks_json},
    [PL_R_IDENTITY] = {pl_report_identity_text, pl_report_identity_json},
    [PL_R_KVCACHE] = {pl_report_kvcache_text, pl_report_kvcache_json},
    [PL_R_BLOCKS] = {pl_report_blocks_text, pl_report_blocks_json},
    [PL_R_PACKING] = {pl_report_packing_text, pl_report_packing_json},
};

PlStatus pl_report_print(FILE *f, PlResultKind k, int json, const PlCorpus *c, const void *r, const PlResultInfo *info,
                         const PlReportOpts *o) {
    static const PlReportOpts dflt = {0};
    const PlReport *p = &pl_reports[k];
    return (json ? p->json : p->text)(f, c, r, info, o ? o : &dflt);
}
