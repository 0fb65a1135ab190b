/*
 * OpenCL C to PTX through clang 14 (a subprocess) and the LLVM 14 C API.
 * See clc.h for the route and docs/opencl.md for the options accepted.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* mkdtemp */
#endif
#include "frontend/clc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <llvm-c/BitReader.h>
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

        if (pair) {
            rc = add_arg(a, o, err);
            if (!rc)
                rc = add_arg(a, words[++i], err);
        } else if (!strncmp(o, "-D", 2) || !strncmp(o, "-I", 2) ||
                   !strncmp(o, "-cl-", 4) || !strcmp(o, "-w") || !strcmp(o, "-Werror")) {
            if (strcmp(o, "-cl-kernel-arg-info") && strcmp(o, "-cl-opt-disable"))
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
static int run_clang(char *const *argv, const char *log_path)
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

struct clc_tmp {
    char dir[64];
    char src[96], bc[96], log[96];
};

static void tmp_cleanup(struct clc_tmp *t)
{
    unlink(t->src);
    unlink(t->bc);
    unlink(t->log);
    rmdir(t->dir);
}

static int tmp_create(struct clc_tmp *t, const char *src, size_t len, struct ps_err *err)
{
    const char *base = getenv("TMPDIR");
    FILE *fp;

    snprintf(t->dir, sizeof(t->dir), "%s/ptxsim-clc.XXXXXX",
             base && *base && strlen(base) < 40 ? base : "/tmp");
    if (!mkdtemp(t->dir))
        return ps_err_set(err, PS_EIO, "cannot create a temporary directory: %s", strerror(errno));
    snprintf(t->src, sizeof(t->src), "%s/program.cl", t->dir);
    snprintf(t->bc, sizeof(t->bc), "%s/program.bc", t->dir);
    snprintf(t->log, sizeof(t->log), "%s/clang.log", t->dir);
    fp = fopen(t->src, "wb");
    if (!fp || fwrite(src, 1, len, fp) != len || fclose(fp)) {
        if (fp)
            fclose(fp);
        tmp_cleanup(t);
        return ps_err_set(err, PS_EIO, "cannot write %s", t->src);
    }
    return 0;
}

/* clang: OpenCL C -> bitcode in t->bc; its diagnostics in *log. */
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
        add_arg(&a, "-o", err);
        add_arg(&a, t->bc, err);
        rc = add_arg(&a, t->src, err);
    }
    if (rc)
        goto out;
    a.argv[a.argc] = NULL;
    status = run_clang(a.argv, t->log);
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

static int load_bitcode(LLVMContextRef ctx, const char *path, LLVMModuleRef *m, struct ps_err *err)
{
    LLVMMemoryBufferRef buf;
    char *msg = NULL;

    if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &msg)) {
        ps_err_set(err, PS_EIO, "cannot read %s: %s", path, msg ? msg : "?");
        LLVMDisposeMessage(msg);
        return PS_EIO;
    }
    if (LLVMParseBitcodeInContext2(ctx, buf, m)) {
        LLVMDisposeMemoryBuffer(buf);
        return ps_err_set(err, PS_EPARSE, "cannot parse bitcode %s", path);
    }
    LLVMDisposeMemoryBuffer(buf);
    return 0;
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

/* Links the prelude and libclc (whose get_global_id is renamed) into m. */
static int link_builtins(LLVMContextRef ctx, LLVMModuleRef m, struct ps_err *err)
{
    LLVMModuleRef pre = NULL, clc = NULL;
    LLVMValueRef gid;
    int rc = load_prelude(ctx, m, &pre, err);

    if (rc)
        return rc;
    if (LLVMLinkModules2(m, pre)) /* takes pre */
        return ps_err_set(err, PS_EPARSE, "cannot link the prelude");
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

static int lower(const char *bc_path, char **ptx, struct ps_err *err)
{
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = NULL;
    int rc = load_bitcode(ctx, bc_path, &m, err);

    if (!rc)
        rc = link_builtins(ctx, m, err);
    if (!rc) {
        internalize(m);
        rc = emit_ptx(m, ptx, err);
    }
    if (m)
        LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    return rc;
}

int clc_compile(const char *src, size_t len, const char *options, char **ptx, char **log,
                struct ps_err *err)
{
    struct clc_tmp t;
    int rc;

    *ptx = NULL;
    if (log)
        *log = NULL;
    rc = tmp_create(&t, src, len, err);
    if (rc)
        return rc;
    rc = compile_source(&t, options, log, err);
    if (!rc)
        rc = lower(t.bc, ptx, err);
    tmp_cleanup(&t);
    return rc;
}
