// Recursive device functions (real calls with a stack: __noinline__, not
// tail calls): naive Fibonacci (two calls per level, data-dependent depth per
// thread), mutual recursion (is_even/is_odd), a recursive subtree sum over a
// binary tree stored in an array, recursive quicksort of a per-thread local
// array, and a depth-200 linear recursion with cudaLimitStackSize raised.
// Exact.
#define TEST_NAME "recursion"
#include "common.h"

__device__ __noinline__ int fib(int n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__device__ __noinline__ bool is_odd(int n);
__device__ __noinline__ bool is_even(int n)
{
    return n == 0 ? true : is_odd(n - 1);
}
__device__ __noinline__ bool is_odd(int n)
{
    return n == 0 ? false : is_even(n - 1);
}

__device__ __noinline__ long long subtree(const int *tree, int n, int i)
{
    if (i >= n)
        return 0;
    long long l = subtree(tree, n, 2 * i + 1);
    long long r = subtree(tree, n, 2 * i + 2);
    return tree[i] + 2 * l - r;
}

__device__ __noinline__ void quicksort(int *a, int lo, int hi)
{
    if (lo >= hi)
        return;
    int p = a[(lo + hi) / 2], i = lo, j = hi;
    while (i <= j) {
        while (a[i] < p)
            i++;
        while (a[j] > p)
            j--;
        if (i <= j) {
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
            i++;
            j--;
        }
    }
    quicksort(a, lo, j);
    quicksort(a, i, hi);
}

__device__ __noinline__ long long deep(int n, long long acc)
{
    if (n == 0)
        return acc;
    long long r = deep(n - 1, acc + n);
    return r * 3 % 1000003 + n; // work after the call: not a tail call
}

__global__ void recurse(const int *tree, int tree_n, const int *vals, int *out_fib, int *out_parity,
                        long long *out_tree, int *sorted, long long *out_deep)
{
    int t = threadIdx.x;
    out_fib[t] = fib(t % 16);
    out_parity[t] = is_even(t * 3) ? 1 : 0;
    out_tree[t] = subtree(tree, tree_n, t % 15);
    int a[24];
    for (int k = 0; k < 24; k++)
        a[k] = vals[(t * 24 + k) % 200];
    quicksort(a, 0, 23 - t % 5);
    for (int k = 0; k < 24; k++)
        sorted[t * 24 + k] = a[k];
    if (t < 4)
        out_deep[t] = deep(200 - t, t);
}

static int h_fib(int n)
{
    return n < 2 ? n : h_fib(n - 1) + h_fib(n - 2);
}
static long long h_subtree(const int *tree, int n, int i)
{
    if (i >= n)
        return 0;
    return tree[i] + 2 * h_subtree(tree, n, 2 * i + 1) - h_subtree(tree, n, 2 * i + 2);
}
static long long h_deep(int n, long long acc)
{
    if (n == 0)
        return acc;
    return h_deep(n - 1, acc + n) * 3 % 1000003 + n;
}

int main()
{
    const int T = 64, tree_n = 100;
    int tree[tree_n], vals[200];
    int fibs[T], parity[T], sorted[T * 24];
    long long trees[T], deeps[4];
    uint32_t seed = 3;

    for (int k = 0; k < tree_n; k++)
        tree[k] = (int)(rng_next(&seed) % 100) - 50;
    for (int k = 0; k < 200; k++)
        vals[k] = (int)(rng_next(&seed) % 1000) - 500;
    CK(cudaDeviceSetLimit(cudaLimitStackSize, 16384));
    int *dtree, *dvals, *dfib, *dpar, *dsorted;
    long long *dtrees, *ddeep;
    CK(cudaMalloc(&dtree, sizeof(tree)));
    CK(cudaMalloc(&dvals, sizeof(vals)));
    CK(cudaMalloc(&dfib, sizeof(fibs)));
    CK(cudaMalloc(&dpar, sizeof(parity)));
    CK(cudaMalloc(&dsorted, sizeof(sorted)));
    CK(cudaMalloc(&dtrees, sizeof(trees)));
    CK(cudaMalloc(&ddeep, sizeof(deeps)));
    CK(cudaMemcpy(dtree, tree, sizeof(tree), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dvals, vals, sizeof(vals), cudaMemcpyHostToDevice));
    recurse<<<1, T>>>(dtree, tree_n, dvals, dfib, dpar, dtrees, dsorted, ddeep);
    CK_LAUNCH();
    CK(cudaMemcpy(fibs, dfib, sizeof(fibs), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(parity, dpar, sizeof(parity), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(sorted, dsorted, sizeof(sorted), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(trees, dtrees, sizeof(trees), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(deeps, ddeep, sizeof(deeps), cudaMemcpyDeviceToHost));
    for (int t = 0; t < T; t++) {
        expect_eq("fib", t, fibs[t], h_fib(t % 16));
        expect_eq("is_even", t, parity[t], (t * 3) % 2 == 0);
        expect_eq("subtree", t, trees[t], h_subtree(tree, tree_n, t % 15));
        int a[24], len = 24 - t % 5;
        for (int k = 0; k < 24; k++)
            a[k] = vals[(t * 24 + k) % 200];
        // sort the first len elements (insertion sort), the rest stay
        for (int i = 1; i < len; i++)
            for (int j = i; j > 0 && a[j - 1] > a[j]; j--) {
                int x = a[j];
                a[j] = a[j - 1];
                a[j - 1] = x;
            }
        for (int k = 0; k < 24; k++)
            expect_eq("quicksort", t * 24 + k, sorted[t * 24 + k], a[k]);
    }
    for (int t = 0; t < 4; t++)
        expect_eq("deep", t, deeps[t], h_deep(200 - t, t));
    CK(cudaFree(dtree));
    CK(cudaFree(dvals));
    CK(cudaFree(dfib));
    CK(cudaFree(dpar));
    CK(cudaFree(dsorted));
    CK(cudaFree(dtrees));
    CK(cudaFree(ddeep));
    return finish();
}
