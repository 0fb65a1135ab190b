// Host memory handed to the device is validated (issue 17): cudaHostRegister
// of unmapped memory, of a read-only mapping (without
// cudaHostRegisterReadOnly) and of a range that wraps the address space is
// cudaErrorInvalidValue; a read-only mapping registered read-only is fine: a
// kernel reads it, and a kernel storing to it gets cudaErrorIllegalAddress
// (the host's protection is never hit; cudaDeviceReset clears the error).
// Memory registered and then unmapped by the program (without
// cudaHostUnregister) is dropped from the device before the next launch: a
// kernel storing through it gets cudaErrorIllegalAddress instead of taking
// the host down. Exit 0 on success.
#define TEST_NAME "error_host_register"
#include "common.h"
#include <sys/mman.h>
#include <unistd.h>

__global__ void store(int *p)
{
    p[threadIdx.x] = threadIdx.x + 1;
}

__global__ void copy(const int *src, int *dst)
{
    dst[threadIdx.x] = src[threadIdx.x];
}

static void expect_refused(void *p, size_t n, unsigned flags, const char *what)
{
    cudaError_t e = cudaHostRegister(p, n, flags);
    if (e != cudaErrorInvalidValue)
        fail("%s: cudaHostRegister returned %s, want cudaErrorInvalidValue", what,
             cudaGetErrorName(e));
    if (e == cudaSuccess)
        cudaHostUnregister(p);
    (void)cudaGetLastError();
}

int main()
{
    const size_t page = (size_t)sysconf(_SC_PAGESIZE), len = 4 * page;
    char *gone = (char *)mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    char *ro = (char *)mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    char *later = (char *)mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    if (gone == MAP_FAILED || ro == MAP_FAILED || later == MAP_FAILED) {
        printf("FAIL %s: mmap failed\n", TEST_NAME);
        return 1;
    }
    munmap(gone, len);
    expect_refused(gone, len, cudaHostRegisterMapped, "unmapped memory");
    expect_refused(ro, len, cudaHostRegisterMapped, "read-only memory");
    expect_refused(later + page, SIZE_MAX - 4, cudaHostRegisterMapped, "wrapping range");
    CK(cudaHostRegister(ro, len, cudaHostRegisterMapped | cudaHostRegisterReadOnly));
    int *dro, *dout, hout[32];
    CK(cudaHostGetDevicePointer(&dro, ro, 0));
    CK(cudaMalloc(&dout, sizeof(hout)));
    copy<<<1, 32>>>(dro, dout); // reading read-only host memory is fine
    CK_LAUNCH();
    CK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
    expect_eq("read from read-only host memory", 0, hout[0], 0);
    fflush(stdout);
    store<<<1, 32>>>(dro); // storing to it is an illegal address, not a host SIGSEGV
    cudaError_t ro_sync = cudaDeviceSynchronize();
    if (ro_sync != cudaErrorIllegalAddress)
        fail("store to read-only registered memory: %s, want cudaErrorIllegalAddress",
             cudaGetErrorName(ro_sync));
    CK(cudaDeviceReset()); // clears the sticky error; registrations are gone
    (void)cudaGetLastError();

    int *dev;
    CK(cudaHostRegister(later, len, cudaHostRegisterMapped));
    CK(cudaHostGetDevicePointer(&dev, later, 0));
    store<<<1, 32>>>(dev);
    CK_LAUNCH();
    expect_eq("registered memory written", 5, ((int *)later)[5], 6);

    munmap(later, len); // the program forgets cudaHostUnregister
    fflush(stdout);
    store<<<1, 32>>>(dev);
    cudaError_t launch = cudaGetLastError();
    cudaError_t sync = cudaDeviceSynchronize();
    if (launch != cudaSuccess)
        fail("launch after munmap returned %s", cudaGetErrorName(launch));
    if (sync != cudaErrorIllegalAddress)
        fail("store through unmapped registered memory: %s, want cudaErrorIllegalAddress",
             cudaGetErrorName(sync));
    return finish();
}
