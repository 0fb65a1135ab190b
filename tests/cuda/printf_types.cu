// Device printf with many argument types, flags, widths and precisions, a
// call with 20 arguments, %s from a literal and from a device buffer, and
// %% escapes. One thread prints. run.sh diffs stdout with
// printf_types.expected, which is the same emit() run on the host (build with
// -DEMIT_ON_HOST to regenerate it; the last line there is the PASS line).
#define TEST_NAME "printf_types"
#include "common.h"

struct Args {
    int i, p;
    unsigned u;
    long l;
    long long ll;
    unsigned long long ull;
    short s;
    char c;
    float f;
    double d;
};

__host__ __device__ void emit(const Args &a, const char *str)
{
    printf("int: %d %i %5d|%-5d|%07d %+d % d\n", a.i, a.i, a.i, a.i, a.i, a.i, a.i);
    printf("positive: %d %5d|%-5d|%05d %+d % d\n", a.p, a.p, a.p, a.p, a.p, a.p);
    printf("unsigned: %u %x %X %o %#x %#o\n", a.u, a.u, a.u, a.u, a.u, a.u);
    printf("long: %ld %lx; long long: %lld %llx; ull: %llu %llX\n", a.l, a.l, a.ll, a.ll, a.ull,
           a.ull);
    printf("short: %hd %hu; char: %c%c%c\n", a.s, (unsigned short)a.s, a.c, a.c + 1, 'z');
    printf("float: %f %.2f %10.4f|%-10.1f|%e %E %g %G\n", a.f, a.f, a.f, a.f, a.f, a.f, a.f, a.f);
    printf("double: %.15f %.10e %g %.3g %a\n", a.d, a.d, a.d, a.d, a.d);
    printf("special: %f %f %g %e\n", 1.0 / 0.0 * a.i, 0.0 * a.d, -0.0, 1e-320);
    printf("strings: [%s] [%10s] [%-10s] [%.3s] [%s]\n", "lit", "right", "left", "truncate", str);
    printf("percent: 100%% %d%%\n", a.i);
    printf("twenty: %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d\n", 1, 2, 3, 4, 5,
           6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20);
    printf("mixed: %c %d %f %s %lld %u %g\n", 'M', -1, 0.5f, str, -9000000000LL, 4000000000u,
           a.d * a.f);
    printf("no arguments\n");
}

__global__ void print_all(Args a, const char *str)
{
    if (threadIdx.x == 0)
        emit(a, str);
}

static const Args g_args = {
    -4242, 42,  0xdeadbeefu, -1234567890123L,      -(1LL << 62) + 7, 18446744073709551615ull,
    -1234, 'A', 3.14159274f, -2.718281828459045e-7};

int main()
{
#ifdef EMIT_ON_HOST
    emit(g_args, "from device memory");
    printf("PASS %s\n", TEST_NAME);
    return 0;
#else
    const char msg[] = "from device memory";
    char *dmsg;
    CK(cudaMalloc(&dmsg, sizeof(msg)));
    CK(cudaMemcpy(dmsg, msg, sizeof(msg), cudaMemcpyHostToDevice));
    fflush(stdout);
    print_all<<<1, 32>>>(g_args, dmsg);
    CK_LAUNCH();
    CK(cudaFree(dmsg));
    return finish();
#endif
}
