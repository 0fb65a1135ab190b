/*
 * OpenCL front end, subprocesses: option strings split into argument vectors, the
 * private temporary directory of one compilation (sources, headers, logs), and the
 * tools run in it: clang for OpenCL C and llvm-spirv for SPIR-V. Calls no LLVM API.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* mkdtemp, nftw */
#endif
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

#include "common/err.h"
#include "config.h"
#include "frontend/clc_int.h"

#define CLC_MAX_ARGS 256

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
        } else if (!strncmp(o, "-D", 2) || !strncmp(o, "-I", 2) || !strncmp(o, "-cl-", 4) ||
                   !strcmp(o, "-w") || !strcmp(o, "-Werror")) {
            if (strcmp(o, "-cl-opt-disable")) /* -cl-kernel-arg-info: clang names the args */
                rc = add_arg(a, o, err);
        } else {
            rc = ps_err_set(err, PS_EINVAL, "unsupported build option '%s'", o);
        }
    }
    free(words);
    return rc;
}

char *clc_read_all(const char *path, size_t *len)
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
static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

/* Removes the directory and everything in it (header files may add subdirectories). */
void clc_tmp_cleanup(struct clc_tmp *t)
{
    nftw(t->dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
}

int clc_write_file(const char *path, const void *data, size_t len, struct ps_err *err)
{
    FILE *fp = fopen(path, "wb");

    if (!fp || fwrite(data, 1, len, fp) != len || fclose(fp)) {
        if (fp)
            fclose(fp);
        return ps_err_set(err, PS_EIO, "cannot write %s", path);
    }
    return 0;
}

int clc_tmp_create(struct clc_tmp *t, struct ps_err *err)
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
int clc_write_headers(struct clc_tmp *t, const struct clc_header *h, size_t n, struct ps_err *err)
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
        rc = clc_write_file(path, h[i].src, h[i].len, err);
    }
    return rc;
}

/* clang: t->src (OpenCL C) -> bitcode in t->bc; its diagnostics in *log. */
int clc_compile_source(struct clc_tmp *t, const char *options, char **log, struct ps_err *err)
{
    static const char *const fixed[] = {
        PTXSIM_CLANG_PATH,
        "-x",
        "cl",
        "-target",
        "nvptx64-nvidia-nvcl",
        "-Xclang",
        "-finclude-default-header",
        "-fno-color-diagnostics",
        "-O2",
        "-emit-llvm",
        "-c",
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
    text = clc_read_all(t->log, NULL);
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
int clc_translate_spirv(struct clc_tmp *t, char **log, struct ps_err *err)
{
    char tool[4096], *text;
    char *argv[] = {tool, "-r", "--spirv-target-env=CL1.2", "-o", t->bc, t->spv, NULL};
    int status;

    if (!find_spirv_tool(tool, sizeof(tool)))
        return ps_err_set(
            err, PS_ENOTSUP,
            "SPIR-V needs the translator llvm-spirv-14 (Debian package llvm-spirv-14), not found on PATH or as %s",
            tool);
    status = run_tool(argv, t->log);
    text = clc_read_all(t->log, NULL);
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
