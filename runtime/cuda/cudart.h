/*
 * Internals of ptxsim's libcudart.so.13, shared by the files of
 * runtime/cuda/. The CUDA runtime API is implicitly global, so the library
 * keeps one process-wide context (struct rt_ctx), created on first use and
 * guarded by one recursive mutex: every API call takes the lock, so calls
 * from several host threads are serialised, and internal helpers may call
 * each other freely. What CUDA keeps per host thread (the last error, the
 * <<<...>>> call configuration) lives in thread-local storage.
 *
 * Everything runs synchronously in issue order: a launch or copy has
 * finished when its call returns, which satisfies in-order streams and the
 * default stream's ordering. docs/cuda-runtime.md describes the behaviour
 * users see.
 */
#ifndef PTXSIM_RUNTIME_CUDA_CUDART_H
#define PTXSIM_RUNTIME_CUDA_CUDART_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#include "frontend/fatbin.h"
#include "runtime/ptxsim.h"
#include "runtime/stats_report.h"

/* Exported with the libcudart.so.13 version node (runtime/cuda/libcudart.map). */
#define RT_API __attribute__((visibility("default")))
/* A second exported name for an implemented function (the _ptsz / _ptds variants). */
#define RT_ALIAS(fn, name) extern __typeof__(fn) name __attribute__((alias(#fn), visibility("default")))

/*
 * The per-thread default stream's entry points that are functions of their
 * own (runtime/cuda/launch.c, stream.c; `--default-stream per-thread` builds
 * call them). cuda_runtime_api.h declares them only in such builds.
 */
RT_API cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                         size_t sharedMem, cudaStream_t stream);
RT_API cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func,
                                            void **args);
RT_API cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream);
RT_API cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream);
RT_API cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event,
                                            unsigned int flags);
RT_API cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn, void *userData);
RT_API cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t stream, cudaStreamCallback_t callback,
                                              void *userData, unsigned int flags);
RT_API cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream,
                                                 unsigned int flags);
RT_API cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream);

/* The machine libcudart reports (the GTX 480 configuration; docs/cuda-runtime.md). */
#define RT_NSM 15
#define RT_CORE_HZ 700000000.0          /* core clock of the functional-mode estimate */
#define RT_MEM_BYTES_PER_NS 177.4        /* 177.4 GB/s */
#define RT_TOTAL_MEM (UINT64_C(3) << 30)
#define RT_SHARED_PER_BLOCK 49152
#define RT_REGS_PER_SM 32768
#define RT_THREADS_PER_SM 1536
#define RT_BLOCKS_PER_SM 8
#define RT_MAX_REGS_PER_THREAD 63
#define RT_DEFAULT_SM 75 /* reported compute capability when no PTX is registered */

/* One __cudaRegisterFunction: a kernel of a registered fatbin. */
struct rt_kernel {
    struct rt_kernel *next;
    struct rt_fatbin *fb;
    const void *host_fun; /* the host stub's address */
    char *name;           /* mangled PTX entry name (owned) */
    bool attrs_done;
    cudaError_t attrs_err;
    struct cudaFuncAttributes attrs;
    int max_dyn_shared; /* cudaFuncAttributeMaxDynamicSharedMemorySize, -1 = default */
};

/* One __cudaRegisterVar / __cudaRegisterManagedVar. */
struct rt_var {
    struct rt_var *next;
    struct rt_fatbin *fb;
    const void *host; /* host shadow (what the program passes as `symbol`) */
    void **managed_ptr; /* managed: the program's pointer to the host copy */
    char *name;         /* PTX name (owned) */
    size_t size;
    bool managed;
    bool own_host; /* managed, found by name (rt_managed_var): the host copy is its own */
    uint64_t dev_addr;  /* managed: the module variable's address while the module is loaded */
};

/* One __cudaRegisterFatBinary: a fatbin and, once used, its loaded module. */
struct rt_fatbin {
    struct rt_fatbin *next;
    const void *wrapper; /* the program's registration wrapper */
    struct fatbin fb;
    int ptx_index;       /* fatbin_pick_ptx result, -1 when none */
    cudaError_t parse_err; /* fatbin unreadable or without PTX */
    bool reported;       /* its load error was printed */
    struct ptxsim_module *mod; /* NULL until first use (and after cudaDeviceReset) */
    cudaError_t load_err;
    char *ptx;           /* decompressed PTX text, NUL-terminated (owned) */
    size_t ptx_len;
    char name[64];       /* module name in diagnostics */
    void *managed_host;  /* host copies of its managed variables (NULL when it has none) */
    bool managed_init;   /* the host copies got the variables' initial values */
    /* -rdc=true (rdc.c): the translation units' fatbins and their PTX entries, linked on load. */
    struct fatbin *units;
    int *unit_ptx;
    uint32_t nunits;
    /* Driver API modules and libraries (drv_module.c): no wrapper, fb parsed from image_copy. */
    bool driver;
    bool from_text;      /* loaded from PTX text: load errors are CUDA_ERROR_INVALID_PTX */
    bool library;        /* loaded by cuLibraryLoad*: cuModuleUnload refuses it */
    void *owner;         /* the CUcontext whose destruction unloads it; NULL for libraries */
    uint8_t *image_copy; /* the fatbin the program passed, copied (owned) */
};

enum rt_host_kind { RT_HOST_PINNED, RT_HOST_MANAGED, RT_HOST_REGISTERED, RT_HOST_VARS };

/* A range of host memory the device sees at the same address. */
struct rt_host {
    struct rt_host *next;
    void *base;
    size_t size;     /* bytes the device sees */
    size_t map_len;  /* bytes mmap'ed (0 for registered memory, which stays the program's) */
    enum rt_host_kind kind;
    unsigned flags;  /* cudaHostAlloc / cudaHostRegister flags */
    bool gone;       /* registered memory the program unmapped: no longer mapped in the device */
};

struct rt_stream {
    struct rt_stream *next;
    unsigned flags;
    int priority;
    unsigned long long id;
};

/* A CUDA array: texels in device memory, rows of width * elem bytes, slices of height rows. */
struct rt_array {
    struct rt_array *next;
    uint64_t addr;
    struct cudaChannelFormatDesc desc;
    size_t width, height, depth; /* as given: 0 for the dimensions the array lacks */
    unsigned flags;
    size_t elem, pitch, slice;   /* bytes per texel, row and 2D slice (or layer) */
};

/* What the program gave when it created a texture or surface object (for the getters). */
struct rt_texobj {
    struct rt_texobj *next;
    unsigned long long handle;
    bool surface;
    struct cudaResourceDesc res;
    struct cudaTextureDesc tex;
};

struct rt_event {
    struct rt_event *next;
    unsigned flags;
    bool recorded;
    double t_ns; /* simulated time when recorded */
};

struct rt_ctx {
    pthread_mutex_t lock; /* recursive */
    cudaError_t init_err; /* the runtime cannot run at all (bad environment) */
    bool unloading;       /* the library destructor ran */
    struct ptxsim_options opts;
    struct ps_config cfg; /* machine description (timing mode) */
    bool timing;
    struct ps_err cfg_err;
    struct ptxsim_device *dev;
    bool dev_used;        /* something was allocated, loaded or launched on dev */
    cudaError_t sticky;   /* device fault: returned by every later call until reset */
    struct rt_fatbin *fatbins;
    unsigned nfatbins;
    struct rt_kernel *kernels;
    struct rt_kernel *retired; /* kernels of unregistered fatbins (their names back kstats) */
    struct rt_var *vars;
    struct rt_host *host;
    uintptr_t host_next;  /* next fixed address for mapped host memory */
    uint64_t dev_bytes;   /* cudaMalloc'ed bytes (cudaMemGetInfo) */
    struct rt_stream *streams;
    unsigned long long next_stream_id;
    struct rt_event *events;
    struct rt_sched *sched; /* timing mode's stream queues (sched.c), NULL until used */
    struct rt_array *arrays;
    struct rt_texobj *texobjs;
    size_t limit_stack, limit_heap, limit_printf;
    enum cudaFuncCache cache_config;
    unsigned device_flags;
    char **warned;        /* names of unsupported functions already reported */
    size_t nwarned;
    /* Simulated time and statistics (functional-mode estimate). */
    double sim_ns;
    struct ptxsim_kstat *kstats;
    size_t nkstats, cap_kstats;
    uint64_t copy_bytes;
    char *stats_path;
    char truncated[PS_ERR_MSG_MAX]; /* why the run stopped early (a cap, a signal); "" = it did not */
};

/* Per host thread state (CUDA keeps these per thread). */
#define RT_CFG_DEPTH 16
struct rt_callcfg {
    dim3 grid, block;
    size_t shmem;
    cudaStream_t stream;
};

struct rt_thread {
    cudaError_t last;
    unsigned driver_depth; /* inside a driver API call (drv_error.c): not a runtime call */
    bool runtime_bound;    /* a runtime call ran here: the primary context is current */
    unsigned ncfg;
    struct rt_callcfg cfg[RT_CFG_DEPTH];
};

/* context.c */
/*
 * Locks the context (creating it on first use) and returns it in *c, or
 * returns the error that stops every call (bad environment, unloading) with
 * *c NULL. Pair with rt_unlock.
 */
cudaError_t rt_lock(struct rt_ctx **c);
/*
 * rt_lock for the exit path (__cudaUnregisterFatBinary at exit, the library
 * destructor): when another thread holds the lock because it is running a
 * kernel, that launch is abandoned (ptxsim_abandon) so the process exits
 * promptly instead of waiting for the kernel.
 */
cudaError_t rt_lock_for_exit(struct rt_ctx **c);
/* Unlocks c (if non-NULL), records e as the thread's last error if it is one, returns e. */
cudaError_t rt_unlock(struct rt_ctx *c, cudaError_t e);
struct rt_thread *rt_thread(void);
/* Records e as the calling thread's last error (no-op for cudaSuccess). */
void rt_set_last(cudaError_t e);
/* Whether the context exists (some CUDA call, runtime or driver, has run). */
bool rt_ctx_started(void);
/* The context locked for the exit path, or NULL if it was never created (teardown.c). */
struct rt_ctx *rt_ctx_for_fini(void);
/* Frees the names of unsupported functions already reported. */
void rt_warned_free(struct rt_ctx *c);
/* Records that NAME was reported; false when it already was (each is reported once). */
bool rt_warned_mark(struct rt_ctx *c, const char *name);
/* Prints "ptxsim: NAME is not supported" once per name. */
void rt_warn_unsupported(struct rt_ctx *c, const char *name);
/*
 * The prologue of every copy call (copy.c, array_copy.c): locks, then checks the sticky
 * fault and, when has_stream, the stream. Unlock with rt_unlock whatever it returns.
 */
cudaError_t rt_copy_enter(struct rt_ctx **c, cudaStream_t stream, bool has_stream);
/* A 2D copy of height rows of width bytes (cudaMemcpy2D's rules; copy.c). */
cudaError_t rt_copy_2d(struct rt_ctx *c, char *dst, size_t dpitch, const char *src,
                       size_t spitch, size_t width, size_t height, int kind);
/* A checked launch of kernel k (launch.c): the path every runtime and driver launch takes. */
cudaError_t rt_launch(struct rt_ctx *c, struct rt_kernel *k, dim3 grid, dim3 block, void **args,
                      size_t shmem, cudaStream_t stream);
/* CUDA arrays (array.c): the array behind a cudaArray_t, or NULL when it is not one. */
struct rt_array *rt_array_find(struct rt_ctx *c, const void *a);
void rt_arrays_release(struct rt_ctx *c);
/* Texture and surface objects (texture.c): forgets the objects of a device being destroyed. */
void rt_texobjs_release(struct rt_ctx *c);
/* Advances the simulated clock by a copy or set of n bytes. */
void rt_account_copy(struct rt_ctx *c, size_t n);

/* teardown.c: the release steps of every part, in order */
/* Recreates the device (cudaDeviceReset and limit changes); modules reload on next use. */
cudaError_t rt_device_recreate(struct rt_ctx *c);

/* error.c */
/*
 * The CUDA error for a failed ptxsim_launch. A device fault becomes the
 * sticky error, and the engine's message is printed (once: later calls stop
 * at the sticky error); an API failure is printed and returned as is.
 */
cudaError_t rt_take_fault(struct rt_ctx *c, int code);

/* register.c */
/* Loads fb's module if needed; returns cudaSuccess or the image's load error. */
cudaError_t rt_fatbin_load(struct rt_ctx *c, struct rt_fatbin *fb);
/* Frees one registration or driver module: its kernels retire (their names back the statistics). */
void rt_fatbin_destroy(struct rt_ctx *c, struct rt_fatbin *fb);
/* Drops every loaded module (cudaDeviceReset); the registrations stay. */
void rt_fatbin_unload_all(struct rt_ctx *c);
/* Frees every registration (library destructor). */
void rt_registry_free(struct rt_ctx *c);
/* Copies managed variables' host copies to the device (to_dev) or back, for loaded modules. */
cudaError_t rt_managed_sync(struct rt_ctx *c, bool to_dev);
/*
 * The host copy (which the device also addresses) and size of fb's managed variable `name`,
 * made on first use from the loaded module's variable and kept equal to it as those of
 * __cudaRegisterManagedVar are: the driver's cuLibraryGetManaged.
 */
cudaError_t rt_managed_var(struct rt_ctx *c, struct rt_fatbin *fb, const char *name, void **host,
                           size_t *size);
/* Kernel by host stub address or by handle (cudaKernel_t / cudaFunction_t), or NULL. */
struct rt_kernel *rt_kernel_find(struct rt_ctx *c, const void *func);
/* Highest PTX target (e.g. 75) among registered fatbins, RT_DEFAULT_SM if none. */
unsigned rt_target_sm(struct rt_ctx *c);

/* memory.c */
/*
 * Maps size bytes of fresh host memory at the next deterministic fixed
 * address and makes it visible to the device at the same address.
 */
cudaError_t rt_host_alloc(struct rt_ctx *c, size_t size, enum rt_host_kind kind, unsigned flags,
                          void **out);
/* Unmaps and forgets the host range starting at base; cudaErrorInvalidValue if none. */
cudaError_t rt_host_free(struct rt_ctx *c, void *base, enum rt_host_kind kind);
/* Unmaps and releases host ranges (all, or all but the managed-variable copies). */
void rt_host_release_all(struct rt_ctx *c, bool keep_vars);
/* Re-maps the kept ranges into a recreated device. */
cudaError_t rt_host_remap(struct rt_ctx *c);

/* hostcheck.c */
/* Whether [p, p+n) is mapped in this process, readable and (need_write) writable. */
bool rt_host_range_ok(const void *p, size_t n, bool need_write);
/* Drops registered host ranges that are no longer mapped from the device (before a launch). */
void rt_host_revalidate(struct rt_ctx *c);

/* stream.c */
/* Whether s names the default stream or a live stream. */
bool rt_stream_valid(struct rt_ctx *c, cudaStream_t s);
void rt_streams_release(struct rt_ctx *c);

/* stats.c */
cudaError_t rt_stats_add(struct rt_ctx *c, const struct ptxsim_kstat *ks);
/* Writes the PTXSIM_STATS JSON file; called once at exit. */
void rt_stats_write(struct rt_ctx *c);

/* Relocatable device code (rdc.c): parses the units of a device-link wrapper's prelinked list. */
cudaError_t rt_rdc_parse(struct rt_fatbin *fb, const void *const *prelinked, struct ps_err *err);
unsigned rt_rdc_sm(const struct rt_fatbin *fb);
/* Links the units' PTX into fb->ptx / fb->ptx_len; a PS_E* code with err filled on failure. */
int rt_rdc_link(struct rt_fatbin *fb, struct ps_err *err);
void rt_rdc_free(struct rt_fatbin *fb);

/* Honest stops (stop.c): SIGINT/SIGTERM handlers (runtime/stop.h); the engine's stop flag. */
const volatile int *rt_stop_install(struct rt_ctx *c);
/* Records why the run's statistics are incomplete (the first reason wins). */
void rt_stop_truncated(struct rt_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
