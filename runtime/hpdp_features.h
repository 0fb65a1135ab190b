/*
 * HeteroPDP's kernel features (docs/heteropdp.md, "Features"; extraction
 * section 5.8 B-D): the static GPU instruction counts of a kernel from its
 * PTX, the factor vectors of the four models, and the modelled host-device
 * transfer time of the GPU.
 */
#ifndef PTXSIM_RUNTIME_HPDP_FEATURES_H
#define PTXSIM_RUNTIME_HPDP_FEATURES_H

#include <stddef.h>
#include <stdint.h>

struct ps_err;

/* GPU taxonomy (Table 6.4): static instruction counts of one kernel. */
enum rt_hpdp_gpu_feat {
    RT_HPDP_G_MEM,
    RT_HPDP_G_INT,
    RT_HPDP_G_FP,
    RT_HPDP_G_SFU,
    RT_HPDP_G_BRANCH,
    RT_HPDP_G_BARRIER,
    RT_HPDP_G_N
};
/* CMP taxonomy: as frontend/clc_features.h counts them from the kernel's LLVM IR. */
enum rt_hpdp_cpu_feat {
    RT_HPDP_C_SALU,
    RT_HPDP_C_SMEM,
    RT_HPDP_C_VALU,
    RT_HPDP_C_VMEM,
    RT_HPDP_C_BRANCH,
    RT_HPDP_C_ATOMIC,
    RT_HPDP_C_N
};

/*
 * Counts the instructions of kernel `kernel` in PTX text `ptx` (the entry's
 * own body; the OpenCL path inlines what it calls): MEM = ld/st/atom/red/
 * tex/surface and other memory-unit opcodes, SFU = the special-function
 * unit's (rcp, sqrt, rsqrt, sin, cos, lg2, ex2, tanh), BRANCH = control
 * transfers (bra, brx, call, ret, exit), BARRIER = bar/barrier/membar/fence,
 * FP = any other instruction whose first type is a float, INT = the rest.
 * Each instruction counts once per trip of the loops around it: a backward
 * bra closes a loop, whose trip count comes from the last setp before the
 * bra: |bound - init| / |step| for a counter compared with an immediate
 * bound, init and step the counter's immediates (mov before the loop, add in
 * it); else 16; at most 4096.
 * Returns 0, PS_EPARSE (bad PTX) or PS_ENOTFOUND (no such entry).
 */
int rt_hpdp_gpu_counts(const char *ptx, const char *kernel, double out[RT_HPDP_G_N],
                       struct ps_err *err);

/* The dynamic features of one launch (section 5.8 C). */
struct rt_hpdp_dyn {
    double threads;        /* global work size */
    double buffer_bytes;   /* distinct buffers bound to the arguments */
    double transfer_bytes; /* host<->device bytes moved since the context's previous launch */
};

/* The co-runners' system telemetry (section 5.8 D). */
struct rt_hpdp_sys {
    double llc_mps;  /* LLC misses, millions per second */
    double dram_gbs; /* host DRAM bandwidth used, GB/s */
};

/* Factor vectors of the four models; each returns the number of factors (8, 8, 10, 9). */
uint32_t rt_hpdp_cpu_factors(const double cpu[RT_HPDP_C_N], const struct rt_hpdp_dyn *d,
                             const struct rt_hpdp_sys *s, double *f);
uint32_t rt_hpdp_gpu_factors(const double gpu[RT_HPDP_G_N], const struct rt_hpdp_dyn *d,
                             const struct rt_hpdp_sys *s, double *f);

/*
 * Section 5.8 D: seconds to move `bytes` between host and GPU over a link of
 * pcie_gbs, when co-runners use corunner_gbs of a host DRAM of host_gbs:
 * bytes / min(pcie, max(host - corunner, 5% of host)) (the floor keeps a
 * saturated host from stopping the transfer altogether).
 */
double rt_hpdp_xfer_s(double bytes, double pcie_gbs, double host_gbs, double corunner_gbs);

#endif
