/*
 * The clocked GPU's insides, shared by gpu.c (the machine, its clocks and
 * watchdogs) and kernels.c (the kernels in flight: CTA issue across them,
 * their completion and per-kernel statistics). Private to timing/.
 */
#ifndef PTXSIM_TIMING_GPU_IMPL_H
#define PTXSIM_TIMING_GPU_IMPL_H

#include "common/config.h"
#include "isa/warp.h"
#include "memsys/memsys.h"
#include "policies/registry.h"
#include "timing/gpu.h"
#include "timing/iinfo.h"
#include "timing/parallel.h"
#include "timing/params.h"
#include "timing/sample.h"
#include "timing/sm.h"
#include "timing/stats.h"

enum { D_CORE, D_ICNT, D_L2, D_DRAM, D_COUNT };

struct tm_kernel;

struct tm_gpu {
    struct ps_config cfg;
    struct tm_params prm;
    struct isa_device *dev;
    struct mem_system *ms;
    struct tm_sm **sm;
    const struct pol_warp_sched_ops *ws;
    const char *ws_args;
    const struct pol_cta_sched_ops *cs;
    void *cs_st;
    const struct pol_l1d_ops *l1p;
    const char *l1_args;
    void *l1_shared;        /* the L1D policy's GPU-wide state, or NULL */
    FILE *l1d_trace;        /* -ptxsim_l1d_trace, or NULL */
    FILE *warp_profile;     /* -ptxsim_warp_profile, or NULL */
    struct tm_lines *lines; /* -enable_ptx_file_line_stats, or NULL */
    uint64_t core_now, dram_now;
    uint64_t t_fs[D_COUNT], period_fs[D_COUNT];
    uint64_t warp_seq;
    uint64_t warp_insts, thread_insts, ctas, kernels;
    struct tm_counters retired; /* counters of machines rebuilt after a fault */
    struct tm_stats last, total;
    bool check_only;   /* built by tm_gpu_check: writes no file */
    struct tm_par par; /* -ptxsim_threads (timing/parallel.c) */
    /*
     * Reply network, L2 and DRAM ticks the clocked loop has passed and not
     * yet run, in order (gpu.c run_loop): they run beside the next core
     * cycle's SMs. The reply network's only when replies_staged.
     */
    bool replies_staged;
    uint8_t mem_ticks[16];
    uint32_t nmem_ticks;
    /* Kernels in flight (kernels.c): -gpgpu_max_concurrent_kernel slots. */
    struct tm_kernel **slot;
    uint32_t nslots, last_slot;             /* last_slot: GPGPU-Sim's m_last_issued_kernel */
    struct tm_kernel **bound;               /* per SM: the kernel whose CTAs it runs, or NULL */
    /*
     * CTA issue found SM i full for kernel full[i].k under CTA limit
     * full[i].lim when it had freed full[i].freed warp slots (freed[i], kept
     * by the SM): while all three stay so it is still full, and the SM
     * itself, seldom in the cache on this sequential path, is not read.
     */
    struct sm_full {
        const struct tm_kernel *k;
        uint32_t lim, freed;
    } * full;
    uint32_t *freed;
    /*
     * CTA issue's last scan found every SM still full (above), with the
     * warp slots freed summing to issue_still.freed and nothing else that
     * decides issue changed since: issue_gen counts those changes (kernels
     * bound, CTA limits, issue ranges; tm_gpu_issue_changed). While both
     * stay so the scan would find the same, and is skipped.
     */
    uint64_t issue_gen;
    struct {
        bool ok;
        uint64_t gen, freed;
    } issue_still;
    uint32_t rr; /* CTA issue's first SM: the one after the last that took a CTA, across
                    launches (GPGPU-Sim's m_last_cluster_issue), so lone CTAs move on */
    uint64_t last_issue_cycle, last_issued; /* deadlock watchdog */
    uint64_t sample_next;                   /* CTA policy sampling */
    uint64_t busy_mark; /* core cycle up to which kernels' gpu_cycles were counted */
    struct tm_sm_counters *sample_base; /* per SM, at the last sample */
    uint32_t sampling;                  /* kernels armed for -ptxsim_sample (sample_run.c) */
    struct tm_sample_ref sample_refs[TM_SAMPLE_REFS]; /* converged kernels, for reuse */
    uint32_t sample_ref_next;                         /* the entry replaced next */
};

struct occ {
    uint32_t warps, regs, shared, max, regs_per_thread_est, regs_per_thread;
    uint32_t regs_sm; /* architecture of the cubin the count came from, 0 = PTX liveness */
    const char *limiter;
};

/* One kernel launch in flight. */
struct tm_kernel {
    struct tm_gpu *g;
    struct isa_launch L;
    bool L_ok;
    struct tm_itable it;
    struct occ occ;
    struct ps_err err;
    uint64_t id; /* submission order */
    uint64_t nctas, next_cta;
    /* CTAs [0, issue_end) are timed: nctas, fewer once -ptxsim_sample converged. */
    uint64_t issue_end;
    uint64_t ready_at;        /* core cycle from which its CTAs may issue (launch latency) */
    uint64_t start_cycle;     /* core cycle of its submission */
    double t0, last_progress; /* wall clock */
    uint64_t ctas_done0;      /* the SMs' finished CTAs when the launch began */
    uint32_t max_others;      /* most other kernels seen in flight at once */
    struct tm_counters before;
    struct tm_sm_counters *base; /* per SM at submission (RACT, util) */
    struct tm_line_prog *lp;
    struct tm_sampler smp; /* -ptxsim_sample */
    struct tm_stats stats; /* when done */
    int rc;
    bool done;
};

/* gpu.c's pieces that kernels.c uses. */
int tm_gpu_occupancy(const struct tm_gpu *g, const struct isa_launch *L, struct occ *o,
                     struct ps_err *err);
void tm_gpu_gather(const struct tm_gpu *g, struct tm_counters *c);
void tm_gpu_fill_stats(struct tm_gpu *g, const struct tm_kernel *k, struct tm_stats *s,
                       double wall);
void tm_gpu_rebuild_after_fault(struct tm_gpu *g);
struct tm_line_prog *tm_gpu_lines_of(struct tm_gpu *g, const struct isa_program *p);
void tm_gpu_lines_write(struct tm_gpu *g);
/* Runs the clocks until k is done (k NULL: until any kernel in flight is). */
int tm_gpu_run_loop(struct tm_gpu *g, struct tm_kernel *k);

/* kernels.c's pieces that gpu.c uses. */
int tm_kernels_init(struct tm_gpu *g, struct ps_err *err);
/* The SMs (new, or rebuilt after a fault) report the warp slots they free to CTA issue. */
void tm_kernels_attach(struct tm_gpu *g);
void tm_kernels_fini(struct tm_gpu *g);
void tm_kernels_issue(struct tm_gpu *g);
/* Retires kernels that finished this cycle; true if k (or, k NULL, any kernel) is done. */
bool tm_kernels_reap(struct tm_gpu *g, struct tm_kernel *k);
/* A running kernel (the oldest), for the watchdogs' messages; NULL if none. */
struct tm_kernel *tm_kernels_any(const struct tm_gpu *g);
uint64_t tm_kernels_thread_insts(const struct tm_gpu *g);
/* Ends k on its SMs and takes its statistics; it leaves its slot (gpu_run.c uses it too). */
void tm_kernels_retire(struct tm_gpu *g, struct tm_kernel *k, int rc);
/* gpu_run.c: a fault or a watchdog stop in rc: every kernel in flight ends with it. */
void tm_kernels_abort(struct tm_gpu *g, int rc);

/* sample_run.c's pieces that kernels.c uses (-ptxsim_sample, timing/sample.h). */
/* Arms k's sampling if the option is on and k has more CTAs than min_waves waves. */
int tm_sample_arm(struct tm_gpu *g, struct tm_kernel *k);
/* Each core cycle before CTA issue: closes windows, checks the criterion, stops issue.
 * alone: the one kernel in flight, or NULL when none or several are (kernels.c knows which,
 * so sample_run.c does not call back into it). */
void tm_sample_step(struct tm_gpu *g, struct tm_kernel *alone);
/* A kernel joins the kernels in flight: sampling stops for every one of them. */
void tm_sample_cancel_all(struct tm_gpu *g);
/* k's timed CTAs are done: runs the rest functionally and books the estimate (0 or a fault). */
int tm_sample_finish(struct tm_gpu *g, struct tm_kernel *k);
/* Something CTA issue depends on changed: its next scan runs (tm_gpu.issue_still). */
static inline void tm_gpu_issue_changed(struct tm_gpu *g)
{
    g->issue_gen++;
}

/* k leaves: its sampling state is freed. */
void tm_sample_release(struct tm_gpu *g, struct tm_kernel *k);

#endif
