/*
 * What the timing model needs to know about one instruction, decoded once
 * per launch: which pipeline it occupies, for how long (latency and
 * initiation interval from the configuration), and which registers it reads
 * and writes (the scoreboard's view).
 */
#ifndef PTXSIM_TIMING_IINFO_H
#define PTXSIM_TIMING_IINFO_H

#include <stdbool.h>
#include <stdint.h>

#include "isa/warp.h"
#include "timing/params.h"

enum tm_unit { TM_UNIT_SP, TM_UNIT_SFU, TM_UNIT_DP, TM_UNIT_MEM, TM_UNIT_COUNT };

#define TM_MAX_SRC 8
#define TM_MAX_DST 4

struct tm_iinfo {
    uint8_t unit;      /* enum tm_unit */
    uint8_t nsrc, ndst;
    bool is_mem;       /* goes to the LD/ST unit */
    bool is_bar;       /* bar/barrier: the warp may wait */
    bool is_ctrl;      /* may change the pc */
    uint16_t lat;      /* cycles until the result can be read */
    uint16_t ii;       /* cycles the pipeline is busy */
    uint16_t src[TM_MAX_SRC]; /* register slots in the function's register file */
    uint16_t dst[TM_MAX_DST];
    /*
     * Its functional effects stay within the warp's registers and its CTA
     * (no global memory, atomics, printf, calls, %globaltimer): SMs stepped
     * in parallel may execute it in any order (timing/sm.c).
     */
    bool local_fx;
    /*
     * A load from the global space (ld, ldu): it only reads device memory,
     * so the parallel part may run it when all its lanes read inside
     * allocations (isa_warp_step_plain), checking it in SM order against
     * what earlier SMs wrote in the same cycle (timing/sm_cycle.c).
     */
    bool global_read;
};

/* Per-launch table of decoded instructions, built lazily per function. */
struct tm_itable {
    const struct isa_program *p;
    const struct tm_params *prm;
    uint32_t nfuncs;
    struct tm_iinfo **fn;
};

int tm_itable_init(struct tm_itable *t, const struct isa_program *p, const struct tm_params *prm);
void tm_itable_fini(struct tm_itable *t);
/* Decoded info of instruction pc of function fidx (NULL when out of memory). */
const struct tm_iinfo *tm_itable_get(struct tm_itable *t, uint32_t fidx, uint32_t pc);
/* Decodes every function now, so that SMs stepped in parallel only read the table. */
int tm_itable_decode_all(struct tm_itable *t);

#endif
