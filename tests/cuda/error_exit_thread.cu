// exit() while another host thread runs a kernel (issue 17): the process
// must exit promptly, abandoning the launch, and the statistics file must be
// written and marked truncated. The program runs itself as a child with
// PTXSIM_STATS set: the child starts an endless kernel in a second thread and
// calls exit(0) from main 300 ms later. The parent waits at most 30 s for the
// child (without the fix the exit handlers wait for the kernel, up to the
// watchdog's 10^10 warp instructions), then checks the child's exit status
// and that the statistics say "truncated": true. Exit 0 on success.
#define TEST_NAME "error_exit_thread"
#include "common.h"
#include <pthread.h>
#include <signal.h>
#include <string>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

__global__ void spin(volatile int *flag)
{
    while (*flag == 0) {
    }
}

static void *launcher(void *)
{
    int *flag;

    if (cudaMalloc(&flag, sizeof(int)) != cudaSuccess || cudaMemset(flag, 0, sizeof(int)))
        return NULL;
    spin<<<1, 1>>>(flag);
    cudaDeviceSynchronize();
    return NULL;
}

static int child(void)
{
    pthread_t t;

    pthread_create(&t, NULL, launcher, NULL);
    usleep(300 * 1000);
    printf("child: exiting\n");
    fflush(stdout);
    exit(0);
}

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "child"))
        return child();

    char stats[] = "/tmp/ptxsim-exit-thread.XXXXXX";
    int fd = mkstemp(stats), status = 0;
    if (fd < 0) {
        printf("FAIL %s: mkstemp failed\n", TEST_NAME);
        return 1;
    }
    close(fd);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        setenv("PTXSIM_STATS", stats, 1);
        execl("/proc/self/exe", argv[0], "child", (char *)NULL);
        _exit(127);
    }
    double t0 = now_s();
    while (waitpid(pid, &status, WNOHANG) == 0) {
        if (now_s() - t0 > 30) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            fail("the child did not exit within 30 s of calling exit()");
            break;
        }
        usleep(20 * 1000);
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail("child status 0x%x, want exit status 0", status);
    std::string json;
    if (FILE *f = fopen(stats, "r")) {
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
            json.append(buf, n);
        fclose(f);
    }
    unlink(stats);
    expect_true(json.find("\"truncated\": true") != std::string::npos,
                "the statistics file is marked \"truncated\": true");
    return finish();
}
