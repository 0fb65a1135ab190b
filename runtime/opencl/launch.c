/*
 * clEnqueueNDRangeKernel and clEnqueueTask: checks the range the way the
 * OpenCL 1.2 spec orders its errors, picks a work-group size when none is
 * given, writes the global offset into the program's offset variable (see
 * clc.h) and runs the kernel on the engine before returning. Each launch is
 * accounted for PTXSIM_STATS and, in timing mode, advances the context's
 * simulated clock by its cycles at the core clock; its event's START and END
 * are that clock before and after.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "common/err.h"
#include "frontend/clc.h"
#include "runtime/opencl/cpu.h"
#include "runtime/opencl/hpdp.h"
#include "runtime/opencl/ocl.h"
#include "runtime/stop.h"

#define OCL_MAX_WG 1024u /* largest work-group size of any configuration (grid size check) */
#define OCL_MAX_GRID_X 2147483647u
#define OCL_MAX_GRID_YZ 65535u
#define ALIGN16(x) (((x) + 15u) & ~(size_t)15u)

struct ndrange {
    cl_uint dim;
    size_t global[3], local[3], offset[3];
};

/* Largest divisor of n that is at most cap. */
static size_t divisor_at_most(size_t n, size_t cap)
{
    for (size_t d = cap < n ? cap : n; d > 1; d--)
        if (n % d == 0)
            return d;
    return 1;
}

static cl_int check_local(struct ndrange *r, const size_t *local)
{
    const size_t wg = ocl_env()->max_wg;
    const size_t max_item[3] = {wg, wg, wg < 64 ? wg : 64};
    size_t budget = wg < 256 ? wg : 256, prod = 1;

    for (cl_uint d = 0; d < 3; d++) {
        if (d >= r->dim) {
            r->local[d] = 1;
        } else if (!local) {
            r->local[d] = divisor_at_most(r->global[d], budget < max_item[d] ? budget : max_item[d]);
            budget /= r->local[d];
        } else if (local[d] == 0 || local[d] > max_item[d]) {
            return CL_INVALID_WORK_ITEM_SIZE;
        } else {
            r->local[d] = local[d];
        }
        prod *= r->local[d];
    }
    if (prod > wg)
        return CL_INVALID_WORK_GROUP_SIZE;
    for (cl_uint d = 0; d < r->dim; d++)
        if (r->global[d] % r->local[d])
            return CL_INVALID_WORK_GROUP_SIZE;
    /* The work-groups form the hardware grid: at most 2^31-1 x 65535 x 65535 (as CUDA's). */
    for (cl_uint d = 0; d < 3; d++)
        if (r->global[d] / r->local[d] > (d ? OCL_MAX_GRID_YZ : OCL_MAX_GRID_X))
            return CL_INVALID_GLOBAL_WORK_SIZE;
    return CL_SUCCESS;
}

static cl_int check_range(struct ndrange *r, cl_uint dim, const size_t *offset,
                          const size_t *global, const size_t *local)
{
    if (dim < 1 || dim > 3)
        return CL_INVALID_WORK_DIMENSION;
    if (!global)
        return CL_INVALID_GLOBAL_WORK_SIZE;
    r->dim = dim;
    for (cl_uint d = 0; d < 3; d++) {
        r->global[d] = d < dim ? global[d] : 1;
        r->offset[d] = d < dim && offset ? offset[d] : 0;
        if (!r->global[d] || r->global[d] / OCL_MAX_WG > UINT32_MAX)
            return CL_INVALID_GLOBAL_WORK_SIZE;
        if (r->global[d] + r->offset[d] < r->global[d])
            return CL_INVALID_GLOBAL_OFFSET;
    }
    return check_local(r, local);
}

/* Argument pointers for ptxsim_launch; __local values become shared offsets. */
static cl_int marshal(cl_kernel k, void **argv, uint64_t *locals, uint32_t *dyn)
{
    size_t base = ALIGN16(k->info.static_shared), at = base;

    if (base > ocl_env()->local_bytes)
        return CL_OUT_OF_RESOURCES; /* the kernel's own __local data does not fit */

    for (uint32_t i = 0; i < k->info.nparams; i++) {
        struct ocl_arg *a = &k->args[i];

        if (!a->set)
            return CL_INVALID_KERNEL_ARGS;
        argv[i] = a->value;
        if (a->local && (at > ocl_env()->local_bytes || a->local_size > ocl_env()->local_bytes - at))
            return CL_OUT_OF_RESOURCES; /* checked before adding: SIZE_MAX must not wrap */
        if (a->local) {
            locals[i] = at;
            argv[i] = &locals[i];
            at = ALIGN16(at + a->local_size);
        }
    }
    if (at > ocl_env()->local_bytes)
        return CL_OUT_OF_RESOURCES;
    *dyn = (uint32_t)(at - base);
    return CL_SUCCESS;
}

/* Stores the offsets in the module's offset variable (only absent when all are 0). */
static cl_int set_offsets(cl_kernel k, const struct ndrange *r)
{
    uint64_t addr, off[3] = {r->offset[0], r->offset[1], r->offset[2]};
    size_t size;
    cl_context c = k->prog->ctx;

    if (ptxsim_module_symbol(k->prog->mod, CLC_GLOBAL_OFFSET_SYM, &addr, &size) ||
        size < sizeof(off))
        return off[0] | off[1] | off[2] ? CL_INVALID_GLOBAL_OFFSET : CL_SUCCESS;
    return ptxsim_memcpy_htod(c->dev, addr, off, sizeof(off)) ? CL_OUT_OF_RESOURCES : CL_SUCCESS;
}

static double seconds(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Runs the kernel (under the context's lock); t0, t1: the simulated clock before and after. */
static cl_int run(cl_kernel k, const struct ndrange *r, void **argv, uint32_t dyn, double *t0,
                  double *t1)
{
    struct ptxsim_dim3 grid = {(uint32_t)(r->global[0] / r->local[0]),
                               (uint32_t)(r->global[1] / r->local[1]),
                               (uint32_t)(r->global[2] / r->local[2])};
    struct ptxsim_dim3 block = {(uint32_t)r->local[0], (uint32_t)r->local[1],
                                (uint32_t)r->local[2]};
    cl_context c = k->prog->ctx;
    const struct ps_err *e;
    uint64_t warp0 = ptxsim_warp_insts(c->dev), thread0 = ptxsim_thread_insts(c->dev);
    cl_int rc = set_offsets(k, r);
    double wall;
    uint64_t outside;
    int code;

    *t0 = *t1 = c->sim_ns;
    if (rc)
        return rc;
    wall = seconds();
    ptxsim_stop_before_launch();
    outside = ptxsim_outside_accesses(c->dev);
    ocl_stats_running(1);
    code = ptxsim_launch(k->prog->mod, k->info.name, grid, block, dyn, argv);
    ocl_stats_running(-1);
    ocl_stats_outside(ptxsim_outside_accesses(c->dev) - outside);
    wall = seconds() - wall;
    if (code == 0) {
        c->sim_ns += ocl_stats_kernel(c, k->info.name, &grid, &block, warp0, thread0, wall);
        *t1 = c->sim_ns;
        return CL_SUCCESS;
    }
    e = ptxsim_last_error_info(c->dev);
    ocl_notify(c, "kernel %s failed: %s", k->info.name, e ? e->msg : "unknown error");
    if (code == PS_ERUNAWAY && e)
        ocl_stats_truncated(e->msg);
    ptxsim_clear_fault(c->dev);
    return CL_OUT_OF_RESOURCES;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k,
                                                       cl_uint dim, const size_t *offset,
                                                       const size_t *global, const size_t *local,
                                                       cl_uint nw, const cl_event *wl,
                                                       cl_event *event)
{
    void *argv[PTXSIM_MAX_PARAMS];
    uint64_t locals[PTXSIM_MAX_PARAMS];
    cl_ulong t = ocl_now_ns();
    struct ndrange r;
    uint32_t dyn = 0;
    double s0, s1;
    cl_int rc, erc;
    cl_device_id dev;
    struct ocl_hpdp_launch hl;

    if (!ocl_valid(q, OCL_MAGIC_QUEUE))
        return CL_INVALID_COMMAND_QUEUE;
    if (!ocl_valid(k, OCL_MAGIC_KERNEL))
        return CL_INVALID_KERNEL;
    if (k->prog->ctx != q->ctx)
        return CL_INVALID_CONTEXT;
    rc = check_range(&r, dim, offset, global, local);
    if (!rc)
        rc = marshal(k, argv, locals, &dyn);
    if (!rc)
        rc = ocl_check_wait_list(nw, wl);
    if (rc)
        return rc;
    pthread_mutex_lock(&q->ctx->lock);
    dev = ocl_hpdp_target(q, k, r.dim, r.global, &hl); /* q->dev unless HeteroPDP is on */
    if (dev != ocl_device())
        rc = ocl_cpu_enqueue(k, r.dim, r.offset, r.global, r.local, t, &s0, &s1);
    else
        rc = run(k, &r, argv, dyn, &s0, &s1);
    ocl_hpdp_done(k, &hl, dev, s1 - s0, rc);
    pthread_mutex_unlock(&q->ctx->lock);
    ptxsim_stop_after_launch(); /* a signal during the kernel: statistics, then the signal */
    if (rc == CL_INVALID_GLOBAL_OFFSET)
        return rc;
    /* Timing mode: QUEUED = SUBMIT = START, the simulated clock when the kernel began. */
    if (ocl_env()->timing || dev != ocl_device())
        erc = ocl_event_at(q, CL_COMMAND_NDRANGE_KERNEL, (cl_ulong)llround(s0),
                           (cl_ulong)llround(s1), rc ? rc : CL_COMPLETE, event);
    else
        erc = ocl_event_done(q, CL_COMMAND_NDRANGE_KERNEL, t, rc ? rc : CL_COMPLETE, event);
    return rc ? rc : erc;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueTask(cl_command_queue q, cl_kernel k, cl_uint nw,
                                              const cl_event *wl, cl_event *event)
{
    static const size_t one[1] = {1};

    return clEnqueueNDRangeKernel(q, k, 1, NULL, one, one, nw, wl, event);
}
