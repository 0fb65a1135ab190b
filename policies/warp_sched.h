/*
 * Warp scheduler table. Each SM has gpgpu_num_sched_per_core schedulers;
 * warp slot s belongs to scheduler s % nsched. Every core cycle the SM
 * publishes one struct pol_warp_view per warp slot of a scheduler, asks the
 * policy for a priority order, and issues the first warp in that order whose
 * next instruction can issue (and that may_issue allows).
 */
#ifndef PTXSIM_POLICIES_WARP_SCHED_H
#define PTXSIM_POLICIES_WARP_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/err.h"

struct pol_sm_monitor_ops;

struct pol_warp_view {
    uint32_t slot; /* SM-local warp slot */
    bool valid;    /* a warp that has not finished occupies the slot */
    bool ready;    /* its next instruction could issue this cycle */
    bool at_barrier;
    bool long_wait;       /* blocked on an outstanding global/local load */
    uint64_t age;         /* launch order: smaller is older (unique per warp on the SM) */
    uint32_t cta;         /* SM-local CTA slot */
    uint32_t pc;          /* next instruction index */
    uint64_t insts;       /* warp instructions issued so far */
    uint64_t last_issue;  /* cycle of its last issue (0 = never) */
    bool paused;          /* its CTA is paused by the CTA policy (the SM tries it last) */
    uint64_t grid;        /* the kernel launch's number (%gridid), the same in every run */
    uint32_t cta_id;      /* linear CTA id in the grid */
    uint32_t warp_in_cta; /* warp index within its CTA */
};

/* The next instruction of a warp, for may_issue (CCWS throttles loads only). */
struct pol_instr_view {
    bool is_mem;
    bool is_load;   /* global or local load (what CCWS may hold back) */
    bool is_atomic; /* global atomic or reduction (the authors' CCWS holds these back too) */
    uint8_t space;  /* enum isa_space */
    uint32_t pc;
};

enum pol_warp_event {
    POL_WARP_LAUNCHED, /* a warp entered the slot */
    POL_WARP_EXITED,
    POL_WARP_LOAD_ISSUED, /* issued a global/local load */
    POL_WARP_LOAD_DONE,   /* all its outstanding loads returned */
    POL_WARP_BARRIER,
    POL_WARP_L1_MISS,
};

/* L1D traffic an SM forwards to the scheduler owning the warp (CCWS's lost-locality detection). */
enum pol_mem_event {
    POL_MEM_L1_HIT,   /* warp `slot` hit line `line` */
    POL_MEM_L1_MISS,  /* warp `slot` missed on line `line` */
    POL_MEM_L1_EVICT, /* line `line`, allocated by warp `slot`, was evicted */
    /*
     * Warp `slot` wrote line `line` with a global store (hit or miss; sent to
     * every scheduler of the SM, since a write concerns every warp's lines).
     */
    POL_MEM_L1_WRITE,
    /*
     * Line `line` was evicted, but the warp that allocated it has left slot
     * `slot` since (the slot is empty or holds a newer warp).
     */
    POL_MEM_L1_EVICT_EXITED,
    /* Warp `slot` read line `line`, already being fetched: the read merged into the MSHR. */
    POL_MEM_L1_MERGE,
    /*
     * A store missed the L1D and went on without allocating; GPGPU-Sim's tag
     * probe picked line `line` for it (memsys/cache.h, MEM_OBS_STORE_MISS).
     * Two calls: first POL_MEM_L1_STORE_VICTIM, `slot` the warp that
     * allocated the picked line (a valid line, not evicted: it stays), unless
     * the picked line is the store's own line being fetched; then
     * POL_MEM_L1_STORE_MISS, `slot` the storing warp. CCWS's authors' code
     * treats the first as an eviction into the line's source warp's VTA and
     * makes the storing warp the line's source.
     */
    POL_MEM_L1_STORE_VICTIM,
    POL_MEM_L1_STORE_MISS,
};

struct pol_warp_sched_params {
    uint32_t sched_id; /* which scheduler of the SM */
    uint32_t nsched;
    uint32_t max_warps; /* warp slots of the SM */
    uint32_t sm;
    const char *args; /* text after "name:" in -gpgpu_scheduler, "" if none */
    /*
     * One pointer per SM, NULL at first, that the SM's schedulers may use to
     * share one state (CCWS's per-core point system); NULL: nothing shared.
     * The SM destroys all its schedulers together.
     */
    void **sm_shared;
    void *state;     /* ops->state_size zeroed bytes (policies/create.h), or NULL */
    const void *cfg; /* args parsed by ops->argspec (policies/create.h), during create */
};

struct pol_argspec;

struct pol_warp_sched_ops {
    const char *name;
    const struct pol_argspec *argspec; /* its arguments (policies/args.h); NULL: none */
    /*
     * Bytes of private state that policies/create.c allocates (zeroed) and
     * hands create() as params->state, and frees after the optional
     * destroy() (which frees only what create allocated inside); create
     * returns it. Required: the registry refuses a table without it.
     */
    size_t state_size;
    void *(*create)(const struct pol_warp_sched_params *p, struct ps_err *err);
    void (*destroy)(void *st);
    /*
     * Writes into order[] the indices (into v[0..n)) of the warps to try this
     * cycle, highest priority first, and returns how many. Invalid views may
     * be left out.
     */
    uint32_t (*order)(void *st, const struct pol_warp_view *v, uint32_t n, uint32_t *order,
                      uint64_t now);
    /*
     * true: order() reads only the views and state that on_issue and
     * on_event change, ignores now and changes nothing, and may_issue,
     * on_mem, on_branch and sm_monitor are NULL. The SM may then repeat a
     * scheduler pass that issued nothing, without calling order(), while
     * nothing the pass read has changed (timing/sm_issue.c).
     */
    bool order_repeats;
    /* May w issue in? NULL = always. */
    bool (*may_issue)(void *st, const struct pol_warp_view *w, const struct pol_instr_view *in);
    /* Optional notifications. */
    void (*on_issue)(void *st, const struct pol_warp_view *w, uint64_t now);
    void (*on_event)(void *st, enum pol_warp_event e, uint32_t slot, uint64_t now);
    /* L1D hits, misses and evictions of this scheduler's warps (NULL = not wanted). */
    void (*on_mem)(void *st, enum pol_mem_event e, uint32_t slot, uint64_t line, uint64_t now);
    /*
     * The warp in slot resolved the branch at pc (instruction index) at cycle
     * now: next_pc is the start of a path it will run; a warp that diverges
     * reports each of its paths (CAWA's nInst). NULL = not wanted.
     */
    void (*on_branch)(void *st, uint32_t slot, uint32_t pc, uint32_t next_pc, uint64_t now);
    /* Writes the policy's state over time as CSV (NULL = nothing to write). */
    int (*dump)(const void *st, FILE *out, struct ps_err *err);
    /*
     * Optional: the predicted criticality of the warp in slot at cycle now
     * (CAWA's nCriticality; larger = further behind). false when the slot
     * holds no warp the predictor knows. CACP's critical-warp test uses it.
     */
    bool (*criticality)(void *st, uint32_t slot, uint64_t now, double *out);
    /* Optional: the policy's SM-wide companion (policies/sm_view.h), one per SM. */
    const struct pol_sm_monitor_ops *sm_monitor;
};

#endif
