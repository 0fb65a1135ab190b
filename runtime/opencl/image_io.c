/*
 * Moving an image region between device memory and host memory (ocl.h's
 * ocl_image_rows), one engine copy per row. A leaf: it calls only the engine,
 * so both the image commands and clEnqueueUnmapMemObject use it.
 */
#include <stdint.h>

#include "runtime/opencl/ocl.h"

int ocl_image_rows(struct ptxsim_device *dev, cl_mem m, const size_t *origin, const size_t *region,
                   void *host, size_t row, size_t slice, bool to_dev)
{
    const struct ocl_image *im = m->img;
    size_t bytes = region[0] * im->elem;
    int rc = 0;

    for (size_t z = 0; z < region[2] && !rc; z++) {
        for (size_t y = 0; y < region[1] && !rc; y++) {
            uint64_t at = m->addr + (origin[2] + z) * im->slice + (origin[1] + y) * im->row +
                          origin[0] * im->elem;
            uint8_t *h = (uint8_t *)host + z * slice + y * row;

            rc = to_dev ? ptxsim_memcpy_htod(dev, at, h, bytes)
                        : ptxsim_memcpy_dtoh(dev, h, at, bytes);
        }
    }
    return rc;
}
