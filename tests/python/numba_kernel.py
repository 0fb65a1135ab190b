"""numba-cuda on ptxsim's libcuda.so.1: a kernel compiled from Python by Numba
(libNVVM from the toolkit), launched on device arrays, checked against NumPy.
Prints "PASS numba_kernel" on success."""
import sys

import numpy as np
from numba import cuda


@cuda.jit
def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


def main():
    n = 1000
    x = np.arange(n, dtype=np.float32)
    y = np.full(n, 2.0, dtype=np.float32)
    d_out = cuda.device_array_like(x)
    saxpy[(n + 127) // 128, 128](np.float32(3.0), cuda.to_device(x), cuda.to_device(y), d_out)
    out = d_out.copy_to_host()
    want = np.float32(3.0) * x + y
    bad = int(np.count_nonzero(out != want))
    if bad:
        print(f"FAIL numba_kernel: {bad} of {n} elements wrong (first: {out[:4]})")
        return 1
    print(f"PASS numba_kernel ({n} elements)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
