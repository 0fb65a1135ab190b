// Device function pointers: a __device__ table of pointers indexed per
// thread (divergent indirect calls within a warp), a pointer fetched to the
// host with cudaMemcpyFromSymbol and passed back as a kernel argument, a
// device function taking a function pointer (higher-order), and virtual
// calls on objects constructed on the device. Exact.
#define TEST_NAME "function_pointers"
#include "common.h"
#include <new>

typedef int (*binop)(int, int);

// Wrapping arithmetic (through unsigned) so overflow is defined on both sides.
__device__ int op_add(int a, int b)
{
    return (int)((unsigned)a + (unsigned)b);
}
__device__ int op_sub(int a, int b)
{
    return (int)((unsigned)a - (unsigned)b);
}
__device__ int op_mul(int a, int b)
{
    return (int)((unsigned)a * (unsigned)b);
}
__device__ int op_xor(int a, int b)
{
    return a ^ b;
}

__device__ binop d_table[4] = {op_add, op_sub, op_mul, op_xor};
__device__ binop d_mul_ptr = op_mul;

__device__ __noinline__ int fold(binop f, const int *v, int n, int init)
{
    int acc = init;
    for (int k = 0; k < n; k++)
        acc = f(acc, v[k]);
    return acc;
}

struct Shape {
    __device__ virtual int area() const = 0;
    __device__ virtual int sides() const
    {
        return 0;
    }
    __device__ virtual ~Shape()
    {
    }
};
struct Rect : Shape {
    int w, h;
    __device__ Rect(int w_, int h_) : w(w_), h(h_)
    {
    }
    __device__ int area() const override
    {
        return w * h;
    }
    __device__ int sides() const override
    {
        return 4;
    }
};
struct Tri : Shape {
    int b, h;
    __device__ Tri(int b_, int h_) : b(b_), h(h_)
    {
    }
    __device__ int area() const override
    {
        return b * h / 2;
    }
    __device__ int sides() const override
    {
        return 3;
    }
};

__global__ void dispatch(const int *a, const int *b, const int *sel, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = d_table[sel[i] & 3](a[i], b[i]);
}

__global__ void via_arg(binop f, const int *a, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = (int)((unsigned)f(a[i], 3) + (unsigned)fold(d_table[i & 3], a, 5, i));
}

__global__ void virtuals(int *out)
{
    __shared__ __align__(
        16) unsigned char storage[64][sizeof(Rect) > sizeof(Tri) ? sizeof(Rect) : sizeof(Tri)];
    int t = threadIdx.x;
    Shape *s;
    if (t % 3 == 0)
        s = new (storage[t]) Rect(t, t + 1);
    else
        s = new (storage[t]) Tri(t, 2 * t + 2);
    out[t] = s->area() * 10 + s->sides();
    s->~Shape();
}

static int h_op(int k, int x, int y)
{
    switch (k & 3) {
    case 0:
        return (int)((unsigned)x + (unsigned)y);
    case 1:
        return (int)((unsigned)x - (unsigned)y);
    case 2:
        return (int)((unsigned)x * (unsigned)y);
    default:
        return x ^ y;
    }
}

int main()
{
    const int n = 1000;
    int *a = new int[n], *b = new int[n], *sel = new int[n], *out = new int[n];
    int *da, *db, *dsel, *dout;
    uint32_t seed = 17;

    for (int i = 0; i < n; i++) {
        a[i] = (int)(rng_next(&seed) % 2000) - 1000;
        b[i] = (int)(rng_next(&seed) % 2000) - 1000;
        sel[i] = (int)(rng_next(&seed) % 4);
    }
    CK(cudaMalloc(&da, n * sizeof(int)));
    CK(cudaMalloc(&db, n * sizeof(int)));
    CK(cudaMalloc(&dsel, n * sizeof(int)));
    CK(cudaMalloc(&dout, n * sizeof(int)));
    CK(cudaMemcpy(da, a, n * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, b, n * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dsel, sel, n * sizeof(int), cudaMemcpyHostToDevice));
    dispatch<<<(n + 127) / 128, 128>>>(da, db, dsel, dout, n);
    CK_LAUNCH();
    CK(cudaMemcpy(out, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        expect_eq("table dispatch", i, out[i], h_op(sel[i], a[i], b[i]));

    binop f = NULL;
    CK(cudaMemcpyFromSymbol(&f, d_mul_ptr, sizeof(f)));
    expect_true(f != NULL, "device function pointer read back as NULL");
    via_arg<<<(n + 127) / 128, 128>>>(f, da, dout, n);
    CK_LAUNCH();
    CK(cudaMemcpy(out, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        int acc = i;
        for (int k = 0; k < 5; k++)
            acc = h_op(i, acc, a[k]);
        expect_eq("pointer argument + fold", i, out[i], (int)((unsigned)a[i] * 3u + (unsigned)acc));
    }

    virtuals<<<1, 64>>>(dout);
    CK_LAUNCH();
    CK(cudaMemcpy(out, dout, 64 * sizeof(int), cudaMemcpyDeviceToHost));
    for (int t = 0; t < 64; t++) {
        int want = t % 3 == 0 ? t * (t + 1) * 10 + 4 : t * (2 * t + 2) / 2 * 10 + 3;
        expect_eq("virtual", t, out[t], want);
    }
    CK(cudaFree(da));
    CK(cudaFree(db));
    CK(cudaFree(dsel));
    CK(cudaFree(dout));
    delete[] a;
    delete[] b;
    delete[] sel;
    delete[] out;
    return finish();
}
