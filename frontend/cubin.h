/*
 * What ptxas decided for each kernel of a cubin (an ELF entry of a fat
 * binary): its registers per thread. GPGPU-Sim takes these counts from
 * ptxas; ptxsim reads them from the cubin nvcc already embedded, so both
 * simulators size a CTA's register demand alike.
 */
#ifndef PTXSIM_FRONTEND_CUBIN_H
#define PTXSIM_FRONTEND_CUBIN_H

#include <stddef.h>
#include <stdint.h>

struct ps_err;

struct cubin_kernel {
    char *name;    /* the kernel's (mangled) name */
    uint32_t regs; /* registers per thread */
};

/*
 * Reads the kernels of the cubin image at data (len bytes): for each code
 * section ".text.NAME" the register count ptxas stores in the top byte of
 * its sh_info. *out is malloc'd (free with cubin_kernels_free). Returns 0,
 * PS_EPARSE (not a CUDA ELF, truncated or inconsistent headers) or
 * PS_ENOMEM.
 */
int cubin_kernels(const uint8_t *data, size_t len, struct cubin_kernel **out, uint32_t *n,
                  struct ps_err *err);
void cubin_kernels_free(struct cubin_kernel *k, uint32_t n);

#endif
