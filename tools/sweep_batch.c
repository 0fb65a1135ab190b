/*
 * Batch back ends: scripts per run, a job array per submission, the saved
 * arguments that `--status` rebuilds the plan from. sbatch and squeue are
 * run directly (fork and execvp, no shell), their stdout read through a
 * pipe.
 */
#define _GNU_SOURCE /* asprintf */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/sweep_batch.h"
#include "tools/sweep_json.h"
#include "tools/sweep_plan.h"

/* ---- the saved arguments --------------------------------------------------------------------- */

int sweep_batch_save_args(const char *out, int argc, char **argv)
{
    char *path = NULL, cwd[PATH_MAX];
    FILE *fp;
    int rc = 0;

    if (!getcwd(cwd, sizeof(cwd)) || asprintf(&path, "%s/sweep.args", out) < 0)
        return -1;
    fp = fopen(path, "wb");
    free(path);
    if (!fp)
        return -1;
    fwrite(cwd, 1, strlen(cwd) + 1, fp);
    for (int i = 0; i < argc; i++)
        fwrite(argv[i], 1, strlen(argv[i]) + 1, fp);
    if (ferror(fp))
        rc = -1;
    return fclose(fp) ? -1 : rc;
}

void sweep_batch_free_args(char **argv)
{
    if (argv)
        free(argv[-1]); /* the text block, kept before the array's first entry */
    free(argv ? argv - 1 : NULL);
}

int sweep_batch_load_args(const char *dir, char *cwd, size_t cwdlen, char ***argv, int *argc)
{
    char *path = NULL, *text = NULL, **v;
    size_t len = 0, n = 0;
    FILE *fp;

    if (asprintf(&path, "%s/sweep.args", dir) < 0)
        return -1;
    fp = fopen(path, "rb");
    if (fp) {
        text = sweep_json_read_file(path, 1 << 20);
        fseek(fp, 0, SEEK_END);
        len = (size_t)ftell(fp);
        fclose(fp);
    }
    if (!text || !len || text[len - 1]) {
        fprintf(stderr, "ptxsim sweep: %s: %s (not a sweep's results directory?)\n", path,
                text ? "damaged" : strerror(errno));
        free(path);
        free(text);
        return -1;
    }
    free(path);
    for (size_t i = 0; i < len; i++)
        n += !text[i];
    v = calloc(n + 1, sizeof(*v));
    if (!v) {
        free(text);
        return -1;
    }
    v[0] = text; /* argv[-1] for the caller: the block sweep_batch_free_args frees */
    snprintf(cwd, cwdlen, "%s", text);
    *argc = 0;
    for (char *p = text + strlen(text) + 1; p < text + len; p += strlen(p) + 1)
        v[1 + (*argc)++] = p;
    *argv = v + 1;
    return 0;
}

/* ---- scripts and commands -------------------------------------------------------------------- */

static struct sweep_plan_run *run_of(struct sweep_job *job)
{
    return (struct sweep_plan_run *)((char *)job - offsetof(struct sweep_plan_run, job));
}

static int write_scripts(const struct sweep_plan *p, struct sweep_job *const *jobs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (sweep_plan_write_script(p, run_of(jobs[i]))) {
            fprintf(stderr, "ptxsim sweep: cannot write %s: %s\n", run_of(jobs[i])->sh,
                    strerror(errno));
            return 1;
        }
    return 0;
}

int sweep_batch_list(const struct sweep_plan *p, struct sweep_job *const *jobs, size_t n)
{
    if (write_scripts(p, jobs, n))
        return 1;
    for (size_t i = 0; i < n; i++) {
        char *argv[] = {"/bin/sh", run_of(jobs[i])->sh, NULL};
        char *line = sweep_plan_cmd_line(argv);

        if (!line)
            return 1;
        printf("%s\n", line);
        free(line);
    }
    return fflush(stdout) ? 1 : 0;
}

/* ---- running sbatch and squeue --------------------------------------------------------------- */

/* Runs argv with stdout into buf (NUL-terminated, truncated); the exit status, or -1. */
static int capture(char *const *argv, char *buf, size_t len)
{
    int fd[2], st;
    size_t n = 0;
    ssize_t k;
    pid_t pid;

    if (pipe(fd))
        return -1;
    fflush(NULL);
    pid = fork();
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        execvp(argv[0], argv);
        fprintf(stderr, "ptxsim sweep: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fd[1]);
    for (char scratch[4096]; pid > 0;) { /* read to the end, keeping what fits */
        k = n + 1 < len ? read(fd[0], buf + n, len - 1 - n) : read(fd[0], scratch, sizeof(scratch));
        if (k == 0 || (k < 0 && errno != EINTR))
            break;
        if (k > 0 && n + 1 < len)
            n += (size_t)k;
    }
    buf[n] = '\0';
    close(fd[0]);
    if (pid < 0 || waitpid(pid, &st, 0) < 0)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char *slurm_path(const char *out, const char *name)
{
    char *s = NULL;

    return asprintf(&s, "%s/slurm/%s", out, name) < 0 ? NULL : s;
}

int sweep_batch_slurm_active(const char *out, int *queued, int *running)
{
    char *path = slurm_path(out, "jobs"), *ids = path ? sweep_json_read_file(path, 1 << 16) : NULL;
    char buf[65536], *s1 = NULL, *s2 = NULL;
    int rc = 0;

    *queued = *running = 0;
    free(path);
    for (char *id = ids ? strtok_r(ids, "\n", &s1) : NULL; id && !rc;
         id = strtok_r(NULL, "\n", &s1)) {
        char *argv[] = {"squeue", "-h", "-r", "-j", id, "-o", "%T", NULL};
        int st = capture(argv, buf, sizeof(buf));

        if (st == 127 || st < 0)
            rc = -1;
        /* A job that has left the queue is "invalid" to squeue (exit status 1): not active. */
        for (char *l = st == 0 ? strtok_r(buf, "\n", &s2) : NULL; l; l = strtok_r(NULL, "\n", &s2))
            if (!strcmp(l, "RUNNING") || !strcmp(l, "COMPLETING"))
                ++*running;
            else
                ++*queued;
    }
    free(ids);
    return rc;
}

/* ---- submitting ------------------------------------------------------------------------------ */

/*
 * The array script: task k of a chunk starting at offset runs line
 * offset + k + 1 of tasks.txt. The sweep's own stdout and stderr files are
 * per run, so the task's Slurm output only holds what the script itself says.
 */
static int write_array_files(const struct sweep_plan *p, struct sweep_job *const *jobs, size_t n,
                             const char *tasks, const char *script)
{
    FILE *fp = fopen(tasks, "w");
    int ok = fp != NULL;

    for (size_t i = 0; ok && i < n; i++)
        ok = fprintf(fp, "%s\n", run_of(jobs[i])->sh) > 0;
    if (fp && fclose(fp))
        ok = 0;
    fp = ok ? fopen(script, "w") : NULL;
    if (fp) {
        fprintf(fp,
                "#!/bin/sh\n# ptxsim sweep: one task of a job array runs one run's script\n"
                "# (see %s/sweep.args for the sweep).\n",
                p->out);
        fprintf(fp, "line=$(sed -n \"$(($1 + SLURM_ARRAY_TASK_ID + 1))p\" '%s')\n", tasks);
        fprintf(fp, "[ -n \"$line\" ] || { echo \"no run for task $SLURM_ARRAY_TASK_ID\" >&2; "
                    "exit 1; }\nexec /bin/sh \"$line\"\n");
        ok = fclose(fp) == 0;
    }
    if (!ok)
        fprintf(stderr, "ptxsim sweep: cannot write %s: %s\n", fp ? script : tasks,
                strerror(errno));
    return ok ? 0 : 1;
}

/* sbatch for tasks [first, first + count): the job id into id, or 1 with a message. */
static int sbatch(const struct sweep_plan *p, const char *script, size_t first, size_t count,
                  char **user, int nuser, char *id, size_t idlen)
{
    char array[64], offset[32], time[64], output[PATH_MAX + 32], buf[4096];
    char **argv = calloc((size_t)nuser + 12, sizeof(*argv));
    int n = 0, st;

    if (!argv)
        return 1;
    snprintf(array, sizeof(array), "--array=0-%zu", count - 1);
    snprintf(offset, sizeof(offset), "%zu", first);
    snprintf(output, sizeof(output), "--output=%s/slurm/%%A_%%a.log", p->out);
    /* The run's own limit, plus time to start and to be killed (timeout -k 10). */
    snprintf(time, sizeof(time), "--time=%.0f", ceil(p->timeout_s / 60.0) + 2);
    argv[n++] = "sbatch";
    argv[n++] = "--parsable";
    argv[n++] = "--job-name=ptxsim-sweep";
    argv[n++] = array;
    argv[n++] = output;
    if (p->timeout_s > 0)
        argv[n++] = time;
    for (int i = 0; i < nuser; i++)
        argv[n++] = user[i];
    argv[n++] = (char *)script;
    argv[n++] = offset;
    st = capture(argv, buf, sizeof(buf));
    free(argv);
    buf[strcspn(buf, ";\n")] = '\0'; /* "id" or "id;cluster" */
    if (st != 0 || !buf[0] || strspn(buf, "0123456789") != strlen(buf) || strlen(buf) >= idlen) {
        fprintf(stderr, "ptxsim sweep: sbatch failed (exit status %d)%s%s\n", st,
                buf[0] ? ": " : "", buf);
        return 1;
    }
    memcpy(id, buf, strlen(buf) + 1);
    return 0;
}

int sweep_batch_slurm_submit(const struct sweep_plan *p, struct sweep_job *const *jobs, size_t n,
                             char **sbatch_args, int nsbatch_args)
{
    char *dir = slurm_path(p->out, ""), *tasks = slurm_path(p->out, "tasks.txt");
    char *script = slurm_path(p->out, "array.sh"), *jobsf = slurm_path(p->out, "jobs"), id[64];
    FILE *fp = NULL;
    int rc = !dir || !tasks || !script || !jobsf;

    if (!rc && mkdir(dir, 0777) && errno != EEXIST) {
        fprintf(stderr, "ptxsim sweep: cannot create %s: %s\n", dir, strerror(errno));
        rc = 1;
    }
    if (!rc)
        rc = write_scripts(p, jobs, n) || write_array_files(p, jobs, n, tasks, script);
    if (!rc && !(fp = fopen(jobsf, "w"))) {
        fprintf(stderr, "ptxsim sweep: cannot write %s: %s\n", jobsf, strerror(errno));
        rc = 1;
    }
    for (size_t first = 0; !rc && first < n; first += SWEEP_BATCH_ARRAY_MAX) {
        size_t count = n - first < SWEEP_BATCH_ARRAY_MAX ? n - first : SWEEP_BATCH_ARRAY_MAX;

        rc = sbatch(p, script, first, count, sbatch_args, nsbatch_args, id, sizeof(id));
        if (!rc) {
            fprintf(fp, "%s\n", id);
            fflush(fp);
            fprintf(stderr, "sweep: submitted runs %zu-%zu of %zu as Slurm job array %s\n",
                    first + 1, first + count, n, id);
        }
    }
    if (fp && fclose(fp))
        rc = 1;
    free(dir);
    free(tasks);
    free(script);
    free(jobsf);
    return rc;
}
