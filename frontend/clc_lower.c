/*
 * OpenCL front end, LLVM lowering: modules parsed from bitcode, libclc and the
 * prelude (get_global_offset) linked in, internalised, checked for unresolved
 * calls, and emitted as PTX by the NVPTX back end; SPIR (spir64) is retargeted to
 * nvptx64 first. Everything here goes through the LLVM 14 C API.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "common/err.h"
#include "config.h"
#include "frontend/clc_int.h"

#define CLC_RAW_GID "__ptxsim_clc_raw_global_id"

/*
 * get_global_offset and an offset-aware get_global_id over the module
 * variable the runtime fills before each launch (dimensions past 2 read 0).
 */
static const char clc_prelude[] =
    "@" CLC_GLOBAL_OFFSET_SYM " = addrspace(1) externally_initialized global [3 x i64] "
    "zeroinitializer, align 8\n"
    "declare i64 @" CLC_RAW_GID "(i32)\n"
    "define linkonce_odr i64 @_Z17get_global_offsetj(i32 %d) alwaysinline {\n"
    "  %c = icmp ult i32 %d, 3\n"
    "  %i = select i1 %c, i32 %d, i32 0\n"
    "  %p = getelementptr [3 x i64], [3 x i64] addrspace(1)* @" CLC_GLOBAL_OFFSET_SYM
    ", i32 0, i32 %i\n"
    "  %v = load i64, i64 addrspace(1)* %p, align 8\n"
    "  %r = select i1 %c, i64 %v, i64 0\n"
    "  ret i64 %r\n"
    "}\n"
    "define linkonce_odr i64 @_Z13get_global_idj(i32 %d) alwaysinline {\n"
    "  %g = call i64 @" CLC_RAW_GID "(i32 %d)\n"
    "  %o = call i64 @_Z17get_global_offsetj(i32 %d)\n"
    "  %s = add i64 %g, %o\n"
    "  ret i64 %s\n"
    "}\n";

/*
 * Keeps the first error LLVM reports (a link conflict, a bad module) in the
 * context's record instead of LLVM's default of printing it on stderr.
 */
static void diag_handler(LLVMDiagnosticInfoRef di, void *opaque)
{
    char *first = opaque, *msg;

    if (LLVMGetDiagInfoSeverity(di) != LLVMDSError || *first)
        return;
    msg = LLVMGetDiagInfoDescription(di);
    snprintf(first, PS_ERR_MSG_MAX / 2, "%s", msg ? msg : "?");
    LLVMDisposeMessage(msg);
}

LLVMContextRef clc_context_new(char *diag)
{
    LLVMContextRef ctx = LLVMContextCreate();

    diag[0] = '\0';
    LLVMContextSetDiagnosticHandler(ctx, diag_handler, diag);
    return ctx;
}

/* Parses bitcode (the bytes are copied) into *m. */
int clc_parse_bitcode(LLVMContextRef ctx, const void *bc, size_t len, const char *what,
                      LLVMModuleRef *m, struct ps_err *err)
{
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(bc, len, what);
    int bad = LLVMParseBitcodeInContext2(ctx, buf, m);

    LLVMDisposeMemoryBuffer(buf);
    return bad ? ps_err_set(err, PS_EPARSE, "cannot parse LLVM bitcode (%s)", what) : 0;
}

int clc_load_bitcode(LLVMContextRef ctx, const char *path, LLVMModuleRef *m, struct ps_err *err)
{
    size_t len = 0;
    char *bc = clc_read_all(path, &len);
    int rc;

    if (!bc)
        return ps_err_set(err, PS_EIO, "cannot read %s", path);
    rc = clc_parse_bitcode(ctx, bc, len, path, m, err);
    free(bc);
    return rc;
}

/* The prelude (see clc_prelude), with the kernel module's triple and layout. */
static int load_prelude(LLVMContextRef ctx, LLVMModuleRef like, LLVMModuleRef *m,
                        struct ps_err *err)
{
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(
        clc_prelude, sizeof(clc_prelude) - 1, "ptxsim-prelude");
    char *msg = NULL;

    if (LLVMParseIRInContext(ctx, buf, m, &msg)) { /* takes buf */
        ps_err_set(err, PS_EPARSE, "internal prelude: %s", msg ? msg : "?");
        LLVMDisposeMessage(msg);
        return PS_EPARSE;
    }
    LLVMSetTarget(*m, LLVMGetTarget(like));
    LLVMSetDataLayout(*m, LLVMGetDataLayoutStr(like));
    return 0;
}

/* A definition in pre whose name m also defines (a name the program may not use), or NULL. */
static const char *clashing_name(LLVMModuleRef m, LLVMModuleRef pre)
{
    size_t len;

    for (LLVMValueRef f = LLVMGetFirstFunction(pre); f; f = LLVMGetNextFunction(f)) {
        const char *name = LLVMGetValueName2(f, &len);
        LLVMValueRef mine = LLVMGetNamedFunction(m, name);

        if (!LLVMIsDeclaration(f) && mine && !LLVMIsDeclaration(mine))
            return name;
    }
    for (LLVMValueRef g = LLVMGetFirstGlobal(pre); g; g = LLVMGetNextGlobal(g)) {
        const char *name = LLVMGetValueName2(g, &len);

        if (LLVMGetNamedGlobal(m, name) || LLVMGetNamedFunction(m, name))
            return name;
    }
    return NULL;
}

/* Links the prelude and libclc (whose get_global_id is renamed) into m. */
static int link_builtins(LLVMContextRef ctx, LLVMModuleRef m, struct ps_err *err)
{
    LLVMModuleRef pre = NULL, clc = NULL;
    LLVMValueRef gid;
    int rc = load_prelude(ctx, m, &pre, err);

    if (rc)
        return rc;
    {
        const char *name = clashing_name(m, pre);

        if (name) {
            rc = ps_err_set(err, PS_EPARSE,
                            "the program defines '%s', a name ptxsim reserves for its OpenCL "
                            "support code; rename it",
                            name);
            LLVMDisposeModule(pre);
            return rc;
        }
    }
    if (LLVMLinkModules2(m, pre)) /* takes pre */
        return ps_err_set(err, PS_EPARSE, "cannot link ptxsim's OpenCL support code (prelude)");
    rc = clc_load_bitcode(ctx, PTXSIM_LIBCLC_BC_PATH, &clc, err);
    if (rc)
        return rc;
    LLVMSetTarget(clc, LLVMGetTarget(m));
    LLVMSetDataLayout(clc, LLVMGetDataLayoutStr(m));
    gid = LLVMGetNamedFunction(clc, "_Z13get_global_idj");
    if (gid)
        LLVMSetValueName2(gid, CLC_RAW_GID, strlen(CLC_RAW_GID));
    if (LLVMLinkModules2(m, clc)) /* takes clc */
        return ps_err_set(err, PS_EPARSE, "cannot link libclc (%s)", PTXSIM_LIBCLC_BC_PATH);
    return 0;
}

/* Every defined function but the kernels becomes internal, so O2 may drop it. */
static void internalize(LLVMModuleRef m)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f) || LLVMGetFunctionCallConv(f) == LLVMSPIRKERNELCallConv)
            continue;
        LLVMSetLinkage(f, LLVMInternalLinkage);
        LLVMSetVisibility(f, LLVMDefaultVisibility);
    }
}

/*
 * After the builtins are linked, a called function that is still only
 * declared is one libclc does not provide (a __spirv_* builtin left by the
 * translator, an OpenCL 2.x built-in, a function of another program): say
 * which, rather than fail later at PTX load.
 */
static int check_resolved(LLVMModuleRef m, struct ps_err *err)
{
    size_t len;

    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (!LLVMIsDeclaration(f) || LLVMGetIntrinsicID(f) || !LLVMGetFirstUse(f))
            continue;
        return ps_err_set(err, PS_ENOTSUP, "unresolved function '%s' (not an OpenCL 1.2 built-in)",
                          LLVMGetValueName2(f, &len));
    }
    return 0;
}

static LLVMTargetMachineRef make_tm(const char *triple, struct ps_err *err)
{
    LLVMTargetRef target;
    char *msg = NULL;

    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    if (LLVMGetTargetFromTriple(triple, &target, &msg)) {
        ps_err_set(err, PS_ENOTSUP, "no NVPTX target: %s", msg ? msg : "?");
        LLVMDisposeMessage(msg);
        return NULL;
    }
    return LLVMCreateTargetMachine(target, triple, "sm_20", "+ptx32", LLVMCodeGenLevelDefault,
                                   LLVMRelocDefault, LLVMCodeModelDefault);
}

/*
 * LLVM 14's NVPTX backend expands a rotate for sm_20 (which lacks shf) into
 * shl by the amount and shr by width - amount, without reducing the amount
 * modulo the width, and its DAG combiner drops any mask that would: a
 * rotate(x, n) with n >= 32 in a register gives 0. After optimisation each
 * funnel shift's amount is masked and frozen, which the combiner cannot see
 * through.
 */
static void mask_funnel_shifts(LLVMModuleRef m)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    size_t len;

    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        const char *name = LLVMGetValueName2(f, &len);

        if (strncmp(name, "llvm.fshl.", 10) && strncmp(name, "llvm.fshr.", 10))
            continue;
        for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u)) {
            LLVMValueRef call = LLVMGetUser(u), amt;
            LLVMTypeRef t;

            if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != f)
                continue;
            amt = LLVMGetOperand(call, 2);
            t = LLVMTypeOf(amt);
            if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind)
                continue; /* vector funnel shifts are scalarised with their own masks */
            LLVMPositionBuilderBefore(b, call);
            amt = LLVMBuildAnd(b, amt, LLVMConstInt(t, LLVMGetIntTypeWidth(t) - 1, 0), "amt");
            LLVMSetOperand(call, 2, LLVMBuildFreeze(b, amt, "amt.fr"));
        }
    }
    LLVMDisposeBuilder(b);
}

/* Optimises m and emits PTX into *ptx. */
static int emit_ptx(LLVMModuleRef m, char **ptx, struct ps_err *err)
{
    LLVMTargetMachineRef tm = make_tm(LLVMGetTarget(m), err);
    LLVMPassBuilderOptionsRef po;
    LLVMMemoryBufferRef out = NULL;
    LLVMErrorRef e;
    char *msg = NULL;
    int rc = 0;

    if (!tm)
        return err->code ? err->code : PS_ENOTSUP;
    po = LLVMCreatePassBuilderOptions();
    e = LLVMRunPasses(m, "default<O2>", tm, po);
    LLVMDisposePassBuilderOptions(po);
    if (e) {
        msg = LLVMGetErrorMessage(e);
        rc = ps_err_set(err, PS_EPARSE, "LLVM optimisation failed: %s", msg);
        LLVMDisposeErrorMessage(msg);
        goto out;
    }
    mask_funnel_shifts(m);
    if (LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMAssemblyFile, &msg, &out)) {
        rc = ps_err_set(err, PS_EPARSE, "PTX emission failed: %s", msg ? msg : "?");
        LLVMDisposeMessage(msg);
        goto out;
    }
    *ptx = strndup(LLVMGetBufferStart(out), LLVMGetBufferSize(out));
    LLVMDisposeMemoryBuffer(out);
    if (!*ptx)
        rc = ps_err_set(err, PS_ENOMEM, "out of memory");
out:
    LLVMDisposeTargetMachine(tm);
    return rc;
}

/* The mul_hi that mad_hi's name ("_Z6mad_hi" T T T, or T S_ S_ for vectors) stands on. */
static void mul_hi_name(const char *mad, char *out, size_t size)
{
    const char *t = mad + strlen("_Z6mad_hi"), *end = t + 1;

    if (!strncmp(t, "Dv", 2) && (end = strchr(t, '_')))
        end += 2; /* "Dv4_i" */
    else
        end = t + 1;
    snprintf(out, size, "_Z6mul_hi%.*s%s", (int)(end - t), t, *t == 'D' ? "S_" : "");
    if (*t != 'D')
        snprintf(out + strlen(out), size - strlen(out), "%c", *t);
}

/*
 * libclc defines mad_hi as a macro over mul_hi in its own headers, so its
 * bitcode has no mad_hi, while clang's header declares one: each mad_hi the
 * module calls gets the body mul_hi(a, b) + c.
 */
static void define_mad_hi(LLVMContextRef ctx, LLVMModuleRef m)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    char name[64];
    size_t len;

    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        const char *fn = LLVMGetValueName2(f, &len);
        LLVMValueRef mul, args[2], hi;

        if (!LLVMIsDeclaration(f) || strncmp(fn, "_Z6mad_hi", 9) || LLVMCountParams(f) != 3)
            continue;
        mul_hi_name(fn, name, sizeof(name));
        if (!(mul = LLVMGetNamedFunction(m, name)))
            continue; /* left for check_resolved to report */
        LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, f, "entry"));
        args[0] = LLVMGetParam(f, 0);
        args[1] = LLVMGetParam(f, 1);
        hi = LLVMBuildCall2(b, LLVMGetElementType(LLVMTypeOf(mul)), mul, args, 2, "hi");
        LLVMBuildRet(b, LLVMBuildAdd(b, hi, LLVMGetParam(f, 2), "r"));
        LLVMSetLinkage(f, LLVMInternalLinkage);
    }
    LLVMDisposeBuilder(b);
}

/* An nvptx64 module to PTX: builtins, internalising, O2, emission. */
int clc_lower_module(LLVMContextRef ctx, LLVMModuleRef m, bool check, char **ptx,
                     struct ps_err *err)
{
    int rc = clc_lower_images(ctx, m, err);

    if (!rc)
        rc = link_builtins(ctx, m, err);
    if (!rc)
        define_mad_hi(ctx, m);
    if (!rc && check)
        rc = check_resolved(m, err);
    if (!rc) {
        internalize(m);
        rc = emit_ptx(m, ptx, err);
    }
    return rc;
}

/* ---- SPIR (spir64 LLVM bitcode) to nvptx64 ----------------------------- */

#define CLC_NVPTX_TRIPLE "nvptx64-nvidia-nvcl"
#define CLC_NVPTX_LAYOUT "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"

/*
 * Rewrites SPIR 1.2 IR text, in place, into what clang emits for NVPTX. The
 * address spaces agree (private 0, global 1, local 3) except __constant: 2
 * in SPIR, 4 in NVPTX, in types and in mangled built-in names ("PU3AS2").
 * SPIR functions and calls carry the spir_func calling convention, libclc's
 * the C one, and a call whose convention differs from its callee's is
 * undefined, so spir_func goes. The C API cannot change a type's address
 * space, hence text. Quoted strings and comments are left alone.
 */
static void rewrite_spir_text(char *s)
{
    char *w = s;
    bool quoted = false;

    while (*s) {
        if (*s == '"')
            quoted = !quoted;
        else if (!quoted && *s == ';')
            while (*s && *s != '\n')
                *w++ = *s++;
        else if (!quoted && clc_has_prefix(s, "addrspace(2)"))
            s[10] = '4';
        else if (!quoted && clc_has_prefix(s, "U3AS2") && !(s[5] >= '0' && s[5] <= '9'))
            s[4] = '4';
        else if (!quoted && clc_has_prefix(s, "spir_func ")) {
            s += strlen("spir_func ");
            continue;
        }
        if (*s)
            *w++ = *s++;
    }
    *w = '\0';
}

/* What the NVPTX backend needs besides the IR: "kernel" annotations; no optnone. */
static void annotate_kernels(LLVMContextRef ctx, LLVMModuleRef m)
{
    unsigned optnone = LLVMGetEnumAttributeKindForName("optnone", 7);
    unsigned noinline = LLVMGetEnumAttributeKindForName("noinline", 8);
    LLVMMetadataRef md[3];

    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        /* clang -O0 SPIR marks functions optnone noinline; O2 must see through them */
        LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, optnone);
        LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, noinline);
        if (LLVMIsDeclaration(f) || LLVMGetFunctionCallConv(f) != LLVMSPIRKERNELCallConv)
            continue;
        md[0] = LLVMValueAsMetadata(f);
        md[1] = LLVMMDStringInContext2(ctx, "kernel", 6);
        md[2] = LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(ctx), 1, 0));
        LLVMAddNamedMetadataOperand(m, "nvvm.annotations",
                                    LLVMMetadataAsValue(ctx, LLVMMDNodeInContext2(ctx, md, 3)));
    }
}

/* Makes *m an nvptx64 module: spir64 is retargeted, nvptx64 kept, others refused. */
int clc_retarget(LLVMContextRef ctx, LLVMModuleRef *m, struct ps_err *err)
{
    const char *triple = LLVMGetTarget(*m);
    LLVMMemoryBufferRef buf;
    LLVMModuleRef out;
    char *text, *msg = NULL;

    if (clc_has_prefix(triple, "nvptx64"))
        return 0;
    if (!clc_has_prefix(triple, "spir64"))
        return ps_err_set(err, PS_EINVAL, "LLVM module for '%s' (want spir64 or nvptx64)", triple);
    text = LLVMPrintModuleToString(*m);
    rewrite_spir_text(text);
    buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(text, strlen(text), "spir");
    LLVMDisposeMessage(text);
    if (LLVMParseIRInContext(ctx, buf, &out, &msg)) { /* takes buf */
        ps_err_set(err, PS_EPARSE, "cannot retarget SPIR to NVPTX: %s", msg ? msg : "?");
        LLVMDisposeMessage(msg);
        return PS_EPARSE;
    }
    LLVMDisposeModule(*m);
    *m = out;
    LLVMSetTarget(out, CLC_NVPTX_TRIPLE);
    LLVMSetDataLayout(out, CLC_NVPTX_LAYOUT);
    annotate_kernels(ctx, out);
    return 0;
}

/* Parsed, retargeted and lowered, with the context's first error on failure. */
int clc_lower_bitcode_in(LLVMContextRef ctx, const char *diag, const void *bc, size_t len,
                         char **ptx, struct clc_arg_table **args, struct ps_err *err)
{
    LLVMModuleRef m = NULL;
    int rc = clc_parse_bitcode(ctx, bc, len, "program binary", &m, err);

    if (!rc)
        rc = clc_retarget(ctx, &m, err);
    if (!rc && args)
        rc = clc_read_arg_table(ctx, m, args, err);
    if (!rc)
        rc = clc_lower_module(ctx, m, true, ptx, err);
    if (rc && *diag)
        ps_err_set(err, rc, "%s", diag);
    if (rc && args) {
        clc_arg_table_destroy(*args);
        *args = NULL;
    }
    if (m)
        LLVMDisposeModule(m);
    return rc;
}
