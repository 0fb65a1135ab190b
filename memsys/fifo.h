/*
 * Bounded FIFOs of requests used between memory-system stages, with a
 * ready time per entry (a fixed-latency delay line: entries enter in time
 * order, so the head is always the first to become ready). A typed face of
 * the shared ring buffer (common/ring.h).
 */
#ifndef PTXSIM_MEMSYS_FIFO_H
#define PTXSIM_MEMSYS_FIFO_H

#include <stdbool.h>
#include <stdint.h>

#include "common/ring.h"
#include "memsys/req.h"

struct mem_fifo_entry {
    struct mem_req r;
    uint64_t ready;
};

struct mem_fifo {
    struct ps_ring q; /* of struct mem_fifo_entry */
};

static inline int mem_fifo_init(struct mem_fifo *f, uint32_t cap)
{
    return ps_ring_init(&f->q, sizeof(struct mem_fifo_entry), cap ? cap : 1);
}

static inline void mem_fifo_fini(struct mem_fifo *f)
{
    ps_ring_fini(&f->q);
}

static inline bool mem_fifo_full(const struct mem_fifo *f)
{
    return ps_ring_full(&f->q);
}

static inline void mem_fifo_push(struct mem_fifo *f, const struct mem_req *r, uint64_t ready)
{
    struct mem_fifo_entry e = {*r, ready};

    PS_RING_PUSH(&f->q, &e);
}

/* Head entry if it is ready at `now`, else NULL. */
static inline struct mem_req *mem_fifo_head(const struct mem_fifo *f, uint64_t now)
{
    struct mem_fifo_entry *e = ps_ring_head(&f->q);

    return e && e->ready <= now ? &e->r : NULL;
}

static inline void mem_fifo_pop(struct mem_fifo *f)
{
    ps_ring_pop(&f->q, NULL);
}

#endif
