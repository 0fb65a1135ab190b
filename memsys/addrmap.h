/*
 * Address mapping: which memory sub-partition, DRAM channel, bank, row and
 * column an address falls in, from GPGPU-Sim's -gpgpu_mem_addr_mapping
 * string ("dramid@8;00000000.00000000....0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS":
 * bit letters R row, B bank, C/S column, D channel, 0 ignored; "dramid@N"
 * inserts the channel id at bit N, which allows channel counts that are not
 * powers of two).
 */
#ifndef PTXSIM_MEMSYS_ADDRMAP_H
#define PTXSIM_MEMSYS_ADDRMAP_H

#include <stdint.h>

#include "common/err.h"
#include "memsys/req.h"

/* Up to this many runs of set bits, a mask's extraction is planned run by run. */
#define MEM_PEXT_RUNS 8

/*
 * mem_pext(v, mask) for one fixed mask, prepared once: each run of mask
 * bits as a shift, a width mask and a destination, so an extraction takes
 * no bit scans (address maps are decoded for every memory request).
 */
struct mem_pext_plan {
    uint64_t mask;
    uint32_t nruns; /* MEM_PEXT_RUNS + 1: more runs than that, done by mem_pext */
    uint8_t lo[MEM_PEXT_RUNS], to[MEM_PEXT_RUNS];
    uint64_t bits[MEM_PEXT_RUNS];
};

/* A map is made only by mem_addrmap_parse, which also makes its plans. */
struct mem_addrmap {
    uint32_t nchan, nsub;  /* channels, sub-partitions per channel */
    int dramid_at;         /* bit where the channel id is inserted, -1 when not given */
    uint64_t mask_row, mask_bank, mask_col, mask_chan;
    uint32_t nbk;          /* banks per channel (for the sub-partition choice) */
    /* the masks above as plans, and the partition address's (mem_addrmap_partition_addr) */
    struct mem_pext_plan row, bank, col, chan, part;
};

int mem_addrmap_parse(const char *s, uint32_t nchan, uint32_t nsub, uint32_t nbk,
                      struct mem_addrmap *m, struct ps_err *err);
/* Fills r->chan, r->part (chan * nsub + sub), r->bank, r->row and r->col from r->addr. */
void mem_addrmap_decode(const struct mem_addrmap *m, struct mem_req *r);

/*
 * The address as one sub-partition sees it: channel and sub-partition bits
 * removed. L2 slices index their sets with it; with the full address every
 * slice would see only the few set-index values its channel's addresses carry.
 */
uint64_t mem_addrmap_partition_addr(const struct mem_addrmap *m, uint64_t addr);

/* Parallel bit extract: the bits of v selected by mask, packed towards bit 0 in order. */
uint64_t mem_pext(uint64_t v, uint64_t mask);
/* Parallel bit deposit, pext's inverse: the low bits of v spread to mask's positions in order. */
uint64_t mem_pdep(uint64_t v, uint64_t mask);
void mem_pext_plan(struct mem_pext_plan *p, uint64_t mask);

/* mem_pext(v, p->mask). */
static inline uint64_t mem_pext_by(const struct mem_pext_plan *p, uint64_t v)
{
    uint64_t out = 0;

    if (p->nruns > MEM_PEXT_RUNS)
        return mem_pext(v, p->mask);
    for (uint32_t i = 0; i < p->nruns; i++)
        out |= (v >> p->lo[i] & p->bits[i]) << p->to[i];
    return out;
}

#endif
