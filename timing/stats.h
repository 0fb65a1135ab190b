/*
 * Statistics of a timing run: counters gathered from the SMs, caches,
 * interconnect and DRAM, for one kernel (a difference of snapshots) or for
 * the whole run, printed as text with GPGPU-Sim's names where one exists
 * and as JSON.
 */
#ifndef PTXSIM_TIMING_STATS_H
#define PTXSIM_TIMING_STATS_H

#include <stdint.h>
#include <stdio.h>

#include "memsys/memsys.h"
#include "timing/sm.h"

/* Every field is a uint64_t counter so that snapshots subtract field by field. */
struct tm_counters {
    uint64_t cycles; /* core cycles */
    uint64_t warp_insts, thread_insts, ctas, kernels;
    struct tm_sm_counters sm; /* summed over SMs */
    struct mem_cache_stats l1d, l1i, l1c, l1t;
    struct mem_system_stats mem;
    uint64_t dram_cycles;
};

/*
 * A sampled estimate (-ptxsim_sample, timing/sample.c): how much of the
 * kernel ran in detail and what was extrapolated. kernels is 0 for a kernel
 * simulated in full (and nothing is printed); the whole run's figures sum the
 * kernels' (half-widths in quadrature).
 */
struct tm_sampled {
    uint64_t kernels;
    uint64_t detailed_ctas, functional_ctas;
    uint64_t detailed_cycles, extra_cycles;    /* estimate = detailed + extra */
    uint64_t detailed_insts, functional_insts; /* thread instructions */
    uint64_t window_ctas, windows, converged_cycle;
    double ci_half;                    /* 95% confidence half-width of the estimate, cycles */
    double ipc_mean, ipc_min, ipc_max; /* over the converged windows (thread insts per cycle) */
};

struct tm_stats {
    char kernel[128];
    uint32_t grid[3], block[3];
    uint32_t nsm, max_warps, max_ctas_per_sm; /* occupancy limit of the kernel (last kernel) */
    const char *occ_limiter;
    const char *l1d_policy;               /* name of the L1D policy */
    const char *const *l1d_counter_names; /* its counters in c.l1d.pol (NULL-terminated) */
    uint32_t regs_per_thread;             /* the occupancy estimate's registers per thread */
    uint32_t regs_sm; /* from the cubin for sm_<regs_sm>; 0 = PTX liveness estimate */
    double core_mhz, dram_mhz;
    double dram_peak_bytes_per_cycle; /* all channels, per DRAM command cycle */
    double ract;                      /* mean over SMs of N_act / (N_act + N_inact) */
    double util;                      /* mean over SMs of busy cycles / cycles */
    double wall_s;
    /* Concurrent kernels: core cycles of its submission and completion, and how many other
     * kernels were in flight with it (0 for the whole run's figures). */
    uint64_t start_cycle, end_cycle;
    uint32_t overlapped;
    /* Cycles the GPU's clock advanced for it alone: the union of the kernels' windows is the
     * sum of this over kernels (equal to c.cycles when nothing overlapped). */
    uint64_t gpu_cycles;
    struct tm_counters c;
    struct tm_sampled sampled;
};

void tm_counters_sub(struct tm_counters *out, const struct tm_counters *a,
                     const struct tm_counters *b);
void tm_counters_add(struct tm_counters *acc, const struct tm_counters *x);

/* Figures derived from the counters, shared by the printers. */
struct tm_derived {
    double ipc, occupancy, l1d_miss, l2_miss, l1d_mpki, l2_mpki, row_hit, dram_util, dram_gbs,
        l2_gbs, lat_avg, icnt_req_lat, icnt_reply_lat, sim_rate;
};
void tm_stats_derive(const struct tm_stats *s, struct tm_derived *d);

/*
 * A cache's misses as GPGPU-Sim counts them (its MISS and SECTOR_MISS): the
 * accesses that neither hit nor merged into a pending miss (those are its
 * pending hits, HIT_RESERVED); write misses and bypassed reads are misses.
 */
uint64_t tm_cache_misses(const struct mem_cache_stats *c);

/* The detail lines of the full text report ("name = value"), no header. */
void tm_stats_print_text(const struct tm_stats *s, FILE *out);
/* The sampled estimate as a JSON member and as a text line (nothing when s->kernels is 0). */
void tm_sampled_print_json(const struct tm_sampled *s, FILE *out, int indent);
void tm_sampled_print_text(const struct tm_sampled *s, FILE *out);
void tm_sampled_add(struct tm_sampled *acc, const struct tm_sampled *x);

/* One JSON object (no trailing newline). */
void tm_stats_print_json(const struct tm_stats *s, FILE *out, int indent);

#endif
