/*
 * The charts of `ptxsim sweep`, as hand-written SVG (rect, line and text
 * elements only): one panel per (size, machine), stacked vertically, each
 * with a title, a labelled y axis with grid lines, and a legend. Every bar
 * carries a <title> with its exact value. The output depends only on the
 * rows, so the same results give the same bytes.
 */
#ifndef PTXSIM_TOOLS_SWEEP_SVG_H
#define PTXSIM_TOOLS_SWEEP_SVG_H

#include <stdio.h>

struct sweep_results;

enum sweep_chart {
    SWEEP_CHART_IPC,   /* grouped bars: IPC normalised to the baseline, per workload, + GMEAN */
    SWEEP_CHART_MPKI,  /* grouped bars: L1D MPKI per workload and variant, + AMEAN */
    SWEEP_CHART_STALLS /* stacked 100% bars: stall breakdown of the baseline variant */
};

/* Writes one chart to out; baseline as for sweep_summary_write (NULL: the first variant). */
void sweep_svg_write(const struct sweep_results *r, const char *baseline, enum sweep_chart kind,
                     FILE *out);

#endif
