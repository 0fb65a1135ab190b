/*
 * The run's statistics report, shared by the CUDA and OpenCL runtimes: the
 * PTXSIM_STATS JSON file and, in timing mode, the GPGPU-Sim-style text on
 * stderr (runtime/stats_report.c has the format).
 */
#ifndef PTXSIM_RUNTIME_STATS_REPORT_H
#define PTXSIM_RUNTIME_STATS_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/config.h"
#include "timing/stats.h"

/* One kernel launch as the report lists it. */
struct ptxsim_kstat {
    const char *name;
    uint64_t cycles, thread_insn, warp_insn;
    double wall_s;
    uint32_t grid[3], block[3];
    bool timed; /* ran in the timing model: tm holds its statistics */
    struct tm_stats tm;
};

/*
 * Reports launches k[0..n): the text report on stderr when some ran in the
 * timing model and cfg says so (-ptxsim_print_stats), and the JSON file at
 * path (NULL: none). sim_ns is the simulated time, copy_bytes the bytes the
 * program copied; truncated, when not NULL, says why the run stopped early (a cap,
 * a signal): the JSON then has "truncated": true and "truncated_reason". `who`
 * prefixes error messages ("ptxsim").
 */
void ptxsim_stats_report(const struct ptxsim_kstat *k, size_t n, double sim_ns,
                         uint64_t copy_bytes, const struct ps_config *cfg, const char *path,
                         const char *truncated, const char *who);

#endif
