/*
 * The platform, its one device, contexts, the ICD entry points and shared
 * helpers. The device describes a GTX 480 (Fermi, compute capability 2.0),
 * the machine of ptxsim's default configuration.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "runtime/opencl/ocl.h"

#define OCL_EXTENSIONS                                                                   \
    "cl_khr_icd cl_khr_global_int32_base_atomics cl_khr_global_int32_extended_atomics " \
    "cl_khr_local_int32_base_atomics cl_khr_local_int32_extended_atomics "              \
    "cl_khr_byte_addressable_store cl_khr_fp64"
#define OCL_GLOBAL_MEM_BYTES (1536ull << 20)

static struct _cl_platform_id the_platform = {&ocl_dispatch, OCL_MAGIC_PLATFORM, 1};
static struct _cl_device_id the_device = {&ocl_dispatch, OCL_MAGIC_DEVICE, 1};

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

    return o && o->magic == magic && o->refs > 0;
}

cl_int ocl_info(const void *src, size_t n, size_t size, void *value, size_t *size_ret)
{
    if (value && size < n)
        return CL_INVALID_VALUE;
    if (value && n)
        memcpy(value, src, n);
    if (size_ret)
        *size_ret = n;
    return CL_SUCCESS;
}

cl_int ocl_info_str(const char *s, size_t size, void *value, size_t *size_ret)
{
    return ocl_info(s, strlen(s) + 1, size, value, size_ret);
}

void ocl_notify(cl_context ctx, const char *fmt, ...)
{
    char msg[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (ctx && ctx->notify)
        ctx->notify(msg, NULL, 0, ctx->notify_data);
    else
        fprintf(stderr, "ptxsim opencl: %s\n", msg);
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
    if (platforms)
        platforms[0] = &the_platform;
    if (num)
        *num = 1;
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetPlatformIDs(cl_uint n, cl_platform_id *platforms,
                                                 cl_uint *num)
{
    return ocl_platform_ids(n, platforms, num);
}

static cl_int ocl_platform_info(cl_platform_id p, cl_platform_info name, size_t size,
                                void *value, size_t *size_ret)
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

static void *ocl_extension_address(const char *name)
{
    if (name && !strcmp(name, "clIcdGetPlatformIDsKHR"))
        return (void *)clIcdGetPlatformIDsKHR;
    if (name && !strcmp(name, "clGetPlatformInfo"))
        return (void *)ocl_platform_info;
    return NULL;
}

CL_API_ENTRY void *CL_API_CALL clGetExtensionFunctionAddress(const char *name)
{
    return ocl_extension_address(name);
}

CL_API_ENTRY void *CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id p,
                                                                        const char *name)
{
    return p == &the_platform ? ocl_extension_address(name) : NULL;
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

void *CL_API_CALL ocl_d_ext_address(const char *name)
{
    return ocl_extension_address(name);
}

void *CL_API_CALL ocl_d_ext_address_platform(cl_platform_id p, const char *name)
{
    return p == &the_platform ? ocl_extension_address(name) : NULL;
}

/* ---- device ------------------------------------------------------------ */

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id p, cl_device_type type, cl_uint n,
                                               cl_device_id *devices, cl_uint *num)
{
    bool match = type == CL_DEVICE_TYPE_ALL || (type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_DEFAULT));

    if (p && p != &the_platform)
        return CL_INVALID_PLATFORM;
    if (type & ~(cl_device_type)(CL_DEVICE_TYPE_ALL))
        return CL_INVALID_DEVICE_TYPE;
    if ((!devices && !num) || (devices && n == 0))
        return CL_INVALID_VALUE;
    if (num)
        *num = match ? 1 : 0;
    if (!match)
        return CL_DEVICE_NOT_FOUND;
    if (devices)
        devices[0] = &the_device;
    return CL_SUCCESS;
}

#define INFO_T(type, v)                                          \
    do {                                                         \
        type x_ = (v);                                           \
        return ocl_info(&x_, sizeof(x_), size, value, size_ret); \
    } while (0)

/* Strings and arrays; CL_INVALID_VALUE (via -1) for names that are not. */
static cl_int device_info_text(cl_device_info name, size_t size, void *value, size_t *size_ret)
{
    static const size_t wi[3] = {1024, 1024, 64};
    static const cl_device_partition_property none[1] = {0};

    switch (name) {
    case CL_DEVICE_NAME:
        return ocl_info_str("GeForce GTX 480 (ptxsim)", size, value, size_ret);
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
        INFO_T(size_t, 1024);
    case CL_DEVICE_MAX_PARAMETER_SIZE:
        INFO_T(size_t, 4352);
    case CL_DEVICE_PROFILING_TIMER_RESOLUTION:
        INFO_T(size_t, 1);
    case CL_DEVICE_PRINTF_BUFFER_SIZE:
        INFO_T(size_t, 1 << 20);
    case CL_DEVICE_IMAGE2D_MAX_WIDTH:
    case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
    case CL_DEVICE_IMAGE3D_MAX_WIDTH:
    case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
    case CL_DEVICE_IMAGE3D_MAX_DEPTH:
    case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
    case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE:
        INFO_T(size_t, 0);
    default:
        return -1;
    }
}

static cl_int device_info_uint(cl_device_info name, size_t size, void *value, size_t *size_ret)
{
    switch (name) {
    case CL_DEVICE_VENDOR_ID:
        INFO_T(cl_uint, 0x10de);
    case CL_DEVICE_MAX_COMPUTE_UNITS:
        INFO_T(cl_uint, 15);
    case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS:
        INFO_T(cl_uint, 3);
    case CL_DEVICE_MAX_CLOCK_FREQUENCY:
        INFO_T(cl_uint, 1401);
    case CL_DEVICE_ADDRESS_BITS:
        INFO_T(cl_uint, 64);
    case CL_DEVICE_MEM_BASE_ADDR_ALIGN:
        INFO_T(cl_uint, 4096);
    case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE:
        INFO_T(cl_uint, 128);
    case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE:
        INFO_T(cl_uint, 128);
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
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF:
    case CL_DEVICE_MAX_READ_IMAGE_ARGS:
    case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
    case CL_DEVICE_MAX_SAMPLERS:
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
        INFO_T(cl_uint, 0);
    default:
        return -1;
    }
}

static cl_int device_info_misc(cl_device_info name, size_t size, void *value, size_t *size_ret)
{
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
        INFO_T(cl_ulong, 15 * 16384);
    case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE:
        INFO_T(cl_ulong, 65536);
    case CL_DEVICE_LOCAL_MEM_SIZE:
        INFO_T(cl_ulong, 49152);
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
    case CL_DEVICE_IMAGE_SUPPORT:
    case CL_DEVICE_ERROR_CORRECTION_SUPPORT:
    case CL_DEVICE_HOST_UNIFIED_MEMORY:
    case CL_DEVICE_LINKER_AVAILABLE:
        INFO_T(cl_bool, CL_FALSE);
    case CL_DEVICE_ENDIAN_LITTLE:
    case CL_DEVICE_AVAILABLE:
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
    return d == &the_device ? CL_SUCCESS : CL_INVALID_DEVICE;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseDevice(cl_device_id d)
{
    return d == &the_device ? CL_SUCCESS : CL_INVALID_DEVICE;
}

CL_API_ENTRY cl_int CL_API_CALL clCreateSubDevices(cl_device_id d,
                                                   const cl_device_partition_property *props,
                                                   cl_uint n, cl_device_id *out, cl_uint *num)
{
    (void)props, (void)n, (void)out, (void)num;
    return d == &the_device ? CL_INVALID_VALUE : CL_INVALID_DEVICE;
}
