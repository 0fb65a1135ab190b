#include "runtime/functional_time.h"

uint64_t ptxsim_functional_cycles(uint64_t warp_insts, uint64_t ctas, uint64_t nsm)
{
    uint64_t par = ctas < nsm ? ctas : nsm;

    if (!par)
        par = 1;
    return (warp_insts + par - 1) / par;
}
