// Templates with several instantiations, functors, lambdas, structs by value,
// operator overloading and template recursion.
#include <cuda_runtime.h>
#include <stdint.h>

template <typename T>
struct Vec3 {
    T x, y, z;
    __device__ Vec3 operator+(const Vec3 &o) const { return {x + o.x, y + o.y, z + o.z}; }
    __device__ Vec3 operator*(T s) const { return {x * s, y * s, z * s}; }
    __device__ T dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
};

struct Particle {
    Vec3<float> pos;
    Vec3<float> vel;
    float mass;
    int id;
    char tag[8];
};

struct Plus { template <typename T> __device__ T operator()(T a, T b) const { return a + b; } };
struct Mul { template <typename T> __device__ T operator()(T a, T b) const { return a * b; } };
struct MaxOp { template <typename T> __device__ T operator()(T a, T b) const { return a > b ? a : b; } };

template <typename T, typename Op, int BLOCK>
__global__ void block_reduce(const T *in, T *out, int n, T identity, Op op)
{
    __shared__ T sh[BLOCK];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    sh[threadIdx.x] = i < n ? in[i] : identity;
    __syncthreads();
#pragma unroll
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) sh[threadIdx.x] = op(sh[threadIdx.x], sh[threadIdx.x + s]);
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = sh[0];
}

template <typename F, typename T>
__device__ T block_op(F f, T v) { return f(v) + f(v + T(1)); }

template <int N>
__device__ __forceinline__ int unrolled_sum(const int *p) { return p[N - 1] + unrolled_sum<N - 1>(p); }
template <>
__device__ __forceinline__ int unrolled_sum<0>(const int *) { return 0; }

template <typename T>
__device__ __noinline__ T clamp_val(T v, T lo, T hi) { return v < lo ? lo : (v > hi ? hi : v); }

__device__ __noinline__ Particle step(Particle p, float dt)
{
    p.pos = p.pos + p.vel * dt;
    p.vel = p.vel * 0.99f;
    p.tag[p.id & 7] ^= 1;
    return p;
}

__global__ void particles(Particle *ps, int n, float dt, Vec3<float> gravity)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Particle p = ps[i];
    p.vel = p.vel + gravity * dt;
    p = step(p, dt);
    p.mass = clamp_val(p.mass, 0.1f, 10.0f);
    p.id = clamp_val(p.id, 0, 1 << 20);
    ps[i] = p;
}

__global__ void sum_fixed(const int *in, int *out)
{
    out[threadIdx.x] = unrolled_sum<8>(in + threadIdx.x * 8) + (int)clamp_val<int64_t>(in[0], -5, 5);
}

template <typename T>
__global__ void axpy(T a, const T *x, T *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

template __global__ void axpy<float>(float, const float *, float *, int);
template __global__ void axpy<double>(double, const double *, double *, int);
template __global__ void axpy<int>(int, const int *, int *, int);
template __global__ void axpy<unsigned char>(unsigned char, const unsigned char *, unsigned char *, int);
template __global__ void block_reduce<float, Plus, 256>(const float *, float *, int, float, Plus);
template __global__ void block_reduce<double, Mul, 128>(const double *, double *, int, double, Mul);
template __global__ void block_reduce<int, MaxOp, 64>(const int *, int *, int, int, MaxOp);
template __global__ void block_reduce<long long, Plus, 512>(const long long *, long long *, int, long long, Plus);

template <typename F>
__device__ __noinline__ float apply_each(float *data, int n, F f)
{
    float acc = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        data[i] = f(data[i], i);
        acc += data[i];
    }
    return acc;
}

__global__ void lambdas_kernel(float *d, int n, float k, float *out)
{
    auto scale = [=](float v, int i) { return v * k + (float)i; };
    auto clampf = [](float v, int) { return fminf(fmaxf(v, -1.0f), 1.0f); };
    int counter = 0;
    auto counting = [&counter, k](float v, int i) { counter += i & 1; return v - k; };
    float r = apply_each(d, n, scale);
    r += apply_each(d, n, clampf);
    r += apply_each(d, n, counting);
    out[threadIdx.x] = r + (float)counter;
}

__global__ void lambda_via_template(float *d, int n)
{
    auto sq = [](float v) { return v * v; };
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) d[i] = block_op(sq, d[i]);
}
