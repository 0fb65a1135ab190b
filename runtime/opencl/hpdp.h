/*
 * HeteroPDP inside the OpenCL platform (docs/heteropdp.md): at every
 * clEnqueueNDRangeKernel, when PTXSIM_HETEROPDP selects a goal, the
 * launch's static and dynamic features and the co-runner telemetry feed the
 * trained models (policies/hpdp_model.h, loaded from PTXSIM_HETEROPDP_MODELS)
 * and the decision rule (policies/hpdp_policy.h), which picks the GPU or the
 * CPU device; with PTXSIM_HETEROPDP_LOG every launch's features, predicted
 * values, choice and measured time are logged (the training data of
 * `ptxsim heteropdp train`). Off (the default), the queue's own device runs
 * the kernel and nothing is computed.
 */
#ifndef PTXSIM_RUNTIME_OPENCL_HPDP_H
#define PTXSIM_RUNTIME_OPENCL_HPDP_H

#include "policies/hpdp_policy.h"
#include "runtime/hpdp_features.h"
#include "runtime/opencl/ocl.h"

/* One launch's features and predictions (filled by ocl_hpdp_target). */
struct ocl_hpdp_launch {
    bool active;   /* HeteroPDP or its log is on: the fields below are filled */
    bool have_cpu; /* CPU-taxonomy counts exist (an OpenCL C source program) */
    double gpu[RT_HPDP_G_N], cpu[RT_HPDP_C_N];
    struct rt_hpdp_dyn dyn;
    struct rt_hpdp_sys sys;
    uint32_t nco;
    char co_cls[HPDP_MAX_CORUNNERS][16]; /* the co-runners' classes (telemetry, pid order) */
    double sd_co[2][HPDP_MAX_CORUNNERS]; /* their predicted slowdowns per device (fair goal) */
    bool predicted;
    double ta[2], tc[2], fair[2]; /* indexed by enum hpdp_dev; seconds */
};

/* The device that runs this launch (under the context's lock); fills *hl. */
cl_device_id ocl_hpdp_target(cl_command_queue q, cl_kernel k, cl_uint dim, const size_t *global,
                             struct ocl_hpdp_launch *hl);
/* Logs the launch with its measured kernel time (ns; the GPU's simulated, the CPU's from PoCL). */
void ocl_hpdp_done(cl_kernel k, const struct ocl_hpdp_launch *hl, cl_device_id ran,
                   double kernel_ns, cl_int rc);
/*
 * Counts bytes a buffer's creation copied from host memory (CL_MEM_COPY_HOST_PTR,
 * CL_MEM_USE_HOST_PTR): part of the next launch's transfer bytes, beside the
 * read/write/copy/fill commands' bytes.
 */
void ocl_hpdp_host_copy(uint64_t bytes);
/* Drops a program's cached feature counts (rebuild, release). */
void ocl_hpdp_program_free(cl_program p);

#endif
