// Integer intrinsics and arithmetic: __popc/__popcll, __clz/__clzll,
// __ffs/__ffsll, __brev/__brevll, __byte_perm, __funnelshift_l/_r (clamped
// and wrapping), __mulhi/__umulhi/__mul64hi/__umul64hi, __sad/__usad,
// __hadd/__rhadd, __dp4a/__dp2a_lo, 32/64-bit signed and unsigned division
// and remainder with negative operands, and 16/8-bit truncation. Host
// references are written out bit by bit. Exact.
#define TEST_NAME "intrinsics_int"
#include "common.h"

#define NOUT 26

__global__ void ints(const unsigned *a, const unsigned *b, unsigned long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = a[i], y = b[i];
    int sx = (int)x, sy = (int)y;
    unsigned long long X = ((unsigned long long)x << 32) | y, Y = ((unsigned long long)y << 29) ^ x;
    long long SX = (long long)X, SY = (long long)Y | 1;
    unsigned long long *o = out + (size_t)i * NOUT;
    o[0] = __popc(x);
    o[1] = __popcll(X);
    o[2] = __clz(x);
    o[3] = __clzll(X >> (y & 63));
    o[4] = __ffs(x & y);
    o[5] = __ffsll(X & (Y << 7));
    o[6] = __brev(x);
    o[7] = __brevll(X);
    o[8] = __byte_perm(x, y, y & 0x7777);
    o[9] = __funnelshift_l(x, y, y & 63);
    o[10] = __funnelshift_r(x, y, y & 63);
    o[11] = __funnelshift_lc(x, y, y & 63);
    o[12] = (unsigned)__mulhi(sx, sy);
    o[13] = __umulhi(x, y);
    o[14] = (unsigned long long)__mul64hi(SX, SY);
    o[15] = __umul64hi(X, Y);
    o[16] = __sad(sx, sy, 5u);
    o[17] = __usad(x, y, 7u);
    o[18] = (unsigned)__hadd(sx, sy);
    o[19] = (unsigned)__rhadd(sx, sy);
    o[20] = (unsigned)__dp4a(sx, sy, 1000);
    o[21] = (unsigned)__dp2a_lo(sx, sy, -5);
    o[22] = (unsigned)(sy != 0 ? sx / sy : 0) ^
            ((unsigned long long)(unsigned)(sy != 0 ? sx % sy : 0) << 32);
    o[23] = y ? x / y + ((unsigned long long)(x % y) << 32) : 0;
    o[24] = (unsigned long long)(SX / SY) ^ (unsigned long long)(SX % SY);
    o[25] = (unsigned long long)(short)x + ((unsigned long long)(signed char)y << 20) +
            ((unsigned long long)(unsigned short)(x >> 3) << 40);
}

static unsigned long long brev64(unsigned long long v)
{
    unsigned long long r = 0;
    for (int k = 0; k < 64; k++)
        r |= ((v >> k) & 1) << (63 - k);
    return r;
}

static unsigned byte_perm(unsigned x, unsigned y, unsigned s)
{
    unsigned long long v = ((unsigned long long)y << 32) | x, r = 0;
    for (int k = 0; k < 4; k++)
        r |= ((v >> (8 * ((s >> (4 * k)) & 7))) & 0xff) << (8 * k);
    return (unsigned)r;
}

static unsigned long long umul64hi(unsigned long long a, unsigned long long b)
{
    return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}

static int host_dp4a(int a, int b, int c)
{
    int s = c;
    for (int k = 0; k < 4; k++)
        s += (signed char)(a >> (8 * k)) * (signed char)(b >> (8 * k));
    return s;
}

static int host_dp2a_lo(int a, int b, int c)
{
    int s = c;
    for (int k = 0; k < 2; k++)
        s += (short)(a >> (16 * k)) * (signed char)(b >> (8 * k));
    return s;
}

int main()
{
    const int n = 2000;
    unsigned *a = new unsigned[n], *b = new unsigned[n], *da, *db;
    unsigned long long *out = new unsigned long long[(size_t)n * NOUT], *dout;
    uint32_t seed = 90210;
    static const char *names[NOUT] = {
        "popc",        "popcll",   "clz",       "clzll",         "ffs",           "ffsll",
        "brev",        "brevll",   "byte_perm", "funnelshift_l", "funnelshift_r", "funnelshift_lc",
        "mulhi",       "umulhi",   "mul64hi",   "umul64hi",      "sad",           "usad",
        "hadd",        "rhadd",    "dp4a",      "dp2a_lo",       "div/rem s32",   "div/rem u32",
        "div^rem s64", "narrowing"};

    for (int i = 0; i < n; i++) {
        a[i] = rng_next(&seed);
        b[i] = i % 5 == 0 ? rng_next(&seed) % 64 : rng_next(&seed);
        if (i % 7 == 0)
            a[i] = 0;
        if (i % 11 == 0)
            b[i] = 0xffffffffu; // -1
    }
    a[1] = 0x80000000u; // INT_MIN / -1 is excluded below
    CK(cudaMalloc(&da, n * sizeof(unsigned)));
    CK(cudaMalloc(&db, n * sizeof(unsigned)));
    CK(cudaMalloc(&dout, (size_t)n * NOUT * sizeof(unsigned long long)));
    CK(cudaMemcpy(da, a, n * sizeof(unsigned), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, b, n * sizeof(unsigned), cudaMemcpyHostToDevice));
    ints<<<(n + 127) / 128, 128>>>(da, db, dout, n);
    CK_LAUNCH();
    CK(cudaMemcpy(out, dout, (size_t)n * NOUT * sizeof(unsigned long long),
                  cudaMemcpyDeviceToHost));

    for (int i = 0; i < n; i++) {
        unsigned x = a[i], y = b[i];
        int sx = (int)x, sy = (int)y;
        unsigned long long X = ((unsigned long long)x << 32) | y,
                           Y = ((unsigned long long)y << 29) ^ x;
        long long SX = (long long)X, SY = (long long)Y | 1;
        unsigned long long w[NOUT];
        unsigned sh = y & 63, shc = sh > 32 ? 32 : sh;
        unsigned long long cat = ((unsigned long long)y << 32) | x;
        unsigned long long clzarg = X >> (y & 63);
        w[0] = __builtin_popcount(x);
        w[1] = __builtin_popcountll(X);
        w[2] = x ? __builtin_clz(x) : 32;
        w[3] = clzarg ? __builtin_clzll(clzarg) : 64;
        w[4] = __builtin_ffs((int)(x & y));
        w[5] = __builtin_ffsll((long long)(X & (Y << 7)));
        w[6] = (unsigned)(brev64(x) >> 32);
        w[7] = brev64(X);
        w[8] = byte_perm(x, y, y & 0x7777);
        w[9] = (unsigned)((cat << (sh & 31)) >> 32); // wrap: shift & 31
        w[10] = (unsigned)(cat >> (sh & 31));
        w[11] = (unsigned)((cat << shc) >> 32); // clamp: min(shift, 32)
        w[12] = (unsigned)(((long long)sx * sy) >> 32);
        w[13] = (unsigned)(((unsigned long long)x * y) >> 32);
        w[14] = (unsigned long long)(long long)(((__int128)SX * SY) >> 64);
        w[15] = umul64hi(X, Y);
        w[16] = (unsigned)(sx > sy ? (long long)sx - sy : (long long)sy - sx) + 5u;
        w[17] = (x > y ? x - y : y - x) + 7u;
        w[18] = (unsigned)(int)(((long long)sx + sy) >> 1);
        w[19] = (unsigned)(int)(((long long)sx + sy + 1) >> 1);
        w[20] = (unsigned)host_dp4a(sx, sy, 1000);
        w[21] = (unsigned)host_dp2a_lo(sx, sy, -5);
        bool s32_ok = !(sx == INT_MIN && sy == -1);
        w[22] = s32_ok ? ((unsigned)(sy != 0 ? sx / sy : 0) ^
                          ((unsigned long long)(unsigned)(sy != 0 ? sx % sy : 0) << 32))
                       : 0;
        w[23] = y ? x / y + ((unsigned long long)(x % y) << 32) : 0;
        bool s64_ok = !(SX == LLONG_MIN && SY == -1);
        w[24] = s64_ok ? (unsigned long long)(SX / SY) ^ (unsigned long long)(SX % SY) : 0;
        w[25] = (unsigned long long)(short)x + ((unsigned long long)(signed char)y << 20) +
                ((unsigned long long)(unsigned short)(x >> 3) << 40);
        for (int k = 0; k < NOUT; k++) {
            if ((k == 22 && !s32_ok) || (k == 24 && !s64_ok))
                continue;
            if (!expect_equ(names[k], i, out[(size_t)i * NOUT + k], w[k]))
                fprintf(stderr, "  operands 0x%08x 0x%08x\n", x, y);
        }
    }
    CK(cudaFree(da));
    CK(cudaFree(db));
    CK(cudaFree(dout));
    delete[] a;
    delete[] b;
    delete[] out;
    return finish();
}
