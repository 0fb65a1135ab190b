/* A program that does not compile: CL_BUILD_PROGRAM_FAILURE and a log with line:column. */
#include <stdio.h>
#include <string.h>

#include "harness.h"

static const char *src =
    "__kernel void bad(__global int *a) {\n"
    "  int i = get_global_id(0);\n"
    "  a[i] = undefined_thing + 1;\n"
    "}\n";

int main(void)
{
    struct h_env h;
    static char log[65536];
    cl_build_status st;
    cl_int rc;

    h_init(&h);
    cl_program p = clCreateProgramWithSource(h.ctx, 1, &src, NULL, &rc);
    h_check(rc, "clCreateProgramWithSource");
    rc = clBuildProgram(p, 1, &h.dev, "-DFOO=1 -w", NULL, NULL);
    h_out_chk("build_failed", rc == CL_BUILD_PROGRAM_FAILURE);
    h_check(clGetProgramBuildInfo(p, h.dev, CL_PROGRAM_BUILD_STATUS, sizeof(st), &st, NULL),
            "build status");
    h_out_chk("status_error", st == CL_BUILD_ERROR);
    h_check(clGetProgramBuildInfo(p, h.dev, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL),
            "build log");
    fprintf(stderr, "build log:\n%s\n", log);
    h_out_chk("log_has_3:10", strstr(log, ":3:10:") != NULL);
    h_out_chk("log_names_identifier", strstr(log, "undefined_thing") != NULL);
    h_out_chk("create_kernel_fails", clCreateKernel(p, "bad", &rc) == NULL &&
                                       rc == CL_INVALID_PROGRAM_EXECUTABLE);
    h_out_chk("bad_option_rejected",
            clBuildProgram(p, 1, &h.dev, "-no-such-option", NULL, NULL) == CL_INVALID_BUILD_OPTIONS);
    clReleaseProgram(p);
    h_done(&h);
    return 0;
}
