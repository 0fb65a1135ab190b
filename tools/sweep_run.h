/*
 * The process pool of `ptxsim sweep`: runs a list of commands, up to a given
 * number at once, each in its own process group with its stdout and stderr
 * sent to files, kills a command's whole group when it runs past its time
 * limit, and keeps a one-line progress display on stderr (a bar with
 * done/total, failures, elapsed time and ETA when stderr is a terminal, one
 * line per finished command otherwise).
 */
#ifndef PTXSIM_TOOLS_SWEEP_RUN_H
#define PTXSIM_TOOLS_SWEEP_RUN_H

#include <stdbool.h>
#include <stddef.h>

struct sweep_job {
    /* Set by the caller; all borrowed. argv[0] is a path (no PATH search). */
    char *const *argv;
    const char *cwd;      /* the command's working directory */
    const char *out_path; /* its stdout, truncated */
    const char *err_path; /* its stderr, truncated */
    const char *label;    /* names the job in progress lines */
    /* Filled in by sweep_run_jobs. */
    bool started;    /* fork succeeded */
    bool timed_out;  /* killed at the time limit */
    int wait_status; /* from waitpid (valid when started) */
    double wall_s;   /* from start to exit */
};

struct sweep_pool {
    unsigned jobs;    /* commands at once (at least 1) */
    double timeout_s; /* per command, in seconds; 0 = no limit */
    /*
     * Called once per finished job, in the order they finish; returns a short
     * status word for the progress line ("pass" counts as success, anything
     * else as a failure). May be NULL: exit status 0 is then "pass".
     */
    const char *(*done)(void *ctx, struct sweep_job *job);
    void *ctx;
};

/*
 * Runs the n jobs (pointers borrowed; the jobs are updated). Returns 0 when all have run, or -1
 * when SIGINT or SIGTERM arrived: the running commands are then killed (and count as not started)
 * and the rest are not started. A command that cannot be started (fork,
 * chdir, open or exec failing) exits 127 with the reason in its stderr file.
 */
int sweep_run_jobs(struct sweep_job *const *jobs, size_t n, const struct sweep_pool *pool);

/* "m:ss" or "h:mm:ss" for a number of seconds, into buf. */
void sweep_run_format_time(double seconds, char *buf, size_t len);

#endif
