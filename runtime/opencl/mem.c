/*
 * Buffers and the commands that move their bytes. A buffer is an engine
 * allocation; CL_MEM_USE_HOST_PTR buffers copy the host memory in at
 * creation and back when mapped (the spec lets an implementation cache
 * host_ptr's contents between those points). A sub-buffer is a window of
 * its buffer's allocation (same bytes, address + origin) and keeps the
 * buffer alive. The rectangular commands are in mem_rect.c; images are made
 * in image.c (their engine texture object ends here, with the image).
 */
#include <stdlib.h>
#include <string.h>

#include "runtime/opencl/hpdp.h"
#include "runtime/opencl/ocl.h"

#define MEM_ACCESS (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define MEM_HOSTPTR (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)
#define MEM_HOSTACC (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)

cl_int ocl_check_mem_flags(cl_mem_flags f, void *host_ptr)
{
    cl_mem_flags a = f & MEM_ACCESS, h = f & MEM_HOSTACC;

    if (f & ~(cl_mem_flags)(MEM_ACCESS | MEM_HOSTPTR | MEM_HOSTACC))
        return CL_INVALID_VALUE;
    if ((a & (a - 1)) || (h & (h - 1)))
        return CL_INVALID_VALUE;
    if ((f & CL_MEM_USE_HOST_PTR) && (f & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
        return CL_INVALID_VALUE;
    if (!!host_ptr != !!(f & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
        return CL_INVALID_HOST_PTR;
    return CL_SUCCESS;
}

static cl_int buffer_alloc(cl_context c, cl_mem m, void *host_ptr)
{
    cl_int rc = CL_SUCCESS;

    pthread_mutex_lock(&c->lock);
    if (ptxsim_malloc(c->dev, m->size, &m->addr))
        rc = CL_MEM_OBJECT_ALLOCATION_FAILURE;
    else if (host_ptr && ptxsim_memcpy_htod(c->dev, m->addr, host_ptr, m->size))
        rc = CL_OUT_OF_RESOURCES;
    else if (!host_ptr && ptxsim_memset(c->dev, m->addr, 0, m->size))
        rc = CL_OUT_OF_RESOURCES;
    if (rc && m->addr)
        ptxsim_free(c->dev, m->addr);
    if (!rc && host_ptr)
        ocl_hpdp_host_copy(m->size); /* host data a discrete GPU must receive (hpdp.h) */
    pthread_mutex_unlock(&c->lock);
    return rc;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateBuffer(cl_context c, cl_mem_flags flags, size_t size,
                                               void *host_ptr, cl_int *errcode)
{
    cl_mem m = NULL;
    cl_int rc = CL_SUCCESS;

    if (!ocl_valid(c, OCL_MAGIC_CONTEXT))
        rc = CL_INVALID_CONTEXT;
    else if ((rc = ocl_check_mem_flags(flags ? flags : CL_MEM_READ_WRITE, host_ptr)) != CL_SUCCESS)
        ;
    else if (size == 0 || size > (1536ull << 20) / 4)
        rc = CL_INVALID_BUFFER_SIZE;
    else if (!(m = calloc(1, sizeof(*m))))
        rc = CL_OUT_OF_HOST_MEMORY;
    if (m) {
        m->size = size;
        m->flags = flags ? flags : CL_MEM_READ_WRITE;
        m->host_ptr = (flags & CL_MEM_USE_HOST_PTR) ? host_ptr : NULL;
        rc = buffer_alloc(c, m, host_ptr);
    }
    if (m && rc) {
        free(m);
        m = NULL;
    } else if (m) {
        m->dispatch = &ocl_dispatch;
        m->magic = OCL_MAGIC_MEM;
        ocl_registry_add(m);
        m->refs = 1;
        m->ctx = c;
        clRetainContext(c);
    }
    if (errcode)
        *errcode = rc;
    return m;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainMemObject(cl_mem m)
{
    if (!ocl_valid(m, OCL_MAGIC_MEM))
        return CL_INVALID_MEM_OBJECT;
    __atomic_add_fetch(&m->refs, 1, __ATOMIC_SEQ_CST);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseMemObject(cl_mem m)
{
    cl_context c;

    if (!ocl_valid(m, OCL_MAGIC_MEM))
        return CL_INVALID_MEM_OBJECT;
    if (__atomic_sub_fetch(&m->refs, 1, __ATOMIC_SEQ_CST))
        return CL_SUCCESS;
    c = m->ctx;
    pthread_mutex_lock(&c->lock);
    if (m->img)
        ptxsim_texobj_destroy(c->dev, m->img->tex);
    if (!m->parent)
        ptxsim_free(c->dev, m->addr);
    pthread_mutex_unlock(&c->lock);
    free(m->img);
    while (m->maps) {
        struct ocl_mapping *next = m->maps->next;

        if (!m->host_ptr)
            free(m->maps->ptr);
        free(m->maps);
        m->maps = next;
    }
    if (m->parent)
        clReleaseMemObject(m->parent);
    ocl_retire(m);
    clReleaseContext(c);
    return CL_SUCCESS;
}

/*
 * A sub-buffer's flags (OpenCL 1.2, clCreateSubBuffer): access and host
 * access flags default to the buffer's and may not widen them; the host
 * pointer flags are inherited and may not be given.
 */
static cl_int sub_flags(cl_mem b, cl_mem_flags f, cl_mem_flags *out)
{
    cl_mem_flags a = f & MEM_ACCESS, h = f & MEM_HOSTACC, ba = b->flags & MEM_ACCESS;
    cl_mem_flags bh = b->flags & MEM_HOSTACC;

    if ((f & ~(cl_mem_flags)(MEM_ACCESS | MEM_HOSTACC)) || (a & (a - 1)) || (h & (h - 1)))
        return CL_INVALID_VALUE;
    if ((ba == CL_MEM_WRITE_ONLY && a && a != CL_MEM_WRITE_ONLY) ||
        (ba == CL_MEM_READ_ONLY && a && a != CL_MEM_READ_ONLY))
        return CL_INVALID_VALUE;
    if ((bh == CL_MEM_HOST_WRITE_ONLY && h == CL_MEM_HOST_READ_ONLY) ||
        (bh == CL_MEM_HOST_READ_ONLY && h == CL_MEM_HOST_WRITE_ONLY) ||
        (bh == CL_MEM_HOST_NO_ACCESS && h && h != CL_MEM_HOST_NO_ACCESS))
        return CL_INVALID_VALUE;
    *out = (a ? a : ba) | (h ? h : bh) | (b->flags & MEM_HOSTPTR);
    return CL_SUCCESS;
}

/* The region's checks, in the order of the spec's error list. */
static cl_int sub_region(cl_mem b, cl_buffer_create_type t, const void *info)
{
    const cl_buffer_region *r = info;
    size_t align = 4096 / 8; /* CL_DEVICE_MEM_BASE_ADDR_ALIGN, in bits */

    if (t != CL_BUFFER_CREATE_TYPE_REGION || !r)
        return CL_INVALID_VALUE;
    if (r->origin > b->size || r->size > b->size - r->origin)
        return CL_INVALID_VALUE;
    if (r->size == 0)
        return CL_INVALID_BUFFER_SIZE;
    if (r->origin % align)
        return CL_MISALIGNED_SUB_BUFFER_OFFSET;
    return CL_SUCCESS;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateSubBuffer(cl_mem b, cl_mem_flags f,
                                                  cl_buffer_create_type t, const void *info,
                                                  cl_int *errcode)
{
    const cl_buffer_region *r = info;
    cl_mem_flags flags = 0;
    cl_mem m = NULL;
    cl_int rc = CL_SUCCESS;

    if (!ocl_valid(b, OCL_MAGIC_MEM) || b->parent || b->img)
        rc = CL_INVALID_MEM_OBJECT; /* not a buffer, or itself a sub-buffer */
    else if ((rc = sub_flags(b, f, &flags)) == CL_SUCCESS &&
             (rc = sub_region(b, t, info)) == CL_SUCCESS && !(m = calloc(1, sizeof(*m))))
        rc = CL_OUT_OF_HOST_MEMORY;
    if (m) {
        *m = (struct _cl_mem){.dispatch = &ocl_dispatch, .magic = OCL_MAGIC_MEM, .refs = 1,
                              .ctx = b->ctx, .flags = flags, .size = r->size,
                              .addr = b->addr + r->origin, .parent = b, .origin = r->origin};
        ocl_registry_add(m);
        if (b->host_ptr)
            m->host_ptr = (uint8_t *)b->host_ptr + r->origin;
        clRetainMemObject(b);
        clRetainContext(b->ctx);
    }
    if (errcode)
        *errcode = rc;
    return m;
}

CL_API_ENTRY cl_int CL_API_CALL clGetMemObjectInfo(cl_mem m, cl_mem_info name, size_t size,
                                                   void *value, size_t *size_ret)
{
    cl_mem_object_type type = CL_MEM_OBJECT_BUFFER;
    cl_uint u;

    if (!ocl_valid(m, OCL_MAGIC_MEM))
        return CL_INVALID_MEM_OBJECT;
    if (m->img)
        type = m->img->desc.image_type;
    switch (name) {
    case CL_MEM_TYPE:
        return ocl_info(&type, sizeof(type), size, value, size_ret);
    case CL_MEM_FLAGS:
        return ocl_info(&m->flags, sizeof(m->flags), size, value, size_ret);
    case CL_MEM_SIZE:
        return ocl_info(&m->size, sizeof(m->size), size, value, size_ret);
    case CL_MEM_HOST_PTR:
        return ocl_info(&m->host_ptr, sizeof(m->host_ptr), size, value, size_ret);
    case CL_MEM_MAP_COUNT:
        return ocl_info(&m->map_count, sizeof(m->map_count), size, value, size_ret);
    case CL_MEM_REFERENCE_COUNT:
        u = m->refs;
        return ocl_info(&u, sizeof(u), size, value, size_ret);
    case CL_MEM_CONTEXT:
        return ocl_info(&m->ctx, sizeof(m->ctx), size, value, size_ret);
    case CL_MEM_ASSOCIATED_MEMOBJECT:
        return ocl_info(&m->parent, sizeof(m->parent), size, value, size_ret);
    case CL_MEM_OFFSET:
        return ocl_info(&m->origin, sizeof(m->origin), size, value, size_ret);
    default:
        return CL_INVALID_VALUE;
    }
}

bool ocl_mem_overlap(cl_mem a, size_t aoff, size_t an, cl_mem b, size_t boff, size_t bn)
{
    size_t as = a->origin + aoff, bs = b->origin + boff;

    if ((a->parent ? a->parent : a) != (b->parent ? b->parent : b))
        return false;
    return as < bs + bn && bs < as + an;
}

/* The checks of ocl_check_mem_cmd; images pass only when image_ok. */
static cl_int mem_cmd(cl_command_queue q, cl_mem m, size_t off, size_t n, cl_uint nw,
                      const cl_event *wl, bool image_ok)
{
    if (!ocl_valid(q, OCL_MAGIC_QUEUE))
        return CL_INVALID_COMMAND_QUEUE;
    if (!ocl_valid(m, OCL_MAGIC_MEM) || (m->img && !image_ok))
        return CL_INVALID_MEM_OBJECT;
    if (m->ctx != q->ctx)
        return CL_INVALID_CONTEXT;
    if (off > m->size || n > m->size - off)
        return CL_INVALID_VALUE;
    return ocl_check_wait_list(nw, wl);
}

cl_int ocl_check_mem_cmd(cl_command_queue q, cl_mem m, size_t off, size_t n, cl_uint nw,
                         const cl_event *wl)
{
    return mem_cmd(q, m, off, n, nw, wl, false);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue q, cl_mem m, cl_bool block,
                                                    size_t off, size_t n, void *ptr, cl_uint nw,
                                                    const cl_event *wl, cl_event *event)
{
    cl_ulong t = ocl_now_ns();
    cl_int rc = ocl_check_mem_cmd(q, m, off, n, nw, wl);

    (void)block;
    if (rc)
        return rc;
    if (!ptr || n == 0)
        return CL_INVALID_VALUE;
    pthread_mutex_lock(&q->ctx->lock);
    rc = ptxsim_memcpy_dtoh(q->ctx->dev, ptr, m->addr + off, n) ? CL_OUT_OF_RESOURCES : 0;
    pthread_mutex_unlock(&q->ctx->lock);
    if (rc)
        return rc;
    ocl_stats_copy(n);
    return ocl_event_done(q, CL_COMMAND_READ_BUFFER, t, CL_COMPLETE, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue q, cl_mem m,
                                                     cl_bool block, size_t off, size_t n,
                                                     const void *ptr, cl_uint nw,
                                                     const cl_event *wl, cl_event *event)
{
    cl_ulong t = ocl_now_ns();
    cl_int rc = ocl_check_mem_cmd(q, m, off, n, nw, wl);

    (void)block;
    if (rc)
        return rc;
    if (!ptr || n == 0)
        return CL_INVALID_VALUE;
    pthread_mutex_lock(&q->ctx->lock);
    rc = ptxsim_memcpy_htod(q->ctx->dev, m->addr + off, ptr, n) ? CL_OUT_OF_RESOURCES : 0;
    pthread_mutex_unlock(&q->ctx->lock);
    if (rc)
        return rc;
    ocl_stats_copy(n);
    return ocl_event_done(q, CL_COMMAND_WRITE_BUFFER, t, CL_COMPLETE, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue q, cl_mem src, cl_mem dst,
                                                    size_t soff, size_t doff, size_t n,
                                                    cl_uint nw, const cl_event *wl,
                                                    cl_event *event)
{
    cl_ulong t = ocl_now_ns();
    cl_int rc = ocl_check_mem_cmd(q, src, soff, n, nw, wl);

    if (!rc)
        rc = ocl_check_mem_cmd(q, dst, doff, n, 0, NULL);
    if (rc)
        return rc;
    if (n == 0)
        return CL_INVALID_VALUE;
    if (ocl_mem_overlap(src, soff, n, dst, doff, n))
        return CL_MEM_COPY_OVERLAP;
    pthread_mutex_lock(&q->ctx->lock);
    rc = ptxsim_memcpy_dtod(q->ctx->dev, dst->addr + doff, src->addr + soff, n)
             ? CL_OUT_OF_RESOURCES : 0;
    pthread_mutex_unlock(&q->ctx->lock);
    if (rc)
        return rc;
    ocl_stats_copy(n);
    return ocl_event_done(q, CL_COMMAND_COPY_BUFFER, t, CL_COMPLETE, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue q, cl_mem m,
                                                    const void *pattern, size_t psize,
                                                    size_t off, size_t n, cl_uint nw,
                                                    const cl_event *wl, cl_event *event)
{
    cl_ulong t = ocl_now_ns();
    cl_int rc = ocl_check_mem_cmd(q, m, off, n, nw, wl);
    uint8_t *buf;

    if (rc)
        return rc;
    if (!pattern || !psize || psize > 128 || (psize & (psize - 1)) || off % psize || n % psize)
        return CL_INVALID_VALUE;
    buf = malloc(n ? n : 1);
    if (!buf)
        return CL_OUT_OF_HOST_MEMORY;
    for (size_t i = 0; i < n; i += psize)
        memcpy(buf + i, pattern, psize);
    pthread_mutex_lock(&q->ctx->lock);
    rc = n && ptxsim_memcpy_htod(q->ctx->dev, m->addr + off, buf, n) ? CL_OUT_OF_RESOURCES : 0;
    pthread_mutex_unlock(&q->ctx->lock);
    free(buf);
    if (rc)
        return rc;
    ocl_stats_copy(n);
    return ocl_event_done(q, CL_COMMAND_FILL_BUFFER, t, CL_COMPLETE, event);
}

/* ---- map / unmap ------------------------------------------------------- */

CL_API_ENTRY void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue q, cl_mem m, cl_bool block,
                                                  cl_map_flags flags, size_t off, size_t n,
                                                  cl_uint nw, const cl_event *wl,
                                                  cl_event *event, cl_int *errcode)
{
    cl_ulong t = ocl_now_ns();
    cl_int rc = ocl_check_mem_cmd(q, m, off, n, nw, wl);
    struct ocl_mapping *map = NULL;
    void *ptr = NULL;

    (void)block;
    if (!rc && (n == 0 || (flags & ~(cl_map_flags)(CL_MAP_READ | CL_MAP_WRITE |
                                                   CL_MAP_WRITE_INVALIDATE_REGION))))
        rc = CL_INVALID_VALUE;
    if (!rc) {
        map = calloc(1, sizeof(*map));
        ptr = m->host_ptr ? (uint8_t *)m->host_ptr + off : malloc(n);
        if (!map || !ptr)
            rc = CL_OUT_OF_HOST_MEMORY;
    }
    if (!rc) {
        pthread_mutex_lock(&q->ctx->lock);
        if (ptxsim_memcpy_dtoh(q->ctx->dev, ptr, m->addr + off, n))
            rc = CL_MAP_FAILURE;
        pthread_mutex_unlock(&q->ctx->lock);
    }
    if (!rc)
        rc = ocl_event_done(q, CL_COMMAND_MAP_BUFFER, t, CL_COMPLETE, event);
    if (rc) {
        free(map);
        if (!m || !ocl_valid(m, OCL_MAGIC_MEM) || !m->host_ptr)
            free(ptr);
        ptr = NULL;
    } else {
        *map = (struct ocl_mapping){.ptr = ptr, .offset = off, .size = n,
                                    .write = (flags & ~CL_MAP_READ) != 0, .next = m->maps};
        m->maps = map;
        m->map_count++;
    }
    if (errcode)
        *errcode = rc;
    return ptr;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue q, cl_mem m, void *ptr,
                                                        cl_uint nw, const cl_event *wl,
                                                        cl_event *event)
{
    cl_ulong t = ocl_now_ns();
    cl_int rc = mem_cmd(q, m, 0, 0, nw, wl, true);
    struct ocl_mapping **pp, *map;

    if (rc)
        return rc;
    for (pp = &m->maps; *pp && (*pp)->ptr != ptr; pp = &(*pp)->next)
        ;
    if (!*pp)
        return CL_INVALID_VALUE;
    map = *pp;
    *pp = map->next;
    m->map_count--;
    if (map->write) {
        pthread_mutex_lock(&q->ctx->lock);
        if (m->img ? ocl_image_rows(q->ctx->dev, m, map->origin, map->region, map->ptr,
                                    map->row, map->slice, true)
                   : ptxsim_memcpy_htod(q->ctx->dev, m->addr + map->offset, map->ptr, map->size))
            rc = CL_OUT_OF_RESOURCES;
        pthread_mutex_unlock(&q->ctx->lock);
    }
    if (!m->host_ptr)
        free(map->ptr);
    free(map);
    return rc ? rc : ocl_event_done(q, CL_COMMAND_UNMAP_MEM_OBJECT, t, CL_COMPLETE, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue q, cl_uint n,
                                                           const cl_mem *objs,
                                                           cl_mem_migration_flags flags,
                                                           cl_uint nw, const cl_event *wl,
                                                           cl_event *event)
{
    cl_int rc;

    (void)flags;
    if (!ocl_valid(q, OCL_MAGIC_QUEUE))
        return CL_INVALID_COMMAND_QUEUE;
    if (!n || !objs)
        return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < n; i++)
        if (!ocl_valid(objs[i], OCL_MAGIC_MEM))
            return CL_INVALID_MEM_OBJECT;
    rc = ocl_check_wait_list(nw, wl);
    return rc ? rc : ocl_event_done(q, CL_COMMAND_MIGRATE_MEM_OBJECTS, ocl_now_ns(), CL_COMPLETE,
                                    event);
}
