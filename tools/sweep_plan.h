/*
 * What `ptxsim sweep` runs: the parsed command line, and the plan made from
 * it (machines resolved and checked with every variant, apps taken from the
 * user's list or the bundled suite, one run per app x size x machine x
 * variant with its command and its files under OUT/runs/). A run is reused
 * when an earlier sweep finished it; after running, each run is judged
 * (pass, fail, timeout, error) from its files and turned into results rows.
 */
#ifndef PTXSIM_TOOLS_SWEEP_PLAN_H
#define PTXSIM_TOOLS_SWEEP_PLAN_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "tools/sweep_apps.h"
#include "tools/sweep_catalog.h"
#include "tools/sweep_run.h"

struct sweep_row;
struct sweep_variant;

struct sweep_list {
    char **v; /* malloc'd strings */
    size_t n;
};

/* The command line (owned by verb_sweep.c). */
struct sweep_opts {
    struct sweep_list workloads, sizes, configs;
    struct sweep_variant *variants;
    size_t nvariants;
    const char *baseline, *out, *bin, *report, *classify, *apps, *status;
    unsigned jobs;
    double timeout_s;
    bool ocl, list_commands, slurm;
    char **sbatch_args; /* after --slurm, borrowed from argv */
    int nsbatch_args;
    char **argv; /* the whole command line, borrowed (saved for --status) */
    int argc;
};

/*
 * One run. Strings are malloc'd; the files are OUT/runs/<id>.{json,out,err,
 * cmd,wall,rc,sh} and the directory OUT/runs/<id>.d ({rundir}). The .rc file
 * says how the command ended ("exit N", "signal N", "timeout", "error").
 */
struct sweep_plan_run {
    const struct sweep_app *app;
    const char *size,
        *config; /* size: "-" for an app without {size}; config: the machine's label */
    const struct sweep_variant *var;
    char *id, *json, *out, *err, *cmd, *wall, *rc, *sh, *rundir;
    char *check_re, *check_file, *check_expect; /* the app's check, placeholders expanded */
    char **argv;
    char *prog; /* the program as a path, when argv names one (for its time stamp) */
    bool reused;
    struct sweep_job job;
};

struct sweep_plan {
    char self[PATH_MAX], bin[PATH_MAX], out[PATH_MAX], runs_dir[PATH_MAX + 8];
    char **config_paths; /* resolved machine files, one per --configs entry */
    char **config_labels;
    size_t nconfigs;
    struct sweep_catalog cat;
    struct sweep_apps apps;       /* the --apps list, or the bundled suite */
    const struct sweep_app **wls; /* the selected apps */
    size_t nwls;
    double timeout_s; /* per run; 0 = none */
    bool apps_given;  /* --apps: the user's list */
    struct sweep_plan_run *runs;
    size_t nruns;
};

/*
 * Makes the plan for o (whose strings it borrows) and creates OUT/runs/.
 * Returns 0, 1 on a system error or 2 on a usage error (unknown workload,
 * machine or option), with a message on stderr. Free p with
 * sweep_plan_free in every case.
 */
int sweep_plan_make(const struct sweep_opts *o, struct sweep_plan *p);
void sweep_plan_free(struct sweep_plan *p);

/*
 * The jobs still to run (a malloc'd array of pointers into p, *n of them;
 * NULL when out of memory): every run that is not reusable, with its old
 * statistics removed and its command written to its .cmd file.
 */
struct sweep_job **sweep_plan_pending(struct sweep_plan *p, size_t *n);

/* The pool's `done` callback for the plan's jobs: records the .rc and .wall files, returns the
 * status. */
const char *sweep_plan_job_done(void *ctx, struct sweep_job *job);

/*
 * Whether the run has ended (its .rc file exists), and how it is judged:
 * the expected exit status, the app's stdout and file checks, complete
 * statistics (sweep_judge.c).
 */
bool sweep_plan_finished(const struct sweep_plan_run *r);
enum sweep_status sweep_plan_judge(const struct sweep_plan_run *r);

/*
 * Appends the results rows of a run (one per kernel and a total row; one
 * row of empty figures when it did not pass) to res. 0, or -1 when out of
 * memory.
 */
struct sweep_results;
int sweep_plan_rows(const struct sweep_plan_run *r, struct sweep_results *res);

/* The run's command as a /bin/sh script (its .sh file) that writes the same files as the pool. */
int sweep_plan_write_script(const struct sweep_plan *p, const struct sweep_plan_run *r);

/* The command line as a shell reads it (malloc'd; room for one more character). */
char *sweep_plan_cmd_line(char *const *argv);

#endif
