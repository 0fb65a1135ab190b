/*
 * The unit of traffic in the memory system: one request for (part of) a
 * cache line, from an SM's LD/ST unit, I-fetch or constant cache down to
 * L2 and DRAM and back. Every level passes the same record along, so a
 * reply reaches its issuer with the issuer's token intact.
 */
#ifndef PTXSIM_MEMSYS_REQ_H
#define PTXSIM_MEMSYS_REQ_H

#include <stdbool.h>
#include <stdint.h>

#define MEM_SECTOR_BYTES 32u

/*
 * Sectors set in the low four bits of a sector mask. A nibble table: without
 * -mpopcnt __builtin_popcount is a libgcc call, and the L2 counts sectors
 * several times per request.
 */
static inline uint32_t mem_sectors(uint32_t mask)
{
    return (uint32_t)(UINT64_C(0x4332322132212110) >> ((mask & 0xf) * 4) & 0xf);
}

enum mem_type { MEM_READ, MEM_WRITE, MEM_ATOMIC };
enum mem_space { MEM_GLOBAL, MEM_LOCAL, MEM_CONST, MEM_INST, MEM_TEX, MEM_PARAM };

struct mem_req {
    uint64_t addr;        /* first byte; aligned to the access granularity */
    uint32_t bytes;       /* payload bytes asked for or written */
    uint32_t sector_mask; /* 32-byte sectors of the 128-byte line touched (bit i = sector i) */
    uint8_t type;         /* enum mem_type */
    uint8_t space;        /* enum mem_space */
    uint8_t cacheop;      /* enum isa_cacheop value of the instruction (0 = default .ca) */
    bool is_writeback;    /* an eviction of a dirty line, no reply expected */
    bool l2_atomic;       /* an atomic that the L2 looks up as a read (set by the memory system) */
    bool l2_miss;         /* answered after an L2 miss or a merge into one (statistics) */
    uint8_t parts_left;   /* a one-sector part of a split reply: parts still to come (0 = last) */
    bool sector_part;     /* a one-sector part of a split reply (set by the memory system) */
    uint16_t sm;          /* issuing SM */
    uint16_t warp;        /* SM-local warp slot */
    uint32_t pc;          /* instruction index in its function (for PC-indexed policies) */
    uint32_t fidx;        /* function index of that instruction */
    uint64_t uid;         /* issuer's token: unique per request, returned with the reply */
    uint64_t t_issue;     /* core cycle at which the SM sent it (latency statistics) */
    uint16_t part;        /* memory sub-partition, filled by the address map */
    uint16_t chan;        /* DRAM channel */
    uint32_t bank, row, col; /* DRAM coordinates, filled by the address map */
};

#endif
