/*
 * Launch statistics of the CUDA runtime; the PTXSIM_STATS report itself is
 * runtime/stats_report.c (shared with OpenCL, which has the format),
 * written once at exit. In functional mode cycles are an estimate (see
 * launch.c).
 */
#include <stdlib.h>

#include "runtime/cuda/cudart.h"

cudaError_t rt_stats_add(struct rt_ctx *c, const struct ptxsim_kstat *ks)
{
    if (c->nkstats == c->cap_kstats) {
        size_t ncap = c->cap_kstats ? c->cap_kstats * 2 : 64;
        struct ptxsim_kstat *n = realloc(c->kstats, ncap * sizeof(*n));

        if (!n)
            return cudaErrorMemoryAllocation;
        c->kstats = n;
        c->cap_kstats = ncap;
    }
    c->kstats[c->nkstats++] = *ks;
    return cudaSuccess;
}

void rt_stats_write(struct rt_ctx *c)
{
    struct ptxsim_run_notes notes = {c->truncated[0] ? c->truncated : NULL,
                                     ptxsim_outside_accesses(c->dev)};

    ptxsim_stats_report_notes(c->kstats, c->nkstats, c->sim_ns, c->copy_bytes, &c->cfg,
                              c->stats_path, "ptxsim", &notes);
}
