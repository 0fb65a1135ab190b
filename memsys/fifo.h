/*
 * Bounded FIFOs of requests used between memory-system stages, optionally
 * with a ready time per entry (a fixed-latency delay line: entries enter in
 * time order, so the head is always the first to become ready).
 */
#ifndef PTXSIM_MEMSYS_FIFO_H
#define PTXSIM_MEMSYS_FIFO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "memsys/req.h"

struct mem_fifo {
    struct mem_req *r;
    uint64_t *ready;
    uint32_t cap, head, n;
};

static inline int mem_fifo_init(struct mem_fifo *f, uint32_t cap)
{
    f->cap = cap ? cap : 1;
    f->head = f->n = 0;
    f->r = malloc(f->cap * sizeof(*f->r));
    f->ready = malloc(f->cap * sizeof(*f->ready));
    return f->r && f->ready ? 0 : -1;
}

static inline void mem_fifo_fini(struct mem_fifo *f)
{
    free(f->r);
    free(f->ready);
    f->r = NULL;
    f->ready = NULL;
}

static inline bool mem_fifo_full(const struct mem_fifo *f)
{
    return f->n == f->cap;
}

static inline void mem_fifo_push(struct mem_fifo *f, const struct mem_req *r, uint64_t ready)
{
    uint32_t i = (f->head + f->n) % f->cap;

    f->r[i] = *r;
    f->ready[i] = ready;
    f->n++;
}

/* Head entry if it is ready at `now`, else NULL. */
static inline struct mem_req *mem_fifo_head(const struct mem_fifo *f, uint64_t now)
{
    return f->n && f->ready[f->head] <= now ? &f->r[f->head] : NULL;
}

static inline void mem_fifo_pop(struct mem_fifo *f)
{
    f->head = (f->head + 1) % f->cap;
    f->n--;
}

#endif
