/*
 * clGetKernelArgInfo: every query of every argument of a kernel with
 * __global, __local, __constant and private arguments and const, restrict
 * and volatile qualifiers, built with -cl-kernel-arg-info (from source, and
 * compiled then linked); the error codes; and a build without the option,
 * where ptxsim says CL_KERNEL_ARG_INFO_NOT_AVAILABLE (OpenCL 1.2, 5.7.3;
 * other platforms may answer anyway).
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"

static const char *src =
    "typedef float myfloat;\n"
    "__kernel void args(__global const float *restrict a, __local int *l,\n"
    "                   __constant float4 *c, volatile __global uint *v, myfloat s,\n"
    "                   int2 p, unsigned int u, __global float *out) {\n"
    "  l[0] = (int)u;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[0] = a[0] + c[0].y + s + (float)p.x + (float)l[0] + (float)v[0];\n"
    "}\n"
    "__kernel void none(void) {}\n";

struct want {
    const char *name, *type;
    cl_uint addr;
    cl_bitfield qual;
};

static const struct want wants[] = {
    {"a", "float*", CL_KERNEL_ARG_ADDRESS_GLOBAL,
     CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_RESTRICT},
    {"l", "int*", CL_KERNEL_ARG_ADDRESS_LOCAL, CL_KERNEL_ARG_TYPE_NONE},
    {"c", "float4*", CL_KERNEL_ARG_ADDRESS_CONSTANT, CL_KERNEL_ARG_TYPE_CONST},
    {"v", "uint*", CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_VOLATILE},
    {"s", "myfloat", CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_TYPE_NONE},
    {"p", "int2", CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_TYPE_NONE},
    {"u", "uint", CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_TYPE_NONE},
    {"out", "float*", CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_NONE},
};

#define NARGS (sizeof(wants) / sizeof(wants[0]))

/* Queries every parameter of argument i and prints what was found. */
static void query_arg(cl_kernel k, const char *pre, cl_uint i)
{
    char tag[64], name[64], type[64];
    cl_uint addr, access;
    cl_bitfield qual;
    size_t len;

    h_check(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(addr), &addr, NULL),
            "address qualifier");
    h_check(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof(access), &access, NULL),
            "access qualifier");
    h_check(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof(qual), &qual, NULL),
            "type qualifier");
    h_check(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, sizeof(type), type, NULL),
            "type name");
    h_check(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_NAME, 0, NULL, &len), "name size");
    h_check(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_NAME, sizeof(name), name, NULL), "name");
    snprintf(tag, sizeof(tag), "%s%u_addr", pre, i);
    h_out_i(tag, (long long)(addr - CL_KERNEL_ARG_ADDRESS_GLOBAL));
    snprintf(tag, sizeof(tag), "%s%u_addr_ok", pre, i);
    h_out_chk(tag, addr == wants[i].addr);
    snprintf(tag, sizeof(tag), "%s%u_access_none", pre, i);
    h_out_chk(tag, access == CL_KERNEL_ARG_ACCESS_NONE);
    snprintf(tag, sizeof(tag), "%s%u_qual", pre, i);
    h_out_i(tag, (long long)qual);
    snprintf(tag, sizeof(tag), "%s%u_qual_ok", pre, i);
    h_out_chk(tag, qual == wants[i].qual);
    snprintf(tag, sizeof(tag), "%s%u_type_ok", pre, i);
    h_out_chk(tag, !strcmp(type, wants[i].type));
    snprintf(tag, sizeof(tag), "%s%u_name_len", pre, i);
    h_out_i(tag, (long long)len);
    snprintf(tag, sizeof(tag), "%s%u_name_ok", pre, i);
    h_out_chk(tag, !strcmp(name, wants[i].name));
    if (strcmp(type, wants[i].type) || strcmp(name, wants[i].name))
        fprintf(stderr, "arg %u: type '%s' name '%s'\n", i, type, name);
}

static void errors(cl_kernel k)
{
    char small[2];
    cl_uint nargs, u;

    h_check(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof(nargs), &nargs, NULL), "num args");
    h_out_i("nargs", nargs);
    h_out_i("bad_index",
            clGetKernelArgInfo(k, nargs, CL_KERNEL_ARG_NAME, sizeof(small), small, NULL));
    h_out_i("bad_param", clGetKernelArgInfo(k, 0, CL_KERNEL_FUNCTION_NAME, sizeof(u), &u, NULL));
    h_out_i("small_name",
            clGetKernelArgInfo(k, 4, CL_KERNEL_ARG_TYPE_NAME, sizeof(small), small, NULL));
    h_out_i("small_addr", clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, 1, &u, NULL));
    h_out_i("null_kernel", clGetKernelArgInfo(NULL, 0, CL_KERNEL_ARG_NAME, 0, NULL, NULL));
}

/* Whether every argument's name and type come back as declared. */
static int all_match(cl_kernel k, cl_int *first_rc)
{
    char name[64], type[64];
    int ok = 1;

    *first_rc = clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, sizeof(name), name, NULL);
    for (cl_uint i = 0; i < NARGS && !*first_rc; i++) {
        ok &= !clGetKernelArgInfo(k, i, CL_KERNEL_ARG_NAME, sizeof(name), name, NULL) &&
              !strcmp(name, wants[i].name);
        ok &= !clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, sizeof(type), type, NULL) &&
              !strcmp(type, wants[i].type);
    }
    return ok;
}

/*
 * The same kernel through clCompileProgram and clLinkProgram: ptxsim keeps
 * the objects' argument info; PoCL has none for linked programs.
 */
static void linked(struct h_env *h)
{
    cl_int rc;
    cl_program obj = clCreateProgramWithSource(h->ctx, 1, &src, NULL, &rc), exe;
    cl_kernel k;
    int ok;

    h_check(rc, "create for compile");
    h_check(clCompileProgram(obj, 1, &h->dev, "-cl-kernel-arg-info", 0, NULL, NULL, NULL, NULL),
            "compile");
    exe = clLinkProgram(h->ctx, 1, &h->dev, "", 1, &obj, NULL, NULL, &rc);
    h_check(rc, "link");
    k = h_kernel(exe, "args");
    ok = all_match(k, &rc);
    if (h_is_ptxsim(h))
        h_out_chk("linked", !rc && ok);
    else
        h_out_chk("linked", rc == CL_KERNEL_ARG_INFO_NOT_AVAILABLE || (!rc && ok));
    clReleaseKernel(k);
    clReleaseProgram(exe);
    clReleaseProgram(obj);
}

int main(void)
{
    struct h_env h;
    cl_program p, plain;
    cl_kernel k, kn, none;
    cl_uint u;
    cl_int rc;

    h_init(&h);
    p = h_build(&h, src, "-cl-kernel-arg-info");
    k = h_kernel(p, "args");
    for (cl_uint i = 0; i < NARGS; i++)
        query_arg(k, "a", i);
    errors(k);
    none = h_kernel(p, "none");
    h_out_i("none_any_index", clGetKernelArgInfo(none, 0, CL_KERNEL_ARG_NAME, 0, NULL, NULL));
    linked(&h);

    plain = h_build(&h, src, "");
    kn = h_kernel(plain, "args");
    rc = clGetKernelArgInfo(kn, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(u), &u, NULL);
    h_out_chk("noinfo", h_is_ptxsim(&h) ? rc == CL_KERNEL_ARG_INFO_NOT_AVAILABLE
                                        : rc == CL_KERNEL_ARG_INFO_NOT_AVAILABLE || !rc);
    h_out_i("noinfo_bad_index", clGetKernelArgInfo(kn, 99, CL_KERNEL_ARG_NAME, 0, NULL, NULL));
    clReleaseKernel(kn);
    clReleaseProgram(plain);
    clReleaseKernel(none);
    clReleaseKernel(k);
    clReleaseProgram(p);
    h_done(&h);
    return 0;
}
