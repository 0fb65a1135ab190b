/*
 * The functional-mode time estimate both runtimes charge a kernel with (the CUDA
 * runtime's and the OpenCL platform's statistics and event times): one warp
 * instruction per SM per core cycle, on as many SMs as the grid has CTAs, at most
 * all of them. Timing mode counts real cycles instead.
 */
#ifndef PTXSIM_RUNTIME_FUNCTIONAL_TIME_H
#define PTXSIM_RUNTIME_FUNCTIONAL_TIME_H

#include <stdint.h>

/* ceil(warp_insts / min(ctas, nsm)) core cycles (min taken as 1 for an empty grid). */
uint64_t ptxsim_functional_cycles(uint64_t warp_insts, uint64_t ctas, uint64_t nsm);

#endif
