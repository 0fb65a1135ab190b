/*
 * The one ring buffer of the simulator: a FIFO of fixed-size elements used
 * by every queue between pipeline stages (memory-system queues, the cache's
 * miss and ready queues, the LD/ST unit's queues, the L1D front queues).
 * A ring made with a capacity is bounded and the caller checks
 * ps_ring_full; a ring that must not refuse (a cache's ready queue) grows
 * with ps_ring_reserve, keeping its order.
 */
#ifndef PTXSIM_COMMON_RING_H
#define PTXSIM_COMMON_RING_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct ps_ring {
    unsigned char *buf;
    size_t esize;
    uint32_t cap;  /* elements it may hold (ps_ring_full); grows with ps_ring_reserve */
    uint32_t mask; /* storage is a power of two, mask + 1 elements, so indices wrap with it */
    uint32_t head, n;
};

/* An empty ring of elements of esize bytes with room for cap (0: none until reserved). */
int ps_ring_init(struct ps_ring *r, size_t esize, uint32_t cap);
void ps_ring_fini(struct ps_ring *r);
/* Room for n more elements, growing (doubling, from 8) if needed; false only out of memory. */
bool ps_ring_reserve(struct ps_ring *r, uint32_t n);

static inline bool ps_ring_full(const struct ps_ring *r)
{
    return r->n == r->cap;
}

/* The element i places behind the head (i < n). */
static inline void *ps_ring_at(const struct ps_ring *r, uint32_t i)
{
    return r->buf + (size_t)((r->head + i) & r->mask) * r->esize;
}

/* The head element, or NULL when the ring is empty. */
static inline void *ps_ring_head(const struct ps_ring *r)
{
    return r->n ? r->buf + (size_t)r->head * r->esize : NULL;
}

/* Appends a copy of e, esize bytes (the ring's); the caller has checked for room. */
static inline void ps_ring_push_sized(struct ps_ring *r, const void *e, size_t esize)
{
    assert(esize == r->esize);
    memcpy(ps_ring_at(r, r->n), e, esize);
    r->n++;
}

/* Removes the head, copying its esize bytes to out (if not NULL); false when empty. */
static inline bool ps_ring_pop_sized(struct ps_ring *r, void *out, size_t esize)
{
    assert(esize == r->esize);
    if (!r->n)
        return false;
    if (out)
        memcpy(out, r->buf + (size_t)r->head * r->esize, esize);
    r->head = (r->head + 1) & r->mask;
    r->n--;
    return true;
}

/* Appends a copy of e; the caller has checked for room (ps_ring_full or ps_ring_reserve). */
static inline void ps_ring_push(struct ps_ring *r, const void *e)
{
    ps_ring_push_sized(r, e, r->esize);
}

/* Removes the head, copying it to out (if not NULL); false when empty. */
static inline bool ps_ring_pop(struct ps_ring *r, void *out)
{
    return ps_ring_pop_sized(r, out, r->esize);
}

/*
 * The same for a caller whose element type the compiler knows (e points to
 * one): the copy's size is then a constant, which becomes a few moves
 * instead of a library call. The memory system's queues move requests
 * through these rings every cycle, and that call was 2-3% of a
 * memory-bound run. The ring's element size must be the type's.
 */
#define PS_RING_PUSH(r, e) ps_ring_push_sized((r), (e), sizeof(*(e)))
#define PS_RING_POP(r, out) ps_ring_pop_sized((r), (out), sizeof(*(out)))

#endif
