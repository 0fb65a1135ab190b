// The workload suite's shared host-side helpers (benchmarks/workloads/*/).
//
// Conventions every workload follows (docs/workloads.md has the list):
//  - One directory per workload: benchmarks/workloads/<name>/<name>.cu (CUDA) and, for
//    the OpenCL variants, <name>_ocl.c (host, C11, kernel source embedded as a string).
//  - The first line of <name>.cu is
//        // WORKLOAD: <name> | <class> | <one-line description of the behaviour it stands for>
//    with <class> one of: irregular, regular-memory, compute, low-parallelism.
//  - Usage: `./<name> [test|small|paper]` (default test). `test` finishes in a few seconds
//    of timing simulation (CI), `small` in well under a minute (sweeps), `paper`
//    approaches the papers' inputs.
//  - Inputs come from wl_rand (a fixed-seed generator): the same size gives the same input
//    on every run and host.
//  - The program checks the device results against a host reference and prints exactly one
//    line on stdout, "PASS <name> <size>" or "FAIL <name> <size>: <why>", exits 0 or 1.
//    Nothing else goes to stdout, so outputs can be compared between simulation modes.
#ifndef PTXSIM_WORKLOADS_WL_H
#define PTXSIM_WORKLOADS_WL_H

#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#ifndef WL_NAME
#error "define WL_NAME before including wl.h"
#endif

enum wl_size { WL_TEST, WL_SMALL, WL_PAPER };

static const char *g_wl_size_name = "test";

// Parses argv[1]; exits 2 on anything else.
static inline wl_size wl_parse_size(int argc, char **argv)
{
    const char *s = argc > 1 ? argv[1] : "test";

    g_wl_size_name = s;
    if (!strcmp(s, "test"))
        return WL_TEST;
    if (!strcmp(s, "small"))
        return WL_SMALL;
    if (!strcmp(s, "paper"))
        return WL_PAPER;
    fprintf(stderr, "usage: %s [test|small|paper]\n", argv[0]);
    exit(2);
}

// Picks the value for the size.
template <typename T> static inline T wl_pick(wl_size s, T test, T small, T paper)
{
    return s == WL_TEST ? test : s == WL_SMALL ? small : paper;
}

// Deterministic generator (xorshift64*), seeded per workload.
struct wl_rand {
    uint64_t s;
    explicit wl_rand(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
    uint64_t next()
    {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        return s * 0x2545F4914F6CDD1Dull;
    }
    uint32_t below(uint32_t n) { return (uint32_t)(next() % n); }
    float unit() { return (float)(next() >> 40) / (float)(1ull << 24); } // [0, 1)
    float range(float lo, float hi) { return lo + (hi - lo) * unit(); }
};

[[noreturn]] static inline void wl_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void wl_fail(const char *fmt, ...)
{
    char buf[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    printf("FAIL %s %s: %s\n", WL_NAME, g_wl_size_name, buf);
    fflush(stdout);
    exit(1);
}

#define WL_CK(call)                                                                                \
    do {                                                                                           \
        cudaError_t wl_e_ = (call);                                                                \
        if (wl_e_ != cudaSuccess)                                                                  \
            wl_fail("%s:%d: %s returned %s", __FILE__, __LINE__, #call, cudaGetErrorName(wl_e_));  \
    } while (0)

#define WL_LAUNCH_CK()                                                                             \
    do {                                                                                           \
        WL_CK(cudaGetLastError());                                                                 \
        WL_CK(cudaDeviceSynchronize());                                                            \
    } while (0)

// Relative/absolute closeness for float results computed in a different order.
static inline bool wl_close(double got, double want, double rel, double abs_tol)
{
    return fabs(got - want) <= abs_tol + rel * fabs(want);
}

static inline int wl_pass()
{
    printf("PASS %s %s\n", WL_NAME, g_wl_size_name);
    return 0;
}

#endif
