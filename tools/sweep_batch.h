/*
 * The batch back ends of `ptxsim sweep`: instead of the local pool, every
 * pending run becomes a /bin/sh script (OUT/runs/<id>.sh, writing the same
 * files the pool writes) that
 *  - `--slurm [sbatch options]` submits as one Slurm job array (in chunks of
 *    at most SWEEP_BATCH_ARRAY_MAX tasks), each task running one script,
 *    with the job's time limit derived from --timeout;
 *  - `--list-commands` prints, one command line per run, for any other
 *    scheduler.
 * The sweep's arguments are kept in OUT/sweep.args, so that `ptxsim sweep
 * --status OUT` can rebuild the plan, count finished runs, show the Slurm
 * jobs still queued and, once every run has finished, collect the results
 * into OUT as a local sweep would.
 */
#ifndef PTXSIM_TOOLS_SWEEP_BATCH_H
#define PTXSIM_TOOLS_SWEEP_BATCH_H

#include <stddef.h>

struct sweep_job;
struct sweep_plan;

#define SWEEP_BATCH_ARRAY_MAX 1000 /* Slurm's default MaxArraySize is 1001 */

/* Saves the working directory and argv (NUL-separated) to OUT/sweep.args; -1 on failure. */
int sweep_batch_save_args(const char *out, int argc, char **argv);
/*
 * Reads DIR/sweep.args: the working directory into cwd and the arguments
 * into *argv (malloc'd, one block; free *argv and (*argv)[0]... with
 * sweep_batch_free_args). -1 with a message on stderr.
 */
int sweep_batch_load_args(const char *dir, char *cwd, size_t cwdlen, char ***argv, int *argc);
void sweep_batch_free_args(char **argv);

/* Writes the scripts of the n jobs of p and prints one command per job on stdout. */
int sweep_batch_list(const struct sweep_plan *p, struct sweep_job *const *jobs, size_t n);

/*
 * Counts the array tasks of the submissions to OUT (OUT/slurm/jobs) that
 * squeue still shows, queued and running. 0, or -1 when squeue cannot be run.
 */
int sweep_batch_slurm_active(const char *out, int *queued, int *running);

/*
 * Writes the scripts and submits the n jobs as Slurm job arrays with sbatch
 * (the user's options after ptxsim's, so theirs win). 0 with the job ids in
 * OUT/slurm/jobs, or 1 with a message on stderr.
 */
int sweep_batch_slurm_submit(const struct sweep_plan *p, struct sweep_job *const *jobs, size_t n,
                             char **sbatch_args, int nsbatch_args);

#endif
