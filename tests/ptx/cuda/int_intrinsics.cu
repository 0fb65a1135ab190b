// Integer intrinsics: bit manipulation, SIMD-in-word, multiply-high, dot products.
#include <cuda_runtime.h>
#include <stdint.h>

__global__ void int_bits(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = a[i], y = b[i];
    unsigned long long xl = ((unsigned long long)x << 32) | y;
    unsigned r = 0;
    r += __popc(x) + __popcll(xl);
    r += __clz((int)x) + __clzll((long long)xl);
    r += __ffs((int)y) + __ffsll((long long)xl);
    r ^= __brev(x);
    r ^= (unsigned)(__brevll(xl) >> 7);
    r += __byte_perm(x, y, 0x5410) + __byte_perm(x, y, 0x0123) + __byte_perm(x, y, i & 0x7777);
    r += __funnelshift_l(x, y, i & 31) + __funnelshift_r(x, y, i & 31);
    r += __funnelshift_lc(x, y, i) + __funnelshift_rc(x, y, i);
    r += __mulhi((int)x, (int)y) + __umulhi(x, y);
    r += (unsigned)(__mul64hi((long long)xl, (long long)x) ^ __umul64hi(xl, (unsigned long long)y * 3u));
    r += __mul24((int)x, (int)y) + __umul24(x, y);
    r += __sad((int)x, (int)y, 5u) + __usad(x, y, 7u);
    r += __hadd((int)x, (int)y) + __rhadd((int)x, (int)y) + __uhadd(x, y) + __urhadd(x, y);
    r += (unsigned)__fns(x, 0, 2);
    out[i] = r;
}

__global__ void int_simd(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = a[i], y = b[i];
    unsigned r = 0;
    r ^= __vadd4(x, y) ^ __vsub4(x, y) ^ __vadd2(x, y) ^ __vsub2(x, y);
    r ^= __vaddss4(x, y) ^ __vaddus4(x, y) ^ __vsubss2(x, y) ^ __vsubus2(x, y);
    r ^= __vabsdiffu4(x, y) ^ __vabsdiffs2(x, y) ^ __vabs4(x) ^ __vabsss2(y);
    r ^= __vavgu4(x, y) ^ __vhaddu2(x, y) ^ __vmaxs4(x, y) ^ __vminu2(x, y);
    r ^= __vcmpeq4(x, y) ^ __vcmpges2(x, y) ^ __vcmpltu4(x, y) ^ __vcmpne2(x, y);
    r ^= __vseteq4(x, y) ^ __vsetgtu2(x, y) ^ __vsads4(x, y) ^ __vsadu2(x, y);
    r ^= __vneg4(x) ^ __vnegss2(y);
    out[i] = r;
}

__global__ void int_dp(const int *a, const int *b, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = a[i], y = b[i];
    int r = __dp4a(x, y, 1);
    r += (int)__dp4a((unsigned)x, (unsigned)y, 2u);
    r += __dp2a_lo(x, y, 3) + __dp2a_hi(x, y, 4);
    r += (int)__dp2a_lo((unsigned)x, (unsigned)y, 5u);
    char4 ca = *reinterpret_cast<char4 *>(&x);
    char4 cb = *reinterpret_cast<char4 *>(&y);
    r += __dp4a(ca, cb, 0);
    out[i] = r;
}

__global__ void int_arith64(const long long *a, const long long *b, long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    long long x = a[i], y = b[i] | 1;
    unsigned long long ux = (unsigned long long)x, uy = (unsigned long long)y;
    long long r = x / y + x % y;
    r += (long long)(ux / uy) + (long long)(ux % uy);
    r += (x >> 13) + (long long)(ux >> 17) + (x << (i & 63));
    r += llabs(x) + llmin(x, y) + llmax(x, y) + (long long)ullmin(ux, uy) + (long long)ullmax(ux, uy);
    r += (long long)min(i, 7) + (long long)umax((unsigned)i, 3u);
    int q = (int)x / ((int)y | 1);
    unsigned uq = (unsigned)x % ((unsigned)y | 1u);
    r += q + uq;
    out[i] = r;
}
