/*
 * Relocatable device code (-rdc=true). Such a program's device-link stub
 * registers one fatbin through a version-2 wrapper: the linked image, which
 * holds only the cubin nvlink made, plus a NULL-terminated list of the
 * translation units' own fatbins, each with its PTX. ptxsim links those PTX
 * texts in process (frontend/ptx_link.h) and loads the result as the
 * image's one module, so extern __device__ functions and variables resolve
 * across units as nvlink resolves them. Each unit's
 * __cudaRegisterLinkedBinary_* callback then registers its kernels and
 * variables against that one handle, as the stub does.
 */
#include <stdlib.h>

#include "common/err.h"
#include "frontend/ptx_link.h"
#include "runtime/cuda/cudart.h"

cudaError_t rt_rdc_parse(struct rt_fatbin *fb, const void *const *prelinked, struct ps_err *err)
{
    uint32_t n = 0;

    while (prelinked[n])
        n++;
    fb->units = calloc(n, sizeof(*fb->units));
    fb->unit_ptx = calloc(n, sizeof(*fb->unit_ptx));
    if (!fb->units || !fb->unit_ptx) {
        ps_err_set(err, PS_ENOMEM, "out of memory");
        return cudaErrorMemoryAllocation;
    }
    fb->nunits = n;
    for (uint32_t i = 0; i < n; i++) {
        if (fatbin_parse(prelinked[i], 0, &fb->units[i], err))
            return cudaErrorInvalidKernelImage;
        if ((fb->unit_ptx[i] = fatbin_pick_ptx(&fb->units[i], 0)) < 0) {
            ps_err_set(err, PS_ENOTFOUND,
                       "translation unit %u of this -rdc=true program has no PTX, only cubins: "
                       "build it with -arch=sm_XX or -gencode ...,code=compute_XX to embed PTX",
                       i + 1);
            return cudaErrorNoKernelImageForDevice;
        }
    }
    return cudaSuccess;
}

unsigned rt_rdc_sm(const struct rt_fatbin *fb)
{
    return fb->nunits ? fb->units[0].entries[fb->unit_ptx[0]].sm : 0;
}

int rt_rdc_link(struct rt_fatbin *fb, struct ps_err *err)
{
    struct ptx_link_unit *u = calloc(fb->nunits, sizeof(*u));
    int rc = u ? 0 : ps_err_set(err, PS_ENOMEM, "out of memory");

    for (uint32_t i = 0; i < fb->nunits && !rc; i++) {
        uint8_t *data;

        rc = fatbin_entry_data(&fb->units[i].entries[fb->unit_ptx[i]], &data, &u[i].len, err);
        u[i].text = (const char *)data;
    }
    if (!rc)
        rc = ptx_link(u, fb->nunits, &fb->ptx, &fb->ptx_len, err);
    for (uint32_t i = 0; u && i < fb->nunits; i++)
        free((void *)u[i].text);
    free(u);
    return rc;
}

void rt_rdc_free(struct rt_fatbin *fb)
{
    for (uint32_t i = 0; i < fb->nunits; i++)
        fatbin_free(&fb->units[i]);
    free(fb->units);
    free(fb->unit_ptx);
    fb->units = NULL;
    fb->unit_ptx = NULL;
    fb->nunits = 0;
}
