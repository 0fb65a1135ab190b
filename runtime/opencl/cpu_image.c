/*
 * Images and samplers on the CPU device (cpu.h): PoCL's image support,
 * limits and formats for ptxsim's contexts, and the PoCL image and sampler a
 * CPU launch makes for an image or sampler argument (cpu_launch.c migrates
 * the contents). An image's engine layout is tightly packed rows (image.c),
 * so its bytes move to and from PoCL with pitches row and slice.
 */
#include <stdlib.h>

#include "isa/climage.h"
#include "runtime/opencl/cpu.h"
#include "runtime/opencl/cpu_pocl.h"

/* A PoCL context of its CPU device alone, for the format queries (made once, never released). */
static cl_context g_query_ctx;
static pthread_once_t g_query_once = PTHREAD_ONCE_INIT;

static void query_ctx_make(void)
{
    const struct ocl_pocl *p = ocl_pocl();
    cl_int rc;

    if (p)
        g_query_ctx = p->d->clCreateContext(NULL, 1, &p->dev, NULL, NULL, &rc);
}

bool ocl_cpu_images(void)
{
    const struct ocl_pocl *p = ocl_pocl();
    cl_bool yes = CL_FALSE;

    return p &&
           p->d->clGetDeviceInfo(p->dev, CL_DEVICE_IMAGE_SUPPORT, sizeof(yes), &yes, NULL) ==
               CL_SUCCESS &&
           yes;
}

static size_t pocl_size(cl_device_info name)
{
    const struct ocl_pocl *p = ocl_pocl();
    size_t v = 0;

    if (!p || p->d->clGetDeviceInfo(p->dev, name, sizeof(v), &v, NULL) != CL_SUCCESS)
        return 0;
    return v;
}

void ocl_cpu_image_limits(cl_mem_object_type t, size_t lim[3])
{
    lim[0] = lim[1] = lim[2] = 0;
    if (!ocl_cpu_images())
        return;
    switch (t) {
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
        lim[0] = pocl_size(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE), lim[1] = lim[2] = 1;
        break;
    case CL_MEM_OBJECT_IMAGE3D:
        lim[0] = pocl_size(CL_DEVICE_IMAGE3D_MAX_WIDTH);
        lim[1] = pocl_size(CL_DEVICE_IMAGE3D_MAX_HEIGHT);
        lim[2] = pocl_size(CL_DEVICE_IMAGE3D_MAX_DEPTH);
        break;
    default: /* 1D, 1D array, 2D, 2D array */
        lim[0] = pocl_size(CL_DEVICE_IMAGE2D_MAX_WIDTH);
        lim[1] = t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY
                     ? pocl_size(CL_DEVICE_IMAGE2D_MAX_HEIGHT)
                     : 1;
        lim[2] = t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY
                     ? pocl_size(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE)
                     : 1;
        break;
    }
}

bool ocl_cpu_image_format_ok(cl_mem_flags access, cl_mem_object_type t, const cl_image_format *f)
{
    const struct ocl_pocl *p = ocl_pocl();
    cl_image_format *all;
    cl_uint n = 0;
    bool ok = false;

    pthread_once(&g_query_once, query_ctx_make);
    if (!p || !g_query_ctx ||
        p->d->clGetSupportedImageFormats(g_query_ctx, access, t, 0, NULL, &n) != CL_SUCCESS || !n ||
        !(all = calloc(n, sizeof(*all))))
        return false;
    if (p->d->clGetSupportedImageFormats(g_query_ctx, access, t, n, all, NULL) == CL_SUCCESS)
        for (cl_uint i = 0; i < n && !ok; i++)
            ok = all[i].image_channel_order == f->image_channel_order &&
                 all[i].image_channel_data_type == f->image_channel_data_type;
    free(all);
    return ok;
}

/* The host pitches of the engine layout as OpenCL counts them (a 2D image has no slice pitch). */
static void engine_pitches(const struct ocl_image *im, size_t *row, size_t *slice)
{
    cl_mem_object_type t = im->desc.image_type;

    *row = im->row;
    *slice = t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                     t == CL_MEM_OBJECT_IMAGE3D
                 ? im->slice
                 : 0;
}

cl_int ocl_cpu_image_make(const struct ocl_pocl *p, cl_context pctx, cl_mem m, cl_mem pbuf,
                          void *stage, cl_mem *out)
{
    const struct ocl_image *im = m->img;
    cl_mem_flags access = m->flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY);
    cl_image_desc d = im->desc;
    cl_int rc;

    d.buffer = pbuf;
    if (pbuf) { /* a 1D image buffer: its memory is the (migrated) buffer's */
        d.image_row_pitch = d.image_slice_pitch = 0;
        *out = p->d->clCreateImage(pctx, access, &im->fmt, &d, NULL, &rc);
    } else {
        engine_pitches(im, &d.image_row_pitch, &d.image_slice_pitch);
        *out = p->d->clCreateImage(pctx, access | CL_MEM_COPY_HOST_PTR, &im->fmt, &d, stage, &rc);
    }
    return rc;
}

cl_int ocl_cpu_image_read(const struct ocl_pocl *p, cl_command_queue q, cl_mem m, cl_mem pimg,
                          void *stage)
{
    const struct ocl_image *im = m->img;
    const size_t origin[3] = {0, 0, 0};
    size_t region[3] = {im->dims[0], im->dims[1], im->dims[2]}, row, slice;

    if (im->desc.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY) /* OpenCL's layer is y */
        region[1] = im->dims[2], region[2] = 1;
    engine_pitches(im, &row, &slice);
    return p->d->clEnqueueReadImage(q, pimg, CL_TRUE, origin, region, row, slice, stage, 0, NULL,
                                    NULL);
}

cl_sampler ocl_cpu_sampler_make(const struct ocl_pocl *p, cl_context pctx, uint32_t bits,
                                cl_int *rc)
{
    cl_bool norm = (bits & ISA_CLK_NORMALIZED) ? CL_TRUE : CL_FALSE;
    cl_addressing_mode am = CL_ADDRESS_NONE + (bits & ISA_CLK_ADDR_MASK) / 2;
    cl_filter_mode fm = (bits & ISA_CLK_FILTER_LINEAR) ? CL_FILTER_LINEAR : CL_FILTER_NEAREST;

    return p->d->clCreateSampler(pctx, norm, am, fm, rc);
}
