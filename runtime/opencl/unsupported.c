/*
 * Entry points ptxsim's platform does not implement. Images and samplers
 * (CL_DEVICE_IMAGE_SUPPORT is false), native kernels and memory destructor
 * callbacks fail with CL_INVALID_OPERATION after saying which call
 * was refused (through the context's callback, or on stderr); nothing
 * pretends.
 */
#include "runtime/opencl/ocl.h"

static cl_context queue_ctx(cl_command_queue q)
{
    return ocl_valid(q, OCL_MAGIC_QUEUE) ? q->ctx : NULL;
}

static cl_int refuse(cl_context c, const char *what)
{
    ocl_notify(c, "%s is not supported by ptxsim (no image, sampler, native kernel or destructor callback support)", what);
    return CL_INVALID_OPERATION;
}

static void *refuse_obj(cl_context c, const char *what, cl_int *errcode)
{
    cl_int rc = ocl_valid(c, OCL_MAGIC_CONTEXT) ? refuse(c, what) : CL_INVALID_CONTEXT;

    if (errcode)
        *errcode = rc;
    return NULL;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage(cl_context c, cl_mem_flags f,
                                              const cl_image_format *fmt,
                                              const cl_image_desc *desc, void *host,
                                              cl_int *errcode)
{
    (void)f, (void)fmt, (void)desc, (void)host;
    return refuse_obj(c, "clCreateImage", errcode);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage2D(cl_context c, cl_mem_flags f,
                                                const cl_image_format *fmt, size_t w, size_t h,
                                                size_t pitch, void *host, cl_int *errcode)
{
    (void)f, (void)fmt, (void)w, (void)h, (void)pitch, (void)host;
    return refuse_obj(c, "clCreateImage2D", errcode);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage3D(cl_context c, cl_mem_flags f,
                                                const cl_image_format *fmt, size_t w, size_t h,
                                                size_t d, size_t rp, size_t sp, void *host,
                                                cl_int *errcode)
{
    (void)f, (void)fmt, (void)w, (void)h, (void)d, (void)rp, (void)sp, (void)host;
    return refuse_obj(c, "clCreateImage3D", errcode);
}

CL_API_ENTRY cl_int CL_API_CALL clGetSupportedImageFormats(cl_context c, cl_mem_flags f,
                                                           cl_mem_object_type t, cl_uint n,
                                                           cl_image_format *fmts, cl_uint *num)
{
    (void)f, (void)t, (void)n, (void)fmts;
    if (!ocl_valid(c, OCL_MAGIC_CONTEXT))
        return CL_INVALID_CONTEXT;
    if (num)
        *num = 0; /* no image support: an empty list, as the spec allows */
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetImageInfo(cl_mem m, cl_image_info name, size_t size,
                                               void *value, size_t *size_ret)
{
    (void)name, (void)size, (void)value, (void)size_ret;
    return ocl_valid(m, OCL_MAGIC_MEM) ? CL_INVALID_MEM_OBJECT : CL_INVALID_MEM_OBJECT;
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSampler(cl_context c, cl_bool norm,
                                                    cl_addressing_mode am, cl_filter_mode fm,
                                                    cl_int *errcode)
{
    (void)norm, (void)am, (void)fm;
    return refuse_obj(c, "clCreateSampler", errcode);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainSampler(cl_sampler s)
{
    (void)s;
    return CL_INVALID_SAMPLER;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseSampler(cl_sampler s)
{
    (void)s;
    return CL_INVALID_SAMPLER;
}

CL_API_ENTRY cl_int CL_API_CALL clGetSamplerInfo(cl_sampler s, cl_sampler_info name, size_t size,
                                                 void *value, size_t *size_ret)
{
    (void)s, (void)name, (void)size, (void)value, (void)size_ret;
    return CL_INVALID_SAMPLER;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue q, cl_mem m, cl_bool b,
                                                   const size_t *o, const size_t *r, size_t rp,
                                                   size_t sp, void *p, cl_uint nw,
                                                   const cl_event *wl, cl_event *e)
{
    (void)m, (void)b, (void)o, (void)r, (void)rp, (void)sp, (void)p, (void)nw, (void)wl, (void)e;
    return refuse(queue_ctx(q), "clEnqueueReadImage");
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue q, cl_mem m, cl_bool b,
                                                    const size_t *o, const size_t *r, size_t rp,
                                                    size_t sp, const void *p, cl_uint nw,
                                                    const cl_event *wl, cl_event *e)
{
    (void)m, (void)b, (void)o, (void)r, (void)rp, (void)sp, (void)p, (void)nw, (void)wl, (void)e;
    return refuse(queue_ctx(q), "clEnqueueWriteImage");
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue q, cl_mem s, cl_mem d,
                                                   const size_t *so, const size_t *dO,
                                                   const size_t *r, cl_uint nw,
                                                   const cl_event *wl, cl_event *e)
{
    (void)s, (void)d, (void)so, (void)dO, (void)r, (void)nw, (void)wl, (void)e;
    return refuse(queue_ctx(q), "clEnqueueCopyImage");
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue q, cl_mem s,
                                                           cl_mem d, const size_t *so,
                                                           const size_t *r, size_t dO,
                                                           cl_uint nw, const cl_event *wl,
                                                           cl_event *e)
{
    (void)s, (void)d, (void)so, (void)r, (void)dO, (void)nw, (void)wl, (void)e;
    return refuse(queue_ctx(q), "clEnqueueCopyImageToBuffer");
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue q, cl_mem s,
                                                           cl_mem d, size_t so,
                                                           const size_t *dO, const size_t *r,
                                                           cl_uint nw, const cl_event *wl,
                                                           cl_event *e)
{
    (void)s, (void)d, (void)so, (void)dO, (void)r, (void)nw, (void)wl, (void)e;
    return refuse(queue_ctx(q), "clEnqueueCopyBufferToImage");
}

CL_API_ENTRY void *CL_API_CALL clEnqueueMapImage(cl_command_queue q, cl_mem m, cl_bool b,
                                                 cl_map_flags f, const size_t *o,
                                                 const size_t *r, size_t *rp, size_t *sp,
                                                 cl_uint nw, const cl_event *wl, cl_event *e,
                                                 cl_int *errcode)
{
    cl_int rc = refuse(queue_ctx(q), "clEnqueueMapImage");

    (void)m, (void)b, (void)f, (void)o, (void)r, (void)rp, (void)sp, (void)nw, (void)wl, (void)e;
    if (errcode)
        *errcode = rc;
    return NULL;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue q, cl_mem m, const void *c,
                                                   const size_t *o, const size_t *r, cl_uint nw,
                                                   const cl_event *wl, cl_event *e)
{
    (void)m, (void)c, (void)o, (void)r, (void)nw, (void)wl, (void)e;
    return refuse(queue_ctx(q), "clEnqueueFillImage");
}

CL_API_ENTRY cl_int CL_API_CALL clSetMemObjectDestructorCallback(
    cl_mem m, void(CL_CALLBACK *fn)(cl_mem, void *), void *data)
{
    (void)fn, (void)data;
    return ocl_valid(m, OCL_MAGIC_MEM) ? refuse(m->ctx, "clSetMemObjectDestructorCallback")
                                       : CL_INVALID_MEM_OBJECT;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNativeKernel(cl_command_queue q,
                                                      void(CL_CALLBACK *fn)(void *), void *args,
                                                      size_t n, cl_uint nm, const cl_mem *ml,
                                                      const void **loc, cl_uint nw,
                                                      const cl_event *wl, cl_event *e)
{
    (void)fn, (void)args, (void)n, (void)nm, (void)ml, (void)loc, (void)nw, (void)wl, (void)e;
    return refuse(queue_ctx(q), "clEnqueueNativeKernel");
}
