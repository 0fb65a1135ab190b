/*
 * The platform's second device: the host CPU, running kernels for real
 * through PoCL's CPU device (docs/heteropdp.md, "The CPU device").
 *
 * PoCL is loaded on first need (PTXSIM_POCL_LIB, default libpocl.so.2) and
 * reached through its ICD dispatch table; ptxsim's own objects (context,
 * buffers, programs, kernels, events) stay the program's handles. Buffers
 * live in the context's engine memory: a launch on the CPU device copies
 * each buffer its arguments name into a PoCL buffer, runs the kernel, and
 * copies them back (the bytes are accounted as migration traffic).
 * PTXSIM_OCL_CPU=0 hides the device.
 */
#ifndef PTXSIM_RUNTIME_OPENCL_CPU_H
#define PTXSIM_RUNTIME_OPENCL_CPU_H

#include "runtime/opencl/ocl.h"

/* The CPU device, or NULL when PoCL cannot be loaded (or PTXSIM_OCL_CPU=0). */
cl_device_id ocl_cpu_device(void);
/* Whether d is one of the platform's devices (the GPU, or the CPU when available). */
bool ocl_device_ok(cl_device_id d);
/* clGetDeviceInfo for the CPU device: PoCL's answers, with this platform as CL_DEVICE_PLATFORM. */
cl_int ocl_cpu_device_info(cl_device_info name, size_t size, void *value, size_t *size_ret);

/* Images on the CPU device (cpu_image.c): whether PoCL supports them, its largest image of
 * type t (width, height, depth-or-layers; 0s without image support), and whether it
 * supports format f for images of type t with access flags (CL_MEM_READ_WRITE ...). */
bool ocl_cpu_images(void);
void ocl_cpu_image_limits(cl_mem_object_type t, size_t lim[3]);
bool ocl_cpu_image_format_ok(cl_mem_flags access, cl_mem_object_type t, const cl_image_format *f);

/* Drops a context's or a program's PoCL objects (their release, a program's rebuild). */
void ocl_cpu_context_free(cl_context c);
void ocl_cpu_program_free(cl_program p);

/* Migration bytes moved for the CPU device so far (to PoCL and back), for the statistics. */
uint64_t ocl_cpu_migrated_bytes(void);

/*
 * Runs k on the CPU device (checked range: offset, global and local have dim
 * entries). *t_ns receives the kernel's measured duration
 * (CL_PROFILING_COMMAND_END - START from PoCL). Called under the context's
 * lock. CL_INVALID_PROGRAM_EXECUTABLE when the program has no OpenCL C
 * source (PTX, SPIR and SPIR-V programs run on the GPU only), with a message.
 */
cl_int ocl_cpu_launch(cl_kernel k, cl_uint dim, const size_t *offset, const size_t *global,
                      const size_t *local, double *t_ns);
/*
 * clEnqueueNDRangeKernel's CPU branch: ocl_cpu_launch, and the event's
 * START/END in *s0 and *s1: in timing mode the context's simulated clock, which
 * then advances by the measured time (one in-order timeline for both
 * devices); in functional mode host ns from t_host.
 */
cl_int ocl_cpu_enqueue(cl_kernel k, cl_uint dim, const size_t *offset, const size_t *global,
                       const size_t *local, cl_ulong t_host, double *s0, double *s1);

#endif
