/*
 * CAWA's criticality prediction logic (CPL; Lee, dissertation ch. 4, Eq. 4.1;
 * design/seeds/003_dissertation.md section 3.3), kept per warp slot so that
 * both the gCAWS warp scheduler (ws_gcaws.c) and a later CACP L1D policy can
 * use it:
 *
 *   nCriticality = nInst * CPI_avg + nStall
 *
 * nInst   the warp's predicted remaining-instruction disparity: at every
 *         resolved branch the inferred size of the block it is about to run
 *         is added (cawa_cpl_branch, through a pluggable delta rule), and
 *         every committed instruction subtracts 1 (cawa_cpl_commit). Stored
 *         absolute, not relative to the CTA's minimum (the seed's
 *         recommendation: the ranking is the same).
 * CPI_avg (cycles since the warp entered the slot) / (instructions it has
 *         committed, at least 1): the seed's recommended reading.
 * nStall  at each issue, the cycles since the warp's previous issue: now -
 *         last - 1 (the seed's recommendation, CAWA_CPL_STALL_GAP) or now -
 *         last (the literal reading, CAWA_CPL_STALL_LITERAL). The first issue
 *         of a warp adds nothing.
 *
 * A new warp in a slot (cawa_cpl_launch) starts with every counter at 0.
 */
#ifndef PTXSIM_POLICIES_CAWA_CPL_H
#define PTXSIM_POLICIES_CAWA_CPL_H

#include <stdbool.h>
#include <stdint.h>

/* ΔInst of a branch from currPC to nextPC; PCs are in units of inst_size. */
typedef int64_t (*cawa_cpl_delta_fn)(uint32_t curr, uint32_t next, uint32_t inst_size);

/* (next - curr) / inst_size + 1, signed: a backward target gives a negative delta (recommended). */
int64_t cawa_cpl_delta_signed(uint32_t curr, uint32_t next, uint32_t inst_size);
/* |next - curr| / inst_size + 1: Algorithm 5 taken literally, additions only. */
int64_t cawa_cpl_delta_abs(uint32_t curr, uint32_t next, uint32_t inst_size);

enum cawa_cpl_stall {
    CAWA_CPL_STALL_GAP,     /* now - last - 1 (recommended) */
    CAWA_CPL_STALL_LITERAL, /* now - last */
};

struct cawa_cpl_warp {
    int64_t ninst;
    uint64_t nstall;
    uint64_t start;     /* cycle the warp entered the slot */
    uint64_t committed; /* instructions committed since then */
    uint64_t last;      /* cycle of its last issue */
    bool issued;        /* it has issued since it entered the slot */
};

struct cawa_cpl {
    uint32_t nslots;
    struct cawa_cpl_warp *w; /* [nslots] */
    cawa_cpl_delta_fn delta;
    uint32_t inst_size; /* 1: PCs are instruction indices (ptxsim's views) */
    enum cawa_cpl_stall stall;
};

/* Returns 0, or -1 when out of memory. delta NULL means cawa_cpl_delta_signed. */
int cawa_cpl_init(struct cawa_cpl *c, uint32_t nslots, cawa_cpl_delta_fn delta, uint32_t inst_size,
                  enum cawa_cpl_stall stall);
void cawa_cpl_fini(struct cawa_cpl *c);

/* A new warp entered slot at cycle now: every counter restarts. */
void cawa_cpl_launch(struct cawa_cpl *c, uint32_t slot, uint64_t now);
/* The warp in slot issued at cycle now: nStall grows by the stall since its previous issue. */
void cawa_cpl_issue(struct cawa_cpl *c, uint32_t slot, uint64_t now);
/* k instructions of the warp committed: nInst -= k. */
void cawa_cpl_commit(struct cawa_cpl *c, uint32_t slot, uint64_t k);
/* A branch of the warp from curr resolved to next: nInst += delta(curr, next). */
void cawa_cpl_branch(struct cawa_cpl *c, uint32_t slot, uint32_t curr, uint32_t next);

/* CPI_avg of the warp at cycle now. */
double cawa_cpl_cpi(const struct cawa_cpl *c, uint32_t slot, uint64_t now);
/* Eq. 4.1 on given counters. */
double cawa_cpl_formula(int64_t ninst, double cpi_avg, uint64_t nstall);
/* nCriticality of the warp at cycle now. */
double cawa_cpl_criticality(const struct cawa_cpl *c, uint32_t slot, uint64_t now);

/* The predictor inside a gcaws scheduler instance (tests and CACP read it; ws_gcaws.c). */
struct cawa_cpl *pol_ws_gcaws_cpl(void *st);

/*
 * CAWA's SM-wide monitor (policies/sm_view.h), the companion of a warp
 * scheduler with a criticality op (gcaws):
 * - query: a warp is critical when its criticality is above that of half
 *   the warps of its thread block, whichever of the SM's schedulers holds
 *   them (the dissertation's "slow warp"; pol_critical_in_group); -1 when
 *   the scheduler has no predictor. CACP asks it.
 * - sample / warp_left: the prediction accuracy (dissertation ch. 4):
 *   every sampling period each resident warp is classified slow or not;
 *   when a CTA finishes, the samples of its last warp (the truly critical
 *   one, slowest by execution time) say how often the prediction was right.
 */
extern const struct pol_sm_monitor_ops cawa_sm_monitor;

#endif
