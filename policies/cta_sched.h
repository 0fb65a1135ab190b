/*
 * CTA scheduler table: how many CTAs each SM may hold, re-decided as the
 * run goes (DYNCTA) or fixed (maximum occupancy, a static limit). The GPU
 * issues CTAs to SMs round robin, each up to min(occupancy limit, limit()).
 */
#ifndef PTXSIM_POLICIES_CTA_SCHED_H
#define PTXSIM_POLICIES_CTA_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/err.h"

/* Counters of one SM over the last sampling period (DYNCTA's C_idle and C_mem and friends). */
struct pol_sm_sample {
    uint64_t cycles;      /* core cycles in the period */
    uint64_t idle;        /* cycles with no warp able to issue and no CTA waiting on memory... */
    uint64_t mem_stall;   /* cycles the warps were all waiting on memory */
    uint64_t issued;      /* warp instructions issued */
    uint32_t active_ctas; /* CTAs resident at the end of the period */
    uint32_t max_ctas;    /* occupancy limit of the current kernel on this SM */
};

struct pol_cta_sched_params {
    uint32_t nsm;
    const char *args;      /* text after "name:" in -ptxsim_cta_scheduler, "" if none */
    uint32_t static_limit; /* -ptxsim_cta_limit (0 = none) */
    void *state;           /* ops->state_size zeroed bytes (policies/create.h), or NULL */
    const void *cfg;       /* args parsed by ops->argspec (policies/create.h), during create */
};

struct pol_argspec;

struct pol_cta_sched_ops {
    const char *name;
    const struct pol_argspec *argspec; /* its arguments (policies/args.h); NULL: none */
    /*
     * Bytes of private state that policies/create.c allocates (zeroed) and
     * hands create() as params->state, and frees after the optional
     * destroy() (which frees only what create allocated inside); create
     * returns it. Required: the registry refuses a table without it.
     */
    size_t state_size;
    void *(*create)(const struct pol_cta_sched_params *p, struct ps_err *err);
    void (*destroy)(void *st);
    /* A kernel starts: max_ctas is its occupancy limit per SM. */
    void (*on_kernel)(void *st, uint32_t max_ctas);
    /* CTAs SM sm may hold now (the GPU also caps it at the occupancy limit). */
    uint32_t (*limit)(void *st, uint32_t sm);
    /* Once per sampling period (NULL = not wanted). */
    void (*on_sample)(void *st, uint32_t sm, const struct pol_sm_sample *s, uint64_t now);
    /*
     * How many of SM sm's resident CTAs run; the others, the most recently
     * assigned first, are paused: their warps are fetched and issued only when
     * no running CTA's warp can be (NULL = none paused).
     */
    uint32_t (*run_limit)(void *st, uint32_t sm);
    /* Writes the policy's state over time as CSV (NULL = nothing to write). */
    int (*dump)(const void *st, FILE *out, struct ps_err *err);
};

#endif
