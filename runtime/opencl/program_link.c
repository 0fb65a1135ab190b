/*
 * Separate compilation (OpenCL 1.2 section 5.6.3): clCompileProgram turns a
 * source program into a compiled object, nvptx64 LLVM bitcode made by clang
 * with the embedded headers visible to #include; clLinkProgram links compiled
 * objects and libraries (and LLVM binaries, SPIR included) into a library
 * (-create-library: bitcode again) or an executable (PTX, loaded like a
 * built program). Both run synchronously; the callback, if any, runs before
 * they return.
 */
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "frontend/clc.h"
#include "runtime/opencl/cpu.h"
#include "runtime/opencl/ocl.h"

/* The argument checks clCompileProgram and clLinkProgram share. */
static cl_int check_devices(cl_uint n, const cl_device_id *d, bool notify, void *data)
{
    if ((n > 0) != (d != NULL) || (!notify && data))
        return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < n; i++)
        if (!ocl_device_ok(d[i]))
            return CL_INVALID_DEVICE;
    return CL_SUCCESS;
}

/* The embedded headers, named for #include; each must be a source program. */
static cl_int collect_headers(cl_uint nh, const cl_program *hp, const char **names,
                              struct clc_header **out)
{
    struct clc_header *h;

    *out = NULL;
    if ((nh == 0) != (hp == NULL) || (nh == 0) != (names == NULL))
        return CL_INVALID_VALUE;
    if (!nh)
        return CL_SUCCESS;
    h = calloc(nh, sizeof(*h));
    if (!h)
        return CL_OUT_OF_HOST_MEMORY;
    for (cl_uint i = 0; i < nh; i++) {
        if (!ocl_valid(hp[i], OCL_MAGIC_PROGRAM) || !hp[i]->source || !names[i]) {
            free(h);
            return names[i] ? CL_INVALID_PROGRAM : CL_INVALID_VALUE;
        }
        h[i] = (struct clc_header){names[i], hp[i]->source, strlen(hp[i]->source)};
    }
    *out = h;
    return CL_SUCCESS;
}

static cl_int compile(cl_program p, const char *options, const struct clc_header *h, cl_uint nh)
{
    struct ps_err err;
    int rc;

    ps_err_clear(&err);
    free(p->bin);
    p->bin = NULL;
    ocl_compiler_lock();
    rc = clc_compile_object(p->source, strlen(p->source), options, h, nh, &p->bin, &p->bin_len,
                            &p->log, &err);
    ocl_compiler_unlock();
    if (rc && (rc != PS_EPARSE || !p->log || !*p->log))
        ocl_program_log(p, err.msg);
    if (rc == PS_EINVAL)
        return CL_INVALID_COMPILER_OPTIONS;
    return rc ? CL_COMPILE_PROGRAM_FAILURE : CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clCompileProgram(cl_program p, cl_uint n, const cl_device_id *d,
                                                 const char *options, cl_uint nh,
                                                 const cl_program *headers, const char **names,
                                                 void(CL_CALLBACK *notify)(cl_program, void *),
                                                 void *data)
{
    struct clc_header *h = NULL;
    cl_int rc;

    if (!ocl_valid(p, OCL_MAGIC_PROGRAM))
        return CL_INVALID_PROGRAM;
    rc = check_devices(n, d, notify != NULL, data);
    if (rc == CL_SUCCESS)
        rc = collect_headers(nh, headers, names, &h);
    if (rc == CL_SUCCESS && (p->kind != OCL_PROG_SOURCE || p->kernels))
        rc = CL_INVALID_OPERATION; /* no source, or kernels are attached */
    if (rc != CL_SUCCESS) {
        free(h);
        return rc;
    }
    ocl_program_reset(p);
    free(p->options);
    p->options = strdup(options ? options : "");
    rc = compile(p, options, h, nh);
    free(h);
    p->btype =
        rc == CL_SUCCESS ? CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT : CL_PROGRAM_BINARY_TYPE_NONE;
    p->status = rc == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
    if (!p->log)
        p->log = strdup("");
    if (notify)
        notify(p, data);
    return rc;
}

/* Linker options: -create-library, plus those that only permit optimisations. */
static cl_int link_options(const char *options, bool *library)
{
    static const char *const ok[] = {
        "-enable-link-options",          "-cl-denorms-are-zero", "-cl-no-signed-zeros",
        "-cl-unsafe-math-optimizations", "-cl-finite-math-only", "-cl-fast-relaxed-math",
    };
    char word[64];
    const char *s = options ? options : "";
    int len;

    *library = false;
    while (sscanf(s, " %63s%n", word, &len) == 1) {
        bool known = !strcmp(word, "-create-library");

        *library |= known;
        for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
            known |= !strcmp(word, ok[i]);
        if (!known)
            return CL_INVALID_LINKER_OPTIONS;
        s += len;
    }
    return CL_SUCCESS;
}

/* Each input must be a compiled object or library (LLVM bitcode) of context c. */
static cl_int check_inputs(cl_context c, cl_uint np, const cl_program *progs)
{
    if (!np || !progs)
        return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < np; i++) {
        if (!ocl_valid(progs[i], OCL_MAGIC_PROGRAM))
            return CL_INVALID_PROGRAM;
        if (progs[i]->ctx != c)
            return CL_INVALID_CONTEXT;
        if (!progs[i]->bin || progs[i]->kind == OCL_PROG_SPIRV)
            return CL_INVALID_OPERATION;
    }
    return CL_SUCCESS;
}

/* Links the inputs into p: bitcode for a library, else PTX loaded into the device. */
static cl_int link_into(cl_program p, cl_uint np, const cl_program *progs, bool library)
{
    const void **bcs = calloc(np, sizeof(*bcs));
    size_t *lens = calloc(np, sizeof(*lens));
    struct ps_err err;
    int rc = bcs && lens ? 0 : PS_ENOMEM;

    ps_err_clear(&err);
    for (cl_uint i = 0; !rc && i < np; i++) {
        bcs[i] = progs[i]->bin;
        lens[i] = progs[i]->bin_len;
    }
    ocl_compiler_lock();
    if (!rc)
        rc = clc_link_objects(bcs, lens, np, &p->bin, &p->bin_len, &err);
    if (!rc && !library)
        rc = clc_lower_bitcode(p->bin, p->bin_len, &p->ptx, &p->args, &err);
    ocl_compiler_unlock();
    free(bcs);
    free(lens);
    if (rc == PS_ENOMEM)
        return CL_OUT_OF_HOST_MEMORY;
    if (rc) {
        ocl_program_log(p, err.msg);
        return CL_LINK_PROGRAM_FAILURE;
    }
    p->btype = library ? CL_PROGRAM_BINARY_TYPE_LIBRARY : CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
    return library || ocl_program_load(p) == CL_SUCCESS ? CL_SUCCESS : CL_LINK_PROGRAM_FAILURE;
}

CL_API_ENTRY cl_program CL_API_CALL clLinkProgram(cl_context c, cl_uint n, const cl_device_id *d,
                                                  const char *options, cl_uint np,
                                                  const cl_program *progs,
                                                  void(CL_CALLBACK *notify)(cl_program, void *),
                                                  void *data, cl_int *errcode)
{
    cl_program p = NULL;
    bool library = false;
    cl_int rc = ocl_valid(c, OCL_MAGIC_CONTEXT) ? CL_SUCCESS : CL_INVALID_CONTEXT;

    if (rc == CL_SUCCESS)
        rc = check_devices(n, d, notify != NULL, data);
    if (rc == CL_SUCCESS)
        rc = check_inputs(c, np, progs);
    if (rc == CL_SUCCESS)
        rc = link_options(options, &library);
    if (rc == CL_SUCCESS)
        p = ocl_program_new(c, OCL_PROG_LLVM, &rc);
    if (p) {
        p->options = strdup(options ? options : "");
        rc = link_into(p, np, progs, library);
        p->status = rc == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
        if (!p->log)
            p->log = strdup("");
        if (notify)
            notify(p, data);
    }
    /* A failed link still returns the program, so that its log can be read. */
    if (p && rc != CL_SUCCESS && rc != CL_LINK_PROGRAM_FAILURE) {
        clReleaseProgram(p);
        p = NULL;
    }
    if (errcode)
        *errcode = rc;
    return p;
}
