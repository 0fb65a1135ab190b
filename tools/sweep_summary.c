/*
 * summary.md and classes.md. Every table is built from the per-(size,
 * config) tables of sweep_report.h, so the Markdown, the terminal summary
 * and the charts show the same numbers. Output depends only on the rows, in
 * their order, so regenerating a report gives the same bytes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tools/sweep_report.h"
#include "tools/sweep_summary.h"

/* Thresholds of the classifications (docs/workloads.md, "Classes"). */
#define DYNCTA_IDLE_X 0.20 /* Type-X: idle time above 20% of the execution cycles */
#define DYNCTA_RACT_C 0.66 /* Type-C: RACT above 66% */
#define CCWS_HIGH 3.0      /* highly cache-sensitive: 3x or more with a much larger L1D */
#define CCWS_MODERATE 1.2  /* moderately cache-sensitive (no number in the paper) */

static size_t baseline_index(const struct sweep_table *t, const char *baseline)
{
    int b = baseline ? sweep_table_variant(t, baseline) : 0;

    return b < 0 ? 0 : (size_t)b;
}

/* A cell: the number, or why there is none (the run's status, or "-" if not run). */
static void put_cell(FILE *out, const struct sweep_table *t, size_t w, size_t v, double x,
                     const char *fmt)
{
    const struct sweep_row *row = t->cell[w * t->nv + v];

    fputs(" | ", out);
    if (!isnan(x))
        fprintf(out, fmt, x);
    else if (row && row->status != SWEEP_PASS)
        fputs(sweep_status_name(row->status), out);
    else
        fputs("-", out);
}

static void put_num(FILE *out, double x, const char *fmt)
{
    fputs(" | ", out);
    if (isnan(x))
        fputs("-", out);
    else
        fprintf(out, fmt, x);
}

static void header(FILE *out, const struct sweep_table *t, const char *first, const char *extra)
{
    fprintf(out, "| %s | class%s%s", first, extra ? " | " : "", extra ? extra : "");
    for (size_t v = 0; v < t->nv; v++)
        fprintf(out, " | %s", t->variants[v]);
    fprintf(out, " |\n|---|---%s", extra ? "|---:" : "");
    for (size_t v = 0; v < t->nv; v++)
        fputs("|---:", out);
    fputs("|\n", out);
}

static void mean_row(FILE *out, const struct sweep_table *t, size_t base, const char *wclass,
                     enum sweep_mean kind)
{
    static const char *const names[] = {"gmean", "hmean", "amean"};

    if (wclass)
        fprintf(out, "| %s | %s | ", names[kind], wclass);
    else
        fprintf(out, "| **%s** | all | ", names[kind]);
    for (size_t v = 0; v < t->nv; v++)
        put_num(out, sweep_table_mean_norm_ipc(t, v, base, wclass, kind), "%.3f");
    fputs(" |\n", out);
}

static void ipc_table(FILE *out, const struct sweep_table *t, size_t base)
{
    char extra[96];
    const char **classes;
    size_t nc = 0;

    snprintf(extra, sizeof(extra), "IPC (%s)", t->variants[base]);
    header(out, t, "workload", extra);
    for (size_t w = 0; w < t->nw; w++) {
        fprintf(out, "| %s | %s", t->workloads[w], t->classes[w]);
        put_cell(out, t, w, base, sweep_table_value(t, w, base, SWEEP_COL_IPC), "%.2f");
        for (size_t v = 0; v < t->nv; v++)
            put_cell(out, t, w, v, sweep_table_norm_ipc(t, w, v, base), "%.3f");
        fputs(" |\n", out);
    }
    for (int k = SWEEP_GMEAN; k <= SWEEP_AMEAN; k++)
        mean_row(out, t, base, NULL, (enum sweep_mean)k);
    classes = malloc((t->nw ? t->nw : 1) * sizeof(*classes));
    for (size_t w = 0; classes && w < t->nw; w++) { /* the classes, in order of appearance */
        size_t c = 0;

        while (c < nc && strcmp(classes[c], t->classes[w]))
            c++;
        if (c == nc)
            classes[nc++] = t->classes[w];
    }
    for (size_t c = 0; nc > 1 && c < nc; c++)
        for (int k = SWEEP_GMEAN; k <= SWEEP_HMEAN; k++)
            mean_row(out, t, base, classes[c], (enum sweep_mean)k);
    free(classes);
}

static void mpki_table(FILE *out, const struct sweep_table *t)
{
    header(out, t, "workload", NULL);
    for (size_t w = 0; w < t->nw; w++) {
        fprintf(out, "| %s | %s", t->workloads[w], t->classes[w]);
        for (size_t v = 0; v < t->nv; v++)
            put_cell(out, t, w, v, sweep_table_value(t, w, v, SWEEP_COL_L1D_MPKI), "%.2f");
        fputs(" |\n", out);
    }
    fputs("| **amean** | all", out);
    for (size_t v = 0; v < t->nv; v++)
        put_num(out, sweep_table_mean_value(t, v, SWEEP_COL_L1D_MPKI), "%.2f");
    fputs(" |\n", out);
}

static void stall_table(FILE *out, const struct sweep_table *t)
{
    fputs("| variant", out);
    for (int i = 0; i < SWEEP_NSTALLS; i++)
        fprintf(out, " | %s", sweep_stall_name(i));
    fputs(" |\n|---", out);
    for (int i = 0; i < SWEEP_NSTALLS; i++)
        fputs("|---:", out);
    fputs("|\n", out);
    for (size_t v = 0; v < t->nv; v++) {
        fprintf(out, "| %s", t->variants[v]);
        for (int i = 0; i < SWEEP_NSTALLS; i++)
            put_num(out, sweep_table_mean_stall_frac(t, v, i), "%.3f");
        fputs(" |\n", out);
    }
}

static void status_counts(FILE *out, const struct sweep_results *r)
{
    size_t count[4] = {0};

    for (size_t i = 0; i < r->n; i++)
        count[r->rows[i].status < 4 ? r->rows[i].status : SWEEP_ERROR]++;
    fprintf(out, "%zu runs: %zu passed, %zu failed, %zu timed out, %zu errors.\n", r->n,
            count[SWEEP_PASS], count[SWEEP_FAIL], count[SWEEP_TIMEOUT], count[SWEEP_ERROR]);
    for (size_t i = 0; i < r->n; i++) {
        const struct sweep_row *row = &r->rows[i];

        if (row->status != SWEEP_PASS && row->run[0])
            fprintf(out, "- %s: %s (runs/%s.err)\n", sweep_status_name(row->status), row->run,
                    row->run);
        else if (row->status != SWEEP_PASS) /* a results.csv of before the run column */
            fprintf(out, "- %s: %s.%s.%s.%s (runs/%s.%s.%s.%s.err)\n",
                    sweep_status_name(row->status), row->workload, row->size, row->config,
                    row->variant, row->workload, row->size, row->config, row->variant);
    }
}

/* Calls fn for every (size, config) that has runs, in order of appearance. */
static void each_table(const struct sweep_results *r, FILE *out, const char *baseline,
                       void (*fn)(FILE *, const struct sweep_table *, size_t))
{
    const char **sizes = NULL, **configs = NULL;
    size_t ns = sweep_distinct(r, SWEEP_F_SIZE, &sizes);
    size_t nc = sweep_distinct(r, SWEEP_F_CONFIG, &configs);
    struct sweep_table t;

    for (size_t s = 0; s < ns; s++)
        for (size_t c = 0; c < nc; c++) {
            if (sweep_table_build(r, sizes[s], configs[c], &t))
                continue;
            if (t.nw)
                fn(out, &t, baseline_index(&t, baseline));
            sweep_table_free(&t);
        }
    free(sizes);
    free(configs);
}

static void full_section(FILE *out, const struct sweep_table *t, size_t base)
{
    fprintf(out, "\n## %s%s%s\n\n", strcmp(t->size, "-") ? t->size : "",
            strcmp(t->size, "-") ? ", " : "", t->config);
    fprintf(out, "### IPC normalised to %s\n\n", t->variants[base]);
    ipc_table(out, t, base);
    fprintf(out, "\n### L1D misses per 1000 warp instructions (MPKI)\n\n");
    mpki_table(out, t);
    fprintf(out, "\n### Stall breakdown (shares of the stall counters, mean over workloads)\n\n");
    stall_table(out, t);
}

static void ipc_section(FILE *out, const struct sweep_table *t, size_t base)
{
    fprintf(out, "\n%s%s%s: IPC normalised to %s\n\n", strcmp(t->size, "-") ? t->size : "",
            strcmp(t->size, "-") ? ", " : "", t->config, t->variants[base]);
    ipc_table(out, t, base);
}

void sweep_summary_write(const struct sweep_results *r, const char *baseline, FILE *out)
{
    fprintf(out, "# Sweep summary\n\n");
    status_counts(out, r);
    fprintf(out,
            "\nIPC is thread instructions per core cycle over all kernels of a run. Normalised IPC "
            "is IPC(variant) / IPC(baseline) of the same workload, size and machine; gmean, hmean "
            "and amean are the geometric, harmonic and arithmetic means over the workloads whose "
            "runs passed for every variant (per class when there are several), so that every "
            "column averages the same workloads. The stall breakdown gives each "
            "category's share of the eight stall counters (docs/timing.md: every warp a "
            "scheduler passed over counts in one category, the warp it issued as exec), averaged "
            "over the workloads; the columns add up to 1. Charts: ipc.svg, mpki.svg, stalls.svg; "
            "every run: results.csv.\n");
    each_table(r, out, baseline, full_section);
}

void sweep_summary_print_ipc(const struct sweep_results *r, const char *baseline, FILE *out)
{
    each_table(r, out, baseline, ipc_section);
}

const char *sweep_class_dyncta(double ract, double idle_frac)
{
    if (isnan(ract) || isnan(idle_frac))
        return "-";
    if (idle_frac > DYNCTA_IDLE_X)
        return "Type-X";
    return ract > DYNCTA_RACT_C ? "Type-C" : "Type-M";
}

const char *sweep_class_ccws(double speedup)
{
    if (isnan(speedup))
        return "-";
    if (speedup >= CCWS_HIGH)
        return "HCS";
    return speedup >= CCWS_MODERATE ? "MCS" : "CI";
}

static void classes_rules(FILE *out)
{
    fprintf(out,
            "# Workload classes\n\n"
            "Generated by `ptxsim sweep --classify` from the runs at size `%s` on `%s` of the "
            "variants `%s` (the machine as configured) and `%s` (`-o %s`: a 512 KB, 8-way L1D "
            "with 128-byte lines, 32 times the GTX 480's 16 KB).\n\n",
            SWEEP_CLASSIFY_SIZE, SWEEP_CLASSIFY_CONFIG, SWEEP_CLASSIFY_BASE, SWEEP_CLASSIFY_BIG,
            SWEEP_CLASSIFY_BIG_OPT);
    fprintf(out,
            "**DYNCTA** (Kayiran et al., PACT 2013, Table II; design/seeds/001_dyncta.md 2.1), "
            "measured on `%s` (maximum TLP):\n\n"
            "- Type-X (not enough parallelism) if idle time is above 20%% of the execution "
            "cycles. Idle fraction = (C_idle + SM cycles without a CTA) / (SMs x cycles): C_idle "
            "counts cycles in which an SM with CTAs issues nothing while no warp waits on memory "
            "and the pipeline is not stalled (barrier waits included, as in the paper); cycles in "
            "which an SM holds no CTA at all are idle too (all its warps have finished).\n"
            "- Otherwise Type-C (compute-intensive) if RACT > 0.66, Type-M (memory-intensive) if "
            "RACT <= 0.66. RACT = mean over SMs of N_act / (N_act + N_inact).\n"
            "- C_idle / (C_idle + C_mem) is shown for reference; it does not enter the rule.\n\n",
            SWEEP_CLASSIFY_BASE);
    fprintf(out,
            "**CCWS** (Rogers et al., MICRO 2012, Table 2 and Fig. 2; "
            "design/seeds/004_ccws.md 2), from S = IPC(%s) / IPC(%s):\n\n"
            "- HCS (highly cache-sensitive) if S >= 3: the paper's HCS apps gain 3x or more with a "
            "much larger L1D.\n"
            "- MCS (moderately cache-sensitive) if 1.2 <= S < 3. The paper gives no number for "
            "MCS; 1.2 is ptxsim's threshold.\n"
            "- CI (cache-insensitive) if S < 1.2.\n"
            "- The paper measures S under loose round robin; here it is the machine's own warp "
            "scheduler (GTO on %s).\n\n",
            SWEEP_CLASSIFY_BIG, SWEEP_CLASSIFY_BASE, SWEEP_CLASSIFY_CONFIG);
}

static void classes_row(FILE *out, const struct sweep_table *t, size_t w, int base, int big)
{
    double ract = sweep_table_value(t, w, (size_t)base, SWEEP_COL_RACT);
    double idle = sweep_table_value(t, w, (size_t)base, SWEEP_COL_IDLE_FRAC);
    double ci = sweep_table_value(t, w, (size_t)base, SWEEP_COL_C_IDLE);
    double cm = sweep_table_value(t, w, (size_t)base, SWEEP_COL_C_MEM);
    double s = big >= 0 ? sweep_table_norm_ipc(t, w, (size_t)big, (size_t)base) : NAN;

    fprintf(out, "| %s | %s", t->workloads[w], t->classes[w]);
    put_num(out, ract, "%.3f");
    put_num(out, idle, "%.3f");
    put_num(out, ci + cm > 0 ? ci / (ci + cm) : NAN, "%.3f");
    fprintf(out, " | %s", sweep_class_dyncta(ract, idle));
    put_cell(out, t, w, (size_t)base, sweep_table_value(t, w, (size_t)base, SWEEP_COL_IPC), "%.2f");
    if (big >= 0)
        put_cell(out, t, w, (size_t)big, sweep_table_value(t, w, (size_t)big, SWEEP_COL_IPC),
                 "%.2f");
    else
        fputs(" | -", out);
    put_num(out, s, "%.2f");
    fprintf(out, " | %s |\n", sweep_class_ccws(s));
}

int sweep_classify_write(const struct sweep_results *r, FILE *out, char *err, size_t errlen)
{
    struct sweep_table t;
    int base, big;

    if (sweep_table_build(r, SWEEP_CLASSIFY_SIZE, SWEEP_CLASSIFY_CONFIG, &t)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    base = sweep_table_variant(&t, SWEEP_CLASSIFY_BASE);
    big = sweep_table_variant(&t, SWEEP_CLASSIFY_BIG);
    if (!t.nw || base < 0) {
        snprintf(err, errlen, "no runs of variant '%s' at size %s on %s in results.csv",
                 SWEEP_CLASSIFY_BASE, SWEEP_CLASSIFY_SIZE, SWEEP_CLASSIFY_CONFIG);
        sweep_table_free(&t);
        return -1;
    }
    classes_rules(out);
    fprintf(out, "| workload | class | RACT | idle fraction | C_idle/(C_idle+C_mem) | DYNCTA | "
                 "IPC base | IPC l1big | S | CCWS |\n"
                 "|---|---|---:|---:|---:|---|---:|---:|---:|---|\n");
    for (size_t w = 0; w < t.nw; w++)
        classes_row(out, &t, w, base, big);
    sweep_table_free(&t);
    return 0;
}
