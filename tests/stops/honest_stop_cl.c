/*
 * Honest stops in OpenCL (tests/stops/run.sh runs it under a cap): a kernel
 * that the cap stops must fail, at the enqueue or at clFinish, with
 * CL_OUT_OF_RESOURCES (what a GPU's killed kernel gives), and its event must
 * carry an error status. Prints "PASS honest_stop_cl" (exit 0) only then.
 * With the argument "kernel" it prints "ready" and runs a kernel for minutes,
 * for the script to stop with a signal.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <string.h>

static const char *src = "__kernel void spin(__global uint *out, int n) {\n"
                         "  uint s = 0;\n"
                         "  for (int i = 0; i < n; i++) s += (uint)i ^ (uint)get_local_id(0);\n"
                         "  out[get_global_id(0)] = s;\n"
                         "}\n";

int main(int argc, char **argv)
{
    cl_platform_id pf;
    cl_device_id dev;
    cl_int rc, enq, fin, status = CL_COMPLETE;
    size_t global = 8192, local = 128;
    int n = argc > 1 && !strcmp(argv[1], "kernel") ? 1 << 30 : 100000;

    if (clGetPlatformIDs(1, &pf, NULL) || clGetDeviceIDs(pf, CL_DEVICE_TYPE_ALL, 1, &dev, NULL))
        return printf("FAIL honest_stop_cl: no OpenCL device\n"), 1;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &rc);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &rc);
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &rc);
    if (clBuildProgram(p, 1, &dev, "", NULL, NULL))
        return printf("FAIL honest_stop_cl: build failed\n"), 1;
    cl_kernel k = clCreateKernel(p, "spin", &rc);
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, global * 4, NULL, &rc);
    cl_event ev = NULL;
    clSetKernelArg(k, 0, sizeof(out), &out);
    clSetKernelArg(k, 1, sizeof(n), &n);
    if (n > 100000) {
        printf("ready\n");
        fflush(stdout);
    }
    enq = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, &ev);
    fin = clFinish(q);
    if (ev)
        clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, NULL);
    if ((enq != CL_OUT_OF_RESOURCES && fin != CL_OUT_OF_RESOURCES) || (ev && status >= 0)) {
        printf("FAIL honest_stop_cl: enqueue %d, finish %d, event status %d\n", enq, fin, status);
        return 1;
    }
    printf("PASS honest_stop_cl\n");
    return 0;
}
