/*
 * The fetch stage: each warp's instruction buffer (I-buffer), refilled
 * through the L1 instruction cache. A fetch brings `ibuffer` instructions
 * from the warp's pc; they can issue one cycle after an L1I hit, or one
 * cycle after the miss's line arrives. Issue consumes the buffer in
 * sequence; a jump, call or return empties it.
 */
#ifndef PTXSIM_TIMING_FETCH_H
#define PTXSIM_TIMING_FETCH_H

#include <stdbool.h>
#include <stdint.h>

#include "isa/warp.h"
#include "memsys/cache.h"
#include "timing/params.h"

/* Timing-only addresses of instructions (outside device memory). */
#define TM_INST_BASE (UINT64_C(1) << 41)
#define TM_INST_BYTES 8u

struct tm_ibuf {
    uint32_t fidx, pc, n; /* n instructions from fidx:pc */
    uint64_t ready;       /* when the fetched instructions can issue */
    bool fetching;        /* an L1I miss is outstanding */
    bool ctrl;            /* emptied by a control transfer (a control stall, not a fetch stall) */
};

static inline void tm_ibuf_reset(struct tm_ibuf *ib)
{
    ib->n = 0;
    ib->fetching = ib->ctrl = false;
}

/* The buffered instruction can issue at now. */
static inline bool tm_ibuf_ready(const struct tm_ibuf *ib, uint64_t now)
{
    return !ib->fetching && ib->n && ib->ready <= now;
}

/* The warp's missed line arrived: its instructions can issue next cycle. */
void tm_ibuf_filled(struct tm_ibuf *ib, uint64_t now);
/*
 * After warp w issued an instruction (is_ctrl: one that may change the pc):
 * keep the buffer if the warp continues in sequence, else empty it.
 */
void tm_ibuf_advance(struct tm_ibuf *ib, const struct isa_warp *w, bool is_ctrl);

/* The L1I request for the line holding instruction fidx:pc of warp `slot` on SM `sm`. */
void tm_fetch_request(struct mem_req *r, const struct tm_params *p, uint32_t sm, uint32_t slot,
                      uint32_t fidx, uint32_t pc);
/*
 * Fetches for warp `slot` at fidx:pc through l1i into ib. false: the L1I
 * could not take the request this cycle (nothing changed).
 */
bool tm_fetch_warp(struct tm_ibuf *ib, struct mem_cache *l1i, const struct tm_params *p,
                   uint32_t sm, uint32_t slot, uint32_t fidx, uint32_t pc, uint64_t now);

#endif
