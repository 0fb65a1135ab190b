/*
 * The rectangular buffer commands (OpenCL 1.2 section 5.2.2):
 * clEnqueueReadBufferRect, clEnqueueWriteBufferRect and
 * clEnqueueCopyBufferRect. A region is region[0] bytes by region[1] rows by
 * region[2] slices; a side's byte offset of row (y, z) is origin[2] * slice
 * pitch + origin[1] * row pitch + origin[0] + z * slice pitch + y * row
 * pitch. A zero row pitch means region[0], a zero slice pitch region[1] x
 * the row pitch. Rows are moved one engine copy each.
 */
#include <stdint.h>

#include "runtime/opencl/ocl.h"

/* One side of a rectangular transfer, pitches resolved. */
struct rect_side {
    size_t off;   /* byte offset of the region's first row */
    size_t row;   /* row pitch */
    size_t slice; /* slice pitch */
};

/* Resolves a side's pitches and checks them (CL_INVALID_VALUE when bad). */
static cl_int rect_side(const size_t *origin, const size_t *region, size_t row, size_t slice,
                        struct rect_side *s)
{
    if (!origin || !region || !region[0] || !region[1] || !region[2])
        return CL_INVALID_VALUE;
    row = row ? row : region[0];
    if (row < region[0])
        return CL_INVALID_VALUE;
    slice = slice ? slice : region[1] * row;
    if (slice < region[1] * row || slice % row)
        return CL_INVALID_VALUE;
    s->off = origin[2] * slice + origin[1] * row + origin[0];
    s->row = row;
    s->slice = slice;
    return CL_SUCCESS;
}

/* Bytes from the side's start to the end of its last row. */
static size_t rect_extent(const struct rect_side *s, const size_t *region)
{
    return s->off + (region[2] - 1) * s->slice + (region[1] - 1) * s->row + region[0];
}

static size_t row_off(const struct rect_side *s, size_t y, size_t z)
{
    return s->off + z * s->slice + y * s->row;
}

/* Whether a row [at, at + w) meets one of the rows base + y * pitch (y < h) of width w. */
static bool row_meets(int64_t at, int64_t w, int64_t base, int64_t pitch, int64_t h)
{
    int64_t lo = at - w + 1 - base, hi = at + w - 1 - base, y0;

    if (hi < 0)
        return false;
    y0 = lo <= 0 ? 0 : (lo + pitch - 1) / pitch;
    return y0 < h && y0 * pitch <= hi;
}

/* CL_MEM_COPY_OVERLAP's test for two regions of one allocation, row by row. */
static bool rect_overlap(const struct rect_side *a, const struct rect_side *b, const size_t *region)
{
    if (region[1] * region[2] * region[2] > ((size_t)1 << 22)) /* too many pairs: extents */
        return a->off < rect_extent(b, region) && b->off < rect_extent(a, region);
    for (size_t z = 0; z < region[2]; z++)
        for (size_t y = 0; y < region[1]; y++)
            for (size_t z2 = 0; z2 < region[2]; z2++)
                if (row_meets((int64_t)row_off(a, y, z), (int64_t)region[0],
                              (int64_t)(b->off + z2 * b->slice), (int64_t)b->row,
                              (int64_t)region[1]))
                    return true;
    return false;
}

enum rect_dir { RECT_READ, RECT_WRITE, RECT_COPY };

/* Moves the rows under the context's lock; dst/src are host pointers or buffers by dir. */
static cl_int rect_move(cl_command_queue q, enum rect_dir dir, cl_mem m, cl_mem m2, void *host,
                        const struct rect_side *b, const struct rect_side *h, const size_t *region)
{
    struct ptxsim_device *dev = q->ctx->dev;
    int bad = 0;

    pthread_mutex_lock(&q->ctx->lock);
    for (size_t z = 0; !bad && z < region[2]; z++) {
        for (size_t y = 0; !bad && y < region[1]; y++) {
            uint64_t dev_at = m->addr + row_off(b, y, z);
            size_t other = row_off(h, y, z);

            if (dir == RECT_READ)
                bad = ptxsim_memcpy_dtoh(dev, (uint8_t *)host + other, dev_at, region[0]);
            else if (dir == RECT_WRITE)
                bad = ptxsim_memcpy_htod(dev, dev_at, (const uint8_t *)host + other, region[0]);
            else
                bad = ptxsim_memcpy_dtod(dev, m2->addr + other, dev_at, region[0]);
        }
    }
    pthread_mutex_unlock(&q->ctx->lock);
    if (bad)
        return CL_OUT_OF_RESOURCES;
    ocl_stats_copy((uint64_t)region[0] * region[1] * region[2]);
    return CL_SUCCESS;
}

/* Read and write: buffer side b, host side h. */
static cl_int host_rect(cl_command_queue q, enum rect_dir dir, cl_mem m, const size_t *bo,
                        const size_t *ho, const size_t *r, const size_t pitch[4], void *ptr,
                        cl_uint nw, const cl_event *wl, cl_event *event)
{
    cl_ulong t = ocl_now_ns();
    cl_int rc = ocl_check_mem_cmd(q, m, 0, 0, nw, wl);
    struct rect_side b, h;

    if (rc == CL_SUCCESS)
        rc = rect_side(bo, r, pitch[0], pitch[1], &b);
    if (rc == CL_SUCCESS)
        rc = rect_side(ho, r, pitch[2], pitch[3], &h);
    if (rc == CL_SUCCESS && (!ptr || rect_extent(&b, r) > m->size))
        rc = CL_INVALID_VALUE;
    if (rc == CL_SUCCESS)
        rc = rect_move(q, dir, m, NULL, ptr, &b, &h, r);
    if (rc)
        return rc;
    return ocl_event_done(
        q, dir == RECT_READ ? CL_COMMAND_READ_BUFFER_RECT : CL_COMMAND_WRITE_BUFFER_RECT, t,
        CL_COMPLETE, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBufferRect(cl_command_queue q, cl_mem m, cl_bool block,
                                                        const size_t *bo, const size_t *ho,
                                                        const size_t *r, size_t brp, size_t bsp,
                                                        size_t hrp, size_t hsp, void *ptr,
                                                        cl_uint nw, const cl_event *wl,
                                                        cl_event *event)
{
    const size_t pitch[4] = {brp, bsp, hrp, hsp};

    (void)block; /* every command completes before the call returns */
    return host_rect(q, RECT_READ, m, bo, ho, r, pitch, ptr, nw, wl, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBufferRect(cl_command_queue q, cl_mem m,
                                                         cl_bool block, const size_t *bo,
                                                         const size_t *ho, const size_t *r,
                                                         size_t brp, size_t bsp, size_t hrp,
                                                         size_t hsp, const void *ptr, cl_uint nw,
                                                         const cl_event *wl, cl_event *event)
{
    const size_t pitch[4] = {brp, bsp, hrp, hsp};

    (void)block;
    return host_rect(q, RECT_WRITE, m, bo, ho, r, pitch, (void *)ptr, nw, wl, event);
}

/* Copy-specific checks: bounds on both sides, the same-buffer rules. */
static cl_int copy_checks(cl_mem s, cl_mem d, const struct rect_side *a, const struct rect_side *b,
                          const size_t *r)
{
    bool same = (s->parent ? s->parent : s) == (d->parent ? d->parent : d);
    struct rect_side a2 = *a, b2 = *b;

    if (rect_extent(a, r) > s->size || rect_extent(b, r) > d->size)
        return CL_INVALID_VALUE;
    if (s == d && a->row != b->row && a->slice != b->slice)
        return CL_INVALID_VALUE; /* the spec's wording: both pitches differ */
    a2.off += s->origin;
    b2.off += d->origin;
    return same && rect_overlap(&a2, &b2, r) ? CL_MEM_COPY_OVERLAP : CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferRect(cl_command_queue q, cl_mem s, cl_mem d,
                                                        const size_t *so, const size_t *dO,
                                                        const size_t *r, size_t srp, size_t ssp,
                                                        size_t drp, size_t dsp, cl_uint nw,
                                                        const cl_event *wl, cl_event *event)
{
    cl_ulong t = ocl_now_ns();
    cl_int rc = ocl_check_mem_cmd(q, s, 0, 0, nw, wl);
    struct rect_side a, b;

    if (rc == CL_SUCCESS)
        rc = ocl_check_mem_cmd(q, d, 0, 0, 0, NULL);
    if (rc == CL_SUCCESS)
        rc = rect_side(so, r, srp, ssp, &a);
    if (rc == CL_SUCCESS)
        rc = rect_side(dO, r, drp, dsp, &b);
    if (rc == CL_SUCCESS)
        rc = copy_checks(s, d, &a, &b, r);
    if (rc == CL_SUCCESS)
        rc = rect_move(q, RECT_COPY, s, d, NULL, &a, &b, r);
    return rc ? rc : ocl_event_done(q, CL_COMMAND_COPY_BUFFER_RECT, t, CL_COMPLETE, event);
}
