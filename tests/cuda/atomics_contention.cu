// Integer atomics under contention: every thread of 64 blocks x 256 hits the
// same few global words (add, sub, min, max, and, or, xor, inc, dec, exch,
// 64-bit add and max) and one shared word per block; atomicAdd's return values
// must hand out each ticket 0..N-1 exactly once.
#define TEST_NAME "atomics_contention"
#include "common.h"

#define BLOCKS 64
#define THREADS 256
#define N (BLOCKS * THREADS)
#define INC_LIMIT 1000u
#define DEC_LIMIT 77u

struct counters {
    int add, sub, mn, mx;
    unsigned and_, or_, xor_, inc, dec, exch_sum;
    unsigned long long add64, max64;
    unsigned ticket_counter;
};

__global__ void hammer(counters *c, int *tickets, unsigned *exch_seen, unsigned *block_adds)
{
    __shared__ unsigned s_count;
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (t * 7919) % 10007 - 5003;

    if (threadIdx.x == 0)
        s_count = 0;
    __syncthreads();
    atomicAdd(&c->add, v);
    atomicSub(&c->sub, t);
    atomicMin(&c->mn, v);
    atomicMax(&c->mx, v);
    atomicAnd(&c->and_, ~(1u << (t % 32)) | (t < 16 ? 0u : 0xffffffffu));
    atomicOr(&c->or_, 1u << (t % 29));
    atomicXor(&c->xor_, (unsigned)t * 2654435761u);
    atomicInc(&c->inc, INC_LIMIT);
    atomicDec(&c->dec, DEC_LIMIT);
    // Each exchange returns the previous occupant; every value but the last
    // one stored comes back exactly once.
    unsigned old = atomicExch(&c->exch_sum, (unsigned)t + 1);
    if (old != 0)
        atomicAdd(&exch_seen[old - 1], 1u);
    atomicAdd(&c->add64, (unsigned long long)t << 20);
    atomicMax(&c->max64, ((unsigned long long)(t % 1000) << 40) | (unsigned)t);
    tickets[atomicAdd(&c->ticket_counter, 1u)] = t;
    atomicAdd(&s_count, (unsigned)threadIdx.x + 1);
    __syncthreads();
    if (threadIdx.x == 0)
        block_adds[blockIdx.x] = s_count;
}

int main()
{
    counters h, *dc;
    int *tickets = new int[N], *dtickets;
    unsigned *seen = new unsigned[N], *dseen, blk[BLOCKS], *dblk;

    memset(&h, 0, sizeof(h));
    h.mn = INT_MAX;
    h.mx = INT_MIN;
    h.and_ = 0xffffffffu;
    h.dec = 5;
    CK(cudaMalloc(&dc, sizeof(h)));
    CK(cudaMalloc(&dtickets, N * sizeof(int)));
    CK(cudaMalloc(&dseen, N * sizeof(unsigned)));
    CK(cudaMalloc(&dblk, sizeof(blk)));
    CK(cudaMemcpy(dc, &h, sizeof(h), cudaMemcpyHostToDevice));
    CK(cudaMemset(dtickets, 0xff, N * sizeof(int)));
    CK(cudaMemset(dseen, 0, N * sizeof(unsigned)));
    hammer<<<BLOCKS, THREADS>>>(dc, dtickets, dseen, dblk);
    CK_LAUNCH();
    CK(cudaMemcpy(&h, dc, sizeof(h), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(tickets, dtickets, N * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(seen, dseen, N * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(blk, dblk, sizeof(blk), cudaMemcpyDeviceToHost));

    int add = 0, sub = 0, mn = INT_MAX, mx = INT_MIN;
    unsigned and_ = 0xffffffffu, or_ = 0, xor_ = 0, inc = 0, dec = 5;
    unsigned long long add64 = 0, max64 = 0;
    for (int t = 0; t < N; t++) {
        int v = (t * 7919) % 10007 - 5003;
        unsigned long long m = ((unsigned long long)(t % 1000) << 40) | (unsigned)t;
        add += v;
        sub -= t;
        mn = v < mn ? v : mn;
        mx = v > mx ? v : mx;
        and_ &= ~(1u << (t % 32)) | (t < 16 ? 0u : 0xffffffffu);
        or_ |= 1u << (t % 29);
        xor_ ^= (unsigned)t * 2654435761u;
        inc = inc >= INC_LIMIT ? 0 : inc + 1;
        dec = (dec == 0 || dec > DEC_LIMIT) ? DEC_LIMIT : dec - 1;
        add64 += (unsigned long long)t << 20;
        max64 = m > max64 ? m : max64;
    }
    expect_eq("add", 0, h.add, add);
    expect_eq("sub", 0, h.sub, sub);
    expect_eq("min", 0, h.mn, mn);
    expect_eq("max", 0, h.mx, mx);
    expect_equ("and", 0, h.and_, and_);
    expect_equ("or", 0, h.or_, or_);
    expect_equ("xor", 0, h.xor_, xor_);
    expect_equ("inc", 0, h.inc, inc);
    expect_equ("dec", 0, h.dec, dec);
    expect_equ("add64", 0, h.add64, add64);
    expect_equ("max64", 0, h.max64, max64);
    expect_equ("ticket_counter", 0, h.ticket_counter, N);

    // Tickets: a permutation of the thread ids.
    unsigned char *got = new unsigned char[N]();
    for (int i = 0; i < N; i++) {
        if (tickets[i] < 0 || tickets[i] >= N)
            expect_eq("ticket", i, tickets[i], 0);
        else if (got[tickets[i]]++)
            expect_eq("ticket owner seen twice", i, tickets[i], -1);
    }
    // Exchange: the last value stored stays in memory, all others came back once.
    unsigned last = h.exch_sum;
    expect_true(last >= 1 && last <= N, "exch: final value out of range");
    for (int t = 0; t < N; t++)
        expect_equ("exch_seen", t, seen[t], (unsigned)(t + 1) == last ? 0u : 1u);
    for (int b = 0; b < BLOCKS; b++)
        expect_equ("shared add", b, blk[b], THREADS * (THREADS + 1) / 2);
    CK(cudaFree(dc));
    CK(cudaFree(dtickets));
    CK(cudaFree(dseen));
    CK(cudaFree(dblk));
    delete[] tickets;
    delete[] seen;
    delete[] got;
    return finish();
}
