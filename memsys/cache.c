/*
 * The cache core: tag array, MSHRs, miss queue and ready queue.
 *
 * State per line: valid, dirty and pending sector masks (a normal cache has
 * one sector, bit 0, covering the whole line). A line with pending sectors
 * is reserved: an MSHR entry waits for its fill and it is never a victim.
 *
 * MSHRs are per line (up to mshr_entries distinct lines in flight, sectored
 * or not). An entry holds up to mshr_max_merge waiting requests, each with
 * the sectors it needs; a request that needs a sector neither valid nor
 * already requested makes the entry fetch that sector too (a sector miss),
 * so one entry may have several fetches in flight. A fill releases, in merge
 * order, the waiters whose sectors are then all valid; when the entry's
 * last fetch arrives, every remaining waiter is released.
 *
 * Every read sent to the next level (a line fetch or a request passed down
 * without allocating) carries this cache's own token in uid; fill() finds
 * the fetch or the sent request by that token, so the next level must hand
 * back the record pop_miss produced. Writes keep their uid; write-backs get
 * uid MEM_CACHE_WB_UID_BIT | sequence number. Nothing here depends on
 * pointer values or on rand(), so runs are repeatable.
 */
#include "memsys/cache.h"

#include <stdlib.h>
#include <string.h>

#include "memsys/cache_int.h"

/*
 * enum isa_cacheop values of .cg and .cs (isa/opcode.h). memsys may not
 * include isa/, so they are repeated here; tests/unit/memsys/test_cache.c
 * checks them against the enum.
 */
#define CACHEOP_CG 2
#define CACHEOP_CS 3

static enum mem_cache_result resfail(struct mem_cache *c, uint64_t *reason)
{
    c->last_lack = reason;
    (*reason)++;
    c->st.resfail++;
    return MEM_RESFAIL;
}

/* n more miss-queue entries fit under the configured size (and can be stored). */
static bool mq_room(struct mem_cache *c, uint32_t n)
{
    return c->missq.n + n <= c->g.miss_queue && ps_ring_reserve(&c->missq, n);
}

/* Sectors of the request's 128-byte line it touches (bit 0 only in a normal cache). */
static uint8_t req_need(const struct mem_cache *c, const struct mem_req *r)
{
    uint8_t m = (uint8_t)(r->sector_mask & 0xf);

    if (!c->sectored)
        return 1;
    return m ? m : mem_cache_span_mask(r->addr, r->bytes);
}

static void probe(struct mem_cache *c, const struct mem_req *r, struct probe *p)
{
    uint32_t base;

    p->line = r->addr >> c->line_shift;
    p->set = mem_cache_set_of(c, r->addr);
    p->need = req_need(c, r);
    p->idx = NONE;
    base = p->set * c->g.assoc;
    for (uint32_t w = 0; w < c->g.assoc; w++) {
        const struct cline *l = &c->lines[base + w];

        if ((l->valid | l->pending) && l->tag == p->line) {
            p->idx = base + w;
            return;
        }
    }
}

/*
 * The write policy a request sees: 'L' is write-back for local memory and,
 * for global memory, write-through that evicts the line it hits (Fermi's L1D
 * and GPGPU-Sim's local-WB/global-WT L1: a global store leaves no copy in
 * the L1, so the next load of the line misses).
 */
static char eff_wpol(const struct mem_cache *c, const struct mem_req *r)
{
    if (c->g.wpol == 'L')
        return r->space == MEM_LOCAL ? 'B' : 'E';
    return c->g.wpol;
}

bool mem_cache_forwards_write(struct mem_cache *c, const struct mem_req *r)
{
    char wp = eff_wpol(c, r);
    struct probe p;

    if (wp == 'R')
        return true;
    probe(c, r, &p);
    if (p.idx != NONE && !(p.need & ~c->lines[p.idx].valid))
        return wp != 'B'; /* a hit: write-through sends it on */
    /* a miss: without write-allocate it goes on, else as the write policy says */
    return (c->g.walloc != 'L' && c->g.walloc != 'W' && c->g.walloc != 'F') || wp != 'B';
}

static void touch(struct mem_cache *c, const struct mem_req *r, const struct probe *p, uint64_t now)
{
    c->lines[p->idx].last_use = now;
    if (c->lines[p->idx].hits != UINT32_MAX)
        c->lines[p->idx].hits++;
    if (r->type == MEM_READ && c->lines[p->idx].warp == r->warp && c->lines[p->idx].sm == r->sm)
        c->st.hits_intra++;
    if (c->pol->on_hit)
        c->pol->on_hit(c->pol_st, r, p->set, p->idx - p->set * c->g.assoc, now);
}

static enum mem_cache_result hit(struct mem_cache *c, const struct mem_req *r,
                                 const struct probe *p, bool dirty, uint64_t now)
{
    if (dirty)
        c->lines[p->idx].dirty |= p->need;
    touch(c, r, p, now);
    return MEM_HIT;
}

/* Passes a read or atomic down without allocating; its reply comes back through pop_ready. */
static enum mem_cache_result send_read(struct mem_cache *c, const struct mem_req *r, bool bypass)
{
    struct mem_req f = *r;

    if (!mq_room(c, 1) || !mem_cache_tok_reserve(c))
        return resfail(c, &c->st.resfail_missq);
    f.is_writeback = false;
    f.uid = mem_cache_tok_new(c, TOK_SENT, NONE, 0, r);
    /*
     * A read an L1 policy bypasses fetches only the 32-byte sectors the warp
     * touched, as an access coalesced for the bypass path would (the
     * locality paper's BALL; GPGPU-Sim's L1 bypass moves segments too).
     */
    if (bypass && c->l1 && (f.sector_mask & 0xf))
        f.bytes = MEM_SECTOR_BYTES * mem_sectors(f.sector_mask);
    mem_cache_push_down(c, &f);
    if (bypass)
        c->st.bypassed++;
    return MEM_SENT;
}

static enum mem_cache_result send_write(struct mem_cache *c, const struct mem_req *r)
{
    if (!mq_room(c, 1))
        return resfail(c, &c->st.resfail_missq);
    mem_cache_push_down(c, r);
    return MEM_SENT;
}

/* A request for `mask` of the entry's line goes to the next level. Room was checked. */
static void fetch(struct mem_cache *c, const struct mem_req *r, uint32_t mi, uint8_t mask)
{
    struct mshr *e = &c->mshrs[mi];
    struct mem_req f = *r;

    e->pending |= mask;
    if (e->way != NONE)
        c->lines[e->way].pending |= mask;
    f.type = MEM_READ;
    f.is_writeback = false;
    f.addr = e->line << c->line_shift;
    f.bytes = c->sectored ? MEM_SECTOR_BYTES * mem_sectors(mask) : c->g.line_bytes;
    f.sector_mask = c->sectored ? mask : mem_cache_span_mask(f.addr, c->g.line_bytes);
    f.uid = mem_cache_tok_new(c, TOK_FETCH, mi, mask, NULL);
    mem_cache_push_down(c, &f);
}

static void add_waiter(struct mem_cache *c, uint32_t mi, const struct mem_req *r, uint8_t need,
                       uint8_t flags)
{
    struct mshr *e = &c->mshrs[mi];
    struct waiter *w = &c->waiters[(size_t)mi * c->g.mshr_max_merge + e->nwait++];

    w->req = *r;
    w->need = need;
    w->flags = flags;
}

/*
 * The line's MSHR entry has no merge slot left: a read goes down uncached if
 * the policy's on_stall says so (and the miss queue has room), else the
 * access fails and is retried.
 */
static enum mem_cache_result merge_full(struct mem_cache *c, const struct mem_req *r,
                                        const struct probe *p, const struct want *wa, uint64_t now)
{
    if (wa->ask_policy && c->pol->on_stall && mq_room(c, 1) &&
        c->pol->on_stall(c->pol_st, r, p->set, POL_L1D_STALL_MERGE, now)) {
        c->st.stall_bypassed++;
        return send_read(c, r, true);
    }
    return resfail(c, &c->st.resfail_merge);
}

/*
 * The line already has an MSHR entry: merge, and fetch the sectors that are
 * neither valid nor on their way. extra: miss-queue entries the caller
 * needs after this succeeds.
 */
static enum mem_cache_result join(struct mem_cache *c, const struct mem_req *r,
                                  const struct probe *p, uint32_t mi, const struct want *wa,
                                  uint64_t now)
{
    struct mshr *e = &c->mshrs[mi];
    uint8_t avail = e->pending | e->got | (e->way != NONE ? c->lines[e->way].valid : 0);
    uint8_t missing = p->need & (uint8_t)~avail;

    if (e->nwait >= c->g.mshr_max_merge)
        return merge_full(c, r, p, wa, now);
    if (!mq_room(c, (missing ? 1 : 0) + wa->extra) || (missing && !mem_cache_tok_reserve(c)))
        return resfail(c, &c->st.resfail_missq);
    add_waiter(c, mi, r, p->need, wa->flags);
    if (!missing) {
        c->st.hit_reserved++;
        if (r->type == MEM_READ && c->pol->on_merge)
            c->pol->on_merge(c->pol_st, r, p->set, now);
        return MEM_HIT_RESERVED;
    }
    fetch(c, r, mi, missing);
    return MEM_MISS;
}

/* The line is present and idle but lacks sectors the request needs: fetch them. */
static enum mem_cache_result sector_miss(struct mem_cache *c, const struct mem_req *r,
                                         const struct probe *p, const struct want *wa)
{
    uint8_t missing = p->need & (uint8_t)~c->lines[p->idx].valid;
    uint32_t mi;

    if (c->nmfree == 0)
        return resfail(c, &c->st.resfail_mshr);
    if (!mq_room(c, 1 + wa->extra) || !mem_cache_tok_reserve(c))
        return resfail(c, &c->st.resfail_missq);
    mi = mem_cache_mshr_alloc(c, p->line, p->idx);
    add_waiter(c, mi, r, p->need, wa->flags);
    fetch(c, r, mi, missing);
    return MEM_MISS;
}

/*
 * Which resource a new allocation lacks (NULL: none). For allocate-on-miss
 * it also picks the victim way now, and counts a write-back slot if the
 * victim is dirty.
 */
static uint64_t *alloc_lack(struct mem_cache *c, const struct probe *p, const struct want *wa,
                            uint32_t *victim, uint64_t now)
{
    uint32_t wb = 0;

    *victim = NONE;
    if (c->g.alloc == 'm') {
        *victim = mem_cache_pick_victim(c, p->set, now);
        if (*victim == NONE)
            return &c->st.resfail_line;
        wb = c->lines[*victim].valid && c->lines[*victim].dirty;
    }
    if (c->nmfree == 0)
        return &c->st.resfail_mshr;
    if (!mq_room(c, 1 + wb + wa->extra) || !mem_cache_tok_reserve(c))
        return &c->st.resfail_missq;
    return NULL;
}

/*
 * The policy's on_miss answer, asked once per request: a request that then
 * fails for lack of resources comes back (the LD/ST unit retries its head
 * request) and gets the same answer without the policy seeing it twice.
 * The line is part of the key: the line requests of one warp instruction
 * share its uid (the SM's load record), and each is a request of its own.
 */
static bool policy_allocates(struct mem_cache *c, const struct mem_req *r, const struct probe *p,
                             uint64_t now)
{
    bool alloc;

    if (c->memo_valid && c->memo_uid == r->uid && c->memo_line == p->line)
        return c->memo_alloc;
    alloc = c->pol->on_miss(c->pol_st, r, p->set, now);
    c->memo_valid = true;
    c->memo_uid = r->uid;
    c->memo_line = p->line;
    c->memo_alloc = alloc;
    return alloc;
}

/* A read the policy does not want cached goes down; once it has gone, the answer is spent. */
static enum mem_cache_result bypass_read(struct mem_cache *c, const struct mem_req *r)
{
    enum mem_cache_result res = send_read(c, r, true);

    if (res != MEM_RESFAIL)
        c->memo_valid = false;
    return res;
}

static enum pol_l1d_stall stall_reason(const struct mem_cache *c, const uint64_t *lack)
{
    if (lack == &c->st.resfail_line)
        return POL_L1D_STALL_LINE;
    if (lack == &c->st.resfail_mshr)
        return POL_L1D_STALL_MSHR;
    return POL_L1D_STALL_MISSQ;
}

/*
 * Neither the line nor an MSHR for it: allocate (reserving the victim now
 * for 'm'; at fill time for 'f' and 's') or, for a read the policy does not
 * want cached, pass it down. The policy is asked only once the miss queue
 * has room for at least that, and before the victim is picked, so that a
 * policy whose victim depends on the request (a partition chosen per request) has seen
 * it in on_miss.
 */
static enum mem_cache_result allocate(struct mem_cache *c, const struct mem_req *r,
                                      const struct probe *p, const struct want *wa, uint64_t now)
{
    uint32_t victim, mi;
    uint64_t *lack;

    if (!mq_room(c, 1 + wa->extra))
        return resfail(c, &c->st.resfail_missq);
    if (wa->ask_policy && !policy_allocates(c, r, p, now))
        return bypass_read(c, r);
    lack = alloc_lack(c, p, wa, &victim, now);
    if (lack) {
        if (wa->ask_policy && c->pol->on_stall &&
            c->pol->on_stall(c->pol_st, r, p->set, stall_reason(c, lack), now)) {
            c->memo_valid = false;
            c->st.stall_bypassed++;
            return send_read(c, r, true);
        }
        return resfail(c, lack);
    }
    c->memo_valid = false;
    if (victim != NONE) {
        mem_cache_evict(c, victim, p->set, now);
        mem_cache_install(c, victim, p->line, r, now);
    }
    mi = mem_cache_mshr_alloc(c, p->line, victim);
    add_waiter(c, mi, r, p->need, wa->flags);
    fetch(c, r, mi, p->need);
    return MEM_MISS;
}

/* The request needs sectors that are not valid here. */
static enum mem_cache_result want(struct mem_cache *c, const struct mem_req *r,
                                  const struct probe *p, const struct want *wa, uint64_t now)
{
    uint32_t mi = mem_cache_mshr_find(c, p->line);

    if (mi != NONE)
        return join(c, r, p, mi, wa, now);
    if (p->idx != NONE)
        return sector_miss(c, r, p, wa);
    return allocate(c, r, p, wa, now);
}

static bool is_bypass_op(uint8_t op)
{
    return op == CACHEOP_CG || op == CACHEOP_CS;
}

static enum mem_cache_result access_read(struct mem_cache *c, const struct mem_req *r, uint64_t now)
{
    struct want wa = {.flags = W_REPLY, .extra = 0, .ask_policy = true};
    struct probe p;

    if (c->l1 && is_bypass_op(r->cacheop))
        return send_read(c, r, false);
    probe(c, r, &p);
    if (p.idx != NONE && !(p.need & ~c->lines[p.idx].valid))
        return hit(c, r, &p, false, now);
    return want(c, r, &p, &wa, now);
}

/*
 * An atomic reaching a shared cache (the L2: a MEM_ATOMIC, or the read that
 * memsys makes of it with l2_atomic set) is performed here: looked up like
 * a read, answered through the hit latency or pop_ready, and in a
 * write-back cache it leaves the touched sectors dirty because the
 * operation writes them. In an L1 or a read-only cache it is passed down.
 */
static enum mem_cache_result access_atomic(struct mem_cache *c, const struct mem_req *r,
                                           uint64_t now)
{
    bool dirty = eff_wpol(c, r) == 'B';
    struct want wa = {.flags = W_REPLY | (dirty ? W_DIRTY : 0), .extra = 0, .ask_policy = false};
    struct probe p;

    if (r->type == MEM_ATOMIC && (c->l1 || c->g.wpol == 'R'))
        return send_read(c, r, false);
    probe(c, r, &p);
    if (p.idx != NONE && !(p.need & ~c->lines[p.idx].valid))
        return hit(c, r, &p, dirty, now);
    return want(c, r, &p, &wa, now);
}

/* Write hit: 'B' marks dirty; 'T' sends the write on; 'E' drops the line and sends it on. */
static enum mem_cache_result write_hit(struct mem_cache *c, const struct mem_req *r,
                                       const struct probe *p, char wp, uint64_t now)
{
    const struct cline *l = &c->lines[p->idx];
    bool evict = wp == 'E' && !l->pending;

    if (wp == 'B')
        return hit(c, r, p, true, now);
    if (!mq_room(c, (evict && l->dirty) ? 2u : 1u))
        return resfail(c, &c->st.resfail_missq);
    if (evict)
        mem_cache_evict(c, p->idx, p->set, now);
    else
        touch(c, r, p, now);
    mem_cache_push_down(c, r);
    return MEM_HIT;
}

/* Marks the written sectors valid (and dirty under write-back) in line idx. */
static void lazy_write(struct mem_cache *c, uint32_t idx, uint8_t need, bool dirty)
{
    c->lines[idx].valid |= need;
    if (dirty)
        c->lines[idx].dirty |= need;
}

/* Lazy fetch on read: the written sectors become valid without a fetch. */
static enum mem_cache_result write_lazy(struct mem_cache *c, const struct mem_req *r,
                                        const struct probe *p, char wp, uint64_t now)
{
    bool dirty = wp == 'B';
    uint32_t extra = dirty ? 0 : 1, victim, mi;

    if (p->idx != NONE) {
        if (!mq_room(c, extra))
            return resfail(c, &c->st.resfail_missq);
        lazy_write(c, p->idx, p->need, dirty);
        touch(c, r, p, now);
    } else {
        victim = mem_cache_pick_victim(c, p->set, now);
        if (victim == NONE)
            return resfail(c, &c->st.resfail_line);
        if (!mq_room(c, extra + (c->lines[victim].valid && c->lines[victim].dirty)))
            return resfail(c, &c->st.resfail_missq);
        mem_cache_evict(c, victim, p->set, now);
        mem_cache_install(c, victim, p->line, r, now);
        lazy_write(c, victim, p->need, dirty);
        mi = mem_cache_mshr_find(c, p->line);
        if (mi != NONE) /* an allocate-on-fill fetch is on its way: it fills this line */
            mem_cache_mshr_link(c, mi, victim);
    }
    if (!dirty)
        mem_cache_push_down(c, r);
    return MEM_MISS;
}

/*
 * Fetch on write ('W', 'F'): allocate and fetch like a read; the write
 * waits in the MSHR and dirties its sectors when they arrive (write-back).
 * A write-through cache also sends the write on now.
 */
static enum mem_cache_result write_fetch(struct mem_cache *c, const struct mem_req *r,
                                         const struct probe *p, char wp, uint64_t now)
{
    struct want wa = {.flags = wp == 'B' ? W_DIRTY : 0, .extra = wp != 'B', .ask_policy = false};
    enum mem_cache_result res = want(c, r, p, &wa, now);

    if (res != MEM_RESFAIL && wp != 'B')
        mem_cache_push_down(c, r);
    return res;
}

/*
 * A store missed and went on without allocating: show the observer the line
 * GPGPU-Sim's tag probe picks for it (see MEM_OBS_STORE_MISS): the store's
 * own pending line, else the least recently used valid line of the set
 * unless a way is free or every other way is reserved. Nothing changes.
 */
static void observe_store_miss(struct mem_cache *c, const struct mem_req *r, const struct probe *p,
                               uint64_t now)
{
    uint32_t base = p->set * c->g.assoc, pick = p->idx;
    struct mem_req a;

    for (uint32_t w = 0; p->idx == NONE && w < c->g.assoc; w++) {
        const struct cline *l = &c->lines[base + w];

        if (l->pending)
            continue;
        if (!l->valid)
            return; /* GPGPU-Sim would take the free way: no line to tell of */
        if (pick == NONE || l->last_use < c->lines[pick].last_use)
            pick = base + w;
    }
    if (pick == NONE)
        return;
    a = (struct mem_req){.addr = c->lines[pick].tag << c->line_shift,
                         .type = p->idx == NONE ? MEM_READ : MEM_WRITE,
                         .space = c->lines[pick].space,
                         .sm = c->lines[pick].sm,
                         .warp = c->lines[pick].warp,
                         .pc = c->lines[pick].pc,
                         .t_issue = c->lines[pick].insert_time};
    c->obs(c->obs_ctx, MEM_OBS_STORE_MISS, &a, c->lines[pick].tag, r->warp, now);
}

/* A write that misses and does not allocate goes on; an L1's observer hears of it. */
static enum mem_cache_result write_miss_on(struct mem_cache *c, const struct mem_req *r,
                                           const struct probe *p, uint64_t now)
{
    enum mem_cache_result res = send_write(c, r);

    if (res != MEM_RESFAIL && c->obs && c->l1)
        observe_store_miss(c, r, p, now);
    return res;
}

static enum mem_cache_result access_write(struct mem_cache *c, const struct mem_req *r,
                                          uint64_t now)
{
    char wp = eff_wpol(c, r);
    struct probe p;

    if (wp == 'R')
        return send_write(c, r);
    probe(c, r, &p);
    if (p.idx != NONE && !(p.need & ~c->lines[p.idx].valid))
        return write_hit(c, r, &p, wp, now);
    switch (c->g.walloc) {
    case 'L':
        return write_lazy(c, r, &p, wp, now);
    case 'W':
    case 'F':
        return write_fetch(c, r, &p, wp, now);
    default:
        return write_miss_on(c, r, &p, now);
    }
}

static void count(struct mem_cache *c, const struct mem_req *r, enum mem_cache_result res,
                  uint64_t now)
{
    if (res == MEM_RESFAIL)
        return;
    /*
     * An L1 passes .cg loads and atomics straight to the L2; GPGPU-Sim's
     * L1D never sees them, so they are not L1 accesses here either.
     */
    if (c->l1 && (r->type == MEM_ATOMIC || r->cacheop == CACHEOP_CG)) {
        c->st.uncached++;
        return;
    }
    if (c->obs && res != MEM_SENT)
        c->obs(c->obs_ctx,
               res == MEM_MISS           ? MEM_OBS_MISS
               : res == MEM_HIT_RESERVED ? MEM_OBS_MERGE
                                         : MEM_OBS_HIT,
               r, r->addr >> c->line_shift, r->warp, now);
    c->st.accesses++;
    if (r->type == MEM_READ)
        c->st.reads++;
    else if (r->type == MEM_WRITE)
        c->st.writes++;
    if (r->type == MEM_READ) { /* the read/write split of GPGPU-Sim's breakdown */
        c->st.rd_hits += res == MEM_HIT;
        c->st.rd_hit_reserved += res == MEM_HIT_RESERVED;
    }
    if (res == MEM_HIT)
        c->st.hits++;
    else if (res == MEM_SENT)
        c->st.sent++;
    else
        c->st.misses++;
}

/*
 * The same request failed last time and nothing has changed since: it would
 * fail again for the same reason, with no other effect (the policy's choices
 * change nothing, and on_miss's answer is memoised), so only the count is
 * repeated. The LD/ST unit retries its head request every cycle while the
 * MSHRs are full, which in a memory-bound kernel is most L1D accesses.
 */
static bool replays_failure(const struct mem_cache *c, const struct mem_req *r)
{
    return c->fail_valid && c->fail_gen == c->gen &&
           (c->fail_missq_gen == c->missq_gen || c->fail_lack != &c->st.resfail_missq) &&
           !memcmp(&c->fail_req, r, sizeof(*r));
}

bool mem_cache_fails_again(const struct mem_cache *c, const struct mem_req *r)
{
    return replays_failure(c, r);
}

void mem_cache_count_failures(struct mem_cache *c, uint64_t n)
{
    *c->fail_lack += n;
    c->st.resfail += n;
}

enum mem_cache_result mem_cache_access(struct mem_cache *c, const struct mem_req *r, uint64_t now)
{
    enum mem_cache_result res;

    if (replays_failure(c, r))
        return resfail(c, c->fail_lack);
    if (r->type == MEM_WRITE)
        res = access_write(c, r, now);
    else if (r->type == MEM_ATOMIC || (r->l2_atomic && !c->l1))
        res = access_atomic(c, r, now);
    else
        res = access_read(c, r, now);
    if (res != MEM_RESFAIL) {
        c->gen++;
    } else if (c->replay_ok) {
        c->fail_valid = true;
        c->fail_gen = c->gen;
        c->fail_missq_gen = c->missq_gen;
        c->fail_lack = c->last_lack;
        memcpy(&c->fail_req, r, sizeof(*r));
    }
    count(c, r, res, now);
    return res;
}

const struct mem_req *mem_cache_peek_miss(const struct mem_cache *c)
{
    return ps_ring_head(&c->missq);
}

bool mem_cache_pop_miss(struct mem_cache *c, struct mem_req *out)
{
    if (!PS_RING_POP(&c->missq, out))
        return false;
    c->missq_gen++;
    return true;
}

bool mem_cache_pop_ready(struct mem_cache *c, struct mem_req *out)
{
    return PS_RING_POP(&c->ready, out); /* no access reads the ready queue */
}

bool mem_cache_busy(const struct mem_cache *c)
{
    return c->nmfree < c->g.mshr_entries || c->missq.n || c->ready.n || c->ntok_live;
}

const struct mem_cache_stats *mem_cache_get_stats(const struct mem_cache *c)
{
    return &c->st;
}

const struct mem_cache_geom *mem_cache_get_geom(const struct mem_cache *c)
{
    return &c->g;
}
