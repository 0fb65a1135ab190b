/*
 * Unit tests for the application lists of `ptxsim sweep` (tools/sweep_apps*):
 * command words and placeholders, ptxsim's YAML form with its checks and
 * errors (file and line in the message), Accel-Sim's define-*-apps.yml
 * shape, and the bundled suite as a list.
 */
#define _GNU_SOURCE /* mkdtemp, setenv */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "tools/sweep_apps.h"
#include "tools/sweep_catalog.h"

static char dir[PATH_MAX];

static int make_dir(void **state)
{
    char tmpl[] = "/tmp/ptxsim-apps.XXXXXX";

    (void)state;
    if (!mkdtemp(tmpl) || !realpath(tmpl, dir))
        return -1;
    return 0;
}

static int remove_dir(void **state)
{
    char cmd[PATH_MAX + 16];

    (void)state;
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Writes text to DIR/name and loads it; returns sweep_apps_load's status. */
static int load(const char *name, const char *text, struct sweep_apps *a, char *err, size_t len)
{
    char path[PATH_MAX + 64];
    FILE *fp;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
    return sweep_apps_load(a, path, err, len);
}

static void test_apps_split(void **state)
{
    char err[128], **v;

    (void)state;
    v = sweep_apps_split("  ./prog -n 4 'a b' \"c \\\"d\\\"\" e\\ f  ", err, sizeof(err));
    assert_non_null(v);
    assert_string_equal(v[0], "./prog");
    assert_string_equal(v[2], "4");
    assert_string_equal(v[3], "a b");
    assert_string_equal(v[4], "c \"d\"");
    assert_string_equal(v[5], "e f");
    assert_null(v[6]);
    sweep_apps_argv_free(v);
    assert_null(sweep_apps_split("./p 'open", err, sizeof(err)));
    assert_non_null(strstr(err, "unclosed quote"));
    assert_null(sweep_apps_split("   ", err, sizeof(err)));
    assert_string_equal(err, "empty command");
}

static void test_apps_expand(void **state)
{
    char *s;

    (void)state;
    s = sweep_apps_expand("-s {size} -o {rundir}/o{size}.txt", "small", "/r/x.d");
    assert_string_equal(s, "-s small -o /r/x.d/osmall.txt");
    free(s);
    s = sweep_apps_expand("{size}{rundir}{other}", NULL, "R");
    assert_string_equal(s, "{size}R{other}");
    free(s);
}

static void test_apps_ptxsim_form(void **state)
{
    static const char text[] = "# a list\n"
                               "apps:\n"
                               "  - name: one\n"
                               "    command: ./p -n 8 data/in.txt\n"
                               "    class: compute\n"
                               "    check: {stdout: '^OK$', exit: 3}\n"
                               "  - name: two\n"
                               "    dir: sub\n"
                               "    command: [../p, '{size}', \"{rundir}/o.txt\"]\n"
                               "    check:\n"
                               "      file: '{rundir}/o.txt'\n"
                               "      expect: ref.txt\n";
    struct sweep_apps a;
    char err[512], sub[PATH_MAX + 8];

    (void)state;
    snprintf(sub, sizeof(sub), "%s/sub", dir);
    assert_int_equal(mkdir(sub, 0777), 0);
    assert_int_equal(load("apps.yml", text, &a, err, sizeof(err)), 0);
    assert_int_equal(a.n, 2);
    assert_string_equal(a.v[0].name, "one");
    assert_string_equal(a.v[0].wclass, "compute");
    assert_string_equal(a.v[0].dir, dir); /* the list's directory */
    assert_string_equal(a.v[0].argv[3], "data/in.txt");
    assert_null(a.v[0].argv[4]);
    assert_int_equal(a.v[0].check.exit_status, 3);
    assert_string_equal(a.v[0].check.stdout_re, "^OK$");
    assert_false(a.v[0].sized);
    assert_string_equal(a.v[1].wclass, "-");
    assert_string_equal(a.v[1].dir, sub);
    assert_true(a.v[1].sized);
    assert_int_equal(a.v[1].check.exit_status, 0);
    assert_string_equal(a.v[1].check.expect, "ref.txt");
    assert_ptr_equal(sweep_apps_find(&a, "two"), &a.v[1]);
    assert_null(sweep_apps_find(&a, "three"));
    sweep_apps_free(&a);
}

/* Each mistake is refused with the file, the line and what is wrong. */
static void test_apps_errors(void **state)
{
    static const struct {
        const char *text, *msg;
    } cases[] = {
        {"apps:\n  - name: a\n    command: ./x\n    chek: {}\n", "bad.yml:4: unknown key 'chek'"},
        {"apps:\n  - name: a/b\n    command: ./x\n", "bad.yml:2: name 'a/b'"},
        {"apps:\n  - name: a\n    command: ./x\n  - name: a\n    command: ./y\n", "appears twice"},
        {"apps:\n  - name: a\n    command: ./x\n    dir: nowhere\n", "nowhere"},
        {"apps:\n  - name: a\n", "needs a name and a command"},
        {"apps:\n  - name: a\n    command: ./x\n    check: {stdout: '(['}\n", "not a POSIX"},
        {"apps:\n  - name: a\n    command: ./x\n    check: {expect: r}\n", "go together"},
        {"apps:\n  - name: a\n    command: ./x\n    check: {exit: -1}\n", "0 to 255"},
        {"apps: [\n", "bad.yml:2:"},
        {"apps: []\n", "no apps"},
        {"apps: []\nmore: 1\n", "only `apps:`"},
        {"[1, 2]\n", "at the top"},
    };
    struct sweep_apps a;
    char err[512];

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        err[0] = '\0';
        assert_int_equal(load("bad.yml", cases[i].text, &a, err, sizeof(err)), -1);
        if (!strstr(err, cases[i].msg))
            fail_msg("case %zu: '%s' lacks '%s'", i, err, cases[i].msg);
        sweep_apps_free(&a);
    }
}

static void test_apps_accel_form(void **state)
{
    static const char text[] = "suite-a:\n"
                               "    exec_dir: \"${APPS_TEST_BIN}/bin/\"\n"
                               "    data_dirs: \"$APPS_TEST_BIN/data_dirs/\"\n"
                               "    execs:\n"
                               "        - prog-1.0:\n"
                               "            - -i ./data/x.txt 4\n"
                               "            - \n"
                               "        - solo:\n"
                               "            - 12 small\n"
                               "        - bare:\n";
    struct sweep_apps a;
    char err[512], path[PATH_MAX + 64];

    (void)state;
    setenv("APPS_TEST_BIN", dir, 1);
    snprintf(path, sizeof(path), "%s/data_dirs", dir);
    assert_int_equal(mkdir(path, 0777), 0);
    snprintf(path, sizeof(path), "%s/data_dirs/solo", dir);
    assert_int_equal(mkdir(path, 0777), 0);
    assert_int_equal(load("accel.yml", text, &a, err, sizeof(err)), 0);
    assert_int_equal(a.n, 4);
    assert_string_equal(a.v[0].name, "prog-1_0-1"); /* '.' is not a name character */
    assert_string_equal(a.v[1].name, "prog-1_0-2");
    assert_null(a.v[1].argv[1]); /* the empty argument string */
    snprintf(path, sizeof(path), "%s/bin//prog-1.0", dir);
    assert_string_equal(a.v[0].argv[0], path);
    assert_string_equal(a.v[0].argv[2], "./data/x.txt");
    snprintf(path, sizeof(path), "%s/bin/", dir); /* no data_dirs/prog-1.0: exec_dir */
    assert_string_equal(a.v[0].dir, path);
    assert_string_equal(a.v[2].name, "solo");
    snprintf(path, sizeof(path), "%s/data_dirs//solo", dir);
    assert_string_equal(a.v[2].dir, path);
    assert_string_equal(a.v[3].name, "bare");
    assert_int_equal(a.v[3].check.exit_status, 0);
    assert_null(a.v[3].check.stdout_re);
    sweep_apps_free(&a);
    unsetenv("APPS_TEST_BIN");
    assert_int_equal(load("accel.yml", text, &a, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "$APPS_TEST_BIN is not set"));
    sweep_apps_free(&a);
}

static void test_apps_from_catalog(void **state)
{
    struct sweep_catalog c = {0};
    struct sweep_workload w;
    struct sweep_apps a;

    (void)state;
    assert_true(sweep_catalog_parse_line("// WORKLOAD: bfs | irregular | graphs", &w));
    c.w = &w;
    c.n = 1;
    assert_int_equal(sweep_apps_from_catalog(&a, &c, "/b/bin"), 0);
    assert_int_equal(a.n, 1);
    assert_string_equal(a.v[0].argv[0], "/b/bin/bfs");
    assert_string_equal(a.v[0].argv[1], "{size}");
    assert_true(a.v[0].sized);
    assert_string_equal(a.v[0].dir, "/b/bin");
    assert_string_equal(a.v[0].wclass, "irregular");
    assert_string_equal(a.v[0].check.stdout_re, "^PASS bfs {size}\r?$");
    sweep_apps_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_apps_split),       cmocka_unit_test(test_apps_expand),
        cmocka_unit_test(test_apps_ptxsim_form), cmocka_unit_test(test_apps_errors),
        cmocka_unit_test(test_apps_accel_form),  cmocka_unit_test(test_apps_from_catalog),
    };

    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
