/*
 * The platform, its one device, the ICD entry points, shared helpers, the
 * PTXSIM_* environment and the statistics written at exit. The device
 * describes the configured machine (by default the GTX 480 of ptxsim's
 * gtx480 configuration; docs/opencl.md).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "memsys/cache.h"
#include "runtime/functional_time.h"
#include "runtime/opencl/cpu.h"
#include "runtime/opencl/cpu_pocl.h"
#include "runtime/opencl/ocl.h"
#include "runtime/stats_report.h"
#include "runtime/stop.h"

#include <CL/cl_ext.h>

#define OCL_EXTENSIONS                                                                             \
    "cl_khr_icd cl_khr_global_int32_base_atomics cl_khr_global_int32_extended_atomics "            \
    "cl_khr_local_int32_base_atomics cl_khr_local_int32_extended_atomics "                         \
    "cl_khr_byte_addressable_store cl_khr_fp64 cl_khr_il_program cl_khr_spir"
/* What llvm-spirv-14 -r reads (clc_lower_spirv), and the SPIR version clang 14 writes. */
#define OCL_IL_VERSIONS "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4"
#define OCL_SPIR_VERSIONS "1.2"
#define OCL_GLOBAL_MEM_BYTES (1536ull << 20)

static struct _cl_platform_id the_platform = {&ocl_dispatch, OCL_MAGIC_PLATFORM, 1};
static struct _cl_device_id the_device = {&ocl_dispatch, OCL_MAGIC_DEVICE, 1};

/* ---- the environment ---------------------------------------------------- */

static struct ocl_env g_env;
static pthread_once_t g_env_once = PTHREAD_ONCE_INIT;
static bool g_env_ready; /* env_init ran */

static bool env_fail(const char *var, const char *val, const char *why)
{
    fprintf(stderr, "ptxsim opencl: %s=%s: %s\n", var, val, why);
    return false;
}

/* CL_DEVICE_NAME: the GTX 480 for the default configuration, else the configuration's name. */
static void env_name(struct ocl_env *e, const char *cfg)
{
    const char *base = strrchr(cfg, '/') ? strrchr(cfg, '/') + 1 : cfg;

    if (!strcmp(base, "gtx480"))
        snprintf(e->name, sizeof(e->name), "GeForce GTX 480 (ptxsim)");
    else
        snprintf(e->name, sizeof(e->name), "%.100s (ptxsim)", *base ? base : cfg);
}

/* Figures clGetDeviceInfo reports, from the configuration (valid: ps_config_check passed). */
static void env_derive(struct ocl_env *e)
{
    const struct ps_config *c = &e->cfg;
    struct mem_cache_geom g;
    struct ps_err err;
    double clk[8];
    uint32_t n = 0, pipe[2];

    e->compute_units = c->gpgpu_n_clusters * c->gpgpu_n_cores_per_cluster;
    e->core_mhz = 700.0;
    if (!ps_parse_double_list(c->gpgpu_clock_domains, ':', clk, 8, &n, &err) && n > 0 && clk[0] > 0)
        e->core_mhz = clk[0];
    e->threads_per_sm = 1536;
    if (!ps_parse_uint_list(c->gpgpu_shader_core_pipeline, ':', pipe, 2, &n, &err) && n > 0 &&
        pipe[0] > 0)
        e->threads_per_sm = pipe[0];
    e->max_wg = e->threads_per_sm < 1024 ? e->threads_per_sm : 1024;
    e->local_bytes = c->gpgpu_shmem_size;
    e->l2_line = 128;
    e->l2_bytes = 0;
    if (!mem_cache_geom_parse(c->gpgpu_cache_dl2, &g, &err)) {
        e->l2_line = g.line_bytes;
        e->l2_bytes =
            mem_cache_geom_bytes(&g) * c->gpgpu_n_mem * c->gpgpu_n_sub_partition_per_mchannel;
    }
}

/* PTXSIM_CONFIG, PTXSIM_OPTIONS, PTXSIM_MODE, PTXSIM_BUDGET, PTXSIM_STATS. */
static uint64_t default_budget(void)
{
    struct ptxsim_options o;

    ptxsim_options_default(&o);
    return o.insn_budget;
}

static bool env_read(struct ocl_env *e)
{
    const char *mode = getenv("PTXSIM_MODE"), *cfg = getenv("PTXSIM_CONFIG");
    const char *budget = getenv("PTXSIM_BUDGET"), *stats = getenv("PTXSIM_STATS");
    const char *opts = getenv("PTXSIM_OPTIONS");
    struct ps_err err;
    char *end;

    memset(&err, 0, sizeof(err));
    if (!cfg || !*cfg) {
        cfg = ptxsim_config_default();
        if (strcmp(cfg, "gtx480"))
            fprintf(stderr, "ptxsim opencl: using ./%s from the working directory\n", cfg);
    }
    env_name(e, cfg);
    if (ptxsim_config_build(cfg, opts, &e->cfg, &err)) {
        /* As in the CUDA runtime: a machine that cannot be built stops the program (status 2). */
        ptxsim_config_perror("ptxsim opencl", &err, stderr);
        fflush(NULL);
        _exit(2);
    }
    if (mode && *mode && strcmp(mode, "functional") && strcmp(mode, "timing"))
        return env_fail("PTXSIM_MODE", mode, "unknown mode (functional or timing)");
    /* Without PTXSIM_MODE the configuration decides, as in the CUDA runtime. */
    e->timing = mode && *mode ? !strcmp(mode, "timing") : e->cfg.gpgpu_ptx_sim_mode == 0;
    e->budget = default_budget(); /* the watchdog, unless PTXSIM_BUDGET says otherwise */
    if (budget && *budget) {
        errno = 0;
        e->budget = strtoull(budget, &end, 10);
        if (errno || *end || *budget == '-')
            return env_fail("PTXSIM_BUDGET", budget, "not a number of warp instructions");
    }
    if (stats && *stats && !(e->stats_path = strdup(stats)))
        return env_fail("PTXSIM_STATS", stats, "out of memory");
    return true;
}

static void write_truncated(const char *reason);

static void env_init(void)
{
    struct ocl_env *e = &g_env;

    ps_config_init(&e->cfg);
    e->bad = !env_read(e);
    if (e->bad) {
        /* The device reports the defaults (the GTX 480) and is not available. */
        env_name(e, "gtx480");
        e->timing = false;
        e->budget = 0;
        free(e->stats_path);
        e->stats_path = NULL;
    }
    env_derive(e);
    if (!e->bad)
        e->stop = ptxsim_stop_install(write_truncated);
    g_env_ready = true;
}

const struct ocl_env *ocl_env(void)
{
    pthread_once(&g_env_once, env_init);
    return &g_env;
}

/* ---- statistics (PTXSIM_STATS; the format of runtime/cuda/stats.c) ---------- */

static struct {
    pthread_mutex_t lock;
    struct ptxsim_kstat *k;
    size_t n, cap;
    double sim_ns; /* simulated kernel time, all contexts */
    uint64_t copy_bytes;
    uint64_t outside;               /* accesses outside every allocation, all contexts */
    char truncated[PS_ERR_MSG_MAX]; /* why a cap stopped a kernel; "" = none did */
} g_stats = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0, 0, 0, 0, ""};

/* Launches running now (a launch under way at exit makes the statistics truncated). */
static int g_running;

void ocl_stats_running(int delta)
{
    __atomic_add_fetch(&g_running, delta, __ATOMIC_SEQ_CST);
}

void ocl_stats_outside(uint64_t n)
{
    pthread_mutex_lock(&g_stats.lock);
    g_stats.outside += n;
    pthread_mutex_unlock(&g_stats.lock);
}

double ocl_stats_kernel(cl_context c, const char *name, const struct ptxsim_dim3 *grid,
                        const struct ptxsim_dim3 *block, uint64_t warp0, uint64_t thread0,
                        double wall_s)
{
    const struct ocl_env *e = ocl_env();
    const struct tm_stats *tm = ptxsim_timing_last(c->dev);
    uint64_t ctas = (uint64_t)grid->x * grid->y * grid->z;
    struct ptxsim_kstat ks = {
        .warp_insn = ptxsim_warp_insts(c->dev) - warp0,
        .thread_insn = ptxsim_thread_insts(c->dev) - thread0,
        .wall_s = wall_s,
        .grid = {grid->x, grid->y, grid->z},
        .block = {block->x, block->y, block->z},
    };
    double ns;

    if (tm) {
        ks.timed = true;
        ks.tm = *tm;
        ks.cycles = tm->c.cycles;
        ns = (double)ks.cycles * 1e3 / tm->core_mhz;
    } else {
        ks.cycles = ptxsim_functional_cycles(ks.warp_insn, ctas, e->compute_units);
        ns = (double)ks.cycles * 1e3 / e->core_mhz;
    }
    pthread_mutex_lock(&g_stats.lock);
    g_stats.sim_ns += ns;
    if (g_stats.n == g_stats.cap) {
        size_t ncap = g_stats.cap ? g_stats.cap * 2 : 64;
        struct ptxsim_kstat *nk = realloc(g_stats.k, ncap * sizeof(*nk));

        if (nk) {
            g_stats.k = nk;
            g_stats.cap = ncap;
        }
    }
    if (g_stats.n < g_stats.cap && (ks.name = strdup(name)))
        g_stats.k[g_stats.n++] = ks;
    pthread_mutex_unlock(&g_stats.lock);
    return ns;
}

/*
 * SIGINT / SIGTERM (runtime/stop.h): the statistics so far, marked truncated with reason. It
 * may run in a signal handler, so it takes no lock.
 */
static void write_truncated(const char *reason)
{
    struct ocl_env *e = &g_env;

    struct ptxsim_run_notes notes = {g_stats.truncated, g_stats.outside};

    if (!g_stats.truncated[0])
        snprintf(g_stats.truncated, sizeof(g_stats.truncated), "%s", reason);
    ptxsim_stats_report_notes(g_stats.k, g_stats.n, g_stats.sim_ns, g_stats.copy_bytes, &e->cfg,
                              e->stats_path, "ptxsim opencl", &notes);
    e->stats_path = NULL; /* written */
}

void ocl_stats_truncated(const char *why)
{
    pthread_mutex_lock(&g_stats.lock);
    if (!g_stats.truncated[0])
        snprintf(g_stats.truncated, sizeof(g_stats.truncated), "%s", why);
    pthread_mutex_unlock(&g_stats.lock);
}

void ocl_stats_copy(uint64_t bytes)
{
    pthread_mutex_lock(&g_stats.lock);
    g_stats.copy_bytes += bytes;
    pthread_mutex_unlock(&g_stats.lock);
}

uint64_t ocl_stats_copied(void)
{
    uint64_t n;

    pthread_mutex_lock(&g_stats.lock);
    n = g_stats.copy_bytes;
    pthread_mutex_unlock(&g_stats.lock);
    return n;
}

/*
 * At exit (or when the loader unloads the library): the statistics, if the
 * environment was read and is good. Contexts the program did not release
 * are not torn down; their kernels are in the report all the same.
 */
__attribute__((destructor)) static void ocl_fini(void)
{
    struct ocl_env *e = &g_env;
    struct ptxsim_run_notes notes = {NULL, 0};

    if (!g_env_ready)
        return;
    pthread_mutex_lock(&g_stats.lock);
    notes.outside_accesses = g_stats.outside;
    if (g_stats.truncated[0])
        notes.truncated = g_stats.truncated;
    else if (__atomic_load_n(&g_running, __ATOMIC_SEQ_CST))
        notes.truncated = "the process exited while a kernel ran in another thread";
    if (!e->bad)
        ptxsim_stats_report_notes(g_stats.k, g_stats.n, g_stats.sim_ns, g_stats.copy_bytes, &e->cfg,
                                  e->stats_path, "ptxsim opencl", &notes);
    for (size_t i = 0; i < g_stats.n; i++)
        free((char *)g_stats.k[i].name);
    free(g_stats.k);
    g_stats.k = NULL;
    g_stats.n = g_stats.cap = 0;
    pthread_mutex_unlock(&g_stats.lock);
}

cl_platform_id ocl_platform(void)
{
    return &the_platform;
}

cl_device_id ocl_device(void)
{
    return &the_device;
}

bool ocl_valid(const void *obj, uint32_t magic)
{
    const struct _cl_platform_id *o = obj;

    if (obj != (const void *)&the_platform && obj != (const void *)&the_device &&
        !ocl_registry_has(obj))
        return false; /* unknown pointer or released object: never dereferenced */
    return o->magic == magic && o->refs > 0;
}

cl_ulong ocl_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (cl_ulong)ts.tv_sec * 1000000000ull + (cl_ulong)ts.tv_nsec;
}

cl_int ocl_error(int code)
{
    switch (code) {
    case PS_OK:
        return CL_SUCCESS;
    case PS_ENOMEM:
        return CL_OUT_OF_HOST_MEMORY;
    case PS_EINVAL:
        return CL_INVALID_VALUE;
    default:
        return CL_OUT_OF_RESOURCES;
    }
}

/* ---- platform ---------------------------------------------------------- */

static cl_int ocl_platform_ids(cl_uint n, cl_platform_id *platforms, cl_uint *num)
{
    if ((!platforms && !num) || (platforms && n == 0))
        return CL_INVALID_VALUE;
    (void)ocl_env(); /* a bad environment is reported now, on stderr */
    if (platforms)
        platforms[0] = &the_platform;
    if (num)
        *num = 1;
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetPlatformIDs(cl_uint n, cl_platform_id *platforms, cl_uint *num)
{
    return ocl_platform_ids(n, platforms, num);
}

static cl_int ocl_platform_info(cl_platform_id p, cl_platform_info name, size_t size, void *value,
                                size_t *size_ret)
{
    if (p && p != &the_platform)
        return CL_INVALID_PLATFORM;
    switch (name) {
    case CL_PLATFORM_PROFILE:
        return ocl_info_str("FULL_PROFILE", size, value, size_ret);
    case CL_PLATFORM_VERSION:
        return ocl_info_str("OpenCL 1.2 ptxsim " PACKAGE_VERSION, size, value, size_ret);
    case CL_PLATFORM_NAME:
        return ocl_info_str("ptxsim", size, value, size_ret);
    case CL_PLATFORM_VENDOR:
        return ocl_info_str("ptxsim", size, value, size_ret);
    case CL_PLATFORM_EXTENSIONS:
        return ocl_info_str("cl_khr_icd", size, value, size_ret);
    case CL_PLATFORM_ICD_SUFFIX_KHR:
        return ocl_info_str("PTXSIM", size, value, size_ret);
    default:
        return CL_INVALID_VALUE;
    }
}

/* Exported (ocl-icd calls it directly); the dispatch table uses the static one. */
CL_API_ENTRY cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id p, cl_platform_info name,
                                                  size_t size, void *value, size_t *size_ret)
{
    return ocl_platform_info(p, name, size, value, size_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint n, cl_platform_id *platforms,
                                                       cl_uint *num)
{
    return ocl_platform_ids(n, platforms, num);
}

/* Static versions for the dispatch table (never bound to the loader's exports). */
cl_int CL_API_CALL ocl_d_platform_ids(cl_uint n, cl_platform_id *p, cl_uint *num)
{
    return ocl_platform_ids(n, p, num);
}

cl_int CL_API_CALL ocl_d_platform_info(cl_platform_id p, cl_platform_info name, size_t size,
                                       void *value, size_t *size_ret)
{
    return ocl_platform_info(p, name, size, value, size_ret);
}

/* ---- device ------------------------------------------------------------ */

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id p, cl_device_type type, cl_uint n,
                                               cl_device_id *devices, cl_uint *num)
{
    /* DEFAULT is the GPU alone; the CPU device (cpu.h) is listed after it for CPU and ALL. */
    bool gpu = type == CL_DEVICE_TYPE_ALL || (type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_DEFAULT));
    bool cpu_asked = type == CL_DEVICE_TYPE_ALL || (type & CL_DEVICE_TYPE_CPU);
    cl_device_id cpu = NULL, found[2];
    cl_uint count = 0;

    if (p && p != &the_platform)
        return CL_INVALID_PLATFORM;
    if (type & ~(cl_device_type)(CL_DEVICE_TYPE_ALL))
        return CL_INVALID_DEVICE_TYPE;
    if ((!devices && !num) || (devices && n == 0))
        return CL_INVALID_VALUE;
    if (cpu_asked)
        cpu = ocl_cpu_device();
    if (gpu)
        found[count++] = &the_device;
    if (cpu)
        found[count++] = cpu;
    if (num)
        *num = count;
    if (!count)
        return CL_DEVICE_NOT_FOUND;
    for (cl_uint i = 0; devices && i < count && i < n; i++)
        devices[i] = found[i];
    return CL_SUCCESS;
}

#define INFO_T(type, v)                                                                            \
    do {                                                                                           \
        type x_ = (v);                                                                             \
        return ocl_info(&x_, sizeof(x_), size, value, size_ret);                                   \
    } while (0)

/* Strings and arrays; CL_INVALID_VALUE (via -1) for names that are not. */
static cl_int device_info_text(cl_device_info name, size_t size, void *value, size_t *size_ret)
{
    const struct ocl_env *e = ocl_env();
    const size_t wi[3] = {e->max_wg, e->max_wg, e->max_wg < 64 ? e->max_wg : 64};
    static const cl_device_partition_property none[1] = {0};

    switch (name) {
    case CL_DEVICE_NAME:
        return ocl_info_str(e->name, size, value, size_ret);
    case CL_DEVICE_VENDOR:
        return ocl_info_str("ptxsim", size, value, size_ret);
    case CL_DRIVER_VERSION:
        return ocl_info_str(PACKAGE_VERSION, size, value, size_ret);
    case CL_DEVICE_PROFILE:
        return ocl_info_str("FULL_PROFILE", size, value, size_ret);
    case CL_DEVICE_VERSION:
        return ocl_info_str("OpenCL 1.2 ptxsim", size, value, size_ret);
    case CL_DEVICE_OPENCL_C_VERSION:
        return ocl_info_str("OpenCL C 1.2 ", size, value, size_ret);
    case CL_DEVICE_EXTENSIONS:
        return ocl_info_str(OCL_EXTENSIONS, size, value, size_ret);
    case CL_DEVICE_IL_VERSION_KHR:
        return ocl_info_str(OCL_IL_VERSIONS, size, value, size_ret);
    case CL_DEVICE_SPIR_VERSIONS:
        return ocl_info_str(OCL_SPIR_VERSIONS, size, value, size_ret);
    case CL_DEVICE_BUILT_IN_KERNELS:
        return ocl_info_str("", size, value, size_ret);
    case CL_DEVICE_MAX_WORK_ITEM_SIZES:
        return ocl_info(wi, sizeof(wi), size, value, size_ret);
    case CL_DEVICE_PARTITION_PROPERTIES:
    case CL_DEVICE_PARTITION_TYPE:
        return ocl_info(none, name == CL_DEVICE_PARTITION_TYPE ? 0 : sizeof(none), size, value,
                        size_ret);
    default:
        return -1;
    }
}

static cl_int device_info_sizes(cl_device_info name, size_t size, void *value, size_t *size_ret)
{
    switch (name) {
    case CL_DEVICE_MAX_WORK_GROUP_SIZE:
        INFO_T(size_t, ocl_env()->max_wg);
    case CL_DEVICE_MAX_PARAMETER_SIZE:
        INFO_T(size_t, 4352);
    case CL_DEVICE_PROFILING_TIMER_RESOLUTION:
        INFO_T(size_t, 1);
    case CL_DEVICE_PRINTF_BUFFER_SIZE:
        INFO_T(size_t, 1 << 20);
    case CL_DEVICE_IMAGE2D_MAX_WIDTH:
    case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
        INFO_T(size_t, OCL_IMG2D_MAX);
    case CL_DEVICE_IMAGE3D_MAX_WIDTH:
    case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
    case CL_DEVICE_IMAGE3D_MAX_DEPTH:
        INFO_T(size_t, OCL_IMG3D_MAX);
    case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
        INFO_T(size_t, OCL_IMG_BUFFER_MAX);
    case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE:
        INFO_T(size_t, OCL_IMG_ARRAY_MAX);
    default:
        return -1;
    }
}

static cl_int device_info_uint(cl_device_info name, size_t size, void *value, size_t *size_ret)
{
    const struct ocl_env *e = ocl_env();

    switch (name) {
    case CL_DEVICE_VENDOR_ID:
        INFO_T(cl_uint, 0x10de);
    case CL_DEVICE_MAX_COMPUTE_UNITS:
        INFO_T(cl_uint, e->compute_units);
    case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS:
        INFO_T(cl_uint, 3);
    case CL_DEVICE_MAX_CLOCK_FREQUENCY:
        /* The configured core clock (700 for the GTX 480, whose shader clock is 1401). */
        INFO_T(cl_uint, (cl_uint)(e->core_mhz + 0.5));
    case CL_DEVICE_ADDRESS_BITS:
        INFO_T(cl_uint, 64);
    case CL_DEVICE_MEM_BASE_ADDR_ALIGN:
        INFO_T(cl_uint, 4096);
    case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE:
        INFO_T(cl_uint, 128);
    case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE:
        INFO_T(cl_uint, e->l2_line);
    case CL_DEVICE_MAX_CONSTANT_ARGS:
        INFO_T(cl_uint, 9);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
    case CL_DEVICE_REFERENCE_COUNT:
        INFO_T(cl_uint, 1);
    case CL_DEVICE_MAX_READ_IMAGE_ARGS:
        INFO_T(cl_uint, 128); /* the OpenCL 1.2 minimums, as Fermi's driver reports */
    case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
        INFO_T(cl_uint, 8);
    case CL_DEVICE_MAX_SAMPLERS:
        INFO_T(cl_uint, 16);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF:
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
        INFO_T(cl_uint, 0);
    default:
        return -1;
    }
}

static cl_int device_info_misc(cl_device_info name, size_t size, void *value, size_t *size_ret)
{
    const struct ocl_env *e = ocl_env();
    const cl_device_fp_config fp = CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
                                   CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_FMA;

    switch (name) {
    case CL_DEVICE_TYPE:
        INFO_T(cl_device_type, CL_DEVICE_TYPE_GPU);
    case CL_DEVICE_MAX_MEM_ALLOC_SIZE:
        INFO_T(cl_ulong, OCL_GLOBAL_MEM_BYTES / 4);
    case CL_DEVICE_GLOBAL_MEM_SIZE:
        INFO_T(cl_ulong, OCL_GLOBAL_MEM_BYTES);
    case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE:
        INFO_T(cl_ulong, e->l2_bytes);
    case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE:
        INFO_T(cl_ulong, 65536);
    case CL_DEVICE_LOCAL_MEM_SIZE:
        INFO_T(cl_ulong, e->local_bytes);
    case CL_DEVICE_SINGLE_FP_CONFIG:
    case CL_DEVICE_DOUBLE_FP_CONFIG:
        INFO_T(cl_device_fp_config, fp);
    case CL_DEVICE_HALF_FP_CONFIG:
        INFO_T(cl_device_fp_config, 0);
    case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE:
        INFO_T(cl_device_mem_cache_type, CL_READ_WRITE_CACHE);
    case CL_DEVICE_LOCAL_MEM_TYPE:
        INFO_T(cl_device_local_mem_type, CL_LOCAL);
    case CL_DEVICE_EXECUTION_CAPABILITIES:
        INFO_T(cl_device_exec_capabilities, CL_EXEC_KERNEL);
    case CL_DEVICE_QUEUE_PROPERTIES:
        INFO_T(cl_command_queue_properties, CL_QUEUE_PROFILING_ENABLE);
    case CL_DEVICE_PLATFORM:
        INFO_T(cl_platform_id, &the_platform);
    case CL_DEVICE_PARENT_DEVICE:
        INFO_T(cl_device_id, NULL);
    case CL_DEVICE_PARTITION_AFFINITY_DOMAIN:
        INFO_T(cl_device_affinity_domain, 0);
    case CL_DEVICE_ERROR_CORRECTION_SUPPORT:
    case CL_DEVICE_HOST_UNIFIED_MEMORY:
    case CL_DEVICE_LINKER_AVAILABLE:
        INFO_T(cl_bool, CL_FALSE);
    case CL_DEVICE_AVAILABLE:
        INFO_T(cl_bool, e->bad ? CL_FALSE : CL_TRUE);
    case CL_DEVICE_IMAGE_SUPPORT:
    case CL_DEVICE_ENDIAN_LITTLE:
    case CL_DEVICE_COMPILER_AVAILABLE:
    case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC:
        INFO_T(cl_bool, CL_TRUE);
    default:
        return -1;
    }
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceInfo(cl_device_id d, cl_device_info name, size_t size,
                                                void *value, size_t *size_ret)
{
    cl_int rc;

    if (d && d == ocl_cpu_device())
        return ocl_cpu_device_info(name, size, value, size_ret);
    if (d != &the_device)
        return CL_INVALID_DEVICE;
    rc = device_info_text(name, size, value, size_ret);
    if (rc == -1)
        rc = device_info_sizes(name, size, value, size_ret);
    if (rc == -1)
        rc = device_info_uint(name, size, value, size_ret);
    if (rc == -1)
        rc = device_info_misc(name, size, value, size_ret);
    return rc == -1 ? CL_INVALID_VALUE : rc;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainDevice(cl_device_id d)
{
    return ocl_device_ok(d) ? CL_SUCCESS : CL_INVALID_DEVICE;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseDevice(cl_device_id d)
{
    return ocl_device_ok(d) ? CL_SUCCESS : CL_INVALID_DEVICE;
}

CL_API_ENTRY cl_int CL_API_CALL clCreateSubDevices(cl_device_id d,
                                                   const cl_device_partition_property *props,
                                                   cl_uint n, cl_device_id *out, cl_uint *num)
{
    (void)props, (void)n, (void)out, (void)num;
    return ocl_device_ok(d) ? CL_INVALID_VALUE : CL_INVALID_DEVICE;
}

/* The platform's devices: the simulated GPU and, when PoCL loads, the CPU. */
bool ocl_device_ok(cl_device_id d)
{
    return d && (d == ocl_device() || d == ocl_cpu_device());
}

/* The CPU device's answers come from PoCL except where ptxsim's context decides them. */
cl_int ocl_cpu_device_info(cl_device_info name, size_t size, void *value, size_t *size_ret)
{
    const struct ocl_pocl *p = ocl_pocl();
    cl_platform_id me = ocl_platform();

    if (!p)
        return CL_INVALID_DEVICE;
    if (name == CL_DEVICE_PLATFORM)
        return ocl_info(&me, sizeof(me), size, value, size_ret);
    /* Buffers live in the context's shared memory, whose rules are the GPU's: same answers. */
    if (name == CL_DEVICE_MEM_BASE_ADDR_ALIGN || name == CL_DEVICE_MAX_MEM_ALLOC_SIZE ||
        name == CL_DEVICE_GLOBAL_MEM_SIZE)
        return clGetDeviceInfo(ocl_device(), name, size, value, size_ret);
    return p->d->clGetDeviceInfo(p->dev, name, size, value, size_ret);
}
