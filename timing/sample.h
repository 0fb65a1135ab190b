/*
 * Sampled simulation (-ptxsim_sample; docs/timing.md "Sampled simulation"):
 * the arithmetic, kept free of the machine so it can be tested alone.
 *
 * A kernel with many CTAs is timed in windows of completed CTAs. Once k
 * consecutive windows agree (IPC within a relative tolerance of their mean,
 * L1D and L2 miss rates within an absolute one), no further CTA is issued in
 * detail; the CTAs in flight drain, the rest run functionally, and the cycles
 * and the counters that grow with work are extrapolated from the k windows:
 * the remaining thread instructions (exact, from the functional run) at the
 * windows' cycles per instruction, each counter at its rate per cycle in the
 * windows. The 95% confidence interval comes from the spread of the windows'
 * cycles per instruction (Student's t with k - 1 degrees of freedom).
 * With `recheck` the functional CTAs are run in stretches between detailed
 * windows instead of all at the end, so a rate that drifts along the grid
 * is followed (struct tm_sampler).
 */
#ifndef PTXSIM_TIMING_SAMPLE_H
#define PTXSIM_TIMING_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

#include "timing/params.h"
#include "timing/stats.h"

#define TM_SAMPLE_MAX_K 32u

/* One closed window: its core cycles, thread instructions and miss rates. */
struct tm_sample_window {
    uint64_t cycles, insts;
    double l1d_miss, l2_miss;
};

/* The criterion: the k windows w[0..k-1] agree within tol (IPC, relative) and mtol (miss rates). */
bool tm_sample_converged(const struct tm_sample_window *w, uint32_t k, double tol, double mtol);

/* Two-sided 95% quantile of Student's t with dof degrees of freedom (dof >= 1). */
double tm_sample_t95(uint32_t dof);

/*
 * The 95% confidence half-width of the windows' mean cycles per thread
 * instruction; 0 for fewer than two windows.
 */
double tm_sample_cpi_half(const struct tm_sample_window *w, uint32_t k);

/* Cycles the remaining `insts` thread instructions take at the windows' pooled rate. */
uint64_t tm_sample_extra_cycles(uint64_t insts, uint64_t win_cycles, uint64_t win_insts);

/*
 * extra = delta scaled by extra_cycles / delta->cycles, counter by counter
 * (rounded to nearest): what the counters would have added over the
 * extrapolated cycles. Fields that are not rates of work are 0 in extra:
 * cycles and dram_cycles (the caller advances the clocks), warp and thread
 * instructions and CTAs (exact from the functional run), kernels, and the
 * latency maximum.
 */
void tm_sample_extrapolate(struct tm_counters *extra, const struct tm_counters *delta,
                           uint64_t extra_cycles);

/*
 * The windows a kernel converged on, kept for its later launches with the
 * same block shape (reuse): such a launch may converge once its own windows
 * and the most recent of these agree.
 */
#define TM_SAMPLE_REFS 8u
struct tm_sample_ref {
    bool used;
    const void *prog; /* the program and kernel index of the launch */
    uint32_t kernel, dyn_shared, block[3];
    struct tm_sample_window w[TM_SAMPLE_MAX_K]; /* the k windows, oldest first */
};

/* A kernel's sampling state (timing/sample_run.c). */
struct tm_sampler {
    bool armed;     /* windows are being taken */
    bool converged; /* CTA issue in detail has stopped; the rest run functionally */
    bool started;   /* the current window has its start snapshot */
    uint32_t window;
    uint64_t start_done, closed; /* CTAs done at the window's start; windows closed */
    struct tm_counters start;    /* the current window's start snapshot */
    /* The last k windows after the warm-up (window j in slot j mod k), their start snapshots. */
    uint32_t n;
    struct tm_sample_window win[TM_SAMPLE_MAX_K];
    struct tm_counters *snap; /* k entries, allocated when armed */
    struct tm_counters delta; /* counters over the converged windows of this launch */
    bool has_ref;             /* an earlier launch of the kernel converged: its windows */
    struct tm_sample_window ref[TM_SAMPLE_MAX_K];
    struct tm_sample_window conv[TM_SAMPLE_MAX_K];
    struct tm_sampled rep;
    /*
     * Re-checks (recheck > 0): after convergence, stretches of CTAs run
     * functionally at once, each followed by one detailed window; a stretch
     * costs its instructions at the mean cycles per instruction of the
     * windows on either side of it (the last one, of the window before it).
     */
    bool periodic;
    int rc;                                          /* a functional CTA's fault */
    uint64_t func_insts, func_warp_insts, func_ctas; /* run functionally so far */
    uint64_t pending_insts; /* the stretch since the last window, not yet costed */
    double left_cpi;        /* cycles per thread instruction of the window before it */
    double extra;           /* cycles estimated so far for the costed stretches */
    uint32_t nw;            /* windows behind the estimate: the k converged, then each re-check */
    double cpi_sum, cpi_sq, ipc_sum, ipc_min, ipc_max;
};

/* 95% half-width of the mean of n values from their sum and sum of squares; 0 for n < 2. */
double tm_sample_half_from_sums(uint32_t n, double sum, double sq);

#endif
