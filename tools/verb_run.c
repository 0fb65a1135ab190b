/*
 * `ptxsim run [OPTIONS] -- PROGRAM [ARGS...]`: runs an unmodified CUDA
 * program (built by nvcc with the runtime linked statically, nvcc's default,
 * or shared, or using the driver API) on ptxsim. It puts the directory of
 * ptxsim's libcudart.so.13, libcuda.so.1 and libnvJitLink.so.13 (one library,
 * three names) first in LD_LIBRARY_PATH, for the program only
 * (the build tree's when ptxsim runs from its build directory, else the
 * installed one in $(pkglibdir)),
 * passes the options to the library through PTXSIM_* variables and execs
 * the program, whose stdout and stderr pass through untouched.
 */
#define _GNU_SOURCE /* strchrnul */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/err.h"
#include "runtime/ptxsim.h"
#include "tools/verbs.h"

#ifndef PTXSIM_PKGLIBDIR
#define PTXSIM_PKGLIBDIR "/usr/local/lib/ptxsim"
#endif

#define RUN_LIB "libcudart.so.13"

struct run_opts {
    const char *config;
    char config_path[4096]; /* the resolved machine description */
    const char *mode;
    const char *stats;
    const char *budget;
    char *options; /* -o values, one per line (malloc'd) */
    char **prog;   /* PROGRAM and its arguments */
};

static void usage(FILE *out)
{
    fprintf(out, "usage: ptxsim run [OPTIONS] [--] PROGRAM [ARGS...]\n"
                 "  --config NAME|FILE   machine configuration: gtx480 (the default, unless the\n"
                 "                       working directory has a gpgpusim.config), dyncta-30core,\n"
                 "                       ccws-30core, bypass-gtx480, or a file in GPGPU-Sim's\n"
                 "                       option syntax\n"
                 "  -o OPTION=VALUE      set a configuration option (repeatable, applied in order\n"
                 "                       after the file; e.g. -o gpgpu_scheduler=lrr)\n"
                 "  --mode MODE          timing or functional (default: the configuration's\n"
                 "                       -gpgpu_ptx_sim_mode, 0 = timing)\n"
                 "  --stats FILE         write per-kernel statistics as JSON at exit\n"
                 "  --budget N           stop a kernel after N warp instructions (default\n"
                 "                       10000000000, the watchdog of endless kernels; 0 = no\n"
                 "                       limit; the launch fails with cudaErrorLaunchTimeout)\n"
                 "  --memcheck           stop at the first device access outside an allocation\n"
                 "                       (-o ptxsim_memcheck=1; default: such accesses inside\n"
                 "                       mapped pages succeed as on a GPU and are counted)\n"
                 "A CUDA PROGRAM may be built by nvcc with any -cudart (static, nvcc's\n"
                 "default, or shared) or use the driver API (libcuda.so.1); NVRTC, nvJitLink\n"
                 "(PTX only) and numba-cuda programs run as they are.\n");
}

static int add_option(struct run_opts *o, const char *kv)
{
    size_t have = o->options ? strlen(o->options) : 0;
    char *n;

    if (!strchr(kv, '=') || kv[0] == '=') {
        fprintf(stderr, "ptxsim run: -o expects OPTION=VALUE, not '%s'\n", kv);
        return 2;
    }
    n = realloc(o->options, have + strlen(kv) + 2);
    if (!n)
        return 1;
    sprintf(n + have, "%s%s", have ? "\n" : "", kv);
    o->options = n;
    return 0;
}

/* The value of option `name` at argv[*i] ("--name V" or "--name=V"), or NULL. */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
    size_t n = strlen(name);

    if (strncmp(argv[*i], name, n))
        return NULL;
    if (argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (argv[*i][n] || *i + 1 >= argc)
        return NULL;
    return argv[++*i];
}

/* One option at argv[*i]: 0, 2 for a usage error, or -1 after --help. */
static int parse_one(int argc, char **argv, int *i, struct run_opts *o)
{
    const char *a = argv[*i], *v;

    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
        usage(stdout);
        return -1;
    }
    if ((v = opt_value(argc, argv, i, "--config")))
        o->config = v;
    else if ((v = opt_value(argc, argv, i, "--mode")))
        o->mode = v;
    else if ((v = opt_value(argc, argv, i, "--stats")))
        o->stats = v;
    else if ((v = opt_value(argc, argv, i, "--budget")))
        o->budget = v;
    else if (!strcmp(a, "--memcheck"))
        return add_option(o, "ptxsim_memcheck=1");
    else if (!strcmp(a, "-o") && *i + 1 < argc)
        return add_option(o, argv[++*i]);
    else if (!strncmp(a, "-o", 2) && a[2])
        return add_option(o, a + 2);
    else
        return fprintf(stderr, "ptxsim run: unknown or incomplete option '%s'\n", a), 2;
    return 0;
}

static int parse_args(int argc, char **argv, struct run_opts *o)
{
    int i, rc;

    for (i = 0; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "--")) {
            i++;
            break;
        }
        rc = parse_one(argc, argv, &i, o);
        if (rc)
            return rc;
    }
    if (i >= argc) {
        usage(stderr);
        return 2;
    }
    o->prog = argv + i;
    return 0;
}

static int check_opts(struct run_opts *o)
{
    struct ps_config cfg;
    struct ps_err err;
    const char *p;

    ps_err_clear(&err);
    if (!o->config && strcmp(o->config = ptxsim_config_default(), "gtx480"))
        fprintf(stderr,
                "ptxsim run: using ./%s from the working directory (GPGPU-Sim's "
                "convention; --config gtx480 ignores it)\n",
                o->config);
    if (ptxsim_config_find(o->config, o->config_path, sizeof(o->config_path), &err) ||
        ptxsim_config_build(o->config_path, o->options, &cfg, &err)) {
        ptxsim_config_perror("ptxsim run", &err, stderr);
        return 2;
    }
    ptxsim_config_warn(&cfg, "ptxsim run", stderr);
    ps_config_free(&cfg);
    if (o->config_path[0] != '/') {
        char cwd[PATH_MAX], tmp[sizeof(o->config_path)];

        if (getcwd(cwd, sizeof(cwd)) &&
            snprintf(tmp, sizeof(tmp), "%s/%s", cwd, o->config_path) < (int)sizeof(tmp))
            memcpy(o->config_path, tmp, sizeof(tmp));
    }
    if (o->mode && strcmp(o->mode, "functional") && strcmp(o->mode, "timing")) {
        fprintf(stderr, "ptxsim run: unknown mode '%s' (functional or timing)\n", o->mode);
        return 2;
    }
    for (p = o->budget; p && *p; p++)
        if (*p < '0' || *p > '9')
            break;
    if (o->budget && (!*o->budget || *p)) {
        fprintf(stderr, "ptxsim run: --budget expects a number of warp instructions\n");
        return 2;
    }
    return 0;
}

static bool is_file(const char *path)
{
    return access(path, F_OK) == 0;
}

/* The directory holding our libcudart.so.13: the build tree's, else the installed one. */
static int find_libdir(char *out, size_t len)
{
    static const char *const rel[] = {"runtime/cuda/.libs", "../runtime/cuda/.libs"};
    char exe[PATH_MAX], path[PATH_MAX + 64];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    char *slash;

    if (n > 0) {
        exe[n] = '\0';
        slash = strrchr(exe, '/');
        if (slash)
            *slash = '\0';
        for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
            snprintf(path, sizeof(path), "%s/%s/%s", exe, rel[i], RUN_LIB);
            if (is_file(path) && snprintf(out, len, "%s/%s", exe, rel[i]) < (int)len)
                return 0;
        }
    }
    snprintf(path, sizeof(path), "%s/%s", PTXSIM_PKGLIBDIR, RUN_LIB);
    if (is_file(path) && snprintf(out, len, "%s", PTXSIM_PKGLIBDIR) < (int)len)
        return 0;
    fprintf(stderr, "ptxsim run: cannot find ptxsim's %s (looked beside %s and in %s)\n", RUN_LIB,
            n > 0 ? exe : "the ptxsim binary", PTXSIM_PKGLIBDIR);
    return 1;
}

/* The file execvp would run for name, in out; -1 if there is none. */
static int resolve(const char *name, char *out, size_t len)
{
    const char *path = getenv("PATH"), *p, *end;

    if (strchr(name, '/')) {
        snprintf(out, len, "%s", name);
        return is_file(out) ? 0 : -1;
    }
    for (p = path ? path : "/usr/local/bin:/usr/bin:/bin"; *p; p = *end ? end + 1 : end) {
        end = strchrnul(p, ':');
        snprintf(out, len, "%.*s/%s", (int)(end - p), end > p ? p : ".", name);
        if (access(out, X_OK) == 0)
            return 0;
    }
    return -1;
}

/* The program must exist (execvp's error would come after the environment is set up). */
static int check_program(const char *name)
{
    char path[PATH_MAX];

    if (resolve(name, path, sizeof(path))) {
        fprintf(stderr, "ptxsim run: %s: program not found\n", name);
        return 1;
    }
    return 0;
}

static int prepend_env(const char *var, const char *dir)
{
    const char *old = getenv(var);
    size_t n = strlen(dir) + (old ? strlen(old) : 0) + 2;
    char *v = malloc(n);
    int rc;

    if (!v)
        return -1;
    snprintf(v, n, "%s%s%s", dir, old && *old ? ":" : "", old && *old ? old : "");
    rc = setenv(var, v, 1);
    free(v);
    return rc;
}

/*
 * A sanitizer build of ptxsim has a sanitized libcudart, whose ASan runtime
 * must be loaded first: preload the one this process uses.
 */
static int preload_asan(void)
{
#if defined(__SANITIZE_ADDRESS__)
    char line[PATH_MAX + 256], *p;
    FILE *fp = fopen("/proc/self/maps", "r");
    int rc = 0;

    while (fp && fgets(line, sizeof(line), fp)) {
        p = strchr(line, '/');
        if (p && strstr(p, "/libasan.so")) {
            p[strcspn(p, "\n")] = '\0';
            rc = prepend_env("LD_PRELOAD", p);
            break;
        }
    }
    if (fp)
        fclose(fp);
    return rc;
#else
    return 0;
#endif
}

static int set_stats_path(const char *stats)
{
    char cwd[PATH_MAX], *abs;
    int rc;

    if (stats[0] == '/' || !getcwd(cwd, sizeof(cwd)))
        return setenv("PTXSIM_STATS", stats, 1);
    abs = malloc(strlen(cwd) + strlen(stats) + 2);
    if (!abs)
        return -1;
    sprintf(abs, "%s/%s", cwd, stats);
    rc = setenv("PTXSIM_STATS", abs, 1);
    free(abs);
    return rc;
}

/* OpenCL programs: ocl-icd also loads ptxsim's ICD, found beside libcudart. */
/*
 * OpenCL programs: ocl-icd loads the ICDs listed in OCL_ICD_VENDORS, so point it
 * at a directory holding only ptxsim's (the build tree's, or the installed one).
 */
static int set_ocl_icd(const char *libdir)
{
    char path[PATH_MAX + 64];
    const char *cuda = strstr(libdir, "runtime/cuda/.libs");

    if (cuda && !cuda[strlen("runtime/cuda/.libs")])
        snprintf(path, sizeof(path), "%.*sruntime/opencl/vendors", (int)(cuda - libdir), libdir);
    else
        snprintf(path, sizeof(path), "%s/vendors", libdir);
    strncat(path, "/ptxsim.icd", sizeof(path) - strlen(path) - 1);
    if (!is_file(path))
        return 0;
    path[strlen(path) - strlen("/ptxsim.icd")] = '\0';
    return setenv("OCL_ICD_VENDORS", path, 1);
}

static int set_env(const struct run_opts *o, const char *libdir)
{
    if (set_ocl_icd(libdir))
        return -1;
    if (prepend_env("LD_LIBRARY_PATH", libdir) || preload_asan() ||
        setenv("PTXSIM_CONFIG", o->config_path, 1))
        return -1;
    if (o->mode ? setenv("PTXSIM_MODE", o->mode, 1) : unsetenv("PTXSIM_MODE"))
        return -1;
    if (o->stats && set_stats_path(o->stats))
        return -1;
    if (o->budget && setenv("PTXSIM_BUDGET", o->budget, 1))
        return -1;
    if (o->options ? setenv("PTXSIM_OPTIONS", o->options, 1) : unsetenv("PTXSIM_OPTIONS"))
        return -1;
    /*
     * CuPy compiles with NVRTC to a cubin (SASS) for the device's compute
     * capability, which ptxsim cannot run; its documented switch makes it keep
     * NVRTC's PTX instead. A value the user set stands (docs/cuda-driver.md).
     */
    if (setenv("CUPY_COMPILE_WITH_PTX", "1", 0))
        return -1;
    return 0;
}

int verb_run(int argc, char **argv)
{
    struct run_opts o = {0};
    char libdir[PATH_MAX];
    int rc = parse_args(argc, argv, &o);

    if (rc)
        goto out;
    rc = check_opts(&o);
    if (!rc)
        rc = find_libdir(libdir, sizeof(libdir));
    if (!rc)
        rc = check_program(o.prog[0]);
    if (!rc && set_env(&o, libdir)) {
        fprintf(stderr, "ptxsim run: cannot set the environment: %s\n", strerror(errno));
        rc = 1;
    }
    if (!rc) {
        fflush(NULL);
        execvp(o.prog[0], o.prog);
        fprintf(stderr, "ptxsim run: cannot run %s: %s\n", o.prog[0], strerror(errno));
        rc = errno == ENOENT ? 127 : 126;
    }
out:
    free(o.options);
    return rc < 0 ? 0 : rc;
}
