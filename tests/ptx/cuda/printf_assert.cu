// Device printf with many argument types, and assert().
#include <cuda_runtime.h>
#include <cstdio>
#include <cassert>

struct Point { float x, y; };

__device__ const char *g_names[3] = {"alpha", "beta", "gamma"};

__global__ void printf_kernel(const int *data, int n, double scale)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) printf("hello from the device\n");
    if (i >= n) return;
    char c = 'A' + (i % 26);
    short s = (short)(i * 3);
    unsigned u = (unsigned)data[i];
    long long ll = (long long)data[i] * 1000000007ll;
    unsigned long long ull = 0xdeadbeefcafef00dull ^ (unsigned long long)i;
    float f = (float)data[i] * 0.5f;
    double d = scale * i;
    Point p = {f, (float)d};
    printf("i=%d c=%c s=%hd u=%u x=%08x ll=%lld ull=%llu hex=%llx\n", i, c, s, u, u, ll, ull, ull);
    printf("f=%f e=%e g=%g d=%.3lf a=%a p=(%.2f,%.2f)\n", f, f, f, d, d, p.x, p.y);
    printf("str=%s ptr=%p pct=%% block=(%d,%d,%d) thread=(%u,%u,%u)\n", g_names[i % 3], (void *)(data + i),
           blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z);
    printf("%5d|%-5d|%+d|%05.1f|%10s|%-10s|\n", i, -i, i, f, "right", "left");
}

__device__ int checked_div(int a, int b)
{
    assert(b != 0);
    return a / b;
}

__global__ void assert_kernel(const int *a, const int *b, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    assert(a[i] >= 0 && "inputs must be non-negative");
    out[i] = checked_div(a[i], b[i]);
    if (out[i] > 1000) {
        printf("large result %d at %d\n", out[i], i);
        __trap();
    }
}

__global__ void brkpt_kernel(int *flag)
{
    if (*flag == 12345) __brkpt();
    if (*flag == 54321) asm volatile("trap;");
}
