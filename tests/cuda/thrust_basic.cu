// A real library on top of the runtime: Thrust (and the CUB kernels under
// it) on device_vector: sequence, transform with a functor, reduce,
// inclusive_scan, sort (CUB radix sort), sort_by_key, count_if, and copy
// back to the host. Small inputs; results against std:: algorithms. Exact.
#define TEST_NAME "thrust_basic"
#include "common.h"
#include <algorithm>
#include <numeric>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <vector>

struct Mix {
    __host__ __device__ int operator()(int x) const
    {
        return (x * 7919) % 1009 - 500;
    }
};

struct IsNeg {
    __host__ __device__ bool operator()(int x) const
    {
        return x < 0;
    }
};

int main()
{
    const int n = 3000;
    thrust::device_vector<int> d(n);
    thrust::sequence(d.begin(), d.end());
    thrust::transform(d.begin(), d.end(), d.begin(), Mix());
    std::vector<int> h(n);
    for (int i = 0; i < n; i++)
        h[i] = Mix()(i);

    long long sum = thrust::reduce(d.begin(), d.end(), 0LL);
    expect_eq("reduce", 0, sum, std::accumulate(h.begin(), h.end(), 0LL));
    long long neg = thrust::count_if(d.begin(), d.end(), IsNeg());
    expect_eq("count_if", 0, neg, std::count_if(h.begin(), h.end(), IsNeg()));

    thrust::device_vector<int> scan(n);
    thrust::inclusive_scan(d.begin(), d.end(), scan.begin());
    thrust::host_vector<int> hs = scan;
    int run = 0;
    for (int i = 0; i < n; i++) {
        run += h[i];
        expect_eq("inclusive_scan", i, hs[i], run);
    }

    thrust::device_vector<int> keys = d;
    thrust::device_vector<int> vals(n);
    thrust::sequence(vals.begin(), vals.end());
    thrust::sort(d.begin(), d.end());
    thrust::host_vector<int> sorted = d;
    std::vector<int> want = h;
    std::sort(want.begin(), want.end());
    for (int i = 0; i < n; i++)
        expect_eq("sort", i, sorted[i], want[i]);

    thrust::sort_by_key(keys.begin(), keys.end(), vals.begin());
    thrust::host_vector<int> hk = keys, hv = vals;
    std::vector<int> idx(n);
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return h[a] < h[b]; });
    for (int i = 0; i < n; i++) {
        expect_eq("sort_by_key key", i, hk[i], h[idx[i]]);
        expect_eq("sort_by_key value", i, hv[i], idx[i]); // radix sort is stable
    }
    CK(cudaDeviceSynchronize());
    return finish();
}
