// Timing microbenchmarks: ALU and SFU latency and SFU throughput.
//
// Each *_chain kernel runs one warp through a chain of N dependent
// instructions of one kind (inline PTX, every operand the same register so
// that no register-bank conflict can occur) and times the chain with
// clock64() on its third pass, when the instruction cache is warm. The
// host prints "MEASURE <name> <cycles> <ops>" on stderr; tests/timing/run.sh
// compares cycles/ops with the configured latency. sfu_tput runs 16 warps
// of independent sin.approx chains on one SM and reports the cycles for all
// of them. stdout carries only mode-independent results.
#include <cstdio>
#include <cstdlib>

#define N 64     // dependent instructions per timed chain
#define PASSES 3 // the last pass is timed

#define CHAIN_KERNEL(name, T, cons, init, insn)                                        \
    __global__ void name(long long *dt, T *out, T seed)                                \
    {                                                                                  \
        T x = init;                                                                    \
        long long d = 0;                                                               \
        _Pragma("unroll 1") for (int p = 0; p < PASSES; p++) {                         \
            long long t0 = clock64();                                                  \
            _Pragma("unroll") for (int i = 0; i < N; i++) asm volatile(insn : "+" cons(x)); \
            long long t1 = clock64();                                                  \
            d = t1 - t0;                                                               \
        }                                                                              \
        out[threadIdx.x] = x;                                                          \
        if (threadIdx.x == 0)                                                          \
            *dt = d;                                                                   \
    }

// Integers start at seed + 1 (never 0, so div x/x stays 1).
CHAIN_KERNEL(int_add, int, "r", seed + 1, "add.s32 %0, %0, %0;")
CHAIN_KERNEL(int_mul, int, "r", seed + 1, "mul.lo.s32 %0, %0, %0;")
CHAIN_KERNEL(int_mad, int, "r", seed + 1, "mad.lo.s32 %0, %0, %0, %0;")
CHAIN_KERNEL(int_max, int, "r", seed + 1, "max.s32 %0, %0, %0;")
CHAIN_KERNEL(int_div, int, "r", seed + 1, "div.s32 %0, %0, %0;")
// Floats start at seed (0): x+x, x*x, x*x+x and max(x,x) stay 0.
CHAIN_KERNEL(fp_add, float, "f", seed, "add.f32 %0, %0, %0;")
CHAIN_KERNEL(fp_mul, float, "f", seed, "mul.f32 %0, %0, %0;")
CHAIN_KERNEL(fp_fma, float, "f", seed, "fma.rn.f32 %0, %0, %0, %0;")
CHAIN_KERNEL(fp_max, float, "f", seed, "max.f32 %0, %0, %0;")
CHAIN_KERNEL(dp_add, double, "d", seed, "add.f64 %0, %0, %0;")
CHAIN_KERNEL(dp_fma, double, "d", seed, "fma.rn.f64 %0, %0, %0, %0;")
CHAIN_KERNEL(sfu_sin, float, "f", seed, "sin.approx.f32 %0, %0;")

// Throughput: every thread of 16 warps runs K independent chains, R
// instructions each (fully unrolled), on one SM; the third of PASSES passes
// (warm I-cache) is timed between two barriers.
#define K 8
#define R 8
#define TPUT_KERNEL(name, T, cons, insn)                                                 \
    __global__ void name(long long *dt, T *out, T seed)                                  \
    {                                                                                    \
        T x[K];                                                                          \
        long long d = 0;                                                                 \
        for (int k = 0; k < K; k++)                                                      \
            x[k] = seed + (T)k;                                                          \
        _Pragma("unroll 1") for (int p = 0; p < PASSES; p++) {                           \
            __syncthreads();                                                             \
            long long t0 = clock64();                                                    \
            _Pragma("unroll") for (int r = 0; r < R; r++)                                \
                _Pragma("unroll") for (int k = 0; k < K; k++) asm volatile(insn : "+" cons(x[k])); \
            __syncthreads();                                                             \
            d = clock64() - t0;                                                          \
        }                                                                                \
        T s = 0;                                                                         \
        for (int k = 0; k < K; k++)                                                      \
            s += x[k];                                                                   \
        out[threadIdx.x] = s;                                                            \
        if (threadIdx.x == 0)                                                            \
            *dt = d;                                                                     \
    }
TPUT_KERNEL(sfu_tput, float, "f", "sin.approx.f32 %0, %0;")
TPUT_KERNEL(sp_tput, int, "r", "add.s32 %0, %0, %0;")

static long long *g_dt;
static void *g_out;

template <typename T>
static void run(const char *name, void (*k)(long long *, T *, T), T seed, int blocks, int threads,
                long long ops, double *check)
{
    long long dt = 0;
    T host[512];

    k<<<blocks, threads>>>(g_dt, (T *)g_out, seed);
    if (cudaDeviceSynchronize() != cudaSuccess) {
        printf("FAIL alu: %s failed\n", name);
        exit(1);
    }
    cudaMemcpy(&dt, g_dt, sizeof(dt), cudaMemcpyDeviceToHost);
    cudaMemcpy(host, g_out, threads * sizeof(T), cudaMemcpyDeviceToHost);
    fprintf(stderr, "MEASURE %s %lld %lld\n", name, dt, ops);
    *check = 0;
    for (int i = 0; i < threads; i++)
        *check += (double)host[i];
}

int main()
{
    double c;
    cudaMalloc(&g_dt, sizeof(long long));
    cudaMalloc(&g_out, 512 * sizeof(double));
#define RUN(k, T, seed)                                  \
    run<T>(#k, k, (T)(seed), 1, 32, N, &c);              \
    printf("%s: result %g\n", #k, c);
    RUN(int_add, int, 0)
    RUN(int_mul, int, 0)
    RUN(int_mad, int, 0)
    RUN(int_max, int, 0)
    RUN(int_div, int, 0)
    RUN(fp_add, float, 0)
    RUN(fp_mul, float, 0)
    RUN(fp_fma, float, 0)
    RUN(fp_max, float, 0)
    RUN(dp_add, double, 0)
    RUN(dp_fma, double, 0)
    RUN(sfu_sin, float, 0)
    // 512 threads = 16 warps on one SM, K * R SFU instructions each.
    run<float>("sfu_tput", sfu_tput, 0.0f, 1, 512, 16LL * K * R, &c);
    printf("sfu_tput: result %g\n", c);
    run<int>("sp_tput", sp_tput, 0, 1, 512, 16LL * K * R, &c);
    printf("sp_tput: result %g\n", c);
    printf("PASS alu\n");
    return 0;
}
