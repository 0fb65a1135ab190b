/*
 * HeteroPDP's kernel-set driver (docs/heteropdp.md): runs the kernels of
 * kernels.cl at N elements on the first device of the platform named like
 * $OCL_PLATFORM (default "ptxsim"; OCL_DEVICE=cpu asks for the CPU device),
 * checks every output against a host reference and prints one line per
 * kernel: "NAME ok|BAD mismatches". Exit 0 when all agree, 1 otherwise.
 *
 *   hpdp_kernels kernels.cl N [NAME...]
 *
 * Float outputs agree within 2e-3 relative (the devices' sin, exp, erfc and
 * rsqrt differ in the last bits); the iteration-count kernels (mandel,
 * diverge) may differ in under 0.5% of elements, where contracted and
 * uncontracted arithmetic cross a threshold differently.
 *
 * Co-located measurement (docs/heteropdp.md, "Co-located evaluation"): with
 * HPDP_REPEAT_S=W the kernel is launched again and again for W seconds after
 * its checked launch (each launch is one more line of the HeteroPDP log). With
 * PTXSIM_HETEROPDP_CORUNNERS=DIR too, the co-runners' work counters
 * (DIR/<pid>.work, corunner.c) are read over a W-second window with no kernel
 * (their baseline rate) and over the repeat window; each co-runner's slowdown
 * (baseline rate / rate beside the kernel) goes to the log
 * (PTXSIM_HETEROPDP_LOG) as one line
 *     cosd app=APP kernel=NAME dev=DEV T=GLOBAL Buf=BYTES launches=L sd=S1,S2,...
 * (co-runners in pid order, as the runtime's telemetry lists them).
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>

#define CK(x)                                                                                      \
    do {                                                                                           \
        cl_int rc_ = (x);                                                                          \
        if (rc_) {                                                                                 \
            fprintf(stderr, "%s: %d\n", #x, rc_);                                                  \
            exit(2);                                                                               \
        }                                                                                          \
    } while (0)

static const char *const names[] = {
    "vadd",    "saxpy",   "copy",      "sqrtabs", "poly",   "sinexp", "loopfma", "mandel",
    "stencil", "gather",  "transpose", "matmul",  "reduce", "histo",  "inthash", "bits",
    "vec4add", "vec4dot", "conv9",     "bsm",     "nbody",  "diverge"};
#define NK (sizeof(names) / sizeof(names[0]))

static uint32_t rotl(uint32_t v, int s)
{
    return (v << s) | (v >> (32 - s));
}
static int clz32(uint32_t v)
{
    return v ? __builtin_clz(v) : 32;
}

/* The host reference of kernel k at element i (NAN: element not written). */
static double ref(int k, const float *a, const float *b, int n, int i)
{
    int w = (int)sqrtf((float)n);
    switch (k) {
    case 0:
        return a[i] + b[i];
    case 1:
        return 2.5f * a[i] + b[i];
    case 2:
        return a[i];
    case 3:
        return sqrt(fabs(a[i])) + b[i];
    case 4: {
        double x = a[i];
        return x * (x * (x * 0.3 + 0.2) + 0.1) + b[i];
    }
    case 5:
        return sin(a[i]) + exp(-(double)b[i] * b[i]);
    case 6: {
        float x = a[i], y = b[i];
        for (int q = 0; q < 256; q++)
            x = fmaf(x, 0.999f, y * 0.001f);
        return x;
    }
    case 7: {
        float cr = a[i] * 2.0f - 1.5f, ci = b[i] * 2.0f - 1.0f, zr = 0, zi = 0;
        int q = 0;
        for (; q < 64 && zr * zr + zi * zi < 4.0f; q++) {
            float t = zr * zr - zi * zi + cr;
            zi = 2.0f * zr * zi + ci;
            zr = t;
        }
        return q;
    }
    case 8:
        return ((i > 0 ? a[i - 1] : 0.0f) + a[i] + (i + 1 < n ? a[i + 1] : 0.0f)) / 3.0;
    case 9:
        return a[(int)(((long)i * 7919) % n)];
    case 10: {
        if (i >= w * w)
            return NAN;
        int r = i / w, c = i % w;
        return a[c * w + r];
    }
    case 11: {
        int m = w / 4;
        double s = 0;
        if (i >= m * m)
            return NAN;
        for (int q = 0; q < m; q++)
            s += (double)a[(i / m) * m + q] * b[q * m + i % m];
        return s;
    }
    case 12: {
        if (i >= (n + 63) / 64)
            return NAN;
        double s = 0;
        for (int q = i * 64; q < i * 64 + 64 && q < n; q++)
            s += a[q];
        return s;
    }
    case 14: {
        uint32_t h = (uint32_t)i;
        for (int q = 0; q < 32; q++) {
            h ^= h >> 16;
            h *= 0x7feb352dU;
            h ^= h >> 15;
            h *= 0x846ca68bU;
        }
        return h & 1023u;
    }
    case 15: {
        uint32_t v = (uint32_t)i * 2654435761u;
        return __builtin_popcount(v) + clz32(v | 1u) + (int)rotl(v, 7) % 5;
    }
    case 16:
        return i < n / 4 * 4 ? a[i] * 1.5f + b[i] : NAN;
    case 17: {
        if (i >= n / 4)
            return NAN;
        double s = 0;
        for (int q = 0; q < 4; q++)
            s += (double)a[4 * i + q] * b[4 * i + q];
        return s;
    }
    case 18: {
        double s = 0;
        for (int q = -4; q <= 4; q++) {
            int j = i + q;
            s += (j >= 0 && j < n ? a[j] : 0.0) * (0.1f + 0.01f * q);
        }
        return s;
    }
    case 19: {
        double s = 10 + 90.0 * a[i], kk = 10 + 90.0 * b[i], v = 0.3, r = 0.02;
        double d1 = (log(s / kk) + (r + 0.5 * v * v)) / v, d2 = d1 - v;
        return s * 0.5 * erfc(-d1 / sqrt(2.0)) - kk * exp(-r) * 0.5 * erfc(-d2 / sqrt(2.0));
    }
    case 20: {
        double f = 0;
        for (int q = 0; q < 64; q++) {
            double d = (double)a[i] - a[(i + q * 37) % n] + 0.01f;
            f += d / sqrt(d * d + 0.1f);
        }
        return f;
    }
    case 21: {
        float x = a[i];
        if (i % 3 == 0) {
            for (int q = 0; q < 32; q++)
                x = x * 0.9f + 0.1f;
        } else if (i % 3 == 1) {
            x = sqrtf(x + 1.0f);
        } else {
            x = -x;
        }
        return x + b[i];
    }
    }
    return NAN;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    long n;
    char *s;
    if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
        perror(path);
        exit(2);
    }
    s = calloc(1, (size_t)n + 1);
    if (!s || fread(s, 1, (size_t)n, f) != (size_t)n) {
        perror(path);
        exit(2);
    }
    fclose(f);
    return s;
}

static cl_device_id pick(cl_platform_id *plat)
{
    const char *want = getenv("OCL_PLATFORM"), *dev = getenv("OCL_DEVICE");
    cl_platform_id ps[8];
    cl_uint np = 0;
    cl_device_id d;
    char name[256];
    CK(clGetPlatformIDs(8, ps, &np));
    for (cl_uint i = 0; i < np; i++) {
        CK(clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof(name), name, NULL));
        if (strstr(name, want && *want ? want : "ptxsim")) {
            *plat = ps[i];
            CK(clGetDeviceIDs(ps[i],
                              dev && !strcmp(dev, "cpu") ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_ALL,
                              1, &d, NULL));
            return d;
        }
    }
    fprintf(stderr, "no platform like %s\n", want ? want : "ptxsim");
    exit(2);
}

#define MAXCO 4

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int by_pid(const void *a, const void *b)
{
    long x = atol(*(const char *const *)a), y = atol(*(const char *const *)b);
    return (x > y) - (x < y);
}

/* Maps the co-runners' work counters of dir, in pid order; returns how many. */
static int map_counters(const char *dir, volatile double **cnt)
{
    static char names_buf[MAXCO][300];
    char *files[MAXCO], path[600];
    struct dirent *e;
    DIR *d = opendir(dir);
    int n = 0;

    while (d && (e = readdir(d)) && n < MAXCO) {
        const char *dot = strrchr(e->d_name, '.');
        if (dot && !strcmp(dot, ".work")) {
            snprintf(names_buf[n], sizeof(names_buf[n]), "%s", e->d_name);
            files[n] = names_buf[n];
            n++;
        }
    }
    if (d)
        closedir(d);
    qsort(files, (size_t)n, sizeof(files[0]), by_pid);
    for (int i = 0; i < n; i++) {
        int fd;
        snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
        fd = open(path, O_RDONLY);
        cnt[i] = fd < 0 ? MAP_FAILED : mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
        if (fd >= 0)
            close(fd);
        if (cnt[i] == MAP_FAILED) {
            fprintf(stderr, "cannot map %s\n", path);
            exit(2);
        }
    }
    return n;
}

/* Each co-runner's work rate since t0, when its counter read w0. */
static void rates(volatile double **cnt, int n, double *rate, double t0, const double *w0)
{
    double t = now_s();
    for (int i = 0; i < n; i++)
        rate[i] = (cnt[i][0] - w0[i]) / (t - t0);
}

/*
 * HPDP_REPEAT_S: relaunches kernel k for that many seconds; with co-runners,
 * logs their slowdowns beside it (the file comment).
 */
static void repeat(cl_command_queue q, cl_kernel kern, size_t global, size_t local,
                   const char *kname, size_t buf_bytes)
{
    const char *w = getenv("HPDP_REPEAT_S"), *dir = getenv("PTXSIM_HETEROPDP_CORUNNERS");
    const char *logp = getenv("PTXSIM_HETEROPDP_LOG"), *app = getenv("PTXSIM_HETEROPDP_APP");
    const char *dev = getenv("PTXSIM_HETEROPDP");
    volatile double *cnt[MAXCO];
    double secs = w ? atof(w) : 0, w0[MAXCO], base[MAXCO], beside[MAXCO], t0;
    int nco = 0, launches = 0;
    FILE *f;

    if (!(secs > 0))
        return;
    if (dir && *dir)
        nco = map_counters(dir, cnt);
    for (int i = 0; i < nco; i++)
        w0[i] = cnt[i][0];
    t0 = now_s();
    if (nco) { /* the baseline window: the co-runners with no kernel beside them */
        struct timespec ts = {(time_t)secs, (long)((secs - (time_t)secs) * 1e9)};
        nanosleep(&ts, NULL);
        rates(cnt, nco, base, t0, w0);
    }
    for (int i = 0; i < nco; i++)
        w0[i] = cnt[i][0];
    t0 = now_s();
    do {
        CK(clEnqueueNDRangeKernel(q, kern, 1, NULL, &global, &local, 0, NULL, NULL));
        CK(clFinish(q));
        launches++;
    } while (now_s() - t0 < secs);
    rates(cnt, nco, beside, t0, w0);
    if (nco && logp && (f = fopen(logp, "a"))) {
        fprintf(f, "cosd app=%s kernel=%s dev=%s T=%zu Buf=%zu launches=%d sd=", app ? app : "-",
                kname, dev ? dev : "queue", global, buf_bytes, launches);
        for (int i = 0; i < nco; i++)
            fprintf(f, "%s%.6g", i ? "," : "", beside[i] > 0 ? base[i] / beside[i] : 1.0);
        fputc('\n', f);
        fclose(f);
    }
    for (int i = 0; i < nco; i++)
        munmap((void *)cnt[i], 4096);
}

/* Runs kernel k; returns the number of elements that disagree with the reference. */
static int run(cl_context ctx, cl_command_queue q, cl_program p, int k, const float *a,
               const float *b, int n)
{
    size_t bytes = (size_t)n * sizeof(float), global = ((size_t)n + 63) / 64 * 64, local = 64;
    float *o = calloc((size_t)n, sizeof(float));
    int *hist = (int *)o, bad = 0, cnt[64] = {0};
    cl_int rc;
    cl_kernel kern = clCreateKernel(p, names[k], &rc);
    cl_mem ma = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, (void *)a, &rc);
    cl_mem mb = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, (void *)b, &rc);
    cl_mem mo = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, o, &rc);
    CK(rc);
    CK(clEnqueueWriteBuffer(q, ma, CL_TRUE, 0, bytes, a, 0, NULL,
                            NULL)); /* the launch's host->device traffic */
    CK(clSetKernelArg(kern, 0, sizeof(cl_mem), &ma));
    CK(clSetKernelArg(kern, 1, sizeof(cl_mem), &mb));
    CK(clSetKernelArg(kern, 2, sizeof(cl_mem), &mo));
    CK(clSetKernelArg(kern, 3, sizeof(int), &n));
    CK(clEnqueueNDRangeKernel(q, kern, 1, NULL, &global, &local, 0, NULL, NULL));
    CK(clEnqueueReadBuffer(q, mo, CL_TRUE, 0, bytes, o, 0, NULL, NULL));
    repeat(q, kern, global, local, names[k], 3 * bytes);
    if (k == 13) {
        for (int i = 0; i < n; i++)
            cnt[(int)(a[i] * 63.0f) & 63]++;
        for (int i = 0; i < 64 && i < n; i++)
            bad += hist[i] != cnt[i];
    } else {
        for (int i = 0; i < n; i++) {
            double r = ref(k, a, b, n, i);
            if (!isnan(r) && !(fabs(o[i] - r) <= 2e-3 * fabs(r) + 2e-3))
                bad++;
        }
        if ((k == 7 || k == 21) && bad * 200 < n)
            bad = 0;
    }
    clReleaseMemObject(ma);
    clReleaseMemObject(mb);
    clReleaseMemObject(mo);
    clReleaseKernel(kern);
    free(o);
    return bad;
}

int main(int argc, char **argv)
{
    cl_platform_id plat;
    cl_device_id dev;
    cl_context ctx;
    cl_command_queue q;
    cl_program p;
    cl_int rc;
    char *src;
    int n, fails = 0;
    float *a, *b;
    if (argc < 3 || (n = atoi(argv[2])) < 64) {
        fprintf(stderr, "usage: %s kernels.cl N(>=64) [NAME...]\n", argv[0]);
        return 2;
    }
    src = slurp(argv[1]);
    dev = pick(&plat);
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &rc);
    CK(rc);
    q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &rc);
    CK(rc);
    p = clCreateProgramWithSource(ctx, 1, (const char **)&src, NULL, &rc);
    CK(rc);
    CK(clBuildProgram(p, 1, &dev, "", NULL, NULL));
    a = malloc((size_t)n * sizeof(float));
    b = malloc((size_t)n * sizeof(float));
    for (int i = 0; i < n; i++) {
        a[i] = (float)((i * 37 + 11) % 1000) / 1000.0f;
        b[i] = (float)((i * 91 + 7) % 997) / 997.0f;
    }
    for (size_t k = 0; k < NK; k++) {
        int want = argc == 3, bad;
        for (int j = 3; j < argc; j++)
            want |= !strcmp(argv[j], names[k]);
        if (!want)
            continue;
        bad = run(ctx, q, p, (int)k, a, b, n);
        printf("%s %s %d\n", names[k], bad ? "BAD" : "ok", bad);
        fails += bad != 0;
    }
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    free(a);
    free(b);
    free(src);
    return fails ? 1 : 0;
}
