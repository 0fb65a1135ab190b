/*
 * Kernels, their arguments and NDRange launches. Arguments are marshalled
 * from the PTX parameter list (ptxsim_kernel_info): `.ptr .global/.const`
 * parameters take a cl_mem (its device address is passed), `.ptr .shared`
 * parameters are __local arguments set by size only, everything else is
 * copied by value. __local arguments are laid out after the kernel's static
 * shared memory, 16-byte aligned, and their total is the launch's dynamic
 * shared memory.
 */
#include <stdlib.h>
#include <string.h>

#include "frontend/clc.h"
#include "isa/types.h"
#include "runtime/opencl/cpu.h"
#include "runtime/opencl/ocl.h"

#define ALIGN16(x) (((x) + 15u) & ~(size_t)15u)

static cl_kernel kernel_new(cl_program p, const char *name, cl_int *rc)
{
    cl_kernel k = calloc(1, sizeof(*k));

    if (!k) {
        *rc = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    pthread_mutex_lock(&p->ctx->lock);
    *rc = ptxsim_kernel_info(p->mod, name, &k->info) ? CL_INVALID_KERNEL_NAME : CL_SUCCESS;
    pthread_mutex_unlock(&p->ctx->lock);
    if (*rc == CL_SUCCESS && k->info.nparams &&
        !(k->args = calloc(k->info.nparams, sizeof(*k->args))))
        *rc = CL_OUT_OF_HOST_MEMORY;
    if (*rc != CL_SUCCESS) {
        free(k);
        return NULL;
    }
    k->dispatch = &ocl_dispatch;
    k->magic = OCL_MAGIC_KERNEL;
    ocl_registry_add(k);
    k->refs = 1;
    k->prog = p;
    clRetainProgram(p);
    __atomic_add_fetch(&p->kernels, 1, __ATOMIC_SEQ_CST);
    return k;
}

CL_API_ENTRY cl_kernel CL_API_CALL clCreateKernel(cl_program p, const char *name, cl_int *errcode)
{
    cl_kernel k = NULL;
    cl_int rc = CL_SUCCESS;

    if (!ocl_valid(p, OCL_MAGIC_PROGRAM))
        rc = CL_INVALID_PROGRAM;
    else if (!p->mod)
        rc = CL_INVALID_PROGRAM_EXECUTABLE;
    else if (!name)
        rc = CL_INVALID_VALUE;
    else
        k = kernel_new(p, name, &rc);
    if (errcode)
        *errcode = rc;
    return k;
}

CL_API_ENTRY cl_int CL_API_CALL clCreateKernelsInProgram(cl_program p, cl_uint n,
                                                         cl_kernel *kernels, cl_uint *num)
{
    uint32_t count;
    cl_int rc = CL_SUCCESS;

    if (!ocl_valid(p, OCL_MAGIC_PROGRAM))
        return CL_INVALID_PROGRAM;
    if (!p->mod)
        return CL_INVALID_PROGRAM_EXECUTABLE;
    count = ptxsim_module_kernel_count(p->mod);
    if (kernels && n < count)
        return CL_INVALID_VALUE;
    for (uint32_t i = 0; kernels && i < count && rc == CL_SUCCESS; i++) {
        kernels[i] = kernel_new(p, ptxsim_module_kernel_name(p->mod, i), &rc);
        for (uint32_t j = 0; rc != CL_SUCCESS && j < i; j++)
            clReleaseKernel(kernels[j]);
    }
    if (rc == CL_SUCCESS && num)
        *num = count;
    return rc;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainKernel(cl_kernel k)
{
    if (!ocl_valid(k, OCL_MAGIC_KERNEL))
        return CL_INVALID_KERNEL;
    __atomic_add_fetch(&k->refs, 1, __ATOMIC_SEQ_CST);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseKernel(cl_kernel k)
{
    if (!ocl_valid(k, OCL_MAGIC_KERNEL))
        return CL_INVALID_KERNEL;
    if (__atomic_sub_fetch(&k->refs, 1, __ATOMIC_SEQ_CST))
        return CL_SUCCESS;
    __atomic_sub_fetch(&k->prog->kernels, 1, __ATOMIC_SEQ_CST);
    clReleaseProgram(k->prog);
    free(k->args);
    ocl_retire(k);
    return CL_SUCCESS;
}

/*
 * A pointer argument: a buffer (its address), an image (its engine texture-object handle) or
 * a sampler (its sampler_t bits); see isa/climage.h.
 */
static cl_int set_mem_arg(cl_kernel k, struct ocl_arg *a, size_t size, const void *value)
{
    cl_mem m = value ? *(const cl_mem *)value : NULL;
    cl_sampler s = value ? *(const cl_sampler *)value : NULL;
    uint64_t addr = 0;

    if (size != sizeof(cl_mem))
        return CL_INVALID_ARG_SIZE;
    if (s && ocl_valid(s, OCL_MAGIC_SAMPLER)) {
        if (s->ctx != k->prog->ctx)
            return CL_INVALID_SAMPLER;
        addr = s->bits;
        m = NULL;
    } else if (m && (!ocl_valid(m, OCL_MAGIC_MEM) || m->ctx != k->prog->ctx)) {
        return CL_INVALID_MEM_OBJECT;
    } else if (m) {
        addr = m->img ? m->img->tex : m->addr;
    }
    memcpy(a->value, &addr, sizeof(addr));
    a->mem = m;
    a->image = (m && m->img) || (s && !m && addr);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArg(cl_kernel k, cl_uint i, size_t size,
                                               const void *value)
{
    struct ocl_arg *a;
    uint8_t space;
    cl_int rc = CL_SUCCESS;

    if (!ocl_valid(k, OCL_MAGIC_KERNEL))
        return CL_INVALID_KERNEL;
    if (i >= k->info.nparams)
        return CL_INVALID_ARG_INDEX;
    a = &k->args[i];
    space = k->info.param_ptr_space[i];
    if (space == ISA_SPACE_SHARED) {
        if (value)
            return CL_INVALID_ARG_VALUE;
        if (!size)
            return CL_INVALID_ARG_SIZE;
        a->local = true;
        a->local_size = size;
    } else if (space == ISA_SPACE_GLOBAL || space == ISA_SPACE_CONST) {
        rc = set_mem_arg(k, a, size, value);
    } else {
        if (size != k->info.param_size[i] || size > sizeof(a->value))
            return CL_INVALID_ARG_SIZE;
        if (!value)
            return CL_INVALID_ARG_VALUE;
        memcpy(a->value, value, size);
    }
    if (rc == CL_SUCCESS)
        a->set = true;
    return rc;
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelInfo(cl_kernel k, cl_kernel_info name, size_t size,
                                                void *value, size_t *size_ret)
{
    cl_uint u;

    if (!ocl_valid(k, OCL_MAGIC_KERNEL))
        return CL_INVALID_KERNEL;
    switch (name) {
    case CL_KERNEL_FUNCTION_NAME:
        return ocl_info_str(k->info.name, size, value, size_ret);
    case CL_KERNEL_NUM_ARGS:
        u = k->info.nparams;
        return ocl_info(&u, sizeof(u), size, value, size_ret);
    case CL_KERNEL_REFERENCE_COUNT:
        u = k->refs;
        return ocl_info(&u, sizeof(u), size, value, size_ret);
    case CL_KERNEL_CONTEXT:
        return ocl_info(&k->prog->ctx, sizeof(cl_context), size, value, size_ret);
    case CL_KERNEL_PROGRAM:
        return ocl_info(&k->prog, sizeof(cl_program), size, value, size_ret);
    case CL_KERNEL_ATTRIBUTES:
        return ocl_info_str("", size, value, size_ret);
    default:
        return CL_INVALID_VALUE;
    }
}

/* clang's address space numbers (OpenCL's: 0 private, 1 global, 2 constant, 3 local). */
static cl_kernel_arg_address_qualifier arg_address(unsigned as)
{
    switch (as) {
    case 1:
        return CL_KERNEL_ARG_ADDRESS_GLOBAL;
    case 2:
        return CL_KERNEL_ARG_ADDRESS_CONSTANT;
    case 3:
        return CL_KERNEL_ARG_ADDRESS_LOCAL;
    default:
        return CL_KERNEL_ARG_ADDRESS_PRIVATE;
    }
}

static cl_kernel_arg_access_qualifier arg_access(const char *q)
{
    if (!strcmp(q, "read_only"))
        return CL_KERNEL_ARG_ACCESS_READ_ONLY;
    if (!strcmp(q, "write_only"))
        return CL_KERNEL_ARG_ACCESS_WRITE_ONLY;
    if (!strcmp(q, "read_write"))
        return CL_KERNEL_ARG_ACCESS_READ_WRITE;
    return CL_KERNEL_ARG_ACCESS_NONE;
}

/* The blank-separated words of clang's kernel_arg_type_qual as a bit field. */
static cl_kernel_arg_type_qualifier arg_type_qual(const char *q)
{
    cl_kernel_arg_type_qualifier t = CL_KERNEL_ARG_TYPE_NONE;

    if (strstr(q, "const"))
        t |= CL_KERNEL_ARG_TYPE_CONST;
    if (strstr(q, "restrict"))
        t |= CL_KERNEL_ARG_TYPE_RESTRICT;
    if (strstr(q, "volatile"))
        t |= CL_KERNEL_ARG_TYPE_VOLATILE;
    return t;
}

/*
 * OpenCL 1.2 (5.7.3): available for programs built from source with
 * -cl-kernel-arg-info (and executables linked from such objects), from the
 * metadata clang wrote (frontend/clc.h).
 */
CL_API_ENTRY cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel k, cl_uint i, cl_kernel_arg_info name,
                                                   size_t size, void *value, size_t *size_ret)
{
    const struct clc_kernel_args *ka;
    const struct clc_arg_info *a;
    cl_uint u;
    cl_bitfield b;

    if (!ocl_valid(k, OCL_MAGIC_KERNEL))
        return CL_INVALID_KERNEL;
    if (i >= k->info.nparams)
        return CL_INVALID_ARG_INDEX;
    if (name < CL_KERNEL_ARG_ADDRESS_QUALIFIER || name > CL_KERNEL_ARG_NAME)
        return CL_INVALID_VALUE;
    ka = clc_arg_table_find(k->prog->args, k->info.name);
    if (!ka || ka->nargs != k->info.nparams)
        return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
    a = &ka->args[i];
    switch (name) {
    case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
        u = arg_address(a->addr_space);
        return ocl_info(&u, sizeof(u), size, value, size_ret);
    case CL_KERNEL_ARG_ACCESS_QUALIFIER:
        u = arg_access(a->access);
        return ocl_info(&u, sizeof(u), size, value, size_ret);
    case CL_KERNEL_ARG_TYPE_NAME:
        return ocl_info_str(a->type, size, value, size_ret);
    case CL_KERNEL_ARG_TYPE_QUALIFIER:
        b = arg_type_qual(a->type_qual);
        return ocl_info(&b, sizeof(b), size, value, size_ret);
    default:
        return ocl_info_str(a->name, size, value, size_ret);
    }
}

/* Bytes of shared memory: static plus the __local arguments set so far. */
static size_t local_bytes(cl_kernel k)
{
    size_t total = ALIGN16(k->info.static_shared);

    for (uint32_t i = 0; i < k->info.nparams; i++)
        if (k->args[i].local)
            total = ALIGN16(total + k->args[i].local_size);
    return total;
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel k, cl_device_id d,
                                                         cl_kernel_work_group_info name,
                                                         size_t size, void *value,
                                                         size_t *size_ret)
{
    size_t wg = ocl_env()->max_wg, req[3];
    cl_ulong u;

    if (!ocl_valid(k, OCL_MAGIC_KERNEL))
        return CL_INVALID_KERNEL;
    if (d && !ocl_device_ok(d))
        return CL_INVALID_DEVICE;
    switch (name) {
    case CL_KERNEL_WORK_GROUP_SIZE:
        if (k->info.maxntid[0]) {
            size_t n = (size_t)k->info.maxntid[0] * (k->info.maxntid[1] ? k->info.maxntid[1] : 1) *
                       (k->info.maxntid[2] ? k->info.maxntid[2] : 1);

            wg = n < wg ? n : wg;
        }
        return ocl_info(&wg, sizeof(wg), size, value, size_ret);
    case CL_KERNEL_COMPILE_WORK_GROUP_SIZE:
        for (int j = 0; j < 3; j++)
            req[j] = k->info.reqntid[j];
        return ocl_info(req, sizeof(req), size, value, size_ret);
    case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
        wg = 32;
        return ocl_info(&wg, sizeof(wg), size, value, size_ret);
    case CL_KERNEL_LOCAL_MEM_SIZE:
        u = local_bytes(k);
        return ocl_info(&u, sizeof(u), size, value, size_ret);
    case CL_KERNEL_PRIVATE_MEM_SIZE:
        u = k->info.local_bytes;
        return ocl_info(&u, sizeof(u), size, value, size_ret);
    default:
        return CL_INVALID_VALUE;
    }
}
