"""CuPy on ptxsim's libcuda.so.1: an ElementwiseKernel, a RawKernel and a reduction
(CuPy's own kernels, compiled by the toolkit's NVRTC), checked against NumPy.
Prints "PASS cupy_kernels" on success."""
import sys

import cupy as cp
import numpy as np


def main():
    n = 1000
    x = np.arange(n, dtype=np.float32)
    dx = cp.asarray(x)
    axpb = cp.ElementwiseKernel("float32 a", "float32 b", "b = a * 2.0f + 1.0f", "axpb")
    got = {"elementwise": (axpb(dx).get(), x * np.float32(2) + np.float32(1))}
    square = cp.RawKernel(r"""
extern "C" __global__ void square(const float *a, float *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        b[i] = a[i] * a[i];
}""", "square")
    dy = cp.empty_like(dx)
    square(((n + 127) // 128,), (128,), (dx, dy, cp.int32(n)))
    got["raw"] = (dy.get(), x * x)
    got["sum"] = (np.array([float(cp.sum(cp.asarray(np.arange(n, dtype=np.int64))))]),
                  np.array([float(n * (n - 1) // 2)]))
    for name, (have, want) in got.items():
        bad = int(np.count_nonzero(have != want))
        if bad:
            print(f"FAIL cupy_kernels: {name}: {bad} of {have.size} wrong (first: {have[:4]})")
            return 1
    print(f"PASS cupy_kernels ({', '.join(got)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
