/*
 * libFuzzer harness for the OpenCL build path (make fuzz; see Makefile.am):
 * the input's first line is the clBuildProgram option string, the rest the
 * OpenCL C source. It goes through clc_compile (option checks, clang, the
 * kernel-argument metadata, libclc linking, the NVPTX back end); the PTX
 * that comes out must parse with ptxsim's own PTX parser. A failure must be
 * an error record with a message. Crashes, leaks and undefined behaviour in
 * ptxsim's code are caught by the sanitizers the target is built with.
 * Each input runs clang, so this target does a few executions a second.
 * Seeds: tests/fuzz/seeds_clc/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "frontend/clc.h"
#include "frontend/ptx_parse.h"
#include "isa/module.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nl = memchr(data, '\n', size);
    size_t olen = nl ? (size_t)(nl - data) : 0;
    char *options = malloc(olen + 1), *ptx = NULL, *log = NULL;
    const char *src = nl ? (const char *)nl + 1 : (const char *)data;
    size_t slen = nl ? size - olen - 1 : size;
    struct clc_arg_table *args = NULL;
    struct ps_err err;
    int rc;

    if (!options || memchr(data, 0, size)) { /* C strings: no NUL inside */
        free(options);
        return 0;
    }
    memcpy(options, data, olen);
    options[olen] = 0;
    ps_err_clear(&err);
    rc = clc_compile(src, slen, options, &ptx, &log, &args, &err);
    if (rc && !err.msg[0] && !(log && *log)) {
        fprintf(stderr, "fuzz_clc_build: clc_compile failed (%d) without a message\n", rc);
        abort();
    }
    if (!rc) {
        struct isa_module *m = ptx_parse(ptx, strlen(ptx), "fuzz.ptx", &err);

        if (!m) {
            fprintf(stderr, "fuzz_clc_build: the PTX clc_compile made does not parse: %s\n",
                    err.msg);
            abort();
        }
        isa_module_destroy(m);
    }
    clc_arg_table_destroy(args);
    free(ptx);
    free(log);
    free(options);
    return 0;
}
