/*
 * `ptxsim sweep`: runs every selected app x size x machine x policy
 * variant under `ptxsim run --mode timing` in a pool of processes (or on
 * Slurm, or through printed commands: sweep_batch.c), keeps each run's
 * statistics JSON, stdout and stderr under OUT/runs/, and turns them into
 * OUT/results.csv, OUT/summary.md and three SVG charts (docs/workloads.md,
 * docs/experiments.md). Finished runs are reused, so an interrupted sweep
 * resumes by running the same command again. `--status DIR` follows a
 * batch sweep and collects it, `--report DIR` regenerates the summary and
 * charts from results.csv, `--classify DIR` writes classes.md.
 */
#define _GNU_SOURCE /* asprintf, strndup */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/sweep_batch.h"
#include "tools/sweep_plan.h"
#include "tools/sweep_report.h"
#include "tools/sweep_run.h"
#include "tools/sweep_summary.h"
#include "tools/sweep_svg.h"
#include "tools/sweep_variant.h"
#include "tools/verbs.h"

static void usage(FILE *out)
{
    fprintf(
        out,
        "usage: ptxsim sweep [OPTIONS] [--list-commands | --slurm [SBATCH OPTIONS...]]\n"
        "       ptxsim sweep --status DIR\n"
        "       ptxsim sweep --report DIR [--baseline VARIANT]\n"
        "       ptxsim sweep --classify DIR\n"
        "Runs every app x size x machine x variant under `ptxsim run --mode timing` and writes\n"
        "DIR/results.csv (a row per run and kernel, the columns of `ptxsim stats --csv`),\n"
        "DIR/summary.md and DIR/{ipc,mpki,stalls}.svg. The apps are those of an app list\n"
        "(--apps, docs/experiments.md) or the bundled workload suite (make workloads).\n"
        "Every machine and variant is checked before anything runs. Finished runs in DIR\n"
        "are reused (resume by running the same command again).\n"
        "  --apps FILE              the app list (YAML: ptxsim's form or Accel-Sim's\n"
        "                           define-*-apps.yml); default: the bundled suite\n"
        "  --workloads a,b,...|all  apps to run (default all)\n"
        "  --sizes test,small,paper sizes, for apps whose command has {size} (default small)\n"
        "  --configs M,...          machines: gtx480, dyncta-30core, ccws-30core,\n"
        "                           bypass-gtx480 or files (default gtx480)\n"
        "  --variant NAME[:opt=val[,opt=val...]]\n"
        "                           a policy variant: options passed as -o (repeatable;\n"
        "                           default one variant 'base' with no options)\n"
        "  --baseline VARIANT       normalise IPC to this variant (default the first)\n"
        "  --jobs N                 local runs at once (default: the number of CPUs)\n"
        "  --out DIR                results directory (default sweep-out)\n"
        "  --bin DIR                the bundled suite's binaries (default: the build tree's\n"
        "                           benchmarks/workloads/bin)\n"
        "  --timeout SECONDS        per run; 0 = none (default 1800); on Slurm also the\n"
        "                           job's time limit (plus two minutes)\n"
        "  --ocl                    'all' includes the suite's OpenCL variants (<name>_ocl)\n"
        "  --list-commands          do not run: print one command per pending run, for any\n"
        "                           scheduler; then --status DIR collects\n"
        "  --slurm [SBATCH OPTIONS] submit the pending runs as a Slurm job array (the rest of\n"
        "                           the line goes to sbatch, e.g. --partition=gpu)\n"
        "  --status DIR             count DIR's finished runs and queued jobs; once all have\n"
        "                           ended, collect the results (exit 3 while unfinished)\n"
        "  --report DIR             regenerate summary.md and the charts from DIR/results.csv\n"
        "  --classify DIR           write DIR/classes.md (DYNCTA and CCWS classes) from the\n"
        "                           small/gtx480 runs of variants base and l1big, e.g. from\n"
        "      ptxsim sweep --sizes small --configs gtx480 --variant base \\\n"
        "          --variant 'l1big:%s' --out DIR\n"
        "Exit status: 0 if every run passed, 1 if any failed, 2 on a usage error (a bad\n"
        "variant or machine, before anything runs), 3 from --status while runs are pending.\n",
        SWEEP_CLASSIFY_BIG_OPT);
}

/* ---- options -------------------------------------------------------------------------------- */

static int list_add(struct sweep_list *l, const char *s, size_t n)
{
    char **v = realloc(l->v, (l->n + 1) * sizeof(*v));

    if (!v)
        return -1;
    l->v = v;
    if (!(l->v[l->n] = strndup(s, n)))
        return -1;
    l->n++;
    return 0;
}

static void list_free(struct sweep_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    memset(l, 0, sizeof(*l));
}

/* Replaces l by the comma-separated items of s; 2 on an empty item. */
static int list_parse(struct sweep_list *l, const char *s, const char *what)
{
    list_free(l);
    for (;;) {
        size_t n = strcspn(s, ",");

        if (!n) {
            fprintf(stderr, "ptxsim sweep: empty item in --%s\n", what);
            return 2;
        }
        for (size_t i = 0; i < l->n; i++)
            if (strlen(l->v[i]) == n && !strncmp(l->v[i], s, n)) {
                fprintf(stderr, "ptxsim sweep: '%.*s' appears twice in --%s\n", (int)n, s, what);
                return 2;
            }
        if (list_add(l, s, n))
            return 1;
        if (!s[n])
            return 0;
        s += n + 1;
    }
}

static int variant_add(struct sweep_opts *o, const char *spec)
{
    struct sweep_variant *v = realloc(o->variants, (o->nvariants + 1) * sizeof(*v));
    char err[512];
    int rc;

    if (!v)
        return 1;
    o->variants = v;
    v = &o->variants[o->nvariants++];
    rc = sweep_variant_parse(spec, v, err, sizeof(err));
    if (rc == -1)
        fprintf(stderr, "ptxsim sweep: %s\n", err);
    if (rc)
        return rc == -1 ? 2 : 1;
    for (size_t i = 0; i + 1 < o->nvariants; i++)
        if (!strcmp(o->variants[i].name, v->name)) {
            fprintf(stderr, "ptxsim sweep: variant '%s' given twice\n", v->name);
            return 2;
        }
    return 0;
}

static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
    size_t n = strlen(name);

    if (strncmp(argv[*i], name, n))
        return NULL;
    if (argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (argv[*i][n] || *i + 1 >= argc)
        return NULL;
    return argv[++*i];
}

static int parse_number(const char *s, const char *what, double max, double *out)
{
    char *end;
    double x = strtod(s, &end);

    if (end == s || *end || !(x >= 0) || x > max) {
        fprintf(stderr, "ptxsim sweep: %s expects a number from 0 to %.0f, not '%s'\n", what, max,
                s);
        return 2;
    }
    *out = x;
    return 0;
}

/* The options that take a string: true if argv[*i] was one. */
static bool string_opt(int argc, char **argv, int *i, struct sweep_opts *o)
{
    const char *const names[] = {"--baseline", "--out",  "--bin",   "--report",
                                 "--classify", "--apps", "--status"};
    const char **fields[] = {&o->baseline, &o->out,  &o->bin,   &o->report,
                             &o->classify, &o->apps, &o->status};
    const char *v;

    for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
        if ((v = opt_value(argc, argv, i, names[k]))) {
            *fields[k] = v;
            return true;
        }
    return false;
}

/* One option at argv[*i]: 0, 1 out of memory, 2 usage error, -1 after --help. */
static int parse_one(int argc, char **argv, int *i, struct sweep_opts *o)
{
    const char *v;
    double x;

    if (!strcmp(argv[*i], "--help") || !strcmp(argv[*i], "-h")) {
        usage(stdout);
        return -1;
    }
    if (!strcmp(argv[*i], "--ocl") || !strcmp(argv[*i], "--list-commands")) {
        *(!strcmp(argv[*i], "--ocl") ? &o->ocl : &o->list_commands) = true;
        return 0;
    }
    if (!strcmp(argv[*i], "--slurm")) { /* the rest are sbatch's */
        o->slurm = true;
        o->sbatch_args = argv + *i + 1;
        o->nsbatch_args = argc - *i - 1;
        *i = argc;
        return 0;
    }
    if ((v = opt_value(argc, argv, i, "--workloads")))
        return list_parse(&o->workloads, v, "workloads");
    if ((v = opt_value(argc, argv, i, "--sizes")))
        return list_parse(&o->sizes, v, "sizes");
    if ((v = opt_value(argc, argv, i, "--configs")))
        return list_parse(&o->configs, v, "configs");
    if ((v = opt_value(argc, argv, i, "--variant")))
        return variant_add(o, v);
    if (string_opt(argc, argv, i, o))
        return 0;
    if ((v = opt_value(argc, argv, i, "--timeout")))
        return parse_number(v, "--timeout", 1e7, &o->timeout_s);
    if ((v = opt_value(argc, argv, i, "--jobs"))) {
        if (parse_number(v, "--jobs", 1024, &x))
            return 2;
        if (x < 1 || x != floor(x)) {
            fprintf(stderr, "ptxsim sweep: --jobs expects a whole number from 1 to 1024\n");
            return 2;
        }
        o->jobs = (unsigned)x;
        return 0;
    }
    fprintf(stderr, "ptxsim sweep: unknown or incomplete option '%s'\n", argv[*i]);
    return 2;
}

/* The suite's programs know three sizes; an app list's {size} takes any word. */
static int check_sizes(const struct sweep_opts *o)
{
    for (size_t i = 0; i < o->sizes.n; i++) {
        const char *z = o->sizes.v[i];

        if (!o->apps && strcmp(z, "test") && strcmp(z, "small") && strcmp(z, "paper")) {
            fprintf(stderr, "ptxsim sweep: unknown size '%s' (test, small or paper)\n", z);
            return 2;
        }
        if (strspn(z, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+") !=
                strlen(z) ||
            strlen(z) >= 16) {
            fprintf(stderr, "ptxsim sweep: size '%s': up to 15 letters, digits, '_', '-' and '+'\n",
                    z);
            return 2;
        }
    }
    return 0;
}

static int parse_args(int argc, char **argv, struct sweep_opts *o)
{
    int rc = 0;

    o->timeout_s = 1800;
    o->out = "sweep-out";
    for (int i = 0; i < argc && !rc; i++)
        rc = parse_one(argc, argv, &i, o);
    if (rc)
        return rc;
    if ((!o->sizes.n && list_parse(&o->sizes, "small", "sizes")) ||
        (!o->configs.n && list_parse(&o->configs, "gtx480", "configs")) ||
        (!o->nvariants && variant_add(o, "base")))
        return 1;
    if (!o->jobs) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);

        o->jobs = n > 0 ? (unsigned)n : 1;
    }
    return check_sizes(o);
}

static void opts_free(struct sweep_opts *o)
{
    list_free(&o->workloads);
    list_free(&o->sizes);
    list_free(&o->configs);
    for (size_t i = 0; i < o->nvariants; i++)
        sweep_variant_free(&o->variants[i]);
    free(o->variants);
}

static char *fmt(const char *f, const char *a, const char *b)
{
    char *s = NULL;

    return asprintf(&s, f, a, b) < 0 ? NULL : s;
}

/* ---- outputs --------------------------------------------------------------------------------- */

enum out_kind { OUT_CSV, OUT_SUMMARY, OUT_IPC, OUT_MPKI, OUT_STALLS };

/* res: the total rows (one per run), for the summary and charts; all: every row, for the CSV. */
static int write_output(const char *dir, enum out_kind k, const struct sweep_results *res,
                        const struct sweep_results *all, const char *baseline)
{
    static const char *const names[] = {"results.csv", "summary.md", "ipc.svg", "mpki.svg",
                                        "stalls.svg"};
    char *path = fmt("%s/%s", dir, names[k]);
    FILE *fp = path ? fopen(path, "w") : NULL;
    int rc = 0;

    if (!fp) {
        fprintf(stderr, "ptxsim sweep: cannot write %s/%s: %s\n", dir, names[k], strerror(errno));
        free(path);
        return 1;
    }
    if (k == OUT_CSV)
        rc = sweep_csv_write(all, fp);
    else if (k == OUT_SUMMARY)
        sweep_summary_write(res, baseline, fp);
    else
        sweep_svg_write(res, baseline,
                        k == OUT_IPC    ? SWEEP_CHART_IPC
                        : k == OUT_MPKI ? SWEEP_CHART_MPKI
                                        : SWEEP_CHART_STALLS,
                        fp);
    if (fclose(fp) || rc) {
        fprintf(stderr, "ptxsim sweep: cannot write %s\n", path);
        rc = 1;
    }
    free(path);
    return rc;
}

/*
 * summary.md and the charts from the total rows res (and results.csv from all
 * rows when all is not NULL); prints the IPC tables.
 */
static int write_reports(const char *dir, const struct sweep_results *res,
                         const struct sweep_results *all, const char *baseline)
{
    bool with_csv = all != NULL;
    int rc = 0;

    for (int k = with_csv ? OUT_CSV : OUT_SUMMARY; k <= OUT_STALLS; k++)
        rc |= write_output(dir, (enum out_kind)k, res, all, baseline);
    sweep_summary_print_ipc(res, baseline, stdout);
    fprintf(stderr, "sweep: wrote %s/{%ssummary.md,ipc.svg,mpki.svg,stalls.svg}\n", dir,
            with_csv ? "results.csv," : "");
    return rc;
}

static int check_baseline(const char *baseline, const char **names, size_t n)
{
    if (!baseline)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(names[i], baseline))
            return 0;
    fprintf(stderr, "ptxsim sweep: baseline '%s' is not one of the variants:", baseline);
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, " %s", names[i]);
    fprintf(stderr, "\n");
    return 2;
}

static int load_csv(const char *dir, struct sweep_results *res)
{
    char *path = fmt("%s/%s", dir, "results.csv"), err[256];
    FILE *fp = path ? fopen(path, "r") : NULL;
    int rc = 0;

    if (!fp) {
        fprintf(stderr, "ptxsim sweep: cannot read %s/results.csv: %s\n", dir, strerror(errno));
        free(path);
        return 2;
    }
    if (sweep_csv_read(res, fp, err, sizeof(err))) {
        fprintf(stderr, "ptxsim sweep: %s: %s\n", path, err);
        rc = 2;
    }
    fclose(fp);
    free(path);
    return rc;
}

static int verb_report(const struct sweep_opts *o)
{
    struct sweep_results res = {0};
    const char **variants = NULL;
    size_t nv;
    int rc = load_csv(o->report, &res);

    if (!rc) {
        nv = sweep_distinct(&res, SWEEP_F_VARIANT, &variants);
        rc = check_baseline(o->baseline, variants, nv);
        free(variants);
    }
    if (!rc)
        rc = write_reports(o->report, &res, NULL, o->baseline);
    sweep_results_free(&res);
    return rc;
}

static int verb_classify(const struct sweep_opts *o)
{
    struct sweep_results res = {0};
    char *path = NULL, err[256];
    FILE *fp = NULL;
    int rc = load_csv(o->classify, &res);

    if (!rc && sweep_classify_write(&res, stdout, err, sizeof(err))) {
        fprintf(stderr, "ptxsim sweep: %s/results.csv: %s\n", o->classify, err);
        rc = 2;
    }
    if (!rc) {
        path = fmt("%s/%s", o->classify, "classes.md");
        fp = path ? fopen(path, "w") : NULL;
        if (!fp || sweep_classify_write(&res, fp, err, sizeof(err)) || fclose(fp)) {
            fprintf(stderr, "ptxsim sweep: cannot write %s\n", path ? path : "classes.md");
            rc = 1;
        } else {
            fprintf(stderr, "sweep: wrote %s\n", path);
        }
    }
    free(path);
    sweep_results_free(&res);
    return rc;
}

/* ---- the sweep ------------------------------------------------------------------------------- */

static int check_variant_baseline(const struct sweep_opts *o)
{
    const char **names = calloc(o->nvariants + 1, sizeof(*names));
    int rc;

    if (!names)
        return 1;
    for (size_t i = 0; i < o->nvariants; i++)
        names[i] = o->variants[i].name;
    rc = check_baseline(o->baseline, names, o->nvariants);
    free(names);
    return rc;
}

static void report_failures(const struct sweep_plan *p)
{
    size_t bad = 0;

    for (size_t i = 0; i < p->nruns; i++)
        bad += sweep_plan_judge(&p->runs[i]) != SWEEP_PASS;
    if (!bad)
        return;
    fprintf(stderr, "ptxsim sweep: %zu of %zu runs did not pass:\n", bad, p->nruns);
    for (size_t i = 0; i < p->nruns; i++) {
        enum sweep_status st = sweep_plan_judge(&p->runs[i]);

        if (st != SWEEP_PASS)
            fprintf(stderr, "  %-7s %s (%s)\n", sweep_status_name(st), p->runs[i].id,
                    p->runs[i].err);
    }
}

static int collect(const struct sweep_plan *p, const struct sweep_opts *o)
{
    struct sweep_results all = {0}, res = {0};
    int rc = 0;

    for (size_t i = 0; i < p->nruns && !rc; i++)
        rc = sweep_plan_rows(&p->runs[i], &all);
    for (size_t i = 0; i < all.n && !rc; i++)
        if (all.rows[i].total)
            rc = sweep_results_add(&res, &all.rows[i]);
    if (!rc)
        rc = write_reports(p->out, &res, &all, o->baseline);
    report_failures(p);
    for (size_t i = 0; !rc && i < p->nruns; i++)
        if (sweep_plan_judge(&p->runs[i]) != SWEEP_PASS)
            rc = 1;
    sweep_results_free(&res);
    sweep_results_free(&all);
    return rc;
}

/*
 * In a sanitizer build `ptxsim run` preloads the ASan runtime into the
 * workloads, whose unfreed host arrays are not ptxsim's leaks (as in
 * tests/cuda/run.sh). The parent read its own options at start-up already.
 */
static void quiet_child_leaks(void)
{
#if defined(__SANITIZE_ADDRESS__)
    const char *old = getenv("ASAN_OPTIONS");
    char *v = fmt("%s%sdetect_leaks=0", old && *old ? old : "", old && *old ? ":" : "");

    if (v)
        setenv("ASAN_OPTIONS", v, 1);
    free(v);
#endif
}

/* The arguments that make the plan (not --slurm and what follows, not --list-commands). */
static int save_args(const struct sweep_plan *p, const struct sweep_opts *o)
{
    char **v = calloc((size_t)o->argc + 1, sizeof(*v));
    int n = 0, rc;

    if (!v)
        return 1;
    for (int i = 0; i < o->argc && strcmp(o->argv[i], "--slurm"); i++)
        if (strcmp(o->argv[i], "--list-commands"))
            v[n++] = o->argv[i];
    rc = sweep_batch_save_args(p->out, n, v);
    free(v);
    if (rc)
        fprintf(stderr, "ptxsim sweep: cannot write %s/sweep.args: %s\n", p->out, strerror(errno));
    return rc ? 1 : 0;
}

/* Submits the pending runs to Slurm unless an earlier submission is still queued or running. */
static int run_slurm(const struct sweep_plan *p, const struct sweep_opts *o,
                     struct sweep_job *const *jobs, size_t n)
{
    int queued, running;

    if (sweep_batch_slurm_active(p->out, &queued, &running)) {
        fprintf(stderr, "ptxsim sweep: cannot run squeue (is the Slurm client installed?)\n");
        return 1;
    }
    if (queued + running) {
        fprintf(stderr,
                "ptxsim sweep: %d runs of an earlier submission to %s are queued and %d running "
                "(%s/slurm/jobs); follow them with `ptxsim sweep --status %s`, or cancel them "
                "(scancel) before submitting again\n",
                queued, p->out, running, p->out, p->out);
        return 1;
    }
    if (sweep_batch_slurm_submit(p, jobs, n, o->sbatch_args, o->nsbatch_args))
        return 1;
    fprintf(stderr, "sweep: `ptxsim sweep --status %s` follows the jobs and collects the results\n",
            p->out);
    return 0;
}

static int verb_run_sweep(const struct sweep_opts *o)
{
    struct sweep_plan p = {0};
    struct sweep_job **jobs = NULL;
    struct sweep_pool pool = {
        .jobs = o->jobs, .timeout_s = o->timeout_s, .done = sweep_plan_job_done};
    size_t n = 0;
    int rc = check_variant_baseline(o);

    if (!rc)
        rc = sweep_plan_make(o, &p);
    if (!rc)
        rc = save_args(&p, o);
    if (!rc && !(jobs = sweep_plan_pending(&p, &n)))
        rc = 1;
    if (!rc)
        fprintf(stderr,
                "sweep: %zu runs (%zu apps, %zu sizes, %zu configs, %zu variants), %zu done "
                "earlier, %zu to run%s in %s\n",
                p.nruns, p.nwls, o->sizes.n, o->configs.n, o->nvariants, p.nruns - n, n,
                o->slurm           ? " on Slurm,"
                : o->list_commands ? ","
                                   : "",
                p.out);
    if (!rc && n && (o->slurm || o->list_commands)) {
        quiet_child_leaks(); /* the environment sbatch hands to the tasks */
        rc = o->slurm ? run_slurm(&p, o, jobs, n) : sweep_batch_list(&p, jobs, n);
        free(jobs);
        sweep_plan_free(&p);
        return rc;
    }
    if (!rc && n) {
        fprintf(stderr, "sweep: %u at a time\n", o->jobs);
        quiet_child_leaks();
        if (sweep_run_jobs(jobs, n, &pool)) {
            fprintf(stderr, "ptxsim sweep: interrupted; run the same command again to resume\n");
            rc = 130;
        }
    }
    if (!rc)
        rc = collect(&p, o);
    free(jobs);
    sweep_plan_free(&p);
    return rc;
}

/*
 * --status DIR: the sweep's plan rebuilt from DIR/sweep.args; runs counted
 * by how they ended; the results collected once every run has. 0 (all
 * passed) or 1 (some did not) once collected, 3 while runs are unfinished,
 * 1 when runs are unfinished and no job of DIR is queued any more.
 */
static int status_of(const struct sweep_plan *p, const struct sweep_opts *o)
{
    size_t count[4] = {0}, unfinished = 0;
    int queued = 0, running = 0, sq;

    for (size_t i = 0; i < p->nruns; i++)
        if (sweep_plan_finished(&p->runs[i]))
            count[sweep_plan_judge(&p->runs[i])]++;
        else
            unfinished++;
    sq = sweep_batch_slurm_active(p->out, &queued, &running);
    printf("%s: %zu runs: %zu passed, %zu failed, %zu timed out, %zu errors, %zu not finished",
           p->out, p->nruns, count[SWEEP_PASS], count[SWEEP_FAIL], count[SWEEP_TIMEOUT],
           count[SWEEP_ERROR], unfinished);
    if (sq == 0 && queued + running)
        printf(" (Slurm: %d queued, %d running)", queued, running);
    printf("\n");
    fflush(stdout);
    if (!unfinished)
        return collect(p, o);
    if (sq == 0 && !(queued + running) && access(p->out, F_OK) == 0) {
        char path[PATH_MAX + 16];

        snprintf(path, sizeof(path), "%s/slurm/jobs", p->out);
        if (access(path, F_OK) == 0) {
            fprintf(stderr,
                    "ptxsim sweep: no job of %s is queued any more, yet %zu runs did not finish "
                    "(see %s/slurm/*.log); run the sweep command again to resubmit them\n",
                    p->out, unfinished, p->out);
            return 1;
        }
    }
    return 3;
}

static int verb_status(const char *dir)
{
    struct sweep_opts o = {0};
    struct sweep_plan p = {0};
    char cwd[PATH_MAX], **argv = NULL;
    int argc = 0, rc;

    if (sweep_batch_load_args(dir, cwd, sizeof(cwd), &argv, &argc))
        return 2;
    if (chdir(cwd)) {
        fprintf(stderr, "ptxsim sweep: %s (the sweep's directory): %s\n", cwd, strerror(errno));
        sweep_batch_free_args(argv);
        return 2;
    }
    rc = parse_args(argc, argv, &o);
    if (!rc && !(rc = sweep_plan_make(&o, &p)))
        rc = status_of(&p, &o);
    sweep_plan_free(&p);
    opts_free(&o);
    sweep_batch_free_args(argv);
    return rc;
}

int verb_sweep(int argc, char **argv)
{
    struct sweep_opts o = {.argc = argc, .argv = argv};
    int rc = parse_args(argc, argv, &o);

    if (rc == 1)
        fprintf(stderr, "ptxsim sweep: out of memory\n");
    if (!rc && (!!o.report + !!o.classify + !!o.status > 1 ||
                ((o.report || o.classify || o.status) && (o.slurm || o.list_commands)) ||
                (o.slurm && o.list_commands))) {
        fprintf(stderr, "ptxsim sweep: --report, --classify, --status, --slurm and "
                        "--list-commands cannot be combined\n");
        rc = 2;
    }
    if (!rc)
        rc = o.report     ? verb_report(&o)
             : o.classify ? verb_classify(&o)
             : o.status   ? verb_status(o.status)
                          : verb_run_sweep(&o);
    opts_free(&o);
    return rc < 0 ? 0 : rc;
}
