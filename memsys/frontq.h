/*
 * A front-queue stage in front of an L1D, configured by the cache's
 * replacement policy (policies/l1d.h `reorder`: how many queues, how deep):
 * the requests of each memory instruction go to queue warp % nqueues,
 * which holds up to `depth` instructions; the stage drains its current
 * queue until it is empty, then moves on to the next non-empty one. The
 * issuing unit accepts a new instruction while earlier ones wait here.
 */
#ifndef PTXSIM_MEMSYS_FRONTQ_H
#define PTXSIM_MEMSYS_FRONTQ_H

#include <stdbool.h>
#include <stdint.h>

#include "memsys/req.h"

struct mem_frontq;

/*
 * nqueues queues of depth instructions, each of up to per_instr requests.
 * NULL when nqueues or depth is 0 (no stage) or out of memory (*oom set).
 */
struct mem_frontq *mem_frontq_create(uint32_t nqueues, uint32_t depth, uint32_t per_instr,
                                     bool *oom);
void mem_frontq_destroy(struct mem_frontq *f);

/* Whether warp's queue can take another instruction. */
bool mem_frontq_room(const struct mem_frontq *f, uint32_t warp);
/* The n requests of one instruction of warp reqs[0].warp, each due at cycle `at`. */
void mem_frontq_push(struct mem_frontq *f, const struct mem_req *reqs, uint32_t n, uint64_t at);
/* Requests waiting in all queues. */
uint32_t mem_frontq_pending(const struct mem_frontq *f);
/*
 * The request whose turn it is (moving on from an empty current queue), or
 * NULL when the stage is empty or that request is not due at now.
 */
const struct mem_req *mem_frontq_peek(struct mem_frontq *f, uint64_t now);
/* The peeked request went on to the cache. */
void mem_frontq_pop(struct mem_frontq *f);

#endif
