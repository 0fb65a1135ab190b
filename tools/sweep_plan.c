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

#define MAX_JSON_BYTES (64u << 20)

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
    fprintf(stderr, "known workloads:");
    for (size_t i = 0; i < p->cat.n; i++)
        if (ocl || !p->cat.w[i].ocl)
            fprintf(stderr, " %s", p->cat.w[i].name);
    fprintf(stderr, "%s\n", p->cat.n ? "" : " none (run `make workloads`)");
}

static int select_workloads(const struct sweep_opts *o, struct sweep_plan *p)
{
    bool all = !o->workloads.n || (o->workloads.n == 1 && !strcmp(o->workloads.v[0], "all"));

    p->wls = calloc(p->cat.n + o->workloads.n + 1, sizeof(*p->wls));
    if (!p->wls)
        return 1;
    if (all) {
        for (size_t i = 0; i < p->cat.n; i++)
            if (o->ocl || !p->cat.w[i].ocl)
                p->wls[p->nwls++] = &p->cat.w[i];
        if (!p->nwls) {
            fprintf(stderr, "ptxsim sweep: no workloads in %s\n", p->bin);
            known_names(p, true);
            return 2;
        }
        return 0;
    }
    for (size_t i = 0; i < o->workloads.n; i++) {
        const struct sweep_workload *w = sweep_catalog_find(&p->cat, o->workloads.v[i]);

        if (!w) {
            fprintf(stderr, "ptxsim sweep: unknown workload '%s'\n", o->workloads.v[i]);
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
    size_t n = 0, max = 12 + 2 * r->var->nopts + 4, nh = 6, nt = 7;
    char **a = calloc(max, sizeof(*a));
    bool ok = a != NULL;

    for (size_t k = 0; ok && k < nh; k++)
        ok = (a[n++] = strdup(head[k])) != NULL;
    for (size_t k = 0; ok && k < r->var->nopts; k++)
        ok = (a[n++] = strdup("-o")) && (a[n++] = strdup(r->var->opts[k]));
    for (size_t k = 0; ok && k < nt; k++)
        ok = (a[n++] = strdup(tail[k])) != NULL;
    ok = ok && (a[n++] = fmt("%s/%s", p->bin, r->wl->name)) && (a[n++] = strdup(r->size));
    if (!ok) {
        argv_free(a);
        return NULL;
    }
    return a;
}

static int plan_run(struct sweep_plan *p, struct sweep_plan_run *r, size_t config)
{
    char *base = NULL;

    r->config = p->config_labels[config];
    if (asprintf(&r->id, "%s.%s.%s.%s", r->wl->name, r->size, r->config, r->var->name) < 0) {
        r->id = NULL;
        return 1;
    }
    if (!(base = fmt("%s/%s", p->runs_dir, r->id)))
        return 1;
    r->json = fmt("%s%s", base, ".json");
    r->out = fmt("%s%s", base, ".out");
    r->err = fmt("%s%s", base, ".err");
    r->cmd = fmt("%s%s", base, ".cmd");
    r->wall = fmt("%s%s", base, ".wall");
    free(base);
    if (!r->json || !r->out || !r->err || !r->cmd || !r->wall)
        return 1;
    r->argv = build_argv(p, r, config);
    if (!r->argv)
        return 1;
    for (size_t k = 0; r->argv[k]; k++)
        if (!strcmp(r->argv[k], "--"))
            r->prog = r->argv[k + 1];
    r->job = (struct sweep_job){.argv = r->argv,
                                .cwd = p->runs_dir,
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
        for (size_t s = 0; s < o->sizes.n; s++)
            for (size_t c = 0; c < o->configs.n; c++)
                for (size_t v = 0; v < o->nvariants; v++, k++) {
                    struct sweep_plan_run *r = &p->runs[k];

                    r->wl = p->wls[w];
                    r->size = o->sizes.v[s];
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

        argv_free(r->argv);
        free(r->id);
        free(r->json);
        free(r->out);
        free(r->err);
        free(r->cmd);
        free(r->wall);
    }
    free(p->runs);
    for (size_t i = 0; i < p->nconfigs; i++) {
        free(p->config_paths ? p->config_paths[i] : NULL);
        free(p->config_labels ? p->config_labels[i] : NULL);
    }
    free(p->config_paths);
    free(p->config_labels);
    free(p->wls);
    sweep_catalog_free(&p->cat);
}

/* ---- running and judging ------------------------------------------------------------------- */

/* The command line as a shell would read it (for the .cmd file and the comparison on resume). */
char *sweep_plan_cmd_line(char *const *argv)
{
    size_t len = 2; /* the NUL, and a newline the caller may add */
    char *s, *q;

    for (size_t i = 0; argv[i]; i++)
        len += 4 * strlen(argv[i]) + 3;
    if (!(s = calloc(1, len)))
        return NULL;
    q = s;
    for (size_t i = 0; argv[i]; i++) {
        bool plain = argv[i][0] && !argv[i][strcspn(argv[i], " \t\n'\"\\$`*?[]{}();&|<>~#!")];

        q += sprintf(q, "%s%s", i ? " " : "", plain ? "" : "'");
        for (const char *c = argv[i]; *c; c++)
            q += *c == '\'' ? sprintf(q, "'\\''") : sprintf(q, "%c", *c);
        if (!plain)
            q += sprintf(q, "'");
    }
    return s;
}

static bool has_pass_line(const char *path, const struct sweep_plan_run *r)
{
    FILE *fp = fopen(path, "r");
    char line[1024], want[256];
    bool ok = false;
    size_t n;

    if (!fp)
        return false;
    n = (size_t)snprintf(want, sizeof(want), "PASS %s %s", r->wl->name, r->size);
    while (!ok && fgets(line, sizeof(line), fp))
        ok = !strncmp(line, want, n) && strchr(" \r\n", line[n]) && line[n];
    fclose(fp);
    return ok;
}

static double mtime(const char *path)
{
    struct stat st;

    if (stat(path, &st))
        return -1;
    return (double)st.st_mtim.tv_sec + (double)st.st_mtim.tv_nsec * 1e-9;
}

/*
 * Whether a previous sweep finished this run: same command (but for the
 * ptxsim binary), statistics complete and newer than the workload binary,
 * and the PASS line on stdout.
 */
static bool reusable(const struct sweep_plan_run *r)
{
    char *want = sweep_plan_cmd_line(r->argv), *have = sweep_json_read_file(r->cmd, 1 << 20),
         *json = NULL;
    const char *w, *h;
    double t = mtime(r->json);
    bool ok = false;

    if (!want || !have || t < 0 || t < mtime(r->prog) || !has_pass_line(r->out, r))
        goto out;
    have[strcspn(have, "\n")] = '\0';
    w = strchr(want, ' ');
    h = strchr(have, ' ');
    if (!w || !h || strcmp(w, h))
        goto out;
    json = sweep_json_read_file(r->json, MAX_JSON_BYTES);
    ok = json && sweep_json_valid(json) && sweep_json_has(json, "timing_total");
out:
    free(want);
    free(have);
    free(json);
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

static enum sweep_status judge(const struct sweep_plan_run *r, const char *json)
{
    const struct sweep_job *j = &r->job;

    if (r->reused)
        return SWEEP_PASS;
    if (!j->started)
        return SWEEP_ERROR;
    if (j->timed_out)
        return SWEEP_TIMEOUT;
    if (WIFEXITED(j->wait_status) && WEXITSTATUS(j->wait_status) == 127)
        return SWEEP_ERROR; /* could not start the program */
    if (!WIFEXITED(j->wait_status) || WEXITSTATUS(j->wait_status) || !has_pass_line(r->out, r))
        return SWEEP_FAIL;
    if (!json || !sweep_json_valid(json) || !sweep_json_has(json, "timing_total"))
        return SWEEP_ERROR;
    return SWEEP_PASS;
}

const char *sweep_plan_job_done(void *ctx, struct sweep_job *job)
{
    struct sweep_plan_run *r =
        (struct sweep_plan_run *)((char *)job - offsetof(struct sweep_plan_run, job));
    char *json = sweep_json_read_file(r->json, MAX_JSON_BYTES), wall[64];
    enum sweep_status st = judge(r, json);

    (void)ctx;
    free(json);
    snprintf(wall, sizeof(wall), "%.3f\n", job->wall_s);
    if (st == SWEEP_PASS)
        write_text(r->wall, wall);
    return sweep_status_name(st);
}

void sweep_plan_row(const struct sweep_plan_run *r, struct sweep_row *row)
{
    char *json = sweep_json_read_file(r->json, MAX_JSON_BYTES);
    char *wall = sweep_json_read_file(r->wall, 256);
    double wall_s = wall ? strtod(wall, NULL) : -1;

    memset(row, 0, sizeof(*row));
    snprintf(row->workload, sizeof(row->workload), "%s", r->wl->name);
    snprintf(row->wclass, sizeof(row->wclass), "%s", r->wl->wclass);
    snprintf(row->size, sizeof(row->size), "%s", r->size);
    snprintf(row->config, sizeof(row->config), "%s", r->config);
    snprintf(row->variant, sizeof(row->variant), "%s", r->var->name);
    row->status = judge(r, json);
    sweep_row_clear(row);
    if (row->status == SWEEP_PASS && !sweep_row_from_json(row, json, wall_s))
        row->status = SWEEP_ERROR;
    if (row->status != SWEEP_PASS)
        sweep_row_clear(row);
    free(json);
    free(wall);
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
        line = sweep_plan_cmd_line(r->argv);
        if (line && strcat(line, "\n"))
            write_text(r->cmd, line);
        free(line);
        if (access(r->prog, X_OK) == 0) {
            jobs[(*n)++] = &r->job;
            continue;
        }
        /* Not started: judged "error", with the reason where the run's stderr would be. */
        unlink(r->out);
        line = fmt("ptxsim sweep: no workload binary %s (%s)\n", r->prog,
                   "`make workloads` builds the suite; --bin names another directory");
        write_text(r->err, line ? line : "ptxsim sweep: no workload binary\n");
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
    if (sweep_catalog_load(&p->cat, p->bin, PTXSIM_SRCDIR))
        return 1;
    if ((rc = select_workloads(o, p)) || (rc = resolve_configs(o, p)) ||
        (rc = check_variants(o, p)) || (rc = make_out_dir(o, p)))
        return rc;
    return make_runs(o, p);
}
