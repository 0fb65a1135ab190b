/* The SM's cumulative counters, kept by the SM core and its units (timing/ldst.c). */
#ifndef PTXSIM_TIMING_SM_COUNTERS_H
#define PTXSIM_TIMING_SM_COUNTERS_H

#include <stdint.h>

#define TM_LAT_BUCKETS 20

/* Cumulative per-SM counters (all uint64_t so snapshots subtract field by field). */
struct tm_sm_counters {
    uint64_t cycles;      /* core cycles the SM was clocked during kernels */
    uint64_t busy_cycles; /* cycles with at least one resident CTA */
    uint64_t n_act, n_inact, c_idle, c_mem, c_stall;
    /* The warp scheduler's SM monitor (policies/sm_view.h): its samples and hits. */
    uint64_t mon_samples, mon_hits;
    uint64_t issued;                                 /* warp instructions issued */
    uint64_t sched_cycles, sched_issue, sched_empty; /* scheduler-cycles: all, issued, no warp */
    uint64_t st_sync, st_fetch, st_ctrl, st_data, st_dmiss, st_mshr, st_struct, st_exec;
    uint64_t warps_resident; /* sum over cycles of resident warps (achieved occupancy) */
    uint64_t ctas_done;
    uint64_t shmem_accesses, shmem_cycles;
    uint64_t reg_bank_conflicts;
    uint64_t gmem_insts, gmem_reqs, const_reqs, ifetch_reqs;
    uint64_t lat_sum, lat_n, lat_max;  /* memory latency of L1 misses, core cycles */
    uint64_t lat_hist[TM_LAT_BUCKETS]; /* bucket i: latency in [2^i, 2^(i+1)) */
};

#endif
