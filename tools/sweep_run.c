/*
 * The sweep's process pool: fork/execv per job, waitpid(WNOHANG) polling
 * every few milliseconds (so time limits and the progress display need no
 * timers), a process group per job so that a time limit or an interrupt
 * kills everything the job started.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tools/sweep_run.h"

#define POLL_NS 20000000L /* 20 ms between waitpid polls when nothing happened */
#define REDRAW_S 0.5      /* progress bar redraw period */
#define BAR_WIDTH 24

/*
 * Set by the SIGINT/SIGTERM handler while the pool runs. A signal handler
 * can only reach a static object; it is the one piece of global state here.
 */
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    interrupted = sig;
}

struct slot {
    pid_t pid; /* 0: free */
    size_t job;
    double t0;
};

struct pool_state {
    const struct sweep_pool *pool;
    struct sweep_job *const *jobs;
    size_t n, next, done, failed;
    unsigned nslots; /* the pool's job count, at least 1 */
    struct slot *slots;
    double t0, last_draw;
    int tty;
};

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void sweep_run_format_time(double seconds, char *buf, size_t len)
{
    long s = seconds > 0 ? (long)(seconds + 0.5) : 0;

    if (s >= 3600)
        snprintf(buf, len, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    else
        snprintf(buf, len, "%ld:%02ld", s / 60, s % 60);
}

static void draw_bar(struct pool_state *st, double t)
{
    char el[32], eta[32], bar[BAR_WIDTH + 1];
    size_t fill = st->n ? st->done * BAR_WIDTH / st->n : BAR_WIDTH;

    memset(bar, '#', fill);
    memset(bar + fill, '.', BAR_WIDTH - fill);
    bar[BAR_WIDTH] = '\0';
    sweep_run_format_time(t - st->t0, el, sizeof(el));
    if (st->done)
        sweep_run_format_time((t - st->t0) / (double)st->done * (double)(st->n - st->done), eta,
                              sizeof(eta));
    else
        snprintf(eta, sizeof(eta), "?");
    fprintf(stderr, "\rsweep: [%s] %zu/%zu done, %zu failed, %s elapsed, ETA %s  ", bar, st->done,
            st->n, st->failed, el, eta);
    fflush(stderr);
    st->last_draw = t;
}

/* In the child: never returns. */
static void child(const struct sweep_job *j)
{
    int in = open("/dev/null", O_RDONLY);
    int out = open(j->out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = open(j->err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

    setpgid(0, 0);
    if (in < 0 || out < 0 || err < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
        _exit(127);
    if (chdir(j->cwd)) {
        fprintf(stderr, "ptxsim sweep: cannot enter %s: %s\n", j->cwd, strerror(errno));
        _exit(127);
    }
    execv(j->argv[0], j->argv);
    fprintf(stderr, "ptxsim sweep: cannot run %s: %s\n", j->argv[0], strerror(errno));
    _exit(127);
}

static int start(struct pool_state *st, struct slot *s)
{
    struct sweep_job *j = st->jobs[st->next];
    pid_t pid;

    fflush(NULL);
    pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0)
        child(j);
    setpgid(pid, pid); /* also here, so a kill right after fork finds the group */
    s->pid = pid;
    s->job = st->next++;
    s->t0 = now_s();
    j->started = true;
    return 0;
}

static void finish(struct pool_state *st, struct slot *s, int status)
{
    struct sweep_job *j = st->jobs[s->job];
    const char *word;
    double t = now_s();

    j->wait_status = status;
    j->wall_s = t - s->t0;
    s->pid = 0;
    st->done++;
    word = st->pool->done ? st->pool->done(st->pool->ctx, j)
                          : (WIFEXITED(status) && !WEXITSTATUS(status) ? "pass" : "fail");
    if (strcmp(word, "pass"))
        st->failed++;
    if (st->tty) {
        draw_bar(st, t);
    } else {
        fprintf(stderr, "sweep: [%zu/%zu] %s: %s (%.1f s)\n", st->done, st->n, j->label, word,
                j->wall_s);
    }
}

/* Reaps finished children and kills those past their limit; true if anything happened. */
static int reap(struct pool_state *st)
{
    const struct sweep_pool *p = st->pool;
    int status, any = 0;
    double t = now_s();

    for (unsigned i = 0; i < st->nslots; i++) {
        struct slot *s = &st->slots[i];

        if (!s->pid)
            continue;
        if (waitpid(s->pid, &status, WNOHANG) == s->pid) {
            finish(st, s, status);
            any = 1;
        } else if (p->timeout_s > 0 && t - s->t0 > p->timeout_s && !st->jobs[s->job]->timed_out) {
            st->jobs[s->job]->timed_out = true;
            kill(-s->pid, SIGKILL);
        }
    }
    return any;
}

/* After an interrupt: kill and reap every running job, which counts as not started. */
static void kill_all(struct pool_state *st)
{
    for (unsigned i = 0; i < st->nslots; i++) {
        struct slot *s = &st->slots[i];

        if (!s->pid)
            continue;
        kill(-s->pid, SIGKILL);
        waitpid(s->pid, NULL, 0);
        st->jobs[s->job]->started = false;
        s->pid = 0;
    }
}

static void loop(struct pool_state *st)
{
    const struct timespec pause = {0, POLL_NS};

    while (!interrupted && (st->next < st->n || st->done < st->next)) {
        int busy = reap(st);

        for (unsigned i = 0; i < st->nslots && st->next < st->n && !interrupted; i++) {
            if (st->slots[i].pid)
                continue;
            if (start(st, &st->slots[i])) {
                fprintf(stderr, "ptxsim sweep: fork failed: %s\n", strerror(errno));
                break; /* try again after the next reap */
            }
            busy = 1;
        }
        if (st->tty && now_s() - st->last_draw >= REDRAW_S)
            draw_bar(st, now_s());
        if (!busy)
            nanosleep(&pause, NULL);
    }
}

int sweep_run_jobs(struct sweep_job *const *jobs, size_t n, const struct sweep_pool *pool)
{
    struct pool_state st = {.pool = pool, .jobs = jobs, .n = n};
    struct sigaction sa, old_int, old_term;
    int rc = 0;

    if (!n)
        return 0;
    st.nslots = pool->jobs ? pool->jobs : 1;
    st.slots = calloc(st.nslots, sizeof(*st.slots));
    if (!st.slots)
        return -1;
    st.tty = isatty(2);
    st.t0 = now_s();
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    interrupted = 0;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    if (st.tty)
        draw_bar(&st, st.t0);
    loop(&st);
    if (interrupted) {
        kill_all(&st);
        rc = -1;
    }
    if (st.tty)
        fprintf(stderr, "\n");
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    free(st.slots);
    return rc;
}
