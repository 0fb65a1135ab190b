"""cuda-python's driver bindings (cuda.bindings.driver) on ptxsim's libcuda.so.1:
a PTX saxpy loaded with cuModuleLoadData and launched with cuLaunchKernel, checked
against a host reference. Prints "PASS cuda_python_driver" (tests/python/run.sh)."""
import ctypes
import sys

from cuda.bindings import driver as cu

PTX = b"""
.version 7.5
.target sm_75
.address_size 64
.visible .entry saxpy(.param .f32 a, .param .u64 x, .param .u64 y, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<8>;
  ld.param.f32 %f1, [a];
  ld.param.u64 %rd1, [x];
  ld.param.u64 %rd2, [y];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r2, %r3, %r4;
  setp.ge.s32 %p1, %r5, %r1;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd3, %rd1;
  cvta.to.global.u64 %rd4, %rd2;
  mul.wide.s32 %rd5, %r5, 4;
  add.s64 %rd6, %rd3, %rd5;
  add.s64 %rd7, %rd4, %rd5;
  ld.global.f32 %f2, [%rd6];
  ld.global.f32 %f3, [%rd7];
  fma.rn.f32 %f3, %f1, %f2, %f3;
  st.global.f32 [%rd7], %f3;
DONE:
  ret;
}
\0"""


def check(result):
    err, *rest = result if isinstance(result, tuple) else (result,)
    if err != cu.CUresult.CUDA_SUCCESS:
        print("FAIL cuda_python_driver: %s" % err)
        sys.exit(1)
    return rest[0] if len(rest) == 1 else rest


def main():
    n = 1000
    check(cu.cuInit(0))
    dev = check(cu.cuDeviceGet(0))
    name = check(cu.cuDeviceGetName(64, dev))
    ctx = check(cu.cuDevicePrimaryCtxRetain(dev))
    check(cu.cuCtxSetCurrent(ctx))
    mod = check(cu.cuModuleLoadData(PTX))
    fn = check(cu.cuModuleGetFunction(mod, b"saxpy"))
    x = (ctypes.c_float * n)(*[float(i) for i in range(n)])
    y = (ctypes.c_float * n)(*[float(n - i) for i in range(n)])
    dx = check(cu.cuMemAlloc(4 * n))
    dy = check(cu.cuMemAlloc(4 * n))
    check(cu.cuMemcpyHtoD(dx, x, 4 * n))
    check(cu.cuMemcpyHtoD(dy, y, 4 * n))
    a = 2.0
    args = ((a, dx, dy, n), (ctypes.c_float, None, None, ctypes.c_uint))
    check(cu.cuLaunchKernel(fn, (n + 127) // 128, 1, 1, 128, 1, 1, 0, 0, args, 0))
    check(cu.cuCtxSynchronize())
    out = (ctypes.c_float * n)()
    check(cu.cuMemcpyDtoH(out, dy, 4 * n))
    for i in range(n):
        want = ctypes.c_float(a * x[i] + y[i]).value
        if out[i] != want:
            print("FAIL cuda_python_driver: y[%d] = %g, want %g" % (i, out[i], want))
            sys.exit(1)
    check(cu.cuMemFree(dx))
    check(cu.cuMemFree(dy))
    check(cu.cuModuleUnload(mod))
    check(cu.cuDevicePrimaryCtxRelease(dev))
    print("PASS cuda_python_driver (%s)" % name.split(b"\0")[0].decode())


main()
