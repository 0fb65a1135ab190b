/*
 * Build options of clBuildProgram: -D with and without values changes what
 * a kernel computes, -I finds a header in a temporary directory, -cl-std=CL1.2
 * sets __OPENCL_C_VERSION__ (120; the default differs between platforms), -w silences a warning
 * that -Werror turns into CL_BUILD_PROGRAM_FAILURE (the log giving line:column), and
 * -cl-fast-relaxed-math and -cl-mad-enable are accepted.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* mkdtemp */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

static const char *defs_src = "#ifndef OFFSET\n"
                              "#define OFFSET 0\n"
                              "#endif\n"
                              "__kernel void k(__global int *out) {\n"
                              "  int i = get_global_id(0);\n"
                              "#ifdef FLAG\n"
                              "  out[i] = SCALE * i + OFFSET + 1000 * FLAG;\n"
                              "#else\n"
                              "  out[i] = SCALE * i + OFFSET;\n"
                              "#endif\n"
                              "}\n";

static const char *inc_src = "#include \"bo_hdr.h\"\n"
                             "__kernel void k(__global int *out) {\n"
                             "  out[get_global_id(0)] = HDR_VAL + (int)get_global_id(0);\n"
                             "}\n";

static const char *std_src = "__kernel void k(__global int *out) {\n"
                             "  out[get_global_id(0)] = __OPENCL_C_VERSION__;\n"
                             "}\n";

/* Line 3, column 1: "non-void function does not return a value" (-Wreturn-type). */
static const char *warn_src = "int helper(int x) {\n"
                              "  if (x > 0) return x;\n"
                              "}\n"
                              "__kernel void k(__global int *out) {\n"
                              "  out[get_global_id(0)] = helper(7);\n"
                              "}\n";

static const char *math_src = "__kernel void k(__global float *out) {\n"
                              "  int i = get_global_id(0);\n"
                              "  float a = (float)i * 0.5f, b = 4.0f, c = 0.25f;\n"
                              "  out[i] = a * b + c;\n"
                              "}\n";

#define N 8

/* Builds src with options and prints the N values its kernel writes. */
static void run(struct h_env *h, const char *tag, const char *src, const char *options, int fl)
{
    cl_program p = h_build(h, src, options);
    cl_kernel k = h_kernel(p, "k");
    cl_mem m = h_buffer(h, CL_MEM_READ_WRITE, N * sizeof(int), NULL);
    size_t global = N;
    int vi[N];
    float vf[N];
    char t[64];

    h_check(clSetKernelArg(k, 0, sizeof(m), &m), "arg");
    h_check(clEnqueueNDRangeKernel(h->q, k, 1, NULL, &global, NULL, 0, NULL, NULL), "launch");
    h_read(h, m, sizeof(vi), fl ? (void *)vf : (void *)vi);
    for (int i = 0; i < N; i += 3) {
        snprintf(t, sizeof(t), "%s%d", tag, i);
        if (fl)
            h_out_f(t, vf[i], 0);
        else
            h_out_i(t, vi[i]);
    }
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* Builds src with options; returns the status and copies the log. */
static cl_int try_build(struct h_env *h, const char *src, const char *options, char *log,
                        size_t size)
{
    cl_int rc;
    cl_program p = clCreateProgramWithSource(h->ctx, 1, &src, NULL, &rc);

    h_check(rc, "clCreateProgramWithSource");
    rc = clBuildProgram(p, 1, &h->dev, options, NULL, NULL);
    h_check(clGetProgramBuildInfo(p, h->dev, CL_PROGRAM_BUILD_LOG, size, log, NULL), "log");
    clReleaseProgram(p);
    return rc;
}

static void include_dir(struct h_env *h)
{
    char dir[] = "/tmp/ptxsim-bo.XXXXXX", path[96], opt[128];
    FILE *fp;

    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        exit(2);
    }
    snprintf(path, sizeof(path), "%s/bo_hdr.h", dir);
    fp = fopen(path, "w");
    if (!fp || fputs("#define HDR_VAL 4200\n", fp) < 0 || fclose(fp)) {
        perror(path);
        exit(2);
    }
    snprintf(opt, sizeof(opt), "-I %s", dir);
    run(h, "inc_sep", inc_src, opt, 0);
    snprintf(opt, sizeof(opt), "-I%s -cl-std=CL1.2", dir);
    run(h, "inc_join", inc_src, opt, 0);
    remove(path);
    rmdir(dir);
}

static void warnings(struct h_env *h)
{
    static char log[65536];
    cl_int rc;

    rc = try_build(h, warn_src, "-w", log, sizeof(log));
    h_out_chk("w_builds", rc == CL_SUCCESS);
    h_out_chk("w_silent", strstr(log, "warning") == NULL);
    rc = try_build(h, warn_src, "-Werror", log, sizeof(log));
    fprintf(stderr, "-Werror log:\n%s\n", log);
    h_out_chk("werror_fails", rc == CL_BUILD_PROGRAM_FAILURE);
    h_out_chk("werror_log_3:1", strstr(log, ":3:1:") != NULL);
    h_out_chk("werror_log_error", strstr(log, "error") != NULL);
}

int main(void)
{
    struct h_env h;

    h_init(&h);
    run(&h, "d_3_5_", defs_src, "-D SCALE=3 -DOFFSET=5", 0);
    run(&h, "d_2_", defs_src, "-DSCALE=2", 0);
    run(&h, "d_flag_", defs_src, "-DSCALE=1 -DFLAG -D OFFSET=-7", 0);
    include_dir(&h);
    run(&h, "std", std_src, "-cl-std=CL1.2", 0);
    warnings(&h);
    run(&h, "fast", math_src, "-cl-fast-relaxed-math", 1);
    run(&h, "mad", math_src, "-cl-mad-enable", 1);
    run(&h, "both", math_src, "-cl-mad-enable -cl-fast-relaxed-math -w", 1);
    h_done(&h);
    return 0;
}
