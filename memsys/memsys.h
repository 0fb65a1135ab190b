/*
 * The memory system below the SMs' L1 caches: the request and reply
 * crossbars, the L2 sub-partitions (ROP delay queue, sectored L2 slice)
 * and the DRAM channels behind them. SMs send line requests that missed
 * (or bypassed) their L1s and pick up replies; the GPU advances each clock
 * domain with its own cycle function.
 */
#ifndef PTXSIM_MEMSYS_MEMSYS_H
#define PTXSIM_MEMSYS_MEMSYS_H

#include <stdbool.h>
#include <stdint.h>

#include "common/err.h"
#include "memsys/addrmap.h"
#include "memsys/cache.h"
#include "memsys/dram.h"
#include "memsys/icnt.h"
#include "memsys/req.h"

struct mem_system_params {
    uint32_t nsm;
    uint32_t nmem, nsub;     /* channels, sub-partitions per channel */
    struct mem_cache_geom l2;
    uint32_t rop_latency;    /* L2-clock cycles from arrival to the L2 lookup */
    uint32_t dram_latency;   /* DRAM-clock cycles every request spends before the DRAM scheduler */
    uint32_t partq[4];       /* queue depths icnt->L2, L2->DRAM, DRAM->L2, L2->icnt */
    struct mem_dram_params dram;
    struct mem_addrmap amap;
    struct mem_icnt_params icnt; /* nin/nout are filled in by mem_system_create */
    bool sector_replies;         /* a sectored L2 answers a read one packet per sector */
};

/* Totals for the statistics report. */
struct mem_system_stats {
    struct mem_cache_stats l2;
    struct mem_dram_stats dram;
    struct mem_icnt_stats req, reply;
    uint64_t l2_reads, l2_writes, l2_atomics; /* requests that reached the L2 */
    uint64_t dram_queue_stall;                /* L2-cycles a miss waited for the DRAM queue */
};

struct mem_system;

struct mem_system *mem_system_create(const struct mem_system_params *p, struct ps_err *err);
void mem_system_destroy(struct mem_system *ms);
/* Host copy of [addr, addr + bytes): the L2 slices that own it mark its sectors present. */
void mem_system_warm_l2(struct mem_system *ms, uint64_t addr, uint64_t bytes);

/* Control bytes of a packet header. */
#define MEM_CTRL_BYTES 8u
/* Payload bytes r puts on the request / reply network. */
uint32_t mem_req_request_bytes(const struct mem_req *r);
uint32_t mem_req_reply_bytes(const struct mem_req *r);
/*
 * Acknowledgements the L2 sends for request r: a store from an SM gets a
 * header-only reply per 32-byte sector once the L2 has taken it (GPGPU-Sim
 * splits a store into sector requests and acknowledges each); reads,
 * atomics (answered with data) and write-backs of evicted lines get none.
 */
uint32_t mem_req_ack_count(const struct mem_req *r);

/* SM side (called from the core clock). */
bool mem_system_can_send(const struct mem_system *ms, uint32_t sm, const struct mem_req *r);
void mem_system_send(struct mem_system *ms, uint32_t sm, struct mem_req *r);
bool mem_system_pop_reply(struct mem_system *ms, uint32_t sm, struct mem_req *out);
/* A reply waits for SM sm. */
bool mem_system_reply_ready(const struct mem_system *ms, uint32_t sm);
/* The reply at the head of SM sm's port, or NULL if none can be popped yet. */
const struct mem_req *mem_system_peek_reply(const struct mem_system *ms, uint32_t sm);
/*
 * SMs may be stepped in parallel: can_send counts a refusal at the SM's own
 * input and pop_reply touches only the SM's own port (mem_icnt.h). room is
 * can_send without counting; count_stalls counts k refusals. publish_pops,
 * once in every core cycle of every SM after its last pop, lets a reply
 * network tick that runs beside the SMs' next cycle (set_concurrent) see
 * the pops as the sequential tick between the two cycles saw them.
 */
bool mem_system_room(const struct mem_system *ms, uint32_t sm, const struct mem_req *r);
void mem_system_count_stalls(struct mem_system *ms, uint32_t sm, uint32_t k);
void mem_system_publish_pops(struct mem_system *ms, uint32_t sm);
void mem_system_set_concurrent(struct mem_system *ms, bool on);

/* One cycle of each clock domain (both networks: unstaged replies only). */
void mem_system_icnt_cycle(struct mem_system *ms);
/*
 * Staged replies (mem_icnt_stage on the reply network), so that its cycle
 * can run beside the SMs: false if the network cannot be (no latency), and
 * the caller then uses mem_system_icnt_cycle. Once staged, an interconnect
 * edge is mem_system_req_cycle and mem_system_reply_advance, then
 * mem_system_reply_cycle before the SMs' next cycle ends; each core cycle
 * starts with mem_system_core_edge, and each SM drains its port
 * (mem_system_reply_drain) in every core cycle before it looks at it.
 */
bool mem_system_stage_replies(struct mem_system *ms);
void mem_system_req_cycle(struct mem_system *ms);
void mem_system_reply_advance(struct mem_system *ms);
void mem_system_reply_cycle(struct mem_system *ms);
void mem_system_core_edge(struct mem_system *ms, uint64_t core_cycle);
void mem_system_reply_drain(struct mem_system *ms, uint32_t sm);
void mem_system_l2_cycle(struct mem_system *ms);
void mem_system_dram_cycle(struct mem_system *ms);

/* Anything queued or in flight anywhere below the SMs. */
bool mem_system_busy(const struct mem_system *ms);

/* Copies (for memcpy warm-up) mark lines present in L2: not modelled, see docs. */
void mem_system_get_stats(const struct mem_system *ms, struct mem_system_stats *out);

#endif
