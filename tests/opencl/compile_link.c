/*
 * Separate compilation: clCompileProgram with an embedded header (named
 * "inc/params.h" for #include), a library made by clLinkProgram
 * -create-library, and an executable linked from a compiled object and the
 * library, run. Binary types along the way, a link with an unresolved
 * function (CL_LINK_PROGRAM_FAILURE, with a log) and bad linker options
 * (CL_INVALID_LINKER_OPTIONS).
 */
#include <stdio.h>

#include "harness.h"

static const char *hdr = "#define SCALE 3\nint helper(int x);\n";
static const char *lib_src = "#include \"inc/params.h\"\n"
                             "int helper(int x) { return x * SCALE + 1; }\n";
static const char *main_src =
    "#include \"inc/params.h\"\n"
    "__kernel void k(__global int *o) { size_t i = get_global_id(0); o[i] = helper((int)i); }\n";
static const char *lonely_src = "int missing(int);\n"
                                "__kernel void k(__global int *o) { o[0] = missing(1); }\n";

#define N 64

static cl_program source(struct h_env *h, const char *src)
{
    cl_int rc;
    cl_program p = clCreateProgramWithSource(h->ctx, 1, &src, NULL, &rc);

    h_check(rc, "clCreateProgramWithSource");
    return p;
}

static cl_program compiled(struct h_env *h, const char *src, cl_program header)
{
    const char *name = "inc/params.h";
    cl_program p = source(h, src);

    h_check(clCompileProgram(p, 1, &h->dev, NULL, 1, &header, &name, NULL, NULL), "compile");
    return p;
}

static cl_program_binary_type btype(struct h_env *h, cl_program p)
{
    cl_program_binary_type t = 0;

    h_check(clGetProgramBuildInfo(p, h->dev, CL_PROGRAM_BINARY_TYPE, sizeof(t), &t, NULL), "bt");
    return t;
}

static void failures(struct h_env *h, cl_program header)
{
    const char *name = "inc/params.h";
    cl_program lonely = source(h, lonely_src), out;
    cl_int rc;

    h_check(clCompileProgram(lonely, 0, NULL, NULL, 1, &header, &name, NULL, NULL), "compile");
    out = clLinkProgram(h->ctx, 0, NULL, NULL, 1, &lonely, NULL, NULL, &rc);
    h_out_chk("unresolved_link_fails", rc != CL_SUCCESS);
    if (out)
        clReleaseProgram(out);
    out = clLinkProgram(h->ctx, 0, NULL, "-no-such-option", 1, &lonely, NULL, NULL, &rc);
    h_out_chk("bad_linker_option", rc == CL_INVALID_LINKER_OPTIONS);
    if (out)
        clReleaseProgram(out);
    clReleaseProgram(lonely);
}

int main(void)
{
    struct h_env h;
    int o[N], ok = 1;
    size_t global = N;
    cl_int rc;
    char t[32];

    h_init(&h);
    cl_program header = source(&h, hdr);
    cl_program lib_obj = compiled(&h, lib_src, header);
    cl_program main_obj = compiled(&h, main_src, header);
    h_out_chk("compiled_object", btype(&h, main_obj) == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    cl_program lib =
        clLinkProgram(h.ctx, 1, &h.dev, "-create-library", 1, &lib_obj, NULL, NULL, &rc);
    h_check(rc, "link library");
    h_out_chk("library", btype(&h, lib) == CL_PROGRAM_BINARY_TYPE_LIBRARY);
    cl_program inputs[2] = {main_obj, lib};
    cl_program exe = clLinkProgram(h.ctx, 1, &h.dev, NULL, 2, inputs, NULL, NULL, &rc);
    h_check(rc, "link executable");
    h_out_chk("executable", btype(&h, exe) == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    cl_kernel k = h_kernel(exe, "k");
    cl_mem m = h_buffer(&h, CL_MEM_WRITE_ONLY, sizeof(o), NULL);
    h_check(clSetKernelArg(k, 0, sizeof(cl_mem), &m), "arg0");
    h_check(clEnqueueNDRangeKernel(h.q, k, 1, NULL, &global, NULL, 0, NULL, NULL), "launch");
    h_read(&h, m, sizeof(o), o);
    for (int i = 0; i < N; i++) {
        ok &= o[i] == 3 * i + 1;
        if (i % 9 == 0) {
            snprintf(t, sizeof(t), "o%d", i);
            h_out_i(t, o[i]);
        }
    }
    h_out_chk("linked_kernel_results", ok);
    failures(&h, header);
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseProgram(exe);
    clReleaseProgram(lib);
    clReleaseProgram(main_obj);
    clReleaseProgram(lib_obj);
    clReleaseProgram(header);
    h_done(&h);
    return 0;
}
