// Double-precision arithmetic and conversions of every kind: float/double/int/
// long long/unsigned with all rounding modes, bit reinterpretation, narrowing
// and widening integer conversions.
#include <cuda_runtime.h>
#include <stdint.h>

__global__ void float_int_conv(const float *f, const double *d, int *io, unsigned *uo, long long *llo,
                               unsigned long long *ullo, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = f[i];
    double y = d[i];
    io[i] = __float2int_rn(x) + __float2int_rz(x) + __float2int_ru(x) + __float2int_rd(x) + (int)x;
    uo[i] = __float2uint_rn(x) + __float2uint_rz(x) + __float2uint_ru(x) + __float2uint_rd(x) + (unsigned)x;
    llo[i] = __float2ll_rn(x) + __float2ll_rz(x) + __float2ll_ru(x) + __float2ll_rd(x) + (long long)x
           + __double2ll_rn(y) + __double2ll_rz(y) + __double2ll_ru(y) + __double2ll_rd(y) + (long long)y;
    ullo[i] = __float2ull_rn(x) + __float2ull_rz(x) + __double2ull_rn(y) + __double2ull_rz(y)
            + __double2ull_ru(y) + __double2ull_rd(y) + (unsigned long long)y + (unsigned long long)x;
    io[n + i] = __double2int_rn(y) + __double2int_rz(y) + __double2int_ru(y) + __double2int_rd(y) + (int)y;
    uo[n + i] = __double2uint_rn(y) + __double2uint_rz(y) + __double2uint_ru(y) + __double2uint_rd(y) + (unsigned)y;
}

__global__ void int_float_conv(const int *ii, const unsigned *ui, const long long *li, const unsigned long long *uli,
                               float *fo, double *dout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int a = ii[i];
    unsigned b = ui[i];
    long long c = li[i];
    unsigned long long e = uli[i];
    fo[i] = __int2float_rn(a) + __int2float_rz(a) + __int2float_ru(a) + __int2float_rd(a) + (float)a
          + __uint2float_rn(b) + __uint2float_rz(b) + __uint2float_ru(b) + __uint2float_rd(b) + (float)b
          + __ll2float_rn(c) + __ll2float_rz(c) + __ll2float_ru(c) + __ll2float_rd(c) + (float)c
          + __ull2float_rn(e) + __ull2float_rz(e) + __ull2float_ru(e) + __ull2float_rd(e) + (float)e;
    dout[i] = __int2double_rn(a) + __uint2double_rn(b) + __ll2double_rn(c) + __ll2double_rz(c)
            + __ll2double_ru(c) + __ll2double_rd(c) + __ull2double_rn(e) + __ull2double_rz(e)
            + __ull2double_ru(e) + __ull2double_rd(e) + (double)a + (double)b + (double)c + (double)e;
}

__global__ void float_double_conv(const float *f, const double *d, float *fo, double *dout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = f[i];
    double y = d[i];
    fo[i] = __double2float_rn(y) + __double2float_rz(y) + __double2float_ru(y) + __double2float_rd(y) + (float)y;
    dout[i] = (double)x * y + (double)(x * x);
}

__global__ void bit_reinterpret(const float *f, const double *d, unsigned *uo, long long *lo, float *fo, double *dout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = f[i];
    double y = d[i];
    int xi = __float_as_int(x);
    unsigned xu = __float_as_uint(x);
    long long yl = __double_as_longlong(y);
    int hi = __double2hiint(y), lo32 = __double2loint(y);
    uo[i] = (unsigned)xi ^ xu ^ (unsigned)hi ^ (unsigned)lo32;
    lo[i] = yl;
    fo[i] = __int_as_float(xi ^ 0x80000000) + __uint_as_float(xu & 0x7fffffffu);
    dout[i] = __longlong_as_double(yl ^ (1ll << 63)) + __hiloint2double(hi, lo32);
}

__global__ void narrow_widen(const long long *in, signed char *c, unsigned char *uc, short *s, unsigned short *us,
                             int *iout, long long *lout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    long long v = in[i];
    c[i] = (signed char)v;
    uc[i] = (unsigned char)v;
    s[i] = (short)v;
    us[i] = (unsigned short)v;
    int w = (int)c[(i + 1) % n] + (int)uc[(i + 2) % n] + (int)s[(i + 3) % n] + (int)us[(i + 4) % n];
    iout[i] = w;
    lout[i] = (long long)w + (long long)(unsigned)w + (long long)(short)w + (long long)(unsigned char)w;
    bool b = v != 0;
    lout[n + i] = b ? 1 : 0;
}

__global__ void double_arith(const double *a, const double *b, double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double x = a[i], y = b[i];
    double r = x + y;
    r = r * x - y;
    r = r / (y + 1.0);
    r = fma(r, x, y);
    r = sqrt(fabs(r)) + 1.0 / x;
    r = fmin(r, x) + fmax(r, y) + fabs(x - y) + (-r);
    r += x < y ? x : y;
    r += (x == y) + (x != y) * 2.0 + (x >= y) * 3.0 + (x <= y) * 4.0 + (x > y) * 5.0;
    r += isnan(x - y) ? 1.0 : 0.0;
    r += floor(x) + ceil(y) + trunc(x * y) + rint(x / 3.0);
    r += 1e308 * x + 4.9406564584124654e-324 + (double)0x1.fffffffffffffp+1023 * 0.0;
    out[i] = r;
}
