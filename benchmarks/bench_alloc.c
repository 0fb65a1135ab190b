/*
 * Device allocation bookkeeping at scale (issue 17): the per-call cost of
 * ptxsim_malloc + ptxsim_free and of a kernel's global loads (each one an
 * allocation lookup) with 1,000 and with 100,000 live allocations. The
 * allocator and the lookups are O(log n), so the 100,000 figures should
 * stay within about 2x of the 1,000 ones (a sorted array with first-fit
 * scans was quadratic: 100,000 cudaMallocs took 8.1 s). Both cases hold the
 * same 32 MiB (allocations of 32 KiB or 320 bytes) and the kernel's loads
 * go to random places in it, so the host's caches see the same footprint
 * and the difference is the bookkeeping. Prints figures and the ratios;
 * asserts nothing about time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime/ptxsim.h"

/* out[i] = *ptrs[i]: every thread loads through a pointer into another allocation. */
static const char gather_ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry gather(.param .u64 ptrs, .param .u64 out)\n{\n"
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [ptrs];\n  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r2, %tid.x;\n  mov.u32 %r3, %ctaid.x;\n  mov.u32 %r4, %ntid.x;\n"
    "  mad.lo.s32 %r5, %r3, %r4, %r2;\n"
    "  mul.wide.u32 %rd3, %r5, 8;\n  add.s64 %rd4, %rd1, %rd3;\n  ld.global.u64 %rd5, [%rd4];\n"
    "  ld.global.u32 %r6, [%rd5];\n"
    "  mul.wide.u32 %rd6, %r5, 4;\n  add.s64 %rd7, %rd2, %rd6;\n  st.global.u32 [%rd7], %r6;\n"
    "  ret;\n}\n";

#define CALLS 20000u
#define THREADS (64u * 1024u)
#define FOOTPRINT (UINT64_C(32) << 20)

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int die(const char *what)
{
    fprintf(stderr, "bench_alloc: %s failed\n", what);
    return 1;
}

/* Per-call ns of malloc+free and per-load ns of the gather kernel with `live` allocations. */
static int measure(uint32_t live, double *alloc_ns, double *load_ns, double *fill_s)
{
    struct ptxsim_device *d;
    struct ptxsim_module *m;
    uint64_t *addr = malloc(live * sizeof(*addr)), *ptrs = malloc(THREADS * sizeof(*ptrs));
    uint64_t dptrs, dout, a;
    double t;
    int rc = 1;

    if (!addr || !ptrs || ptxsim_device_create(NULL, &d))
        return die("setup");
    t = now();
    for (uint32_t i = 0; i < live; i++)
        if (ptxsim_malloc(d, FOOTPRINT / live, &addr[i]))
            goto out;
    *fill_s = now() - t;
    /* Free every other one, so new allocations land in holes all over the table. */
    for (uint32_t i = 0; i < live; i += 2)
        ptxsim_free(d, addr[i]);
    t = now();
    for (uint32_t i = 0; i < CALLS; i++)
        if (ptxsim_malloc(d, 64, &a) || ptxsim_free(d, a))
            goto out;
    *alloc_ns = (now() - t) * 1e9 / (2.0 * CALLS);
    for (uint32_t i = 0; i < THREADS; i++) { /* random words of the live allocations */
        uint64_t h = (uint64_t)i * UINT64_C(0x9e3779b97f4a7c15);
        uint64_t words = FOOTPRINT / live / 4;

        ptrs[i] = addr[1 + 2 * ((h >> 20) % (live / 2))] + 4 * ((h >> 44) % words);
    }
    if (ptxsim_malloc(d, THREADS * 8, &dptrs) || ptxsim_malloc(d, THREADS * 4, &dout) ||
        ptxsim_memcpy_htod(d, dptrs, ptrs, THREADS * 8) ||
        ptxsim_module_load(d, gather_ptx, 0, "gather.ptx", &m))
        goto out;
    {
        void *args[2] = {&dptrs, &dout};

        t = now();
        if (ptxsim_launch(m, "gather", (struct ptxsim_dim3){THREADS / 256, 1, 1},
                          (struct ptxsim_dim3){256, 1, 1}, 0, args))
            goto out;
        *load_ns = (now() - t) * 1e9 / THREADS; /* per thread: two loads and a store */
    }
    ptxsim_module_unload(m);
    rc = 0;
out:
    if (rc)
        die("allocation or launch");
    ptxsim_device_destroy(d);
    free(addr);
    free(ptrs);
    return rc;
}

int main(void)
{
    const uint32_t sizes[2] = {1000, 100000};
    double alloc_ns[2], load_ns[2], fill_s[2];

    for (int i = 0; i < 2; i++) {
        if (measure(sizes[i], &alloc_ns[i], &load_ns[i], &fill_s[i]))
            return 1;
        printf("bench_alloc: %6u live allocations: %8.3f s to make them, malloc/free %7.1f ns "
               "per call, gather kernel %7.1f ns per thread\n",
               sizes[i], fill_s[i], alloc_ns[i], load_ns[i]);
    }
    printf("bench_alloc: 100,000 vs 1,000 live: malloc/free %.2fx, kernel accesses %.2fx "
           "(goal: within 2x)\n",
           alloc_ns[1] / alloc_ns[0], load_ns[1] / load_ns[0]);
    return 0;
}
