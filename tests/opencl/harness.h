/*
 * A small harness for the OpenCL test programs: picks the platform whose
 * name contains $OCL_PLATFORM (default "ptxsim"), makes a context and an
 * in-order queue on its first device, builds programs, and prints results
 * one per line so run.sh can compare two platforms:
 *   I <tag> <integer>          compared exactly
 *   F <tag> <ulp> <hex bits>   float, compared within <ulp> units in the last place
 *   I chk_<tag> 0|1            a check of the program's own; 0 fails the test
 * Any OpenCL error ends the program with status 2 and a message on stderr.
 */
#ifndef PTXSIM_TESTS_OPENCL_HARNESS_H
#define PTXSIM_TESTS_OPENCL_HARNESS_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

struct h_env {
    cl_platform_id plat;
    cl_device_id dev;
    cl_context ctx;
    cl_command_queue q;
};

void h_init(struct h_env *h);
void h_done(struct h_env *h);
/* Builds src; on failure prints the build log and exits 2. */
cl_program h_build(struct h_env *h, const char *src, const char *options);
cl_kernel h_kernel(cl_program p, const char *name);
cl_mem h_buffer(struct h_env *h, cl_mem_flags flags, size_t size, void *host);
void h_read(struct h_env *h, cl_mem m, size_t size, void *host);
void h_check(cl_int rc, const char *what);
const char *h_err_name(cl_int rc);
void h_out_i(const char *tag, long long v);
void h_out_chk(const char *tag, int cond);
void h_out_f(const char *tag, float v, int ulp);
/* Whether the platform is ptxsim (for checks of ptxsim's own behaviour). */
int h_is_ptxsim(struct h_env *h);
/* Whether the device lists extension ext. */
int h_has_ext(struct h_env *h, const char *ext);
/*
 * Compiles OpenCL C offline: clang-14 -cl-std=CL1.2 ARGS -c (ARGS choose the
 * target and -O level), then, when spirv, llvm-spirv-14. Returns the output
 * file's bytes (malloc'd, *len set), or NULL when a tool is missing or fails
 * (said on stderr).
 */
unsigned char *h_offline(const char *src, const char *args, int spirv, size_t *len);

#endif
