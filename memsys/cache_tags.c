/*
 * The cache's bookkeeping: creation, the tag array (victims, evictions,
 * installs), the MSHR pool with its line-address hash, the tokens that name
 * reads in flight below, and the two events that come from outside an
 * access: a fill from the next level and the kernel-end invalidate.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memsys/cache_int.h"
#include "policies/create.h"
#include "policies/l1d_builtin.h"

/* Generations stay below bit 31 so a token never has MEM_CACHE_WB_UID_BIT set. */
#define TOK_GEN_MASK 0x7fffffffu

uint8_t mem_cache_span_mask(uint64_t addr, uint32_t bytes)
{
    uint32_t off = (uint32_t)(addr % (4 * MEM_SECTOR_BYTES));
    uint32_t end = off + (bytes ? bytes : 1);
    uint32_t first, last;

    if (end > 4 * MEM_SECTOR_BYTES)
        end = 4 * MEM_SECTOR_BYTES;
    first = off / MEM_SECTOR_BYTES;
    last = (end - 1) / MEM_SECTOR_BYTES;
    return (uint8_t)(((1u << (last + 1)) - 1) & ~((1u << first) - 1));
}

/* ---- tokens ---- */

bool mem_cache_tok_reserve(struct mem_cache *c)
{
    uint32_t cap = c->ntoks ? c->ntoks * 2 : 64;
    struct token *t;

    if (c->tfree != NONE)
        return true;
    t = realloc(c->toks, sizeof(*t) * cap);
    if (!t)
        return false;
    c->toks = t;
    for (uint32_t i = cap; i-- > c->ntoks;) {
        memset(&t[i], 0, sizeof(t[i]));
        t[i].gen = 1;
        t[i].next = c->tfree;
        c->tfree = i;
    }
    c->ntoks = cap;
    return true;
}

uint64_t mem_cache_tok_new(struct mem_cache *c, uint8_t kind, uint32_t mshr, uint8_t mask,
                           const struct mem_req *orig)
{
    uint32_t i = c->tfree;
    struct token *t = &c->toks[i];

    c->tfree = t->next;
    t->kind = kind;
    t->mshr = mshr;
    t->mask = mask;
    if (orig)
        t->orig = *orig;
    c->ntok_live++;
    return (uint64_t)t->gen << 32 | i;
}

static struct token *tok_get(struct mem_cache *c, uint64_t uid)
{
    uint32_t i = (uint32_t)uid;

    if (i >= c->ntoks || c->toks[i].kind == TOK_FREE || c->toks[i].gen != uid >> 32)
        return NULL;
    return &c->toks[i];
}

static void tok_release(struct mem_cache *c, struct token *t)
{
    uint32_t i = (uint32_t)(t - c->toks);

    t->kind = TOK_FREE;
    t->gen = (t->gen + 1) & TOK_GEN_MASK;
    if (t->gen == 0)
        t->gen = 1;
    t->next = c->tfree;
    c->tfree = i;
    c->ntok_live--;
}

/* ---- MSHRs: a pool with a free list and a line -> entry hash (linear probing) ---- */

static uint32_t mhash_home(const struct mem_cache *c, uint64_t line)
{
    return (uint32_t)((line * 0x9e3779b97f4a7c15ull) >> (64 - c->hbits));
}

uint32_t mem_cache_mshr_find(const struct mem_cache *c, uint64_t line)
{
    for (uint32_t h = mhash_home(c, line); c->mhash[h] != NONE; h = (h + 1) & c->hmask) {
        if (c->mshrs[c->mhash[h]].line == line)
            return c->mhash[h];
    }
    return NONE;
}

/* True when home slot k does not lie cyclically in (hole, j]: entry j may move to the hole. */
static bool may_move(uint32_t hole, uint32_t j, uint32_t k)
{
    if (hole <= j)
        return k <= hole || k > j;
    return k <= hole && k > j;
}

/* Removes entry mi from the hash, shifting later entries of its run back (no tombstones). */
static void mhash_del(struct mem_cache *c, uint32_t mi)
{
    uint32_t hole = mhash_home(c, c->mshrs[mi].line), j;

    while (c->mhash[hole] != mi)
        hole = (hole + 1) & c->hmask;
    for (j = (hole + 1) & c->hmask; c->mhash[j] != NONE; j = (j + 1) & c->hmask) {
        if (may_move(hole, j, mhash_home(c, c->mshrs[c->mhash[j]].line))) {
            c->mhash[hole] = c->mhash[j];
            hole = j;
        }
    }
    c->mhash[hole] = NONE;
}

uint32_t mem_cache_mshr_alloc(struct mem_cache *c, uint64_t line, uint32_t way)
{
    uint32_t mi = c->mfree, h;
    struct mshr *e = &c->mshrs[mi];

    c->mfree = e->next;
    c->nmfree--;
    e->line = line;
    e->way = way;
    e->nwait = 0;
    e->pending = 0;
    e->got = 0;
    for (h = mhash_home(c, line); c->mhash[h] != NONE; h = (h + 1) & c->hmask)
        ;
    c->mhash[h] = mi;
    return mi;
}

static void mshr_release(struct mem_cache *c, uint32_t mi)
{
    mhash_del(c, mi);
    c->mshrs[mi].way = NONE;
    c->mshrs[mi].next = c->mfree;
    c->mfree = mi;
    c->nmfree++;
}

void mem_cache_mshr_link(struct mem_cache *c, uint32_t mi, uint32_t way)
{
    c->mshrs[mi].way = way;
    c->lines[way].pending |= c->mshrs[mi].pending;
}

/* ---- tag array ---- */

static void line_view(const struct mem_cache *c, uint32_t idx, struct pol_line_view *v)
{
    const struct cline *l = &c->lines[idx];

    v->tag = l->tag;
    v->valid = l->valid != 0;
    v->reserved = l->pending != 0;
    v->dirty = l->dirty != 0;
    v->last_use = l->last_use;
    v->insert_time = l->insert_time;
    v->warp = l->warp;
    v->pc = l->pc;
    v->hits = l->hits;
    v->state = c->pol_lines ? c->pol_lines + (size_t)idx * c->pol->line_state_bytes : NULL;
}

/* The policy's victim in set, as a line index; NONE when it finds only reserved ways. */
uint32_t mem_cache_pick_victim(struct mem_cache *c, uint32_t set, uint64_t now)
{
    uint32_t base = set * c->g.assoc, w;

    for (w = 0; w < c->g.assoc; w++)
        line_view(c, base + w, &c->views[w]);
    w = c->pol->victim(c->pol_st, set, c->views, c->g.assoc, now);
    /* A reserved line is never given up, whatever the policy says. */
    if (w >= c->g.assoc || c->lines[base + w].pending)
        return NONE;
    return base + w;
}

static void queue_writeback(struct mem_cache *c, const struct cline *l, uint64_t now)
{
    struct mem_req w;

    memset(&w, 0, sizeof(w));
    w.addr = l->tag << c->line_shift;
    w.type = MEM_WRITE;
    w.space = l->space;
    w.is_writeback = true;
    w.sm = l->sm;
    w.warp = l->warp;
    w.pc = l->pc;
    w.t_issue = now;
    w.bytes = c->sectored ? MEM_SECTOR_BYTES * mem_sectors(l->dirty) : c->g.line_bytes;
    w.sector_mask = c->sectored ? l->dirty : mem_cache_span_mask(w.addr, c->g.line_bytes);
    w.uid = MEM_CACHE_WB_UID_BIT | c->wb_seq++;
    mem_cache_push_down(c, &w);
    c->st.writebacks++;
}

/* Empties line idx for reuse: a valid line is an eviction, written back when dirty. */
void mem_cache_evict(struct mem_cache *c, uint32_t idx, uint32_t set, uint64_t now)
{
    struct cline *l = &c->lines[idx];
    struct pol_line_view v;

    if (l->valid) {
        if (l->dirty)
            queue_writeback(c, l, now);
        if (!l->hits)
            c->st.evict_noreuse++;
        if (c->pol->on_evict) {
            line_view(c, idx, &v);
            c->pol->on_evict(c->pol_st, &v, set, idx - set * c->g.assoc, now);
        }
        if (c->obs) {
            /* The line as the request that allocated it: t_issue is the allocation cycle. */
            struct mem_req a = {.addr = l->tag << c->line_shift,
                                .type = MEM_READ,
                                .space = l->space,
                                .sm = l->sm,
                                .warp = l->warp,
                                .pc = l->pc,
                                .t_issue = l->insert_time};

            c->obs(c->obs_ctx, MEM_OBS_EVICT, &a, l->tag, l->warp, now);
        }
        c->st.evictions++;
    }
    l->valid = l->dirty = l->pending = 0;
}

void mem_cache_install(struct mem_cache *c, uint32_t idx, uint64_t line, const struct mem_req *r,
                       uint64_t now)
{
    struct cline *l = &c->lines[idx];

    l->tag = line;
    l->valid = l->dirty = l->pending = 0;
    l->last_use = l->insert_time = now;
    l->hits = 0;
    l->pc = r->pc;
    l->warp = r->warp;
    l->sm = r->sm;
    l->space = r->space;
    if (c->pol->on_insert)
        c->pol->on_insert(c->pol_st, r, idx / c->g.assoc, idx % c->g.assoc, now);
}

/* ---- fill ---- */

/* Allocate-on-fill: the victim is chosen now. NONE (all ways reserved): the data passes by. */
static uint32_t install_on_fill(struct mem_cache *c, const struct mshr *e, const struct mem_req *r,
                                uint64_t now)
{
    uint32_t set = mem_cache_set_of(c, e->line << c->line_shift);
    uint32_t idx = mem_cache_pick_victim(c, set, now);

    if (idx == NONE)
        return NONE;
    mem_cache_evict(c, idx, set, now);
    mem_cache_install(c, idx, e->line, r, now);
    c->lines[idx].pending = e->pending;
    return idx;
}

static void finish_waiter(struct mem_cache *c, struct cline *l, const struct waiter *w)
{
    struct mem_req wr;

    if (w->flags & W_DIRTY) {
        if (l) {
            l->dirty |= w->need & l->valid;
        } else { /* no line to hold the write: it goes on down */
            wr = w->req;
            wr.type = MEM_WRITE;
            mem_cache_push_down(c, &wr);
        }
    }
    if (w->flags & W_REPLY)
        mem_cache_push_ready(c, &w->req);
}

/* Releases, in merge order, the waiters whose sectors are all here (all of them when done). */
static void release_waiters(struct mem_cache *c, uint32_t mi)
{
    struct mshr *e = &c->mshrs[mi];
    struct cline *l = e->way != NONE ? &c->lines[e->way] : NULL;
    struct waiter *w = &c->waiters[(size_t)mi * c->g.mshr_max_merge];
    uint8_t avail = (l ? l->valid : 0) | e->got;
    uint32_t keep = 0;

    for (uint32_t i = 0; i < e->nwait; i++) {
        if (e->pending && (w[i].need & ~avail)) {
            w[keep++] = w[i];
            continue;
        }
        finish_waiter(c, l, &w[i]);
    }
    e->nwait = keep;
}

static void fill_entry(struct mem_cache *c, uint32_t mi, uint8_t mask, const struct mem_req *r,
                       uint64_t now)
{
    struct mshr *e = &c->mshrs[mi];
    struct cline *l;

    if (e->way == NONE)
        e->way = install_on_fill(c, e, r, now);
    e->got |= mask;
    e->pending &= (uint8_t)~mask;
    if (e->way != NONE) {
        l = &c->lines[e->way];
        l->valid |= mask;
        l->pending &= (uint8_t)~mask;
        l->last_use = now;
    }
    c->st.fills++;
    release_waiters(c, mi);
    if (e->pending == 0)
        mshr_release(c, mi);
}

void mem_cache_fill(struct mem_cache *c, const struct mem_req *r, uint64_t now)
{
    struct token *t = tok_get(c, r->uid);
    uint32_t mi;
    uint8_t mask;

    c->gen++;
    if (!t)
        return; /* not a read this cache sent: nothing waits for it */
    if (t->kind == TOK_SENT) {
        mem_cache_push_ready(c, &t->orig);
        tok_release(c, t);
        return;
    }
    mi = t->mshr;
    mask = t->mask;
    tok_release(c, t);
    fill_entry(c, mi, mask, r, now);
}

/*
 * Kernel end. Lines with a fetch in flight are left alone (their MSHR still
 * needs them); the policy is not told, since a flush says nothing about
 * reuse.
 */
void mem_cache_invalidate(struct mem_cache *c)
{
    uint32_t n = c->g.nsets * c->g.assoc;

    c->gen++;
    for (uint32_t i = 0; i < n; i++) {
        struct cline *l = &c->lines[i];

        if (!l->valid || l->pending)
            continue;
        if (l->dirty)
            queue_writeback(c, l, l->last_use);
        l->valid = l->dirty = 0;
    }
}

void mem_cache_warm(struct mem_cache *c, uint64_t addr, uint8_t mask, uint64_t now)
{
    uint64_t line = addr >> c->line_shift;
    uint32_t set = mem_cache_set_of(c, addr), base = set * c->g.assoc, idx = NONE;
    struct mem_req r = {.addr = line << c->line_shift, .type = MEM_WRITE, .space = MEM_GLOBAL};

    c->gen++;
    if (!c->sectored)
        mask = 1;
    for (uint32_t w = 0; w < c->g.assoc && idx == NONE; w++)
        if ((c->lines[base + w].valid | c->lines[base + w].pending) &&
            c->lines[base + w].tag == line)
            idx = base + w;
    if (idx == NONE) {
        if ((idx = mem_cache_pick_victim(c, set, now)) == NONE)
            return;
        c->lines[idx].dirty = 0;
        mem_cache_evict(c, idx, set, now);
        mem_cache_install(c, idx, line, &r, now);
    } else if (c->lines[idx].pending) {
        return;
    }
    c->lines[idx].valid |= mask;
    c->lines[idx].last_use = now;
}

/* ---- life cycle ---- */

static int alloc_arrays(struct mem_cache *c)
{
    const struct mem_cache_geom *g = &c->g;
    uint32_t nh;

    c->hbits = 1;
    while ((1u << c->hbits) < 2 * g->mshr_entries)
        c->hbits++;
    nh = 1u << c->hbits;
    c->hmask = nh - 1;
    c->lines = calloc((size_t)g->nsets * g->assoc, sizeof(*c->lines));
    c->views = calloc(g->assoc, sizeof(*c->views));
    c->mshrs = calloc(g->mshr_entries, sizeof(*c->mshrs));
    c->waiters = calloc((size_t)g->mshr_entries * g->mshr_max_merge, sizeof(*c->waiters));
    c->mhash = malloc(sizeof(*c->mhash) * nh);
    if (!c->lines || !c->views || !c->mshrs || !c->waiters || !c->mhash)
        return PS_ENOMEM;
    memset(c->mhash, 0xff, sizeof(*c->mhash) * nh);
    c->mfree = NONE;
    for (uint32_t i = g->mshr_entries; i-- > 0;) {
        c->mshrs[i].way = NONE;
        c->mshrs[i].next = c->mfree;
        c->mfree = i;
    }
    c->nmfree = g->mshr_entries;
    c->tfree = NONE;
    return 0;
}

static int init_policy(struct mem_cache *c, const struct pol_l1d_ops *pol, const char *args,
                       const struct pol_l1d_link *link, struct ps_err *err)
{
    struct pol_l1d_params p = {0};

    if (!pol) {
        pol = &pol_l1d_lru;
        args = c->g.repl == 'F' ? "fifo" : "";
    }
    if (!pol->victim || !pol->on_miss)
        return ps_err_set(err, PS_EINVAL, "cache %s: l1d policy %s lacks victim or on_miss",
                          c->name, pol->name ? pol->name : "(unnamed)");
    p.nsets = c->g.nsets;
    p.assoc = c->g.assoc;
    p.line_bytes = c->g.line_bytes;
    p.sm = link->sm;
    p.nsms = link->nsms;
    p.shared = link->shared;
    p.warp_query = link->warp_query;
    p.warp_query_ctx = link->warp_query_ctx;
    p.counters = c->st.pol;
    p.args = args ? args : "";
    c->pol = pol;
    c->replay_ok = pol->choices_pure && !pol->on_stall;
    if (pol->line_state_bytes) {
        c->pol_lines = calloc((size_t)c->g.nsets * c->g.assoc, pol->line_state_bytes);
        if (!c->pol_lines)
            return ps_err_set(err, PS_ENOMEM, "cache %s: out of memory", c->name);
        p.line_state = c->pol_lines;
    }
    if (!pol->create)
        return 0;
    c->pol_st = pol_l1d_create(pol, &p, err);
    if (c->pol_st)
        return 0;
    if (err && err->code)
        return err->code;
    return ps_err_set(err, PS_EINVAL, "cache %s: l1d policy %s failed to start", c->name,
                      pol->name ? pol->name : "(unnamed)");
}

struct mem_cache *mem_cache_create(const struct mem_cache_geom *g, const char *name,
                                   const struct pol_l1d_ops *pol, const char *pol_args, uint32_t sm,
                                   struct ps_err *err)
{
    struct pol_l1d_link link = {.sm = sm};

    return mem_cache_create_linked(g, name, pol, pol_args, &link, err);
}

struct mem_cache *mem_cache_create_linked(const struct mem_cache_geom *g, const char *name,
                                          const struct pol_l1d_ops *pol, const char *pol_args,
                                          const struct pol_l1d_link *link, struct ps_err *err)
{
    struct mem_cache *c;
    uint32_t sm = link->sm;

    if (mem_cache_geom_check(g, err))
        return NULL;
    c = calloc(1, sizeof(*c));
    if (!c)
        goto out_nomem;
    c->g = *g;
    snprintf(c->name, sizeof(c->name), "%s", name ? name : "cache");
    c->l1 = sm != UINT32_MAX;
    c->sectored = g->kind == 'S';
    c->line_shift = (uint32_t)__builtin_ctz(g->line_bytes);
    ps_ring_init(&c->missq, sizeof(struct mem_req), 0);
    ps_ring_init(&c->ready, sizeof(struct mem_req), 0);
    if (alloc_arrays(c))
        goto out_nomem;
    if (init_policy(c, pol, pol_args, link, err))
        goto out_free;
    return c;
out_nomem:
    ps_err_set(err, PS_ENOMEM, "cache %s: out of memory", name ? name : "cache");
out_free:
    mem_cache_destroy(c);
    return NULL;
}

void mem_cache_destroy(struct mem_cache *c)
{
    if (!c)
        return;
    if (c->pol && c->pol_st)
        pol_l1d_destroy(c->pol, c->pol_st);
    ps_ring_fini(&c->missq);
    ps_ring_fini(&c->ready);
    free(c->lines);
    free(c->views);
    free(c->pol_lines);
    free(c->mshrs);
    free(c->waiters);
    free(c->mhash);
    free(c->toks);
    free(c);
}

void mem_cache_set_index_fn(struct mem_cache *c, uint64_t (*fn)(const void *ctx, uint64_t addr),
                            const void *ctx)
{
    c->index_addr = fn;
    c->index_ctx = ctx;
}

void mem_cache_set_observer(struct mem_cache *c, mem_cache_observer fn, void *ctx)
{
    c->obs = fn;
    c->obs_ctx = ctx;
}

const char *const *mem_cache_policy_counter_names(const struct mem_cache *c)
{
    return c->pol ? c->pol->counter_names : NULL;
}

int mem_cache_policy_dump(const struct mem_cache *c, FILE *out, struct ps_err *err)
{
    if (!c->pol || !c->pol->dump)
        return 0;
    return c->pol->dump(c->pol_st, out, err);
}

void mem_cache_policy_reorder(const struct mem_cache *c, uint32_t *nqueues, uint32_t *depth)
{
    *nqueues = *depth = 0;
    if (c->pol && c->pol->reorder)
        c->pol->reorder(c->pol_st, nqueues, depth);
}
