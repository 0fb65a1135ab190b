/*
 * The L1D access trace (-ptxsim_l1d_trace FILE) that `ptxsim belady`
 * replays: every read the L1D of an SM looked up (hits, MSHR merges and new
 * misses; not reservation failures, which retry, nor reads sent around the
 * cache), in the order each SM's L1D saw them, records of different SMs
 * interleaved. Fills and write hits are recorded too, so that a replay can
 * follow the timing model's LRU exactly (a fill makes its line the most
 * recently used, and a line waiting for its fill is never evicted); the
 * Belady replay uses the reads only. Binary, host byte order: one header,
 * then 16-byte records.
 */
#ifndef PTXSIM_TIMING_L1D_TRACE_H
#define PTXSIM_TIMING_L1D_TRACE_H

#include <stdint.h>

#define TM_L1D_TRACE_MAGIC "PSL1DTR1"

struct tm_l1d_trace_header {
    char magic[8]; /* TM_L1D_TRACE_MAGIC, no terminator */
    uint32_t nsm;
    uint32_t nsets, assoc, line_bytes; /* the L1D's geometry */
    uint64_t reserved;                 /* 0 */
};

enum tm_l1d_trace_kind {
    TM_L1D_TRACE_HIT,   /* a read that hit */
    TM_L1D_TRACE_MISS,  /* a read that allocated a line (a miss in the timing model) */
    TM_L1D_TRACE_FLUSH, /* the SM's L1D was emptied (kernel end, gpgpu_flush_l1_cache) */
    TM_L1D_TRACE_FILL,  /* the data of a read miss arrived */
    TM_L1D_TRACE_WRITE, /* a store hit the line */
    TM_L1D_TRACE_MERGE, /* a read that joined a pending miss (the run counts it as a miss) */
};

struct tm_l1d_trace_rec {
    uint64_t line; /* byte address / line_bytes */
    uint16_t sm;
    uint16_t warp; /* SM-local warp slot */
    uint16_t set;  /* the set the timing model's L1D used */
    uint8_t kind;  /* enum tm_l1d_trace_kind */
    uint8_t pad;   /* 0 */
};

_Static_assert(sizeof(struct tm_l1d_trace_header) == 32, "trace header layout");
_Static_assert(sizeof(struct tm_l1d_trace_rec) == 16, "trace record layout");

#endif
