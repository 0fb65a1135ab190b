/*
 * Private to the SM core (timing/sm.c: residency, the cycle function;
 * timing/sm_issue.c: the warp schedulers' issue stage; timing/sm_warps.c:
 * warp retirement and the units' hooks; timing/sm_policy.c: what the SM
 * shows the policies). The units it is made of have their own headers:
 * timing/scoreboard.h, timing/fetch.h, timing/ldst.h.
 */
#ifndef PTXSIM_TIMING_SM_INT_H
#define PTXSIM_TIMING_SM_INT_H

#include "policies/sm_view.h"
#include "timing/fetch.h"
#include "timing/ldst.h"
#include "timing/scoreboard.h"
#include "timing/sm.h"

/*
 * A hardware warp slot. The schedulers read most of it for every resident
 * warp every pass, and with all SMs stepped in turn it is rarely still in
 * the processor's cache, so its fields are grouped by line (the array is
 * line-aligned, a slot three lines): what decides whether the warp can
 * issue first, then its scoreboard verdict and age, then what only a
 * policy's view or an issue reads.
 */
struct hwarp {
    /* first line: residency, the I-buffer, the copied state and pc */
    struct isa_warp *w; /* NULL: free slot */
    struct cta *cta;
    struct tm_ibuf ib;
    bool exited;
    /* The warp's state (ISA_WARP_*), copied likewise, and after a barrier wakes its CTA. */
    uint8_t state;
    bool cur_in_fn, cur_in_pc;
    /*
     * The warp's function and pc (the top frame's and the SIMT stack top's),
     * copied after each of its steps (tm_sm_pc_sync): only its own steps move
     * them, and reading them from the warp every cycle was the scheduler's
     * main cache-miss cost. cur_in_fn / cur_in_pc: the frame / stack is not empty.
     */
    uint32_t cur_fidx, cur_pc;
    uint32_t loads; /* load instructions in flight */
    /* second line: the scoreboard's verdict, the next instruction, the age */
    struct tm_scoreboard sb;
    /* The next instruction's decoded info, valid while the warp's pc stays nx_fidx:nx_pc. */
    const struct tm_iinfo *nx_ii;
    uint32_t nx_fidx, nx_pc;
    uint64_t age;
    /*
     * The warp's index in its CTA (copied when it enters the slot) and the
     * top frame's register window in the scoreboard (tm_sm_reg_base, copied
     * with the pc: only calls and returns move it): the scheduler reads both
     * for every warp every pass, and the issue stage the window.
     */
    uint32_t wid;
    uint32_t stores; /* store acknowledgements still to come back from the L2 */
    /* third line: the register window (a scoreboard check), the view's counters */
    size_t reg_base;
    uint64_t insts, last_issue;
    uint64_t born; /* cycle it entered the slot: older L1D lines are its predecessors' */
} __attribute__((aligned(64)));

struct cta {
    struct isa_cta c;
    bool used;
    bool paused; /* the CTA policy's run limit holds it back */
    uint32_t warps_left, regs;
    uint64_t seq; /* assignment order on this SM */
};

/* sm_issue.c: the instruction a scheduler found for a warp. */
struct cand {
    const struct tm_iinfo *ii;
    uint32_t fidx, pc;
    int unit_idx;
};

struct tm_cycle_sum {
    bool issued, structural, mem_wait;
};

/* An issue left for the ordered part of a split cycle. */
struct deferred {
    struct pol_warp_view v;
    struct cand c;
    uint32_t sid;
};

/* A global load the parallel part ran (isa_warp_step_plain), for the ordered part's check. */
struct plain_load {
    uint32_t slot;
    struct isa_step_info info;
};

/*
 * One cycle split in three for parallel stepping (sm.h, sm_cycle.c): what
 * the parallel first part leaves for the ordered second and the parallel third.
 */
struct split_cycle {
    bool open; /* the cycle goes on past the schedulers (not asleep, not idle) */
    bool ldst_fail, was_quiet, active;
    bool moving;    /* active but for queued requests due (a reply, a miss sent) */
    bool was_stuck; /* the last cycle was quiet_stuck */
    bool stuck;     /* the LD/ST unit only repeats stk (tm_ldst_stuck) */
    /*
     * A scoreboard verdict was taken afresh this cycle (tm_sb_check), so the
     * next cycle's counts may differ with nothing else changing: the first
     * cycle of a wait on a load counts a data stall and the next ones a miss,
     * and a warp's wait on a load (long_wait) reads the verdict cached here.
     * Such a cycle's counts are not repeated by sleeping.
     */
    bool turns;
    struct tm_ldst_stuck stk;
    struct tm_cycle_sum sum;
    struct deferred *def; /* one per scheduler */
    uint32_t ndef;
    struct plain_load *plain; /* one per scheduler */
    uint32_t nplain;
    uint32_t next_sid; /* the first scheduler left for the ordered part */
    int rc;            /* an error of the first part */
    bool end_pending;  /* tm_sm_cycle_end_later: the last part waits for tm_sm_settle */
};

/* Stall reasons of the issue stage (timing/sm_issue.c), W_NONE first. */
#define TM_SCHED_WHYS 9

/*
 * A scheduler pass that issued nothing, to repeat (timing/sm_issue.c):
 * valid while the SM's and the scheduler's epochs are as recorded, the LD/ST unit's generation
 * too where the pass read it (read_ldst), and now is before `until`; a
 * different ldst_fail only moves the refused warps' counts.
 */
struct sched_memo {
    bool ok, ldst_fail, read_ldst, mem_wait, structural;
    uint32_t nrefused; /* warps the LD/ST unit refused: their reason follows ldst_fail */
    uint64_t gepoch, sepoch, ldst_gen, until;
    uint32_t why[TM_SCHED_WHYS];
};

#define TM_SPARSE 16

struct tm_sm {
    void *ws_shared; /* the state the SM's warp schedulers share, if their policy wants one */
    struct tm_sm_env env;
    const struct tm_params *prm;
    uint32_t id;
    struct isa_launch *L;
    struct tm_itable *it;
    struct hwarp *wp;
    uint32_t nwarps_res;
    struct cta *ctas;
    uint32_t nctas, regs_used, shared_used;
    uint64_t cta_seq;
    bool any_paused;
    void **sched;
    uint32_t *sorder; /* per scheduler: its occupied warp slots, oldest first */
    uint32_t *nsorder;
    struct pol_warp_view *views;
    uint32_t *order;
    uint32_t nviews_per_sched;
    uint64_t unit_free[TM_UNIT_COUNT][8];
    uint32_t nunits[TM_UNIT_COUNT];
    struct mem_cache *l1d, *l1i, *l1c, *l1t; /* l1t: the texture cache (tex, tld4) */
    struct tm_ldst *ldst;
    /* What the warp scheduler's SM monitor sees (policies/sm_view.h), and the monitor. */
    int32_t *slot_cta;
    struct pol_sm_view view;
    void *mon;
    uint64_t sample_next; /* the monitor's next sample */
    uint32_t fetch_rr;
    uint32_t slots_hi; /* every warp slot at or above it is empty: the scans stop there */
    uint64_t now;
    struct tm_sm_counters k;
    /*
     * Skipping dead cycles: after two cycles in a row without an issue the SM
     * sleeps until the earliest cycle anything can change (a result becomes
     * readable, a pipe frees, a hit returns) or a reply arrives; each skipped
     * cycle adds the counters of the last simulated one, which it would have
     * repeated exactly.
     */
    uint64_t sleep_until;
    bool quiet; /* the last simulated cycle issued nothing */
    /*
     * It sleeps with its LD/ST unit stuck (tm_ldst_stuck): each skipped
     * cycle also repeats stk, and room in the network for a waiting miss
     * wakes it like a reply. quiet_stuck: the last simulated cycle issued
     * nothing and its only activity was such a unit's.
     */
    bool stuck, quiet_stuck;
    struct tm_ldst_stuck stk;
    /*
     * Counts the warp slots this SM frees (a warp leaves; its CTA may end
     * with it), in an array of the GPU's: CTA issue skips an SM it found
     * full until this moves, without reading the SM (tm_sm_note_freed).
     */
    uint32_t *freed_note;
    /*
     * Seen idle without CTAs (tm_sm_idle), and nothing has reached the SM
     * since: no CTA, no kernel begun or ended. Nothing can then arrive, so
     * the LD/ST unit and caches need not be asked again every cycle.
     */
    bool drained;
    /*
     * Bumped by everything that can change what a scheduler pass reads
     * besides the time: issues, warps arriving and leaving, fetches, load
     * and store completions, policy events, pauses, kernels. A scheduler's
     * pass reads only its own warps, so what changes one warp is also
     * counted in its scheduler's sepoch, and what changes more in gepoch
     * (tm_sm_warp_changed, tm_sm_changed): a pass is repeated while those
     * two are as recorded.
     */
    uint64_t epoch, gepoch;
    uint64_t *sepoch;        /* per scheduler */
    struct sched_memo *memo; /* per scheduler */
    bool fetch_idle;         /* no warp wanted to fetch at fetch_idle_epoch (tm_sm_fetch_idle) */
    uint64_t fetch_idle_epoch;
    struct tm_sm_counters before, delta;
    /* delta's nonzero counters (indices into the counters as uint64_t), when at most
     * TM_SPARSE of them: a skipped cycle then touches only those */
    uint32_t ndelta;
    uint8_t delta_at[TM_SPARSE];
    struct tm_line_prog *lines; /* -enable_ptx_file_line_stats: this launch's table, or NULL */
    /*
     * Parallel stepping (tm_sm_set_parallel): in_par while in the first
     * part of a split cycle. The SM's CTAs see Lv, a copy of the launch with
     * this SM's own instruction counts, folded into Lreal in SM order.
     */
    bool par, in_par;
    struct isa_launch Lv, *Lreal;
    struct split_cycle cyc;
};

/* No warp wanted to fetch at the fetch stage's last scan, and nothing changed since. */
static inline bool tm_sm_fetch_idle(const struct tm_sm *s)
{
    return s->fetch_idle && s->fetch_idle_epoch == s->epoch;
}

/* Something that may change what every scheduler's pass reads has changed (struct tm_sm). */
static inline void tm_sm_changed(struct tm_sm *s)
{
    s->epoch++;
    s->gepoch++;
}

/* The warp in slot changed: what its own scheduler's pass reads (struct tm_sm). */
static inline void tm_sm_warp_changed(struct tm_sm *s, uint32_t slot)
{
    s->epoch++;
    s->sepoch[slot % s->prm->nsched]++;
}

/* sm_warps.c: warp events, retirement, and the hooks the LD/ST unit calls. */
void tm_sm_event(struct tm_sm *s, enum pol_warp_event e, uint32_t slot);
void tm_sm_warp_free(struct tm_sm *s, uint32_t slot);
extern const struct tm_ldst_hooks tm_sm_ldst_hooks; /* ctx: the SM */
/* The register window of w's current frame in its scoreboard. */
static inline size_t tm_sm_reg_base(const struct isa_warp *w)
{
    return w->fr[w->nfr - 1].reg_base / ISA_WARP_SIZE;
}
/* The warp's next instruction (cached per pc), or NULL past its function's end. */
const struct tm_iinfo *tm_sm_next_instr(struct tm_sm *s, struct hwarp *h, uint32_t *fidx,
                                        uint32_t *pc);

/* The warp's function and pc, copied from its frame and SIMT stack (struct hwarp). */
static inline void tm_sm_pc_sync(struct hwarp *h)
{
    const struct isa_warp *w = h->w;

    h->cur_in_fn = w->nfr > 0;
    h->cur_in_pc = w->sp > 0;
    h->cur_fidx = h->cur_in_fn ? w->fr[w->nfr - 1].fidx : 0;
    h->cur_pc = h->cur_in_pc ? w->st[w->sp - 1].pc : 0;
    h->state = w->state;
    h->reg_base = h->cur_in_fn ? tm_sm_reg_base(w) : 0;
}

/* sm.c: instruction fetch for one warp a cycle; true if a fetch went out. */
bool tm_sm_fetch(struct tm_sm *s);

/*
 * sm_issue.c: one warp scheduler's cycle; in the parallel part of a split
 * cycle it may defer its issue (tm_sm_issue_deferred runs it in SM order).
 */
int tm_sm_schedule(struct tm_sm *s, uint32_t sid, bool ldst_fail, struct tm_cycle_sum *sum);
int tm_sm_issue_deferred(struct tm_sm *s, const struct deferred *d);
/*
 * Every scheduler's last pass issued nothing and would be repeated as it is
 * until *until (the earliest time one of its comparisons turns) while no
 * epoch moves: the schedulers' part of the SM's next change (sm_cycle.c).
 */
bool tm_sm_passes_hold(const struct tm_sm *s, uint64_t *until);

/* sm_policy.c: what the SM shows and tells the policies. */
int tm_sm_policy_create(struct tm_sm *s);
void tm_sm_policy_destroy(struct tm_sm *s);
void tm_sm_policy_link(struct tm_sm *s, struct pol_l1d_link *link);
void tm_sm_policy_attach(struct tm_sm *s);
void tm_sm_policy_warp_left(struct tm_sm *s, uint32_t slot, bool cta_done);
void tm_sm_update_paused(struct tm_sm *s);
void tm_sm_paused_last(struct tm_sm *s, uint32_t n);
bool tm_sm_samples_due(const struct tm_sm *s, uint64_t now);
void tm_sm_sample(struct tm_sm *s, uint64_t now);
uint64_t tm_sm_sample_wake(const struct tm_sm *s, uint64_t now, uint64_t wake);

#endif
