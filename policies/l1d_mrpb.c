/*
 * MRPB's stall-triggered bypass (Jia, Shaw, Martonosi, HPCA 2014), as the
 * locality-bypass paper models it for comparison (seed 002 section 4.4 (i),
 * oracle 8.18): a read that the baseline would fail for lack of a
 * resource, and so stall the memory pipeline, is sent down the bypass path
 * at once instead, uncached and with no change to the L1D. Replacement is
 * otherwise the baseline LRU, whose state and victim this policy borrows.
 *
 * MRPB's request-reordering queues between the coalescer and the L1D (4.4
 * (ii)) live in the SM's LD/ST unit; this policy asks for them through the
 * table's reorder op: `queues` FIFO queues picked by warp id modulo their
 * number, each `depth` instructions deep, drained one queue at a time (the
 * seed's placeholder 8 x 8; the values are not validated against MRPB).
 * queues=0 turns the reordering off.
 *
 * Arguments (all 0 or 1, default 1, so every stall reason bypasses):
 *   line=  every way of the set is reserved
 *   mshr=  no free MSHR entry
 *   missq= the miss queue cannot take the line fetch (and its write-back)
 *   merge= the line's MSHR entry has no free merge slot
 * A reason set to 0 stalls and retries as in the baseline.
 *   queues= reordering queues, 0..64 (default 8; 0 = none)
 *   depth=  instructions per queue, 1..64 (default 8)
 */
#include <stdlib.h>

#include "policies/l1d.h"
#include "policies/args.h"
#include "policies/l1d_builtin.h"
#include "policies/l1d_util.h"

enum { C_LINE, C_MSHR, C_MISSQ, C_MERGE, C_STALLS };

static const char *const mrpb_counters[] = {"bypass_line",  "bypass_mshr", "bypass_missq",
                                            "bypass_merge", "stalls_kept", NULL};

struct mrpb {
    bool on[POL_L1D_NSTALL]; /* which stall reasons bypass */
    uint64_t *ctr;           /* params.counters, or NULL */
    uint32_t queues, depth;  /* reordering queues in front of the L1D */
};

struct mrpb_cfg {
    uint32_t line, mshr, missq, merge, queues, depth;
};

#define KEY(k, d, lo, hi, help) POL_KEY_UINT(#k, struct mrpb_cfg, k, d, lo, hi, help)
static const struct pol_arg mrpb_args[] = {
    KEY(line, 1, 0, 1, "bypass when every way of the set is reserved"),
    KEY(mshr, 1, 0, 1, "bypass when no MSHR is free"),
    KEY(missq, 1, 0, 1, "bypass when the miss queue is full"),
    KEY(merge, 1, 0, 1, "bypass when the line's MSHR has no merge slot"),
    KEY(queues, 8, 0, 64, "reordering queues (0 = none)"),
    KEY(depth, 8, 1, 64, "instructions per queue"),
};
#undef KEY

static const struct pol_argspec mrpb_spec = POL_ARGSPEC_KEYS(struct mrpb_cfg, mrpb_args, NULL);

static void *mrpb_create(const struct pol_l1d_params *p, struct ps_err *err)
{
    const struct mrpb_cfg *c = p->cfg;
    const uint32_t line = c->line, mshr = c->mshr, missq = c->missq, merge = c->merge;
    const uint32_t queues = c->queues, depth = c->depth;
    struct mrpb *m = p->state;

    (void)err; /* create.c made the state; nothing here can fail */
    m->on[POL_L1D_STALL_LINE] = line;
    m->on[POL_L1D_STALL_MSHR] = mshr;
    m->on[POL_L1D_STALL_MISSQ] = missq;
    m->on[POL_L1D_STALL_MERGE] = merge;
    m->ctr = p->counters;
    m->queues = queues;
    m->depth = depth;
    return m;
}

/* Every read miss is meant to be cached; only a stall changes that. */
static bool mrpb_on_miss(void *st, const struct mem_req *r, uint32_t set, uint64_t now)
{
    (void)st;
    (void)r;
    (void)set;
    (void)now;
    return true;
}

static bool mrpb_on_stall(void *st, const struct mem_req *r, uint32_t set, enum pol_l1d_stall why,
                          uint64_t now)
{
    static const int ctr_of[POL_L1D_NSTALL] = {
        [POL_L1D_STALL_LINE] = C_LINE,
        [POL_L1D_STALL_MSHR] = C_MSHR,
        [POL_L1D_STALL_MISSQ] = C_MISSQ,
        [POL_L1D_STALL_MERGE] = C_MERGE,
    };
    struct mrpb *m = st;
    bool go = (unsigned)why < POL_L1D_NSTALL && m->on[why];

    (void)r;
    (void)set;
    (void)now;
    if (m->ctr)
        m->ctr[go ? ctr_of[why] : C_STALLS]++;
    return go;
}

static uint32_t mrpb_victim(void *st, uint32_t set, const struct pol_line_view *lines,
                            uint32_t assoc, uint64_t now)
{
    (void)st;
    (void)set;
    (void)now;
    return pol_l1d_lru_way(lines, assoc, false); /* LRU replacement, as the baseline */
}

static void mrpb_reorder(const void *st, uint32_t *nqueues, uint32_t *depth)
{
    const struct mrpb *m = st;

    *nqueues = m->queues;
    *depth = m->depth;
}

const struct pol_l1d_ops pol_l1d_mrpb = {
    .name = "mrpb",
    .argspec = &mrpb_spec,
    .create = mrpb_create,
    .state_size = sizeof(struct mrpb),
    .on_miss = mrpb_on_miss,
    .on_stall = mrpb_on_stall,
    .victim = mrpb_victim,
    .reorder = mrpb_reorder,
    .counter_names = mrpb_counters,
};
