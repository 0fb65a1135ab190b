/*
 * Private to the cache core (memsys/cache.c: the access paths and queues;
 * memsys/cache_tags.c: creation, tag array, MSHRs, tokens, fill and
 * invalidate). Nothing outside memsys/cache*.c includes this.
 */
#ifndef PTXSIM_MEMSYS_CACHE_INT_H
#define PTXSIM_MEMSYS_CACHE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "common/ring.h"
#include "memsys/cache.h"

#define NONE UINT32_MAX

/* uid of write-backs: this bit set, a per-cache sequence number below. */
#define MEM_CACHE_WB_UID_BIT (1ull << 63)

/* Waiter flags: answered through pop_ready; marks its sectors dirty when released. */
enum { W_REPLY = 1, W_DIRTY = 2 };

/* What a token stands for: a line fetch of an MSHR entry, or a read passed down whole. */
enum { TOK_FREE, TOK_FETCH, TOK_SENT };

struct cline {
    uint64_t tag; /* line address (addr >> line_shift) */
    uint64_t last_use, insert_time;
    uint32_t pc;
    uint32_t hits; /* since the allocation, saturating */
    uint16_t warp, sm;
    uint8_t space;
    uint8_t valid, dirty, pending; /* sector masks; bit 0 alone in a normal cache */
};

struct waiter {
    struct mem_req req;
    uint8_t need; /* sectors it waits for */
    uint8_t flags;
};

struct mshr {
    uint64_t line;
    uint32_t way;    /* line index (set * assoc + way) it fills, NONE until chosen */
    uint32_t nwait;  /* waiters in use */
    uint32_t next;   /* free-list link */
    uint8_t pending; /* sectors requested and not yet filled */
    uint8_t got;     /* sectors filled so far */
};

struct token {
    uint32_t gen;  /* bumped on every release, so a stale uid never matches */
    uint32_t next; /* free-list link */
    uint32_t mshr;
    uint8_t kind;
    uint8_t mask;
    struct mem_req orig; /* TOK_SENT: the request as it arrived */
};

struct probe {
    uint64_t line;
    uint32_t set;
    uint32_t idx; /* matching line (set * assoc + way) or NONE */
    uint8_t need; /* sectors the request touches */
};

/* How a request that needs data waits for it. */
struct want {
    uint8_t flags;   /* W_REPLY, W_DIRTY */
    uint32_t extra;  /* miss-queue entries the caller uses after success */
    bool ask_policy; /* a read: the policy may send it down instead */
};

struct mem_cache {
    struct mem_cache_geom g;
    char name[32];
    const struct pol_l1d_ops *pol;
    void *pol_st;
    bool l1; /* created for an SM: .cg/.cs reads bypass, atomics pass down */
    bool sectored;
    uint32_t line_shift;
    struct cline *lines; /* nsets * assoc */
    struct pol_line_view *views;
    unsigned char *pol_lines; /* nsets * assoc * pol->line_state_bytes: the policy's line state */
    struct mshr *mshrs;
    struct waiter *waiters; /* mshr_max_merge per entry */
    uint32_t mfree, nmfree; /* free MSHR list */
    uint32_t *mhash;        /* line -> MSHR, open addressing */
    uint32_t hmask, hbits;
    struct token *toks;
    uint32_t ntoks, tfree, ntok_live;
    uint64_t wb_seq;
    struct ps_ring missq, ready; /* of struct mem_req, grown on demand */
    struct mem_cache_stats st;
    /* Optional: the address the set index is taken from (L2 slices: the partition address). */
    uint64_t (*index_addr)(const void *ctx, uint64_t addr);
    const void *index_ctx;
    mem_cache_observer obs;
    void *obs_ctx;
    /* The policy's on_miss answer for the request being retried (asked once per request). */
    bool memo_valid, memo_alloc;
    uint64_t memo_uid, memo_line;
    /*
     * A failed access retried unchanged fails the same way while nothing it
     * reads has changed: gen counts the changes (every successful access,
     * fill and flush), missq_gen the miss queue's pops, which only give it
     * room and so matter only to a failure for lack of it (every other
     * check an access makes comes before or does not read the queue);
     * last_lack is the counter the last failure charged. Only for policies
     * whose choices change nothing (replay_ok).
     */
    bool replay_ok, fail_valid;
    uint64_t gen, fail_gen, missq_gen, fail_missq_gen;
    uint64_t *last_lack, *fail_lack;
    struct mem_req fail_req;
};

static inline uint32_t mem_cache_set_of(const struct mem_cache *c, uint64_t addr)
{
    return mem_cache_geom_set_index(&c->g,
                                    c->index_addr ? c->index_addr(c->index_ctx, addr) : addr);
}

/* Sectors of addr's 128-byte line that [addr, addr + bytes) touches, clipped to that line. */
uint8_t mem_cache_span_mask(uint64_t addr, uint32_t bytes);

bool mem_cache_tok_reserve(struct mem_cache *c);
uint64_t mem_cache_tok_new(struct mem_cache *c, uint8_t kind, uint32_t mshr, uint8_t mask,
                           const struct mem_req *orig);

uint32_t mem_cache_mshr_find(const struct mem_cache *c, uint64_t line);
uint32_t mem_cache_mshr_alloc(struct mem_cache *c, uint64_t line, uint32_t way);
void mem_cache_mshr_link(struct mem_cache *c, uint32_t mi, uint32_t way);

uint32_t mem_cache_pick_victim(struct mem_cache *c, uint32_t set, uint64_t now);
void mem_cache_evict(struct mem_cache *c, uint32_t idx, uint32_t set, uint64_t now);
void mem_cache_install(struct mem_cache *c, uint32_t idx, uint64_t line, const struct mem_req *r,
                       uint64_t now);

/*
 * Appends r to a queue. Paths that may fail reserve room first; paths that
 * may not (fills, invalidate) push past the nominal capacity, and a failed
 * growth there drops the request: only out of host memory.
 */
static inline void mem_cache_rq_push(struct ps_ring *q, const struct mem_req *r)
{
    if (ps_ring_reserve(q, 1))
        PS_RING_PUSH(q, r);
}

/* Answers to the SM or the next level up (pop_ready). */
static inline void mem_cache_push_ready(struct mem_cache *c, const struct mem_req *r)
{
    mem_cache_rq_push(&c->ready, r);
}

/* Requests for the next level down (pop_miss). */
static inline void mem_cache_push_down(struct mem_cache *c, const struct mem_req *r)
{
    mem_cache_rq_push(&c->missq, r);
}

#endif
