/*
 * The SM pipeline, one core cycle at a time:
 *   1. replies from the memory system fill the L1s; finished loads release
 *      their destination registers;
 *   2. one L1 miss per cycle leaves for the interconnect;
 *   3. the LD/ST unit presents one request of the current memory
 *      instruction to its cache;
 *   4. each warp scheduler issues at most one instruction (execute at issue);
 *   5. the fetch stage refills one warp's I-buffer through the L1I.
 * The scoreboard is a per-register "ready at" cycle: ALU results become
 * readable after their latency, load results when the last request returns.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/counters.h"
#include "isa/devmem.h"
#include "isa/opcode.h"
#include "memsys/coalesce.h"
#include "policies/create.h"
#include "policies/util.h"
#include "timing/l1d_trace.h"
#include "timing/line_stats.h"
#include "timing/sm.h"

#define NEVER UINT64_MAX
/* Timing-only addresses of instructions and of local memory (outside device memory). */
#define INST_BASE (UINT64_C(1) << 41)
#define LOCAL_BASE (UINT64_C(1) << 40)
#define INST_BYTES 8u
/* Requests one instruction may make: global lanes, plus local lanes split into up to 8 words. */
#define INSTR_REQS_MAX (MEM_MAX_WARP_REQS + 8 * ISA_WARP_SIZE)
/* The LD/ST queue holds the requests of several instructions (prm->ldst_insts). */
#define LDQ_CAP (INSTR_REQS_MAX * 2)

struct hwarp {
    struct isa_warp *w; /* NULL: free slot */
    struct cta *cta;
    uint64_t age;
    uint64_t born; /* cycle it entered the slot: older L1D lines are its predecessors' */
    uint32_t ib_fidx, ib_pc, ib_n; /* I-buffer: ib_n instructions from ib_pc */
    uint64_t ib_ready;             /* when the fetched instructions can issue */
    bool fetching, ctrl, exited;
    bool dmiss_seen;    /* first cycle of a wait on a missed load counted */
    uint32_t loads;     /* load instructions in flight */
    uint32_t stores;    /* store acknowledgements still to come back from the L2 */
    uint64_t *ready_at; /* per register-pool slot */
    size_t nready;
    uint64_t insts, last_issue;
    uint32_t crit_samples, crit_slow; /* CAWA accuracy: samples taken, those that called it slow */
    /*
     * The warp's function and pc (the top frame's and the SIMT stack top's),
     * copied after each of its steps (pc_sync): only its own steps move them,
     * and reading them from the warp every cycle was the scheduler's main
     * cache-miss cost. cur_in_fn / cur_in_pc: the frame / stack is not empty.
     */
    uint32_t cur_fidx, cur_pc;
    bool cur_in_fn, cur_in_pc;
    /* The next instruction's decoded info, valid while the warp's pc stays nx_fidx:nx_pc. */
    const struct tm_iinfo *nx_ii;
    uint32_t nx_fidx, nx_pc;
    /*
     * Scoreboard verdict cache: the next instruction cannot issue before
     * blk_until (NEVER: a load result), for reason blk_why. Registers change
     * only when this warp issues or one of its loads completes, which clear it.
     */
    uint64_t blk_until;
    uint8_t blk_why;
    bool blk_ok;
};

struct cta {
    struct isa_cta c;
    bool used;
    bool paused; /* the CTA policy holds it back (DYNCTA) */
    uint32_t warps_left, regs;
    uint64_t seq; /* assignment order on this SM */
};

struct ldrec {
    uint32_t slot;      /* warp slot */
    uint32_t remaining; /* requests not yet answered */
    uint32_t ndst;
    uint32_t dst[TM_MAX_DST]; /* register-pool indices */
    uint32_t next_free;
};

struct hit {
    uint64_t at;
    uint64_t uid;
};

struct cand {
    const struct tm_iinfo *ii;
    uint32_t fidx, pc;
    int unit_idx;
};

struct cycle_sum {
    bool issued, structural, mem_wait;
};

/* An issue left for the ordered part of a split cycle. */
struct deferred {
    struct pol_warp_view v;
    struct cand c;
    uint32_t sid;
};

/*
 * One cycle split in three for parallel stepping (tm_sm.h): what the
 * parallel first part leaves for the ordered second and the parallel third.
 */
struct split_cycle {
    bool open; /* the cycle goes on past the schedulers (not asleep, not idle) */
    bool ldst_fail, was_quiet, active;
    struct cycle_sum sum;
    struct deferred *def; /* one per scheduler */
    uint32_t ndef;
    uint32_t next_sid; /* the first scheduler left for the ordered part */
    int rc;            /* an error of the first part */
    bool send_ok;      /* a miss for the interconnect, sent in the second half */
    struct mem_req send;
    uint32_t popped, stalls; /* replies popped, sends refused (network-wide counts) */
};

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
    /*
     * LD/ST path: the requests of the memory instructions between issue and
     * the L1, in issue order. A request reaches the L1 no earlier than
     * ldq_at (issue + operand collection); ldq_insts counts the instructions
     * with requests still queued (ldq_last marks each one's final request).
     */
    struct mem_req *ldq; /* LDQ_CAP entries each, allocated with the SM */
    uint64_t *ldq_at;
    bool *ldq_last;
    uint32_t ldq_head, ldq_n, ldq_insts;
    /*
     * GPGPU-Sim's L1 latency queue: requests for the L1D enter it one a
     * cycle and look up the L1D's tags -gpgpu_l1_latency cycles later, where
     * a reservation failure holds the head (and so the queue) until it
     * succeeds. A hit is then done; a miss only now goes to the L2.
     */
    struct mem_req *l1p;
    uint64_t *l1p_at;
    uint32_t l1p_head, l1p_n, l1p_cap;
    /* Local-memory layout of the running kernel (local_addr): padded CTA size, GPU threads. */
    uint64_t local_cta_threads, local_threads;
    /*
     * MRPB's request reordering queues between the coalescer and the L1D,
     * when the L1D policy asks for them (its reorder op): a global/local
     * instruction's requests go to queue warp % nrq, which takes up to
     * rq_depth instructions; the LD/ST unit drains the current queue until
     * it is empty, then moves on to the next non-empty one. The LD/ST unit
     * then accepts a new instruction while earlier ones wait in the queues.
     */
    struct rqueue *rq;
    uint32_t nrq, rq_depth, rq_cur, rq_total;
    uint64_t crit_next; /* next CAWA accuracy sample */
    uint64_t ldst_free;
    /* L1 hits waiting out the hit latency (constant latency: a FIFO). */
    struct hit *hits;
    uint32_t hits_cap, hits_head, hits_n;
    struct ldrec *recs;
    uint32_t nrecs, free_rec;
    uint32_t fetch_rr;
    uint32_t send_rr;
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
    struct tm_sm_counters before, delta;
    struct tm_line_prog *lines; /* -enable_ptx_file_line_stats: this launch's table, or NULL */
    /*
     * Parallel stepping (tm_sm_set_parallel): in_par while in the first
     * half of a split cycle. The SM's CTAs see Lv, a copy of the launch with
     * this SM's own instruction counts, folded into Lreal in SM order.
     */
    bool par, in_par;
    struct isa_launch Lv, *Lreal;
    struct split_cycle cyc;
};

static const uint32_t NO_REC = UINT32_MAX;

struct rqueue {
    struct mem_req *buf; /* rq_depth * INSTR_REQS_MAX requests */
    bool *last;          /* the request ends its instruction */
    uint64_t *at;        /* cycle from which the request may reach the L1D */
    uint32_t head, n, cap, ninstr;
};

/* ------------------------------------------------------------------ setup */

/* L1D traffic goes to the scheduler that owns the warp, for policies that learn from it (CCWS). */
static void l1d_observe(void *ctx, enum mem_obs_kind kind, const struct mem_req *r, uint64_t line,
                        uint16_t warp, uint64_t now)
{
    struct tm_sm *s = ctx;
    enum pol_mem_event e = kind == MEM_OBS_HIT     ? POL_MEM_L1_HIT
                           : kind == MEM_OBS_MISS  ? POL_MEM_L1_MISS
                           : kind == MEM_OBS_MERGE ? POL_MEM_L1_MERGE
                                                   : POL_MEM_L1_EVICT;

    if (r->type != MEM_READ || warp >= s->prm->max_warps)
        return; /* writes reach the schedulers from the LD/ST unit (POL_MEM_L1_WRITE) */
    /* A line allocated before the slot's current warp arrived belongs to a warp that has exited. */
    if (kind == MEM_OBS_EVICT && (!s->wp[warp].w || r->t_issue < s->wp[warp].born))
        e = POL_MEM_L1_EVICT_EXITED;
    s->env.ws->on_mem(s->sched[warp % s->prm->nsched], e, warp, line, now);
}

/* -ptxsim_l1d_trace: one record of what this SM's L1D saw. */
static void l1d_trace(struct tm_sm *s, const struct mem_req *r, enum tm_l1d_trace_kind kind)
{
    struct tm_l1d_trace_rec t = {.sm = (uint16_t)s->id, .kind = (uint8_t)kind};

    if (r) {
        t.line = r->addr / s->prm->l1d.line_bytes;
        t.warp = r->warp;
        t.set = (uint16_t)mem_cache_geom_set_index(&s->prm->l1d, r->addr);
    }
    fwrite(&t, sizeof(t), 1, s->env.l1d_trace);
}

/* A global store reached the L1D: every scheduler hears of it (CCWS drops it from all VTAs). */
static void l1d_write_seen(struct tm_sm *s, const struct mem_req *r)
{
    uint64_t line = r->addr / s->prm->l1d.line_bytes;

    if (!s->env.ws->on_mem || r->type != MEM_WRITE || r->space != MEM_GLOBAL)
        return;
    for (uint32_t i = 0; i < s->prm->nsched; i++)
        s->env.ws->on_mem(s->sched[i], POL_MEM_L1_WRITE, r->warp, line, s->now);
}

/*
 * CACP's question, answered by the warp scheduler's predictor: a warp is
 * critical when its criticality is above that of half the warps of its
 * thread block (the dissertation's "slow warp"), whichever of the SM's
 * schedulers holds them. -1 when the scheduler has no predictor.
 */
static int warp_critical(void *ctx, uint32_t warp, uint64_t now)
{
    struct tm_sm *s = ctx;
    const struct pol_warp_sched_ops *ws = s->env.ws;
    const struct cta *cta;
    double mine, c;
    uint32_t below = 0, n = 0;

    if (!ws->criticality || warp >= s->prm->max_warps || !s->wp[warp].w)
        return -1;
    if (!ws->criticality(s->sched[warp % s->prm->nsched], warp, now, &mine))
        return -1;
    cta = s->wp[warp].cta;
    for (uint32_t i = 0; i < s->prm->max_warps; i++) {
        if (!s->wp[i].w || s->wp[i].cta != cta)
            continue;
        n++;
        if (i != warp && ws->criticality(s->sched[i % s->prm->nsched], i, now, &c) && c < mine)
            below++;
    }
    return pol_critical_in_group(below, n);
}

/* The reordering queues the L1D policy asks for (none for most policies). */
static int rq_build(struct tm_sm *s)
{
    uint32_t nq = 0, depth = 0;

    mem_cache_policy_reorder(s->l1d, &nq, &depth);
    if (!nq || !depth)
        return 0;
    s->rq = calloc(nq, sizeof(*s->rq));
    if (!s->rq)
        return -1;
    s->nrq = nq;
    s->rq_depth = depth;
    for (uint32_t i = 0; i < nq; i++) {
        s->rq[i].cap = depth * INSTR_REQS_MAX;
        s->rq[i].buf = malloc(s->rq[i].cap * sizeof(*s->rq[i].buf));
        s->rq[i].last = malloc(s->rq[i].cap * sizeof(*s->rq[i].last));
        s->rq[i].at = malloc(s->rq[i].cap * sizeof(*s->rq[i].at));
        if (!s->rq[i].buf || !s->rq[i].last || !s->rq[i].at)
            return -1;
    }
    return 0;
}

struct tm_sm *tm_sm_create(const struct tm_sm_env *env, uint32_t id, struct ps_err *err)
{
    const struct tm_params *p = env->prm;
    struct tm_sm *s = calloc(1, sizeof(*s));
    struct pol_l1d_link link;
    char name[32];

    if (!s)
        goto oom;
    s->env = *env;
    s->prm = p;
    s->id = id;
    s->wp = calloc(p->max_warps, sizeof(*s->wp));
    s->ctas = calloc(p->max_ctas, sizeof(*s->ctas));
    s->sched = calloc(p->nsched, sizeof(*s->sched));
    s->nviews_per_sched = (p->max_warps + p->nsched - 1) / p->nsched;
    s->views = calloc(s->nviews_per_sched, sizeof(*s->views));
    s->sorder = calloc((size_t)p->nsched * s->nviews_per_sched, sizeof(*s->sorder));
    s->nsorder = calloc(p->nsched, sizeof(*s->nsorder));
    s->order = calloc(s->nviews_per_sched, sizeof(*s->order));
    s->hits_cap = 256;
    s->hits = malloc(s->hits_cap * sizeof(*s->hits));
    s->ldq = malloc(LDQ_CAP * sizeof(*s->ldq));
    s->ldq_at = malloc(LDQ_CAP * sizeof(*s->ldq_at));
    s->ldq_last = malloc(LDQ_CAP * sizeof(*s->ldq_last));
    s->l1p_cap = p->l1_latency ? p->l1_latency : 1;
    s->l1p = malloc(s->l1p_cap * sizeof(*s->l1p));
    s->l1p_at = malloc(s->l1p_cap * sizeof(*s->l1p_at));
    if (!s->wp || !s->ctas || !s->sched || !s->views || !s->order || !s->hits || !s->sorder ||
        !s->nsorder || !s->l1p || !s->l1p_at || !s->ldq || !s->ldq_at || !s->ldq_last)
        goto oom;
    s->free_rec = NO_REC;
    if (!(s->cyc.def = calloc(p->nsched ? p->nsched : 1, sizeof(*s->cyc.def))))
        goto oom;
    s->nunits[TM_UNIT_SP] = p->n_sp ? p->n_sp : 1;
    s->nunits[TM_UNIT_SFU] = p->n_sfu ? p->n_sfu : 1;
    s->nunits[TM_UNIT_DP] = p->n_dp ? p->n_dp : 1;
    s->nunits[TM_UNIT_MEM] = 1;
    for (uint32_t u = 0; u < TM_UNIT_COUNT; u++)
        if (s->nunits[u] > 8)
            s->nunits[u] = 8;
    for (uint32_t i = 0; i < p->nsched; i++) {
        struct pol_warp_sched_params wp = {.sched_id = i,
                                           .nsched = p->nsched,
                                           .max_warps = p->max_warps,
                                           .sm = id,
                                           .args = env->ws_args,
                                           .sm_shared = &s->ws_shared};

        s->sched[i] = pol_warp_sched_create(env->ws, &wp, err);
        if (!s->sched[i])
            goto fail;
    }
    snprintf(name, sizeof(name), "L1D[%u]", id);
    link = (struct pol_l1d_link){id, env->nsm, env->l1d_shared, warp_critical, s};
    s->l1d = mem_cache_create_linked(&p->l1d, name, env->l1d_pol, env->l1d_args, &link, err);
    snprintf(name, sizeof(name), "L1I[%u]", id);
    s->l1i = s->l1d ? mem_cache_create(&p->l1i, name, NULL, "", id, err) : NULL;
    snprintf(name, sizeof(name), "L1C[%u]", id);
    s->l1c = s->l1i ? mem_cache_create(&p->l1c, name, NULL, "", id, err) : NULL;
    snprintf(name, sizeof(name), "L1T[%u]", id);
    s->l1t = s->l1c ? mem_cache_create(&p->l1t, name, NULL, "", id, err) : NULL;
    if (!s->l1t)
        goto fail;
    if (env->ws->on_mem)
        mem_cache_set_observer(s->l1d, l1d_observe, s);
    if (rq_build(s))
        goto oom;
    return s;
oom:
    ps_err_set(err, PS_ENOMEM, "out of memory");
fail:
    tm_sm_destroy(s);
    return NULL;
}

void tm_sm_destroy(struct tm_sm *s)
{
    if (!s)
        return;
    for (uint32_t i = 0; s->rq && i < s->nrq; i++) {
        free(s->rq[i].buf);
        free(s->rq[i].last);
        free(s->rq[i].at);
    }
    free(s->rq);
    for (uint32_t i = 0; s->ctas && i < s->prm->max_ctas; i++)
        if (s->ctas[i].used)
            isa_cta_fini(&s->ctas[i].c);
    for (uint32_t i = 0; s->wp && i < s->prm->max_warps; i++)
        free(s->wp[i].ready_at);
    for (uint32_t i = 0; s->sched && i < s->prm->nsched; i++)
        if (s->sched[i])
            pol_warp_sched_destroy(s->env.ws, s->sched[i]);
    mem_cache_destroy(s->l1d);
    mem_cache_destroy(s->l1i);
    mem_cache_destroy(s->l1c);
    mem_cache_destroy(s->l1t);
    free(s->wp);
    free(s->ctas);
    free(s->sched);
    free(s->views);
    free(s->sorder);
    free(s->nsorder);
    free(s->order);
    free(s->hits);
    free(s->l1p);
    free(s->l1p_at);
    free(s->ldq);
    free(s->ldq_at);
    free(s->ldq_last);
    free(s->recs);
    free(s->cyc.def);
    free(s);
}

void tm_sm_kernel_begin(struct tm_sm *s, struct isa_launch *L, struct tm_itable *it,
                        uint32_t max_ctas)
{
    uint64_t threads = (uint64_t)L->block[0] * L->block[1] * L->block[2];

    s->L = L;
    s->Lreal = NULL;
    if (s->par) {
        s->Lv = *L;
        s->Lv.warp_insts = s->Lv.thread_insts = 0;
        s->Lreal = L;
        s->L = &s->Lv;
    }
    s->it = it;
    s->local_cta_threads = (threads + ISA_WARP_SIZE - 1) / ISA_WARP_SIZE * ISA_WARP_SIZE;
    s->local_threads = s->local_cta_threads * (max_ctas ? max_ctas : 1) * s->env.nsm;
}

void tm_sm_kernel_end(struct tm_sm *s)
{
    if (s->prm->flush_l1) {
        mem_cache_invalidate(s->l1d);
        if (s->env.l1d_trace)
            l1d_trace(s, NULL, TM_L1D_TRACE_FLUSH);
    }
    /* Instructions of the next kernel live at other addresses; constants and textures may
     * change. */
    mem_cache_invalidate(s->l1c);
    mem_cache_invalidate(s->l1t);
    s->L = NULL;
    s->Lreal = NULL;
    s->it = NULL;
}

void tm_sm_set_parallel(struct tm_sm *s, bool on)
{
    s->par = on;
}

uint32_t tm_sm_ctas(const struct tm_sm *s)
{
    return s->nctas;
}

bool tm_sm_fits(const struct tm_sm *s, uint32_t warps, uint32_t regs, uint32_t shared)
{
    const struct tm_params *p = s->prm;

    return s->nctas < p->max_ctas && s->nwarps_res + warps <= p->max_warps &&
           s->regs_used + regs <= p->regs && s->shared_used + shared <= p->shmem;
}

static void events(struct tm_sm *s, enum pol_warp_event e, uint32_t slot)
{
    if (s->env.ws->on_event)
        s->env.ws->on_event(s->sched[slot % s->prm->nsched], e, slot, s->now);
}

static void pc_sync(struct hwarp *h)
{
    const struct isa_warp *w = h->w;

    h->cur_in_fn = w->nfr > 0;
    h->cur_in_pc = w->sp > 0;
    h->cur_fidx = h->cur_in_fn ? w->fr[w->nfr - 1].fidx : 0;
    h->cur_pc = h->cur_in_pc ? w->st[w->sp - 1].pc : 0;
}

static int grow_ready(struct hwarp *h)
{
    size_t need = h->w->regs_cap / ISA_WARP_SIZE + 1;

    if (need <= h->nready)
        return 0;
    uint64_t *n = realloc(h->ready_at, need * sizeof(*n));
    if (!n)
        return PS_ENOMEM;
    memset(n + h->nready, 0, (need - h->nready) * sizeof(*n));
    h->ready_at = n;
    h->nready = need;
    return 0;
}

int tm_sm_launch_cta(struct tm_sm *s, uint64_t linear, uint32_t regs, uint64_t *warp_seq)
{
    struct cta *c = NULL;
    uint32_t slot = 0;

    for (uint32_t i = 0; i < s->prm->max_ctas && !c; i++)
        if (!s->ctas[i].used)
            c = &s->ctas[i];
    if (!c)
        return PS_EINVAL;
    if (isa_cta_init(&c->c, s->L, linear)) {
        isa_cta_fini(&c->c);
        return ps_err_set(s->L->err, PS_ENOMEM, "out of memory creating a CTA");
    }
    s->sleep_until = 0;
    s->quiet = false;
    c->c.smid = s->id;
    c->c.clock = &s->now;
    c->used = true;
    c->paused = false;
    c->seq = s->cta_seq++;
    c->warps_left = c->c.nwarps;
    c->regs = regs;
    s->nctas++;
    s->regs_used += regs;
    s->shared_used += c->c.shared_bytes;
    for (uint32_t i = 0; i < c->c.nwarps; i++) {
        struct hwarp *h;

        while (s->wp[slot].w)
            slot++;
        h = &s->wp[slot];
        h->w = &c->c.warps[i];
        h->cta = c;
        h->age = (*warp_seq)++;
        h->born = s->now;
        h->ib_n = 0;
        h->fetching = h->ctrl = h->exited = h->dmiss_seen = false;
        h->loads = h->stores = 0;
        h->insts = h->last_issue = 0;
        h->crit_samples = h->crit_slow = 0;
        h->nx_ii = NULL;
        pc_sync(h);
        h->blk_ok = false;
        h->nready = 0;
        free(h->ready_at);
        h->ready_at = NULL;
        if (grow_ready(h))
            return ps_err_set(s->L->err, PS_ENOMEM, "out of memory");
        s->nwarps_res++;
        {
            uint32_t sid = slot % s->prm->nsched;

            s->sorder[sid * s->nviews_per_sched + s->nsorder[sid]++] = slot;
        }
        events(s, POL_WARP_LAUNCHED, slot);
    }
    return 0;
}

/* ------------------------------------------------------------- retirement */

static void warp_free(struct tm_sm *s, uint32_t slot)
{
    struct hwarp *h = &s->wp[slot];
    struct cta *c = h->cta;

    events(s, POL_WARP_EXITED, slot);
    {
        uint32_t sid = slot % s->prm->nsched, *o = s->sorder + sid * s->nviews_per_sched, k = 0;

        for (uint32_t i = 0; i < s->nsorder[sid]; i++)
            if (o[i] != slot)
                o[k++] = o[i];
        s->nsorder[sid] = k;
    }
    h->w = NULL;
    h->cta = NULL;
    s->nwarps_res--;
    if (--c->warps_left)
        return;
    /* The CTA's last warp to finish was its critical warp: how often was it predicted slow? */
    s->k.crit_samples += h->crit_samples;
    s->k.crit_slow += h->crit_slow;
    s->regs_used -= c->regs;
    s->shared_used -= c->c.shared_bytes;
    isa_cta_fini(&c->c);
    c->used = false;
    s->nctas--;
    s->k.ctas_done++;
}

static void lat_record(struct tm_sm *s, uint64_t lat)
{
    uint32_t b = 0;

    s->k.lat_sum += lat;
    s->k.lat_n++;
    if (lat > s->k.lat_max)
        s->k.lat_max = lat;
    while (b + 1 < TM_LAT_BUCKETS && (lat >> (b + 1)))
        b++;
    s->k.lat_hist[b]++;
}

/*
 * Cycles from a load's data reaching the LD/ST unit (L1 hit latency elapsed,
 * or reply filled) until a dependent instruction may issue: the write-back
 * stage; the LD/ST unit has no result-port stage of its own.
 */
static uint32_t ldst_wb(const struct tm_sm *s)
{
    return s->prm->wb_latency ? s->prm->wb_latency - 1 : 0;
}

/* One request of load record uid was answered. */
static void complete(struct tm_sm *s, uint64_t uid)
{
    struct ldrec *r;
    struct hwarp *h;

    if (uid >= s->nrecs)
        return;
    r = &s->recs[uid];
    if (--r->remaining)
        return;
    h = &s->wp[r->slot];
    h->blk_ok = false;
    for (uint32_t i = 0; i < r->ndst; i++)
        if (r->dst[i] < h->nready)
            h->ready_at[r->dst[i]] = s->now + ldst_wb(s);
    h->loads--;
    r->next_free = s->free_rec;
    s->free_rec = (uint32_t)uid;
    if (!h->loads) {
        h->dmiss_seen = false;
        events(s, POL_WARP_LOAD_DONE, r->slot);
        if (h->exited && !h->stores)
            warp_free(s, r->slot);
    }
}

static uint32_t rec_alloc(struct tm_sm *s)
{
    if (s->free_rec == NO_REC) {
        uint32_t n = s->nrecs ? s->nrecs * 2 : 64;
        struct ldrec *nr = realloc(s->recs, n * sizeof(*nr));

        if (!nr)
            return NO_REC;
        s->recs = nr;
        for (uint32_t i = n; i-- > s->nrecs;) {
            nr[i].next_free = s->free_rec;
            s->free_rec = i;
        }
        s->nrecs = n;
    }
    uint32_t i = s->free_rec;
    s->free_rec = s->recs[i].next_free;
    return i;
}

/* --------------------------------------------------------------- memory */

static void hit_push(struct tm_sm *s, uint64_t at, uint64_t uid)
{
    if (s->hits_n == s->hits_cap) {
        struct hit *n = malloc(2 * s->hits_cap * sizeof(*n));

        if (!n)
            return;
        for (uint32_t i = 0; i < s->hits_n; i++)
            n[i] = s->hits[(s->hits_head + i) % s->hits_cap];
        free(s->hits);
        s->hits = n;
        s->hits_head = 0;
        s->hits_cap *= 2;
    }
    s->hits[(s->hits_head + s->hits_n++) % s->hits_cap] = (struct hit){at, uid};
}

static void fetch_done(struct tm_sm *s, const struct mem_req *r)
{
    struct hwarp *h = &s->wp[r->warp];

    if (!h->w || !h->fetching)
        return;
    h->fetching = false;
    h->ib_ready = s->now + 1;
}

/* Returns whether anything arrived or completed. */
/*
 * One of a warp's store holds ends: a queued store reached the L1, or an
 * acknowledgement came back from the L2. A warp that has exited retires
 * only when none is left, as in GPGPU-Sim, so a CTA keeps its slot until
 * its last store is in the L2.
 */
static void store_done(struct tm_sm *s, uint32_t slot)
{
    struct hwarp *h = &s->wp[slot];

    if (slot >= s->prm->max_warps || !h->stores)
        return;
    if (!--h->stores && h->exited && !h->loads)
        warp_free(s, slot);
}

static bool take_replies(struct tm_sm *s)
{
    struct mem_req r;
    bool any = false;

    while (s->in_par ? mem_system_pop_reply_port(s->env.ms, s->id, &r) && ++s->cyc.popped
                     : mem_system_pop_reply(s->env.ms, s->id, &r)) {
        struct mem_cache *c = r.space == MEM_INST    ? s->l1i
                              : r.space == MEM_CONST ? s->l1c
                              : r.space == MEM_TEX   ? s->l1t
                                                     : s->l1d;

        if (r.type == MEM_WRITE) {
            store_done(s, r.warp);
            any = true;
            continue;
        }

        lat_record(s, s->now - r.t_issue);
        if (s->lines && r.space != MEM_INST)
            tm_lines_reply(s->lines, r.fidx, r.pc, s->now - r.t_issue, r.l2_miss);
        mem_cache_fill(c, &r, s->now);
        if (c == s->l1d && s->env.l1d_trace && r.type == MEM_READ)
            l1d_trace(s, &r, TM_L1D_TRACE_FILL);
        any = true;
    }
    while (mem_cache_pop_ready(s->l1i, &r))
        fetch_done(s, &r), any = true;
    while (mem_cache_pop_ready(s->l1c, &r))
        complete(s, r.uid), any = true;
    while (mem_cache_pop_ready(s->l1t, &r))
        complete(s, r.uid), any = true;
    while (mem_cache_pop_ready(s->l1d, &r))
        complete(s, r.uid), any = true;
    while (s->hits_n && s->hits[s->hits_head].at <= s->now) {
        uint64_t uid = s->hits[s->hits_head].uid;

        s->hits_head = (s->hits_head + 1) % s->hits_cap;
        s->hits_n--;
        complete(s, uid);
        any = true;
    }
    return any;
}

/* One L1 miss per cycle onto the interconnect: I-, constant, texture and data cache in turn. */
static bool send_miss(struct tm_sm *s)
{
    struct mem_cache *cs[4] = {s->l1i, s->l1c, s->l1t, s->l1d};

    for (uint32_t k = 0; k < 4; k++) {
        struct mem_cache *c = cs[(s->send_rr + k) % 4];
        const struct mem_req *m = mem_cache_peek_miss(c);
        struct mem_req r;

        if (!m)
            continue;
        if (s->in_par ? !mem_system_room(s->env.ms, s->id, m) && ++s->cyc.stalls
                      : !mem_system_can_send(s->env.ms, s->id, m))
            continue;
        mem_cache_pop_miss(c, &r);
        r.t_issue = s->now;
        r.sm = (uint16_t)s->id;
        if (s->in_par) { /* the network's shared state is touched in SM order (tm_sm_cycle_end) */
            s->cyc.send = r;
            s->cyc.send_ok = true;
        } else {
            mem_system_send(s->env.ms, s->id, &r);
        }
        s->send_rr = (s->send_rr + k + 1) % 4;
        return true;
    }
    return false;
}

/*
 * Hands request r to cache c (the L1D or the constant cache). false: a
 * reservation failure, nothing changed. Otherwise the schedulers hear of an
 * L1D store, the L1D trace records the access, and a read hit completes
 * after the L1 latency.
 */
static bool l1_access(struct tm_sm *s, struct mem_cache *c, const struct mem_req *r)
{
    bool store = r->type == MEM_WRITE, on = store && mem_cache_forwards_write(c, r);
    enum mem_cache_result res = mem_cache_access(c, r, s->now);

    if (res == MEM_RESFAIL)
        return false;
    if (store) {
        /* The queued store's hold becomes the acknowledgements the L2 will send, if any. */
        s->wp[r->warp].stores += on ? mem_req_ack_count(r) : 0;
        store_done(s, r->warp);
    }
    if (c == s->l1d) {
        if (s->lines)
            tm_lines_l1d(s->lines, r->fidx, r->pc, res == MEM_MISS || res == MEM_SENT);
        l1d_write_seen(s, r);
        if (s->env.l1d_trace && r->type == MEM_READ && res != MEM_SENT)
            l1d_trace(s, r,
                      res == MEM_HIT            ? TM_L1D_TRACE_HIT
                      : res == MEM_HIT_RESERVED ? TM_L1D_TRACE_MERGE
                                                : TM_L1D_TRACE_MISS);
        else if (s->env.l1d_trace && r->type == MEM_WRITE && res == MEM_HIT)
            l1d_trace(s, r, TM_L1D_TRACE_WRITE);
    }
    /*
     * An L1D hit is done (its latency was spent in the latency queue), and so
     * is a constant-cache hit (GPGPU-Sim's constant path has no latency
     * queue); a texture hit waits out the L1 latency.
     */
    if (res == MEM_HIT && r->type != MEM_WRITE && r->uid != NEVER) {
        if (c == s->l1t)
            hit_push(s, s->now + s->prm->l1_latency, r->uid);
        else
            complete(s, r->uid);
    }
    return true;
}

/*
 * Hands request r to cache c: the L1D's requests enter its latency queue
 * (false when the queue's entry is taken), the other caches look r up now
 * (false on a reservation failure).
 */
static bool l1_hand(struct tm_sm *s, struct mem_cache *c, const struct mem_req *r)
{
    uint32_t at;

    /* .cg loads and atomics bypass GPGPU-Sim's L1D and its latency queue. */
    if (c != s->l1d || r->type == MEM_ATOMIC || r->cacheop == ISA_CACHE_CG)
        return l1_access(s, c, r);
    if (s->l1p_n == s->l1p_cap)
        return false;
    at = (s->l1p_head + s->l1p_n) % s->l1p_cap;
    s->l1p[at] = *r;
    s->l1p_at[at] = s->now + s->prm->l1_latency;
    s->l1p_n++;
    return true;
}

/* The head of the L1 latency queue looks up the L1D. Returns true on a reservation failure. */
static bool l1p_cycle(struct tm_sm *s)
{
    if (!s->l1p_n || s->l1p_at[s->l1p_head] > s->now)
        return false;
    if (!l1_access(s, s->l1d, &s->l1p[s->l1p_head]))
        return true;
    s->l1p_head = (s->l1p_head + 1) % s->l1p_cap;
    s->l1p_n--;
    return false;
}

/* The reordering queues' turn at the L1D: the current queue until it is empty, then the next. */
static bool rq_cycle(struct tm_sm *s)
{
    struct rqueue *q = &s->rq[s->rq_cur];

    for (uint32_t k = 0; !q->n && k < s->nrq; k++) {
        s->rq_cur = (s->rq_cur + 1) % s->nrq;
        q = &s->rq[s->rq_cur];
    }
    if (q->at[q->head] > s->now)
        return false;
    if (!l1_hand(s, s->l1d, &q->buf[q->head]))
        return true;
    if (q->last[q->head])
        q->ninstr--;
    q->head = (q->head + 1) % q->cap;
    q->n--;
    s->rq_total--;
    return false;
}

/* Whether warp slot's reordering queue can take another instruction. */
static bool rq_room(const struct tm_sm *s, uint32_t slot)
{
    const struct rqueue *q = &s->rq[slot % s->nrq];

    return q->ninstr < s->rq_depth && q->cap - q->n >= INSTR_REQS_MAX;
}

/* The L1 a queued request goes to: constant, texture or data cache. */
static struct mem_cache *l1_of(const struct tm_sm *s, const struct mem_req *r)
{
    return r->space == MEM_CONST ? s->l1c : r->space == MEM_TEX ? s->l1t : s->l1d;
}

/* The LD/ST unit hands its next request to the cache. Returns true on a reservation failure. */
static bool ldst_cycle(struct tm_sm *s)
{
    const struct mem_req *r = &s->ldq[s->ldq_head];

    if (!s->ldq_n)
        return s->rq_total ? rq_cycle(s) : false;
    if (s->ldq_at[s->ldq_head] > s->now)
        return false;
    if (!l1_hand(s, l1_of(s, r), r))
        return true;
    s->ldq_insts -= s->ldq_last[s->ldq_head];
    s->ldq_head = (s->ldq_head + 1) % LDQ_CAP;
    s->ldq_n--;
    return false;
}

/* ------------------------------------------------------------------ issue */

static const struct tm_iinfo *next_instr(struct tm_sm *s, struct hwarp *h, uint32_t *fidx,
                                         uint32_t *pc)
{
    if (!h->cur_in_pc || !h->cur_in_fn)
        return NULL;
    *fidx = h->cur_fidx;
    *pc = h->cur_pc;
    if (h->nx_ii && h->nx_pc == *pc && h->nx_fidx == *fidx)
        return h->nx_ii;
    if (*pc >= s->L->p->m->funcs[*fidx]->ninstrs)
        return NULL;
    h->nx_ii = tm_itable_get(s->it, *fidx, *pc);
    h->nx_fidx = *fidx;
    h->nx_pc = *pc;
    return h->nx_ii;
}

enum why { W_NONE, W_SYNC, W_FETCH, W_CTRL, W_DATA, W_DMISS, W_MSHR, W_STRUCT, W_EXEC };

static int free_unit(const struct tm_sm *s, uint32_t unit)
{
    for (uint32_t i = 0; i < s->nunits[unit]; i++)
        if (s->unit_free[unit][i] <= s->now)
            return (int)i;
    return -1;
}

/* Why warp h cannot issue now (W_EXEC: it can), in the dissertation's fixed order. */
static enum why classify(struct tm_sm *s, struct hwarp *h, bool ldst_fail, struct cand *c)
{
    size_t base;

    if (h->w->state == ISA_WARP_BARRIER)
        return W_SYNC;
    if (h->w->state != ISA_WARP_READY)
        return W_SYNC;
    if (!h->ib_n || h->fetching || h->ib_ready > s->now)
        return h->ctrl ? W_CTRL : W_FETCH;
    if (h->blk_ok && h->blk_until > s->now)
        return (enum why)h->blk_why;
    c->ii = next_instr(s, h, &c->fidx, &c->pc);
    if (!c->ii || c->fidx != h->ib_fidx || c->pc != h->ib_pc) {
        /* The warp moved without issuing (a barrier released it past the bar): refetch. */
        h->ib_n = 0;
        return W_FETCH;
    }
    base = h->w->fr[h->w->nfr - 1].reg_base / ISA_WARP_SIZE;
    for (uint32_t i = 0; i < c->ii->nsrc + c->ii->ndst; i++) {
        uint32_t reg = i < c->ii->nsrc ? c->ii->src[i] : c->ii->dst[i - c->ii->nsrc];
        uint64_t t = base + reg < h->nready ? h->ready_at[base + reg] : 0;

        if (t > s->now) {
            if (t != NEVER) {
                h->blk_until = t;
                h->blk_why = W_DATA;
                h->blk_ok = true;
                return W_DATA;
            }
            if (!h->dmiss_seen) {
                h->dmiss_seen = true;
                return W_DATA;
            }
            h->blk_until = NEVER;
            h->blk_why = W_DMISS;
            h->blk_ok = true;
            return W_DMISS;
        }
    }
    if (c->ii->is_mem &&
        (s->ldq_insts >= s->prm->ldst_insts || s->ldq_n + INSTR_REQS_MAX > LDQ_CAP ||
         s->ldst_free > s->now || (s->nrq ? !rq_room(s, (uint32_t)(h - s->wp)) : false)))
        return ldst_fail ? W_MSHR : W_STRUCT;
    c->unit_idx = free_unit(s, c->ii->unit);
    if (c->unit_idx < 0)
        return W_STRUCT;
    return W_EXEC;
}

/* The warp's next instruction needs a register that an outstanding load will fill. */
static bool long_wait(struct tm_sm *s, struct hwarp *h)
{
    const struct tm_iinfo *ii;
    uint32_t fidx, pc;
    size_t base;

    if (!h->loads)
        return false;
    if (h->blk_ok)
        return h->blk_until == NEVER;
    if (!(ii = next_instr(s, h, &fidx, &pc)))
        return false;
    base = h->w->fr[h->w->nfr - 1].reg_base / ISA_WARP_SIZE;
    for (uint32_t i = 0; i < ii->nsrc + ii->ndst; i++) {
        uint32_t reg = i < ii->nsrc ? ii->src[i] : ii->dst[i - ii->nsrc];

        if (base + reg < h->nready && h->ready_at[base + reg] == NEVER)
            return true;
    }
    return false;
}

static uint32_t bank_extra(struct tm_sm *s, const struct tm_iinfo *ii, uint32_t slot)
{
    uint8_t cnt[64] = {0};
    uint32_t nb = s->prm->reg_banks, worst = 1;

    if (nb < 2 || ii->nsrc < 2)
        return 0;
    if (nb > 64)
        nb = 64;
    for (uint32_t i = 0; i < ii->nsrc; i++) {
        uint32_t b = (ii->src[i] + (s->prm->bank_use_warp_id ? slot : 0)) % nb;

        if (++cnt[b] > worst)
            worst = cnt[b];
    }
    s->k.reg_bank_conflicts += worst - 1;
    return worst - 1;
}

/*
 * Physical address of a local-memory offset, laid out as GPGPU-Sim's
 * -gpgpu_local_mem_map 1 does: 4-byte word w of every thread the GPU can
 * hold for this kernel forms one block (threads of a CTA contiguous, then
 * the CTAs of successive SMs, then the next CTA slot of each SM), so a
 * warp's accesses to one local variable coalesce.
 */
static uint64_t local_addr(const struct tm_sm *s, uint32_t slot, uint32_t lane, uint64_t off)
{
    const struct hwarp *h = &s->wp[slot];
    uint64_t cta_slot = (uint64_t)(h->cta - s->ctas);
    uint64_t t = (uint64_t)h->w->id * ISA_WARP_SIZE + lane;
    uint64_t base = s->local_cta_threads * (s->id + (uint64_t)s->env.nsm * cta_slot) + t;

    return LOCAL_BASE + ((off >> 2) * s->local_threads + base) * 4 + (off & 3);
}

enum lane_space { LS_GLOBAL, LS_LOCAL, LS_SHARED, LS_CONST, LS_PARAM, LS_COUNT };

static enum lane_space lane_space_of(uint8_t space, uint64_t *a)
{
    switch (space) {
    case ISA_SPACE_SHARED:
        return LS_SHARED;
    case ISA_SPACE_LOCAL:
        return LS_LOCAL;
    case ISA_SPACE_CONST:
        return LS_CONST;
    case ISA_SPACE_PARAM:
        return LS_PARAM;
    case ISA_SPACE_GENERIC:
        if (*a >= ISA_SHARED_WINDOW && *a < ISA_SHARED_WINDOW + ISA_WINDOW_SIZE) {
            *a -= ISA_SHARED_WINDOW;
            return LS_SHARED;
        }
        if (*a >= ISA_LOCAL_WINDOW && *a < ISA_LOCAL_WINDOW + ISA_LOCAL_WINDOW_SIZE) {
            *a -= ISA_LOCAL_WINDOW;
            return LS_LOCAL;
        }
        if (*a >= ISA_PARAM_WINDOW && *a < ISA_PARAM_WINDOW + ISA_WINDOW_SIZE)
            return LS_PARAM;
        return LS_GLOBAL;
    default:
        return LS_GLOBAL;
    }
}

static void queue_reqs(struct tm_sm *s, const struct mem_req *reqs, uint32_t n)
{
    uint64_t at = s->now + s->prm->oc_latency;

    if (s->nrq && reqs[0].space != MEM_CONST && reqs[0].space != MEM_TEX && n) {
        struct rqueue *q = &s->rq[reqs[0].warp % s->nrq];

        for (uint32_t i = 0; i < n && q->n < q->cap; i++) {
            uint32_t k = (q->head + q->n) % q->cap;

            q->buf[k] = reqs[i];
            q->last[k] = i == n - 1;
            q->at[k] = at;
            q->n++;
            s->rq_total++;
        }
        q->ninstr++;
        return;
    }
    for (uint32_t i = 0; i < n && s->ldq_n < LDQ_CAP; i++) {
        uint32_t k = (s->ldq_head + s->ldq_n) % LDQ_CAP;

        s->ldq[k] = reqs[i];
        s->ldq_at[k] = at;
        s->ldq_last[k] = i == n - 1;
        s->ldq_n++;
    }
    s->ldq_insts++;
}

/* Timing of a memory instruction that executed with `info`. Returns the cycle its result is ready.
 */
static uint64_t issue_mem(struct tm_sm *s, uint32_t slot, const struct isa_step_info *info,
                          const struct tm_iinfo *ii, uint32_t *rec_out)
{
    const struct tm_params *p = s->prm;
    const struct isa_instr *in = info->in;
    uint64_t addr[ISA_WARP_SIZE], ready = s->now + p->oc_latency + p->lat_int[0] + p->wb_latency;
    uint32_t mask[LS_COUNT] = {0};
    bool atomic = in->op == ISA_OP_ATOM || in->op == ISA_OP_RED;
    bool store = info->is_store && !atomic;
    struct mem_req tmpl = {0}, reqs[INSTR_REQS_MAX];
    uint32_t n = 0, nconst = 0;

    *rec_out = NO_REC;
    s->ldst_free = s->now + 1;
    if (!info->space || !info->active)
        return ready;
    for (uint32_t l = 0; l < ISA_WARP_SIZE; l++) {
        if (!(info->active >> l & 1))
            continue;
        addr[l] = info->addr[l];
        mask[lane_space_of(info->space, &addr[l])] |= UINT32_C(1) << l;
    }
    if (mask[LS_SHARED]) {
        uint32_t cyc = atomic && p->shmem_atomic_serialize
                           ? mem_shmem_atomic_cycles(addr, mask[LS_SHARED], p->shmem_banks)
                           : mem_shmem_cycles(addr, mask[LS_SHARED], info->size, p->shmem_banks,
                                              p->shmem_warp_parts, p->shmem_limited_bcast);

        s->k.shmem_accesses++;
        s->k.shmem_cycles += cyc;
        s->ldst_free = s->now + cyc;
        /* operand collection, the shared-memory pipe, then the LD/ST write-back stage */
        ready = s->now + p->oc_latency + p->smem_latency + cyc + ldst_wb(s);
    }
    tmpl.sm = (uint16_t)s->id;
    tmpl.warp = (uint16_t)slot;
    tmpl.pc = info->pc;
    tmpl.fidx = info->fidx;
    tmpl.cacheop = in->cache;
    tmpl.uid = NEVER;
    tmpl.type = atomic ? MEM_ATOMIC : store ? MEM_WRITE : MEM_READ;
    if (mask[LS_CONST] | mask[LS_PARAM]) {
        /*
         * Kernel parameters sit in constant memory: ld.param goes through
         * the constant cache as ld.const does (GPGPU-Sim's constant_cycle
         * takes both), at timing addresses in the parameter window.
         */
        for (uint32_t l = 0; l < ISA_WARP_SIZE; l++)
            if ((mask[LS_PARAM] >> l & 1) && addr[l] < ISA_WINDOW_SIZE)
                addr[l] += ISA_PARAM_WINDOW;
        tmpl.space = MEM_CONST;
        nconst = mem_coalesce(addr, mask[LS_CONST] | mask[LS_PARAM], info->size, p->l1c.line_bytes,
                              &tmpl, reqs);
        n = nconst;
    } else if (in->op == ISA_OP_TEX || in->op == ISA_OP_TLD4) {
        /* Texture fetches go through the texture cache (-gpgpu_tex_cache:l1). */
        tmpl.space = MEM_TEX;
        n = mem_coalesce(addr, mask[LS_GLOBAL], info->size, p->l1t.line_bytes, &tmpl, reqs);
    } else if (mask[LS_GLOBAL] | mask[LS_LOCAL]) {
        uint32_t line = atomic || p->skip_l1d || in->cache == ISA_CACHE_CG ? MEM_SECTOR_BYTES
                                                                           : p->l1d.line_bytes;

        if (mask[LS_GLOBAL]) {
            tmpl.space = MEM_GLOBAL;
            n = mem_coalesce(addr, mask[LS_GLOBAL], info->size, line, &tmpl, reqs);
        }
        if (mask[LS_LOCAL]) {
            /*
             * As GPGPU-Sim does: a lane's access has the size of the element
             * type (a vector's other elements are not counted), split into
             * 4-byte words when wider, each word at its own place (local_addr).
             */
            uint32_t esize = in->vec > 1 ? info->size / in->vec : info->size;
            uint32_t words = esize > 4 ? (esize > 32 ? 8 : esize / 4) : 1;
            uint64_t la[ISA_WARP_SIZE];

            tmpl.space = MEM_LOCAL;
            for (uint32_t w = 0; w < words; w++) {
                for (uint32_t l = 0; l < ISA_WARP_SIZE; l++)
                    la[l] = mask[LS_LOCAL] >> l & 1 ? local_addr(s, slot, l, addr[l] + 4 * w) : 0;
                n += mem_coalesce(la, mask[LS_LOCAL], words > 1 ? 4 : esize, line, &tmpl, reqs + n);
            }
        }
        s->k.gmem_insts++;
        s->k.gmem_reqs += n;
    }
    if (!n)
        return ready;
    s->k.const_reqs += nconst;
    if (!store && ii->ndst) {
        uint32_t r = rec_alloc(s);

        if (r != NO_REC) {
            struct ldrec *lr = &s->recs[r];

            lr->slot = slot;
            lr->remaining = n;
            lr->ndst = 0;
            for (uint32_t i = 0; i < n; i++)
                reqs[i].uid = r;
            *rec_out = r;
            ready = NEVER;
        }
    }
    if (store) /* each queued store holds its warp until the L1 has taken it (l1_hand) */
        s->wp[slot].stores += n;
    queue_reqs(s, reqs, n);
    return ready;
}

/*
 * A branch the warp just executed, for a scheduler that wants the outcomes
 * (CAWA): each path it now has, the new SIMT stack entries when it diverged
 * (sp0: the depth before), else the top.
 */
static void branch_outcomes(struct tm_sm *s, uint32_t slot, const struct cand *c, uint32_t sp0)
{
    const struct isa_warp *w = s->wp[slot].w;
    void *st = s->sched[slot % s->prm->nsched];

    if (!s->env.ws->on_branch || w->state == ISA_WARP_DONE || !w->sp ||
        w->fr[w->nfr - 1].fidx != c->fidx ||
        w->cta->L->p->m->funcs[c->fidx]->instrs[c->pc].op != ISA_OP_BRA)
        return;
    for (uint32_t i = w->sp > sp0 ? sp0 : w->sp - 1; i < w->sp; i++)
        s->env.ws->on_branch(st, slot, c->pc, w->st[i].pc, s->now);
}

/* After issue: keep the I-buffer if the warp continues in sequence, else flush it. */
static void ibuffer_advance(struct tm_sm *s, struct hwarp *h, const struct tm_iinfo *ii)
{
    const struct isa_warp *w = h->w;
    uint32_t fidx, pc;

    if (w->state == ISA_WARP_DONE || !w->sp) {
        h->ib_n = 0;
        return;
    }
    fidx = w->fr[w->nfr - 1].fidx;
    pc = w->st[w->sp - 1].pc;
    if (h->ib_n > 1 && fidx == h->ib_fidx && pc == h->ib_pc + 1) {
        h->ib_pc++;
        h->ib_n--;
        h->ctrl = false;
        return;
    }
    h->ctrl = ii->is_ctrl && !(fidx == h->ib_fidx && pc == h->ib_pc + 1);
    h->ib_n = 0;
    (void)s;
}

/* Cycles an ALU result spends outside its pipe: operand collection before, write-back after. */
static uint32_t p_oc_wb(const struct tm_sm *s)
{
    return s->prm->oc_latency + s->prm->wb_latency;
}

static int issue(struct tm_sm *s, uint32_t slot, const struct cand *c)
{
    struct hwarp *h = &s->wp[slot];
    struct isa_warp *w = h->w;
    const struct tm_iinfo *ii = c->ii;
    struct isa_step_info info;
    size_t base = w->fr[w->nfr - 1].reg_base / ISA_WARP_SIZE;
    uint32_t extra = bank_extra(s, ii, slot), rec = NO_REC;
    uint64_t ready;
    int rc;

    uint32_t sp0 = w->sp;

    info.space = 0;
    h->blk_ok = false;
    rc = isa_warp_step(w, &info);
    pc_sync(h);
    if (rc)
        return rc;
    if (ii->is_ctrl)
        branch_outcomes(s, slot, c, sp0);
    if (grow_ready(h))
        return ps_err_set(s->L->err, PS_ENOMEM, "out of memory");
    s->k.issued++;
    if (s->lines)
        tm_lines_exec(s->lines, c->fidx, c->pc);
    h->insts++;
    h->last_issue = s->now;
    if (ii->is_mem) {
        ready = issue_mem(s, slot, &info, ii, &rec);
        if (rec != NO_REC) {
            for (uint32_t i = 0; i < ii->ndst; i++)
                s->recs[rec].dst[s->recs[rec].ndst++] = (uint32_t)(base + ii->dst[i]);
            h->loads++;
            events(s, POL_WARP_LOAD_ISSUED, slot);
        }
    } else {
        s->unit_free[ii->unit][c->unit_idx] = s->now + ii->ii;
        ready = s->now + p_oc_wb(s) + ii->lat + extra;
    }
    for (uint32_t i = 0; i < ii->ndst; i++)
        if (base + ii->dst[i] < h->nready)
            h->ready_at[base + ii->dst[i]] = ready;
    if (w->state == ISA_WARP_BARRIER)
        events(s, POL_WARP_BARRIER, slot);
    /* bar.arrive does not wait but may complete a barrier others wait at. */
    if (ii->is_bar)
        isa_cta_release_barriers(&h->cta->c);
    ibuffer_advance(s, h, ii);
    if (w->state == ISA_WARP_DONE) {
        h->exited = true;
        if (s->env.warp_profile)
            fprintf(s->env.warp_profile,
                    "%" PRIu64 ",%" PRIu64 ",%" PRIu32 ",%" PRIu32 ",%" PRIu64 ",%" PRIu64 "\n",
                    s->L->gridid, h->cta->c.linear, w->id, s->id, h->born, s->now);
        if (!h->loads && !h->stores)
            warp_free(s, slot);
    }
    return 0;
}

static void fill_view(struct tm_sm *s, uint32_t slot, struct pol_warp_view *v, bool ready)
{
    struct hwarp *h = &s->wp[slot];

    v->slot = slot;
    v->valid = h->w && !h->exited;
    v->ready = ready;
    v->at_barrier = h->w && h->w->state == ISA_WARP_BARRIER;
    v->long_wait = h->w && long_wait(s, h);
    v->age = h->age;
    v->cta = h->cta ? (uint32_t)(h->cta - s->ctas) : 0;
    v->pc = h->w ? h->cur_pc : 0;
    v->insts = h->insts;
    v->last_issue = h->last_issue;
    v->paused = h->cta && h->cta->paused;
    v->grid = s->L ? s->L->gridid : 0;
    v->cta_id = h->cta ? (uint32_t)h->cta->c.linear : 0; /* a policy's view: low 32 bits */
    v->warp_in_cta = h->w ? h->w->id : 0;
}

static void count_why(struct tm_sm *s, enum why y)
{
    switch (y) {
    case W_SYNC:
        s->k.st_sync++;
        break;
    case W_FETCH:
        s->k.st_fetch++;
        break;
    case W_CTRL:
        s->k.st_ctrl++;
        break;
    case W_DATA:
        s->k.st_data++;
        break;
    case W_DMISS:
        s->k.st_dmiss++;
        break;
    case W_MSHR:
        s->k.st_mshr++;
        break;
    case W_STRUCT:
        s->k.st_struct++;
        break;
    case W_EXEC:
        s->k.st_exec++;
        break;
    default:
        break;
    }
}

static enum tm_line_stall line_stall(enum why y)
{
    static const enum tm_line_stall map[] = {
        [W_SYNC] = TM_LS_SYNC,        [W_FETCH] = TM_LS_FETCH,       [W_CTRL] = TM_LS_CONTROL,
        [W_DATA] = TM_LS_DATA,        [W_DMISS] = TM_LS_DCACHE_MISS, [W_MSHR] = TM_LS_MSHR,
        [W_STRUCT] = TM_LS_STRUCTURAL};

    return y < sizeof(map) / sizeof(map[0]) && y != W_NONE ? map[y] : TM_LS_COUNT;
}

/* Paused CTAs' warps go after every running one, each group in the policy's order. */
static void paused_last(struct tm_sm *s, uint32_t n)
{
    uint32_t tmp[64], k = 0;

    if (n > 64)
        return;
    for (uint32_t i = 0; i < n; i++)
        if (!s->views[s->order[i]].paused)
            tmp[k++] = s->order[i];
    for (uint32_t i = 0; i < n; i++)
        if (s->views[s->order[i]].paused)
            tmp[k++] = s->order[i];
    memcpy(s->order, tmp, n * sizeof(*tmp));
}

/* The CTA policy's run limit: the earliest-assigned CTAs run, the rest are paused. */
static void update_paused(struct tm_sm *s)
{
    uint32_t lim;

    if (!s->env.cs || !s->env.cs->run_limit || !s->nctas) {
        s->any_paused = false;
        return;
    }
    lim = s->env.cs->run_limit(s->env.cs_st, s->id);
    s->any_paused = false;
    for (uint32_t i = 0; i < s->prm->max_ctas; i++) {
        struct cta *c = &s->ctas[i];
        uint32_t older = 0;

        if (!c->used)
            continue;
        for (uint32_t j = 0; j < s->prm->max_ctas; j++)
            older += s->ctas[j].used && s->ctas[j].seq < c->seq;
        c->paused = older >= lim;
        s->any_paused |= c->paused;
    }
}

/*
 * In the parallel part of a split cycle, an instruction whose effects reach
 * beyond its warp and CTA waits for the ordered part; after one has, so do
 * later ones that touch the CTA (shared memory, barriers) or the pc, which
 * the deferred one might see in the sequential order. ALU work goes on.
 */
static bool must_defer(const struct tm_sm *s, const struct cand *c)
{
    return !c->ii->local_fx || (s->cyc.ndef && (c->ii->is_mem || c->ii->is_bar || c->ii->is_ctrl));
}

/*
 * The deferred instruction's effects on the rest of the cycle are known
 * now: the LD/ST unit is taken for this cycle, or its pipe (issue() sets the
 * same values again). Nothing else a later scheduler reads depends on it.
 */
static void defer(struct tm_sm *s, uint32_t sid, const struct pol_warp_view *v,
                  const struct cand *c)
{
    struct deferred *d = &s->cyc.def[s->cyc.ndef++];

    d->v = *v;
    d->c = *c;
    d->sid = sid;
    if (c->ii->is_mem)
        s->ldst_free = s->now + 1;
    else
        s->unit_free[c->ii->unit][c->unit_idx] = s->now + c->ii->ii;
    s->k.sched_issue++;
}

/* One scheduler: ask the policy for an order, issue the first warp that can go. */
static int schedule(struct tm_sm *s, uint32_t sid, bool ldst_fail, struct cycle_sum *sum)
{
    const struct pol_warp_sched_ops *ws = s->env.ws;
    uint32_t nv = 0, n;

    for (uint32_t k = 0; k < s->nsorder[sid]; k++) {
        uint32_t slot = s->sorder[sid * s->nviews_per_sched + k];
        const struct hwarp *h = &s->wp[slot];

        if (!h->w || h->exited)
            continue;
        fill_view(s, slot, &s->views[nv],
                  !h->fetching && h->ib_n && h->ib_ready <= s->now &&
                      h->w->state == ISA_WARP_READY);
        if (s->views[nv].long_wait)
            sum->mem_wait = true;
        nv++;
    }
    s->k.sched_cycles++;
    if (!nv) {
        s->k.sched_empty++;
        return 0;
    }
    n = ws->order(s->sched[sid], s->views, nv, s->order, s->now);
    if (s->any_paused)
        paused_last(s, n);
    for (uint32_t k = 0; k < n; k++) {
        const struct pol_warp_view *v = &s->views[s->order[k]];
        struct hwarp *h = &s->wp[v->slot];
        struct cand c = {0};
        enum why y;

        if (!v->valid)
            continue;
        y = classify(s, h, ldst_fail, &c);
        if (y == W_EXEC && ws->may_issue) {
            struct pol_instr_view iv = {.is_mem = c.ii->is_mem, .pc = c.pc};
            const struct isa_instr *in = &h->w->cta->L->p->m->funcs[c.fidx]->instrs[c.pc];

            iv.space = in->space;
            iv.is_load = c.ii->is_mem && (in->op == ISA_OP_LD || in->op == ISA_OP_LDU) &&
                         in->space != ISA_SPACE_SHARED && in->space != ISA_SPACE_PARAM &&
                         in->space != ISA_SPACE_CONST;
            iv.is_atomic =
                (in->op == ISA_OP_ATOM || in->op == ISA_OP_RED) && in->space != ISA_SPACE_SHARED;
            if (!ws->may_issue(s->sched[sid], v, &iv))
                y = W_STRUCT;
        }
        count_why(s, y);
        if (s->lines && y != W_EXEC)
            tm_lines_stall(s->lines, h->w, line_stall(y));
        if (y == W_STRUCT || y == W_MSHR)
            sum->structural = true;
        if (y != W_EXEC)
            continue;
        if (s->in_par && must_defer(s, &c)) {
            defer(s, sid, v, &c);
            sum->issued = true;
            return 0;
        }
        int rc = issue(s, v->slot, &c);
        if (rc)
            return rc;
        if (ws->on_issue)
            ws->on_issue(s->sched[sid], v, s->now);
        s->k.sched_issue++;
        sum->issued = true;
        return 0;
    }
    return 0;
}

/* ------------------------------------------------------------------ fetch */

static bool fetch(struct tm_sm *s)
{
    bool any = false;

    uint32_t nw = s->prm->max_warps;

    for (uint32_t f = 0; f < s->prm->fetch_per_cycle; f++)
        for (uint32_t k = 0; k < 2 * nw; k++) {
            uint32_t slot = (s->fetch_rr + k) % nw;
            struct hwarp *h = &s->wp[slot];
            struct mem_req r = {0};
            enum mem_cache_result res;
            uint32_t fidx, pc;

            if (k >= nw && !s->any_paused)
                break;
            if (!h->w || h->exited || h->ib_n || h->fetching || h->w->state == ISA_WARP_DONE ||
                !h->w->sp)
                continue;
            /* First pass: running CTAs only; paused ones get the fetch slot when nobody else wants
             * it. */
            if (s->any_paused && h->cta->paused != (k >= nw))
                continue;
            fidx = h->w->fr[h->w->nfr - 1].fidx;
            pc = h->w->st[h->w->sp - 1].pc;
            r.addr = INST_BASE + ((uint64_t)fidx << 24) + (uint64_t)pc * INST_BYTES;
            r.addr -= r.addr % s->prm->l1i.line_bytes;
            r.bytes = s->prm->l1i.line_bytes;
            r.sector_mask = 0xf;
            r.type = MEM_READ;
            r.space = MEM_INST;
            r.sm = (uint16_t)s->id;
            r.warp = (uint16_t)slot;
            r.pc = pc;
            r.fidx = fidx;
            r.uid = slot;
            res = mem_cache_access(s->l1i, &r, s->now);
            if (res == MEM_RESFAIL)
                continue;
            s->k.ifetch_reqs++;
            h->ib_fidx = fidx;
            h->ib_pc = pc;
            h->ib_n = s->prm->ibuffer;
            h->ctrl = false;
            if (res == MEM_HIT)
                h->ib_ready = s->now + 1;
            else
                h->fetching = true;
            s->fetch_rr = (slot + 1) % nw;
            any = true;
            break;
        }
    return any;
}

/* ------------------------------------------------------------------ cycle */

/*
 * CAWA's prediction accuracy (dissertation ch. 4): every sampling period,
 * each resident warp is classified slow or not by the warp scheduler's
 * predictor; when a CTA finishes, the samples of its last warp (the truly
 * critical one, slowest by execution time) say how often the prediction
 * was right.
 */
static void crit_sample(struct tm_sm *s, uint64_t now)
{
    for (uint32_t i = 0; i < s->prm->max_warps; i++) {
        int r;

        if (!s->wp[i].w || (r = warp_critical(s, i, now)) < 0)
            continue;
        s->wp[i].crit_samples++;
        s->wp[i].crit_slow += (uint32_t)r;
    }
    s->crit_next = now + s->prm->sample_period;
}

/* The earliest cycle after now at which this SM could do anything new without a reply. */
static uint64_t wake_time(struct tm_sm *s)
{
    uint64_t wake = NEVER, now = s->now;

    if (s->env.ws->criticality && s->crit_next > now)
        wake = s->crit_next;

    if (s->rq_total || mem_cache_peek_miss(s->l1i) || mem_cache_peek_miss(s->l1c) ||
        mem_cache_peek_miss(s->l1t) || mem_cache_peek_miss(s->l1d))
        return now + 1;
    if (s->ldq_n) {
        if (s->ldq_at[s->ldq_head] <= now + 1)
            return now + 1;
        wake = s->ldq_at[s->ldq_head] < wake ? s->ldq_at[s->ldq_head] : wake;
    }
    if (s->l1p_n) {
        if (s->l1p_at[s->l1p_head] <= now + 1)
            return now + 1;
        wake = s->l1p_at[s->l1p_head] < wake ? s->l1p_at[s->l1p_head] : wake;
    }
    if (s->hits_n && s->hits[s->hits_head].at < wake)
        wake = s->hits[s->hits_head].at;
    if (s->ldst_free > now && s->ldst_free < wake)
        wake = s->ldst_free;
    for (uint32_t u = 0; u < TM_UNIT_COUNT; u++)
        for (uint32_t i = 0; i < s->nunits[u]; i++)
            if (s->unit_free[u][i] > now && s->unit_free[u][i] < wake)
                wake = s->unit_free[u][i];
    for (uint32_t slot = 0; slot < s->prm->max_warps; slot++) {
        struct hwarp *h = &s->wp[slot];
        const struct tm_iinfo *ii;
        uint32_t fidx, pc;
        size_t base;
        bool blocked = false;

        if (!h->w || h->exited || h->w->state != ISA_WARP_READY)
            continue;
        if (!h->ib_n) {
            if (h->fetching)
                continue;
            return now + 1;
        }
        if (h->ib_ready > now) {
            wake = h->ib_ready < wake ? h->ib_ready : wake;
            continue;
        }
        ii = next_instr(s, h, &fidx, &pc);
        if (!ii || fidx != h->ib_fidx || pc != h->ib_pc)
            return now + 1;
        base = h->w->fr[h->w->nfr - 1].reg_base / ISA_WARP_SIZE;
        for (uint32_t i = 0; i < ii->nsrc + ii->ndst; i++) {
            uint32_t reg = i < ii->nsrc ? ii->src[i] : ii->dst[i - ii->nsrc];
            uint64_t t = base + reg < h->nready ? h->ready_at[base + reg] : 0;

            if (t > now) {
                blocked = true;
                wake = t < wake ? t : wake;
            }
        }
        if (!blocked) /* waits for a pipe (covered above) or a policy's decision */
            return now + 1;
    }
    return wake;
}

/* This SM's instruction counts join the launch's, in SM order; see tm_sm.Lv. */
static void fold_in(struct tm_sm *s)
{
    if (!s->Lreal)
        return;
    s->Lv.warp_insts += s->Lreal->warp_insts;
    s->Lv.thread_insts += s->Lreal->thread_insts;
}

static void fold_out(struct tm_sm *s)
{
    if (!s->Lreal)
        return;
    s->Lreal->warp_insts = s->Lv.warp_insts;
    s->Lreal->thread_insts = s->Lv.thread_insts;
    s->Lv.warp_insts = s->Lv.thread_insts = 0;
}

/*
 * The schedulers from `from` on. When they share state (ws_shared: CCWS's
 * point system per SM), a later scheduler's choice may depend on what a
 * deferred issue tells the policy, so after a deferral the parallel part
 * stops and the ordered part runs the rest.
 */
static int run_schedulers(struct tm_sm *s, uint32_t from)
{
    for (uint32_t i = from; i < s->prm->nsched; i++) {
        int rc = schedule(s, i, s->cyc.ldst_fail, &s->cyc.sum);

        if (rc)
            return rc;
        if (s->in_par && s->ws_shared && s->cyc.ndef) {
            s->cyc.next_sid = i + 1;
            return 0;
        }
    }
    s->cyc.next_sid = s->prm->nsched;
    return 0;
}

/* The first half of a cycle: everything up to the schedulers' issues. */
static int cycle_head(struct tm_sm *s, uint64_t now)
{
    struct split_cycle *c = &s->cyc;

    s->now = now;
    c->was_quiet = s->quiet;
    if (now < s->sleep_until) {
        if (!mem_system_reply_ready(s->env.ms, s->id)) {
            ps_counters_add(&s->k, &s->delta, PS_NCOUNTERS(s->k));
            return 0;
        }
        s->sleep_until = 0;
        c->was_quiet = false;
    }
    if (c->was_quiet)
        s->before = s->k;
    s->k.cycles++;
    if (!s->nctas && tm_sm_idle(s)) {
        /* An SM without work during a kernel is idle (DYNCTA's C_idle; it also lowers RACT). */
        if (s->L) {
            s->k.n_inact++;
            s->k.c_idle++;
        }
        return 0;
    }
    c->open = true;
    if (s->nctas)
        s->k.busy_cycles++;
    s->k.warps_resident += s->nwarps_res;
    if (s->env.ws->criticality && now >= s->crit_next)
        crit_sample(s, now);
    c->active = take_replies(s);
    c->active |= send_miss(s);
    /* Requests still on their way to the L1 keep the SM awake only once they are due. */
    c->active |= (s->ldq_n > 0 && s->ldq_at[s->ldq_head] <= now + 1) || s->rq_total > 0 ||
                 (s->l1p_n > 0 && s->l1p_at[s->l1p_head] <= now + 1);
    c->ldst_fail = l1p_cycle(s);
    c->ldst_fail |= ldst_cycle(s);
    update_paused(s);
    return run_schedulers(s, 0);
}

/* The rest of an open cycle: fetch, the cycle's classification, sleeping. */
static void cycle_tail(struct tm_sm *s)
{
    struct split_cycle *c = &s->cyc;
    uint64_t now = s->now;

    c->active |= fetch(s);
    if (c->sum.issued) {
        s->k.n_act++;
    } else {
        /*
         * A warp waiting on a long-latency load makes the cycle a memory cycle
         * even when another is refused by the LD/ST unit or MSHRs (that refusal
         * is memory pressure too); pipe-only stalls count in neither counter.
         */
        s->k.n_inact++;
        if (c->sum.mem_wait)
            s->k.c_mem++;
        else if (c->sum.structural)
            s->k.c_stall++;
        else
            s->k.c_idle++;
    }
    /* Per-line stalls are counted cycle by cycle, so a profiled SM never skips cycles. */
    s->quiet = !c->sum.issued && !c->active && s->nctas && !s->lines;
    if (c->was_quiet && s->quiet) {
        uint64_t wake = wake_time(s);

        if (wake > now + 1) {
            s->sleep_until = wake;
            ps_counters_sub(&s->delta, &s->k, &s->before, PS_NCOUNTERS(s->k));
        }
    }
}

int tm_sm_cycle_begin(struct tm_sm *s, uint64_t now, bool par)
{
    struct split_cycle *c = &s->cyc;

    c->open = c->send_ok = false;
    c->ndef = c->popped = c->stalls = 0;
    c->next_sid = s->prm->nsched;
    c->sum = (struct cycle_sum){false, false, false};
    if (!par)
        fold_in(s);
    s->in_par = par;
    c->rc = cycle_head(s, now);
    s->in_par = false;
    return c->rc;
}

int tm_sm_cycle_ordered(struct tm_sm *s, bool par)
{
    struct split_cycle *c = &s->cyc;
    int rc = c->rc;

    if (par) {
        fold_in(s);
        if (c->popped || c->stalls || c->send_ok)
            mem_system_settle(s->env.ms, s->id, c->send_ok ? &c->send : NULL, c->popped, c->stalls);
    }
    for (uint32_t i = 0; !rc && i < c->ndef; i++) {
        const struct deferred *d = &c->def[i];

        if (!(rc = issue(s, d->v.slot, &d->c)) && s->env.ws->on_issue)
            s->env.ws->on_issue(s->sched[d->sid], &d->v, s->now);
    }
    c->ndef = 0;
    if (!rc && c->open && c->next_sid < s->prm->nsched)
        rc = run_schedulers(s, c->next_sid);
    fold_out(s);
    c->rc = rc;
    return rc;
}

void tm_sm_cycle_end(struct tm_sm *s)
{
    if (!s->cyc.rc && s->cyc.open)
        cycle_tail(s);
}

int tm_sm_cycle(struct tm_sm *s, uint64_t now)
{
    int rc;

    tm_sm_cycle_begin(s, now, false);
    rc = tm_sm_cycle_ordered(s, false); /* begin's error, after the counts are folded */
    tm_sm_cycle_end(s);
    return rc;
}

/* Worth stepping this cycle (awake with work): how the GPU decides whether to go parallel. */
bool tm_sm_awake(const struct tm_sm *s, uint64_t now)
{
    return s->nctas && (now >= s->sleep_until || mem_system_reply_ready(s->env.ms, s->id));
}

bool tm_sm_idle(const struct tm_sm *s)
{
    return !s->nctas && !s->ldq_n && !s->l1p_n && !s->rq_total && !s->hits_n &&
           !mem_cache_busy(s->l1d) && !mem_cache_busy(s->l1i) && !mem_cache_busy(s->l1c) &&
           !mem_cache_busy(s->l1t);
}

uint64_t tm_sm_issued(const struct tm_sm *s)
{
    return s->k.issued;
}

struct isa_warp *tm_sm_barrier_warp(const struct tm_sm *s)
{
    for (uint32_t i = 0; i < s->prm->max_warps; i++)
        if (s->wp[i].w && s->wp[i].w->state == ISA_WARP_BARRIER)
            return s->wp[i].w;
    for (uint32_t i = 0; i < s->prm->max_warps; i++)
        if (s->wp[i].w && !s->wp[i].exited)
            return s->wp[i].w;
    return NULL;
}

int tm_sm_dump_sched(const struct tm_sm *s, FILE *out, struct ps_err *err)
{
    for (uint32_t i = 0; s->env.ws->dump && i < s->prm->nsched; i++) {
        int rc;

        fprintf(out, "# sm %u scheduler %u\n", s->id, i);
        if ((rc = s->env.ws->dump(s->sched[i], out, err)))
            return rc;
    }
    return 0;
}

void tm_sm_set_lines(struct tm_sm *s, struct tm_line_prog *lines)
{
    s->lines = lines;
}

const struct tm_sm_counters *tm_sm_get_counters(const struct tm_sm *s)
{
    return &s->k;
}

const struct mem_cache *tm_sm_l1d(const struct tm_sm *s)
{
    return s->l1d;
}

const struct mem_cache *tm_sm_l1i(const struct tm_sm *s)
{
    return s->l1i;
}

const struct mem_cache *tm_sm_l1c(const struct tm_sm *s)
{
    return s->l1c;
}

const struct mem_cache *tm_sm_l1t(const struct tm_sm *s)
{
    return s->l1t;
}
