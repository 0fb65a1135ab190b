// Divergent control flow, checked by running the same __host__ __device__
// code on both sides: a small bytecode interpreter (switch in a loop, with
// data-dependent jumps, break, continue, early return and nested loops) run
// by every thread on its own program, a Collatz walk with a data-dependent
// trip count, a dense switch, goto-based state machines, short-circuit
// conditions with side effects, and struct bitfields (packed and unpacked:
// bfe/bfi) whose bytes must equal the host's layout. Exact.
#define TEST_NAME "control_flow"
#include "common.h"

struct Bits {
    unsigned a : 3;
    unsigned b : 7;
    int c : 5;
    unsigned d : 13;
    unsigned e : 4;
    int f : 12;
    unsigned long long g : 41;
};

__host__ __device__ unsigned long long interp(unsigned seed)
{
    unsigned char prog[32];
    unsigned s = seed | 1;
    for (int k = 0; k < 32; k++) {
        s = s * 1103515245u + 12345u;
        prog[k] = (unsigned char)(s >> 16);
    }
    unsigned long long acc = seed, steps = 0;
    int pc = 0, loops = 0;
    while (steps < 200) {
        steps++;
        unsigned char op = prog[pc & 31];
        switch (op % 9) {
        case 0:
            acc += op;
            break;
        case 1:
            acc ^= acc << 7;
            break;
        case 2:
            if (acc & 1) {
                pc += 3;
                continue;
            }
            acc >>= 1;
            break;
        case 3:
            for (int i = 0; i < (op & 7); i++) {
                if ((acc >> i) & 1)
                    break;
                acc += i * 3;
            }
            break;
        case 4:
            if (++loops > 5)
                return acc * 31 + steps;
            pc = (int)(acc % 32);
            continue;
        case 5:
            acc = acc * 6364136223846793005ull + 1442695040888963407ull;
            break;
        case 6: {
            int j = 0;
            while (j < 4 && ((acc >> j) & 3) != 2)
                j++;
            acc += (unsigned long long)j << 40;
            break;
        }
        case 7:
            if (acc % 5 == 0)
                goto done;
            acc -= 17;
            break;
        default:
            acc = ~acc;
            break;
        }
        pc++;
    }
done:
    return acc ^ (steps << 56);
}

__host__ __device__ int collatz(unsigned long long x)
{
    int n = 0;
    while (x != 1 && n < 1000) {
        x = (x & 1) ? 3 * x + 1 : x >> 1;
        n++;
    }
    return n;
}

__host__ __device__ unsigned dense_switch(unsigned x)
{
    switch (x & 15) {
    case 0:
        return x * 3;
    case 1:
        return x - 7;
    case 2:
        return x ^ 0x55;
    case 3:
        return x << 2;
    case 4:
        return 0u - x;
    case 5:
        return x / 3;
    case 6:
        return x % 7;
    case 7:
        return x | 0x100;
    case 8:
        return x & 0xf0f;
    case 9:
        return x + 1000;
    case 10:
        return x >> 3;
    case 11:
        return x * x;
    case 12:
        return 42u;
    case 13:
        return x - 13;
    case 14:
        return ~x;
    default:
        return x;
    }
}

__host__ __device__ int state_machine(unsigned x)
{
    int out = 0, i = 0;
s0:
    if (i >= 32)
        goto end;
    if ((x >> i++) & 1)
        goto s1;
    out += 1;
    goto s0;
s1:
    if (i >= 32)
        goto end;
    if ((x >> i++) & 1) {
        out += 10;
        goto s2;
    }
    goto s0;
s2:
    out += 100;
    if (i < 32 && ((x >> i) & 3) == 3) {
        i += 2;
        goto s2;
    }
    goto s0;
end:
    return out;
}

__host__ __device__ int short_circuit(int x, int *count)
{
    int r = 0;
    if ((x & 1) && (++*count, x % 3 == 0))
        r |= 1;
    if ((x & 2) || (++*count, x % 5 == 0))
        r |= 2;
    r |= (x > 100 ? (++*count, 4) : 8);
    return r;
}

__host__ __device__ void bits_from(unsigned x, Bits *b)
{
    memset(b, 0, sizeof(*b));
    b->a = x;
    b->b = x >> 3;
    b->c = (int)(x >> 10);
    b->d = x >> 15;
    b->e = x >> 28;
    b->f = (int)(x * 2654435761u);
    b->g = (unsigned long long)x * 0x9e3779b97f4a7c15ull;
}

__host__ __device__ long long bits_sum(const Bits &b)
{
    return (long long)b.a + 10 * b.b + 100 * (long long)b.c + 1000 * (long long)b.d + b.e * 7 +
           (long long)b.f * 13 + (long long)(b.g % 1000003);
}

#define NOUT 6
__global__ void flows(const unsigned *in, unsigned long long *out, Bits *bits, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    unsigned x = in[t];
    int count = 0;
    unsigned long long *o = out + (size_t)t * NOUT;
    o[0] = interp(x);
    o[1] = (unsigned)collatz(x % 100000 + 1);
    o[2] = dense_switch(x);
    o[3] = (unsigned)state_machine(x);
    o[4] = (unsigned)short_circuit((int)(x % 200), &count) + ((unsigned long long)count << 32);
    Bits b;
    bits_from(x, &b);
    bits[t] = b;
    o[5] = (unsigned long long)bits_sum(b);
}

int main()
{
    const int n = 2048;
    unsigned *in = new unsigned[n], *din;
    unsigned long long *out = new unsigned long long[(size_t)n * NOUT], *dout;
    Bits *bits = new Bits[n], *dbits;
    uint32_t seed = 8;
    static const char *names[NOUT] = {"interp",        "collatz",       "dense_switch",
                                      "state_machine", "short_circuit", "bitfield sum"};

    for (int i = 0; i < n; i++)
        in[i] = i < 64 ? (unsigned)i : rng_next(&seed);
    CK(cudaMalloc(&din, n * sizeof(unsigned)));
    CK(cudaMalloc(&dout, (size_t)n * NOUT * sizeof(unsigned long long)));
    CK(cudaMalloc(&dbits, n * sizeof(Bits)));
    CK(cudaMemcpy(din, in, n * sizeof(unsigned), cudaMemcpyHostToDevice));
    flows<<<(n + 127) / 128, 128>>>(din, dout, dbits, n);
    CK_LAUNCH();
    CK(cudaMemcpy(out, dout, (size_t)n * NOUT * sizeof(unsigned long long),
                  cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(bits, dbits, n * sizeof(Bits), cudaMemcpyDeviceToHost));
    for (int t = 0; t < n; t++) {
        unsigned x = in[t];
        int count = 0;
        unsigned long long w[NOUT];
        Bits b;
        w[0] = interp(x);
        w[1] = (unsigned)collatz(x % 100000 + 1);
        w[2] = dense_switch(x);
        w[3] = (unsigned)state_machine(x);
        w[4] = (unsigned)short_circuit((int)(x % 200), &count) + ((unsigned long long)count << 32);
        bits_from(x, &b);
        w[5] = (unsigned long long)bits_sum(b);
        for (int k = 0; k < NOUT; k++)
            expect_equ(names[k], t, out[(size_t)t * NOUT + k], w[k]);
        if (memcmp(&b, &bits[t], sizeof(Bits)) != 0)
            fail("bitfield struct bytes differ for input %d (0x%08x)", t, x);
    }
    CK(cudaFree(din));
    CK(cudaFree(dout));
    CK(cudaFree(dbits));
    delete[] in;
    delete[] out;
    delete[] bits;
    return finish();
}
