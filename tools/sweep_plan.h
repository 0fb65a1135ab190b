/*
 * What `ptxsim sweep` runs: the parsed command line, and the plan made from
 * it (machines resolved and checked with every variant, workloads looked up
 * in the catalog, one run per workload x size x machine x variant with its
 * command and its files under OUT/runs/). A run is reused when an earlier
 * sweep finished it; after running, each run is judged (pass, fail,
 * timeout, error) and turned into a results row.
 */
#ifndef PTXSIM_TOOLS_SWEEP_PLAN_H
#define PTXSIM_TOOLS_SWEEP_PLAN_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

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
    const char *baseline, *out, *bin, *report, *classify;
    unsigned jobs;
    double timeout_s;
    bool ocl;
};

/* One run. Strings are malloc'd; the files are OUT/runs/<id>.{json,out,err,cmd,wall}. */
struct sweep_plan_run {
    const struct sweep_workload *wl;
    const char *size, *config; /* config: the machine's label */
    const struct sweep_variant *var;
    char *id, *json, *out, *err, *cmd, *wall;
    char **argv;
    const char *prog; /* the workload binary, in argv */
    bool reused;
    struct sweep_job job;
};

struct sweep_plan {
    char self[PATH_MAX], bin[PATH_MAX], out[PATH_MAX], runs_dir[PATH_MAX + 8];
    char **config_paths; /* resolved machine files, one per --configs entry */
    char **config_labels;
    size_t nconfigs;
    struct sweep_catalog cat;
    const struct sweep_workload **wls;
    size_t nwls;
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

/* The pool's `done` callback for the plan's jobs: records the wall time, returns the status. */
const char *sweep_plan_job_done(void *ctx, struct sweep_job *job);

/* The results row of a run (after sweep_plan_pending and the pool). */
void sweep_plan_row(const struct sweep_plan_run *r, struct sweep_row *row);

/* The command line as a shell reads it (malloc'd; room for one more character). */
char *sweep_plan_cmd_line(char *const *argv);

#endif
