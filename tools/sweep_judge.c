/*
 * Judging a run from the files it left in OUT/runs/, whichever back end ran
 * it (the local pool, a Slurm array task, another scheduler running the
 * .sh script): how it ended (.rc), its stdout (.out) and output file
 * against the app's check, and its statistics (.json). Judging only files
 * is what makes a local sweep and a cluster sweep give the same rows.
 */
#define _GNU_SOURCE /* strdup */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/sweep_json.h"
#include "tools/sweep_plan.h"
#include "tools/sweep_report.h"
#include "tools/sweep_variant.h"

#define MAX_OUT_BYTES (256u << 20)

bool sweep_plan_finished(const struct sweep_plan_run *r)
{
    FILE *fp = fopen(r->rc, "r");

    if (fp)
        fclose(fp);
    return fp != NULL;
}

static bool stdout_matches(const struct sweep_plan_run *r)
{
    char *text = sweep_json_read_file(r->out, MAX_OUT_BYTES);
    regex_t re;
    bool ok = false;

    if (text && !regcomp(&re, r->check_re, REG_EXTENDED | REG_NEWLINE | REG_NOSUB)) {
        ok = regexec(&re, text, 0, NULL, 0) == 0;
        regfree(&re);
    }
    free(text);
    return ok;
}

static bool same_files(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    char ba[65536], bb[65536];
    bool same = fa && fb;

    while (same) {
        size_t na = fread(ba, 1, sizeof(ba), fa), nb = fread(bb, 1, sizeof(bb), fb);

        same = na == nb && !memcmp(ba, bb, na);
        if (na < sizeof(ba))
            break;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

/* How the command ended, from the .rc file: the status it leads to, or -1 to look further. */
static int ended(const struct sweep_plan_run *r)
{
    char *text = sweep_json_read_file(r->rc, 256);
    int code = -1, st = SWEEP_ERROR;

    if (!text)
        return SWEEP_ERROR; /* never ran */
    if (!strncmp(text, "timeout", 7))
        st = SWEEP_TIMEOUT;
    else if (!strncmp(text, "signal", 6))
        st = SWEEP_FAIL;
    else if (sscanf(text, "exit %d", &code) == 1)
        st = code == 127 && r->app->check.exit_status != 127 ? SWEEP_ERROR /* could not start */
             : code != r->app->check.exit_status             ? SWEEP_FAIL
                                                             : -1;
    free(text);
    return st;
}

enum sweep_status sweep_plan_judge(const struct sweep_plan_run *r)
{
    int st = ended(r);
    struct json_t *json;
    char msg[512];
    bool ok;

    if (st >= 0)
        return (enum sweep_status)st;
    if (r->check_re && !stdout_matches(r))
        return SWEEP_FAIL;
    if (r->check_file && !same_files(r->check_file, r->check_expect))
        return SWEEP_FAIL;
    json = sweep_json_load(r->json, msg, sizeof(msg));
    ok = sweep_json_has(json, "timing_total") && sweep_json_has(json, "kernels");
    sweep_json_free(json);
    return ok ? SWEEP_PASS : SWEEP_ERROR;
}

static void row_keys(const struct sweep_plan_run *r, struct sweep_row *row)
{
    memset(row, 0, sizeof(*row));
    snprintf(row->run, sizeof(row->run), "%s", r->id);
    snprintf(row->workload, sizeof(row->workload), "%s", r->app->name);
    snprintf(row->wclass, sizeof(row->wclass), "%s", r->app->wclass);
    snprintf(row->size, sizeof(row->size), "%s", r->size);
    snprintf(row->config, sizeof(row->config), "%s", r->config);
    snprintf(row->variant, sizeof(row->variant), "%s", r->var->name);
    row->total = true;
    row->kernel_index = -1;
    snprintf(row->kernel, sizeof(row->kernel), "(all kernels)");
}

int sweep_plan_rows(const struct sweep_plan_run *r, struct sweep_results *res)
{
    char msg[512], *wall = sweep_json_read_file(r->wall, 256);
    double wall_s = wall ? strtod(wall, NULL) : -1;
    struct json_t *json = NULL;
    struct sweep_row row;
    size_t n0 = res->n;
    int rc = 1;

    free(wall);
    row_keys(r, &row);
    row.status = sweep_plan_judge(r);
    if (row.status == SWEEP_PASS && (json = sweep_json_load(r->json, msg, sizeof(msg))))
        rc = sweep_rows_from_stats(res, &row, json, wall_s);
    sweep_json_free(json);
    if (rc < 0)
        return -1;
    if (rc == 0)
        return 0;
    res->n = n0; /* incomplete statistics: one row saying so, without figures */
    if (row.status == SWEEP_PASS)
        row.status = SWEEP_ERROR;
    sweep_row_clear(&row);
    return sweep_results_add(res, &row);
}

/* s quoted for /bin/sh (malloc'd). */
static char *sh_quote(const char *s)
{
    char *q = malloc(4 * strlen(s) + 3), *o = q;

    if (!q)
        return NULL;
    *o++ = '\'';
    for (; *s; s++)
        o += *s == '\'' ? sprintf(o, "'\\''") : sprintf(o, "%c", *s);
    strcpy(o, "'");
    return q;
}

/*
 * The script runs the command as the pool would: in the app's directory,
 * stdout and stderr to the run's files, killed at the time limit by
 * coreutils' timeout, and records .rc and .wall the same way.
 */
int sweep_plan_write_script(const struct sweep_plan *p, const struct sweep_plan_run *r)
{
    char *cmd = sweep_plan_cmd_line(r->argv);
    char *dir = sh_quote(r->app->dir), *out = sh_quote(r->out), *err = sh_quote(r->err);
    char *rc = sh_quote(r->rc), *wall = sh_quote(r->wall);
    FILE *fp = cmd && dir && out && err && rc && wall ? fopen(r->sh, "w") : NULL;
    int ok = fp != NULL;

    if (fp) {
        fprintf(fp, "#!/bin/sh\n# ptxsim sweep: run %s\n", r->id);
        fprintf(fp, "t0=$(date +%%s.%%N)\n");
        fprintf(fp, "if cd %s; then\n", dir);
        if (p->timeout_s > 0)
            fprintf(fp, "    timeout -k 10 %.0f %s >%s 2>%s\n", p->timeout_s, cmd, out, err);
        else
            fprintf(fp, "    %s >%s 2>%s\n", cmd, out, err);
        fprintf(fp, "    st=$?\nelse\n    st=error\nfi\n");
        fprintf(fp, "t1=$(date +%%s.%%N)\n");
        fprintf(fp, "w=$(awk -v a=\"$t0\" -v b=\"$t1\" 'BEGIN { printf \"%%.3f\", b - a }')\n");
        fprintf(fp, "echo \"$w\" >%s\n", wall);
        fprintf(fp, "case $st in\n    error) echo error ;;\n");
        /* 124: timeout's own status; 137 (KILL) counts as the time limit only once it passed */
        if (p->timeout_s > 0)
            fprintf(fp,
                    "    124) echo timeout ;;\n"
                    "    137) if awk -v w=\"$w\" 'BEGIN { exit !(w >= %.0f) }'; then echo timeout; "
                    "else echo 'signal 9'; fi ;;\n",
                    p->timeout_s);
        fprintf(fp,
                "    *) if [ \"$st\" -gt 128 ]; then echo \"signal $((st - 128))\"; "
                "else echo \"exit $st\"; fi ;;\nesac >%s\n",
                rc);
        ok = fclose(fp) == 0;
    }
    free(cmd);
    free(dir);
    free(out);
    free(err);
    free(rc);
    free(wall);
    return ok ? 0 : -1;
}

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
