/*
 * The timing model's public face: a clocked GPU built from a configuration
 * that runs kernel launches cycle by cycle (functional results identical to
 * the functional launcher) and reports statistics per kernel and in total.
 */
#ifndef PTXSIM_TIMING_GPU_H
#define PTXSIM_TIMING_GPU_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/config.h"
#include "common/err.h"
#include "isa/engine.h"
#include "timing/stats.h"

struct tm_gpu;

/* cfg is copied; dev is the functional device the kernels run on. */
int tm_gpu_create(const struct ps_config *cfg, struct isa_device *dev, struct tm_gpu **out,
                  struct ps_err *err);
void tm_gpu_destroy(struct tm_gpu *g);

/*
 * Builds the machine of cfg once and tears it down, running nothing and
 * writing no file: policy names and arguments, cache, DRAM and address-map
 * strings are checked as tm_gpu_create checks them, and the output files the
 * configuration names (-ptxsim_l1d_trace, _warp_profile, _policy_trace) must
 * be writable. For checking a configuration before a program starts.
 */
int tm_gpu_check(const struct ps_config *cfg, struct ps_err *err);

/* Runs one launch in the timing model. Returns 0 or an error / device fault code. */
int tm_gpu_launch(struct tm_gpu *g, struct isa_program *p, const struct isa_launch_desc *ld,
                  struct ps_err *err);

/*
 * Concurrent kernels (timing/kernels.c): a submitted launch shares the GPU
 * with the kernels in flight, up to -gpgpu_max_concurrent_kernel of them
 * (tm_gpu_free_slots says whether one more fits; submitting to a full GPU is
 * an error). tm_gpu_wait advances the clocks until k is done, or with k NULL
 * until some kernel in flight is (or none is left); it returns k's result. A
 * fault or a watchdog stop ends every kernel in flight. tm_gpu_launch is
 * submit and wait. A done kernel keeps its result and statistics until
 * tm_kernel_free; free only done kernels.
 */
struct tm_kernel;
int tm_gpu_submit(struct tm_gpu *g, struct isa_program *p, const struct isa_launch_desc *ld,
                  struct tm_kernel **out, struct ps_err *err);
uint32_t tm_gpu_free_slots(const struct tm_gpu *g);
uint32_t tm_gpu_in_flight(const struct tm_gpu *g);
int tm_gpu_wait(struct tm_gpu *g, struct tm_kernel *k);
bool tm_kernel_done(const struct tm_kernel *k);
int tm_kernel_result(const struct tm_kernel *k, struct ps_err *err);
const struct tm_stats *tm_kernel_stats(const struct tm_kernel *k);
void tm_kernel_free(struct tm_kernel *k);

/*
 * A host copy to or from [addr, addr + bytes) of device memory: with
 * -gpgpu_perf_sim_memcpy (GPGPU-Sim's default on the GTX 480) its sectors
 * become present in the L2, as GPGPU-Sim's copies update the L2 tags. No
 * simulated time passes.
 */
void tm_gpu_host_copy(struct tm_gpu *g, uint64_t addr, uint64_t bytes);

/* Statistics of the last launch and of every launch so far. */
const struct tm_stats *tm_gpu_last(const struct tm_gpu *g);
const struct tm_stats *tm_gpu_total(const struct tm_gpu *g);
/* Simulated time so far in nanoseconds (core cycles at the core clock). */
double tm_gpu_time_ns(const struct tm_gpu *g);
const struct ps_config *tm_gpu_config(const struct tm_gpu *g);

#endif
