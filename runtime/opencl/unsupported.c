/*
 * Entry points ptxsim's platform does not implement. Native kernels and
 * memory destructor callbacks fail with CL_INVALID_OPERATION after saying
 * which call was refused (through the context's callback, or on stderr);
 * nothing pretends.
 */
#include "runtime/opencl/ocl.h"

static cl_context queue_ctx(cl_command_queue q)
{
    return ocl_valid(q, OCL_MAGIC_QUEUE) ? q->ctx : NULL;
}

static cl_int refuse(cl_context c, const char *what)
{
    ocl_notify(c, "%s is not supported by ptxsim (no native kernel or destructor callback support)", what);
    return CL_INVALID_OPERATION;
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
