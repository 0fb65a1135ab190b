/*
 * The interconnect: a crossbar between nin source ports and nout
 * destination ports that moves packets as flits of flit_bytes. Each input
 * injects and each output ejects at most one flit per cycle; outputs pick
 * among contending inputs round robin; a packet reaches its output
 * `latency` cycles after its last flit crossed, and waits in the output's
 * ejection buffer until popped. GPGPU-Sim's two subnets (requests SM ->
 * memory, replies memory -> SM) are two instances.
 */
#ifndef PTXSIM_MEMSYS_ICNT_H
#define PTXSIM_MEMSYS_ICNT_H

#include <stdbool.h>
#include <stdint.h>

#include "common/err.h"
#include "memsys/req.h"

struct mem_icnt_params {
    uint32_t nin, nout;
    uint32_t flit_bytes;
    uint32_t latency;      /* cycles added to every packet */
    uint32_t in_buf_flits; /* per input port (0 = unlimited) */
    uint32_t out_buf_pkts; /* ejection buffer per output port (0 = unlimited) */
};

struct mem_icnt_stats {
    uint64_t cycles, packets, flits, bytes;
    uint64_t in_stall;     /* pushes refused because an input buffer was full */
    uint64_t out_conflict; /* flit-cycles an input waited for a busy output */
    uint64_t latency_sum;  /* cycles from push to arrival, over packets */
};

struct mem_icnt;

struct mem_icnt *mem_icnt_create(const struct mem_icnt_params *p, struct ps_err *err);
void mem_icnt_destroy(struct mem_icnt *n);

/* Room at input src for a packet of `bytes` payload bytes? */
bool mem_icnt_can_push(const struct mem_icnt *n, uint32_t src, uint32_t bytes);
void mem_icnt_push(struct mem_icnt *n, uint32_t src, uint32_t dst, const struct mem_req *r,
                   uint32_t bytes);
void mem_icnt_cycle(struct mem_icnt *n);
/* Next packet delivered at output dst. */
const struct mem_req *mem_icnt_peek(const struct mem_icnt *n, uint32_t dst);
/* A packet can be popped at output dst (mem_icnt_peek would return one). */
bool mem_icnt_ready(const struct mem_icnt *n, uint32_t dst);
bool mem_icnt_pop(struct mem_icnt *n, uint32_t dst, struct mem_req *out);
/*
 * Callers may run in parallel, one per port (the timing model's parallel
 * phase): can_push and push touch only input src (the network's counts take
 * the pushes in at its next cycle), can_push counts a refusal there, and
 * mem_icnt_pop touches only output dst's port (each input keeps its own
 * count, which mem_icnt_get_stats adds up; an output's ejection buffer is
 * the packets arrived there less those popped). mem_icnt_room is can_push
 * without counting; mem_icnt_count_stalls counts k refusals at input src.
 */
bool mem_icnt_room(const struct mem_icnt *n, uint32_t src, uint32_t bytes);
void mem_icnt_count_stalls(struct mem_icnt *n, uint32_t src, uint32_t k);

/*
 * Staged outputs, so that mem_icnt_cycle can run beside the poppers (each
 * output popped by one caller): packets a cycle delivers wait in a stage of
 * the current phase, and each popper moves the other phase's stage to its
 * port with mem_icnt_drain before it peeks or pops. The caller's part:
 * - mem_icnt_advance when a cycle is due, before it runs: the poppers see
 *   the network's time move then (mem_icnt_cycle no longer moves it);
 * - mem_icnt_set_phase(n, k) at the start of the poppers' k-th cycle, with
 *   no mem_icnt_cycle running; the cycles due before the poppers' next
 *   cycle run (to the end) after it and before that next cycle starts;
 * - mem_icnt_drain(n, dst) for every output, once in each of the poppers'
 *   cycles, before it uses the output, and mem_icnt_publish_pops(n, dst)
 *   once in each, after its last pop;
 * - mem_icnt_set_concurrent(n, true) while a cycle runs beside the poppers'
 *   next cycle (it then counts the pops published in their cycle before,
 *   not the ones under way), false when it runs between their cycles.
 * The pops are then those of the unstaged network. mem_icnt_ready also sees
 * a packet still in the stage to drain. Only a network with a latency of
 * one cycle or more, and empty, can be staged (false otherwise, or out of
 * memory).
 */
bool mem_icnt_stage(struct mem_icnt *n);
void mem_icnt_advance(struct mem_icnt *n);
void mem_icnt_set_phase(struct mem_icnt *n, uint64_t phase);
void mem_icnt_drain(struct mem_icnt *n, uint32_t dst);
void mem_icnt_publish_pops(struct mem_icnt *n, uint32_t dst);
void mem_icnt_set_concurrent(struct mem_icnt *n, bool on);
/* Packets buffered or held anywhere: not to be called while a cycle or a popper runs. */
bool mem_icnt_busy(const struct mem_icnt *n);

const struct mem_icnt_stats *mem_icnt_get_stats(const struct mem_icnt *n);

#endif
