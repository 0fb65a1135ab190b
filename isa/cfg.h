/*
 * Control-flow analysis of one function body: basic blocks and immediate
 * post-dominators, which give the SIMT reconvergence point of every
 * divergent branch (the first instruction of the branch block's immediate
 * post-dominator; ninstrs stands for the function's exit).
 */
#ifndef PTXSIM_ISA_CFG_H
#define PTXSIM_ISA_CFG_H

#include <stdint.h>

struct isa_func;

struct isa_cfg {
    uint32_t nblocks;
    uint32_t *block_start;  /* first instruction of each block (nblocks entries) */
    uint32_t *block_of;     /* block of each instruction */
    uint32_t *ipdom;        /* immediate post-dominator block; nblocks = exit */
    uint32_t *reconv_pc;    /* per instruction: reconvergence pc for a branch at it */
};

/* Builds the CFG of f (which must have a body). Returns 0 or PS_ENOMEM. */
int isa_cfg_build(const struct isa_func *f, struct isa_cfg *cfg);
void isa_cfg_free(struct isa_cfg *cfg);

/* Branch targets (instruction indices) of instruction i of f: bra and brx; at most max. */
uint32_t isa_cfg_targets(const struct isa_func *f, uint32_t i, uint32_t *out, uint32_t max);

#endif
