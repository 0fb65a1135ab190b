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

struct mem_addrmap {
    uint32_t nchan, nsub;  /* channels, sub-partitions per channel */
    int dramid_at;         /* bit where the channel id is inserted, -1 when not given */
    uint64_t mask_row, mask_bank, mask_col, mask_chan;
    uint32_t nbk;          /* banks per channel (for the sub-partition choice) */
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

#endif
