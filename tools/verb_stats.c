/*
 * `ptxsim stats [--csv] FILE.json...`: the statistics files of `ptxsim run
 * --stats` (timing mode) as one tidy table, one row per file and kernel and
 * a total row per file, with the columns of a sweep's results.csv
 * (docs/experiments.md), so that either loads into pandas or a spreadsheet
 * the same way. Without --csv, a few of the columns as an aligned table.
 */
#define _GNU_SOURCE /* strdup */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/sweep_json.h"
#include "tools/sweep_report.h"
#include "tools/verbs.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: ptxsim stats [--csv] FILE.json...\n"
            "Reads statistics files of `ptxsim run --mode timing --stats FILE` and prints one\n"
            "row per file and kernel plus a total row per file (scope 'total').\n"
            "  --csv   every column, as CSV with a header (the columns of `ptxsim sweep`'s\n"
            "          results.csv); run is the file as given, workload its base name up to\n"
            "          the first '.', size, config and variant '-'\n"
            "Exit status: 0, 1 if a file could not be read or holds no timing statistics,\n"
            "2 on a usage error.\n");
}

static void file_keys(const char *path, struct sweep_row *row)
{
    const char *base = strrchr(path, '/');

    memset(row, 0, sizeof(*row));
    base = base ? base + 1 : path;
    snprintf(row->run, sizeof(row->run), "%s", path);
    snprintf(row->workload, sizeof(row->workload), "%.*s", (int)strcspn(base, "."), base);
    snprintf(row->wclass, sizeof(row->wclass), "-");
    snprintf(row->size, sizeof(row->size), "-");
    snprintf(row->config, sizeof(row->config), "-");
    snprintf(row->variant, sizeof(row->variant), "-");
    row->status = SWEEP_PASS;
}

/* Appends the rows of one file; 0, 1 with a message (the file is skipped), -1 out of memory. */
static int add_file(struct sweep_results *res, const char *path)
{
    char err[1024];
    struct json_t *json = sweep_json_load(path, err, sizeof(err));
    struct sweep_row keys;
    size_t n0 = res->n;
    int rc;

    if (!json) {
        fprintf(stderr, "ptxsim stats: %s\n", err);
        return 1;
    }
    file_keys(path, &keys);
    rc = sweep_rows_from_stats(res, &keys, json, -1);
    sweep_json_free(json);
    if (rc == 1) {
        res->n = n0;
        fprintf(stderr,
                "ptxsim stats: %s: no timing statistics (made with `ptxsim run --mode timing "
                "--stats FILE`?)\n",
                path);
    }
    return rc;
}

static void print_cell(double x, const char *f, FILE *out)
{
    if (isnan(x))
        fprintf(out, " %12s", "-");
    else
        fprintf(out, f, x);
}

static void print_table(const struct sweep_results *res, FILE *out)
{
    int wr = 3, wk = 6;

    for (size_t i = 0; i < res->n; i++) {
        wr = (int)strlen(res->rows[i].run) > wr ? (int)strlen(res->rows[i].run) : wr;
        wk = (int)strlen(res->rows[i].kernel) > wk ? (int)strlen(res->rows[i].kernel) : wk;
    }
    fprintf(out, "%-*s %-6s %-*s %12s %12s %12s %13s %12s\n", wr, "run", "scope", wk, "kernel",
            "cycles", "thread_insn", "ipc", "l1d_miss_rate", "dram_reads");
    for (size_t i = 0; i < res->n; i++) {
        const struct sweep_row *r = &res->rows[i];

        fprintf(out, "%-*s %-6s %-*s", wr, r->run, r->total ? "total" : "kernel", wk, r->kernel);
        print_cell(r->v[SWEEP_COL_CYCLES], " %12.0f", out);
        print_cell(r->v[SWEEP_COL_THREAD_INSN], " %12.0f", out);
        print_cell(r->v[SWEEP_COL_IPC], " %12.4f", out);
        print_cell(r->v[SWEEP_COL_L1D_MISS_RATE], "  %12.4f", out);
        print_cell(r->v[SWEEP_COL_DRAM_READS], " %12.0f", out);
        fputc('\n', out);
    }
}

int verb_stats(int argc, char **argv)
{
    struct sweep_results res = {0};
    bool csv = false;
    int nfiles = 0, rc = 0, r;

    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--csv"))
            csv = true;
        else if (argv[i][0] == '-' && argv[i][1])
            return fprintf(stderr, "ptxsim stats: unknown option '%s'\n", argv[i]), 2;
        else
            nfiles++;
    }
    if (!nfiles) {
        usage(stderr);
        return 2;
    }
    for (int i = 0; i < argc && rc >= 0; i++)
        if (strcmp(argv[i], "--csv") && (r = add_file(&res, argv[i])))
            rc = r < 0 ? -1 : 1;
    if (rc < 0)
        fprintf(stderr, "ptxsim stats: out of memory\n");
    else if (csv)
        sweep_csv_write(&res, stdout);
    else
        print_table(&res, stdout);
    sweep_results_free(&res);
    return rc < 0 ? 1 : rc;
}
