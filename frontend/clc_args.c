/*
 * OpenCL front end, kernel argument metadata: clang's kernel_arg_* metadata read
 * from an LLVM module into the table clGetKernelArgInfo answers from.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "common/err.h"
#include "frontend/clc_int.h"

static const char *const clc_arg_md[] = {
    "kernel_arg_addr_space", "kernel_arg_access_qual", "kernel_arg_type",
    "kernel_arg_type_qual",  "kernel_arg_name",
};

#define CLC_ARG_MD_N (sizeof(clc_arg_md) / sizeof(clc_arg_md[0]))

void clc_arg_table_destroy(struct clc_arg_table *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n; i++) {
        for (unsigned j = 0; j < t->k[i].nargs; j++) {
            free(t->k[i].args[j].access);
            free(t->k[i].args[j].type);
            free(t->k[i].args[j].type_qual);
            free(t->k[i].args[j].name);
        }
        free(t->k[i].args);
        free(t->k[i].kernel);
    }
    free(t->k);
    free(t);
}

const struct clc_kernel_args *clc_arg_table_find(const struct clc_arg_table *t, const char *kernel)
{
    for (size_t i = 0; t && kernel && i < t->n; i++)
        if (!strcmp(t->k[i].kernel, kernel))
            return &t->k[i];
    return NULL;
}

/* The function's metadata node of kind `kind` as a value, or NULL. */
static LLVMValueRef fn_md(LLVMContextRef ctx, LLVMValueRef f, const char *kind)
{
    unsigned id = LLVMGetMDKindIDInContext(ctx, kind, (unsigned)strlen(kind));
    size_t n = 0;
    LLVMValueMetadataEntry *e = LLVMGlobalCopyAllMetadata(f, &n);
    LLVMValueRef v = NULL;

    for (unsigned i = 0; i < n && !v; i++)
        if (LLVMValueMetadataEntriesGetKind(e, i) == id)
            v = LLVMMetadataAsValue(ctx, LLVMValueMetadataEntriesGetMetadata(e, i));
    if (e)
        LLVMDisposeValueMetadataEntries(e);
    return v;
}

static char *md_string(LLVMValueRef v)
{
    unsigned len = 0;
    const char *s = v ? LLVMGetMDString(v, &len) : NULL;

    return s ? strndup(s, len) : strdup("");
}

/* Fills a from operand j of the five nodes (ops[k] holds node k's operands). */
static int fill_arg(struct clc_arg_info *a, LLVMValueRef *const *ops, unsigned j)
{
    LLVMValueRef as = ops[0][j];

    a->addr_space = as && LLVMIsAConstantInt(as) ? (unsigned)LLVMConstIntGetZExtValue(as) : 0;
    a->access = md_string(ops[1][j]);
    a->type = md_string(ops[2][j]);
    a->type_qual = md_string(ops[3][j]);
    a->name = md_string(ops[4][j]);
    return a->access && a->type && a->type_qual && a->name ? 0 : PS_ENOMEM;
}

/* One kernel's arguments into *k; 1 when f carries no (or malformed) argument names. */
static int read_kernel_args(LLVMContextRef ctx, LLVMValueRef f, struct clc_kernel_args *k)
{
    LLVMValueRef node[CLC_ARG_MD_N], *ops[CLC_ARG_MD_N] = {NULL};
    unsigned nargs = LLVMCountParams(f), i;
    size_t len;
    int rc = 0;

    for (i = 0; i < CLC_ARG_MD_N; i++) {
        node[i] = fn_md(ctx, f, clc_arg_md[i]);
        if (!node[i] || (unsigned)LLVMGetMDNodeNumOperands(node[i]) != nargs)
            return 1;
    }
    k->kernel = strdup(LLVMGetValueName2(f, &len));
    k->args = calloc(nargs ? nargs : 1, sizeof(*k->args));
    for (i = 0; i < CLC_ARG_MD_N && k->kernel && k->args; i++) {
        ops[i] = calloc(nargs ? nargs : 1, sizeof(LLVMValueRef));
        if (!ops[i])
            break;
        LLVMGetMDNodeOperands(node[i], ops[i]);
    }
    rc = i == CLC_ARG_MD_N ? 0 : PS_ENOMEM;
    for (unsigned j = 0; !rc && j < nargs; j++, k->nargs = j)
        rc = fill_arg(&k->args[j], ops, j);
    for (i = 0; i < CLC_ARG_MD_N; i++)
        free(ops[i]);
    return rc;
}

/* The argument descriptions of m's kernels into *out (NULL when none has any). */
int clc_read_arg_table(LLVMContextRef ctx, LLVMModuleRef m, struct clc_arg_table **out,
                       struct ps_err *err)
{
    struct clc_arg_table *t = calloc(1, sizeof(*t));
    size_t cap = 0;
    int rc = t ? 0 : PS_ENOMEM;

    for (LLVMValueRef f = LLVMGetFirstFunction(m); !rc && f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f) || LLVMGetFunctionCallConv(f) != LLVMSPIRKERNELCallConv)
            continue;
        if (t->n == cap) {
            struct clc_kernel_args *k = realloc(t->k, (cap * 2 + 4) * sizeof(*k));

            if (!k) {
                rc = PS_ENOMEM;
                break;
            }
            t->k = k;
            cap = cap * 2 + 4;
        }
        memset(&t->k[t->n], 0, sizeof(t->k[t->n]));
        rc = read_kernel_args(ctx, f, &t->k[t->n]);
        if (rc != 1)
            t->n++;            /* a partial entry on failure, for clc_arg_table_destroy */
        rc = rc == 1 ? 0 : rc; /* a kernel without names is left out */
    }
    if (rc || !t->n) {
        clc_arg_table_destroy(t);
        t = NULL;
    }
    *out = t;
    return rc ? ps_err_set(err, PS_ENOMEM, "out of memory") : 0;
}
