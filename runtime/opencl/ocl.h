/*
 * ptxsim's OpenCL 1.2 platform, an ICD for ocl-icd (docs/opencl.md).
 *
 * Every CL object starts with the ICD dispatch pointer (cl_icd.h), then a
 * magic word for validation and a reference count. There is one platform and
 * one device, the machine of the configuration named by the PTXSIM_*
 * environment (struct ocl_env, read once on first use); each context owns one
 * ptxsim engine device (functional or timing), so memory objects live in
 * their context's engine. Commands run synchronously in enqueue order, under
 * the context's lock; events are created complete.
 *
 * The entry points keep their OpenCL names; the library's version script
 * exports only the four ocl-icd looks up, everything else is reached through
 * the dispatch table (ocl_dispatch).
 */
#ifndef PTXSIM_RUNTIME_OPENCL_OCL_H
#define PTXSIM_RUNTIME_OPENCL_OCL_H

#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#include <CL/cl.h>
#include <CL/cl_icd.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/ptxsim.h"

struct clc_arg_table;

enum ocl_magic {
    OCL_MAGIC_PLATFORM = 0x504c4154,
    OCL_MAGIC_DEVICE,
    OCL_MAGIC_CONTEXT,
    OCL_MAGIC_QUEUE,
    OCL_MAGIC_MEM,
    OCL_MAGIC_PROGRAM,
    OCL_MAGIC_KERNEL,
    OCL_MAGIC_EVENT,
    OCL_MAGIC_SAMPLER,
};

#define OCL_HEAD            \
    const cl_icd_dispatch *dispatch; \
    uint32_t magic;         \
    uint32_t refs

struct _cl_platform_id {
    OCL_HEAD;
};

struct _cl_device_id {
    OCL_HEAD;
};

struct _cl_context {
    OCL_HEAD;
    pthread_mutex_t lock; /* serialises every engine call */
    struct ptxsim_device *dev;
    double sim_ns; /* simulated clock: kernel time so far (under lock) */
    void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *);
    void *notify_data;
    cl_context_properties props[8];
    uint32_t nprops; /* entries in props, including the final 0; 0 when none */
    cl_device_id devs[2]; /* the devices it was made with (GPU first), ndev of them */
    cl_uint ndev;
    struct ocl_cpu_ctx *cpu; /* the CPU device's PoCL context (cpu.h), made on first use */
};

struct _cl_command_queue {
    OCL_HEAD;
    cl_context ctx;
    cl_command_queue_properties props;
    cl_device_id dev; /* the GPU, or the CPU device (cpu.h) */
};

struct ocl_mapping {
    void *ptr;
    size_t offset, size;
    bool write;
    struct ocl_mapping *next;
    size_t origin[3], region[3], row, slice; /* an image's mapped region and host pitches */
};

/*
 * An image's description (image.c): the format, the description as created, and the device
 * layout (tightly packed rows; a 1D array's layers are rows, a 2D array's and a 3D image's
 * layers and slices are row x height). tex is its engine texture object (isa/climage.h),
 * which is what a kernel argument of image type receives.
 */
struct ocl_image {
    cl_image_format fmt;
    cl_image_desc desc;
    size_t elem;          /* bytes per element */
    size_t row, slice;    /* device row and slice (or layer) pitch */
    size_t dims[3];       /* width, height, depth-or-layers (1 where the type has none) */
    uint64_t tex;
};

struct _cl_mem {
    OCL_HEAD;
    cl_context ctx;
    cl_mem_flags flags;
    size_t size;
    uint64_t addr;  /* device address */
    void *host_ptr; /* CL_MEM_USE_HOST_PTR's pointer, else NULL */
    cl_mem parent;  /* a sub-buffer's buffer (retained), else NULL */
    size_t origin;  /* a sub-buffer's offset in parent */
    struct ocl_mapping *maps;
    uint32_t map_count;
    struct ocl_image *img; /* images only (a 1D buffer image's parent is its buffer) */
};

/* A sampler (sampler.c): its properties and the sampler_t bits a kernel argument receives. */
struct _cl_sampler {
    OCL_HEAD;
    cl_context ctx;
    cl_bool norm;
    cl_addressing_mode addr;
    cl_filter_mode filter;
    uint32_t bits;
};

/* What a program was made from (docs/opencl.md, "Compiling programs"). */
enum ocl_prog_kind {
    OCL_PROG_SOURCE, /* OpenCL C */
    OCL_PROG_PTX,    /* a PTX binary */
    OCL_PROG_LLVM,   /* an LLVM bitcode binary (nvptx64 or SPIR), or clLinkProgram's output */
    OCL_PROG_SPIRV,  /* clCreateProgramWithIL */
};

struct _cl_program {
    OCL_HEAD;
    cl_context ctx;
    enum ocl_prog_kind kind;
    char *source; /* NULL for programs from binary or IL */
    char *ptx;    /* built or given PTX, NUL-terminated */
    void *bin;    /* the SPIR-V or bitcode given, or clCompileProgram's bitcode */
    size_t bin_len;
    cl_program_binary_type btype; /* of bin while there is no executable */
    char *log;
    char *options;
    cl_build_status status;
    struct ptxsim_module *mod;
    struct clc_arg_table *args; /* kernel argument info (-cl-kernel-arg-info), else NULL */
    uint32_t kernels; /* live cl_kernel objects (clBuildProgram refuses while > 0) */
    void *cpu;        /* PoCL's build of source for the CPU device (cpu.h), or NULL */
    struct ocl_hpdp_feat *hpdp; /* HeteroPDP's feature counts per kernel (hpdp.h), or NULL */
};

struct ocl_arg {
    bool set;
    bool image; /* an image or sampler argument (the CPU device makes PoCL ones, cpu_image.c) */
    bool local;       /* __local pointer: value is local_size */
    size_t local_size;
    uint8_t value[256];
    cl_mem mem; /* a buffer argument's object (NULL for a null buffer), for the CPU device */
};

struct _cl_kernel {
    OCL_HEAD;
    cl_program prog;
    struct ptxsim_kernel_info info;
    struct ocl_arg *args;
};

/* A callback of clSetEventCallback not yet called. */
struct ocl_event_cb {
    void(CL_CALLBACK *fn)(cl_event, cl_int, void *);
    void *data;
    cl_int type; /* CL_SUBMITTED, CL_RUNNING or CL_COMPLETE */
    struct ocl_event_cb *next;
};

/*
 * Command events are created complete. A user event (clCreateUserEvent, no
 * queue) is CL_SUBMITTED until clSetUserEventStatus; status, cbs and the
 * condition are guarded by lock.
 */
struct _cl_event {
    OCL_HEAD;
    cl_context ctx;
    cl_command_queue queue; /* NULL for a user event */
    cl_command_type type;
    cl_int status;
    cl_ulong t_queued, t_submit, t_start, t_end; /* ns, see docs/opencl.md */
    pthread_mutex_t lock;
    pthread_cond_t done; /* signalled when status reaches CL_COMPLETE or an error */
    struct ocl_event_cb *cbs;
};

/*
 * The machine and the mode, from PTXSIM_CONFIG, PTXSIM_OPTIONS, PTXSIM_MODE,
 * PTXSIM_BUDGET and PTXSIM_STATS (docs/opencl.md), read once. When they are
 * bad, `bad` is set (the message went to stderr), cfg holds the defaults, the
 * device reports itself unavailable and contexts cannot be created.
 */
struct ocl_env {
    bool bad;
    bool timing;          /* launches run in the timing model */
    struct ps_config cfg;
    uint64_t budget;      /* warp instructions per launch, 0 = unlimited */
    char *stats_path;     /* PTXSIM_STATS, or NULL */
    const volatile int *stop; /* set by SIGINT/SIGTERM (runtime/stop.h); the engine polls it */
    char name[128];       /* CL_DEVICE_NAME */
    double core_mhz;      /* first field of gpgpu_clock_domains */
    uint32_t compute_units; /* gpgpu_n_clusters x gpgpu_n_cores_per_cluster */
    uint32_t threads_per_sm, max_wg; /* max_wg = min(1024, threads_per_sm) */
    uint32_t local_bytes; /* gpgpu_shmem_size */
    uint32_t l2_line;
    uint64_t l2_bytes;    /* all L2 slices */
};

const struct ocl_env *ocl_env(void);

/*
 * Accounts a kernel that ran on c's device (under c's lock) for PTXSIM_STATS:
 * warp0/thread0 are the device's instruction totals before the launch. Returns
 * its simulated duration in ns (the timing model's cycles, or the functional
 * estimate, at the core clock).
 */
double ocl_stats_kernel(cl_context c, const char *name, const struct ptxsim_dim3 *grid,
                        const struct ptxsim_dim3 *block, uint64_t warp0, uint64_t thread0,
                        double wall_s);
/* Accesses outside every allocation during a launch; launches starting (+1) and ending (-1). */
void ocl_stats_outside(uint64_t n);
void ocl_stats_running(int delta);
/* Bytes moved by a read, write, copy or fill command. */
void ocl_stats_copy(uint64_t bytes);
/* Bytes moved by such commands so far (HeteroPDP's transfer bytes, runtime/opencl/hpdp.h). */
uint64_t ocl_stats_copied(void);
/* A cap (-gpgpu_max_cycle, -gpgpu_max_insn, PTXSIM_BUDGET) stopped a kernel: the report says
 * the run is truncated, and why (the first reason wins). */
void ocl_stats_truncated(const char *why);

/* The dispatch table every object points at. */
extern const cl_icd_dispatch ocl_dispatch;

cl_platform_id ocl_platform(void);
cl_device_id ocl_device(void);

/* Dispatch-table versions of the exported entry points (bound inside the library). */
cl_int CL_API_CALL ocl_d_platform_ids(cl_uint n, cl_platform_id *p, cl_uint *num);
cl_int CL_API_CALL ocl_d_platform_info(cl_platform_id p, cl_platform_info name, size_t size,
                                       void *value, size_t *size_ret);
void *CL_API_CALL ocl_d_ext_address(const char *name);
void *CL_API_CALL ocl_d_ext_address_platform(cl_platform_id p, const char *name);

/* Copies a query answer (param_value may be NULL; size_ret may be NULL). */
cl_int ocl_info(const void *src, size_t n, size_t size, void *value, size_t *size_ret);
cl_int ocl_info_str(const char *s, size_t size, void *value, size_t *size_ret);

/* Reports a message through the context's callback, or to stderr. */
void ocl_notify(cl_context ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Nanoseconds from a monotonic clock. */
cl_ulong ocl_now_ns(void);

/*
 * Whether obj is a live object of the kind magic names: it must be in the
 * registry of live objects (registry.c) before any of its fields is read.
 */
bool ocl_valid(const void *obj, uint32_t magic);
/* registry.c: objects are added when made and removed just before they are freed. */
bool ocl_registry_add(const void *obj);
void ocl_registry_remove(const void *obj);
bool ocl_registry_has(const void *obj);
/*
 * Ends an object whose last reference went: out of the registry, magic
 * cleared, and its memory kept (dispatch pointer intact) in a quarantine of
 * the last OCL_QUARANTINE released objects before it is freed, so the ICD
 * loader's read of a stale handle's dispatch table, and our registry
 * lookup, never touch freed memory while the handle is recent.
 */
void ocl_retire(void *obj);
#define OCL_QUARANTINE 4096
/*
 * Checks a command's wait list, then waits for its events: only user events
 * can be incomplete, so a command waiting on one blocks its enqueue call
 * until another thread sets the status (commands run at enqueue).
 * CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST when one ended in an error.
 */
cl_int ocl_check_wait_list(cl_uint n, const cl_event *list);
/*
 * Creates a completed event in *event (if event is non-NULL). Functional
 * mode: QUEUED, SUBMIT and START are t_start and END is now (host ns).
 * Timing mode: all four are the context's simulated clock (the command took
 * no simulated time).
 */
cl_int ocl_event_done(cl_command_queue q, cl_command_type type, cl_ulong t_start, cl_int status,
                      cl_event *event);
/* The same with explicit timestamps (kernels in timing mode). */
cl_int ocl_event_at(cl_command_queue q, cl_command_type type, cl_ulong t_start, cl_ulong t_end,
                    cl_int status, cl_event *event);

/* A new program of context c (retained), status CL_BUILD_NONE; NULL with *rc set. */
cl_program ocl_program_new(cl_context c, enum ocl_prog_kind kind, cl_int *rc);
/* Appends a line to p's build log. */
void ocl_program_log(cl_program p, const char *msg);
/* Held around every OpenCL C compile, link or lowering: one at a time per process. */
void ocl_compiler_lock(void);
void ocl_compiler_unlock(void);
/* Loads p->ptx into the context's device (p->mod); CL_BUILD_PROGRAM_FAILURE with a log line. */
cl_int ocl_program_load(cl_program p);
/* Drops p's executable (module and PTX) before p is compiled or built again. */
void ocl_program_reset(cl_program p);
/* clCreateProgramWithIL (OpenCL 2.1) and clCreateProgramWithILKHR (cl_khr_il_program). */
cl_program CL_API_CALL ocl_create_program_with_il(cl_context c, const void *il, size_t len,
                                                  cl_int *errcode);

/* A memory object's flags and host pointer, checked (CL_INVALID_VALUE, CL_INVALID_HOST_PTR). */
cl_int ocl_check_mem_flags(cl_mem_flags f, void *host_ptr);

/*
 * Moves an image region (origin and region in elements, rows and slices) between device
 * memory and host memory laid out with pitches row and slice (bytes), row by row: to the
 * device when to_dev. Under the context's lock. A ptxsim error code (image_io.c, a leaf).
 */
int ocl_image_rows(struct ptxsim_device *dev, cl_mem m, const size_t *origin,
                   const size_t *region, void *host, size_t row, size_t slice, bool to_dev);

/* Common checks of a buffer command: queue, buffer, byte range, wait list. */
cl_int ocl_check_mem_cmd(cl_command_queue q, cl_mem m, size_t off, size_t n, cl_uint nw,
                         const cl_event *wl);

/* Whether two byte ranges of buffers or sub-buffers share memory (same allocation). */
bool ocl_mem_overlap(cl_mem a, size_t aoff, size_t an, cl_mem b, size_t boff, size_t bn);

/* OpenCL 2.0's clCreateSamplerWithProperties (sampler.c), which ocl-icd dispatches. */
cl_sampler CL_API_CALL ocl_create_sampler_with_properties(cl_context c,
                                                          const cl_ulong *props,
                                                          cl_int *errcode);
/* Whether context c has a device that supports images: the GPU, or the CPU when PoCL
 * does (image.c). */
bool ocl_context_has_images(cl_context c);
/* The largest image dimensions (width, height, depth-or-layers) that some device of c
 * supports for an image of type t (OpenCL: an image too big for all devices is refused). */
void ocl_context_image_limits(cl_context c, cl_mem_object_type t, size_t lim[3]);

/* The GPU device's image limits (CL_DEVICE_IMAGE*), those of a Fermi GPU's OpenCL driver. */
#define OCL_IMG2D_MAX 16384
#define OCL_IMG3D_MAX 2048
#define OCL_IMG_BUFFER_MAX (1u << 27)
#define OCL_IMG_ARRAY_MAX 2048

/* Maps a ptxsim error code to an OpenCL one. */
cl_int ocl_error(int ps_code);

#endif
