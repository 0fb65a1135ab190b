/*
 * Robustness of ptxsim's OpenCL platform (issue 17, issue 16 item 2); run on
 * ptxsim only (run.sh's ptxsim_only list: the misuse below is undefined
 * behaviour on other platforms). Every misuse must get its OpenCL error and
 * the host must survive (the ASan build catches any read of freed memory):
 *   - clSetKernelArg with garbage cl_mem values (an unmapped address, a
 *     pointer to zeroed host memory) and with a released buffer:
 *     CL_INVALID_MEM_OBJECT; a released kernel: CL_INVALID_KERNEL; a second
 *     release: CL_INVALID_MEM_OBJECT (a garbage handle as the object a call
 *     is dispatched through is not tested: the ICD loader reads its dispatch
 *     table before ptxsim sees it);
 *   - global sizes 2^32 + 1 (no local size) and 2^40, and 65536 work-groups in
 *     dimension 1: CL_INVALID_GLOBAL_WORK_SIZE (never truncated);
 *   - a __local argument of SIZE_MAX bytes: CL_OUT_OF_RESOURCES;
 *   - a kernel that reads 1 KiB before its buffer at the grid's edge and
 *     discards the value runs (memory is mapped in pages, as on a GPU), and
 *     under -o ptxsim_memcheck=1 (the program runs itself as a child with
 *     PTXSIM_OPTIONS set) the same launch fails with CL_OUT_OF_RESOURCES.
 *   - messages: a lone "-D" build option is CL_INVALID_BUILD_OPTIONS with a log
 *     that says it needs a value; a program defining a name of ptxsim's support
 *     code gets a build log naming it.
 *   - exit() while another thread runs an endless kernel: the process exits at
 *     once (a child run of this program, given 30 s) and its statistics say
 *     "truncated": true.
 * Prints "I chk_<what> 1" per check (0 fails the test) and the kernel's results.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

static const char *src =
    "__kernel void fill(__global int *o, __local int *l)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    l[get_local_id(0)] = (int)i;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    o[i] = l[get_local_id(0)] * 2;\n"
    "}\n"
    "__kernel void spin(__global volatile int *f)\n"
    "{\n"
    "    while (f[0] == 0)\n"
    "        ;\n"
    "}\n"
    "__kernel void edge(__global int *o)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    int before = 0;\n"
    "    if (i == 0)\n"
    "        before = ((volatile __global int *)o)[-256]; /* 1 KiB before the buffer */\n"
    "    o[i] = (int)i + (before & 0);\n"
    "}\n";

static void chk_rc(const char *tag, cl_int got, cl_int want)
{
    if (got != want)
        fprintf(stderr, "%s: %s, want %s\n", tag, h_err_name(got), h_err_name(want));
    h_out_chk(tag, got == want);
}

static void handles(struct h_env *h, cl_program p)
{
    cl_kernel k = h_kernel(p, "fill"), dead_k = h_kernel(p, "fill");
    cl_mem dead = h_buffer(h, CL_MEM_READ_WRITE, 64, NULL);
    void *zeros = calloc(1, 4096);
    cl_mem bad1 = (cl_mem)(uintptr_t)0x10, bad2 = (cl_mem)zeros;

    chk_rc("garbage_mem_unmapped", clSetKernelArg(k, 0, sizeof(cl_mem), &bad1),
           CL_INVALID_MEM_OBJECT);
    chk_rc("garbage_mem_zeros", clSetKernelArg(k, 0, sizeof(cl_mem), &bad2),
           CL_INVALID_MEM_OBJECT);
    h_check(clReleaseMemObject(dead), "clReleaseMemObject");
    chk_rc("released_mem_arg", clSetKernelArg(k, 0, sizeof(cl_mem), &dead),
           CL_INVALID_MEM_OBJECT);
    chk_rc("released_mem_twice", clReleaseMemObject(dead), CL_INVALID_MEM_OBJECT);
    h_check(clReleaseKernel(dead_k), "clReleaseKernel");
    chk_rc("released_kernel", clSetKernelArg(dead_k, 1, 16, NULL), CL_INVALID_KERNEL);
    free(zeros);
    clReleaseKernel(k);
}

/* Many live objects (the registry grows and rehashes): every one stays valid, none aliases. */
static void many(struct h_env *h)
{
    enum { N = 700 };
    static cl_mem m[N];
    int ok = 1;

    for (int i = 0; i < N; i++)
        m[i] = h_buffer(h, CL_MEM_READ_WRITE, 16 + (size_t)i, NULL);
    for (int i = 0; i < N; i += 3)
        h_check(clReleaseMemObject(m[i]), "clReleaseMemObject");
    for (int i = 0; i < N; i += 3)
        m[i] = h_buffer(h, CL_MEM_READ_WRITE, 16 + (size_t)i, NULL);
    for (int i = 0; i < N; i++) {
        size_t size = 0;

        ok &= clGetMemObjectInfo(m[i], CL_MEM_SIZE, sizeof(size), &size, NULL) == CL_SUCCESS &&
              size == 16 + (size_t)i;
    }
    for (int i = 0; i < N; i++)
        ok &= clReleaseMemObject(m[i]) == CL_SUCCESS;
    h_out_chk("many_objects", ok);
}

static void sizes(struct h_env *h, cl_program p)
{
    cl_kernel k = h_kernel(p, "fill");
    cl_mem out = h_buffer(h, CL_MEM_READ_WRITE, 256 * sizeof(int), NULL);
    size_t g1 = ((size_t)1 << 32) + 1, g2 = (size_t)1 << 40, g3[2] = {1, 65536}, l3[2] = {1, 1};
    size_t g = 256, l = 64;
    int host[256], ok = 1;

    h_check(clSetKernelArg(k, 0, sizeof(cl_mem), &out), "clSetKernelArg 0");
    h_check(clSetKernelArg(k, 1, 64 * sizeof(int), NULL), "clSetKernelArg 1");
    chk_rc("global_2pow32_plus_1", clEnqueueNDRangeKernel(h->q, k, 1, NULL, &g1, NULL, 0, NULL, NULL),
           CL_INVALID_GLOBAL_WORK_SIZE);
    chk_rc("global_2pow40", clEnqueueNDRangeKernel(h->q, k, 1, NULL, &g2, NULL, 0, NULL, NULL),
           CL_INVALID_GLOBAL_WORK_SIZE);
    chk_rc("groups_y_65536", clEnqueueNDRangeKernel(h->q, k, 2, NULL, g3, l3, 0, NULL, NULL),
           CL_INVALID_GLOBAL_WORK_SIZE);
    if (clSetKernelArg(k, 1, SIZE_MAX, NULL) == CL_SUCCESS)
        chk_rc("local_size_max", clEnqueueNDRangeKernel(h->q, k, 1, NULL, &g, &l, 0, NULL, NULL),
               CL_OUT_OF_RESOURCES);
    else
        h_out_chk("local_size_max", 1); /* refused at clSetKernelArg: also right */
    h_check(clSetKernelArg(k, 1, 64 * sizeof(int), NULL), "clSetKernelArg 1");
    h_check(clEnqueueNDRangeKernel(h->q, k, 1, NULL, &g, &l, 0, NULL, NULL), "fill");
    h_read(h, out, sizeof(host), host);
    for (int i = 0; i < 256; i++)
        ok &= host[i] == 2 * i;
    h_out_chk("fill_after_errors", ok);
    clReleaseMemObject(out);
    clReleaseKernel(k);
}

/* The edge read; returns the launch's error code. */
static cl_int edge(struct h_env *h, cl_program p)
{
    cl_kernel k = h_kernel(p, "edge");
    cl_mem out = h_buffer(h, CL_MEM_READ_WRITE, 64 * sizeof(int), NULL);
    size_t g = 64;
    int host[64], ok = 1;
    cl_int rc;

    h_check(clSetKernelArg(k, 0, sizeof(cl_mem), &out), "clSetKernelArg");
    rc = clEnqueueNDRangeKernel(h->q, k, 1, NULL, &g, NULL, 0, NULL, NULL);
    if (rc == CL_SUCCESS) {
        h_read(h, out, sizeof(host), host);
        for (int i = 0; i < 64; i++)
            ok &= host[i] == i;
        h_out_chk("edge_values", ok);
    }
    clReleaseMemObject(out);
    clReleaseKernel(k);
    return rc;
}

/* Whether p's build log contains text. */
static int log_has(struct h_env *h, cl_program p, const char *text)
{
    static char log[8192];

    log[0] = 0;
    clGetProgramBuildInfo(p, h->dev, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
    if (!strstr(log, text))
        fprintf(stderr, "build log lacks '%s': %s\n", text, log);
    return strstr(log, text) != NULL;
}

static void messages(struct h_env *h)
{
    static const char *clash = "__constant long __ptxsim_global_offset[3] = {1, 2, 3};\n"
                               "__kernel void k(__global long *o) { o[0] = __ptxsim_global_offset[0]; }\n";
    cl_int rc;
    cl_program p = clCreateProgramWithSource(h->ctx, 1, &src, NULL, &rc);

    h_check(rc, "clCreateProgramWithSource");
    chk_rc("lone_D", clBuildProgram(p, 1, &h->dev, "-D", NULL, NULL), CL_INVALID_BUILD_OPTIONS);
    h_out_chk("lone_D_log", log_has(h, p, "needs a value"));
    chk_rc("lone_I", clBuildProgram(p, 1, &h->dev, "-DX=1 -I", NULL, NULL),
           CL_INVALID_BUILD_OPTIONS);
    clReleaseProgram(p);
    p = clCreateProgramWithSource(h->ctx, 1, &clash, NULL, &rc);
    h_check(rc, "clCreateProgramWithSource");
    chk_rc("reserved_name", clBuildProgram(p, 1, &h->dev, "", NULL, NULL),
           CL_BUILD_PROGRAM_FAILURE);
    h_out_chk("reserved_name_log", log_has(h, p, "'__ptxsim_global_offset'"));
    clReleaseProgram(p);
}

static struct h_env *g_h;
static cl_program g_p;

static void *spin_thread(void *arg)
{
    cl_kernel k = h_kernel(g_p, "spin");
    cl_mem f = h_buffer(g_h, CL_MEM_READ_WRITE, sizeof(int), NULL);
    int zero = 0;
    size_t g = 1;

    (void)arg;
    h_check(clEnqueueWriteBuffer(g_h->q, f, CL_TRUE, 0, sizeof(int), &zero, 0, NULL, NULL),
            "clEnqueueWriteBuffer");
    clSetKernelArg(k, 0, sizeof(cl_mem), &f);
    clEnqueueNDRangeKernel(g_h->q, k, 1, NULL, &g, &g, 0, NULL, NULL);
    return NULL;
}

/* The child of exit_check: exit() while spin runs in another thread. */
static int exit_child(struct h_env *h, cl_program p)
{
    pthread_t t;

    g_h = h;
    g_p = p;
    pthread_create(&t, NULL, spin_thread, NULL);
    usleep(300 * 1000);
    exit(0);
}

/* Runs this program as `exit` child with PTXSIM_STATS set; whether it behaved. */
static int exit_check(const char *self)
{
    char stats[] = "/tmp/ptxsim-ocl-exit.XXXXXX", buf[8192] = "";
    int fd = mkstemp(stats), status = -1, waited = 0;
    pid_t pid;
    FILE *f;

    if (fd < 0)
        return 0;
    close(fd);
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        setenv("PTXSIM_STATS", stats, 1);
        execl("/proc/self/exe", self, "exit", (char *)NULL);
        _exit(127);
    }
    while (waitpid(pid, &status, WNOHANG) == 0 && waited < 30000) {
        usleep(20 * 1000);
        waited += 20;
    }
    if (waited >= 30000) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        fprintf(stderr, "exit: the child did not exit within 30 s\n");
    }
    if ((f = fopen(stats, "r"))) {
        buf[fread(buf, 1, sizeof(buf) - 1, f)] = 0;
        fclose(f);
    }
    unlink(stats);
    if (!strstr(buf, "\"truncated\": true"))
        fprintf(stderr, "exit: the statistics are not marked truncated: %.200s\n", buf);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 && strstr(buf, "\"truncated\": true");
}

/* Runs this program again with PTXSIM_OPTIONS=ptxsim_memcheck=1; its exit status. */
static int memcheck_child(const char *self)
{
    pid_t pid;
    int status = 0;

    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        setenv("PTXSIM_OPTIONS", "ptxsim_memcheck=1", 1);
        unsetenv("PTXSIM_STATS");
        execl("/proc/self/exe", self, "memcheck", (char *)NULL);
        _exit(127);
    }
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
        return -1;
    return WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
    struct h_env h;
    cl_program p;

    h_init(&h);
    p = h_build(&h, src, "");
    if (argc > 1 && !strcmp(argv[1], "memcheck")) /* child: the edge read must fault */
        return edge(&h, p) == CL_OUT_OF_RESOURCES ? 3 : 4;
    if (argc > 1 && !strcmp(argv[1], "exit"))
        return exit_child(&h, p);
    handles(&h, p);
    many(&h);
    sizes(&h, p);
    messages(&h);
    chk_rc("edge_read_runs", edge(&h, p), CL_SUCCESS);
    h_out_chk("edge_read_memcheck_faults", memcheck_child(argv[0]) == 3);
    h_out_chk("exit_while_kernel_runs", exit_check(argv[0]));
    clReleaseProgram(p);
    h_done(&h);
    return 0;
}
