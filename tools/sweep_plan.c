/*
 * The sweep's plan: from the command line to one command per run, and from
 * a finished command to a results row. Nothing here prints to stdout.
 */
#define _GNU_SOURCE /* asprintf, realpath, strdup */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/config.h"
#include "common/err.h"
#include "runtime/ptxsim.h"
#include "tools/sweep_json.h"
#include "tools/sweep_plan.h"
#include "tools/sweep_report.h"
#include "tools/sweep_variant.h"

#ifndef PTXSIM_SRCDIR
#define PTXSIM_SRCDIR "."
#endif

static int resolve_configs(const struct sweep_opts *o, struct sweep_plan *p)
{
    char path[PATH_MAX], *abs;
    struct ps_err err;

    p->config_paths = calloc(o->configs.n, sizeof(char *));
    p->config_labels = calloc(o->configs.n, sizeof(char *));
    if (!p->config_paths || !p->config_labels)
        return 1;
    p->nconfigs = o->configs.n;
    for (size_t i = 0; i < o->configs.n; i++) {
        const char *slash = strrchr(o->configs.v[i], '/');

        ps_err_clear(&err);
        if (ptxsim_config_find(o->configs.v[i], path, sizeof(path), &err)) {
            fprintf(stderr, "ptxsim sweep: %s\n", err.msg);
            return 2;
        }
        abs = realpath(path, NULL);
        p->config_paths[i] = abs ? abs : strdup(path);
        p->config_labels[i] = strdup(slash ? slash + 1 : o->configs.v[i]);
        if (!p->config_paths[i] || !p->config_labels[i])
            return 1;
        for (size_t j = 0; j < i; j++)
            if (!strcmp(p->config_labels[j], p->config_labels[i])) {
                fprintf(stderr, "ptxsim sweep: two machines named '%s' in --configs\n",
                        p->config_labels[i]);
                return 2;
            }
    }
    return 0;
}

/* Loads one machine with one variant's options: 0, 1 (out of memory) or 2 (with a message). */
static int check_variant(const char *path, const char *label, const struct sweep_variant *var)
{
    size_t len = 1;
    char *ov;
    struct ps_config cfg;
    struct ps_err err;
    int rc;

    for (size_t k = 0; k < var->nopts; k++)
        len += strlen(var->opts[k]) + 1;
    if (!(ov = calloc(1, len)))
        return 1;
    for (size_t k = 0; k < var->nopts; k++)
        strcat(strcat(ov, var->opts[k]), "\n");
    ps_err_clear(&err);
    /* The whole configuration, timing model included, as ptxsim run checks it. */
    rc = ptxsim_config_build(path, ov, &cfg, &err);
    free(ov);
    if (rc) {
        fprintf(stderr, "ptxsim sweep: variant %s on %s: ", var->name, label);
        ps_err_print(&err, stderr);
        return 2;
    }
    ps_config_free(&cfg);
    return 0;
}

/* Every machine with every variant must load, before anything runs. */
static int check_variants(const struct sweep_opts *o, const struct sweep_plan *p)
{
    int rc = 0;

    for (size_t c = 0; c < o->configs.n && !rc; c++)
        for (size_t v = 0; v < o->nvariants && !rc; v++)
            rc = check_variant(p->config_paths[c], p->config_labels[c], &o->variants[v]);
    return rc;
}

static void known_names(const struct sweep_plan *p, bool ocl)
{
    fprintf(stderr, "known apps:");
    for (size_t i = 0; i < p->apps.n; i++)
        if (ocl || !p->apps.v[i].ocl)
            fprintf(stderr, " %s", p->apps.v[i].name);
    fprintf(stderr, "%s\n", p->apps.n ? "" : " none (run `make workloads`, or give --apps FILE)");
}

/* The list: --apps FILE, or the bundled suite from the catalog. */
static int load_apps(const struct sweep_opts *o, struct sweep_plan *p)
{
    char err[1024];
    int rc;

    if (!o->apps) {
        if (sweep_catalog_load(&p->cat, p->bin, PTXSIM_SRCDIR))
            return 1;
        return sweep_apps_from_catalog(&p->apps, &p->cat, p->bin) ? 1 : 0;
    }
    rc = sweep_apps_load(&p->apps, o->apps, err, sizeof(err));
    if (rc == -1)
        fprintf(stderr, "ptxsim sweep: %s\n", err);
    return rc == -1 ? 2 : rc ? 1 : 0;
}

static int select_workloads(const struct sweep_opts *o, struct sweep_plan *p)
{
    bool all = !o->workloads.n || (o->workloads.n == 1 && !strcmp(o->workloads.v[0], "all"));

    p->wls = calloc(p->apps.n + o->workloads.n + 1, sizeof(*p->wls));
    if (!p->wls)
        return 1;
    if (all) {
        for (size_t i = 0; i < p->apps.n; i++)
            if (o->ocl || o->apps || !p->apps.v[i].ocl)
                p->wls[p->nwls++] = &p->apps.v[i];
        if (!p->nwls) {
            fprintf(stderr, "ptxsim sweep: no apps in %s\n", o->apps ? o->apps : p->bin);
            known_names(p, true);
            return 2;
        }
        return 0;
    }
    for (size_t i = 0; i < o->workloads.n; i++) {
        const struct sweep_app *w = sweep_apps_find(&p->apps, o->workloads.v[i]);

        if (!w) {
            fprintf(stderr, "ptxsim sweep: unknown app '%s'%s%s\n", o->workloads.v[i],
                    o->apps ? " in " : "", o->apps ? o->apps : "");
            known_names(p, true);
            return 2;
        }
        p->wls[p->nwls++] = w;
    }
    return 0;
}

static int find_dirs(const struct sweep_opts *o, struct sweep_plan *p)
{
    ssize_t n = readlink("/proc/self/exe", p->self, sizeof(p->self) - 1);
    char *slash;

    if (n <= 0) {
        fprintf(stderr, "ptxsim sweep: cannot find the ptxsim binary: %s\n", strerror(errno));
        return 1;
    }
    p->self[n] = '\0';
    if (o->bin) {
        if (!realpath(o->bin, p->bin)) {
            fprintf(stderr, "ptxsim sweep: %s: %s\n", o->bin, strerror(errno));
            return 2;
        }
        return 0;
    }
    snprintf(p->bin, sizeof(p->bin), "%s", p->self);
    slash = strrchr(p->bin, '/');
    if (slash)
        *slash = '\0';
    if (strlen(p->bin) + 32 < sizeof(p->bin))
        strcat(p->bin, "/benchmarks/workloads/bin");
    return 0;
}

static int make_out_dir(const struct sweep_opts *o, struct sweep_plan *p)
{
    if ((mkdir(o->out, 0777) && errno != EEXIST) || !realpath(o->out, p->out)) {
        fprintf(stderr, "ptxsim sweep: cannot create %s: %s\n", o->out, strerror(errno));
        return 1;
    }
    snprintf(p->runs_dir, sizeof(p->runs_dir), "%s/runs", p->out);
    if (mkdir(p->runs_dir, 0777) && errno != EEXIST) {
        fprintf(stderr, "ptxsim sweep: cannot create %s: %s\n", p->runs_dir, strerror(errno));
        return 1;
    }
    return 0;
}

static char *fmt(const char *f, const char *a, const char *b)
{
    char *s = NULL;

    return asprintf(&s, f, a, b) < 0 ? NULL : s;
}

static void argv_free(char **a)
{
    for (size_t i = 0; a && a[i]; i++)
        free(a[i]);
    free(a);
}

/* The command of one run (argv[0] = this ptxsim); NULL when out of memory. */
static char **build_argv(const struct sweep_plan *p, const struct sweep_plan_run *r, size_t config)
{
    const char *head[] = {p->self, "run", "--mode", "timing", "--config", p->config_paths[config]};
    const char *tail[] = {
        "-o", "ptxsim_print_stats=0", "-o", "ptxsim_progress_interval=0", "--stats", r->json, "--"};
    size_t n = 0, nh = 6, nt = 7, na = 0;
    char **a;
    bool ok;

    while (r->app->argv[na])
        na++;
    a = calloc(nh + 2 * r->var->nopts + nt + na + 1, sizeof(*a));
    ok = a != NULL;
    for (size_t k = 0; ok && k < nh; k++)
        ok = (a[n++] = strdup(head[k])) != NULL;
    for (size_t k = 0; ok && k < r->var->nopts; k++)
        ok = (a[n++] = strdup("-o")) && (a[n++] = strdup(r->var->opts[k]));
    for (size_t k = 0; ok && k < nt; k++)
        ok = (a[n++] = strdup(tail[k])) != NULL;
    for (size_t k = 0; ok && k < na; k++)
        ok = (a[n++] = sweep_apps_expand(r->app->argv[k], r->size, r->rundir)) != NULL;
    if (!ok) {
        argv_free(a);
        return NULL;
    }
    return a;
}

/* The app's check with {size} and {rundir} filled in; file paths made absolute from its dir. */
static int expand_check(struct sweep_plan_run *r)
{
    const struct sweep_check *c = &r->app->check;
    char *f;

    if (c->stdout_re && !(r->check_re = sweep_apps_expand(c->stdout_re, r->size, r->rundir)))
        return 1;
    if (!c->file)
        return 0;
    f = sweep_apps_expand(c->file, r->size, r->rundir);
    r->check_file = f && f[0] != '/' ? fmt("%s/%s", r->app->dir, f) : f;
    if (r->check_file != f)
        free(f);
    f = sweep_apps_expand(c->expect, r->size, r->rundir);
    r->check_expect = f && f[0] != '/' ? fmt("%s/%s", r->app->dir, f) : f;
    if (r->check_expect != f)
        free(f);
    return r->check_file && r->check_expect ? 0 : 1;
}

static int run_files(struct sweep_plan *p, struct sweep_plan_run *r)
{
    static const char *const ext[] = {".json", ".out", ".err", ".cmd", ".wall", ".rc", ".sh", ".d"};
    char **const dst[] = {&r->json, &r->out, &r->err, &r->cmd,
                          &r->wall, &r->rc,  &r->sh,  &r->rundir};
    char *base = fmt("%s/%s", p->runs_dir, r->id);

    for (size_t k = 0; base && k < sizeof(ext) / sizeof(ext[0]); k++)
        if (!(*dst[k] = fmt("%s%s", base, ext[k]))) {
            free(base);
            return 1;
        }
    free(base);
    return base ? 0 : 1;
}

static int plan_run(struct sweep_plan *p, struct sweep_plan_run *r, size_t config)
{
    const char *arg0;

    r->config = p->config_labels[config];
    if ((r->app->sized
             ? asprintf(&r->id, "%s.%s.%s.%s", r->app->name, r->size, r->config, r->var->name)
             : asprintf(&r->id, "%s.%s.%s", r->app->name, r->config, r->var->name)) < 0) {
        r->id = NULL;
        return 1;
    }
    if (run_files(p, r) || expand_check(r) || !(r->argv = build_argv(p, r, config)))
        return 1;
    for (size_t k = 0; r->argv[k]; k++)
        if (!strcmp(r->argv[k], "--")) {
            arg0 = r->argv[k + 1];
            if (strchr(arg0, '/') &&
                !(r->prog = arg0[0] == '/' ? strdup(arg0) : fmt("%s/%s", r->app->dir, arg0)))
                return 1;
            break;
        }
    r->job = (struct sweep_job){.argv = r->argv,
                                .cwd = r->app->dir,
                                .out_path = r->out,
                                .err_path = r->err,
                                .label = r->id};
    return 0;
}

static int make_runs(const struct sweep_opts *o, struct sweep_plan *p)
{
    size_t n = p->nwls * o->sizes.n * o->configs.n * o->nvariants, k = 0;

    p->runs = calloc(n + 1, sizeof(*p->runs));
    if (!p->runs)
        return 1;
    for (size_t w = 0; w < p->nwls; w++)
        for (size_t s = 0; s < (p->wls[w]->sized ? o->sizes.n : 1); s++)
            for (size_t c = 0; c < o->configs.n; c++)
                for (size_t v = 0; v < o->nvariants; v++, k++) {
                    struct sweep_plan_run *r = &p->runs[k];

                    r->app = p->wls[w];
                    r->size = p->wls[w]->sized ? o->sizes.v[s] : "-";
                    r->var = &o->variants[v];
                    p->nruns = k + 1;
                    if (plan_run(p, r, c))
                        return 1;
                }
    return 0;
}

void sweep_plan_free(struct sweep_plan *p)
{
    for (size_t i = 0; i < p->nruns; i++) {
        struct sweep_plan_run *r = &p->runs[i];

        char *strs[] = {r->id,         r->json,         r->out, r->err,    r->cmd,
                        r->wall,       r->rc,           r->sh,  r->rundir, r->check_re,
                        r->check_file, r->check_expect, r->prog};

        argv_free(r->argv);
        for (size_t k = 0; k < sizeof(strs) / sizeof(strs[0]); k++)
            free(strs[k]);
    }
    free(p->runs);
    for (size_t i = 0; i < p->nconfigs; i++) {
        free(p->config_paths ? p->config_paths[i] : NULL);
        free(p->config_labels ? p->config_labels[i] : NULL);
    }
    free(p->config_paths);
    free(p->config_labels);
    free(p->wls);
    sweep_apps_free(&p->apps);
    sweep_catalog_free(&p->cat);
}

/* ---- running and judging ------------------------------------------------------------------- */

static double mtime(const char *path)
{
    struct stat st;

    if (stat(path, &st))
        return -1;
    return (double)st.st_mtim.tv_sec + (double)st.st_mtim.tv_nsec * 1e-9;
}

/*
 * Whether a previous sweep finished this run: same command (but for the
 * ptxsim binary), judged a pass, and statistics newer than the program.
 */
static bool reusable(const struct sweep_plan_run *r)
{
    char *want = sweep_plan_cmd_line(r->argv), *have = sweep_json_read_file(r->cmd, 1 << 20);
    const char *w, *h;
    double t = mtime(r->json);
    bool ok = false;

    if (!want || !have || t < 0 || (r->prog && t < mtime(r->prog)))
        goto out;
    have[strcspn(have, "\n")] = '\0';
    w = strchr(want, ' ');
    h = strchr(have, ' ');
    ok = w && h && !strcmp(w, h) && sweep_plan_judge(r) == SWEEP_PASS;
out:
    free(want);
    free(have);
    return ok;
}

static int write_text(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");

    if (!fp)
        return -1;
    fputs(text, fp);
    return fclose(fp);
}

const char *sweep_plan_job_done(void *ctx, struct sweep_job *job)
{
    struct sweep_plan_run *r =
        (struct sweep_plan_run *)((char *)job - offsetof(struct sweep_plan_run, job));
    char text[64];

    (void)ctx;
    if (!job->started)
        snprintf(text, sizeof(text), "error\n");
    else if (job->timed_out)
        snprintf(text, sizeof(text), "timeout\n");
    else if (WIFEXITED(job->wait_status))
        snprintf(text, sizeof(text), "exit %d\n", WEXITSTATUS(job->wait_status));
    else
        snprintf(text, sizeof(text), "signal %d\n", WTERMSIG(job->wait_status));
    write_text(r->rc, text);
    snprintf(text, sizeof(text), "%.3f\n", job->wall_s);
    write_text(r->wall, text);
    return sweep_status_name(sweep_plan_judge(r));
}

/* The jobs that still have to run; their old outputs are removed and .cmd written. */
struct sweep_job **sweep_plan_pending(struct sweep_plan *p, size_t *n)
{
    struct sweep_job **jobs = calloc(p->nruns + 1, sizeof(*jobs));
    char *line;

    *n = 0;
    for (size_t i = 0; jobs && i < p->nruns; i++) {
        struct sweep_plan_run *r = &p->runs[i];

        r->reused = reusable(r);
        if (r->reused)
            continue;
        unlink(r->json);
        unlink(r->wall);
        unlink(r->rc);
        mkdir(r->rundir, 0777);
        line = sweep_plan_cmd_line(r->argv);
        if (line && strcat(line, "\n"))
            write_text(r->cmd, line);
        free(line);
        if (!r->prog || access(r->prog, X_OK) == 0) {
            jobs[(*n)++] = &r->job;
            continue;
        }
        /* Not started: judged "error", with the reason where the run's stderr would be. */
        unlink(r->out);
        line =
            fmt("ptxsim sweep: no program %s (%s)\n", r->prog,
                p->apps_given ? "see the app's command and dir in the list"
                              : "`make workloads` builds the suite; --bin names another directory");
        write_text(r->err, line ? line : "ptxsim sweep: no program\n");
        write_text(r->rc, "error\n");
        free(line);
    }
    return jobs;
}

int sweep_plan_make(const struct sweep_opts *o, struct sweep_plan *p)
{
    int rc;

    memset(p, 0, sizeof(*p));
    if ((rc = find_dirs(o, p)))
        return rc;
    p->apps_given = o->apps != NULL;
    p->timeout_s = o->timeout_s;
    if ((rc = load_apps(o, p)) || (rc = select_workloads(o, p)) || (rc = resolve_configs(o, p)) ||
        (rc = check_variants(o, p)) || (rc = make_out_dir(o, p)))
        return rc;
    return make_runs(o, p);
}
