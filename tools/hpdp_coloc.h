/*
 * `ptxsim heteropdp report`, co-located part (docs/heteropdp.md, "Co-located
 * evaluation"; extraction section 5.8 I): every kernel launch measured beside
 * co-runners on both devices, with its alone times and the co-runners'
 * slowdowns, becomes a workload. Per workload and co-runner weight (0.5, 1,
 * 1.5, 2, 2.5; the OpenCL program's weight 1):
 *
 *   measured fairness per device (Eq. 6.4) of the OpenCL kernel's slowdown
 *   (co-located / alone time on that device) and the co-runners' slowdowns
 *   (CPU placement: measured, the cosd lines; GPU placement: their class's
 *   DRAM Bubble-up curve at the kernel's measured transfer pressure, since
 *   the GPU is simulated and its DMA traffic does not exist), the oracle
 *   device (the larger), and HeteroPDP's choice from the four models and the
 *   Bubble-up curves alone (what the runtime would decide).
 *
 * Writes OUT/coloc.md (accuracy and [predicted, optimal] table with one
 * co-runner and with two, fairness of always-CPU, always-GPU, HeteroPDP and
 * the oracle per weight, co-located model error within 20%),
 * OUT/coloc_workloads.csv, OUT/coloc_error_cdf.csv and OUT/fairness.svg.
 */
#ifndef PTXSIM_TOOLS_HPDP_COLOC_H
#define PTXSIM_TOOLS_HPDP_COLOC_H

#include "runtime/hpdp_models.h"
#include "tools/hpdp_log.h"

/*
 * Number of co-located workloads written (0: none in the logs, nothing
 * written), or -1 when a file cannot be written.
 */
int hpdp_coloc_report(const struct rt_hpdp_models *m, const char *out,
                      const struct hpdp_samples *s);

#endif
