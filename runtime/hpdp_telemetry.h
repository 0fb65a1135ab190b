/*
 * HeteroPDP's co-runner telemetry (docs/heteropdp.md, "Co-runner
 * telemetry"; extraction section 5.8 D).
 *
 * Hardware counters: rt_hpdp_perf_llc counts a process's LLC misses
 * (PERF_COUNT_HW_CACHE_MISSES) over a window with perf_event_open. Where the
 * machine has no hardware PMU, or perf_event_paranoid forbids it, it
 * returns PS_ENOTSUP and the documented model is used instead: each
 * co-runner (benchmarks/heteropdp/corunner.c) publishes its own measured
 * rates in DIR/<pid>.corunner, one line
 *     NAME CLASS WEIGHT DRAM_GBS LLC_MPS
 * (DRAM bytes it streamed per second, LLC misses per second it caused, in
 * millions, as its access pattern implies), rewritten every window.
 * rt_hpdp_telemetry_read sums the live ones.
 */
#ifndef PTXSIM_RUNTIME_HPDP_TELEMETRY_H
#define PTXSIM_RUNTIME_HPDP_TELEMETRY_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "policies/hpdp_policy.h"
#include "runtime/hpdp_features.h"

struct ps_err;

struct rt_hpdp_corunner {
    char name[32], cls[16];
    double weight, dram_gbs, llc_mps;
    pid_t pid;
};

struct rt_hpdp_telemetry {
    uint32_t n;
    struct rt_hpdp_corunner co[HPDP_MAX_CORUNNERS];
    struct rt_hpdp_sys sum;
};

/* The live co-runners of DIR (files of processes that are gone are skipped). 0 or PS_EIO. */
int rt_hpdp_telemetry_read(const char *dir, struct rt_hpdp_telemetry *t, struct ps_err *err);

/* LLC misses per second of pid, in millions, over window_ms; PS_ENOTSUP without a usable PMU. */
int rt_hpdp_perf_llc(pid_t pid, uint32_t window_ms, double *mps, struct ps_err *err);

#endif
