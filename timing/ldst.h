/*
 * The SM's LD/ST unit: a memory instruction's lanes are sorted by state
 * space, shared-memory accesses are timed by their bank conflicts, the
 * rest are coalesced into requests that wait (operand collection) in the
 * LD/ST queue, or in the L1D's front-queue stage when the L1D policy asks
 * for one (memsys/frontq.h), and reach their L1 one a cycle. L1D requests
 * pass GPGPU-Sim's L1 latency queue before looking up the tags. Load
 * records count the requests of each load still unanswered; L1 hits that
 * wait out a latency sit in the hit queue. The unit also takes the replies
 * from the memory system and sends one L1 miss a cycle.
 *
 * What concerns warps goes back to the SM through hooks: a load's
 * registers become readable, a store's hold on its warp ends, a fetch
 * arrived, a global store reached the L1D.
 */
#ifndef PTXSIM_TIMING_LDST_H
#define PTXSIM_TIMING_LDST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "isa/warp.h"
#include "memsys/cache.h"
#include "memsys/memsys.h"
#include "timing/iinfo.h"
#include "timing/params.h"
#include "timing/sm_counters.h"

/* Timing-only addresses of local memory (outside device memory). */
#define TM_LOCAL_BASE (UINT64_C(1) << 40)
/* Requests one instruction may make: global lanes, plus local lanes split into up to 8 words. */
#define TM_INSTR_REQS_MAX (MEM_MAX_WARP_REQS + 8 * ISA_WARP_SIZE)
/* No load record (tm_ldst_issue). */
#define TM_NO_REC UINT32_MAX

struct tm_ldst_hooks {
    void *ctx;
    /* The last request of a load of warp `slot` was answered: its registers are readable at `at`.
     */
    void (*load_done)(void *ctx, uint32_t slot, const uint32_t *dst, uint32_t ndst, uint64_t at);
    /* A store of warp `slot` reached the L1, which will send `acks` acknowledgements (or an ack
     * came back: acks 0). */
    void (*store_done)(void *ctx, uint32_t slot, uint32_t acks);
    /* The L1I answered warp r->warp's fetch. */
    void (*fetch_done)(void *ctx, const struct mem_req *r);
    /* Request r (a read or write of any space) was looked up in the L1D at now. */
    void (*l1d_access)(void *ctx, const struct mem_req *r, uint64_t now);
};

struct tm_ldst_env {
    const struct tm_params *prm;
    struct mem_system *ms;
    uint32_t sm, nsm;
    struct mem_cache *l1d, *l1i, *l1c, *l1t;
    FILE *l1d_trace;          /* -ptxsim_l1d_trace (timing/l1d_trace.h), or NULL */
    struct tm_sm_counters *k; /* the SM's counters the unit adds to */
    struct tm_ldst_hooks hooks;
};

/* The warp a memory instruction belongs to, as local memory is laid out. */
struct tm_ldst_warp {
    uint32_t slot;     /* SM warp slot */
    uint32_t cta_slot; /* SM CTA slot */
    uint32_t warp_id;  /* warp index in its CTA */
};

/* What issuing a memory instruction produced. */
struct tm_ldst_issued {
    uint64_t ready;  /* cycle its result is readable (TM_NEVER: when its load record completes) */
    uint32_t rec;    /* load record whose completion makes it readable, or TM_NO_REC */
    uint32_t stores; /* store requests now holding the warp (each ends through store_done) */
};

struct tm_ldst;
struct tm_line_prog;

/* NULL with err set when out of memory. */
struct tm_ldst *tm_ldst_create(const struct tm_ldst_env *env, struct ps_err *err);
void tm_ldst_destroy(struct tm_ldst *u);

/* A kernel of `threads` threads per CTA, up to max_ctas CTAs per SM (local-memory layout). */
void tm_ldst_kernel_begin(struct tm_ldst *u, uint64_t threads, uint32_t max_ctas);
/* The kernel ended: the L1D is flushed when configured, constants and textures always. */
void tm_ldst_kernel_end(struct tm_ldst *u);
void tm_ldst_set_lines(struct tm_ldst *u, struct tm_line_prog *lines);

/* The unit can take another memory instruction of warp `slot` at now. */
bool tm_ldst_accepts(const struct tm_ldst *u, uint32_t slot, uint64_t now);
/* Changes whenever what tm_ldst_accepts reads changes, except the time (see tm_ldst_free_at). */
uint64_t tm_ldst_gen(const struct tm_ldst *u);
/* tm_ldst_accepts gives every warp slot the same answer (no front-queue stage). */
bool tm_ldst_slot_blind(const struct tm_ldst *u);
/* tm_ldst_accepts is false before this cycle. */
uint64_t tm_ldst_free_at(const struct tm_ldst *u);
/* Times memory instruction `info` (decoded as ii) of warp w, issued at now. */
struct tm_ldst_issued tm_ldst_issue(struct tm_ldst *u, const struct tm_ldst_warp *w,
                                    const struct isa_step_info *info, const struct tm_iinfo *ii,
                                    uint64_t now);
/* Register-pool slot reg is a destination of load record rec. */
void tm_ldst_rec_dst(struct tm_ldst *u, uint32_t rec, uint32_t reg);

/* Replies fill the L1s, answered requests complete. Returns whether anything did. */
bool tm_ldst_take_replies(struct tm_ldst *u, uint64_t now);
/*
 * Pops the replies at the head of the SM's port that tm_ldst_take_replies
 * would pass over (a sector of a split answer other than its line's last:
 * the line fills with the last), so a sleeping SM need not wake for them;
 * whether a reply is still ready.
 */
bool tm_ldst_skip_sectors(struct tm_ldst *u);
/* One L1 miss onto the interconnect. Returns whether one went. */
bool tm_ldst_send_miss(struct tm_ldst *u, uint64_t now);
/*
 * Parallel stepping (docs/timing.md): take_replies, skip_sectors and
 * send_miss touch only this SM's own ports of the interconnect.
 */
/* Starts fetching what the unit reads first in a cycle (tm_sm_prefetch_begin). */
void tm_ldst_prefetch(const struct tm_ldst *u);
/* The LD/ST unit takes no instruction before `until` (a deferred memory issue holds it). */
void tm_ldst_hold(struct tm_ldst *u, uint64_t until);
/* Queued requests are due by the next cycle (they keep the SM awake). */
bool tm_ldst_due(const struct tm_ldst *u, uint64_t now);
/* The latency queue and the LD/ST queue move on. Returns true on a reservation failure. */
bool tm_ldst_cycle(struct tm_ldst *u, uint64_t now);
/*
 * What a stuck unit repeats every cycle (tm_ldst_stuck): the head of the L1
 * latency queue fails again at the L1D (l1d_fail), and the misses at the
 * head of `nwait` L1s (wait: indices into l1i, l1c, l1t, l1d) find no room
 * in the network.
 */
struct tm_ldst_stuck {
    bool l1d_fail;
    uint8_t nwait;
    uint8_t wait[4];
};
/*
 * After this cycle's tm_ldst_cycle, in a cycle that took no reply and sent
 * no miss: true when, until a reply arrives, a waiting miss finds room
 * (tm_ldst_unstuck) or tm_ldst_wake's time, every cycle of the unit only
 * repeats what *st describes. Its queued requests that are due were tried
 * this cycle and failed in a way that repeats unchanged (the L1D's, by
 * mem_cache_fails_again; the LD/ST queue's head, for a full latency queue).
 * In a memory-bound kernel this is most cycles, and the SM can sleep
 * through them.
 */
bool tm_ldst_stuck(const struct tm_ldst *u, uint64_t now, struct tm_ldst_stuck *st);
/* A miss st waits on has room in the network now. */
bool tm_ldst_unstuck(const struct tm_ldst *u, const struct tm_ldst_stuck *st);
/*
 * Counts one cycle of what st repeats: the L1D's failure, and the refused
 * sends (at the SM's own input: safe in the parallel part).
 */
void tm_ldst_repeat_stuck(struct tm_ldst *u, const struct tm_ldst_stuck *st);
/*
 * The earliest cycle after now at which the unit has work without a reply
 * (at most `wake`); st: it is stuck (tm_ldst_stuck), and what it repeats is
 * no work.
 */
uint64_t tm_ldst_wake(const struct tm_ldst *u, uint64_t now, uint64_t wake,
                      const struct tm_ldst_stuck *st);
/* Nothing queued or in flight. */
bool tm_ldst_idle(const struct tm_ldst *u);

#endif
