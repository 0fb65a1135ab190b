// WORKLOAD: nqueens | compute | N-queens solution counting: each thread finishes one partial board by iterative bitmask backtracking with a local-memory stack; integer-bound, heavily divergent, unbalanced threads
//
// The host enumerates every valid placement of queens on the first R rows (as three
// bitmasks: occupied columns and the two diagonals projected onto the next row); each
// device thread takes one of them and counts the completions of the remaining N - R
// rows depth-first, keeping its backtracking stack in a dynamically indexed (local
// memory) array. Threads finish at very different times and branch differently.
// Check (exact): every per-board count against a host recursive solver, and the total
// against the known number of solutions of the N-queens problem.
#define WL_NAME "nqueens"
#include "wl.h"

#include <vector>

#define MAXN 20
#define BLOCK 64

struct board {
    unsigned cols, ld, rd;
};

__global__ void nqueens_finish(const board *__restrict__ boards, unsigned *counts, int nboards, int n, int rows_left)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nboards)
        return;
    unsigned stack[MAXN][4]; // cols, ld, rd, remaining candidates
    unsigned all = (1u << n) - 1;
    unsigned cols = boards[t].cols, ld = boards[t].ld, rd = boards[t].rd;
    unsigned avail = all & ~(cols | ld | rd);
    unsigned count = 0;
    int depth = 0;

    for (;;) {
        if (avail == 0) {
            if (depth == 0)
                break;
            depth--;
            cols = stack[depth][0];
            ld = stack[depth][1];
            rd = stack[depth][2];
            avail = stack[depth][3];
            continue;
        }
        unsigned bit = avail & (0u - avail);
        avail ^= bit;
        if (depth == rows_left - 1) { // this queen fills the last row
            count++;
            continue;
        }
        stack[depth][0] = cols;
        stack[depth][1] = ld;
        stack[depth][2] = rd;
        stack[depth][3] = avail;
        depth++;
        cols |= bit;
        ld = ((ld | bit) << 1) & all;
        rd = (rd | bit) >> 1;
        avail = all & ~(cols | ld | rd);
    }
    counts[t] = count;
}

static void enumerate(std::vector<board> &out, int n, int rows, unsigned cols, unsigned ld, unsigned rd)
{
    unsigned all = (1u << n) - 1;

    if (rows == 0) {
        out.push_back(board{cols, ld, rd});
        return;
    }
    for (unsigned avail = all & ~(cols | ld | rd); avail; avail &= avail - 1) {
        unsigned bit = avail & (0u - avail);
        enumerate(out, n, rows - 1, cols | bit, ((ld | bit) << 1) & all, (rd | bit) >> 1);
    }
}

static unsigned solve_host(int n, int rows_left, unsigned cols, unsigned ld, unsigned rd)
{
    unsigned all = (1u << n) - 1, count = 0;

    if (rows_left == 0)
        return 1;
    for (unsigned avail = all & ~(cols | ld | rd); avail; avail &= avail - 1) {
        unsigned bit = avail & (0u - avail);
        count += solve_host(n, rows_left - 1, cols | bit, ((ld | bit) << 1) & all, (rd | bit) >> 1);
    }
    return count;
}

int main(int argc, char **argv)
{
    // Known totals, OEIS A000170.
    static const unsigned long long known[MAXN + 1] = {1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200,
                                                       73712, 365596, 2279184, 14772512, 95815104,
                                                       666090624, 4968057848ull, 39029188884ull};
    wl_size sz = wl_parse_size(argc, argv);
    int n = wl_pick(sz, 10, 12, 15);
    int prefix = wl_pick(sz, 4, 4, 5);
    std::vector<board> boards;

    enumerate(boards, n, prefix, 0, 0, 0);
    int nb = (int)boards.size();
    fprintf(stderr, "nqueens: n=%d, %d partial boards of %d rows\n", n, nb, prefix);

    board *dboards;
    unsigned *dcounts;
    WL_CK(cudaMalloc(&dboards, nb * sizeof(board)));
    WL_CK(cudaMalloc(&dcounts, nb * sizeof(unsigned)));
    WL_CK(cudaMemcpy(dboards, boards.data(), nb * sizeof(board), cudaMemcpyHostToDevice));
    nqueens_finish<<<(nb + BLOCK - 1) / BLOCK, BLOCK>>>(dboards, dcounts, nb, n, n - prefix);
    WL_LAUNCH_CK();
    std::vector<unsigned> counts(nb);
    WL_CK(cudaMemcpy(counts.data(), dcounts, nb * sizeof(unsigned), cudaMemcpyDeviceToHost));

    unsigned long long total = 0;
    for (int i = 0; i < nb; i++) {
        unsigned want = solve_host(n, n - prefix, boards[i].cols, boards[i].ld, boards[i].rd);
        if (counts[i] != want)
            wl_fail("board %d: %u completions, want %u", i, counts[i], want);
        total += counts[i];
    }
    if (total != known[n])
        wl_fail("%llu solutions, want %llu", total, known[n]);
    cudaFree(dboards);
    cudaFree(dcounts);
    return wl_pass();
}
