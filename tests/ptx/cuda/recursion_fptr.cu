// Recursion, device function pointers (indirect calls), virtual functions,
// and dynamically indexed local arrays (local memory).
#include <cuda_runtime.h>

__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__device__ __noinline__ unsigned long long fact(unsigned n) { return n <= 1 ? 1ull : n * fact(n - 1); }

__device__ __noinline__ int ackermann(int m, int n)
{
    if (m == 0) return n + 1;
    if (n == 0) return ackermann(m - 1, 1);
    return ackermann(m - 1, ackermann(m, n - 1));
}

__device__ __noinline__ bool is_odd(int n);
__device__ __noinline__ bool is_even(int n) { return n == 0 ? true : is_odd(n - 1); }
__device__ __noinline__ bool is_odd(int n) { return n == 0 ? false : is_even(n - 1); }

typedef float (*unary_fn)(float);
typedef int (*binop_fn)(int, int);

__device__ __noinline__ float f_square(float x) { return x * x; }
__device__ __noinline__ float f_negate(float x) { return -x; }
__device__ __noinline__ float f_halve(float x) { return x * 0.5f; }
__device__ __noinline__ int op_add(int a, int b) { return a + b; }
__device__ __noinline__ int op_sub(int a, int b) { return a - b; }
__device__ __noinline__ int op_mul(int a, int b) { return a * b; }

__device__ unary_fn g_unary_table[3] = {f_square, f_negate, f_halve};
__constant__ binop_fn c_binops[3] = {op_add, op_sub, op_mul};

__global__ void recursion_kernel(const int *in, long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = in[i] & 15;
    long long r = fib(v);
    r += (long long)fact((unsigned)v);
    r += ackermann(1, v & 3);
    r += is_even(v) ? 100 : 200;
    out[i] = r;
}

__global__ void fptr_kernel(float *data, const int *sel, int *iout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unary_fn f = g_unary_table[sel[i] % 3];
    data[i] = f(data[i]);
    binop_fn b = c_binops[(sel[i] >> 2) % 3];
    iout[i] = b(sel[i], i);
    unary_fn local = (i & 1) ? f_square : f_halve;
    data[i] += local(1.0f);
}

struct Shape {
    __device__ virtual float area() const = 0;
    __device__ virtual int sides() const { return 0; }
};
struct Square : Shape {
    float s;
    __device__ Square(float s_) : s(s_) {}
    __device__ float area() const override { return s * s; }
    __device__ int sides() const override { return 4; }
};
struct Circle : Shape {
    float r;
    __device__ Circle(float r_) : r(r_) {}
    __device__ float area() const override { return 3.14159265f * r * r; }
};

__global__ void virtual_kernel(const float *dims, float *areas, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Square sq(dims[i]);
    Circle ci(dims[i]);
    const Shape *s = (i & 1) ? (const Shape *)&sq : (const Shape *)&ci;
    areas[i] = s->area() + (float)s->sides();
}

__global__ void local_array_kernel(const int *idx, const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float buf[64];
    int ibuf[17];
    for (int k = 0; k < 64; ++k) buf[k] = in[(i + k) % n];
    for (int k = 0; k < 17; ++k) ibuf[k] = idx[(i * 17 + k) % n];
    float acc = 0.0f;
    for (int k = 0; k < 17; ++k) {
        int j = ibuf[k] & 63;
        buf[j] += (float)k;
        acc += buf[(j * 7) & 63];
    }
    double dbuf[8];
    for (int k = 0; k < 8; ++k) dbuf[k] = (double)buf[k * 8];
    acc += (float)dbuf[idx[i] & 7];
    out[i] = acc;
}

__device__ __noinline__ void sort_local(int *a, int len)
{
    for (int x = 1; x < len; ++x) {
        int key = a[x];
        int y = x - 1;
        while (y >= 0 && a[y] > key) { a[y + 1] = a[y]; --y; }
        a[y + 1] = key;
    }
}

__global__ void median_kernel(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int win[9];
    for (int k = 0; k < 9; ++k) win[k] = in[min(max(i + k - 4, 0), n - 1)];
    sort_local(win, 9);
    out[i] = win[4];
}
