// Timing microbenchmarks: load-to-use latency of shared memory, the L1 data
// cache, the L2 and DRAM, each measured by one thread chasing pointers and
// timed with clock64(). Every hop is one load whose address is the value of
// the previous load (inline PTX, no address arithmetic), so the time per hop
// is the latency of one access. The host prints "MEASURE <name> <cycles>
// <hops>" on stderr for tests/timing/run.sh; stdout carries only
// mode-independent results.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#define UNROLL 32
#define CAP_LINES 3072

// L1: a 4 KB ring of 32 pointers, one per 128-byte line; the first pass
// fills L1 (and the I-cache), the last of PASSES passes is timed.
#define L1_BYTES 4096
#define L1_STRIDE 128
#define PASSES 3
__global__ void l1_chase(long long *dt, uint64_t *out, uint64_t start)
{
    uint64_t p = start;
    long long d = 0;
#pragma unroll 1
    for (int r = 0; r < PASSES; r++) {
        long long t0 = clock64();
#pragma unroll
        for (int i = 0; i < UNROLL; i++)
            asm volatile("ld.global.ca.u64 %0, [%0];" : "+l"(p));
        long long t1 = clock64();
        d = t1 - t0;
    }
    *out = p;
    *dt = d;
}

// Shared memory: a ring of 32 shared addresses, 4 bytes apart.
__global__ void shared_chase(long long *dt, uint64_t *out)
{
    __shared__ unsigned ring[UNROLL];
    unsigned base = (unsigned)__cvta_generic_to_shared(ring);
    for (int i = 0; i < UNROLL; i++)
        ring[i] = base + 4 * ((i + 1) % UNROLL);
    unsigned p = base;
    long long d = 0;
#pragma unroll 1
    for (int r = 0; r < PASSES; r++) {
        long long t0 = clock64();
#pragma unroll
        for (int i = 0; i < UNROLL; i++)
            asm volatile("ld.shared.u32 %0, [%0];" : "+r"(p));
        long long t1 = clock64();
        d = t1 - t0;
    }
    *out = p;
    *dt = d;
}

// L2 and DRAM: ld.global.cg skips L1. warm = 1 walks the ring once untimed
// first (L2 hits afterwards); warm = 0 times the first walk. One kernel per
// use, so each has its own statistics.
#define CG_CHASE(name)                                                                   \
    __global__ void name(long long *dt, uint64_t *out, uint64_t start, int hops, int warm) \
    {                                                                                    \
        uint64_t p = start;                                                              \
        if (warm) {                                                                      \
            _Pragma("unroll 1") for (int h = 0; h < hops; h += UNROLL)                   \
                _Pragma("unroll") for (int i = 0; i < UNROLL; i++)                       \
                    asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(p));               \
        }                                                                                \
        long long t0 = clock64();                                                        \
        _Pragma("unroll 1") for (int h = 0; h < hops; h += UNROLL)                       \
            _Pragma("unroll") for (int i = 0; i < UNROLL; i++)                           \
                asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(p));                   \
        long long t1 = clock64();                                                        \
        *out = p;                                                                        \
        *dt = t1 - t0;                                                                   \
    }
CG_CHASE(l2_chase)
CG_CHASE(dram_chase)
CG_CHASE(l2_fill)
CG_CHASE(l2_capacity)

static long long *g_dt;
static uint64_t *g_out;

static long long fetch_dt(const char *name, uint64_t *end)
{
    long long dt = 0;
    if (cudaDeviceSynchronize() != cudaSuccess) {
        printf("FAIL memlat: %s failed\n", name);
        exit(1);
    }
    cudaMemcpy(&dt, g_dt, sizeof(dt), cudaMemcpyDeviceToHost);
    cudaMemcpy(end, g_out, sizeof(*end), cudaMemcpyDeviceToHost);
    return dt;
}

// A ring through n slots `stride` bytes apart in a buffer at dev, in the
// order perm; returns the device address of the first slot.
static uint64_t make_ring(char *dev, size_t bytes, size_t stride, const int *perm, int n)
{
    char *host = (char *)calloc(bytes, 1);
    for (int i = 0; i < n; i++) {
        uint64_t next = (uint64_t)(uintptr_t)dev + (size_t)perm[(i + 1) % n] * stride;
        *(uint64_t *)(host + (size_t)perm[i] * stride) = next;
    }
    cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice);
    free(host);
    return (uint64_t)(uintptr_t)dev + (size_t)perm[0] * stride;
}

// A fixed pseudo-random permutation (LCG, so both modes build the same ring).
static void shuffle(int *perm, int n)
{
    uint32_t s = 12345;
    for (int i = 0; i < n; i++)
        perm[i] = i;
    for (int i = n - 1; i > 0; i--) {
        s = s * 1664525u + 1013904223u;
        int j = (int)((s >> 8) % (uint32_t)(i + 1));
        int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
}

static void report(const char *name, long long dt, int hops, uint64_t end, uint64_t expect_end)
{
    fprintf(stderr, "MEASURE %s %lld %d\n", name, dt, hops);
    printf("%s: %d hops, %s\n", name, hops, end == expect_end ? "ring intact" : "WRONG END");
    if (end != expect_end) {
        printf("FAIL memlat\n");
        exit(1);
    }
}

int main()
{
    cudaMalloc(&g_dt, sizeof(long long));
    cudaMalloc(&g_out, sizeof(uint64_t));
    uint64_t end;

    // L1 hits: 32 lines of 4 KB in order; PASSES * 32 hops end where they began.
    {
        int n = L1_BYTES / L1_STRIDE, perm[L1_BYTES / L1_STRIDE];
        char *buf;
        for (int i = 0; i < n; i++)
            perm[i] = i;
        cudaMalloc(&buf, L1_BYTES);
        uint64_t start = make_ring(buf, L1_BYTES, L1_STRIDE, perm, n);
        l1_chase<<<1, 1>>>(g_dt, g_out, start);
        long long dt = fetch_dt("l1_chase", &end);
        report("l1_hit", dt, UNROLL, end, start);
        cudaFree(buf);
    }
    // Shared memory.
    {
        shared_chase<<<1, 1>>>(g_dt, g_out);
        long long dt = fetch_dt("shared_chase", &end);
        fprintf(stderr, "MEASURE shared_hit %lld %d\n", dt, UNROLL);
        printf("shared_hit: %d hops, %s\n", UNROLL, end < 4 * UNROLL + 0x10000000ull ? "ok" : "?");
    }
    // L2 hits: 512 lines of a 64 KB buffer (4x L1, 1/12 of L2) in random order.
    {
        const int n = 512;
        static int perm[512];
        char *buf;
        shuffle(perm, n);
        cudaMalloc(&buf, (size_t)n * 128);
        uint64_t start = make_ring(buf, (size_t)n * 128, 128, perm, n);
        l2_chase<<<1, 1>>>(g_dt, g_out, start, n, 1);
        long long dt = fetch_dt("l2_chase", &end);
        report("l2_hit", dt, n, end, start);
        cudaFree(buf);
    }
    // DRAM: 1024 slots 4 KB + 128 B apart (a 4.1 MB footprint, over 5x the
    // L2), random order, walked once from cold: every hop misses the L2.
    {
        const int n = 1024;
        const size_t stride = 4096 + 128;
        static int perm[1024];
        char *buf;
        shuffle(perm, n);
        cudaMalloc(&buf, (size_t)n * stride);
        uint64_t start = make_ring(buf, (size_t)n * stride, stride, perm, n);
        dram_chase<<<1, 1>>>(g_dt, g_out, start, n, 0);
        long long dt = fetch_dt("dram_chase", &end);
        report("dram_miss", dt, n, end, start);
        cudaFree(buf);
    }
    // L2 capacity: 3072 lines (384 KB, half the GTX 480's L2) in random
    // order. l2_fill walks them once; l2_capacity then walks them again in
    // a second launch (the L2 keeps its contents between kernels): every
    // access should hit, since the footprint is half the L2.
    {
        const int n = CAP_LINES;
        static int perm[CAP_LINES];
        char *buf;
        shuffle(perm, n);
        cudaMalloc(&buf, (size_t)n * 128);
        uint64_t start = make_ring(buf, (size_t)n * 128, 128, perm, n);
        l2_fill<<<1, 1>>>(g_dt, g_out, start, n, 0);
        fetch_dt("l2_fill", &end);
        l2_capacity<<<1, 1>>>(g_dt, g_out, start, n, 0);
        long long dt = fetch_dt("l2_capacity", &end);
        fprintf(stderr, "MEASURE l2_capacity_bytes %d 1\n", n * 128);
        report("l2_capacity", dt, n, end, start);
        cudaFree(buf);
    }
    printf("PASS memlat\n");
    return 0;
}
