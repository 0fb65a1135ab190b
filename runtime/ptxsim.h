/*
 * ptxsim's small public C API: a simulated device, PTX modules loaded onto
 * it, device memory, and kernel launches. The CUDA and OpenCL runtimes wrap
 * it; `ptxsim exec` and the tests use it directly.
 *
 * Error model: every call returns 0 (PTXSIM_OK) or a negative code and
 * records the code and a message on the device (ptxsim_last_error). A device
 * fault during a launch (out-of-bounds or misaligned access, barrier
 * deadlock, runaway kernel, trap) is also kept as the device's sticky fault,
 * returned by ptxsim_synchronize, until ptxsim_clear_fault; the device and
 * its memory stay usable. Launches complete before ptxsim_launch returns.
 */
#ifndef PTXSIM_RUNTIME_PTXSIM_H
#define PTXSIM_RUNTIME_PTXSIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/config.h"
#include "common/err.h"
#include "timing/stats.h"

#define PTXSIM_OK 0

struct ptxsim_device;
struct ptxsim_module;
struct isa_texobj;

struct ptxsim_options {
    uint64_t insn_budget;      /* warp instructions per launch; 0 = unlimited */
    uint32_t local_per_thread; /* stack bytes per thread for recursive kernels */
    uint32_t shared_per_cta;   /* bytes */
    uint32_t max_threads_per_cta;
    uint32_t nsm;
    uint64_t heap_bytes; /* device malloc heap */
    int memcheck;        /* nonzero: every access outside an allocation faults */
    FILE *printf_out;    /* device printf output (default stdout) */
    /* Thread instructions over the device's life before launches stop with PS_ERUNAWAY (0 = no
     * cap); in functional mode (the timing model applies -gpgpu_max_insn itself). */
    uint64_t max_thread_insts;
    /* Non-NULL: a running launch stops (PS_ERUNAWAY) soon after *stop becomes non-zero. */
    const volatile int *stop;
    /* Non-NULL: launches run in the timing model with this configuration (copied). */
    const struct ps_config *timing;
    struct ps_err *timing_err; /* where a configuration error is reported (may be NULL) */
};

struct ptxsim_dim3 {
    uint32_t x, y, z;
};

/* Fills o with the defaults (those of the GTX 480 configuration). */
void ptxsim_options_default(struct ptxsim_options *o);

int ptxsim_device_create(const struct ptxsim_options *o, struct ptxsim_device **out);
void ptxsim_device_destroy(struct ptxsim_device *d);

/*
 * Parses PTX text (len bytes, stopping early at a NUL; len 0 means the text is
 * NUL-terminated) and loads it; name is used in messages.
 */
int ptxsim_module_load(struct ptxsim_device *d, const char *text, size_t len, const char *name,
                       struct ptxsim_module **out);
int ptxsim_module_load_file(struct ptxsim_device *d, const char *path, struct ptxsim_module **out);
void ptxsim_module_unload(struct ptxsim_module *m);
/* Device address and size of a module's .global or .const variable. */
int ptxsim_module_symbol(struct ptxsim_module *m, const char *name, uint64_t *addr, size_t *size);

#define PTXSIM_MAX_PARAMS 128

/* What a kernel declares, for argument marshalling and occupancy. */
struct ptxsim_kernel_info {
    const char *name;
    uint32_t nparams;
    uint32_t param_offset[PTXSIM_MAX_PARAMS]; /* byte offset in the parameter buffer */
    uint32_t param_size[PTXSIM_MAX_PARAMS];
    uint8_t
        param_ptr_space[PTXSIM_MAX_PARAMS]; /* .ptr .global/.shared/...: enum isa_space, 0 = none;
                                              .texref/.samplerref/.surfref: global */
    uint32_t static_shared; /* bytes; dynamic shared memory starts at the 16-aligned end */
    uint32_t regs;          /* declared 32-bit register words (kernel and callees) */
    uint64_t local_bytes;   /* .local bytes per thread (kernel and callees) */
    uint64_t const_bytes;
    uint32_t reqntid[3], maxntid[3]; /* 0 when not given */
};

/*
 * Records the registers per thread ptxas gave kernel `name` in a cubin for
 * sm_<sm>; the timing model then sizes the kernel's CTAs with it instead of
 * its PTX liveness estimate. PS_ENOTFOUND when m has no such kernel.
 */
int ptxsim_module_set_kernel_regs(struct ptxsim_module *m, const char *name, uint32_t regs,
                                  uint32_t sm);

/* Number of kernels in m, and the name of kernel i. */
uint32_t ptxsim_module_kernel_count(const struct ptxsim_module *m);
const char *ptxsim_module_kernel_name(const struct ptxsim_module *m, uint32_t i);
/* Fills *info for kernel `name`; PS_ENOTFOUND if there is none, PS_ENOTSUP past 128 parameters. */
int ptxsim_kernel_info(struct ptxsim_module *m, const char *name, struct ptxsim_kernel_info *info);

int ptxsim_malloc(struct ptxsim_device *d, size_t size, uint64_t *addr);
/* Sets the device malloc heap's size; PS_ENOTSUP once a kernel has called malloc. */
int ptxsim_set_heap(struct ptxsim_device *d, uint64_t bytes);
int ptxsim_free(struct ptxsim_device *d, uint64_t addr);
/*
 * Makes host memory visible to the device at the same address (managed and
 * mapped host memory): kernels may dereference the host pointer. The memory
 * stays the caller's; unmap it with ptxsim_free before releasing it.
 */
int ptxsim_map_host(struct ptxsim_device *d, void *host, size_t size);
/*
 * Texture and surface objects (isa/texture.h): registers t, whose resource the caller placed
 * in device memory; *handle is what kernels receive. Destroy returns PS_EINVAL for a handle
 * that names no live object; get returns NULL then.
 */
int ptxsim_texobj_create(struct ptxsim_device *d, const struct isa_texobj *t, uint64_t *handle);
int ptxsim_texobj_destroy(struct ptxsim_device *d, uint64_t handle);
const struct isa_texobj *ptxsim_texobj_get(const struct ptxsim_device *d, uint64_t handle,
                                           bool surface);
/* The same for memory the device may only read (cudaHostRegisterReadOnly): stores fault. */
int ptxsim_map_host_readonly(struct ptxsim_device *d, void *host, size_t size);
/* Kind of the allocation containing addr: 0 none, else enum isa_alloc_kind + 1. */
int ptxsim_pointer_kind(struct ptxsim_device *d, uint64_t addr, uint64_t *base, size_t *size);

int ptxsim_memcpy_htod(struct ptxsim_device *d, uint64_t dst, const void *src, size_t n);
int ptxsim_memcpy_dtoh(struct ptxsim_device *d, void *dst, uint64_t src, size_t n);
/*
 * The same copies leaving the timing model's caches as they are: the L2 is
 * not warmed (-gpgpu_perf_sim_memcpy). For symbol copies (cudaMemcpyToSymbol,
 * cudaMemcpyFromSymbol), which GPGPU-Sim performs on its functional memory
 * alone; only its cudaMemcpy fills the L2.
 */
int ptxsim_memcpy_htod_cold(struct ptxsim_device *d, uint64_t dst, const void *src, size_t n);
int ptxsim_memcpy_dtoh_cold(struct ptxsim_device *d, void *dst, uint64_t src, size_t n);
int ptxsim_memcpy_dtod(struct ptxsim_device *d, uint64_t dst, uint64_t src, size_t n);
int ptxsim_memset(struct ptxsim_device *d, uint64_t dst, int value, size_t n);

/*
 * Runs kernel `name` of m. args holds one pointer per kernel parameter
 * (as cudaLaunchKernel takes them). Returns 0, an API error (PS_EINVAL,
 * PS_ENOTFOUND) or a device fault code.
 */
int ptxsim_launch(struct ptxsim_module *m, const char *name, struct ptxsim_dim3 grid,
                  struct ptxsim_dim3 block, uint32_t dyn_shared, void *const *args);

/*
 * Concurrent kernels (timing mode; functional launches stay one at a time).
 * ptxsim_kernel_slots is -gpgpu_max_concurrent_kernel in timing mode, 0 in
 * functional mode. ptxsim_pack_params copies a launch's arguments (one
 * pointer per parameter) into a new parameter buffer (free it with free()),
 * so that a launch can start after the caller's arguments are gone.
 * ptxsim_launch_start puts a launch on the GPU next to the kernels in flight
 * (a slot must be free: ptxsim_kernels_in_flight < slots) and returns at once.
 * ptxsim_run_wait advances simulated time until r is done (r NULL: until
 * some kernel in flight is, or none is left). ptxsim_run_done says whether r
 * finished; ptxsim_run_finish takes a done r's result (0 or a fault code,
 * with the device's last error and sticky fault set as ptxsim_launch sets
 * them) and statistics, and frees r. A fault ends every kernel in flight.
 */
struct ptxsim_run;
unsigned ptxsim_kernel_slots(const struct ptxsim_device *d);
unsigned ptxsim_kernels_in_flight(const struct ptxsim_device *d);
int ptxsim_pack_params(struct ptxsim_module *m, const char *name, void *const *args, void **buf,
                       uint32_t *bytes);
int ptxsim_launch_start(struct ptxsim_module *m, const char *name, struct ptxsim_dim3 grid,
                        struct ptxsim_dim3 block, uint32_t dyn_shared, const void *params,
                        uint32_t param_bytes, struct ptxsim_run **out);
void ptxsim_run_wait(struct ptxsim_device *d, struct ptxsim_run *r);
bool ptxsim_run_done(const struct ptxsim_run *r);
int ptxsim_run_finish(struct ptxsim_device *d, struct ptxsim_run *r, struct tm_stats *stats);
/* Simulated time of the timing model in nanoseconds (0 in functional mode). */
double ptxsim_timing_time_ns(const struct ptxsim_device *d);

/*
 * Abandons the running launch (callable from any thread, without the lock
 * the launching thread holds): ptxsim_launch returns PS_EABANDONED soon, and
 * every later launch at once. For exit handlers.
 */
void ptxsim_abandon(struct ptxsim_device *d);

/* Device accesses so far that fell outside every allocation in a mapped page (0 under memcheck). */
uint64_t ptxsim_outside_accesses(const struct ptxsim_device *d);

/* Returns the sticky fault of the device (0 if none). */
int ptxsim_synchronize(struct ptxsim_device *d);
void ptxsim_clear_fault(struct ptxsim_device *d);

/* Last error code and message (with file:line for parse errors and faults). */
int ptxsim_last_error(const struct ptxsim_device *d);
const struct ps_err *ptxsim_last_error_info(const struct ptxsim_device *d);
/* Totals since the device was created. */
uint64_t ptxsim_warp_insts(const struct ptxsim_device *d);
uint64_t ptxsim_thread_insts(const struct ptxsim_device *d);

/*
 * Timing mode: statistics of the last launch and of all launches, and the
 * effective configuration; NULL for a functional device.
 */
const struct tm_stats *ptxsim_timing_last(const struct ptxsim_device *d);
const struct tm_stats *ptxsim_timing_total(const struct ptxsim_device *d);
const struct ps_config *ptxsim_timing_config(const struct ptxsim_device *d);

/*
 * Builds a configuration: defaults, then the machine `config` (an existing
 * file, or a name looked up in $PTXSIM_CONFIG_DIR, the installed configs and
 * the source tree's configs/), then the "name=value" overrides in `overrides`
 * (one per line; may be NULL). The result is checked as the timing model
 * checks it when it starts (tm_gpu_check: policy names and arguments, cache,
 * DRAM and address-map strings, output files). On error err says which step
 * failed, with the file:line:col of the option's line in the config file or
 * "-o name=value" as its file when an override set it.
 */
int ptxsim_config_build(const char *config, const char *overrides, struct ps_config *out,
                        struct ps_err *err);
/* Path of a machine description by name or path (into buf); PS_ENOTFOUND if none. */
int ptxsim_config_find(const char *config, char *buf, size_t len, struct ps_err *err);
/* The machine used when none is named: "gpgpusim.config" when the working directory has
 * one (GPGPU-Sim's convention), else "gtx480". */
const char *ptxsim_config_default(void);
/* One warning line per GPGPU-Sim switch that is on although ptxsim does not model it
 * (power model, visualiser, tracing, PTXPlus, ...). */
void ptxsim_config_warn(const struct ps_config *c, const char *who, FILE *out);
/* Writes "who: file:line:col: error: message" (the parts that are known) to out. */
void ptxsim_config_perror(const char *who, const struct ps_err *err, FILE *out);

#endif
