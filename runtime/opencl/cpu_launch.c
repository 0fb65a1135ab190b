/*
 * A kernel launch on the CPU device (cpu.h): arguments are set on a PoCL
 * kernel of the program's PoCL build; every buffer and image the arguments
 * name migrates (once, even when several arguments name it) from the
 * context's engine memory into a PoCL buffer or image (cpu_image.c), and
 * back after the kernel, so the engine memory stays the one home of the data
 * for every other command. A sampler argument becomes a PoCL sampler with
 * the same properties. The kernel's time is PoCL's profiling END - START.
 */
#include <stdlib.h>
#include <string.h>

#include "isa/types.h"
#include "runtime/opencl/cpu.h"
#include "runtime/opencl/cpu_pocl.h"

struct migration {
    cl_mem key;  /* the ptxsim buffer, sub-buffer or image migrated */
    cl_mem pbuf; /* PoCL's copy (a PoCL image for an image) */
    void *stage; /* host staging, key->size bytes */
};

struct cpu_launch {
    const struct ocl_pocl *p;
    struct ocl_cpu_ctx *cc;
    cl_context c;
    cl_kernel k;
    struct migration mig[PTXSIM_MAX_PARAMS];
    uint32_t nmig;
    cl_mem subs[PTXSIM_MAX_PARAMS]; /* PoCL sub-buffers and 1D buffer images to release */
    uint32_t nsubs;
    cl_sampler smps[PTXSIM_MAX_PARAMS]; /* PoCL samplers to release */
    uint32_t nsmps;
};

/* The PoCL buffer or image holding m's bytes (copied in on first use in this launch). */
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
    if (m->img)
        rc = ocl_cpu_image_make(l->p, l->cc->ctx, m, NULL, g->stage, &g->pbuf);
    else
        g->pbuf = l->p->d->clCreateBuffer(l->cc->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                          m->size, g->stage, &rc);
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

/* Why PoCL cannot take image m (argument i): its limits or formats are narrower than ptxsim's. */
static void image_refused(struct cpu_launch *l, cl_uint i, cl_mem m, cl_int rc)
{
    const struct ocl_image *im = m->img;

    ocl_notify(l->c,
               "not supported on the CPU device: image argument %u of kernel '%s' (type 0x%x, "
               "%zu x %zu x %zu, channel order 0x%x, type 0x%x) is beyond PoCL's image limits "
               "or formats, which are narrower than the GPU device's (error %d)",
               i, l->k->info.name, (unsigned)im->desc.image_type, im->dims[0], im->dims[1],
               im->dims[2], (unsigned)im->fmt.image_channel_order,
               (unsigned)im->fmt.image_channel_data_type, rc);
}

/* Whether image m fits PoCL's image limits (a context with the GPU takes larger images). */
static bool within_cpu_limits(cl_mem m)
{
    size_t lim[3];

    ocl_cpu_image_limits(m->img->desc.image_type, lim);
    for (int d = 0; d < 3; d++)
        if (m->img->dims[d] > lim[d])
            return false;
    return true;
}

/*
 * An image argument: its bytes migrate into a PoCL image, or for a 1D image buffer its
 * buffer migrates and the PoCL image is made on PoCL's copy. A sampler argument (no memory
 * object; its value is the sampler_t bits) becomes a PoCL sampler.
 */
static cl_int set_image_arg(struct cpu_launch *l, cl_kernel ck, cl_uint i, const struct ocl_arg *a)
{
    cl_mem m = a->mem, pimg = NULL, pbuf = NULL;
    cl_sampler ps;
    uint64_t bits;
    cl_int rc;

    if (!m) {
        memcpy(&bits, a->value, sizeof(bits));
        ps = ocl_cpu_sampler_make(l->p, l->cc->ctx, (uint32_t)bits, &rc);
        if (rc != CL_SUCCESS) {
            ocl_notify(l->c,
                       "not supported on the CPU device: PoCL cannot make sampler argument "
                       "%u (sampler_t 0x%x, error %d)",
                       i, (unsigned)bits, rc);
            return rc;
        }
        l->smps[l->nsmps++] = ps;
        return l->p->d->clSetKernelArg(ck, i, sizeof(ps), &ps);
    }
    if (!ocl_valid(m, OCL_MAGIC_MEM))
        return CL_INVALID_MEM_OBJECT;
    if (!within_cpu_limits(m)) { /* PoCL would fail only at the launch, without saying why */
        image_refused(l, i, m, CL_INVALID_IMAGE_SIZE);
        return CL_INVALID_IMAGE_SIZE;
    }
    if (m->parent) { /* a 1D image buffer */
        rc = migrate_in(l, m->parent, &pbuf);
        if (rc == CL_SUCCESS) {
            rc = ocl_cpu_image_make(l->p, l->cc->ctx, m, pbuf, NULL, &pimg);
            if (rc == CL_SUCCESS)
                l->subs[l->nsubs++] = pimg;
        }
    } else {
        rc = migrate_in(l, m, &pimg);
    }
    if (rc == CL_IMAGE_FORMAT_NOT_SUPPORTED || rc == CL_INVALID_IMAGE_SIZE ||
        rc == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR || rc == CL_INVALID_IMAGE_DESCRIPTOR)
        image_refused(l, i, m, rc);
    return rc ? rc : l->p->d->clSetKernelArg(ck, i, sizeof(pimg), &pimg);
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
            rc = set_image_arg(l, ck, i, a);
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

/* Copies every migrated buffer and image back into engine memory (when ok) and frees the PoCL side.
 */
static cl_int migrate_out(struct cpu_launch *l, bool ok)
{
    cl_int rc = CL_SUCCESS;

    for (uint32_t i = 0; i < l->nsmps; i++)
        l->p->d->clReleaseSampler(l->smps[i]);
    for (uint32_t i = 0; i < l->nsubs; i++)
        l->p->d->clReleaseMemObject(l->subs[i]);
    for (uint32_t i = 0; i < l->nmig; i++) {
        struct migration *m = &l->mig[i];
        if (ok && rc == CL_SUCCESS) {
            rc = m->key->img ? ocl_cpu_image_read(l->p, l->cc->q, m->key, m->pbuf, m->stage)
                             : l->p->d->clEnqueueReadBuffer(l->cc->q, m->pbuf, CL_TRUE, 0,
                                                            m->key->size, m->stage, 0, NULL, NULL);
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
