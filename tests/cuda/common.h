// Helpers shared by the CUDA integration tests (tests/cuda/*.cu).
//
// Each test program defines TEST_NAME before including this header, checks
// its device results against a host reference with the expect_* helpers and
// ends with `return finish();`, which prints exactly one line to stdout:
// "PASS <name>" or "FAIL <name>: <count> mismatches; first: <detail>", and
// returns the exit status (0 or 1). The first few mismatches are also
// printed to stderr, one a line. A CUDA call that fails unexpectedly ends the
// program at once with "FAIL <name>: <file>:<line>: <call> returned <error>".
//
// Tolerances: integer results and IEEE-exact float operations (add, mul,
// fma, div, sqrt with default rounding; conversions) are compared exactly by
// bit pattern (expect_bits); math-library results are compared with
// expect_near, whose tolerance each test documents beside its call.
#ifndef PTXSIM_TESTS_CUDA_COMMON_H
#define PTXSIM_TESTS_CUDA_COMMON_H

#include <cmath>
#include <cstdarg>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#ifndef TEST_NAME
#error "define TEST_NAME before including common.h"
#endif

#define CK(call)                                                                                   \
    do {                                                                                           \
        cudaError_t ck_err_ = (call);                                                              \
        if (ck_err_ != cudaSuccess) {                                                              \
            printf("FAIL %s: %s:%d: %s returned %s (%s)\n", TEST_NAME, __FILE__, __LINE__, #call,  \
                   cudaGetErrorName(ck_err_), cudaGetErrorString(ck_err_));                        \
            fflush(stdout);                                                                        \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

// Launch-and-check: the launch itself (cudaGetLastError) and its completion.
#define CK_LAUNCH()                                                                                \
    do {                                                                                           \
        CK(cudaGetLastError());                                                                    \
        CK(cudaDeviceSynchronize());                                                               \
    } while (0)

static int g_fail_count;
static char g_first_fail[512];

static inline void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void fail(const char *fmt, ...)
{
    char buf[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    if (g_fail_count == 0)
        snprintf(g_first_fail, sizeof(g_first_fail), "%s", buf);
    if (g_fail_count < 8)
        fprintf(stderr, "%s: %s\n", TEST_NAME, buf);
    g_fail_count++;
}

// A condition that must hold; `what` says what it means.
static inline bool expect_true(bool cond, const char *what)
{
    if (!cond)
        fail("%s", what);
    return cond;
}

static inline bool expect_eq(const char *what, long long idx, long long got, long long want)
{
    if (got == want)
        return true;
    fail("%s[%lld] = %lld, want %lld", what, idx, got, want);
    return false;
}

static inline bool expect_equ(const char *what, long long idx, unsigned long long got,
                              unsigned long long want)
{
    if (got == want)
        return true;
    fail("%s[%lld] = %llu (0x%llx), want %llu (0x%llx)", what, idx, got, got, want, want);
    return false;
}

// Exact float comparison by bit pattern (NaNs of any payload match each other).
static inline bool expect_bits(const char *what, long long idx, double got, double want)
{
    if (std::isnan(got) && std::isnan(want))
        return true;
    if (got == want && std::signbit(got) == std::signbit(want))
        return true;
    fail("%s[%lld] = %.17g (%a), want %.17g (%a)", what, idx, got, got, want, want);
    return false;
}

static inline bool expect_bitsf(const char *what, long long idx, float got, float want)
{
    uint32_t g, w;

    memcpy(&g, &got, 4);
    memcpy(&w, &want, 4);
    if (g == w || (std::isnan(got) && std::isnan(want)))
        return true;
    fail("%s[%lld] = %.9g (0x%08x), want %.9g (0x%08x)", what, idx, got, g, want, w);
    return false;
}

// |got - want| <= atol + rtol * |want|; infinities must match exactly.
static inline bool expect_near(const char *what, long long idx, double got, double want,
                               double rtol, double atol)
{
    if (std::isnan(got) && std::isnan(want))
        return true;
    if (std::isinf(want) || std::isinf(got)) {
        if (got == want)
            return true;
    } else if (fabs(got - want) <= atol + rtol * fabs(want)) {
        return true;
    }
    fail("%s[%lld] = %.17g, want %.17g (rtol %g, atol %g)", what, idx, got, want, rtol, atol);
    return false;
}

static inline int finish(void)
{
    if (g_fail_count == 0) {
        printf("PASS %s\n", TEST_NAME);
        return 0;
    }
    printf("FAIL %s: %d mismatches; first: %s\n", TEST_NAME, g_fail_count, g_first_fail);
    return 1;
}

// Deterministic pseudo-random numbers for inputs (xorshift32; never 0).
static inline uint32_t rng_next(uint32_t *state)
{
    uint32_t x = *state;

    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return x;
}

#endif
