/*
 * The timing model's machine description, taken once from the option table
 * (common/config.h) with every composite value (clock domains, cache
 * strings, latency lists, DRAM timing) parsed and checked, so the per-cycle
 * code reads plain numbers.
 */
#ifndef PTXSIM_TIMING_PARAMS_H
#define PTXSIM_TIMING_PARAMS_H

#include <stdbool.h>
#include <stdint.h>

#include "common/config.h"
#include "common/err.h"
#include "memsys/addrmap.h"
#include "memsys/cache.h"
#include "memsys/dram.h"

/* -ptxsim_sample (timing/sample.c): off unless on is set. */
struct tm_sample_spec {
    bool on;
    uint32_t window;  /* completed CTAs per window; 0 = `waves` waves (SMs x CTAs per SM) */
    double waves;     /* window=0: waves per window */
    uint32_t k;       /* consecutive windows that must agree */
    uint32_t warmup;  /* windows discarded before the criterion looks */
    double tol;       /* each window's IPC within tol (relative) of the k windows' mean */
    double mtol;      /* each window's L1D and L2 miss rate within mtol (absolute) of the mean */
    double min_waves; /* kernels with more CTAs than min_waves waves are sampled */
    uint32_t recheck; /* after convergence, one detailed window per `recheck` windows of CTAs run
                         functionally; 0 = none: every CTA after convergence runs functionally */
    uint32_t reuse;   /* a later launch of a converged kernel (same block) may converge on this
                         many windows of its own when they agree with the earlier launch's;
                         0 = never (k windows of its own) */
};

struct tm_params {
    /* Shader cores. */
    uint32_t nsm;
    uint32_t max_threads, max_warps, max_ctas, regs, shmem;
    uint32_t nsched;
    uint32_t n_sp, n_sfu, n_dp;
    uint32_t lat_int[6], ii_int[6], lat_fp[5], ii_fp[5], lat_dp[5], ii_dp[5];
    uint32_t lat_sfu, ii_sfu;
    uint32_t reg_banks;
    bool bank_use_warp_id;
    uint32_t fetch_per_cycle; /* warps fetched per cycle */
    uint32_t ibuffer;         /* instructions fetched at once per warp */
    uint32_t max_regs_per_thread;
    uint32_t oc_latency, wb_latency; /* issue -> pipe/LD-ST, pipe end -> dependent issue */
    uint32_t ldst_insts;             /* memory instructions the LD/ST path holds at once */
    /* SM memory pipeline. */
    uint32_t l1_latency, smem_latency, const_latency;
    uint32_t shmem_banks, shmem_warp_parts;
    bool shmem_limited_bcast;
    bool shmem_atomic_serialize; /* same-word shared atomics serialise (hardware) */
    bool sched_rotate;           /* schedulers take turns going first (GPGPU-Sim Issue_Prio) */
    bool skip_l1d, flush_l1;
    bool flush_ro;        /* the L1C and L1T are invalidated at kernel end */
    bool perf_sim_memcpy; /* host copies update the L2's tags */
    struct mem_cache_geom l1d, l1i, l1c, l1t, l2;
    /* Memory partitions. */
    uint32_t nmem, nsub;
    uint32_t rop_latency, dram_latency;
    uint32_t partq[4]; /* icnt->L2, L2->DRAM, DRAM->L2, L2->icnt */
    struct mem_dram_params dram;
    struct mem_addrmap amap;
    /* Interconnect. */
    uint32_t flit_bytes, icnt_latency, icnt_in_flits, eject_pkts;
    bool sector_replies;
    bool sm_sleep; /* SMs skip the cycles that cannot change anything (-ptxsim_sm_sleep) */
    /* Clocks in MHz: core, interconnect, L2, DRAM (command clock). */
    double clk[4];
    /* Policies (names point into the configuration, which outlives the GPU). */
    const char *warp_sched, *cta_sched, *l1d_policy;
    uint32_t cta_limit, sample_period;
    uint32_t max_kernels;     /* -gpgpu_max_concurrent_kernel */
    const char *policy_trace; /* file prefix, "" = none */
    const char *l1d_trace;    /* L1D read trace file, "" = none */
    const char *warp_profile; /* per-warp execution times (CSV), "" = none */
    const char *line_stats;   /* per-PTX-line statistics file, NULL = off */
    /* Run control. */
    uint64_t max_cycle, max_insn;
    bool deadlock_detect;
    uint32_t progress_interval;
    uint32_t threads; /* -ptxsim_threads (0: the processors available) */
    /* -ptxsim_sample */
    struct tm_sample_spec sample;
    uint32_t kernel_launch_latency, cta_launch_latency;
};

/*
 * Parses a -ptxsim_sample value (timing/sample.c): "off" (or empty, "0"),
 * "on" (or "1"), or a comma-separated list of key=value (optionally after
 * "on"). A bad value is PS_EINVAL with a message naming the option.
 */
int tm_sample_spec_parse(const char *s, struct tm_sample_spec *sp, struct ps_err *err);

int tm_params_from_config(const struct ps_config *c, struct tm_params *p, struct ps_err *err);

/*
 * The files the configuration writes (-ptxsim_l1d_trace, -ptxsim_warp_profile,
 * -ptxsim_policy_trace, -ptx_line_stats_filename) can be written: an existing
 * file writable, a new one in a writable folder. Writes nothing.
 */
int tm_params_check_outputs(const struct tm_params *p, struct ps_err *err);

#endif
