/*
 * Synthetic CPU co-runners and bubbles for HeteroPDP (docs/heteropdp.md,
 * "Co-runners"), standing in for the SPEC CPU2006 programs of the
 * dissertation, which are not available:
 *
 *   corunner CLASS MB SECONDS [DIR [WEIGHT]]
 *
 * CLASS: mem     streams over MB megabytes (read + write; memory-bound, like lbm/mcf)
 *        cache   random reads within MB megabytes (cache-sensitive when MB is near the LLC)
 *        compute floating-point work on registers (compute-bound, like bzip2/calculix)
 * Every 100 ms it writes DIR/<pid>.corunner (the telemetry model of
 * runtime/hpdp_telemetry.h: name, class, weight, DRAM GB/s it moved and LLC
 * misses per second, in millions, that its pattern implies: one per 64-byte
 * line streamed for mem, the share of a random read that misses an LLC of
 * $HPDP_LLC_MB (default 32) for cache, none for compute). At the end it prints
 * "CLASS MB work_per_second", the rate Bubble-up compares alone and under
 * pressure (bubble.sh). DIR "-" writes no telemetry. $HPDP_GBS caps a mem
 * co-runner's bandwidth (it sleeps between sweeps): a DRAM bubble of that pressure.
 *
 * With a DIR it also keeps DIR/<pid>.work, a shared mapping whose first double
 * is the number of work units done, updated after every unit (units are
 * small: 1 MB of a mem sweep, 65536 cache reads, 2^18 compute steps), so a
 * reader (kernels.c, HPDP_CORUNNERS) can measure the co-runner's rate over any
 * window of its own: its slowdown while one kernel runs (docs/heteropdp.md,
 * "Co-located evaluation").
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void publish(const char *dir, const char *cls, double weight, double gbs, double mps)
{
    char path[1024], tmp[1100];
    FILE *f;
    if (!strcmp(dir, "-"))
        return;
    snprintf(path, sizeof(path), "%s/%d.corunner", dir, (int)getpid());
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    if (!(f = fopen(tmp, "w")))
        return;
    fprintf(f, "corunner-%s %s %g %g %g\n", cls, cls, weight, gbs, mps);
    fclose(f);
    rename(tmp, path); /* readers never see half a line */
}

/* The shared work counter DIR/<pid>.work, or NULL without a DIR. */
static volatile double *counter(const char *dir)
{
    char path[1024];
    void *m;
    int fd;

    if (!strcmp(dir, "-"))
        return NULL;
    snprintf(path, sizeof(path), "%s/%d.work", dir, (int)getpid());
    if ((fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644)) < 0 || ftruncate(fd, 4096)) {
        perror(path);
        exit(1);
    }
    m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED) {
        perror(path);
        exit(1);
    }
    return m;
}

/* One unit of work of the class; returns the bytes it moved through memory. */
static double step(const char *cls, float *buf, size_t n, uint64_t *rng, double *acc)
{
    static size_t off; /* a mem sweep goes 1 MB per unit, so a unit stays short */
    if (!strcmp(cls, "mem")) {
        size_t end = off + (1u << 18) < n ? off + (1u << 18) : n;
        for (size_t i = off; i < end; i += 16)
            buf[i] = buf[i] * 0.5f + 1.0f;
        double moved = (double)(end - off) * sizeof(float) * 2;
        off = end < n ? end : 0;
        return moved;
    }
    if (!strcmp(cls, "cache")) {
        for (int i = 0; i < 1 << 16; i++) {
            *rng = *rng * 6364136223846793005ULL + 1442695040888963407ULL;
            *acc += buf[(*rng >> 17) % n];
        }
        return 65536.0 * 64;
    }
    for (int i = 0; i < 1 << 18; i++)
        *acc = *acc * 0.999999 + 1e-6;
    return 0;
}

int main(int argc, char **argv)
{
    const char *cls, *dir = argc > 4 ? argv[4] : "-";
    double mb, secs, weight = argc > 5 ? atof(argv[5]) : 1.0,
                     llc = getenv("HPDP_LLC_MB") ? atof(getenv("HPDP_LLC_MB")) : 32;
    double t0, last, moved = 0, win = 0, acc = 0, work = 0;
    double cap = getenv("HPDP_GBS") ? atof(getenv("HPDP_GBS")) : 0;
    uint64_t rng = 12345;
    volatile double *cnt;
    size_t n;
    float *buf;
    if (argc < 4 ||
        (strcmp(argv[1], "mem") && strcmp(argv[1], "cache") && strcmp(argv[1], "compute"))) {
        fprintf(stderr, "usage: corunner mem|cache|compute MB SECONDS [DIR [WEIGHT]]\n");
        return 2;
    }
    cls = argv[1];
    mb = atof(argv[2]);
    secs = atof(argv[3]);
    n = (size_t)(mb * 1e6 / sizeof(float));
    if (n < 1024)
        n = 1024;
    if (!(buf = calloc(n, sizeof(float))))
        return 1;
    for (size_t i = 0; i < n; i++) /* touch every page first: a bubble's first second */
        buf[i] = 1.0f;             /* would otherwise be page faults, not its pressure */
    cnt = counter(dir);
    t0 = last = now();
    while (now() - t0 < secs) {
        double b = step(cls, buf, n, &rng, &acc), t;
        moved += b;
        win += b;
        work += 1;
        if (cnt) {
            cnt[0] = work;
            __atomic_thread_fence(__ATOMIC_RELEASE);
        }
        if (cap > 0 && (t = now()) - t0 < moved / (cap * 1e9)) {
            double d = moved / (cap * 1e9) - (t - t0);
            struct timespec ts = {(time_t)d, (long)((d - (time_t)d) * 1e9)};
            nanosleep(&ts, NULL);
        }
        if ((t = now()) - last >= 0.1) {
            double miss = !strcmp(cls, "mem")     ? win / 64
                          : !strcmp(cls, "cache") ? (mb > llc ? 1 - llc / mb : 0) * win / 64
                                                  : 0;
            publish(dir, cls, weight, win / (t - last) / 1e9, miss / (t - last) / 1e6);
            win = 0;
            last = t;
        }
    }
    if (strcmp(dir, "-")) {
        char path[1024];
        snprintf(path, sizeof(path), "%s/%d.corunner", dir, (int)getpid());
        unlink(path);
        snprintf(path, sizeof(path), "%s/%d.work", dir, (int)getpid());
        unlink(path);
    }
    printf("%s %g %.6g\n", cls, mb, work / (now() - t0) + 0 * acc);
    free(buf);
    return 0;
}
