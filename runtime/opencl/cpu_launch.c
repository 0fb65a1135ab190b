/*
 * A kernel launch on the CPU device (cpu.h): arguments are set on a PoCL
 * kernel of the program's PoCL build; every buffer the arguments name
 * migrates (once, even when several arguments name it) from the context's
 * engine memory into a PoCL buffer, and back after the kernel, so the engine
 * memory stays the one home of the data for every other command. The kernel's time is PoCL's
 * profiling END - START.
 */
#include <stdlib.h>
#include <string.h>

#include "isa/types.h"
#include "runtime/opencl/cpu.h"
#include "runtime/opencl/cpu_pocl.h"

struct migration {
    cl_mem key;  /* the ptxsim buffer or sub-buffer migrated */
    cl_mem pbuf; /* PoCL's copy */
    void *stage; /* host staging, key->size bytes */
};

struct cpu_launch {
    const struct ocl_pocl *p;
    struct ocl_cpu_ctx *cc;
    cl_context c;
    cl_kernel k;
    struct migration mig[PTXSIM_MAX_PARAMS];
    uint32_t nmig;
    cl_mem subs[PTXSIM_MAX_PARAMS]; /* PoCL sub-buffers to release */
    uint32_t nsubs;
};

/* The PoCL buffer holding m's bytes (copied in on first use in this launch). */
static cl_int migrate_in(struct cpu_launch *l, cl_mem m, cl_mem *out)
{
    struct migration *g;
    cl_int rc;

    for (uint32_t i = 0; i < l->nmig; i++)
        if (l->mig[i].key == m) {
            *out = l->mig[i].pbuf;
            return CL_SUCCESS;
        }
    g = &l->mig[l->nmig];
    if (!(g->stage = malloc(m->size ? m->size : 1)))
        return CL_OUT_OF_HOST_MEMORY;
    if (ptxsim_memcpy_dtoh(l->c->dev, g->stage, m->addr, m->size)) {
        free(g->stage);
        return CL_OUT_OF_RESOURCES;
    }
    g->pbuf = l->p->d->clCreateBuffer(l->cc->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, m->size,
                                      g->stage, &rc);
    if (rc != CL_SUCCESS) {
        free(g->stage);
        return rc;
    }
    g->key = m;
    l->nmig++;
    ocl_cpu_migrated(m->size);
    *out = g->pbuf;
    return CL_SUCCESS;
}

/* Whether another buffer argument of the launch shares memory with m (a different object). */
static bool aliased(const struct cpu_launch *l, cl_mem m)
{
    for (uint32_t i = 0; i < l->k->info.nparams; i++) {
        cl_mem o = l->k->args[i].mem;
        if (o && o != m && !l->k->args[i].local && ocl_valid(o, OCL_MAGIC_MEM) &&
            ocl_mem_overlap(m, 0, m->size, o, 0, o->size))
            return true;
    }
    return false;
}

/*
 * A buffer argument: its own bytes migrate, unless another argument shares
 * memory with it; then the whole parent buffer migrates once and a
 * sub-buffer argument becomes a PoCL sub-buffer of it, so that writes
 * through either are seen by both.
 */
static cl_int set_buffer_arg(struct cpu_launch *l, cl_kernel ck, cl_uint i, cl_mem m)
{
    cl_mem root, pbuf = NULL;
    cl_int rc;

    if (!m)
        return l->p->d->clSetKernelArg(ck, i, sizeof(cl_mem), &pbuf);
    if (!ocl_valid(m, OCL_MAGIC_MEM))
        return CL_INVALID_MEM_OBJECT;
    root = m->parent && aliased(l, m) ? m->parent : m;
    rc = migrate_in(l, root, &pbuf);
    if (rc == CL_SUCCESS && root != m) {
        cl_buffer_region r = {m->origin, m->size};
        pbuf = l->p->d->clCreateSubBuffer(pbuf, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r,
                                          &rc);
        if (rc == CL_SUCCESS)
            l->subs[l->nsubs++] = pbuf;
        else
            ocl_notify(l->c,
                       "not supported on the CPU device: argument %u is a sub-buffer at "
                       "offset %zu that overlaps another argument, and PoCL cannot make "
                       "that sub-buffer (error %d)",
                       i, m->origin, rc);
    }
    return rc ? rc : l->p->d->clSetKernelArg(ck, i, sizeof(cl_mem), &pbuf);
}

static cl_int set_args(struct cpu_launch *l, cl_kernel k, cl_kernel ck)
{
    cl_int rc = CL_SUCCESS;

    for (uint32_t i = 0; rc == CL_SUCCESS && i < k->info.nparams; i++) {
        const struct ocl_arg *a = &k->args[i];
        uint8_t space = k->info.param_ptr_space[i];

        if (!a->set) {
            rc = CL_INVALID_KERNEL_ARGS;
        } else if (a->image) {
            ocl_notify(l->c, "images and samplers are not supported on the CPU device "
                             "(argument %u of kernel '%s')", i, k->info.name);
            rc = CL_INVALID_OPERATION;
        } else if (a->local) {
            rc = l->p->d->clSetKernelArg(ck, i, a->local_size, NULL);
        } else if (space == ISA_SPACE_GLOBAL || space == ISA_SPACE_CONST) {
            rc = set_buffer_arg(l, ck, i, a->mem);
        } else {
            rc = l->p->d->clSetKernelArg(ck, i, k->info.param_size[i], a->value);
        }
    }
    return rc;
}

/* Copies every migrated buffer back into engine memory (when ok) and frees the PoCL side. */
static cl_int migrate_out(struct cpu_launch *l, bool ok)
{
    cl_int rc = CL_SUCCESS;

    for (uint32_t i = 0; i < l->nsubs; i++)
        l->p->d->clReleaseMemObject(l->subs[i]);
    for (uint32_t i = 0; i < l->nmig; i++) {
        struct migration *m = &l->mig[i];
        if (ok && rc == CL_SUCCESS) {
            rc = l->p->d->clEnqueueReadBuffer(l->cc->q, m->pbuf, CL_TRUE, 0, m->key->size, m->stage,
                                              0, NULL, NULL);
            if (rc == CL_SUCCESS &&
                ptxsim_memcpy_htod(l->c->dev, m->key->addr, m->stage, m->key->size))
                rc = CL_OUT_OF_RESOURCES;
            ocl_cpu_migrated(m->key->size);
        }
        l->p->d->clReleaseMemObject(m->pbuf);
        free(m->stage);
    }
    return rc;
}

static cl_int run(struct cpu_launch *l, cl_kernel ck, cl_uint dim, const size_t *offset,
                  const size_t *global, const size_t *local, double *t_ns)
{
    cl_event ev = NULL;
    cl_ulong t0 = 0, t1 = 0;
    cl_int rc =
        l->p->d->clEnqueueNDRangeKernel(l->cc->q, ck, dim, offset, global, local, 0, NULL, &ev);

    if (rc == CL_SUCCESS)
        rc = l->p->d->clWaitForEvents(1, &ev);
    if (rc == CL_SUCCESS)
        rc =
            l->p->d->clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof(t0), &t0, NULL);
    if (rc == CL_SUCCESS)
        rc = l->p->d->clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof(t1), &t1, NULL);
    if (ev)
        l->p->d->clReleaseEvent(ev);
    *t_ns = t1 > t0 ? (double)(t1 - t0) : 0.0;
    return rc;
}

cl_int ocl_cpu_launch(cl_kernel k, cl_uint dim, const size_t *offset, const size_t *global,
                      const size_t *local, double *t_ns)
{
    struct cpu_launch l = {.p = ocl_pocl(), .c = k->prog->ctx, .k = k};
    cl_program cp = NULL;
    cl_kernel ck = NULL;
    cl_int rc, out;

    *t_ns = 0;
    if (!l.p)
        return CL_DEVICE_NOT_AVAILABLE;
    rc = ocl_cpu_context(l.c, &l.cc);
    if (rc == CL_SUCCESS)
        rc = ocl_cpu_program(k->prog, l.cc, &cp);
    if (rc == CL_SUCCESS)
        ck = l.p->d->clCreateKernel(cp, k->info.name, &rc);
    if (rc == CL_SUCCESS)
        rc = set_args(&l, k, ck);
    if (rc == CL_SUCCESS)
        rc = run(&l, ck, dim, offset, global, local, t_ns);
    if (rc != CL_SUCCESS && rc != CL_INVALID_PROGRAM_EXECUTABLE)
        ocl_notify(l.c, "kernel %s failed on the CPU device (PoCL error %d)", k->info.name, rc);
    out = migrate_out(&l, rc == CL_SUCCESS);
    if (ck)
        l.p->d->clReleaseKernel(ck);
    return rc != CL_SUCCESS ? rc : out;
}

cl_int ocl_cpu_enqueue(cl_kernel k, cl_uint dim, const size_t *offset, const size_t *global,
                       const size_t *local, cl_ulong t_host, double *s0, double *s1)
{
    cl_context c = k->prog->ctx;
    double t = 0;
    cl_int rc = ocl_cpu_launch(k, dim, offset, global, local, &t);

    *s0 = ocl_env()->timing ? c->sim_ns : (double)t_host;
    *s1 = *s0 + t;
    if (ocl_env()->timing)
        c->sim_ns += t;
    return rc;
}
