/*
 * Shared by the driver-API test programs: CHECK(call) stops the program with
 * "FAIL <name>: line N: call returned NAME" when a CUresult is not the expected
 * one; EXPECT(cond) does the same for a condition. Each program prints
 * "PASS <name>" at the end (tests/driver/run.sh looks for it).
 */
#ifndef PTXSIM_TESTS_DRIVER_COMMON_H
#define PTXSIM_TESTS_DRIVER_COMMON_H

#include <stdio.h>
#include <stdlib.h>

#include <cuda.h>

static const char *g_test_name;

static void fail_at(int line, const char *what, CUresult r)
{
    const char *name = NULL;

    cuGetErrorName(r, &name);
    printf("FAIL %s: line %d: %s (%s)\n", g_test_name, line, what, name ? name : "?");
    exit(1);
}

#define CHECK_IS(call, want)                                                                       \
    do {                                                                                           \
        CUresult r_ = (call);                                                                      \
        if (r_ != (want))                                                                          \
            fail_at(__LINE__, #call, r_);                                                          \
    } while (0)
#define CHECK(call) CHECK_IS(call, CUDA_SUCCESS)
#define EXPECT(cond)                                                                               \
    do {                                                                                           \
        if (!(cond))                                                                               \
            fail_at(__LINE__, "expected " #cond, CUDA_SUCCESS);                                    \
    } while (0)

#endif
