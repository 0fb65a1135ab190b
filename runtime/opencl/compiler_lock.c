/*
 * The process-wide compiler lock, a leaf both the GPU's program builds
 * (program.c, program_link.c) and HeteroPDP's CPU-side feature counting
 * (hpdp_launch.c) take.
 */
#include <pthread.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "runtime/opencl/ocl.h"

/*
 * One compile at a time in the process: a compile (clang, libclc linking,
 * the NVPTX back end) peaks at about 200 MB, so 50 threads building at once
 * in 50 contexts needed 10 GB and thrashed; in turn they need one compile's
 * memory and take the same CPU time.
 */
static pthread_mutex_t g_compile_lock = PTHREAD_MUTEX_INITIALIZER;

void ocl_compiler_lock(void)
{
    pthread_mutex_lock(&g_compile_lock);
}

void ocl_compiler_unlock(void)
{
#ifdef __GLIBC__
    /*
     * The compile's memory was freed into the calling thread's malloc arena,
     * where glibc keeps it: with a thread per context that was ~160 MB per
     * thread. Hand it back to the system.
     */
    malloc_trim(0);
#endif
    pthread_mutex_unlock(&g_compile_lock);
}
