/*
 * The text report on stderr at exit (timing mode): a block per kernel and
 * one for the whole run. Figures GPGPU-Sim also prints come first, in its
 * names and exact line formats, so that scripts written for GPGPU-Sim's
 * output (Accel-Sim's get_stats.py) read ptxsim's unchanged; ptxsim's own
 * figures follow. docs/statistics.md describes every line.
 */
#ifndef PTXSIM_RUNTIME_STATS_TEXT_H
#define PTXSIM_RUNTIME_STATS_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "runtime/stats_report.h"

/* k[0..n): the launches (those not timed are skipped); total: their sum; full: every figure. */
void ptxsim_stats_text(const struct ptxsim_kstat *k, size_t n, const struct tm_stats *total,
                       bool full, FILE *out);

#endif
