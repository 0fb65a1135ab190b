/*
 * Unit tests for common/config: the option table, GPGPU-Sim config files, -o overrides,
 * the text and JSON printouts, range checks and the list parsers. The shipped machine
 * descriptions in configs/ are found through $srcdir (the top source dir, set by the test
 * harness), falling back to ".".
 */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/config.h"
#include "common/err.h"

static const char *const machines[] = {"gtx480", "dyncta-30core", "ccws-30core", "bypass-gtx480"};

static char *config_path(const char *machine)
{
    const char *top = getenv("srcdir");
    size_t n = strlen(top ? top : ".") + strlen(machine) + 16;
    char *p = malloc(n);

    assert_non_null(p);
    snprintf(p, n, "%s/configs/%s", top ? top : ".", machine);
    return p;
}

/* The text or JSON printout of c as a malloc'd string. */
static char *printout(const struct ps_config *c, bool json)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    assert_non_null(f);
    if (json)
        ps_config_print_json(c, f);
    else
        ps_config_print(c, f);
    assert_int_equal(fclose(f), 0);
    return buf;
}

static void load_machine(struct ps_config *c, const char *machine)
{
    struct ps_err err;
    char *path = config_path(machine);
    int rc;

    ps_config_init(c);
    ps_err_clear(&err);
    rc = ps_config_load_file(c, path, &err);
    if (rc)
        ps_err_print(&err, stderr);
    assert_int_equal(rc, 0);
    free(path);
}

/* Writes text to a fresh temporary file; the caller unlinks and frees the path. */
static char *temp_file(const char *text)
{
    char *path = strdup("/tmp/ptxsim_test_config_XXXXXX");
    int fd;

    assert_non_null(path);
    fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    assert_int_equal(close(fd), 0);
    return path;
}

static void test_config_defaults_are_gtx480(void **state)
{
    struct ps_config def, gtx;
    struct ps_err err;
    char *a, *b;

    (void)state;
    ps_config_init(&def);
    load_machine(&gtx, "gtx480");
    /* configs/gtx480 sets GPGPU-Sim's GTX 480 values, and those are the defaults, so the
     * two printouts agree on every option, the ones the file leaves out included. */
    a = printout(&def, true);
    b = printout(&gtx, true);
    assert_string_equal(a, b);
    free(a);
    free(b);
    assert_int_equal(ps_config_check(&def, &err), 0);
    assert_int_equal(def.gpgpu_n_clusters * def.gpgpu_n_cores_per_cluster, 15);
    assert_string_equal(def.gpgpu_clock_domains, "700.0:700.0:700.0:924.0");
    assert_string_equal(def.gpgpu_cache_dl1, "N:32:128:4,L:L:m:N:H,S:64:8,8");
    assert_string_equal(def.gpgpu_scheduler, "gto");
    assert_int_equal(def.gpgpu_num_sched_per_core, 2);
    assert_int_equal(def.gpgpu_l1_latency, 35);
    assert_true(def.gpgpu_flush_l1_cache);
    assert_int_equal(def.ptxsim_sample_period, 2048);
    /* the file's quoted two-line timing string is joined without the line break */
    assert_string_equal(gtx.gpgpu_dram_timing_opt, "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:"
                                                   "RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:"
                                                   "CCDL=3:RTPL=2");
    ps_config_free(&def);
    ps_config_free(&gtx);
}

static void test_config_machines_load_and_check(void **state)
{
    struct ps_config c;
    struct ps_err err;

    (void)state;
    for (size_t i = 0; i < sizeof(machines) / sizeof(machines[0]); i++) {
        load_machine(&c, machines[i]);
        ps_err_clear(&err);
        if (ps_config_check(&c, &err))
            ps_err_print(&err, stderr);
        assert_int_equal(ps_config_check(&c, &err), 0);
        ps_config_free(&c);
    }
    load_machine(&c, "dyncta-30core");
    assert_int_equal(c.gpgpu_n_clusters * c.gpgpu_n_cores_per_cluster, 30);
    assert_int_equal(c.gpgpu_frfcfs_dram_sched_queue_size, 128);
    assert_string_equal(c.gpgpu_scheduler, "lrr");
    ps_config_free(&c);
    load_machine(&c, "ccws-30core");
    assert_int_equal(c.gpgpu_shader_registers, 16384);
    assert_string_equal(c.gpgpu_cache_dl1, "N:32:128:8,L:L:m:N:L,A:16:4,4");
    ps_config_free(&c);
    load_machine(&c, "bypass-gtx480");
    assert_int_equal(c.gpgpu_frfcfs_dram_sched_queue_size, 16);
    assert_int_equal(c.gpgpu_n_mem * c.gpgpu_n_sub_partition_per_mchannel, 6);
    ps_config_free(&c);
}

static void test_config_override(void **state)
{
    struct ps_config c;
    struct ps_err err;

    (void)state;
    ps_config_init(&c);
    assert_int_equal(ps_config_override(&c, "gpgpu_n_clusters=4", &err), 0);
    assert_int_equal(ps_config_override(&c, "-gpgpu_scheduler=lrr", &err), 0);
    assert_int_equal(ps_config_override(&c, "gpgpu_cache:dl1=none", &err), 0);
    assert_int_equal(ps_config_override(&c, "gpgpu_cache:dl1PrefL1=", &err), 0);
    assert_int_equal(ps_config_override(&c, "gpgpu_clock_domains=1:2:3:4", &err), 0);
    assert_int_equal(c.gpgpu_n_clusters, 4);
    assert_string_equal(c.gpgpu_scheduler, "lrr");
    assert_string_equal(c.gpgpu_cache_dl1, "none");
    assert_string_equal(c.gpgpu_cache_dl1PrefL1, "");
    assert_string_equal(c.gpgpu_clock_domains, "1:2:3:4");
    /* later overrides win */
    assert_int_equal(ps_config_override(&c, "gpgpu_n_clusters=5", &err), 0);
    assert_int_equal(c.gpgpu_n_clusters, 5);
    /* older GPGPU-Sim spellings set the same field */
    assert_int_equal(ps_config_override(&c, "rop_latency=99", &err), 0);
    assert_int_equal(c.gpgpu_l2_rop_latency, 99);
    assert_int_equal(ps_config_set(&c, "gpgpu_shmem_sizePrefL1", "16384", &err), 0);
    assert_int_equal(c.gpgpu_shmem_size_PrefL1, 16384);
    assert_int_equal(ps_config_override(&c, "gpgpu_n_clusters", &err), PS_EINVAL);
    assert_non_null(strstr(err.msg, "name=value"));
    assert_int_equal(ps_config_override(&c, "=5", &err), PS_EINVAL);
    assert_int_equal(ps_config_override(&c, "gpgpu_n_cluster=5", &err), PS_EINVAL);
    assert_string_equal(err.msg,
                        "unknown option '-gpgpu_n_cluster'; did you mean '-gpgpu_n_clusters'?");
    ps_config_free(&c);
}

static void test_config_unknown_option_suggestion(void **state)
{
    struct ps_config c;
    struct ps_err err;

    (void)state;
    ps_config_init(&c);
    assert_int_equal(ps_config_set(&c, "-gpgpu_n_cluster", "4", &err), PS_EINVAL);
    assert_string_equal(err.msg,
                        "unknown option '-gpgpu_n_cluster'; did you mean '-gpgpu_n_clusters'?");
    assert_int_equal(ps_config_set(&c, "gpgpu_n_cluster", "4", &err), PS_EINVAL);
    assert_string_equal(err.msg,
                        "unknown option '-gpgpu_n_cluster'; did you mean '-gpgpu_n_clusters'?");
    assert_int_equal(ps_config_set(&c, "GPGPU_SCHEDULER", "gto", &err), PS_EINVAL);
    assert_string_equal(err.msg,
                        "unknown option '-GPGPU_SCHEDULER'; did you mean '-gpgpu_scheduler'?");
    assert_int_equal(ps_config_set(&c, "n_clusters", "4", &err), PS_EINVAL);
    assert_string_equal(err.msg, "unknown option '-n_clusters'; did you mean '-gpgpu_n_clusters'?");
    assert_int_equal(ps_config_set(&c, "zzqqxx", "4", &err), PS_EINVAL);
    assert_string_equal(err.msg, "unknown option '-zzqqxx'");
    assert_int_equal(c.gpgpu_n_clusters, 15);
    ps_config_free(&c);
}

static void test_config_bad_values(void **state)
{
    static const char *const bad_uint[] = {"abc", "-1", "4294967296", "15x", "", "1.5", "+3"};
    struct ps_config c;
    struct ps_err err;

    (void)state;
    ps_config_init(&c);
    for (size_t i = 0; i < sizeof(bad_uint) / sizeof(bad_uint[0]); i++) {
        assert_int_equal(ps_config_set(&c, "gpgpu_n_clusters", bad_uint[i], &err), PS_EINVAL);
        assert_non_null(strstr(err.msg, "-gpgpu_n_clusters"));
        assert_non_null(strstr(err.msg, "unsigned integer"));
    }
    assert_int_equal(c.gpgpu_n_clusters, 15);
    assert_int_equal(ps_config_set(&c, "gpgpu_max_cycle", "1e6", &err), PS_EINVAL);
    assert_non_null(strstr(err.msg, "-gpgpu_max_cycle"));
    assert_int_equal(ps_config_set(&c, "gpgpu_max_cycle", "99999999999999999999", &err), PS_EINVAL);
    assert_int_equal(ps_config_set(&c, "gpgpu_flush_l1_cache", "2", &err), PS_EINVAL);
    assert_int_equal(ps_config_set(&c, "gpgpu_flush_l1_cache", "yes", &err), PS_EINVAL);
    assert_non_null(strstr(err.msg, "0 or 1"));
    assert_int_equal(ps_config_set(&c, "gpgpu_scheduler", "a\"b", &err), PS_EINVAL);
    assert_int_equal(ps_config_set(&c, "gpgpu_scheduler", "a\nb", &err), PS_EINVAL);
    assert_int_equal(ps_config_set(&c, "gpgpu_scheduler", NULL, &err), PS_EINVAL);
    assert_string_equal(c.gpgpu_scheduler, "gto");
    /* accepted forms: blanks around numbers, hex, signed INT */
    assert_int_equal(ps_config_set(&c, "gpgpu_n_clusters", " 0x10 ", &err), 0);
    assert_int_equal(c.gpgpu_n_clusters, 16);
    assert_int_equal(ps_config_set(&c, "trace_sampling_memory_partition", "-2", &err), 0);
    assert_int_equal(c.trace_sampling_memory_partition, -2);
    assert_int_equal(ps_config_set(&c, "gpgpu_max_insn", "9000000000", &err), 0);
    assert_int_equal(c.gpgpu_max_insn, 9000000000LL);
    assert_int_equal(ps_config_set(&c, "gpgpu_flush_l1_cache", "0", &err), 0);
    assert_false(c.gpgpu_flush_l1_cache);
    ps_config_free(&c);
}

static void test_config_file_error_position(void **state)
{
    struct ps_config c;
    struct ps_err err;
    char *path = temp_file("# a machine\n"
                           "-gpgpu_n_clusters 7\n"
                           "  -gpgpu_n_mem   six  # not a number\n");

    (void)state;
    ps_config_init(&c);
    assert_int_equal(ps_config_set(&c, "gpgpu_n_clusters", "3", &err), 0);
    assert_int_equal(ps_config_load_file(&c, path, &err), PS_EINVAL);
    assert_string_equal(err.file, path);
    assert_int_equal(err.line, 3);
    assert_int_equal(err.col, 18);
    assert_non_null(strstr(err.msg, "-gpgpu_n_mem"));
    /* a failed load changes nothing, not even the lines before the error */
    assert_int_equal(c.gpgpu_n_clusters, 3);
    unlink(path);
    free(path);

    path = config_path("no-such-machine");
    assert_int_equal(ps_config_load_file(&c, path, &err), PS_EIO);
    assert_string_equal(err.file, path);
    free(path);
    ps_config_free(&c);
}

/* Loads text named "t.cfg" and expects code at line:col. */
static void expect_text_error(const char *text, int code, uint32_t line, uint32_t col)
{
    struct ps_config c;
    struct ps_err err;

    ps_config_init(&c);
    ps_err_clear(&err);
    assert_int_equal(ps_config_load_text(&c, text, "t.cfg", &err), code);
    assert_string_equal(err.file, "t.cfg");
    assert_int_equal(err.line, line);
    assert_int_equal(err.col, col);
    ps_config_free(&c);
}

static void test_config_text_errors(void **state)
{
    struct ps_config c;
    struct ps_err err;

    (void)state;
    expect_text_error("\n-gpgpu_n_mm 6\n", PS_EINVAL, 2, 1);
    expect_text_error("gpgpu_n_mem 6\n", PS_EPARSE, 1, 1);
    expect_text_error("-gpgpu_n_mem 6\n\t- 5\n", PS_EPARSE, 2, 2);
    expect_text_error("-gpgpu_scheduler \"gto\n\n", PS_EPARSE, 1, 18);
    expect_text_error("-gpgpu_scheduler \"a\n  b\" junk\n", PS_EPARSE, 2, 6);
    expect_text_error("-gpgpu_scheduler \"a\n  b\"\n-gpgpu_n_mem x\n", PS_EINVAL, 3, 14);
    ps_config_init(&c);
    assert_int_equal(ps_config_load_text(&c, "-gpgpu_n_cluster 3\n", "t.cfg", &err), PS_EINVAL);
    assert_string_equal(err.msg,
                        "unknown option '-gpgpu_n_cluster'; did you mean '-gpgpu_n_clusters'?");
    ps_config_free(&c);
}

static void test_config_file_syntax(void **state)
{
    struct ps_config c;
    struct ps_err err;

    (void)state;
    ps_config_init(&c);
    assert_int_equal(ps_config_load_text(&c,
                                         "# comment\r\n"
                                         "\r\n"
                                         "-gpgpu_n_clusters 12 # trailing comment\r\n"
                                         "\t-gpgpu_scheduler two_level_active:6:0:1\r\n"
                                         "-trace_components \"A#B, C\"   # quoted '#'\n"
                                         "-gpgpu_dram_timing_opt \"nbk=4:CCD=2:\n"
                                         "        RRD=8:RCD=12\"\n"
                                         "-ptxsim_cta_scheduler my policy  \n"
                                         "-gpgpu_cache:dl1PrefShared\n"
                                         "-gpgpu_n_mem 3",
                                         NULL, &err),
                     0);
    assert_int_equal(c.gpgpu_n_clusters, 12);
    assert_string_equal(c.gpgpu_scheduler, "two_level_active:6:0:1");
    assert_string_equal(c.trace_components, "A#B, C");
    assert_string_equal(c.gpgpu_dram_timing_opt, "nbk=4:CCD=2:RRD=8:RCD=12");
    assert_string_equal(c.ptxsim_cta_scheduler, "my policy");
    assert_string_equal(c.gpgpu_cache_dl1PrefShared, "");
    assert_int_equal(c.gpgpu_n_mem, 3);
    ps_config_free(&c);
}

static void assert_roundtrip(const struct ps_config *c)
{
    struct ps_config again;
    struct ps_err err;
    char *text = printout(c, false), *text2, *json, *json2;

    ps_config_init(&again);
    ps_err_clear(&err);
    if (ps_config_load_text(&again, text, "printout", &err))
        ps_err_print(&err, stderr);
    assert_int_equal(err.code, 0);
    text2 = printout(&again, false);
    assert_string_equal(text, text2);
    json = printout(c, true);
    json2 = printout(&again, true);
    assert_string_equal(json, json2);
    free(text);
    free(text2);
    free(json);
    free(json2);
    ps_config_free(&again);
}

static void test_config_print_roundtrip(void **state)
{
    struct ps_config c;
    struct ps_err err;

    (void)state;
    ps_config_init(&c);
    assert_roundtrip(&c);
    assert_int_equal(ps_config_set(&c, "trace_components", "A # B", &err), 0);
    assert_int_equal(ps_config_set(&c, "visualizer_outputfile", "  lead", &err), 0);
    assert_int_equal(ps_config_set(&c, "ptx_line_stats_filename", "tail\t", &err), 0);
    assert_int_equal(ps_config_set(&c, "gpgpu_scheduler", "two words", &err), 0);
    assert_int_equal(ps_config_set(&c, "gpgpu_cache:dl1", "", &err), 0);
    assert_int_equal(ps_config_set(&c, "trace_sampling_memory_partition", "-7", &err), 0);
    assert_int_equal(ps_config_set(&c, "gpgpu_max_insn", "123456789012", &err), 0);
    assert_roundtrip(&c);
    for (size_t i = 0; i < sizeof(machines) / sizeof(machines[0]); i++) {
        ps_config_free(&c);
        load_machine(&c, machines[i]);
        assert_roundtrip(&c);
    }
    ps_config_free(&c);
}

static void test_config_printouts(void **state)
{
    struct ps_config c;
    struct ps_err err;
    char *text, *json;

    (void)state;
    ps_config_init(&c);
    assert_int_equal(ps_config_set(&c, "trace_components", "a\\b\t\"", &err), PS_EINVAL);
    assert_int_equal(ps_config_set(&c, "trace_components", "a\\b\tc", &err), 0);
    text = printout(&c, false);
    json = printout(&c, true);
    assert_non_null(strstr(text, "\n-gpgpu_n_clusters "));
    assert_non_null(strstr(text, "(not modelled)"));
    assert_non_null(strstr(json, "\"gpgpu_n_clusters\": 15,"));
    assert_non_null(strstr(json, "\"gpgpu_scheduler\": \"gto\","));
    assert_non_null(strstr(json, "\"gpgpu_flush_l1_cache\": true,"));
    assert_non_null(strstr(json, "\"trace_components\": \"a\\\\b\\u0009c\","));
    assert_non_null(strstr(json, "\"gpgpu_cache:dl1\": "));
    assert_int_equal(json[0], '{');
    assert_string_equal(json + strlen(json) - 2, "}\n");
    free(text);
    free(json);
    ps_config_free(&c);
}

static void test_config_not_modelled_marked(void **state)
{
    struct ps_config c;
    char *text, *line, *nl;

    (void)state;
    ps_config_init(&c);
    text = printout(&c, false);
    line = strstr(text, "-power_simulation_enabled ");
    assert_non_null(line);
    nl = strchr(line, '\n');
    assert_non_null(nl);
    *nl = '\0';
    assert_non_null(strstr(line, "# (not modelled)"));
    line = strstr(text, "\n-gpgpu_n_clusters ");
    assert_non_null(line);
    nl = strchr(line, '\n');
    *nl = '\0';
    assert_null(strstr(line, "(not modelled)"));
    free(text);
    ps_config_free(&c);
}

static void test_config_copy_and_free(void **state)
{
    struct ps_config a, b;
    struct ps_err err;
    char *ja, *jb;

    (void)state;
    ps_config_init(&a);
    assert_int_equal(ps_config_set(&a, "gpgpu_scheduler", "lrr", &err), 0);
    assert_int_equal(ps_config_set(&a, "gpgpu_n_clusters", "9", &err), 0);
    assert_int_equal(ps_config_copy(&b, &a), 0);
    ja = printout(&a, true);
    ps_config_free(&a);
    assert_string_equal(a.gpgpu_scheduler, "gto"); /* freed configs hold the defaults */
    jb = printout(&b, true);
    assert_string_equal(ja, jb);
    assert_string_equal(b.gpgpu_scheduler, "lrr");
    ps_config_free(&b);
    ps_config_free(&b);
    free(ja);
    free(jb);
}

static void test_config_lists(void **state)
{
    uint32_t u[8], n;
    double d[4];
    struct ps_err err;

    (void)state;
    assert_int_equal(ps_parse_uint_list("4,13,4,5,145,32", ',', u, 8, &n, &err), 0);
    assert_int_equal(n, 6);
    assert_int_equal(u[0], 4);
    assert_int_equal(u[4], 145);
    assert_int_equal(u[5], 32);
    assert_int_equal(ps_parse_uint_list(" 1 , 2 ", ',', u, 8, &n, &err), 0);
    assert_int_equal(n, 2);
    assert_int_equal(u[1], 2);
    assert_int_equal(ps_parse_uint_list("", ',', u, 8, &n, &err), 0);
    assert_int_equal(n, 0);
    assert_int_equal(ps_parse_uint_list("1,,2", ',', u, 8, &n, &err), PS_EINVAL);
    assert_int_equal(ps_parse_uint_list("1,", ',', u, 8, &n, &err), PS_EINVAL);
    assert_int_equal(ps_parse_uint_list("1,x", ',', u, 8, &n, &err), PS_EINVAL);
    assert_non_null(strstr(err.msg, "item 2"));
    assert_int_equal(ps_parse_uint_list("-1", ',', u, 8, &n, &err), PS_EINVAL);
    assert_int_equal(ps_parse_uint_list("4294967296", ',', u, 8, &n, &err), PS_EINVAL);
    assert_int_equal(ps_parse_uint_list("1:2:3", ':', u, 2, &n, &err), PS_EINVAL);
    assert_non_null(strstr(err.msg, "more than 2"));
    assert_int_equal(ps_parse_double_list("700.0:700.0:700.0:924.0", ':', d, 4, &n, &err), 0);
    assert_int_equal(n, 4);
    assert_true(d[3] == 924.0);
    assert_int_equal(ps_parse_double_list("1e3:0.5", ':', d, 4, &n, &err), 0);
    assert_true(d[0] == 1000.0 && d[1] == 0.5);
    assert_int_equal(ps_parse_double_list("nan", ':', d, 4, &n, &err), PS_EINVAL);
    assert_int_equal(ps_parse_double_list("inf", ':', d, 4, &n, &err), PS_EINVAL);
    assert_int_equal(ps_parse_double_list("1.5x", ':', d, 4, &n, &err), PS_EINVAL);
}

/* Sets name=value on a default config and expects ps_config_check to name the option. */
static void expect_check_error(const char *assignment, const char *needle)
{
    struct ps_config c;
    struct ps_err err;

    ps_config_init(&c);
    assert_int_equal(ps_config_override(&c, assignment, &err), 0);
    ps_err_clear(&err);
    assert_int_equal(ps_config_check(&c, &err), PS_EINVAL);
    if (!strstr(err.msg, needle))
        fail_msg("'%s': message '%s' lacks '%s'", assignment, err.msg, needle);
    ps_config_free(&c);
}

static void test_config_check_errors(void **state)
{
    (void)state;
    expect_check_error("gpgpu_n_clusters=0", "-gpgpu_n_clusters is 0; it must be at least 1");
    expect_check_error("gpgpu_n_mem=0", "-gpgpu_n_mem");
    expect_check_error("gpgpu_max_insn_issue_per_warp=3", "between 1 and 2");
    expect_check_error("gpgpu_simd_model=0", "-gpgpu_simd_model");
    expect_check_error("gpgpu_shader_core_pipeline=1536:16", "warp size must be 32");
    expect_check_error("gpgpu_shader_core_pipeline=1000:32", "multiple of 32");
    expect_check_error("gpgpu_shader_core_pipeline=1536", "-gpgpu_shader_core_pipeline");
    expect_check_error("gpgpu_clock_domains=700:700:700", "core:interconnect:L2:DRAM");
    expect_check_error("gpgpu_clock_domains=700:0:700:924", "interconnect clock");
    expect_check_error("gpgpu_clock_domains=700:x:700:924", "-gpgpu_clock_domains");
    expect_check_error("ptx_opcode_latency_int=4,13,4,5", "-ptx_opcode_latency_int");
    expect_check_error("ptx_opcode_latency_fp=4,13,0,5,39", "value 3 is 0");
    expect_check_error("gpgpu_pipeline_widths=2,1,1,2,1,1,2", "11 to 13 values");
    expect_check_error("gpgpu_dram_partition_queues=64:64", "-gpgpu_dram_partition_queues");
    expect_check_error("gpgpu_n_sub_partition_per_mchannel=3", "power of two");
    expect_check_error("gpgpu_shmem_warp_parts=3", "divide the warp size");
    expect_check_error("ptxsim_cta_scheduler=static", "-ptxsim_cta_limit");
    expect_check_error("ptxsim_icnt_in_buffer_flits=3", "-ptxsim_icnt_in_buffer_flits");
    expect_check_error("gpgpu_scheduler=", "-gpgpu_scheduler must not be empty");
    expect_check_error("gpgpu_cache:dl2=", "-gpgpu_cache:dl2 must not be empty");
}

static void test_config_iteration(void **state)
{
    uint32_t n = ps_config_count();

    (void)state;
    assert_true(n > 100);
    assert_null(ps_config_name(n));
    assert_null(ps_config_help(n));
    assert_null(ps_config_default(n));
    assert_false(ps_config_modelled(n));
    for (uint32_t i = 0; i < n; i++) {
        assert_non_null(ps_config_name(i));
        assert_true(ps_config_help(i)[0] != '\0');
        assert_non_null(ps_config_default(i));
        assert_int_equal(ps_config_find(ps_config_name(i)), (int32_t)i);
    }
    assert_int_equal(ps_config_find("-gpgpu_n_clusters"), ps_config_find("gpgpu_n_clusters"));
    assert_int_equal(ps_config_find("rop_latency"), ps_config_find("gpgpu_l2_rop_latency"));
    assert_int_equal(ps_config_find("nope"), -1);
    assert_false(ps_config_modelled((uint32_t)ps_config_find("power_simulation_enabled")));
    assert_false(ps_config_modelled((uint32_t)ps_config_find("inter_config_file")));
    assert_true(ps_config_modelled((uint32_t)ps_config_find("gpgpu_n_clusters")));
    assert_true(ps_config_modelled((uint32_t)ps_config_find("ptxsim_sample_period")));
    assert_string_equal(ps_config_default((uint32_t)ps_config_find("gpgpu_scheduler")), "gto");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_config_defaults_are_gtx480),
        cmocka_unit_test(test_config_machines_load_and_check),
        cmocka_unit_test(test_config_override),
        cmocka_unit_test(test_config_unknown_option_suggestion),
        cmocka_unit_test(test_config_bad_values),
        cmocka_unit_test(test_config_file_error_position),
        cmocka_unit_test(test_config_text_errors),
        cmocka_unit_test(test_config_file_syntax),
        cmocka_unit_test(test_config_print_roundtrip),
        cmocka_unit_test(test_config_printouts),
        cmocka_unit_test(test_config_not_modelled_marked),
        cmocka_unit_test(test_config_copy_and_free),
        cmocka_unit_test(test_config_lists),
        cmocka_unit_test(test_config_check_errors),
        cmocka_unit_test(test_config_iteration),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
