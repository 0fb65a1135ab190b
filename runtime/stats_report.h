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

/* What else the end of a run reports. */
struct ptxsim_run_notes {
    const char *truncated;     /* why the statistics are incomplete, or NULL */
    uint64_t outside_accesses; /* device accesses outside every allocation (docs/engine.md) */
};
/*
 * Reports launches k[0..n): the text report on stderr when some ran in the
 * timing model and cfg says so (-ptxsim_print_stats), and the JSON file at
 * path (NULL: none). sim_ns is the simulated time, copy_bytes the bytes the
 * program copied, `who` prefixes error messages ("ptxsim"). With notes:
 * "truncated": true and its reason (a cap, a signal, an exit), and the count of
 * accesses outside allocations in the JSON total; when that count is not 0, a
 * line on stderr says how to locate them (--memcheck).
 */
void ptxsim_stats_report_notes(const struct ptxsim_kstat *k, size_t n, double sim_ns,
                               uint64_t copy_bytes, const struct ps_config *cfg, const char *path,
                               const char *who, const struct ptxsim_run_notes *notes);

#endif
