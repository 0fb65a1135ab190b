/*
 * Private to the CPU device's files (cpu_device.c, cpu_launch.c): PoCL as
 * loaded, and the PoCL context and queue behind a ptxsim context.
 */
#ifndef PTXSIM_RUNTIME_OPENCL_CPU_POCL_H
#define PTXSIM_RUNTIME_OPENCL_CPU_POCL_H

#include "runtime/opencl/ocl.h"

struct ocl_pocl {
    void *lib;                /* dlopen handle */
    cl_platform_id plat;      /* PoCL's platform */
    cl_device_id dev;         /* its CPU device */
    const cl_icd_dispatch *d; /* its dispatch table (every PoCL object starts with it) */
};

struct ocl_cpu_ctx {
    cl_context ctx;     /* PoCL's */
    cl_command_queue q; /* in order, profiling enabled */
};

/* PoCL, or NULL when it cannot be loaded. */
const struct ocl_pocl *ocl_pocl(void);
/* c's PoCL context and queue, made on first use (under c's lock). */
cl_int ocl_cpu_context(cl_context c, struct ocl_cpu_ctx **out);
/* p built by PoCL from its source, once (under the context's lock). */
cl_int ocl_cpu_program(cl_program p, struct ocl_cpu_ctx *cc, cl_program *out);
/*
 * An image argument's PoCL image (cpu_image.c) in PoCL context pctx: same format and
 * description, made from stage (the image's engine bytes, m->size), or for a 1D image
 * buffer on pbuf, the PoCL copy of its buffer. PoCL's error code.
 */
cl_int ocl_cpu_image_make(const struct ocl_pocl *p, cl_context pctx, cl_mem m, cl_mem pbuf,
                          void *stage, cl_mem *out);
/* Reads PoCL image pimg (made for m) back into stage in m's engine layout. */
cl_int ocl_cpu_image_read(const struct ocl_pocl *p, cl_command_queue q, cl_mem m, cl_mem pimg,
                          void *stage);
/* A PoCL sampler with the properties of sampler_t bits (isa/climage.h). */
cl_sampler ocl_cpu_sampler_make(const struct ocl_pocl *p, cl_context pctx, uint32_t bits,
                                cl_int *rc);
/* Accounts migration bytes. */
void ocl_cpu_migrated(uint64_t bytes);

#endif
