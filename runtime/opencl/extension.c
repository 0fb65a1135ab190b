/*
 * Extension function lookup (clGetExtensionFunctionAddress{,ForPlatform}): the loader asks
 * for clIcdGetPlatformIDsKHR and clGetPlatformInfo, programs for clCreateProgramWithILKHR.
 * Kept apart from platform.c because it names entry points of other files (programs), which
 * would otherwise make platform.c and program.c depend on each other.
 */
#include <string.h>

#include "runtime/opencl/ocl.h"

#include <CL/cl_ext.h>

static void *ocl_extension_address(const char *name)
{
    if (name && !strcmp(name, "clIcdGetPlatformIDsKHR"))
        return (void *)clIcdGetPlatformIDsKHR;
    if (name && !strcmp(name, "clGetPlatformInfo"))
        return (void *)ocl_d_platform_info;
    if (name && !strcmp(name, "clCreateProgramWithILKHR"))
        return (void *)ocl_create_program_with_il;
    return NULL;
}

CL_API_ENTRY void *CL_API_CALL clGetExtensionFunctionAddress(const char *name)
{
    return ocl_extension_address(name);
}

CL_API_ENTRY void *CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id p,
                                                                        const char *name)
{
    return p == ocl_platform() ? ocl_extension_address(name) : NULL;
}

void *CL_API_CALL ocl_d_ext_address(const char *name)
{
    return ocl_extension_address(name);
}

void *CL_API_CALL ocl_d_ext_address_platform(cl_platform_id p, const char *name)
{
    return p == ocl_platform() ? ocl_extension_address(name) : NULL;
}
