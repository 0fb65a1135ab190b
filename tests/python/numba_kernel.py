"""numba-cuda on ptxsim: a @cuda.jit kernel compiled by numba with the toolkit's libNVVM
for the device's compute capability, loaded and launched through ptxsim's libcuda.so.1,
checked against a host reference. Prints "PASS numba_kernel" (tests/python/run.sh)."""
import sys

import numpy as np
from numba import cuda


@cuda.jit
def axpb(out, x, a, b):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = a * x[i] + b


def main():
    n = 2048
    x = np.arange(n, dtype=np.float32)
    dx = cuda.to_device(x)
    dout = cuda.device_array_like(x)
    axpb[(n + 255) // 256, 256](dout, dx, np.float32(3.0), np.float32(1.5))
    out = dout.copy_to_host()
    want = np.float32(3.0) * x + np.float32(1.5)
    if not np.array_equal(out, want):
        bad = int(np.argmax(out != want))
        print("FAIL numba_kernel: out[%d] = %g, want %g" % (bad, out[bad], want[bad]))
        sys.exit(1)
    cc = cuda.get_current_device().compute_capability
    print("PASS numba_kernel (sm_%d%d)" % cc)


main()
