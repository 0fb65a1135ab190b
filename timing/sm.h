/*
 * One streaming multiprocessor: warp slots with I-buffers and a
 * scoreboard, CTA slots, warp schedulers chosen by policy, SP/SFU/DP
 * pipelines with initiation intervals, a register-bank model, the LD/ST unit
 * with the coalescer, shared-memory banks, and the L1D, L1I and L1C caches.
 * Instructions execute functionally (isa_warp_step) when they issue; the
 * SM models when their results become visible.
 */
#ifndef PTXSIM_TIMING_SM_H
#define PTXSIM_TIMING_SM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "isa/warp.h"
#include "memsys/cache.h"
#include "memsys/memsys.h"
#include "policies/cta_sched.h"
#include "policies/warp_sched.h"
#include "timing/iinfo.h"
#include "timing/params.h"
#include "timing/sm_counters.h"

struct tm_sm;

struct tm_sm_env {
    const struct tm_params *prm;
    struct mem_system *ms;
    const struct pol_warp_sched_ops *ws;
    const char *ws_args;
    const struct pol_l1d_ops *l1d_pol;
    const char *l1d_args;
    uint32_t nsm;
    const struct pol_cta_sched_ops *cs; /* for run_limit (CTA pausing) */
    void *cs_st;
    void *l1d_shared;   /* the L1D policy's GPU-wide state, or NULL */
    FILE *l1d_trace;    /* -ptxsim_l1d_trace (timing/l1d_trace.h), or NULL */
    FILE *warp_profile; /* -ptxsim_warp_profile, or NULL */
};

struct tm_sm *tm_sm_create(const struct tm_sm_env *env, uint32_t id, struct ps_err *err);
void tm_sm_destroy(struct tm_sm *s);

/* A kernel starts or ends on this SM (L1 flush at the end when configured). */
/* max_ctas: the kernel's CTAs per SM (occupancy limit), which lays out its local memory. */
void tm_sm_kernel_begin(struct tm_sm *s, struct isa_launch *L, struct tm_itable *it,
                        uint32_t max_ctas);
void tm_sm_kernel_end(struct tm_sm *s);

/* Resident CTAs and room for another of `warps` warps, `regs` registers, `shared` bytes. */
uint32_t tm_sm_ctas(const struct tm_sm *s);
bool tm_sm_fits(const struct tm_sm *s, uint32_t warps, uint32_t regs, uint32_t shared);
/* *note counts the warp slots the SM frees from now on (NULL: none). */
void tm_sm_note_freed(struct tm_sm *s, uint32_t *note);
/* Starts CTA `linear` of the current launch; returns 0 or an error code. */
int tm_sm_launch_cta(struct tm_sm *s, uint64_t linear, uint32_t regs, uint64_t *warp_seq);

/* One core cycle. Returns 0 or a device fault (the launch's err is filled). */
int tm_sm_cycle(struct tm_sm *s, uint64_t now);
/*
 * Parallel stepping (docs/timing.md "Parallel simulation"): with
 * tm_sm_set_parallel on before the kernel begins, a cycle may be split in
 * three: tm_sm_cycle_begin(s, now, true) for all SMs at once (each touches
 * only its own state and defers the issue of instructions whose effects
 * reach beyond the SM, except global loads that only read, which it runs),
 * then tm_sm_cycle_ordered(s, true, &wrote) in SM order for each SM that
 * tm_sm_needs_ordered names (the deferred issues and the loads run early;
 * wrote starts false each cycle and tells the later SMs
 * that global memory may have changed under the loads the first part ran,
 * which they then read again), then tm_sm_cycle_end for all SMs at once
 * (fetch, the cycle's classification). The result is that of tm_sm_cycle
 * for each SM in order. ordered returns the SM's error (begin's included);
 * after an error, end does nothing.
 */
void tm_sm_set_parallel(struct tm_sm *s, bool on);
int tm_sm_cycle_begin(struct tm_sm *s, uint64_t now, bool par);
/*
 * The first part left work for the ordered part. If it did not, that part
 * would only add the SM's instruction counts of the cycle to its launch's:
 * tm_sm_take_counts hands them over instead (false: none), and the caller
 * adds them to *L in SM order among the SMs that take the ordered part.
 */
bool tm_sm_needs_ordered(const struct tm_sm *s);
bool tm_sm_take_counts(struct tm_sm *s, struct isa_launch **L, uint64_t *warp_insts,
                       uint64_t *thread_insts);
int tm_sm_cycle_ordered(struct tm_sm *s, bool par, bool *wrote);
/*
 * Starts fetching the state tm_sm_cycle_ordered reads first. The other
 * threads of the round wrote it, so each SM's first access there is a miss
 * to another core's cache; fetched for all SMs at once, the misses overlap
 * instead of coming one after the other.
 */
/* Starts fetching what the next tm_sm_cycle_begin reads first (the SM stepped next). */
void tm_sm_prefetch_begin(const struct tm_sm *s);
void tm_sm_prefetch_ordered(const struct tm_sm *s);
void tm_sm_cycle_end(struct tm_sm *s);
/*
 * The last part may wait (tm_sm_cycle_end_later) and run with the next
 * cycle's first part (tm_sm_cycle_begin runs it first), so that the
 * parallel stepper hands over once per cycle instead of twice. It touches
 * only the SM, and nothing between two core cycles reads what it changes
 * except the SM's own accessors: whoever reads the SM's counters, caches,
 * warps or CTA slots between cycles calls tm_sm_settle first.
 */
void tm_sm_cycle_end_later(struct tm_sm *s);
/* A fault stopped the cycle before this SM's ordered part: its last part never runs. */
void tm_sm_cycle_end_cancel(struct tm_sm *s);
void tm_sm_settle(struct tm_sm *s);
/* The SM has CTAs and is not asleep this cycle. */
bool tm_sm_awake(const struct tm_sm *s, uint64_t now);

/* Nothing resident and nothing in flight. */
bool tm_sm_idle(const struct tm_sm *s);
/* Warp instructions issued since creation (progress watchdog). */
uint64_t tm_sm_issued(const struct tm_sm *s);
/* A warp waiting at a barrier, for the deadlock report (NULL if none). */
struct isa_warp *tm_sm_barrier_warp(const struct tm_sm *s);

const struct tm_sm_counters *tm_sm_get_counters(const struct tm_sm *s);
/* Per-PTX-line statistics of the coming launch go to lines (NULL: none). */
struct tm_line_prog;
void tm_sm_set_lines(struct tm_sm *s, struct tm_line_prog *lines);
/* Each warp scheduler's dump op (if it has one), preceded by a "# sm S scheduler K" line. */
int tm_sm_dump_sched(const struct tm_sm *s, FILE *out, struct ps_err *err);
const struct mem_cache *tm_sm_l1d(const struct tm_sm *s);
const struct mem_cache *tm_sm_l1i(const struct tm_sm *s);
const struct mem_cache *tm_sm_l1c(const struct tm_sm *s);
const struct mem_cache *tm_sm_l1t(const struct tm_sm *s);

#endif
