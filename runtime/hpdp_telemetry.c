/* HeteroPDP co-runner telemetry (hpdp_telemetry.h). */
#define _GNU_SOURCE
#include "runtime/hpdp_telemetry.h"

#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common/err.h"

static bool read_one(const char *dir, const char *file, struct rt_hpdp_corunner *c)
{
    char path[1024];
    FILE *f;
    bool ok;

    c->pid = (pid_t)strtol(file, NULL, 10);
    if (c->pid <= 0 || (kill(c->pid, 0) && errno == ESRCH))
        return false;
    snprintf(path, sizeof(path), "%s/%s", dir, file);
    if (!(f = fopen(path, "r")))
        return false;
    ok = fscanf(f, "%31s %15s %lg %lg %lg", c->name, c->cls, &c->weight, &c->dram_gbs,
                &c->llc_mps) == 5;
    fclose(f);
    return ok;
}

static int by_pid(const void *a, const void *b)
{
    const struct rt_hpdp_corunner *x = a, *y = b;

    return (x->pid > y->pid) - (x->pid < y->pid);
}

int rt_hpdp_telemetry_read(const char *dir, struct rt_hpdp_telemetry *t, struct ps_err *err)
{
    DIR *d = opendir(dir);
    struct dirent *e;

    memset(t, 0, sizeof(*t));
    if (!d)
        return ps_err_set(err, PS_EIO, "cannot open the co-runner directory %s", dir);
    while ((e = readdir(d)) && t->n < HPDP_MAX_CORUNNERS) {
        const char *dot = strrchr(e->d_name, '.');
        if (!dot || strcmp(dot, ".corunner") || !read_one(dir, e->d_name, &t->co[t->n]))
            continue;
        t->n++;
    }
    closedir(d);
    qsort(t->co, t->n, sizeof(t->co[0]), by_pid); /* readdir order is not deterministic */
    for (uint32_t i = 0; i < t->n; i++) {
        t->sum.dram_gbs += t->co[i].dram_gbs;
        t->sum.llc_mps += t->co[i].llc_mps;
    }
    return 0;
}

int rt_hpdp_perf_llc(pid_t pid, uint32_t window_ms, double *mps, struct ps_err *err)
{
    struct perf_event_attr a;
    struct timespec ts = {window_ms / 1000, (long)(window_ms % 1000) * 1000000L};
    uint64_t count = 0;
    int fd;

    memset(&a, 0, sizeof(a));
    a.type = PERF_TYPE_HARDWARE;
    a.size = sizeof(a);
    a.config = PERF_COUNT_HW_CACHE_MISSES;
    a.disabled = 1;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    fd = (int)syscall(SYS_perf_event_open, &a, pid, -1, -1, 0);
    if (fd < 0)
        return ps_err_set(err, PS_ENOTSUP, "no LLC-miss counter for pid %d: %s", (int)pid,
                          strerror(errno));
    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
    nanosleep(&ts, NULL);
    ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
    if (read(fd, &count, sizeof(count)) != (ssize_t)sizeof(count)) {
        close(fd);
        return ps_err_set(err, PS_EIO, "cannot read the LLC-miss counter");
    }
    close(fd);
    *mps = window_ms ? (double)count / (window_ms * 1e3) : 0.0;
    return 0;
}
