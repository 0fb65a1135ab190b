/*
 * Unit tests of frontend/ptx_link: several translation units' PTX joined
 * into one module. The linked text is parsed with ptx_parse and the module
 * checked: extern declarations bound to other units' definitions (functions
 * and variables, in either order), one copy of a .weak definition, clashing
 * file-scope symbols renamed per unit, .file/.loc numbers moved apart, the
 * highest .version; and the errors: two strong definitions, units that
 * disagree on .address_size, a statement that never ends, no units; malformed
 * text never crashes it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "frontend/ptx_link.h"
#include "frontend/ptx_parse.h"
#include "isa/module.h"

static const char unit_a[] = ".version 8.0\n.target sm_75\n.address_size 64\n"
                             ".extern .func (.param .b32 r) twice(.param .b32 x);\n"
                             ".extern .global .align 4 .u32 counter;\n"
                             ".global .align 1 .b8 $str[3] = {104, 105, 0};\n"
                             ".weak .func (.param .b32 r) helper(.param .b32 x)\n{\n"
                             "  .reg .b32 %r<2>;\n  ld.param.b32 %r1, [x];\n"
                             "  st.param.b32 [r], %r1;\n  ret;\n}\n"
                             ".visible .entry ka(.param .u64 p)\n{\n"
                             "  .reg .b32 %r<4>;\n  .reg .b64 %rd<3>;\n"
                             "  .loc 1 7 3\n"
                             "  ld.global.u32 %r1, [counter];\n"
                             "  { .param .b32 a; .param .b32 b; st.param.b32 [a], %r1;\n"
                             "    call.uni (b), twice, (a); ld.param.b32 %r2, [b]; }\n"
                             "  mov.u64 %rd1, $str;\n  ld.param.u64 %rd2, [p];\n"
                             "  st.global.u32 [%rd2], %r2;\n  ret;\n}\n"
                             ".file 1 \"a.cu\"\n";

static const char unit_b[] =
    ".version 8.3\n.target sm_75\n.address_size 64\n"
    ".visible .global .align 4 .u32 counter = 21;\n"
    ".global .align 1 .b8 $str[4] = {121, 111, 117, 0};\n"
    ".weak .func (.param .b32 r) helper(.param .b32 x)\n{\n"
    "  .reg .b32 %r<2>;\n  ld.param.b32 %r1, [x];\n"
    "  st.param.b32 [r], %r1;\n  ret;\n}\n"
    ".visible .func (.param .b32 r) twice(.param .b32 x)\n{\n"
    "  .reg .b32 %r<3>;\n  .reg .b64 %rd<1>;\n  .loc 1 4 1\n  ld.param.b32 %r1, [x];\n"
    "  add.s32 %r2, %r1, %r1;\n  mov.u64 %rd0, $str;\n"
    "  st.param.b32 [r], %r2;\n  ret;\n}\n"
    ".file 1 \"b.cu\"\n";

static char *link2(const char *a, const char *b, int *rc, struct ps_err *err)
{
    struct ptx_link_unit u[2] = {{a, strlen(a)}, {b, strlen(b)}};
    char *out = NULL;
    size_t len = 0;

    *rc = ptx_link(u, 2, &out, &len, err);
    if (!*rc)
        assert_int_equal(strlen(out), len);
    return out;
}

static void test_link_resolves_across_units(void **state)
{
    struct ps_err err;
    int rc;
    char *text;
    struct isa_module *m;
    uint32_t v;

    (void)state;
    text = link2(unit_a, unit_b, &rc, &err);
    assert_int_equal(rc, 0);
    m = ptx_parse(text, strlen(text), "linked.ptx", &err);
    if (!m)
        print_error("%s\n%s\n", err.msg, text);
    assert_non_null(m);
    assert_int_equal(m->version_major, 8);
    assert_int_equal(m->version_minor, 3);
    v = isa_module_find_var(m, "counter");
    assert_int_not_equal(v, ISA_NONE);
    assert_true(m->vars[v].has_init); /* the extern declaration took b's definition */
    assert_int_not_equal(isa_module_find_var(m, "$str_ptxsim_tu0"), ISA_NONE);
    assert_int_not_equal(isa_module_find_var(m, "$str_ptxsim_tu1"), ISA_NONE);
    assert_int_equal(isa_module_find_var(m, "$str"), ISA_NONE);
    assert_true(m->funcs[isa_module_find_func(m, "twice")]->has_body);
    assert_true(m->funcs[isa_module_find_func(m, "helper")]->has_body);
    assert_non_null(strstr(text, ".file 2 \"b.cu\""));
    assert_non_null(strstr(text, ".loc 2 4 1"));
    assert_non_null(strstr(text, ".loc 1 7 3"));
    /* one copy of the .weak helper */
    assert_ptr_equal(strstr(strstr(text, ".weak") + 1, ".weak"), NULL);
    isa_module_destroy(m);
    free(text);
}

static void test_link_errors(void **state)
{
    struct ps_err err;
    int rc;
    char *out;
    size_t len;
    const char *def = ".version 8.0\n.target sm_75\n.address_size 64\n"
                      ".visible .global .u32 g = 1;\n";
    const char *a32 = ".version 8.0\n.target sm_75\n.address_size 32\n";
    const char *open = ".version 8.0\n.target sm_75\n.address_size 64\n"
                       ".visible .entry k()\n{\n ret;\n";

    (void)state;
    out = link2(def, def, &rc, &err);
    assert_int_equal(rc, PS_EINVAL);
    assert_non_null(strstr(err.msg, "multiple definitions of 'g'"));
    assert_null(out);
    out = link2(def, a32, &rc, &err);
    assert_int_equal(rc, PS_EINVAL);
    assert_non_null(strstr(err.msg, ".address_size"));
    out = link2(def, open, &rc, &err);
    assert_int_equal(rc, PS_EPARSE);
    assert_int_equal(ptx_link(NULL, 0, &out, &len, &err), PS_EINVAL);
}

/* Malformed units never crash the linker: each gives an error or text for the parser. */
static void test_link_malformed(void **state)
{
    static const char *const bad[] = {
        ".version",
        ".version 8.0\n.visible .func (.param .b32 r)",
        "\"unterminated",
        "/* unterminated comment",
        ".visible .func ;",
        ".global .u32 ;",
        "{ } } ;",
        ".file 99999999999999999999999 \"x\"\n",
        ".version 8.0 /* x */ .target",
    };
    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct ptx_link_unit u[2] = {{bad[i], strlen(bad[i])}, {unit_b, strlen(unit_b)}};
        struct ps_err err;
        char *out = NULL;
        size_t len = 0;
        int rc = ptx_link(u, 2, &out, &len, &err);

        assert_true(rc == 0 || rc == PS_EPARSE || rc == PS_EINVAL);
        assert_true(rc ? out == NULL : out != NULL);
        free(out);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_link_resolves_across_units),
        cmocka_unit_test(test_link_errors),
        cmocka_unit_test(test_link_malformed),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
