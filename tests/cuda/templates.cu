// Templates: one kernel template instantiated for int, unsigned char, float,
// double and long long with functor parameters (a user struct with
// operator()), a non-type parameter (a compile-time unrolled dot product
// width), an explicit specialisation, and a variadic device sum. Results exact
// (integer arithmetic; float/double values are small integers).
#define TEST_NAME "templates"
#include "common.h"

struct Square {
    template <typename T> __host__ __device__ T operator()(T x) const
    {
        return x * x;
    }
};

template <typename T> struct AddK {
    T k;
    __host__ __device__ T operator()(T x) const
    {
        return x + k;
    }
};

template <typename T, typename Op> __global__ void apply(const T *in, T *out, int n, Op op)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = op(in[i]);
}

template <int W, typename T> __global__ void dotw(const T *a, const T *b, T *out, int rows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    T s = 0;
#pragma unroll
    for (int k = 0; k < W; k++)
        s += a[r * W + k] * b[k];
    out[r] = s;
}

template <typename T> __device__ T tag()
{
    return T(1);
}
template <> __device__ double tag<double>()
{
    return 2.0;
}

template <typename T> __global__ void tagged(T *out)
{
    out[threadIdx.x] = tag<T>() * T(threadIdx.x);
}

__device__ long long vsum()
{
    return 0;
}
template <typename T, typename... R> __device__ long long vsum(T first, R... rest)
{
    return (long long)first + vsum(rest...);
}
__global__ void variadic(long long *out, int a, short b, char c, long long d)
{
    out[0] = vsum(a, b, c, d);
    out[1] = vsum(a, a, a);
    out[2] = vsum();
}

template <typename T, typename Op> static void check_apply(const char *what, Op op, int n)
{
    T *in = new T[n], *out = new T[n], *din, *dout;
    for (int i = 0; i < n; i++)
        in[i] = T(i % 97 - 20);
    CK(cudaMalloc(&din, n * sizeof(T)));
    CK(cudaMalloc(&dout, n * sizeof(T)));
    CK(cudaMemcpy(din, in, n * sizeof(T), cudaMemcpyHostToDevice));
    apply<<<(n + 127) / 128, 128>>>(din, dout, n, op);
    CK_LAUNCH();
    CK(cudaMemcpy(out, dout, n * sizeof(T), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        expect_bits(what, i, (double)out[i], (double)op(in[i]));
    CK(cudaFree(din));
    CK(cudaFree(dout));
    delete[] in;
    delete[] out;
}

template <int W, typename T> static void check_dot(const char *what)
{
    const int rows = 100;
    T a[rows * W], b[W], out[rows], *da, *db, *dout;
    for (int i = 0; i < rows * W; i++)
        a[i] = T(i % 9);
    for (int k = 0; k < W; k++)
        b[k] = T(k + 1);
    CK(cudaMalloc(&da, sizeof(a)));
    CK(cudaMalloc(&db, sizeof(b)));
    CK(cudaMalloc(&dout, sizeof(out)));
    CK(cudaMemcpy(da, a, sizeof(a), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, b, sizeof(b), cudaMemcpyHostToDevice));
    dotw<W, T><<<2, 64>>>(da, db, dout, rows);
    CK_LAUNCH();
    CK(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
    for (int r = 0; r < rows; r++) {
        T s = 0;
        for (int k = 0; k < W; k++)
            s += a[r * W + k] * b[k];
        expect_bits(what, r, (double)out[r], (double)s);
    }
    CK(cudaFree(da));
    CK(cudaFree(db));
    CK(cudaFree(dout));
}

int main()
{
    check_apply<int>("square<int>", Square(), 1000);
    check_apply<unsigned char>("square<u8>", Square(), 300);
    check_apply<float>("square<float>", Square(), 1000);
    check_apply<double>("addk<double>", AddK<double>{0.5}, 777);
    check_apply<long long>("addk<i64>", AddK<long long>{1LL << 40}, 500);
    check_dot<3, int>("dot3<int>");
    check_dot<8, float>("dot8<float>");
    check_dot<17, double>("dot17<double>");

    float *df, hf[32];
    double *dd, hd[32];
    CK(cudaMalloc(&df, sizeof(hf)));
    CK(cudaMalloc(&dd, sizeof(hd)));
    tagged<float><<<1, 32>>>(df);
    tagged<double><<<1, 32>>>(dd);
    CK_LAUNCH();
    CK(cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hd, dd, sizeof(hd), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++) {
        expect_bits("tag<float>", i, hf[i], (double)i);
        expect_bits("tag<double> (specialised)", i, hd[i], 2.0 * i);
    }

    long long *dv, hv[3];
    CK(cudaMalloc(&dv, sizeof(hv)));
    variadic<<<1, 1>>>(dv, -100000, 300, (char)-7, 1LL << 45);
    CK_LAUNCH();
    CK(cudaMemcpy(hv, dv, sizeof(hv), cudaMemcpyDeviceToHost));
    expect_eq("variadic", 0, hv[0], -100000 + 300 - 7 + (1LL << 45));
    expect_eq("variadic", 1, hv[1], -300000);
    expect_eq("variadic", 2, hv[2], 0);
    CK(cudaFree(df));
    CK(cudaFree(dd));
    CK(cudaFree(dv));
    return finish();
}
