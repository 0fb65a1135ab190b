/*
 * `ptxsim heteropdp report` (docs/heteropdp.md, "Evaluation"): the launches
 * that ran on both devices alone become workloads; for each, the oracle
 * device (the smaller measured time: the CPU's PoCL time, the GPU's
 * simulated time plus the modelled transfer), HeteroPDP's choice from the
 * models' predictions, and the always-CPU / always-GPU baselines. Writes
 * OUT/summary.md (accuracy, [predicted, optimal] table, geometric-mean
 * speedups normalised to always-CPU, the gap closed, model error within
 * 20%), OUT/workloads.csv, OUT/error_cdf.csv and the figures
 * OUT/speedup.svg and OUT/error_cdf.svg.
 */
#ifndef PTXSIM_TOOLS_HPDP_REPORT_H
#define PTXSIM_TOOLS_HPDP_REPORT_H

#include "tools/hpdp_log.h"

/* 0, or 1 with a message. */
int hpdp_report(const char *models_dir, const char *out, const struct hpdp_samples *s);

#endif
