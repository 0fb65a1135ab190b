/*
 * Samplers (OpenCL 1.2 section 5.5). A sampler is immutable, so a kernel
 * argument of type sampler_t receives its sampler_t bits (the values of
 * clang's opencl-c-base.h, which in-kernel constant samplers use too; see
 * isa/climage.h): the engine needs no sampler table.
 */
#include <stdlib.h>

#include "isa/climage.h"
#include "runtime/opencl/ocl.h"

/* The sampler_t bits of a valid combination, or 0 (CL_INVALID_VALUE). */
static uint32_t sampler_bits(cl_bool norm, cl_addressing_mode am, cl_filter_mode fm)
{
    uint32_t bits;

    if ((norm != CL_TRUE && norm != CL_FALSE) || am < CL_ADDRESS_NONE ||
        am > CL_ADDRESS_MIRRORED_REPEAT || (fm != CL_FILTER_NEAREST && fm != CL_FILTER_LINEAR))
        return 0;
    /* repeat and mirrored repeat are defined only with normalized coordinates (8.2) */
    if (!norm && (am == CL_ADDRESS_REPEAT || am == CL_ADDRESS_MIRRORED_REPEAT))
        return 0;
    bits = (norm ? ISA_CLK_NORMALIZED : 0) | (uint32_t)(am - CL_ADDRESS_NONE) * 2;
    return bits | (fm == CL_FILTER_LINEAR ? ISA_CLK_FILTER_LINEAR : ISA_CLK_FILTER_NEAREST);
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSampler(cl_context c, cl_bool norm,
                                                    cl_addressing_mode am, cl_filter_mode fm,
                                                    cl_int *errcode)
{
    uint32_t bits = sampler_bits(norm, am, fm);
    cl_sampler s = NULL;
    cl_int rc = CL_SUCCESS;

    if (!ocl_valid(c, OCL_MAGIC_CONTEXT))
        rc = CL_INVALID_CONTEXT;
    else if (!ocl_context_has_images(c))
        rc = CL_INVALID_OPERATION; /* no device of the context supports images */
    else if (!bits)
        rc = CL_INVALID_VALUE;
    else if (!(s = calloc(1, sizeof(*s))))
        rc = CL_OUT_OF_HOST_MEMORY;
    if (s) {
        *s = (struct _cl_sampler){.dispatch = &ocl_dispatch,
                                  .magic = OCL_MAGIC_SAMPLER,
                                  .refs = 1,
                                  .ctx = c,
                                  .norm = norm,
                                  .addr = am,
                                  .filter = fm,
                                  .bits = bits};
        ocl_registry_add(s);
        clRetainContext(c);
    }
    if (errcode)
        *errcode = rc;
    return s;
}

/* OpenCL 2.0's form, which ocl-icd dispatches: a 0-terminated list (cl_sampler_properties). */
cl_sampler CL_API_CALL ocl_create_sampler_with_properties(cl_context c, const cl_ulong *props,
                                                          cl_int *errcode)
{
    cl_bool norm = CL_TRUE;
    cl_addressing_mode am = CL_ADDRESS_CLAMP;
    cl_filter_mode fm = CL_FILTER_NEAREST;

    for (; props && props[0]; props += 2) {
        if (props[0] == CL_SAMPLER_NORMALIZED_COORDS) {
            norm = (cl_bool)props[1];
        } else if (props[0] == CL_SAMPLER_ADDRESSING_MODE) {
            am = (cl_addressing_mode)props[1];
        } else if (props[0] == CL_SAMPLER_FILTER_MODE) {
            fm = (cl_filter_mode)props[1];
        } else {
            if (ocl_valid(c, OCL_MAGIC_CONTEXT))
                ocl_notify(c, "sampler property 0x%llx is not supported (mipmapped samplers)",
                           (unsigned long long)props[0]);
            if (errcode)
                *errcode = ocl_valid(c, OCL_MAGIC_CONTEXT) ? CL_INVALID_VALUE : CL_INVALID_CONTEXT;
            return NULL;
        }
    }
    return clCreateSampler(c, norm, am, fm, errcode);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainSampler(cl_sampler s)
{
    if (!ocl_valid(s, OCL_MAGIC_SAMPLER))
        return CL_INVALID_SAMPLER;
    __atomic_add_fetch(&s->refs, 1, __ATOMIC_SEQ_CST);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseSampler(cl_sampler s)
{
    cl_context c;

    if (!ocl_valid(s, OCL_MAGIC_SAMPLER))
        return CL_INVALID_SAMPLER;
    if (__atomic_sub_fetch(&s->refs, 1, __ATOMIC_SEQ_CST))
        return CL_SUCCESS;
    c = s->ctx;
    ocl_retire(s);
    clReleaseContext(c);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetSamplerInfo(cl_sampler s, cl_sampler_info name, size_t size,
                                                 void *value, size_t *size_ret)
{
    cl_uint u;

    if (!ocl_valid(s, OCL_MAGIC_SAMPLER))
        return CL_INVALID_SAMPLER;
    switch (name) {
    case CL_SAMPLER_REFERENCE_COUNT:
        u = s->refs;
        return ocl_info(&u, sizeof(u), size, value, size_ret);
    case CL_SAMPLER_CONTEXT:
        return ocl_info(&s->ctx, sizeof(s->ctx), size, value, size_ret);
    case CL_SAMPLER_NORMALIZED_COORDS:
        return ocl_info(&s->norm, sizeof(s->norm), size, value, size_ret);
    case CL_SAMPLER_ADDRESSING_MODE:
        return ocl_info(&s->addr, sizeof(s->addr), size, value, size_ret);
    case CL_SAMPLER_FILTER_MODE:
        return ocl_info(&s->filter, sizeof(s->filter), size, value, size_ret);
    default:
        return CL_INVALID_VALUE;
    }
}
