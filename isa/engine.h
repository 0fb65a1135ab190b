/*
 * The functional engine: loads a decoded module onto a device (module
 * variables get deterministic device addresses), launches kernels and runs
 * every thread from PTX. One warp instruction at a time is the unit of
 * execution (see isa/warp.h for the stepping interface the timing model
 * uses); isa_launch_run() runs a whole grid functionally.
 *
 * Faults (out-of-bounds, misaligned or null accesses, barrier deadlock, a
 * runaway kernel, trap and device assertions) stop the launch and come back
 * as PS_EFAULT / PS_EDEADLOCK / PS_ERUNAWAY / PS_ETRAP in struct ps_err with
 * the kernel, PTX line, CTA and thread; the device stays usable.
 */
#ifndef PTXSIM_ISA_ENGINE_H
#define PTXSIM_ISA_ENGINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct ps_err;
struct isa_module;
struct isa_devmem;
struct isa_device;
struct isa_program;

/* Launch limits CUDA documents for compute capability 3.0 and later. */
#define ISA_MAX_GRID_X UINT32_C(2147483647)
#define ISA_MAX_GRID_YZ UINT32_C(65535)
#define ISA_MAX_LOCAL_PER_THREAD UINT32_C(524288) /* 512 KiB of local memory per thread */
/*
 * The default watchdog: warp instructions per launch before a kernel is
 * stopped as runaway (10^10: about half a second of a GTX 480 issuing
 * from every scheduler, many minutes of simulation), so an
 * endless kernel never hangs a run. --budget / PTXSIM_BUDGET change it; 0 = none.
 */
#define ISA_DEFAULT_BUDGET UINT64_C(10000000000)
#define ISA_BUDGET_HINT " (the per-launch budget: change it with --budget N or PTXSIM_BUDGET=N, 0 for none)"

struct isa_device_config {
    uint64_t insn_budget;      /* warp instructions per launch before a runaway fault; 0 = none */
    uint32_t local_per_thread; /* bytes of local memory (stack) per thread */
    uint32_t shared_per_cta;   /* largest static + dynamic shared memory of a CTA */
    uint32_t max_threads_per_cta;
    uint32_t nsm;              /* reported by %nsmid; CTAs map to %smid round-robin */
    uint64_t heap_bytes;       /* device malloc heap */
    bool memcheck;             /* exact per-allocation checks of every access (isa/devmem.h) */
    FILE *printf_out;          /* where device printf goes (default stdout) */
    /* Non-NULL: a running launch stops (PS_ERUNAWAY) soon after *stop becomes non-zero (the
     * runtimes point it at the flag their SIGINT/SIGTERM handler sets). */
    const volatile int *stop;
};

/* Defaults: budget ISA_DEFAULT_BUDGET, 64 KiB stack, 48 KiB shared, 1024 threads, 15 SMs, 8 MiB heap. */
void isa_device_config_default(struct isa_device_config *cfg);

struct isa_device *isa_device_create(const struct isa_device_config *cfg);
/*
 * Asks the running launch to stop (safe from any thread, e.g. an exit
 * handler while another thread runs a kernel): it returns PS_EABANDONED
 * within one scheduling slice. Sticky: later launches stop at once too.
 */
void isa_device_abandon(struct isa_device *d);
bool isa_device_abandoned(const struct isa_device *d);
void isa_device_destroy(struct isa_device *d);
struct isa_devmem *isa_device_mem(struct isa_device *d);
const struct isa_device_config *isa_device_config(const struct isa_device *d);
/*
 * Sets the device malloc heap's size (a budget: its blocks come from device memory as
 * kernels ask). PS_ENOTSUP once a kernel has called malloc, as CUDA fixes it then.
 */
int isa_device_set_heap(struct isa_device *d, uint64_t bytes);

/*
 * Loads m onto d: allocates and initialises its .global and .const
 * variables and analyses every function. Takes ownership of m (freed by
 * isa_program_unload, or here on failure).
 */
int isa_program_load(struct isa_device *d, struct isa_module *m, struct isa_program **out,
                     struct ps_err *err);
/* Frees the program and its variables' device memory; accepts NULL. */
void isa_program_unload(struct isa_program *p);
const struct isa_module *isa_program_module(const struct isa_program *p);

/* Kernel (.entry) index by name, or UINT32_MAX. */
uint32_t isa_program_find_kernel(const struct isa_program *p, const char *name);
/* Device address and size of a module .global/.const variable; PS_ENOTFOUND if absent. */
int isa_program_var(const struct isa_program *p, const char *name, uint64_t *addr, uint64_t *size);
/* Number of parameters of a kernel and the offset/size of parameter i in the parameter buffer. */
uint32_t isa_kernel_nparams(const struct isa_program *p, uint32_t kernel);
int isa_kernel_param(const struct isa_program *p, uint32_t kernel, uint32_t i, uint32_t *offset,
                     uint32_t *size);
/*
 * Estimated registers per thread of a kernel: its peak of live 32-bit register
 * words (isa/regpressure.h), computed once; at least 1.
 */
uint32_t isa_kernel_regs(struct isa_program *p, uint32_t kernel);
/* Static shared memory bytes of a kernel (excluding dynamic shared memory). */
uint32_t isa_kernel_static_shared(const struct isa_program *p, uint32_t kernel);

struct isa_launch_desc {
    uint32_t kernel;
    uint32_t grid[3];
    uint32_t block[3];
    uint32_t dyn_shared;
    /* Either args (one pointer per parameter, as cudaLaunchKernel takes them) ... */
    void *const *args;
    /* ... or a ready parameter buffer laid out as isa_kernel_param() says. */
    const void *param_buf;
    uint32_t param_bytes;
    /* Thread instructions this launch may execute before it stops with PS_ERUNAWAY (0 = no cap):
     * what is left of a run's -gpgpu_max_insn in functional mode. */
    uint64_t thread_cap;
};

struct isa_launch_stats {
    uint64_t warp_insts;
    uint64_t thread_insts;
    uint64_t ctas;
};

/* Runs a whole grid functionally. Returns 0 or a fault / error code with err filled. */
int isa_launch_run(struct isa_program *p, const struct isa_launch_desc *ld,
                   struct isa_launch_stats *stats, struct ps_err *err);

#endif
