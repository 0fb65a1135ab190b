/* The L1D front-queue stage; see frontq.h. */
#include "memsys/frontq.h"

#include <stdlib.h>

#include "common/ring.h"

struct fq_entry {
    struct mem_req r;
    uint64_t at; /* cycle from which the request may reach the cache */
    bool last;   /* the request ends its instruction */
};

struct fq_queue {
    struct ps_ring q; /* of struct fq_entry */
    uint32_t ninstr;  /* instructions with requests in the queue */
};

struct mem_frontq {
    struct fq_queue *q;
    uint32_t nq, depth, per_instr, cur, total;
};

struct mem_frontq *mem_frontq_create(uint32_t nqueues, uint32_t depth, uint32_t per_instr,
                                     bool *oom)
{
    struct mem_frontq *f;

    *oom = false;
    if (!nqueues || !depth)
        return NULL;
    f = calloc(1, sizeof(*f));
    if (f)
        f->q = calloc(nqueues, sizeof(*f->q));
    if (!f || !f->q)
        goto fail;
    f->nq = nqueues;
    f->depth = depth;
    f->per_instr = per_instr;
    for (uint32_t i = 0; i < nqueues; i++)
        if (ps_ring_init(&f->q[i].q, sizeof(struct fq_entry), depth * per_instr))
            goto fail;
    return f;
fail:
    *oom = true;
    mem_frontq_destroy(f);
    return NULL;
}

void mem_frontq_destroy(struct mem_frontq *f)
{
    if (!f)
        return;
    for (uint32_t i = 0; f->q && i < f->nq; i++)
        ps_ring_fini(&f->q[i].q);
    free(f->q);
    free(f);
}

bool mem_frontq_room(const struct mem_frontq *f, uint32_t warp)
{
    const struct fq_queue *q = &f->q[warp % f->nq];

    return q->ninstr < f->depth && q->q.cap - q->q.n >= f->per_instr;
}

void mem_frontq_push(struct mem_frontq *f, const struct mem_req *reqs, uint32_t n, uint64_t at)
{
    struct fq_queue *q = &f->q[reqs[0].warp % f->nq];

    for (uint32_t i = 0; i < n && !ps_ring_full(&q->q); i++) {
        struct fq_entry e = {reqs[i], at, i == n - 1};

        PS_RING_PUSH(&q->q, &e);
        f->total++;
    }
    q->ninstr++;
}

uint32_t mem_frontq_pending(const struct mem_frontq *f)
{
    return f ? f->total : 0;
}

const struct mem_req *mem_frontq_peek(struct mem_frontq *f, uint64_t now)
{
    struct fq_queue *q = &f->q[f->cur];
    const struct fq_entry *e;

    for (uint32_t k = 0; !q->q.n && k < f->nq; k++) {
        f->cur = (f->cur + 1) % f->nq;
        q = &f->q[f->cur];
    }
    e = ps_ring_head(&q->q);
    return e && e->at <= now ? &e->r : NULL;
}

void mem_frontq_pop(struct mem_frontq *f)
{
    struct fq_queue *q = &f->q[f->cur];
    struct fq_entry e;

    if (!PS_RING_POP(&q->q, &e))
        return;
    q->ninstr -= e.last;
    f->total--;
}
