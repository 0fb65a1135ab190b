/*
 * HeteroPDP inside the OpenCL platform (docs/heteropdp.md): at every
 * clEnqueueNDRangeKernel, when PTXSIM_HETEROPDP selects a goal, the
 * launch's static and dynamic features and the co-runner telemetry feed the
 * trained models (policies/hpdp_model.h) and the decision rule
 * (policies/hpdp_policy.h), which picks the GPU or the CPU device; every
 * predicted value is logged to PTXSIM_HETEROPDP_LOG. Off (the default), the
 * queue's own device runs the kernel.
 */
#ifndef PTXSIM_RUNTIME_OPENCL_HPDP_H
#define PTXSIM_RUNTIME_OPENCL_HPDP_H

#include "runtime/opencl/ocl.h"

/* The device that runs this launch (under the context's lock). */
cl_device_id ocl_hpdp_target(cl_command_queue q, cl_kernel k, cl_uint dim, const size_t *global,
                             const size_t *local);

#endif
