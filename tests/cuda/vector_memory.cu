// Vector and cache-hinted memory access: loads and stores of char4, short2,
// int2, int4, float4, longlong2 and double2 (ld/st .v2/.v4), read-only loads
// through __ldg and const __restrict__, and the cache-operator intrinsics
// (__ldca, __ldcg, __ldcs, __ldlu, __ldcv, __stwb, __stcg, __stcs, __stwt).
// Every element is transformed and checked. Exact.
#define TEST_NAME "vector_memory"
#include "common.h"

__global__ void vectors(const char4 *c4, const short2 *s2, const int2 *i2, const int4 *i4,
                        const float4 *f4, const longlong2 *l2, const double2 *d2, char4 *oc4,
                        short2 *os2, int2 *oi2, int4 *oi4, float4 *of4, longlong2 *ol2,
                        double2 *od2, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    char4 a = __ldg(&c4[i]);
    oc4[i] = make_char4(a.w, a.z, a.y, a.x);
    short2 b = __ldca(&s2[i]);
    __stwb(&os2[i], make_short2(b.y, (short)(b.x + 1)));
    int2 c = __ldcg(&i2[i]);
    __stcg(&oi2[i], make_int2(c.x ^ c.y, c.x - c.y));
    int4 d = __ldcs(&i4[i]);
    __stcs(&oi4[i], make_int4(d.w, d.x, d.y, d.z));
    float4 e = __ldlu(&f4[i]);
    __stwt(&of4[i], make_float4(e.x + e.y, e.y * 2.0f, e.z - e.w, e.w));
    longlong2 f = __ldcv(&l2[i]);
    ol2[i] = make_longlong2(f.y, f.x + f.y);
    double2 g = __ldg(&d2[i]);
    od2[i] = make_double2(g.y * 0.5, g.x + g.y);
}

__global__ void restrict_sum(const float *__restrict__ a, const float *__restrict__ b,
                             float *__restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = fmaf(a[i], 3.0f, b[(i * 7) % n]);
}

template <typename T> static T *up(const T *h, int n)
{
    T *d;
    CK(cudaMalloc(&d, n * sizeof(T)));
    CK(cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

template <typename T> static T *down(const T *d, int n)
{
    T *h = new T[n];
    CK(cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
}

template <typename T> static T *alloc(int n)
{
    T *d;
    CK(cudaMalloc(&d, n * sizeof(T)));
    return d;
}

int main()
{
    const int n = 1500;
    char4 *c4 = new char4[n];
    short2 *s2 = new short2[n];
    int2 *i2 = new int2[n];
    int4 *i4 = new int4[n];
    float4 *f4 = new float4[n];
    longlong2 *l2 = new longlong2[n];
    double2 *d2 = new double2[n];
    uint32_t seed = 64;

    for (int i = 0; i < n; i++) {
        uint32_t r = rng_next(&seed);
        c4[i] = make_char4((char)r, (char)(r >> 8), (char)(r >> 16), (char)(r >> 24));
        s2[i] = make_short2((short)rng_next(&seed), (short)(rng_next(&seed) % 30000));
        i2[i] = make_int2((int)rng_next(&seed), (int)(rng_next(&seed) % 1000000));
        i4[i] = make_int4(i, -i, (int)rng_next(&seed), 7);
        f4[i] = make_float4(i * 0.5f, -i * 0.25f, 1.0f / (i + 1), (float)i);
        l2[i] = make_longlong2((long long)rng_next(&seed) << 20, -(long long)i);
        d2[i] = make_double2(i * 1.5, 1.0 / (i + 3));
    }
    char4 *dc4 = up(c4, n), *oc4 = alloc<char4>(n);
    short2 *ds2 = up(s2, n), *os2 = alloc<short2>(n);
    int2 *di2 = up(i2, n), *oi2 = alloc<int2>(n);
    int4 *di4 = up(i4, n), *oi4 = alloc<int4>(n);
    float4 *df4 = up(f4, n), *of4 = alloc<float4>(n);
    longlong2 *dl2 = up(l2, n), *ol2 = alloc<longlong2>(n);
    double2 *dd2 = up(d2, n), *od2 = alloc<double2>(n);
    vectors<<<(n + 127) / 128, 128>>>(dc4, ds2, di2, di4, df4, dl2, dd2, oc4, os2, oi2, oi4, of4,
                                      ol2, od2, n);
    CK_LAUNCH();
    char4 *rc4 = down(oc4, n);
    short2 *rs2 = down(os2, n);
    int2 *ri2 = down(oi2, n);
    int4 *ri4 = down(oi4, n);
    float4 *rf4 = down(of4, n);
    longlong2 *rl2 = down(ol2, n);
    double2 *rd2 = down(od2, n);
    for (int i = 0; i < n; i++) {
        expect_eq("char4.x", i, rc4[i].x, c4[i].w);
        expect_eq("char4.w", i, rc4[i].w, c4[i].x);
        expect_eq("char4.yz", i, rc4[i].y * 256 + rc4[i].z, c4[i].z * 256 + c4[i].y);
        expect_eq("short2.x", i, rs2[i].x, s2[i].y);
        expect_eq("short2.y", i, rs2[i].y, (short)(s2[i].x + 1));
        expect_eq("int2.x", i, ri2[i].x, i2[i].x ^ i2[i].y);
        expect_eq("int2.y", i, ri2[i].y, i2[i].x - i2[i].y);
        expect_eq("int4", i, ri4[i].x + 3LL * ri4[i].y + 5LL * ri4[i].z + 7LL * ri4[i].w,
                  i4[i].w + 3LL * i4[i].x + 5LL * i4[i].y + 7LL * i4[i].z);
        expect_bitsf("float4.x", i, rf4[i].x, f4[i].x + f4[i].y);
        expect_bitsf("float4.y", i, rf4[i].y, f4[i].y * 2.0f);
        expect_bitsf("float4.z", i, rf4[i].z, f4[i].z - f4[i].w);
        expect_bitsf("float4.w", i, rf4[i].w, f4[i].w);
        expect_eq("longlong2.x", i, rl2[i].x, l2[i].y);
        expect_eq("longlong2.y", i, rl2[i].y, l2[i].x + l2[i].y);
        expect_bits("double2.x", i, rd2[i].x, d2[i].y * 0.5);
        expect_bits("double2.y", i, rd2[i].y, d2[i].x + d2[i].y);
    }

    float *a = new float[n], *b = new float[n];
    for (int i = 0; i < n; i++) {
        a[i] = i * 0.125f;
        b[i] = 100.0f - i;
    }
    float *da = up(a, n), *db = up(b, n), *dout = alloc<float>(n);
    restrict_sum<<<(n + 255) / 256, 256>>>(da, db, dout, n);
    CK_LAUNCH();
    float *r = down(dout, n);
    for (int i = 0; i < n; i++)
        expect_bitsf("restrict", i, r[i], fmaf(a[i], 3.0f, b[(i * 7) % n]));
    return finish();
}
