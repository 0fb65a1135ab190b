/*
 * Image objects (OpenCL 1.2 section 5.3): clCreateImage (and 1.1's
 * clCreateImage2D/3D), clGetImageInfo and clGetSupportedImageFormats. An
 * image is an engine allocation holding its elements in tightly packed rows
 * (a 1D image buffer uses its buffer's memory, and keeps the buffer as its
 * parent), plus an engine texture object (isa/climage.h) that kernels
 * receive as the image argument's value and sample through the engine's
 * texture path. Every format of OpenCL 1.2's table 5.7 is supported except
 * the CL_Rx, CL_RGx and CL_RGBx orders (CL_IMAGE_FORMAT_NOT_SUPPORTED).
 * CL_MEM_USE_HOST_PTR images copy the host memory in at creation, and
 * clEnqueueMapImage maps them at host_ptr with the pitches given.
 * The CPU device (cpu.h) runs kernels on PoCL images made at launch: a context
 * with it takes the largest limits of its devices (OpenCL refuses an image
 * too big for all of them; one too big for the CPU fails at a CPU launch,
 * with a message), and offers only the formats PoCL supports too.
 */
#include <stdlib.h>
#include <string.h>

#include "isa/climage.h"
#include "isa/texture.h"
#include "runtime/opencl/cpu.h"
#include "runtime/opencl/ocl.h"

#define IMG2D_MAX OCL_IMG2D_MAX
#define IMG3D_MAX OCL_IMG3D_MAX
#define IMG_BUFFER_MAX OCL_IMG_BUFFER_MAX
#define IMG_ARRAY_MAX OCL_IMG_ARRAY_MAX

static bool has_device(cl_context c, cl_device_id d)
{
    for (cl_uint i = 0; d && i < c->ndev; i++)
        if (c->devs[i] == d)
            return true;
    return false;
}

/* Whether the context has the CPU device and PoCL supports images there. */
static bool has_cpu_images(cl_context c)
{
    return has_device(c, ocl_cpu_device()) && ocl_cpu_images();
}

bool ocl_context_has_images(cl_context c)
{
    return has_device(c, ocl_device()) || has_cpu_images(c);
}

/* The GPU device's largest image of type t (width, height, depth-or-layers). */
static void gpu_limits(cl_mem_object_type t, size_t lim[3])
{
    lim[0] = IMG2D_MAX, lim[1] = lim[2] = 1;
    if (t == CL_MEM_OBJECT_IMAGE1D_BUFFER)
        lim[0] = IMG_BUFFER_MAX;
    else if (t == CL_MEM_OBJECT_IMAGE1D_ARRAY)
        lim[2] = IMG_ARRAY_MAX;
    else if (t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY)
        lim[1] = IMG2D_MAX, lim[2] = t == CL_MEM_OBJECT_IMAGE2D ? 1 : IMG_ARRAY_MAX;
    else if (t == CL_MEM_OBJECT_IMAGE3D)
        lim[0] = lim[1] = lim[2] = IMG3D_MAX;
}

void ocl_context_image_limits(cl_context c, cl_mem_object_type t, size_t lim[3])
{
    size_t cpu[3];

    lim[0] = lim[1] = lim[2] = 0;
    if (has_device(c, ocl_device()))
        gpu_limits(t, lim);
    if (has_cpu_images(c)) {
        ocl_cpu_image_limits(t, cpu);
        for (int i = 0; i < 3; i++)
            lim[i] = cpu[i] > lim[i] ? cpu[i] : lim[i];
    }
}

/* The element size of a format, or an error: a bad descriptor, or a format not supported. */
static cl_int format_check(const cl_image_format *f, size_t *elem)
{
    if (!f || f->image_channel_order < CL_R || f->image_channel_order > CL_RGBx ||
        f->image_channel_data_type < CL_SNORM_INT8 || f->image_channel_data_type > CL_FLOAT)
        return CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
    *elem = isa_cl_elem_bytes(f->image_channel_order, f->image_channel_data_type);
    if (*elem)
        return CL_SUCCESS;
    switch (f->image_channel_order) { /* a valid padded order ptxsim lacks */
    case CL_Rx:
        return isa_cl_elem_bytes(CL_R, f->image_channel_data_type)
                   ? CL_IMAGE_FORMAT_NOT_SUPPORTED
                   : CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
    case CL_RGx:
        return isa_cl_elem_bytes(CL_RG, f->image_channel_data_type)
                   ? CL_IMAGE_FORMAT_NOT_SUPPORTED
                   : CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
    case CL_RGBx:
        return isa_cl_elem_bytes(CL_RGB, f->image_channel_data_type)
                   ? CL_IMAGE_FORMAT_NOT_SUPPORTED
                   : CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
    default:
        return CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
    }
}

/*
 * Whether a format ptxsim supports is usable in c: a context with the CPU device offers only
 * the formats PoCL supports too, so that every image of the context runs on both devices
 * (clGetSupportedImageFormats lists this intersection).
 */
static bool format_usable(cl_context c, cl_mem_flags f, cl_mem_object_type t,
                          const cl_image_format *fmt)
{
    f &= CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
    if (has_device(c, ocl_device()) && !has_cpu_images(c))
        return true;
    return ocl_cpu_image_format_ok(f ? f : CL_MEM_READ_WRITE, t, fmt);
}

/* Width, height and depth-or-layers of a description, with the engine's dimensions; c's
 * limits are checked when c is given. */
static cl_int desc_dims(cl_context c, const cl_image_desc *d, size_t dims[3], uint32_t *tdims)
{
    size_t lim[3];

    dims[0] = d->image_width;
    dims[1] = dims[2] = 1;
    switch (d->image_type) {
    case CL_MEM_OBJECT_IMAGE1D:
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
        *tdims = 1;
        break;
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
        *tdims = 1;
        dims[2] = d->image_array_size;
        break;
    case CL_MEM_OBJECT_IMAGE2D:
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
        *tdims = 2;
        dims[1] = d->image_height;
        dims[2] = d->image_type == CL_MEM_OBJECT_IMAGE2D ? 1 : d->image_array_size;
        break;
    case CL_MEM_OBJECT_IMAGE3D:
        *tdims = 3;
        dims[1] = d->image_height;
        dims[2] = d->image_depth;
        break;
    default:
        return CL_INVALID_IMAGE_DESCRIPTOR;
    }
    if (!c)
        return CL_SUCCESS;
    ocl_context_image_limits(c, d->image_type, lim);
    for (int i = 0; i < 3; i++)
        if (!dims[i] || dims[i] > lim[i])
            return CL_INVALID_IMAGE_SIZE;
    return CL_SUCCESS;
}

static bool is_1d_array(const struct ocl_image *im)
{
    return im->desc.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
}

/*
 * The description's other fields: no mipmaps or samples, a buffer only for 1D buffer images,
 * and host pitches (0 without a host pointer) that fit the image. Fills the image's layout;
 * its host pitches (given or implied) go into im->desc.
 */
static cl_int desc_layout(cl_context c, const cl_image_desc *d, void *host, struct ocl_image *im)
{
    size_t row = im->dims[0] * im->elem, hr = d->image_row_pitch, hs = d->image_slice_pitch;
    bool layered = d->image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                   d->image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                   d->image_type == CL_MEM_OBJECT_IMAGE3D;
    cl_mem b = d->buffer;

    if (d->num_mip_levels || d->num_samples)
        return CL_INVALID_IMAGE_DESCRIPTOR;
    if ((d->image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER) !=
        (b && ocl_valid(b, OCL_MAGIC_MEM) && !b->img && b->ctx == c))
        return CL_INVALID_IMAGE_DESCRIPTOR;
    if (b && row > b->size)
        return CL_INVALID_IMAGE_SIZE;
    if (!host && (hr || hs))
        return CL_INVALID_IMAGE_DESCRIPTOR;
    hr = hr ? hr : row;
    if (hr < row || hr % im->elem)
        return CL_INVALID_IMAGE_DESCRIPTOR;
    /* A 1D array's host layers are slice_pitch apart (row pitch by default). */
    hs = hs ? hs : (is_1d_array(im) ? hr : hr * im->dims[1]);
    if (layered && (hs < (is_1d_array(im) ? hr : hr * im->dims[1]) || hs % hr))
        return CL_INVALID_IMAGE_DESCRIPTOR;
    im->desc = *d;
    im->desc.image_row_pitch = hr;
    im->desc.image_slice_pitch = layered ? hs : 0;
    im->row = row;
    im->slice = is_1d_array(im) ? row : row * im->dims[1];
    return CL_SUCCESS;
}

/* The engine texture object of image m. */
static int make_texobj(cl_context c, cl_mem m)
{
    struct ocl_image *im = m->img;
    struct isa_texobj t;
    bool layered = im->desc.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                   im->desc.image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
    uint32_t tdims;

    memset(&t, 0, sizeof(t));
    isa_cl_texobj_format(&t, im->fmt.image_channel_order, im->fmt.image_channel_data_type);
    desc_dims(NULL, &im->desc, im->dims, &tdims);
    t.addr = m->addr;
    t.dims = tdims;
    t.width = (uint32_t)im->dims[0];
    t.height = (uint32_t)im->dims[1];
    t.depth = layered ? 1 : (uint32_t)im->dims[2];
    t.layers = layered ? (uint32_t)im->dims[2] : 0;
    t.pitch = im->row;
    t.slice = im->slice;
    t.layer_bytes = im->slice;
    return ptxsim_texobj_create(c->dev, &t, &im->tex);
}

/* Storage: a fresh allocation with the host data (or zeros), or the 1D buffer's memory. */
static cl_int image_storage(cl_context c, cl_mem m, void *host)
{
    struct ocl_image *im = m->img;
    const size_t origin[3] = {0, 0, 0};
    cl_int rc = CL_SUCCESS;

    if (im->desc.buffer) {
        m->parent = im->desc.buffer;
        m->addr = m->parent->addr;
        clRetainMemObject(m->parent);
    }
    pthread_mutex_lock(&c->lock);
    if (!m->parent && ptxsim_malloc(c->dev, m->size, &m->addr))
        rc = CL_MEM_OBJECT_ALLOCATION_FAILURE;
    else if (!m->parent && host)
        rc = ocl_image_rows(c->dev, m, origin, im->dims, host, im->desc.image_row_pitch,
                            im->desc.image_slice_pitch, true)
                 ? CL_OUT_OF_RESOURCES
                 : CL_SUCCESS;
    else if (!m->parent && ptxsim_memset(c->dev, m->addr, 0, m->size))
        rc = CL_OUT_OF_RESOURCES;
    if (!rc && make_texobj(c, m))
        rc = CL_OUT_OF_HOST_MEMORY;
    if (rc && !m->parent && m->addr)
        ptxsim_free(c->dev, m->addr);
    pthread_mutex_unlock(&c->lock);
    if (rc && m->parent)
        clReleaseMemObject(m->parent);
    return rc;
}

/* The checks of clCreateImage in the order of its error list, filling m's image. */
static cl_int image_check(cl_context c, cl_mem_flags flags, const cl_image_format *fmt,
                          const cl_image_desc *desc, void *host, struct ocl_image *im)
{
    uint32_t tdims;
    cl_int rc;

    if (!ocl_valid(c, OCL_MAGIC_CONTEXT))
        return CL_INVALID_CONTEXT;
    if (!ocl_context_has_images(c)) {
        ocl_notify(c, "clCreateImage: no device of the context supports images (PoCL's CPU "
                      "device reports no image support)");
        return CL_INVALID_OPERATION;
    }
    if ((rc = ocl_check_mem_flags(flags, host)))
        return rc;
    if ((rc = format_check(fmt, &im->elem)))
        return rc;
    if (!desc)
        return CL_INVALID_IMAGE_DESCRIPTOR;
    if ((rc = desc_dims(c, desc, im->dims, &tdims)))
        return rc;
    if (!format_usable(c, flags, desc->image_type, fmt))
        return CL_IMAGE_FORMAT_NOT_SUPPORTED;
    if (desc->image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER && host)
        return CL_INVALID_HOST_PTR; /* its memory is the buffer's */
    im->fmt = *fmt;
    return desc_layout(c, desc, host, im);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage(cl_context c, cl_mem_flags flags,
                                              const cl_image_format *fmt, const cl_image_desc *desc,
                                              void *host, cl_int *errcode)
{
    struct ocl_image *im = calloc(1, sizeof(*im));
    cl_mem m = calloc(1, sizeof(*m));
    cl_int rc = im && m ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;

    flags = flags ? flags : CL_MEM_READ_WRITE;
    if (!rc)
        rc = image_check(c, flags, fmt, desc, host, im);
    if (!rc) {
        m->img = im;
        m->size = im->slice * im->dims[2];
        m->flags = flags;
        m->host_ptr = (flags & CL_MEM_USE_HOST_PTR) ? host : NULL;
        rc = image_storage(c, m, host);
    }
    if (rc) {
        free(im);
        free(m);
        m = NULL;
    } else {
        m->dispatch = &ocl_dispatch;
        m->magic = OCL_MAGIC_MEM;
        m->refs = 1;
        m->ctx = c;
        ocl_registry_add(m);
        clRetainContext(c);
    }
    if (errcode)
        *errcode = rc;
    return m;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage2D(cl_context c, cl_mem_flags f,
                                                const cl_image_format *fmt, size_t w, size_t h,
                                                size_t pitch, void *host, cl_int *errcode)
{
    cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D,
                       .image_width = w,
                       .image_height = h,
                       .image_row_pitch = pitch};

    return clCreateImage(c, f, fmt, &d, host, errcode);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage3D(cl_context c, cl_mem_flags f,
                                                const cl_image_format *fmt, size_t w, size_t h,
                                                size_t d, size_t rp, size_t sp, void *host,
                                                cl_int *errcode)
{
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE3D,
                          .image_width = w,
                          .image_height = h,
                          .image_depth = d,
                          .image_row_pitch = rp,
                          .image_slice_pitch = sp};

    if (d < 2) { /* OpenCL 1.1: a 3D image has depth > 1 */
        if (errcode)
            *errcode = ocl_valid(c, OCL_MAGIC_CONTEXT) ? CL_INVALID_IMAGE_SIZE : CL_INVALID_CONTEXT;
        return NULL;
    }
    return clCreateImage(c, f, fmt, &desc, host, errcode);
}

/* The answer of clGetImageInfo's size_t queries. */
static size_t image_size_info(const struct ocl_image *im, cl_image_info name)
{
    cl_mem_object_type t = im->desc.image_type;
    bool arr = t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY;

    switch (name) {
    case CL_IMAGE_ELEMENT_SIZE:
        return im->elem;
    case CL_IMAGE_ROW_PITCH:
        return im->row;
    case CL_IMAGE_SLICE_PITCH:
        return arr || t == CL_MEM_OBJECT_IMAGE3D ? im->slice : 0;
    case CL_IMAGE_WIDTH:
        return im->dims[0];
    case CL_IMAGE_HEIGHT:
        return t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                       t == CL_MEM_OBJECT_IMAGE3D
                   ? im->dims[1]
                   : 0;
    case CL_IMAGE_DEPTH:
        return t == CL_MEM_OBJECT_IMAGE3D ? im->dims[2] : 0;
    default: /* CL_IMAGE_ARRAY_SIZE */
        return arr ? im->dims[2] : 0;
    }
}

CL_API_ENTRY cl_int CL_API_CALL clGetImageInfo(cl_mem m, cl_image_info name, size_t size,
                                               void *value, size_t *size_ret)
{
    cl_uint zero = 0;
    size_t v;

    if (!ocl_valid(m, OCL_MAGIC_MEM) || !m->img)
        return CL_INVALID_MEM_OBJECT;
    switch (name) {
    case CL_IMAGE_FORMAT:
        return ocl_info(&m->img->fmt, sizeof(m->img->fmt), size, value, size_ret);
    case CL_IMAGE_BUFFER:
        return ocl_info(&m->img->desc.buffer, sizeof(cl_mem), size, value, size_ret);
    case CL_IMAGE_NUM_MIP_LEVELS:
    case CL_IMAGE_NUM_SAMPLES:
        return ocl_info(&zero, sizeof(zero), size, value, size_ret);
    case CL_IMAGE_ELEMENT_SIZE:
    case CL_IMAGE_ROW_PITCH:
    case CL_IMAGE_SLICE_PITCH:
    case CL_IMAGE_WIDTH:
    case CL_IMAGE_HEIGHT:
    case CL_IMAGE_DEPTH:
    case CL_IMAGE_ARRAY_SIZE:
        v = image_size_info(m->img, name);
        return ocl_info(&v, sizeof(v), size, value, size_ret);
    default:
        return CL_INVALID_VALUE;
    }
}

CL_API_ENTRY cl_int CL_API_CALL clGetSupportedImageFormats(cl_context c, cl_mem_flags f,
                                                           cl_mem_object_type t, cl_uint n,
                                                           cl_image_format *fmts, cl_uint *num)
{
    cl_uint count = 0;

    if (!ocl_valid(c, OCL_MAGIC_CONTEXT))
        return CL_INVALID_CONTEXT;
    if (ocl_check_mem_flags(f & ~(cl_mem_flags)(CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR),
                            NULL) ||
        t < CL_MEM_OBJECT_IMAGE2D || t > CL_MEM_OBJECT_IMAGE1D_BUFFER || (n == 0 && fmts))
        return CL_INVALID_VALUE;
    for (cl_channel_order o = CL_R; o <= CL_LUMINANCE; o++) {
        for (cl_channel_type ty = CL_SNORM_INT8; ty <= CL_FLOAT; ty++) {
            cl_image_format fmt = {o, ty};

            if (!isa_cl_elem_bytes(o, ty) || !ocl_context_has_images(c) ||
                !format_usable(c, f, t, &fmt))
                continue;
            if (fmts && count < n)
                fmts[count] = fmt;
            count++;
        }
    }
    if (num)
        *num = count;
    return CL_SUCCESS;
}
