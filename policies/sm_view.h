/*
 * What an SM shows a warp-scheduling policy's SM-wide companion (its
 * "monitor", pol_warp_sched_ops.sm_monitor) beyond the per-cycle warp
 * views: which CTA each warp slot holds and the SM's scheduler instances.
 * A monitor is created once per SM; the SM samples it every
 * -ptxsim_sample_period cycles, tells it when a warp leaves its slot, and
 * hands its warp question (query) to the SM's L1D policy.
 */
#ifndef PTXSIM_POLICIES_SM_VIEW_H
#define PTXSIM_POLICIES_SM_VIEW_H

#include <stdbool.h>
#include <stdint.h>

struct pol_warp_sched_ops;

struct pol_sm_view {
    uint32_t max_warps, nsched;
    /* Per warp slot: the SM-local CTA slot of its warp, -1 while the slot is empty. */
    const int32_t *slot_cta;
    const struct pol_warp_sched_ops *ws;
    void *const *sched; /* warp slot w belongs to sched[w % nsched] */
};

struct pol_sm_monitor_ops {
    /* NULL when out of memory. The view outlives the monitor. */
    void *(*create)(const struct pol_sm_view *v);
    void (*destroy)(void *st);
    /* A question about the warp in slot `warp` at now: 1 yes, 0 no, -1 unknown (l1d.h). */
    int (*query)(void *st, uint32_t warp, uint64_t now);
    /* The periodic sample. */
    void (*sample)(void *st, uint64_t now);
    /*
     * The warp in slot left it (cta_done: the last of its CTA); the monitor
     * adds to the SM's two statistics counters (samples, hits).
     */
    void (*warp_left)(void *st, uint32_t slot, bool cta_done, uint64_t *samples, uint64_t *hits);
};

/*
 * The names under which the statistics print the SM monitors' two counters
 * (the SM's mon_samples and mon_hits, summed over SMs): a JSON object with
 * the two counts and their ratio, printed for every run, and a text-report
 * line for the ratio, printed when there were samples. Defined by the
 * policy whose monitor keeps them (cawa_cpl.c).
 */
struct pol_sm_monitor_names {
    const char *block;                  /* JSON object */
    const char *samples, *hits, *ratio; /* its keys */
    const char *text_ratio;             /* text report: "<text_ratio> = <hits/samples>" */
};

extern const struct pol_sm_monitor_names pol_sm_monitor_names;

#endif
