/*
 * The image commands (OpenCL 1.2 section 5.3.3 - 5.3.6): read, write, copy,
 * fill and map images, and copies between images and buffers. Regions are
 * converted to the image's internal layout (x, y, z-or-layer: a 1D array's
 * layer is OpenCL's y) and moved row by row through ocl_image_rows; copies
 * and fills stage through host memory. Fill colours are converted to the
 * image's format by the engine's encoder (isa/climage.h), as write_image*
 * converts them.
 */
#include <stdlib.h>
#include <string.h>

#include "isa/climage.h"
#include "runtime/opencl/ocl.h"

/* A region in the image's internal layout, and host pitches for it. */
struct img_box {
    size_t o[3], r[3];
    size_t row, slice; /* host pitches */
};

static bool layered(const struct ocl_image *im)
{
    cl_mem_object_type t = im->desc.image_type;

    return t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
           t == CL_MEM_OBJECT_IMAGE3D;
}

/* OpenCL's origin and region for image im into b (CL_INVALID_VALUE when outside or bad). */
static cl_int to_box(const struct ocl_image *im, const size_t *o, const size_t *r,
                     struct img_box *b)
{
    cl_mem_object_type t = im->desc.image_type;
    unsigned used = t == CL_MEM_OBJECT_IMAGE1D || t == CL_MEM_OBJECT_IMAGE1D_BUFFER  ? 1
                    : t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 2
                                                                                     : 3;

    if (!o || !r)
        return CL_INVALID_VALUE;
    for (unsigned i = used; i < 3; i++)
        if (o[i] || r[i] != 1)
            return CL_INVALID_VALUE;
    memcpy(b->o, o, sizeof(b->o));
    memcpy(b->r, r, sizeof(b->r));
    if (t == CL_MEM_OBJECT_IMAGE1D_ARRAY) {
        b->o[2] = o[1], b->o[1] = 0;
        b->r[2] = r[1], b->r[1] = 1;
    }
    for (unsigned i = 0; i < 3; i++)
        if (!b->r[i] || b->o[i] > im->dims[i] || b->r[i] > im->dims[i] - b->o[i])
            return CL_INVALID_VALUE;
    return CL_SUCCESS;
}

/* Host pitches of a read or write (0: tightly packed), checked against the region. */
static cl_int host_pitches(const struct ocl_image *im, size_t row, size_t slice, struct img_box *b)
{
    size_t min_slice;

    b->row = row ? row : b->r[0] * im->elem;
    if (b->row < b->r[0] * im->elem)
        return CL_INVALID_VALUE;
    min_slice = im->desc.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? b->row : b->row * b->r[1];
    if (!layered(im) && slice)
        return CL_INVALID_VALUE;
    b->slice = slice ? slice : min_slice;
    return b->slice < min_slice ? CL_INVALID_VALUE : CL_SUCCESS;
}

/* The checks every image command makes: queue, image, context, region, wait list. */
static cl_int image_cmd(cl_command_queue q, cl_mem m, const size_t *o, const size_t *r,
                        struct img_box *b, cl_uint nw, const cl_event *wl)
{
    cl_int rc;

    if (!ocl_valid(q, OCL_MAGIC_QUEUE))
        return CL_INVALID_COMMAND_QUEUE;
    if (!ocl_valid(m, OCL_MAGIC_MEM) || !m->img)
        return CL_INVALID_MEM_OBJECT;
    if (m->ctx != q->ctx)
        return CL_INVALID_CONTEXT;
    if ((rc = to_box(m->img, o, r, b)))
        return rc;
    return ocl_check_wait_list(nw, wl);
}

static size_t box_bytes(const struct ocl_image *im, const struct img_box *b)
{
    return b->r[0] * b->r[1] * b->r[2] * im->elem;
}

/* Moves box b of m to or from host (with b's pitches) under the lock; counts the bytes. */
static cl_int move(cl_command_queue q, cl_mem m, const struct img_box *b, void *host, bool to_dev)
{
    int e;

    pthread_mutex_lock(&q->ctx->lock);
    e = ocl_image_rows(q->ctx->dev, m, b->o, b->r, host, b->row, b->slice, to_dev);
    pthread_mutex_unlock(&q->ctx->lock);
    if (e)
        return CL_OUT_OF_RESOURCES;
    ocl_stats_copy(box_bytes(m->img, b));
    return CL_SUCCESS;
}

/* clEnqueueReadImage and clEnqueueWriteImage: p is the host side, write the direction. */
static cl_int read_write(cl_command_queue q, cl_mem m, const size_t *o, const size_t *r, size_t rp,
                         size_t sp, void *p, bool write, cl_uint nw, const cl_event *wl,
                         cl_event *e)
{
    cl_ulong t = ocl_now_ns();
    struct img_box b;
    cl_int rc = image_cmd(q, m, o, r, &b, nw, wl);

    if (!rc)
        rc = host_pitches(m->img, rp, sp, &b);
    if (!rc && !p)
        rc = CL_INVALID_VALUE;
    if (!rc)
        rc = move(q, m, &b, p, write);
    return rc ? rc
              : ocl_event_done(q, write ? CL_COMMAND_WRITE_IMAGE : CL_COMMAND_READ_IMAGE, t,
                               CL_COMPLETE, e);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue q, cl_mem m, cl_bool block,
                                                   const size_t *o, const size_t *r, size_t rp,
                                                   size_t sp, void *p, cl_uint nw,
                                                   const cl_event *wl, cl_event *e)
{
    (void)block; /* every command completes when enqueued */
    return read_write(q, m, o, r, rp, sp, p, false, nw, wl, e);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue q, cl_mem m, cl_bool block,
                                                    const size_t *o, const size_t *r, size_t rp,
                                                    size_t sp, const void *p, cl_uint nw,
                                                    const cl_event *wl, cl_event *e)
{
    (void)block;
    return read_write(q, m, o, r, rp, sp, (void *)p, true, nw, wl, e);
}

static bool boxes_meet(const struct img_box *a, const struct img_box *b)
{
    for (int i = 0; i < 3; i++)
        if (a->o[i] >= b->o[i] + b->r[i] || b->o[i] >= a->o[i] + a->r[i])
            return false;
    return true;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue q, cl_mem s, cl_mem d,
                                                   const size_t *so, const size_t *dO,
                                                   const size_t *r, cl_uint nw, const cl_event *wl,
                                                   cl_event *e)
{
    cl_ulong t = ocl_now_ns();
    struct img_box sb, db;
    cl_int rc = image_cmd(q, s, so, r, &sb, nw, wl);
    uint8_t *tmp = NULL;

    if (!rc)
        rc = image_cmd(q, d, dO, r, &db, 0, NULL);
    if (!rc && (s->img->fmt.image_channel_order != d->img->fmt.image_channel_order ||
                s->img->fmt.image_channel_data_type != d->img->fmt.image_channel_data_type))
        rc = CL_IMAGE_FORMAT_MISMATCH;
    if (!rc && s == d && boxes_meet(&sb, &db))
        rc = CL_MEM_COPY_OVERLAP;
    if (!rc && !(tmp = malloc(box_bytes(s->img, &sb))))
        rc = CL_OUT_OF_HOST_MEMORY;
    if (!rc) {
        host_pitches(s->img, 0, 0, &sb);
        host_pitches(d->img, 0, 0, &db);
        /* A 1D array's layers and a 2D region's rows line up: both are tightly packed rows. */
        db.slice = sb.slice;
        db.row = sb.row;
        rc = move(q, s, &sb, tmp, false);
    }
    if (!rc)
        rc = move(q, d, &db, tmp, true);
    free(tmp);
    return rc ? rc : ocl_event_done(q, CL_COMMAND_COPY_IMAGE, t, CL_COMPLETE, e);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue q, cl_mem m, const void *c,
                                                   const size_t *o, const size_t *r, cl_uint nw,
                                                   const cl_event *wl, cl_event *e)
{
    cl_ulong t = ocl_now_ns();
    struct img_box b;
    cl_int rc = image_cmd(q, m, o, r, &b, nw, wl);
    uint8_t elem[16], *tmp = NULL;
    uint32_t v[4];
    size_t n;

    if (!rc && !c)
        rc = CL_INVALID_VALUE;
    if (!rc && !(tmp = malloc(box_bytes(m->img, &b))))
        rc = CL_OUT_OF_HOST_MEMORY;
    if (!rc) {
        memcpy(v, c, sizeof(v)); /* a float4, int4 or uint4 by the format's class */
        isa_cl_encode(m->img->fmt.image_channel_order, m->img->fmt.image_channel_data_type, v,
                      elem);
        n = box_bytes(m->img, &b) / m->img->elem;
        for (size_t i = 0; i < n; i++)
            memcpy(tmp + i * m->img->elem, elem, m->img->elem);
        host_pitches(m->img, 0, 0, &b);
        rc = move(q, m, &b, tmp, true);
    }
    free(tmp);
    return rc ? rc : ocl_event_done(q, CL_COMMAND_FILL_IMAGE, t, CL_COMPLETE, e);
}

/* Image box b <-> buffer bytes [off, off + size) of buf through host memory. */
static cl_int image_buffer(cl_command_queue q, cl_mem img, struct img_box *b, cl_mem buf,
                           size_t off, bool to_image)
{
    size_t n = box_bytes(img->img, b);
    uint8_t *tmp = malloc(n);
    cl_int rc = tmp ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    int err = 0;

    host_pitches(img->img, 0, 0, b);
    if (!rc && !to_image)
        rc = move(q, img, b, tmp, false);
    if (!rc) {
        pthread_mutex_lock(&q->ctx->lock);
        err = to_image ? ptxsim_memcpy_dtoh(q->ctx->dev, tmp, buf->addr + off, n)
                       : ptxsim_memcpy_htod(q->ctx->dev, buf->addr + off, tmp, n);
        pthread_mutex_unlock(&q->ctx->lock);
        rc = err ? CL_OUT_OF_RESOURCES : CL_SUCCESS;
    }
    if (!rc && to_image)
        rc = move(q, img, b, tmp, true);
    free(tmp);
    return rc;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue q, cl_mem s, cl_mem d,
                                                           const size_t *so, const size_t *r,
                                                           size_t dO, cl_uint nw,
                                                           const cl_event *wl, cl_event *e)
{
    cl_ulong t = ocl_now_ns();
    struct img_box b;
    cl_int rc = image_cmd(q, s, so, r, &b, nw, wl);

    if (!rc)
        rc = ocl_check_mem_cmd(q, d, dO, box_bytes(s->img, &b), 0, NULL);
    if (!rc)
        rc = image_buffer(q, s, &b, d, dO, false);
    return rc ? rc : ocl_event_done(q, CL_COMMAND_COPY_IMAGE_TO_BUFFER, t, CL_COMPLETE, e);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue q, cl_mem s, cl_mem d,
                                                           size_t so, const size_t *dO,
                                                           const size_t *r, cl_uint nw,
                                                           const cl_event *wl, cl_event *e)
{
    cl_ulong t = ocl_now_ns();
    struct img_box b;
    cl_int rc = image_cmd(q, d, dO, r, &b, nw, wl);

    if (!rc)
        rc = ocl_check_mem_cmd(q, s, so, box_bytes(d->img, &b), 0, NULL);
    if (!rc)
        rc = image_buffer(q, d, &b, s, so, true);
    return rc ? rc : ocl_event_done(q, CL_COMMAND_COPY_BUFFER_TO_IMAGE, t, CL_COMPLETE, e);
}

/* Where a map of box b lives: host_ptr's memory (its pitches) or a fresh staging buffer. */
static void *map_target(cl_mem m, struct img_box *b)
{
    const struct ocl_image *im = m->img;

    if (!m->host_ptr) {
        host_pitches(im, 0, 0, b);
        return malloc(b->slice * b->r[2]);
    }
    b->row = im->desc.image_row_pitch;
    b->slice = layered(im) ? im->desc.image_slice_pitch : b->row * im->dims[1];
    return (uint8_t *)m->host_ptr + b->o[2] * b->slice + b->o[1] * b->row + b->o[0] * im->elem;
}

CL_API_ENTRY void *CL_API_CALL clEnqueueMapImage(cl_command_queue q, cl_mem m, cl_bool block,
                                                 cl_map_flags f, const size_t *o, const size_t *r,
                                                 size_t *rp, size_t *sp, cl_uint nw,
                                                 const cl_event *wl, cl_event *e, cl_int *errcode)
{
    cl_ulong t = ocl_now_ns();
    struct img_box b;
    struct ocl_mapping *map = NULL;
    void *ptr = NULL;
    cl_int rc = image_cmd(q, m, o, r, &b, nw, wl);

    (void)block;
    if (!rc && (!rp || (layered(m->img) && !sp) ||
                (f & ~(cl_map_flags)(CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))))
        rc = CL_INVALID_VALUE;
    if (!rc && (!(map = calloc(1, sizeof(*map))) || !(ptr = map_target(m, &b))))
        rc = CL_OUT_OF_HOST_MEMORY;
    if (!rc && (rc = move(q, m, &b, ptr, false)))
        rc = CL_MAP_FAILURE;
    if (!rc)
        rc = ocl_event_done(q, CL_COMMAND_MAP_IMAGE, t, CL_COMPLETE, e);
    if (rc) {
        if (!m || !ocl_valid(m, OCL_MAGIC_MEM) || !m->host_ptr)
            free(ptr);
        free(map);
        ptr = NULL;
    } else {
        *map = (struct ocl_mapping){.ptr = ptr,
                                    .write = (f & ~CL_MAP_READ) != 0,
                                    .next = m->maps,
                                    .row = b.row,
                                    .slice = b.slice};
        memcpy(map->origin, b.o, sizeof(b.o));
        memcpy(map->region, b.r, sizeof(b.r));
        m->maps = map;
        m->map_count++;
        *rp = b.row;
        if (sp)
            *sp = layered(m->img) ? b.slice : 0;
    }
    if (errcode)
        *errcode = rc;
    return ptr;
}
