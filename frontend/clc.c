/*
 * OpenCL C, SPIR and SPIR-V to PTX through clang 14 and llvm-spirv-14 (both
 * subprocesses) and the LLVM 14 C API. See clc.h for the routes and
 * docs/opencl.md for the options accepted.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* mkdtemp, nftw */
#endif
#include "frontend/clc.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

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

#define CLC_MAX_ARGS 256
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

struct clc_args {
    char *argv[CLC_MAX_ARGS];
    int argc;
    char *buf; /* the split option string; argv points into it */
};

static int add_arg(struct clc_args *a, char *s, struct ps_err *err)
{
    if (a->argc >= CLC_MAX_ARGS - 1)
        return ps_err_set(err, PS_EINVAL, "too many build options");
    a->argv[a->argc++] = s;
    return 0;
}

/* Splits options at blanks (single and double quotes group), in place. */
static int split_options(struct clc_args *a, const char *options, char ***out, int *n,
                         struct ps_err *err)
{
    char *w, *r, q = 0;
    int count = 0;

    a->buf = strdup(options ? options : "");
    if (!a->buf)
        return ps_err_set(err, PS_ENOMEM, "out of memory");
    *out = calloc(CLC_MAX_ARGS, sizeof(char *));
    if (!*out)
        return ps_err_set(err, PS_ENOMEM, "out of memory");
    for (r = w = a->buf; *r;) {
        while (*r == ' ' || *r == '\t' || *r == '\n')
            r++;
        if (!*r)
            break;
        if (count >= CLC_MAX_ARGS - 1)
            return ps_err_set(err, PS_EINVAL, "too many build options");
        (*out)[count++] = w;
        for (; *r && (q || (*r != ' ' && *r != '\t' && *r != '\n')); r++) {
            if (!q && (*r == '"' || *r == '\''))
                q = *r;
            else if (q && *r == q)
                q = 0;
            else
                *w++ = *r;
        }
        if (*r)
            r++;
        *w++ = '\0';
    }
    *n = count;
    return 0;
}

/* Accepts the clBuildProgram options clang understands; others are PS_EINVAL. */
static int add_user_options(struct clc_args *a, const char *options, struct ps_err *err)
{
    char **words = NULL;
    int n = 0, rc = split_options(a, options, &words, &n, err);

    for (int i = 0; !rc && i < n; i++) {
        char *o = words[i];
        bool pair = (!strcmp(o, "-D") || !strcmp(o, "-I")) && i + 1 < n;

        if (!strcmp(o, "-D") || !strcmp(o, "-I")) {
            if (!pair) /* clang would report a missing -o argument */
                rc = ps_err_set(err, PS_EINVAL, "build option '%s' needs a value (%s NAME)", o, o);
            else
                rc = add_arg(a, o, err);
            if (!rc)
                rc = add_arg(a, words[++i], err);
        } else if (pair) {
            rc = add_arg(a, o, err);
            if (!rc)
                rc = add_arg(a, words[++i], err);
        } else if (!strncmp(o, "-D", 2) || !strncmp(o, "-I", 2) ||
                   !strncmp(o, "-cl-", 4) || !strcmp(o, "-w") || !strcmp(o, "-Werror")) {
            if (strcmp(o, "-cl-opt-disable")) /* -cl-kernel-arg-info: clang names the args */
                rc = add_arg(a, o, err);
        } else {
            rc = ps_err_set(err, PS_EINVAL, "unsupported build option '%s'", o);
        }
    }
    free(words);
    return rc;
}

static char *read_all(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    char *buf = NULL;
    long n;

    if (!fp)
        return NULL;
    if (fseek(fp, 0, SEEK_END) == 0 && (n = ftell(fp)) >= 0 && fseek(fp, 0, SEEK_SET) == 0) {
        buf = malloc((size_t)n + 1);
        if (buf && fread(buf, 1, (size_t)n, fp) != (size_t)n) {
            free(buf);
            buf = NULL;
        }
        if (buf) {
            buf[n] = '\0';
            if (len)
                *len = (size_t)n;
        }
    }
    fclose(fp);
    return buf;
}

/* Runs argv with stderr (and stdout) to log_path; returns the exit status or -1. */
static int run_tool(char *const *argv, const char *log_path)
{
    int status, fd;
    pid_t pid = fork();

    if (pid < 0)
        return -1;
    if (pid == 0) {
        fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0)
            _exit(127);
        dup2(fd, 1);
        dup2(fd, 2);
        close(fd);
        execv(argv[0], argv);
        _exit(127);
    }
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Removes every "dir/" from s in place, so diagnostics name "program.cl". */
static void strip_dir(char *s, const char *dir)
{
    size_t n = strlen(dir);
    char *p;

    while ((p = strstr(s, dir)) && p[n] == '/')
        memmove(p, p + n + 1, strlen(p + n + 1) + 1);
}

/* A private temporary directory with the files of one compilation. */
struct clc_tmp {
    char dir[64];
    char src[96], bc[96], log[96], spv[96];
};

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

/* Removes the directory and everything in it (header files may add subdirectories). */
static void tmp_cleanup(struct clc_tmp *t)
{
    nftw(t->dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
}

static int write_file(const char *path, const void *data, size_t len, struct ps_err *err)
{
    FILE *fp = fopen(path, "wb");

    if (!fp || fwrite(data, 1, len, fp) != len || fclose(fp)) {
        if (fp)
            fclose(fp);
        return ps_err_set(err, PS_EIO, "cannot write %s", path);
    }
    return 0;
}

static int tmp_create(struct clc_tmp *t, struct ps_err *err)
{
    const char *base = getenv("TMPDIR");

    snprintf(t->dir, sizeof(t->dir), "%s/ptxsim-clc.XXXXXX",
             base && *base && strlen(base) < 40 ? base : "/tmp");
    if (!mkdtemp(t->dir))
        return ps_err_set(err, PS_EIO, "cannot create a temporary directory: %s", strerror(errno));
    snprintf(t->src, sizeof(t->src), "%s/program.cl", t->dir);
    snprintf(t->bc, sizeof(t->bc), "%s/program.bc", t->dir);
    snprintf(t->log, sizeof(t->log), "%s/tool.log", t->dir);
    snprintf(t->spv, sizeof(t->spv), "%s/program.spv", t->dir);
    return 0;
}

/* A header's include name must stay inside the directory: relative, no "..". */
static bool header_name_ok(const char *name)
{
    const char *p = name;

    if (!*name || *name == '/')
        return false;
    while ((p = strstr(p, "..")))
        if ((p == name || p[-1] == '/') && (p[2] == '/' || !p[2]))
            return false;
        else
            p += 2;
    return true;
}

/* Writes each header as dir/NAME (creating NAME's directories) for #include "NAME". */
static int write_headers(struct clc_tmp *t, const struct clc_header *h, size_t n,
                         struct ps_err *err)
{
    char path[4096];
    int rc = 0;

    for (size_t i = 0; !rc && i < n; i++) {
        if (!h[i].name || !h[i].src || !header_name_ok(h[i].name))
            return ps_err_set(err, PS_EINVAL, "invalid header include name '%s'",
                              h[i].name ? h[i].name : "(null)");
        if (snprintf(path, sizeof(path), "%s/%s", t->dir, h[i].name) >= (int)sizeof(path))
            return ps_err_set(err, PS_EINVAL, "header include name too long");
        for (char *s = strchr(path + strlen(t->dir) + 1, '/'); s; s = strchr(s + 1, '/')) {
            *s = '\0';
            mkdir(path, 0700);
            *s = '/';
        }
        rc = write_file(path, h[i].src, h[i].len, err);
    }
    return rc;
}

/* clang: t->src (OpenCL C) -> bitcode in t->bc; its diagnostics in *log. */
static int compile_source(struct clc_tmp *t, const char *options, char **log, struct ps_err *err)
{
    static const char *const fixed[] = {
        PTXSIM_CLANG_PATH, "-x", "cl", "-target", "nvptx64-nvidia-nvcl",
        "-Xclang", "-finclude-default-header", "-fno-color-diagnostics", "-O2", "-emit-llvm", "-c",
    };
    struct clc_args a = {.argc = 0};
    bool has_std = options && strstr(options, "-cl-std=");
    int rc = 0, status;
    char *text;

    for (size_t i = 0; !rc && i < sizeof(fixed) / sizeof(fixed[0]); i++)
        rc = add_arg(&a, (char *)fixed[i], err);
    if (!rc && !has_std)
        rc = add_arg(&a, "-cl-std=CL1.2", err);
    if (!rc)
        rc = add_user_options(&a, options, err);
    if (!rc) {
        add_arg(&a, "-I", err);
        add_arg(&a, t->dir, err); /* headers of clCompileProgram */
        add_arg(&a, "-o", err);
        add_arg(&a, t->bc, err);
        rc = add_arg(&a, t->src, err);
    }
    if (rc)
        goto out;
    a.argv[a.argc] = NULL;
    status = run_tool(a.argv, t->log);
    text = read_all(t->log, NULL);
    if (text)
        strip_dir(text, t->dir);
    if (log) {
        *log = text ? text : strdup("");
        text = NULL;
    }
    if (status < 0 || status == 127)
        rc = ps_err_set(err, PS_EIO, "cannot run %s", PTXSIM_CLANG_PATH);
    else if (status)
        rc = ps_err_set(err, PS_EPARSE, "OpenCL C compilation failed (see the build log)");
    free(text);
out:
    free(a.buf);
    return rc;
}

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

static LLVMContextRef context_new(char *diag)
{
    LLVMContextRef ctx = LLVMContextCreate();

    diag[0] = '\0';
    LLVMContextSetDiagnosticHandler(ctx, diag_handler, diag);
    return ctx;
}

/* Parses bitcode (the bytes are copied) into *m. */
static int parse_bitcode(LLVMContextRef ctx, const void *bc, size_t len, const char *what,
                         LLVMModuleRef *m, struct ps_err *err)
{
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(bc, len, what);
    int bad = LLVMParseBitcodeInContext2(ctx, buf, m);

    LLVMDisposeMemoryBuffer(buf);
    return bad ? ps_err_set(err, PS_EPARSE, "cannot parse LLVM bitcode (%s)", what) : 0;
}

static int load_bitcode(LLVMContextRef ctx, const char *path, LLVMModuleRef *m, struct ps_err *err)
{
    size_t len = 0;
    char *bc = read_all(path, &len);
    int rc;

    if (!bc)
        return ps_err_set(err, PS_EIO, "cannot read %s", path);
    rc = parse_bitcode(ctx, bc, len, path, m, err);
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
    rc = load_bitcode(ctx, PTXSIM_LIBCLC_BC_PATH, &clc, err);
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
static int lower_module(LLVMContextRef ctx, LLVMModuleRef m, bool check, char **ptx,
                        struct ps_err *err)
{
    int rc = link_builtins(ctx, m, err);

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

/* ---- kernel argument metadata (clGetKernelArgInfo) ---------------------- */

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
static int read_arg_table(LLVMContextRef ctx, LLVMModuleRef m, struct clc_arg_table **out,
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
            t->n++; /* a partial entry on failure, for clc_arg_table_destroy */
        rc = rc == 1 ? 0 : rc; /* a kernel without names is left out */
    }
    if (rc || !t->n) {
        clc_arg_table_destroy(t);
        t = NULL;
    }
    *out = t;
    return rc ? ps_err_set(err, PS_ENOMEM, "out of memory") : 0;
}

/* ---- SPIR (spir64 LLVM bitcode) to nvptx64 ----------------------------- */

#define CLC_NVPTX_TRIPLE "nvptx64-nvidia-nvcl"
#define CLC_NVPTX_LAYOUT "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"

static bool prefix(const char *s, const char *p)
{
    return !strncmp(s, p, strlen(p));
}

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
        else if (!quoted && prefix(s, "addrspace(2)"))
            s[10] = '4';
        else if (!quoted && prefix(s, "U3AS2") && !(s[5] >= '0' && s[5] <= '9'))
            s[4] = '4';
        else if (!quoted && prefix(s, "spir_func ")) {
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
static int retarget(LLVMContextRef ctx, LLVMModuleRef *m, struct ps_err *err)
{
    const char *triple = LLVMGetTarget(*m);
    LLVMMemoryBufferRef buf;
    LLVMModuleRef out;
    char *text, *msg = NULL;

    if (prefix(triple, "nvptx64"))
        return 0;
    if (!prefix(triple, "spir64"))
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
static int lower_bitcode_in(LLVMContextRef ctx, const char *diag, const void *bc, size_t len,
                            char **ptx, struct clc_arg_table **args, struct ps_err *err)
{
    LLVMModuleRef m = NULL;
    int rc = parse_bitcode(ctx, bc, len, "program binary", &m, err);

    if (!rc)
        rc = retarget(ctx, &m, err);
    if (!rc && args)
        rc = read_arg_table(ctx, m, args, err);
    if (!rc)
        rc = lower_module(ctx, m, true, ptx, err);
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

/* ---- public entry points ------------------------------------------------ */

bool clc_is_bitcode(const void *bin, size_t len)
{
    static const unsigned char raw[4] = {'B', 'C', 0xc0, 0xde}, wrap[4] = {0xde, 0xc0, 0x17, 0x0b};

    return len >= 4 && (!memcmp(bin, raw, 4) || !memcmp(bin, wrap, 4));
}

bool clc_is_spirv(const void *il, size_t len)
{
    static const unsigned char le[4] = {0x03, 0x02, 0x23, 0x07}, be[4] = {0x07, 0x23, 0x02, 0x03};

    return len >= 20 && len % 4 == 0 && (!memcmp(il, le, 4) || !memcmp(il, be, 4));
}

int clc_check_bitcode(const void *bc, size_t len, struct ps_err *err)
{
    char diag[PS_ERR_MSG_MAX / 2];
    LLVMContextRef ctx = context_new(diag);
    LLVMModuleRef m = NULL;
    int rc = parse_bitcode(ctx, bc, len, "program binary", &m, err);
    const char *triple = m ? LLVMGetTarget(m) : "";

    if (!rc && !prefix(triple, "nvptx64") && !prefix(triple, "spir64"))
        rc = ps_err_set(err, PS_EINVAL, "LLVM module for '%s' (want spir64 or nvptx64)", triple);
    if (m)
        LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    return rc;
}

int clc_compile(const char *src, size_t len, const char *options, char **ptx, char **log,
                struct clc_arg_table **args, struct ps_err *err)
{
    struct clc_tmp t;
    char diag[PS_ERR_MSG_MAX / 2];
    LLVMContextRef ctx;
    LLVMModuleRef m = NULL;
    int rc;

    *ptx = NULL;
    if (log)
        *log = NULL;
    if (args)
        *args = NULL;
    rc = tmp_create(&t, err);
    if (!rc)
        rc = write_file(t.src, src, len, err);
    if (!rc)
        rc = compile_source(&t, options, log, err);
    if (rc) {
        tmp_cleanup(&t);
        return rc;
    }
    ctx = context_new(diag);
    rc = load_bitcode(ctx, t.bc, &m, err);
    if (!rc && args)
        rc = read_arg_table(ctx, m, args, err);
    if (!rc)
        rc = lower_module(ctx, m, false, ptx, err);
    if (rc && args) {
        clc_arg_table_destroy(*args);
        *args = NULL;
    }
    if (m)
        LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    tmp_cleanup(&t);
    return rc;
}

int clc_compile_object(const char *src, size_t len, const char *options,
                       const struct clc_header *headers, size_t nheaders, void **bc,
                       size_t *bc_len, char **log, struct ps_err *err)
{
    struct clc_tmp t;
    int rc;

    *bc = NULL;
    if (log)
        *log = NULL;
    rc = tmp_create(&t, err);
    if (rc)
        return rc;
    rc = write_headers(&t, headers, nheaders, err);
    if (!rc)
        rc = write_file(t.src, src, len, err);
    if (!rc)
        rc = compile_source(&t, options, log, err);
    if (!rc && !(*bc = read_all(t.bc, bc_len)))
        rc = ps_err_set(err, PS_EIO, "cannot read %s", t.bc);
    tmp_cleanup(&t);
    return rc;
}

int clc_link_objects(const void *const *bcs, const size_t *lens, size_t n, void **out,
                     size_t *out_len, struct ps_err *err)
{
    char diag[PS_ERR_MSG_MAX / 2];
    LLVMContextRef ctx = context_new(diag);
    LLVMModuleRef m = NULL;
    LLVMMemoryBufferRef buf;
    int rc = n ? 0 : ps_err_set(err, PS_EINVAL, "nothing to link");

    *out = NULL;
    for (size_t i = 0; !rc && i < n; i++) {
        LLVMModuleRef cur = NULL;

        rc = parse_bitcode(ctx, bcs[i], lens[i], "program binary", &cur, err);
        if (!rc)
            rc = retarget(ctx, &cur, err);
        if (rc && cur)
            LLVMDisposeModule(cur);
        else if (!rc && !m)
            m = cur;
        else if (!rc && LLVMLinkModules2(m, cur)) /* takes cur */
            rc = ps_err_set(err, PS_EPARSE, "link failed: %s", *diag ? diag : "?");
    }
    if (!rc) {
        buf = LLVMWriteBitcodeToMemoryBuffer(m);
        *out_len = LLVMGetBufferSize(buf);
        *out = malloc(*out_len);
        if (*out)
            memcpy(*out, LLVMGetBufferStart(buf), *out_len);
        else
            rc = ps_err_set(err, PS_ENOMEM, "out of memory");
        LLVMDisposeMemoryBuffer(buf);
    }
    if (m)
        LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    return rc;
}

int clc_lower_bitcode(const void *bc, size_t len, char **ptx, struct clc_arg_table **args,
                      struct ps_err *err)
{
    char diag[PS_ERR_MSG_MAX / 2];
    LLVMContextRef ctx = context_new(diag);
    int rc;

    *ptx = NULL;
    if (args)
        *args = NULL;
    rc = lower_bitcode_in(ctx, diag, bc, len, ptx, args, err);
    LLVMContextDispose(ctx);
    return rc;
}

/* The translator: $PTXSIM_LLVM_SPIRV, else llvm-spirv-14 or llvm-spirv on PATH, else /usr/bin. */
static bool find_spirv_tool(char *path, size_t size)
{
    static const char *const names[] = {"llvm-spirv-14", "llvm-spirv"};
    const char *env = getenv("PTXSIM_LLVM_SPIRV"), *dirs = getenv("PATH"), *p, *e;

    if (env && *env) {
        snprintf(path, size, "%s", env);
        return access(path, X_OK) == 0;
    }
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        for (p = dirs ? dirs : ""; *p; p = *e ? e + 1 : e) {
            e = strchr(p, ':');
            e = e ? e : p + strlen(p);
            snprintf(path, size, "%.*s/%s", (int)(e - p), p, names[i]);
            if (e > p && access(path, X_OK) == 0)
                return true;
        }
    }
    snprintf(path, size, "/usr/bin/llvm-spirv-14");
    return access(path, X_OK) == 0;
}

/* llvm-spirv -r: t->spv -> t->bc, with OpenCL 1.2 built-in names (what libclc defines). */
static int translate_spirv(struct clc_tmp *t, char **log, struct ps_err *err)
{
    char tool[4096], *text;
    char *argv[] = {tool, "-r", "--spirv-target-env=CL1.2", "-o", t->bc, t->spv, NULL};
    int status;

    if (!find_spirv_tool(tool, sizeof(tool)))
        return ps_err_set(err, PS_ENOTSUP, "SPIR-V needs the translator llvm-spirv-14 (Debian package llvm-spirv-14), not found on PATH or as %s",
                          tool);
    status = run_tool(argv, t->log);
    text = read_all(t->log, NULL);
    if (text)
        strip_dir(text, t->dir);
    if (status < 0 || status == 127)
        ps_err_set(err, PS_EIO, "cannot run %s", tool);
    else if (status)
        ps_err_set(err, PS_EPARSE, "SPIR-V translation failed: %s", text ? text : "");
    if (log && text && *text)
        *log = text;
    else
        free(text);
    return status ? err->code : 0;
}

int clc_lower_spirv(const void *il, size_t len, char **ptx, char **log, struct ps_err *err)
{
    char diag[PS_ERR_MSG_MAX / 2], *bc;
    struct clc_tmp t;
    LLVMContextRef ctx;
    size_t bc_len = 0;
    int rc;

    *ptx = NULL;
    if (log)
        *log = NULL;
    rc = tmp_create(&t, err);
    if (rc)
        return rc;
    rc = write_file(t.spv, il, len, err);
    if (!rc)
        rc = translate_spirv(&t, log, err);
    bc = rc ? NULL : read_all(t.bc, &bc_len);
    tmp_cleanup(&t);
    if (rc || !bc)
        return rc ? rc : ps_err_set(err, PS_EIO, "cannot read the translated SPIR-V");
    ctx = context_new(diag);
    rc = lower_bitcode_in(ctx, diag, bc, bc_len, ptx, NULL, err);
    LLVMContextDispose(ctx);
    free(bc);
    return rc;
}
