/* The SM's LD/ST unit; see ldst.h. */
#include "timing/ldst.h"

#include <stdlib.h>

#include "common/ring.h"
#include "isa/devmem.h"
#include "isa/opcode.h"
#include "memsys/coalesce.h"
#include "memsys/frontq.h"
#include "timing/l1d_trace.h"
#include "timing/line_stats.h"
#include "timing/scoreboard.h"

/* The LD/ST queue holds the requests of several instructions (prm->ldst_insts). */
#define LDQ_CAP (TM_INSTR_REQS_MAX * 2)

struct ldrec {
    uint32_t slot;      /* warp slot */
    uint32_t remaining; /* requests not yet answered */
    uint32_t ndst;
    uint32_t dst[TM_MAX_DST]; /* register-pool indices */
    uint32_t next_free;
};

/* A request between issue and the L1: due at `at`; `last` ends its instruction. */
struct queued {
    struct mem_req r;
    uint64_t at;
    bool last;
};

/* An L1 hit waiting out the hit latency. */
struct hit {
    uint64_t at;
    uint64_t uid;
};

struct tm_ldst {
    struct tm_ldst_env env;
    const struct tm_params *prm;
    /*
     * The requests of the memory instructions between issue and the L1, in
     * issue order (struct queued). A request reaches the L1 no earlier than
     * its `at` (issue + operand collection); ldq_insts counts the
     * instructions with requests still queued.
     */
    struct ps_ring ldq;
    uint32_t ldq_insts;
    /*
     * GPGPU-Sim's L1 latency queue (struct queued): requests for the L1D
     * enter it one a cycle and look up the L1D's tags -gpgpu_l1_latency
     * cycles later, where a reservation failure holds the head (and so the
     * queue) until it succeeds. A hit is then done; a miss only now goes to
     * the L2.
     */
    struct ps_ring l1p;
    /*
     * The heads' `at` (UINT64_MAX: empty), kept by every push and pop: the
     * unit asks every cycle whether a head is due, and the head itself is
     * seldom in the cache.
     */
    uint64_t ldq_at, l1p_at;
    struct mem_frontq *fq; /* the L1D policy's front queues, or NULL */
    struct ps_ring hits;   /* struct hit, in time order (constant latency) */
    struct ldrec *recs;
    uint32_t nrecs, free_rec;
    uint64_t ldst_free;
    uint64_t gen; /* bumped when what tm_ldst_accepts reads changes (tm_ldst_gen) */
    uint32_t send_rr;
    /* Local-memory layout of the running kernel (local_addr): padded CTA size, GPU threads. */
    uint64_t local_cta_threads, local_threads;
    struct tm_line_prog *lines;
    bool moved; /* this cycle's tm_ldst_cycle moved a queued request on (tm_ldst_stuck) */
};

struct tm_ldst *tm_ldst_create(const struct tm_ldst_env *env, struct ps_err *err)
{
    struct tm_ldst *u = calloc(1, sizeof(*u));
    uint32_t nq = 0, depth = 0;
    bool oom = false;

    if (!u)
        goto oom;
    u->env = *env;
    u->prm = env->prm;
    u->free_rec = TM_NO_REC;
    u->ldq_at = u->l1p_at = UINT64_MAX;
    if (ps_ring_init(&u->ldq, sizeof(struct queued), LDQ_CAP) ||
        ps_ring_init(&u->l1p, sizeof(struct queued), u->prm->l1_latency ? u->prm->l1_latency : 1) ||
        ps_ring_init(&u->hits, sizeof(struct hit), 256))
        goto oom;
    mem_cache_policy_reorder(env->l1d, &nq, &depth);
    u->fq = mem_frontq_create(nq, depth, TM_INSTR_REQS_MAX, &oom);
    if (oom)
        goto oom;
    return u;
oom:
    ps_err_set(err, PS_ENOMEM, "out of memory");
    tm_ldst_destroy(u);
    return NULL;
}

void tm_ldst_destroy(struct tm_ldst *u)
{
    if (!u)
        return;
    ps_ring_fini(&u->ldq);
    ps_ring_fini(&u->l1p);
    ps_ring_fini(&u->hits);
    mem_frontq_destroy(u->fq);
    free(u->recs);
    free(u);
}

void tm_ldst_kernel_begin(struct tm_ldst *u, uint64_t threads, uint32_t max_ctas)
{
    u->local_cta_threads = (threads + ISA_WARP_SIZE - 1) / ISA_WARP_SIZE * ISA_WARP_SIZE;
    u->local_threads = u->local_cta_threads * (max_ctas ? max_ctas : 1) * u->env.nsm;
}

/* -ptxsim_l1d_trace: one record of what this SM's L1D saw. */
static void l1d_trace(const struct tm_ldst *u, const struct mem_req *r, enum tm_l1d_trace_kind kind)
{
    struct tm_l1d_trace_rec t = {.sm = (uint16_t)u->env.sm, .kind = (uint8_t)kind};

    if (r) {
        t.line = r->addr / u->prm->l1d.line_bytes;
        t.warp = r->warp;
        t.set = (uint16_t)mem_cache_geom_set_index(&u->prm->l1d, r->addr);
    }
    fwrite(&t, sizeof(t), 1, u->env.l1d_trace);
}

void tm_ldst_kernel_end(struct tm_ldst *u)
{
    if (u->prm->flush_l1) {
        mem_cache_invalidate(u->env.l1d);
        if (u->env.l1d_trace)
            l1d_trace(u, NULL, TM_L1D_TRACE_FLUSH);
    }
    /*
     * GPGPU-Sim's kernel-end flush (ldst_unit::invalidate) reaches the L1D only: the
     * constant, texture and instruction caches keep their lines, so the next kernel's
     * parameter loads hit where the last one's were. The caches hold tags, not values,
     * so a constant the host changed between kernels is read right either way.
     */
    if (u->prm->flush_ro) {
        mem_cache_invalidate(u->env.l1c);
        mem_cache_invalidate(u->env.l1t);
    }
}

void tm_ldst_set_lines(struct tm_ldst *u, struct tm_line_prog *lines)
{
    u->lines = lines;
}

/* ------------------------------------------------------------ load records */

/*
 * Cycles from a load's data reaching the LD/ST unit (L1 hit latency elapsed,
 * or reply filled) until a dependent instruction may issue: the write-back
 * stage; the LD/ST unit has no result-port stage of its own.
 */
static uint32_t ldst_wb(const struct tm_ldst *u)
{
    return u->prm->wb_latency ? u->prm->wb_latency - 1 : 0;
}

/* One request of load record uid was answered. */
static void complete(struct tm_ldst *u, uint64_t uid, uint64_t now)
{
    struct ldrec *r;

    if (uid >= u->nrecs)
        return;
    r = &u->recs[uid];
    if (--r->remaining)
        return;
    r->next_free = u->free_rec;
    u->free_rec = (uint32_t)uid;
    u->env.hooks.load_done(u->env.hooks.ctx, r->slot, r->dst, r->ndst, now + ldst_wb(u));
}

static uint32_t rec_alloc(struct tm_ldst *u)
{
    uint32_t i;

    if (u->free_rec == TM_NO_REC) {
        uint32_t n = u->nrecs ? u->nrecs * 2 : 64;
        struct ldrec *nr = realloc(u->recs, n * sizeof(*nr));

        if (!nr)
            return TM_NO_REC;
        u->recs = nr;
        for (uint32_t k = n; k-- > u->nrecs;) {
            nr[k].next_free = u->free_rec;
            u->free_rec = k;
        }
        u->nrecs = n;
    }
    i = u->free_rec;
    u->free_rec = u->recs[i].next_free;
    return i;
}

void tm_ldst_rec_dst(struct tm_ldst *u, uint32_t rec, uint32_t reg)
{
    struct ldrec *r = &u->recs[rec];

    r->dst[r->ndst++] = reg;
}

static void hit_push(struct tm_ldst *u, uint64_t at, uint64_t uid)
{
    struct hit h = {at, uid};

    if (ps_ring_full(&u->hits) && !ps_ring_reserve(&u->hits, u->hits.cap))
        return;
    PS_RING_PUSH(&u->hits, &h);
}

/* ------------------------------------------------------------------ replies */

static void lat_record(struct tm_sm_counters *k, uint64_t lat)
{
    uint32_t b = 0;

    k->lat_sum += lat;
    k->lat_n++;
    if (lat > k->lat_max)
        k->lat_max = lat;
    while (b + 1 < TM_LAT_BUCKETS && (lat >> (b + 1)))
        b++;
    k->lat_hist[b]++;
}

/* A sector of a split read answer other than its line's last: the line fills with the last. */
static bool passed_over(const struct mem_req *r)
{
    return r->type != MEM_WRITE && r->parts_left;
}

bool tm_ldst_take_replies(struct tm_ldst *u, uint64_t now)
{
    const struct tm_ldst_env *e = &u->env;
    const struct hit *h;
    struct mem_req r;
    bool any = false;

    while (mem_system_pop_reply(e->ms, e->sm, &r)) {
        struct mem_cache *c = r.space == MEM_INST    ? e->l1i
                              : r.space == MEM_CONST ? e->l1c
                              : r.space == MEM_TEX   ? e->l1t
                                                     : e->l1d;

        if (r.type == MEM_WRITE) {
            e->hooks.store_done(e->hooks.ctx, r.warp, 0);
            any = true;
            continue;
        }
        if (passed_over(&r))
            continue;
        lat_record(e->k, now - r.t_issue);
        if (u->lines && r.space != MEM_INST)
            tm_lines_reply(u->lines, r.fidx, r.pc, now - r.t_issue, r.l2_miss);
        mem_cache_fill(c, &r, now);
        if (c == e->l1d && e->l1d_trace && r.type == MEM_READ)
            l1d_trace(u, &r, TM_L1D_TRACE_FILL);
        any = true;
    }
    while (mem_cache_pop_ready(e->l1i, &r))
        e->hooks.fetch_done(e->hooks.ctx, &r), any = true;
    while (mem_cache_pop_ready(e->l1c, &r))
        complete(u, r.uid, now), any = true;
    while (mem_cache_pop_ready(e->l1t, &r))
        complete(u, r.uid, now), any = true;
    while (mem_cache_pop_ready(e->l1d, &r))
        complete(u, r.uid, now), any = true;
    while ((h = ps_ring_head(&u->hits)) && h->at <= now) {
        uint64_t uid = h->uid;

        ps_ring_pop(&u->hits, NULL);
        complete(u, uid, now);
        any = true;
    }
    return any;
}

bool tm_ldst_skip_sectors(struct tm_ldst *u)
{
    const struct mem_req *r;
    struct mem_req x;

    while ((r = mem_system_peek_reply(u->env.ms, u->env.sm)) && passed_over(r))
        mem_system_pop_reply(u->env.ms, u->env.sm, &x);
    return mem_system_reply_ready(u->env.ms, u->env.sm);
}

/* The L1s by index, in send_miss's order: instruction, constant, texture, data. */
static struct mem_cache *l1_by_index(const struct tm_ldst *u, uint32_t k)
{
    return k == 0 ? u->env.l1i : k == 1 ? u->env.l1c : k == 2 ? u->env.l1t : u->env.l1d;
}

/* One L1 miss per cycle onto the interconnect: I-, constant, texture and data cache in turn. */
bool tm_ldst_send_miss(struct tm_ldst *u, uint64_t now)
{
    for (uint32_t k = 0; k < 4; k++) {
        struct mem_cache *c = l1_by_index(u, (u->send_rr + k) % 4);
        const struct mem_req *m = mem_cache_peek_miss(c);
        struct mem_req r;

        if (!m)
            continue;
        if (!mem_system_can_send(u->env.ms, u->env.sm, m))
            continue;
        mem_cache_pop_miss(c, &r);
        r.t_issue = now;
        r.sm = (uint16_t)u->env.sm;
        /* (in parallel too: a send touches only this SM's input, mem_icnt.h) */
        mem_system_send(u->env.ms, u->env.sm, &r);
        u->send_rr = (u->send_rr + k + 1) % 4;
        return true;
    }
    return false;
}

void tm_ldst_prefetch(const struct tm_ldst *u)
{
    __builtin_prefetch(&u->ldq_at, 1);
}

void tm_ldst_hold(struct tm_ldst *u, uint64_t until)
{
    u->ldst_free = until;
    u->gen++;
}

/* ------------------------------------------------------------ L1 hand-off */

/* What the L1D saw of r (result res) goes to the line statistics, the hook and the trace. */
static void l1d_seen(struct tm_ldst *u, const struct mem_req *r, enum mem_cache_result res,
                     uint64_t now)
{
    if (u->lines)
        tm_lines_l1d(u->lines, r->fidx, r->pc, res == MEM_MISS || res == MEM_SENT);
    u->env.hooks.l1d_access(u->env.hooks.ctx, r, now);
    if (u->env.l1d_trace && r->type == MEM_READ && res != MEM_SENT)
        l1d_trace(u, r,
                  res == MEM_HIT            ? TM_L1D_TRACE_HIT
                  : res == MEM_HIT_RESERVED ? TM_L1D_TRACE_MERGE
                                            : TM_L1D_TRACE_MISS);
    else if (u->env.l1d_trace && r->type == MEM_WRITE && res == MEM_HIT)
        l1d_trace(u, r, TM_L1D_TRACE_WRITE);
}

/*
 * Hands request r to cache c (the L1D, constant or texture cache). false: a
 * reservation failure, nothing changed. Otherwise a store's hold on its warp
 * becomes the acknowledgements the L2 will send, and a read hit completes.
 */
static bool l1_access(struct tm_ldst *u, struct mem_cache *c, const struct mem_req *r, uint64_t now)
{
    bool store = r->type == MEM_WRITE, on = store && mem_cache_forwards_write(c, r);
    enum mem_cache_result res = mem_cache_access(c, r, now);

    if (res == MEM_RESFAIL)
        return false;
    if (store)
        u->env.hooks.store_done(u->env.hooks.ctx, r->warp, on ? mem_req_ack_count(r) : 0);
    if (c == u->env.l1d)
        l1d_seen(u, r, res, now);
    /*
     * An L1D hit is done (its latency was spent in the latency queue), and so
     * is a constant-cache hit (GPGPU-Sim's constant path has no latency
     * queue); a texture hit waits out the L1 latency.
     */
    if (res == MEM_HIT && r->type != MEM_WRITE && r->uid != TM_NEVER) {
        if (c == u->env.l1t)
            hit_push(u, now + u->prm->l1_latency, r->uid);
        else
            complete(u, r->uid, now);
    }
    return true;
}

/*
 * Hands request r to cache c: the L1D's requests enter its latency queue
 * (false when the queue's entry is taken), the other caches look r up now
 * (false on a reservation failure).
 */
/* Request r for cache c enters the L1 latency queue, rather than looking c up at once. */
static bool via_l1p(const struct tm_ldst *u, const struct mem_cache *c, const struct mem_req *r)
{
    /* .cg loads and atomics bypass GPGPU-Sim's L1D and its latency queue. */
    return c == u->env.l1d && r->type != MEM_ATOMIC && r->cacheop != ISA_CACHE_CG;
}

/* The `at` of ring r's head (struct queued), UINT64_MAX when it is empty. */
static uint64_t head_at(const struct ps_ring *r)
{
    const struct queued *q = ps_ring_head(r);

    return q ? q->at : UINT64_MAX;
}

static bool l1_hand(struct tm_ldst *u, struct mem_cache *c, const struct mem_req *r, uint64_t now)
{
    struct queued q = {*r, now + u->prm->l1_latency, false};

    if (!via_l1p(u, c, r))
        return l1_access(u, c, r, now);
    if (ps_ring_full(&u->l1p))
        return false;
    if (!u->l1p.n)
        u->l1p_at = q.at;
    PS_RING_PUSH(&u->l1p, &q);
    return true;
}

/* The head of the L1 latency queue looks up the L1D. Returns true on a reservation failure. */
static bool l1p_cycle(struct tm_ldst *u, uint64_t now)
{
    const struct queued *q;

    if (u->l1p_at > now)
        return false;
    q = ps_ring_head(&u->l1p);
    if (!l1_access(u, u->env.l1d, &q->r, now))
        return true;
    ps_ring_pop(&u->l1p, NULL);
    u->l1p_at = head_at(&u->l1p);
    u->moved = true;
    return false;
}

/* The front queues' turn at the L1D. Returns true on a reservation failure. */
static bool frontq_cycle(struct tm_ldst *u, uint64_t now)
{
    const struct mem_req *r = mem_frontq_peek(u->fq, now);

    if (!r)
        return false;
    if (!l1_hand(u, u->env.l1d, r, now))
        return true;
    mem_frontq_pop(u->fq);
    u->gen++;
    u->moved = true;
    return false;
}

/* The L1 a queued request goes to: constant, texture or data cache. */
static struct mem_cache *l1_of(const struct tm_ldst *u, const struct mem_req *r)
{
    return r->space == MEM_CONST ? u->env.l1c : r->space == MEM_TEX ? u->env.l1t : u->env.l1d;
}

/* The LD/ST unit hands its next request to the cache. Returns true on a reservation failure. */
static bool ldq_cycle(struct tm_ldst *u, uint64_t now)
{
    const struct queued *q;

    if (!u->ldq.n)
        return mem_frontq_pending(u->fq) ? frontq_cycle(u, now) : false;
    if (u->ldq_at > now)
        return false;
    q = ps_ring_head(&u->ldq);
    if (!l1_hand(u, l1_of(u, &q->r), &q->r, now))
        return true;
    u->ldq_insts -= q->last;
    ps_ring_pop(&u->ldq, NULL);
    u->ldq_at = head_at(&u->ldq);
    u->gen++;
    u->moved = true;
    return false;
}

bool tm_ldst_cycle(struct tm_ldst *u, uint64_t now)
{
    bool fail;

    u->moved = false;
    fail = l1p_cycle(u, now);

    return ldq_cycle(u, now) || fail;
}

bool tm_ldst_due(const struct tm_ldst *u, uint64_t now)
{
    return u->ldq_at <= now + 1 || mem_frontq_pending(u->fq) > 0 || u->l1p_at <= now + 1;
}

bool tm_ldst_stuck(const struct tm_ldst *u, uint64_t now, struct tm_ldst_stuck *st)
{
    const struct queued *q = ps_ring_head(&u->ldq), *p = ps_ring_head(&u->l1p);

    st->l1d_fail = false;
    st->nwait = 0;
    /* A head due by the next cycle was tried this cycle (due by now) and did not move. */
    if (u->moved || mem_frontq_pending(u->fq))
        return false;
    if (u->l1p_at <= now + 1) {
        if (u->l1p_at > now || !mem_cache_fails_again(u->env.l1d, &p->r))
            return false;
        st->l1d_fail = true;
    }
    if (u->ldq_at <= now + 1 &&
        (u->ldq_at > now || !via_l1p(u, l1_of(u, &q->r), &q->r) || !ps_ring_full(&u->l1p)))
        return false;
    for (uint32_t k = 0; k < 4; k++) {
        const struct mem_req *m = mem_cache_peek_miss(l1_by_index(u, k));

        if (!m)
            continue;
        if (mem_system_room(u->env.ms, u->env.sm, m))
            return false;
        st->wait[st->nwait++] = (uint8_t)k;
    }
    return true;
}

bool tm_ldst_unstuck(const struct tm_ldst *u, const struct tm_ldst_stuck *st)
{
    for (uint32_t i = 0; i < st->nwait; i++)
        if (mem_system_room(u->env.ms, u->env.sm, mem_cache_peek_miss(l1_by_index(u, st->wait[i]))))
            return true;
    return false;
}

void tm_ldst_repeat_stuck(struct tm_ldst *u, const struct tm_ldst_stuck *st)
{
    if (st->l1d_fail)
        mem_cache_count_failures(u->env.l1d, 1);
    if (st->nwait)
        mem_system_count_stalls(u->env.ms, u->env.sm, st->nwait);
}

uint64_t tm_ldst_wake(const struct tm_ldst *u, uint64_t now, uint64_t wake,
                      const struct tm_ldst_stuck *st)
{
    const struct hit *h = ps_ring_head(&u->hits);

    if (mem_frontq_pending(u->fq))
        return now + 1;
    /* stuck: every waiting miss is one st waits on, and the due heads only fail again */
    for (uint32_t k = 0; !st && k < 4; k++)
        if (mem_cache_peek_miss(l1_by_index(u, k)))
            return now + 1;
    if (u->ldq.n && !(st && u->ldq_at <= now)) {
        if (u->ldq_at <= now + 1)
            return now + 1;
        wake = u->ldq_at < wake ? u->ldq_at : wake;
    }
    if (u->l1p.n && !(st && u->l1p_at <= now)) {
        if (u->l1p_at <= now + 1)
            return now + 1;
        wake = u->l1p_at < wake ? u->l1p_at : wake;
    }
    if (h && h->at < wake)
        wake = h->at;
    if (u->ldst_free > now && u->ldst_free < wake)
        wake = u->ldst_free;
    return wake;
}

bool tm_ldst_idle(const struct tm_ldst *u)
{
    return !u->ldq.n && !u->l1p.n && !mem_frontq_pending(u->fq) && !u->hits.n &&
           !mem_cache_busy(u->env.l1d) && !mem_cache_busy(u->env.l1i) &&
           !mem_cache_busy(u->env.l1c) && !mem_cache_busy(u->env.l1t);
}

uint64_t tm_ldst_gen(const struct tm_ldst *u)
{
    return u->gen;
}

bool tm_ldst_slot_blind(const struct tm_ldst *u)
{
    return !u->fq;
}

uint64_t tm_ldst_free_at(const struct tm_ldst *u)
{
    return u->ldst_free;
}

bool tm_ldst_accepts(const struct tm_ldst *u, uint32_t slot, uint64_t now)
{
    return u->ldq_insts < u->prm->ldst_insts && u->ldq.n + TM_INSTR_REQS_MAX <= LDQ_CAP &&
           u->ldst_free <= now && (!u->fq || mem_frontq_room(u->fq, slot));
}

/* ------------------------------------------------------------------ issue */

/*
 * Physical address of a local-memory offset, laid out as GPGPU-Sim's
 * -gpgpu_local_mem_map 1 does: 4-byte word w of every thread the GPU can
 * hold for this kernel forms one block (threads of a CTA contiguous, then
 * the CTAs of successive SMs, then the next CTA slot of each SM), so a
 * warp's accesses to one local variable coalesce.
 */
static uint64_t local_addr(const struct tm_ldst *u, const struct tm_ldst_warp *w, uint32_t lane,
                           uint64_t off)
{
    uint64_t t = (uint64_t)w->warp_id * ISA_WARP_SIZE + lane;
    uint64_t base = u->local_cta_threads * (u->env.sm + (uint64_t)u->env.nsm * w->cta_slot) + t;

    return TM_LOCAL_BASE + ((off >> 2) * u->local_threads + base) * 4 + (off & 3);
}

/* The LD/ST unit's grouping of a lane's resolved state space (isa_step_info.lane_space). */
enum lane_group { LG_GLOBAL, LG_LOCAL, LG_SHARED, LG_CONST, LG_PARAM, LG_COUNT };

static enum lane_group lane_group_of(uint8_t space)
{
    switch (space) {
    case ISA_SPACE_SHARED:
        return LG_SHARED;
    case ISA_SPACE_LOCAL:
        return LG_LOCAL;
    case ISA_SPACE_CONST:
        return LG_CONST;
    case ISA_SPACE_PARAM:
        return LG_PARAM;
    default:
        return LG_GLOBAL;
    }
}

static void queue_reqs(struct tm_ldst *u, const struct mem_req *reqs, uint32_t n, uint64_t now)
{
    uint64_t at = now + u->prm->oc_latency;

    if (u->fq && reqs[0].space != MEM_CONST && reqs[0].space != MEM_TEX && n) {
        mem_frontq_push(u->fq, reqs, n, at);
        return;
    }
    if (!u->ldq.n && n)
        u->ldq_at = at;
    for (uint32_t i = 0; i < n && !ps_ring_full(&u->ldq); i++) {
        struct queued q = {reqs[i], at, i == n - 1};

        PS_RING_PUSH(&u->ldq, &q);
    }
    u->ldq_insts++;
}

/* The shared-memory lanes' bank conflicts: the cycle the result is readable. */
static uint64_t shared_access(struct tm_ldst *u, const uint64_t *addr, uint32_t mask, bool atomic,
                              uint32_t size, uint64_t now)
{
    const struct tm_params *p = u->prm;
    uint32_t cyc = atomic && p->shmem_atomic_serialize
                       ? mem_shmem_atomic_cycles(addr, mask, p->shmem_banks)
                       : mem_shmem_cycles(addr, mask, size, p->shmem_banks, p->shmem_warp_parts,
                                          p->shmem_limited_bcast);

    u->env.k->shmem_accesses++;
    u->env.k->shmem_cycles += cyc;
    u->ldst_free = now + cyc;
    u->gen++;
    /* operand collection, the shared-memory pipe, then the LD/ST write-back stage */
    return now + p->oc_latency + p->smem_latency + cyc + ldst_wb(u);
}

/*
 * As GPGPU-Sim does: a local lane's access has the size of the element type
 * (a vector's other elements are not counted), split into 4-byte words when
 * wider, each word at its own place (local_addr). Returns the requests made.
 */
static uint32_t local_reqs(const struct tm_ldst *u, const struct tm_ldst_warp *w,
                           const struct isa_instr *in, const uint64_t *addr, uint32_t mask,
                           uint32_t size, uint32_t line, const struct mem_req *tmpl,
                           struct mem_req *reqs)
{
    uint32_t esize = in->vec > 1 ? size / in->vec : size;
    uint32_t words = esize > 4 ? (esize > 32 ? 8 : esize / 4) : 1, n = 0;
    uint64_t la[ISA_WARP_SIZE];

    for (uint32_t wd = 0; wd < words; wd++) {
        for (uint32_t l = 0; l < ISA_WARP_SIZE; l++)
            la[l] = mask >> l & 1 ? local_addr(u, w, l, addr[l] + 4 * wd) : 0;
        n += mem_coalesce(la, mask, words > 1 ? 4 : esize, line, tmpl, reqs + n);
    }
    return n;
}

/* Coalesces the lanes of each group into requests; returns how many (const ones in *nconst). */
static uint32_t make_reqs(struct tm_ldst *u, const struct tm_ldst_warp *w,
                          const struct isa_step_info *info, uint64_t *addr, const uint32_t *mask,
                          struct mem_req *tmpl, struct mem_req *reqs, uint32_t *nconst)
{
    const struct tm_params *p = u->prm;
    const struct isa_instr *in = info->in;
    uint32_t n = 0;

    if (mask[LG_CONST] | mask[LG_PARAM]) {
        /*
         * Kernel parameters sit in constant memory: ld.param goes through
         * the constant cache as ld.const does (GPGPU-Sim's constant_cycle
         * takes both), at timing addresses in the parameter window.
         */
        for (uint32_t l = 0; l < ISA_WARP_SIZE; l++)
            if ((mask[LG_PARAM] >> l & 1) && addr[l] < ISA_WINDOW_SIZE)
                addr[l] += ISA_PARAM_WINDOW;
        tmpl->space = MEM_CONST;
        n = mem_coalesce(addr, mask[LG_CONST] | mask[LG_PARAM], info->size, p->l1c.line_bytes, tmpl,
                         reqs);
        *nconst = n;
    } else if (in->op == ISA_OP_TEX || in->op == ISA_OP_TLD4) {
        /* Texture fetches go through the texture cache (-gpgpu_tex_cache:l1). */
        tmpl->space = MEM_TEX;
        n = mem_coalesce(addr, mask[LG_GLOBAL], info->size, p->l1t.line_bytes, tmpl, reqs);
    } else if (mask[LG_GLOBAL] | mask[LG_LOCAL]) {
        bool atomic = tmpl->type == MEM_ATOMIC;
        uint32_t line = atomic || p->skip_l1d || in->cache == ISA_CACHE_CG ? MEM_SECTOR_BYTES
                                                                           : p->l1d.line_bytes;

        if (mask[LG_GLOBAL]) {
            tmpl->space = MEM_GLOBAL;
            if (atomic)
                n = mem_coalesce_atomic(addr, mask[LG_GLOBAL], info->size, tmpl, reqs);
            else
                n = mem_coalesce(addr, mask[LG_GLOBAL], info->size, line, tmpl, reqs);
        }
        if (mask[LG_LOCAL]) {
            tmpl->space = MEM_LOCAL;
            n += local_reqs(u, w, in, addr, mask[LG_LOCAL], info->size, line, tmpl, reqs + n);
        }
        u->env.k->gmem_insts++;
        u->env.k->gmem_reqs += n;
    }
    return n;
}

struct tm_ldst_issued tm_ldst_issue(struct tm_ldst *u, const struct tm_ldst_warp *w,
                                    const struct isa_step_info *info, const struct tm_iinfo *ii,
                                    uint64_t now)
{
    const struct tm_params *p = u->prm;
    const struct isa_instr *in = info->in;
    struct tm_ldst_issued out = {now + p->oc_latency + p->lat_int[0] + p->wb_latency, TM_NO_REC, 0};
    uint64_t addr[ISA_WARP_SIZE];
    uint32_t mask[LG_COUNT] = {0};
    bool atomic = in->op == ISA_OP_ATOM || in->op == ISA_OP_RED;
    bool store = info->is_store && !atomic;
    struct mem_req tmpl = {0}, reqs[TM_INSTR_REQS_MAX];
    uint32_t n, nconst = 0;

    u->ldst_free = now + 1;
    u->gen++;
    if (!info->space || !info->active)
        return out;
    for (uint32_t l = 0; l < ISA_WARP_SIZE; l++) {
        if (!(info->active >> l & 1))
            continue;
        addr[l] = info->addr[l];
        mask[lane_group_of(info->lane_space[l])] |= UINT32_C(1) << l;
    }
    if (mask[LG_SHARED])
        out.ready = shared_access(u, addr, mask[LG_SHARED], atomic, info->size, now);
    tmpl.sm = (uint16_t)u->env.sm;
    tmpl.warp = (uint16_t)w->slot;
    tmpl.pc = info->pc;
    tmpl.fidx = info->fidx;
    tmpl.cacheop = in->cache;
    tmpl.uid = TM_NEVER;
    tmpl.type = atomic ? MEM_ATOMIC : store ? MEM_WRITE : MEM_READ;
    n = make_reqs(u, w, info, addr, mask, &tmpl, reqs, &nconst);
    if (!n)
        return out;
    u->env.k->const_reqs += nconst;
    if (!store && ii->ndst) {
        uint32_t r = rec_alloc(u);

        if (r != TM_NO_REC) {
            struct ldrec *lr = &u->recs[r];

            lr->slot = w->slot;
            lr->remaining = n;
            lr->ndst = 0;
            for (uint32_t i = 0; i < n; i++)
                reqs[i].uid = r;
            out.rec = r;
            out.ready = TM_NEVER;
        }
    }
    if (store) /* each queued store holds its warp until the L1 has taken it (l1_access) */
        out.stores = n;
    queue_reqs(u, reqs, n, now);
    return out;
}
