/*
 * Unit tests for the pieces of `ptxsim sweep` that do not run anything: the
 * minimal JSON reader (tools/sweep_json), results rows from a statistics
 * JSON and results.csv (tools/sweep_report), the summary arithmetic
 * (normalised IPC, geometric / harmonic / arithmetic means, per class),
 * the DYNCTA and CCWS classification rules (tools/sweep_summary; oracles
 * from design/seeds/001_dyncta.md 2.1 and 004_ccws.md 2), workload
 * declaration lines (tools/sweep_catalog) and variant specs
 * (tools/sweep_variant).
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "tools/sweep_catalog.h"
#include "tools/sweep_json.h"
#include "tools/sweep_report.h"
#include "tools/sweep_summary.h"
#include "tools/sweep_svg.h"
#include "tools/sweep_variant.h"

/* A cut-down statistics file in the layout of runtime/cuda/stats.c. */
static const char stats_json[] =
    "{\n"
    "  \"total\": {\"kernels\": 2, \"cycles\": 1000, \"ipc\": 12.5},\n"
    "  \"kernels\": [\n"
    "    {\"name\": \"k\\\"1\", \"cycles\": 600, \"grid\": [4, 1, 1]},\n"
    "    {\"name\": \"k2\", \"cycles\": 400, \"grid\": [8, 2, 1], \"ok\": true, \"x\": null}\n"
    "  ],\n"
    "  \"timing_total\":\n"
    "  {\"name\": \"(all kernels)\", \"cycles\": 1000, \"thread_insn\": 64000, "
    "\"warp_insn\": 2000, \"ipc\": 64.000000, \"wall_s\": 0.25, \"sim_rate\": 256000,\n"
    "   \"occupancy\": {\"max_ctas_per_sm\": 8, \"limited_by\": \"threads\", \"achieved\": 0.5},\n"
    "   \"sm\": {\"n_act\": 1500, \"n_inact\": 1500, \"c_idle\": 300, \"c_mem\": 900, "
    "\"c_stall\": 300, \"ract\": 0.5, \"util\": 0.75},\n"
    "   \"stalls\": {\"sync\": 0, \"fetch\": 10, \"control\": 0, \"data\": 20, "
    "\"dcache_miss\": 40, \"mshr\": 10, \"structural\": 0, \"exec\": 20},\n"
    "   \"l1d\": {\"accesses\": 400, \"misses\": 100, \"miss_rate\": 0.25}, \"l1d_mpki\": 50.0,\n"
    "   \"l2\": {\"misses\": 10}, \"l2_mpki\": 5.0,\n"
    "   \"dram\": {\"reads\": 8, \"writes\": 2, \"row_hit_rate\": 0.5, \"utilization\": 0.1},\n"
    "   \"memory_latency\": {\"average\": 300.5, \"max\": 900, \"log2_histogram\": [0, 1, 2e0]}},\n"
    "  \"config\": {\"gpgpu_n_clusters\": 2, \"gpgpu_n_cores_per_cluster\": 2, "
    "\"gpgpu_scheduler\": \"gto\"}\n"
    "}\n";

/* jansson refuses what is not one well-formed value (sweep_json_parse). */
static void test_sweep_json_valid(void **state)
{
    static const char *const bad[] = {"",
                                      "{\"a\": 1,}",
                                      "{\"a\" 1}",
                                      "[01]",
                                      "[1.]",
                                      "\"tab\there\"",
                                      "{\"a\": 1} x",
                                      "\"\\x\"",
                                      "{\"a\": 1, \"a\": 2}"};
    json_t *j;

    (void)state;
    assert_non_null(j = sweep_json_parse(stats_json));
    sweep_json_free(j);
    assert_non_null(
        j = sweep_json_parse(" [1, -2.5e3, \"a\\u00e9\\n\", {}, [], true, false, null] "));
    sweep_json_free(j);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        assert_null(sweep_json_parse(bad[i]));
}

/* A statistics file cut short (a run killed while writing) is not complete. */
static void test_sweep_json_truncated(void **state)
{
    char buf[sizeof(stats_json)];

    (void)state;
    for (size_t n = 0; n + 2 < sizeof(stats_json); n += 7) {
        memcpy(buf, stats_json, n);
        buf[n] = '\0';
        assert_null(sweep_json_parse(buf));
    }
}

static void test_sweep_json_deep_nesting(void **state)
{
    char buf[8192];
    json_t *j;

    (void)state;
    memset(buf, '[', 4000);
    memset(buf + 4000, ']', 4000);
    buf[8000] = '\0';
    assert_null(sweep_json_parse(buf)); /* refused (jansson's depth limit), not a stack overflow */
    memset(buf, '[', 10);
    memset(buf + 10, ']', 10);
    buf[20] = '\0';
    assert_non_null(j = sweep_json_parse(buf));
    sweep_json_free(j);
}

static void test_sweep_json_paths(void **state)
{
    json_t *j = sweep_json_parse(stats_json);
    double x = -1;
    char s[16];

    (void)state;
    assert_non_null(j);
    assert_true(sweep_json_number(j, "total.cycles", &x));
    assert_true(x == 1000);
    assert_true(sweep_json_number(j, "timing_total.memory_latency.average", &x));
    assert_true(x == 300.5);
    assert_true(sweep_json_number(j, "kernels.1.grid.1", &x));
    assert_true(x == 2);
    assert_true(sweep_json_number(j, "timing_total.memory_latency.log2_histogram.2", &x));
    assert_true(x == 2);
    assert_true(sweep_json_string(j, "kernels.0.name", s, sizeof(s)));
    assert_string_equal(s, "k\"1");
    assert_true(sweep_json_string(j, "config.gpgpu_scheduler", s, 3));
    assert_string_equal(s, "gt"); /* truncated to the buffer */
    assert_true(sweep_json_has(j, "kernels.1.x"));
    x = -1;
    assert_false(sweep_json_number(j, "kernels.2.cycles", &x));
    assert_false(sweep_json_number(j, "total.nope", &x));
    assert_false(sweep_json_number(j, "kernels.0.name", &x)); /* a string */
    assert_false(sweep_json_number(j, "total.cycles.x", &x));
    assert_false(sweep_json_number(j, "kernels.a", &x));
    assert_false(sweep_json_number(j, "kernels.-1.cycles", &x));
    assert_true(x == -1);
    /* "cycles" inside kernels must not be found at the top level */
    assert_false(sweep_json_has(j, "cycles"));
    assert_false(sweep_json_has(NULL, "cycles"));
    sweep_json_free(j);
}

static void test_sweep_row_from_json(void **state)
{
    json_t *j = sweep_json_parse(stats_json), *f = sweep_json_parse("{\"cycles\": 5}");
    json_t *t = sweep_json_get(j, "timing_total"), *cfg = sweep_json_get(j, "config");
    struct sweep_row row;

    (void)state;
    memset(&row, 0, sizeof(row));
    assert_true(sweep_row_from_json(&row, t, cfg, -1));
    assert_true(row.v[SWEEP_COL_CYCLES] == 1000);
    assert_true(row.v[SWEEP_COL_IPC] == 64);
    assert_true(row.v[SWEEP_COL_L1D_MISSES] == 100);
    assert_true(row.v[SWEEP_COL_L1D_MPKI] == 50);
    assert_true(row.v[SWEEP_COL_DRAM_UTIL] == 0.1);
    assert_true(row.v[SWEEP_COL_OCCUPANCY] == 0.5);
    assert_true(row.v[SWEEP_COL_STALL_DCACHE_MISS] == 40);
    assert_true(row.v[SWEEP_COL_WALL_S] == 0.25); /* from the JSON when not measured */
    assert_true(row.v[SWEEP_COL_N_SM] == 4);
    /* idle = c_idle + SM cycles without a CTA = 300 + (4 * 1000 - 3000) of 4000 */
    assert_true(fabs(row.v[SWEEP_COL_IDLE_FRAC] - 0.325) < 1e-12);
    assert_true(isnan(row.v[SWEEP_COL_DRAM_READS]) == 0);
    assert_true(sweep_row_from_json(&row, t, cfg, 3.5));
    assert_true(row.v[SWEEP_COL_WALL_S] == 3.5);
    /* no IPC, or no object at all: not complete timing statistics */
    assert_false(sweep_row_from_json(&row, f, cfg, 1));
    assert_true(isnan(row.v[SWEEP_COL_CYCLES]));
    assert_false(sweep_row_from_json(&row, NULL, cfg, 1));
    sweep_json_free(j);
    sweep_json_free(f);
}

/* One row per kernel, in launch order, then the total row; functional statistics give none. */
static void test_sweep_rows_from_stats(void **state)
{
    static const char two[] =
        "{\"kernels\": [{\"name\": \"a\", \"timing\": {\"cycles\": 10, \"ipc\": 1}},"
        " {\"name\": \"b,c\", \"timing\": {\"cycles\": 30, \"ipc\": 3}}],"
        " \"timing_total\": {\"cycles\": 40, \"ipc\": 2.5}, \"config\": {}}";
    json_t *j = sweep_json_parse(two), *fn = sweep_json_parse("{\"total\": {\"cycles\": 5}}");
    struct sweep_results r = {0};
    struct sweep_row keys;

    (void)state;
    memset(&keys, 0, sizeof(keys));
    snprintf(keys.run, sizeof(keys.run), "r1");
    assert_int_equal(sweep_rows_from_stats(&r, &keys, j, 7.0), 0);
    assert_int_equal(r.n, 3);
    assert_false(r.rows[0].total);
    assert_int_equal(r.rows[1].kernel_index, 1);
    assert_string_equal(r.rows[1].kernel, "b,c");
    assert_true(r.rows[1].v[SWEEP_COL_CYCLES] == 30);
    assert_true(r.rows[2].total);
    assert_int_equal(r.rows[2].kernel_index, -1);
    assert_true(r.rows[2].v[SWEEP_COL_CYCLES] == 40);
    assert_true(r.rows[2].v[SWEEP_COL_WALL_S] == 7.0);
    assert_string_equal(r.rows[2].run, "r1");
    assert_int_equal(sweep_rows_from_stats(&r, &keys, fn, 1), 1);
    sweep_results_free(&r);
    sweep_json_free(j);
    sweep_json_free(fn);
}

static struct sweep_row make_row(const char *w, const char *cls, const char *variant, double ipc,
                                 enum sweep_status st)
{
    struct sweep_row r;

    memset(&r, 0, sizeof(r));
    sweep_row_clear(&r);
    snprintf(r.workload, sizeof(r.workload), "%s", w);
    snprintf(r.wclass, sizeof(r.wclass), "%s", cls);
    snprintf(r.size, sizeof(r.size), "small");
    snprintf(r.config, sizeof(r.config), "gtx480");
    snprintf(r.variant, sizeof(r.variant), "%s", variant);
    r.status = st;
    r.total = true;
    r.kernel_index = -1;
    snprintf(r.kernel, sizeof(r.kernel), "(all kernels)");
    r.v[SWEEP_COL_IPC] = ipc;
    r.v[SWEEP_COL_L1D_MPKI] = ipc * 10;
    for (int i = 0; i < SWEEP_NSTALLS; i++)
        r.v[SWEEP_COL_STALL0 + i] = i == 4 ? 3 : i == 7 ? 1 : 0;
    return r;
}

/* a: 10 -> 20 (2x), b: 10 -> 5 (0.5x), c: 4 -> failed; classes x, x, y. */
static void fill(struct sweep_results *r)
{
    struct sweep_row rows[] = {
        make_row("a", "x", "base", 10, SWEEP_PASS), make_row("a", "x", "v", 20, SWEEP_PASS),
        make_row("b", "x", "base", 10, SWEEP_PASS), make_row("b", "x", "v", 5, SWEEP_PASS),
        make_row("c", "y", "base", 4, SWEEP_PASS),  make_row("c", "y", "v", NAN, SWEEP_FAIL),
    };

    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
        assert_int_equal(sweep_results_add(r, &rows[i]), 0);
}

static char *svg_of(const struct sweep_results *r, enum sweep_chart kind)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);

    assert_non_null(fp);
    sweep_svg_write(r, "base", kind, fp);
    fclose(fp);
    return buf;
}

/* Ratios near 1 get a zoomed axis that says where it starts; every bar shows its value. */
static void test_sweep_svg_axis(void **state)
{
    struct sweep_results wide = {0}, near = {0};
    struct sweep_row rows[] = {
        make_row("a", "x", "base", 10, SWEEP_PASS),
        make_row("a", "x", "v", 10.3, SWEEP_PASS),
        make_row("b", "x", "base", 10, SWEEP_PASS),
        make_row("b", "x", "v", 9.8, SWEEP_PASS),
    };
    char *svg;

    (void)state;
    fill(&wide);
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
        assert_int_equal(sweep_results_add(&near, &rows[i]), 0);
    svg = svg_of(&near, SWEEP_CHART_IPC);
    assert_non_null(strstr(svg, "normalised IPC (axis from 0.9"));
    assert_non_null(strstr(svg, ">1.03</text>"));
    assert_non_null(strstr(svg, ">0.98</text>"));
    free(svg);
    svg = svg_of(&wide, SWEEP_CHART_IPC); /* 2x and 0.5x: from zero, labels as they are */
    assert_null(strstr(svg, "axis from"));
    assert_non_null(strstr(svg, ">2</text>"));
    assert_non_null(strstr(svg, ">0.5</text>"));
    free(svg);
    svg = svg_of(&wide, SWEEP_CHART_STALLS); /* 3 of 4 stall slots are dcache misses */
    assert_non_null(strstr(svg, ">75%</text>"));
    free(svg);
    sweep_results_free(&wide);
    sweep_results_free(&near);
}

static void test_sweep_means(void **state)
{
    const double x[] = {2, 0.5, NAN}, z[] = {0, 4};

    (void)state;
    assert_true(fabs(sweep_mean(SWEEP_GMEAN, x, 3) - 1.0) < 1e-12);
    assert_true(fabs(sweep_mean(SWEEP_HMEAN, x, 3) - 0.8) < 1e-12);
    assert_true(fabs(sweep_mean(SWEEP_AMEAN, x, 3) - 1.25) < 1e-12);
    assert_true(isnan(sweep_mean(SWEEP_GMEAN, z, 2)));
    assert_true(isnan(sweep_mean(SWEEP_HMEAN, z, 2)));
    assert_true(sweep_mean(SWEEP_AMEAN, z, 2) == 2);
    assert_true(isnan(sweep_mean(SWEEP_AMEAN, x + 2, 1)));
    assert_true(isnan(sweep_mean(SWEEP_GMEAN, x, 0)));
}

static void test_sweep_table_normalise(void **state)
{
    struct sweep_results r = {0};
    struct sweep_table t;
    int v;

    (void)state;
    fill(&r);
    assert_int_equal(sweep_table_build(&r, "small", "gtx480", &t), 0);
    assert_int_equal(t.nw, 3);
    assert_int_equal(t.nv, 2);
    v = sweep_table_variant(&t, "v");
    assert_int_equal(v, 1);
    assert_int_equal(sweep_table_variant(&t, "nope"), -1);
    assert_true(sweep_table_norm_ipc(&t, 0, 1, 0) == 2.0);
    assert_true(sweep_table_norm_ipc(&t, 1, 1, 0) == 0.5);
    assert_true(sweep_table_norm_ipc(&t, 0, 0, 0) == 1.0);
    assert_true(isnan(sweep_table_norm_ipc(&t, 2, 1, 0))); /* failed run */
    /* means over the runs that passed: 2 and 0.5 */
    assert_true(fabs(sweep_table_mean_norm_ipc(&t, 1, 0, NULL, SWEEP_GMEAN) - 1.0) < 1e-12);
    assert_true(fabs(sweep_table_mean_norm_ipc(&t, 1, 0, NULL, SWEEP_HMEAN) - 0.8) < 1e-12);
    assert_true(fabs(sweep_table_mean_norm_ipc(&t, 1, 0, NULL, SWEEP_AMEAN) - 1.25) < 1e-12);
    /* per class: y has only the failed run */
    assert_true(fabs(sweep_table_mean_norm_ipc(&t, 1, 0, "x", SWEEP_GMEAN) - 1.0) < 1e-12);
    assert_true(isnan(sweep_table_mean_norm_ipc(&t, 1, 0, "y", SWEEP_GMEAN)));
    /* means take only workloads complete in every variant: c's base run is left out */
    assert_true(sweep_table_complete(&t, 0));
    assert_false(sweep_table_complete(&t, 2));
    assert_true(sweep_table_mean_value(&t, 0, SWEEP_COL_L1D_MPKI) == 100); /* (100 + 100) / 2 */
    assert_true(sweep_table_mean_value(&t, 1, SWEEP_COL_L1D_MPKI) == 125); /* (200 + 50) / 2 */
    assert_true(sweep_table_mean_stall_frac(&t, 0, 4) == 0.75);
    assert_true(isnan(sweep_table_mean_stall_frac(&t, 0, 8)));
    /* stall fractions: dcache_miss 3 of 4, exec 1 of 4 */
    assert_true(sweep_table_stall_frac(&t, 0, 0, 4) == 0.75);
    assert_true(sweep_table_stall_frac(&t, 0, 0, 7) == 0.25);
    assert_true(isnan(sweep_table_stall_frac(&t, 2, 1, 4)));
    sweep_table_free(&t);
    assert_int_equal(sweep_table_build(&r, "paper", "gtx480", &t), 0);
    assert_int_equal(t.nw, 0);
    sweep_table_free(&t);
    sweep_results_free(&r);
}

static void test_sweep_csv_roundtrip(void **state)
{
    struct sweep_results r = {0}, back = {0};
    char *buf = NULL, err[128];
    size_t len = 0;
    FILE *fp;

    (void)state;
    fill(&r);
    r.rows[0].v[SWEEP_COL_CYCLES] = 123456789012.0;
    fp = open_memstream(&buf, &len);
    assert_non_null(fp);
    assert_int_equal(sweep_csv_write(&r, fp), 0);
    fclose(fp);
    assert_non_null(strstr(buf, "run,workload,class,size,config,variant,status,scope,kernel_index,"
                                "kernel,cycles,"));
    assert_non_null(strstr(buf, "\n,c,y,small,gtx480,v,fail,total,,(all kernels),,"));
    fp = fmemopen(buf, len, "r");
    assert_int_equal(sweep_csv_read(&back, fp, err, sizeof(err)), 0);
    fclose(fp);
    assert_int_equal(back.n, r.n);
    for (size_t i = 0; i < r.n; i++) {
        assert_string_equal(back.rows[i].workload, r.rows[i].workload);
        assert_string_equal(back.rows[i].wclass, r.rows[i].wclass);
        assert_string_equal(back.rows[i].variant, r.rows[i].variant);
        assert_int_equal(back.rows[i].status, r.rows[i].status);
        for (int c = 0; c < SWEEP_NCOLS; c++)
            assert_true(isnan(r.rows[i].v[c]) ? isnan(back.rows[i].v[c])
                                              : fabs(back.rows[i].v[c] - r.rows[i].v[c]) < 1e-6);
    }
    free(buf);
    sweep_results_free(&r);
    sweep_results_free(&back);
}

static void test_sweep_csv_errors(void **state)
{
    static const char other[] = "size,workload,variant,config,status,ipc,extra\n"
                                "test,w,v,m,pass,2.5,9\n\n"
                                "test,w2,v,m,bogus,x,9\n";
    static const char bad[] = "workload,size,config,variant\nw,test,m,v\n";
    struct sweep_results r = {0};
    char err[128];
    FILE *fp;

    (void)state;
    fp = fmemopen((void *)other, sizeof(other) - 1, "r");
    assert_int_equal(sweep_csv_read(&r, fp, err, sizeof(err)), 0);
    fclose(fp);
    assert_int_equal(r.n, 2);
    assert_string_equal(r.rows[0].wclass, "-");
    assert_true(r.rows[0].v[SWEEP_COL_IPC] == 2.5);
    assert_true(isnan(r.rows[0].v[SWEEP_COL_CYCLES]));
    assert_int_equal(r.rows[1].status, SWEEP_ERROR);
    assert_true(isnan(r.rows[1].v[SWEEP_COL_IPC]));
    sweep_results_free(&r);
    fp = fmemopen((void *)bad, sizeof(bad) - 1, "r");
    assert_int_equal(sweep_csv_read(&r, fp, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "status"));
    fclose(fp);
    sweep_results_free(&r);
}

/* seeds/001 2.1: Type-X above 20% idle; else Type-C if RACT > 0.66, else Type-M. */
static void test_sweep_class_dyncta(void **state)
{
    (void)state;
    assert_string_equal(sweep_class_dyncta(0.9, 0.21), "Type-X");
    assert_string_equal(sweep_class_dyncta(0.9, 0.20), "Type-C");
    assert_string_equal(sweep_class_dyncta(0.67, 0.0), "Type-C");
    assert_string_equal(sweep_class_dyncta(0.66, 0.0), "Type-M");
    assert_string_equal(sweep_class_dyncta(0.1, 0.05), "Type-M");
    assert_string_equal(sweep_class_dyncta(NAN, 0.05), "-");
}

/* seeds/004 2: HCS gain 3x or more with a much larger L1D; MCS from 1.2 (ours); else CI. */
static void test_sweep_class_ccws(void **state)
{
    (void)state;
    assert_string_equal(sweep_class_ccws(3.0), "HCS");
    assert_string_equal(sweep_class_ccws(2.99), "MCS");
    assert_string_equal(sweep_class_ccws(1.2), "MCS");
    assert_string_equal(sweep_class_ccws(1.19), "CI");
    assert_string_equal(sweep_class_ccws(0.8), "CI");
    assert_string_equal(sweep_class_ccws(NAN), "-");
}

static void test_sweep_classify_write(void **state)
{
    struct sweep_results r = {0};
    struct sweep_row base = make_row("w", "irregular", "base", 10, SWEEP_PASS);
    struct sweep_row big = make_row("w", "irregular", "l1big", 35, SWEEP_PASS);
    char *buf = NULL, err[128];
    size_t len = 0;
    FILE *fp;

    (void)state;
    base.v[SWEEP_COL_RACT] = 0.3;
    base.v[SWEEP_COL_IDLE_FRAC] = 0.1;
    base.v[SWEEP_COL_C_IDLE] = 1;
    base.v[SWEEP_COL_C_MEM] = 3;
    fp = open_memstream(&buf, &len);
    assert_int_equal(sweep_classify_write(&r, fp, err, sizeof(err)), -1);
    sweep_results_add(&r, &base);
    sweep_results_add(&r, &big);
    assert_int_equal(sweep_classify_write(&r, fp, err, sizeof(err)), 0);
    fclose(fp);
    assert_non_null(strstr(buf, "| w | irregular | 0.300 | 0.100 | 0.250 | Type-M | 10.00 | "
                                "35.00 | 3.50 | HCS |"));
    free(buf);
    sweep_results_free(&r);
}

static void test_sweep_summary_deterministic(void **state)
{
    struct sweep_results r = {0};
    char *a = NULL, *b = NULL;
    size_t la = 0, lb = 0;
    FILE *fa, *fb;

    (void)state;
    fill(&r);
    fa = open_memstream(&a, &la);
    fb = open_memstream(&b, &lb);
    sweep_summary_write(&r, "v", fa);
    sweep_summary_write(&r, "v", fb);
    fclose(fa);
    fclose(fb);
    assert_int_equal(la, lb);
    assert_memory_equal(a, b, la);
    /* normalised to v: a 0.5, b 2.0; c's failed run shows its status */
    assert_non_null(strstr(a, "| a | x | 20.00 | 0.500 | 1.000 |"));
    assert_non_null(strstr(a, "| c | y | fail | - | fail |"));
    assert_non_null(strstr(a, "| **gmean** | all |  | 1.000 | 1.000 |"));
    free(a);
    free(b);
    sweep_results_free(&r);
}

static void test_sweep_catalog_lines(void **state)
{
    struct sweep_workload w;

    (void)state;
    assert_true(sweep_catalog_parse_line("// WORKLOAD: bfs | irregular | BFS | with a bar\n", &w));
    assert_string_equal(w.name, "bfs");
    assert_string_equal(w.wclass, "irregular");
    assert_string_equal(w.desc, "BFS | with a bar");
    assert_false(w.ocl);
    assert_true(sweep_catalog_parse_line("/* WORKLOAD-OCL: bfs_ocl | irregular | BFS */", &w));
    assert_string_equal(w.name, "bfs_ocl");
    assert_string_equal(w.desc, "BFS");
    assert_true(w.ocl);
    assert_false(sweep_catalog_parse_line("/* WORKLOAD-OCL: bfs | irregular | x */", &w));
    assert_false(sweep_catalog_parse_line("// WORKLOAD: a b | irregular | x", &w));
    assert_false(sweep_catalog_parse_line("// WORKLOAD: a | irregular", &w));
    assert_false(sweep_catalog_parse_line("#include <x>", &w));
}

static void test_sweep_variant_parse(void **state)
{
    struct sweep_variant v;
    char err[256];

    (void)state;
    assert_int_equal(sweep_variant_parse("base", &v, err, sizeof(err)), 0);
    assert_string_equal(v.name, "base");
    assert_int_equal(v.nopts, 0);
    sweep_variant_free(&v);
    assert_int_equal(sweep_variant_parse("l1big:gpgpu_cache:dl1=N:512:128:8,L:L:m:N:H,S:64:8,8,"
                                         "-gpgpu_scheduler=lrr",
                                         &v, err, sizeof(err)),
                     0);
    assert_string_equal(v.name, "l1big");
    assert_int_equal(v.nopts, 2);
    assert_string_equal(v.opts[0], "gpgpu_cache:dl1=N:512:128:8,L:L:m:N:H,S:64:8,8");
    assert_string_equal(v.opts[1], "-gpgpu_scheduler=lrr");
    sweep_variant_free(&v);
    /* Policy arguments with commas: only a name the option table knows starts an option. */
    assert_int_equal(sweep_variant_parse("c64:gpgpu_scheduler=ccws:decay=inst,vta_entries=64,"
                                         "gpgpu_num_sched_per_core=1",
                                         &v, err, sizeof(err)),
                     0);
    assert_int_equal(v.nopts, 2);
    assert_string_equal(v.opts[0], "gpgpu_scheduler=ccws:decay=inst,vta_entries=64");
    assert_string_equal(v.opts[1], "gpgpu_num_sched_per_core=1");
    sweep_variant_free(&v);
    assert_int_equal(sweep_variant_parse("a b:x=1", &v, err, sizeof(err)), -1);
    sweep_variant_free(&v);
    assert_int_equal(sweep_variant_parse(":x=1", &v, err, sizeof(err)), -1);
    sweep_variant_free(&v);
    assert_int_equal(sweep_variant_parse("a:x", &v, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "option=value"));
    sweep_variant_free(&v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sweep_json_valid),
        cmocka_unit_test(test_sweep_json_truncated),
        cmocka_unit_test(test_sweep_json_deep_nesting),
        cmocka_unit_test(test_sweep_json_paths),
        cmocka_unit_test(test_sweep_rows_from_stats),
        cmocka_unit_test(test_sweep_row_from_json),
        cmocka_unit_test(test_sweep_means),
        cmocka_unit_test(test_sweep_table_normalise),
        cmocka_unit_test(test_sweep_csv_roundtrip),
        cmocka_unit_test(test_sweep_svg_axis),
        cmocka_unit_test(test_sweep_csv_errors),
        cmocka_unit_test(test_sweep_class_dyncta),
        cmocka_unit_test(test_sweep_class_ccws),
        cmocka_unit_test(test_sweep_classify_write),
        cmocka_unit_test(test_sweep_summary_deterministic),
        cmocka_unit_test(test_sweep_catalog_lines),
        cmocka_unit_test(test_sweep_variant_parse),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
