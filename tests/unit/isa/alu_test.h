/*
 * Shared by the isa/alu unit tests: parses one instruction inside a small
 * kernel (so the decoder is exercised too) and runs a table of cases
 * through isa_alu_exec(). Case i runs in lane 2*i of a warp whose odd lanes
 * are masked off; those must keep their old value. Expected values are
 * literals from the PTX ISA and IEEE 754, never computed by the code under
 * test.
 */
#ifndef PTXSIM_TESTS_ALU_TEST_H
#define PTXSIM_TESTS_ALU_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "common/err.h"
#include "frontend/ptx_parse.h"
#include "isa/alu.h"
#include "isa/module.h"

#define SENTINEL UINT64_C(0x5a5a5a5a5a5a5a5a)

/* One lane: sources, expected d (and d2 / carry-out when checked), carry-in. */
struct vc {
    uint64_t a, b, c, x; /* s[0..3] */
    uint64_t d, d2;      /* expected */
    uint8_t ci, co;      /* carry in, expected carry out */
};

enum { CHK_D2 = 1, CHK_CC = 2 };

static inline uint64_t fb(float f)
{
    uint32_t u;

    memcpy(&u, &f, sizeof(u));
    return u;
}

static inline uint64_t db(double f)
{
    uint64_t u;

    memcpy(&u, &f, sizeof(u));
    return u;
}

/* Parses `instr` inside a kernel; the module is owned by the caller. */
static inline struct isa_module *parse_instr(const char *instr, const struct isa_instr **in)
{
    char text[2048];
    struct ps_err err;
    struct isa_module *m;

    snprintf(text, sizeof(text),
             ".version 8.5\n.target sm_90\n.address_size 64\n"
             ".visible .entry k()\n{\n"
             "  .reg .pred %%p<8>;\n  .reg .b16 %%h<8>;\n  .reg .b32 %%r<8>;\n"
             "  .reg .b64 %%rd<8>;\n  .reg .f32 %%f<8>;\n  .reg .f64 %%fd<8>;\n"
             "  %s\n}\n",
             instr);
    m = ptx_parse(text, strlen(text), "alu_test.ptx", &err);
    if (!m)
        fail_msg("parse of '%s' failed: %s", instr, err.msg);
    *in = &m->funcs[0]->instrs[0];
    return m;
}

/* Runs instr on the cases (at most 16); flags add d2 / carry checks. */
static inline void run_cases_f(const char *instr, const struct vc *cs, unsigned n, unsigned flags)
{
    uint64_t d[ISA_ALU_LANES], d2[ISA_ALU_LANES], s[4][ISA_ALU_LANES];
    uint8_t cc[ISA_ALU_LANES];
    const struct isa_instr *in;
    struct isa_module *m = parse_instr(instr, &in);
    struct isa_alu_args a = {in, 0, d, d2, {s[0], s[1], s[2], s[3]}, cc};
    int rc;

    assert_true(n <= ISA_ALU_LANES / 2);
    for (unsigned l = 0; l < ISA_ALU_LANES; l++) {
        const struct vc *c = &cs[(l / 2) % n];

        bool on = !(l & 1) && l / 2 < n;

        d[l] = d2[l] = SENTINEL;
        s[0][l] = c->a;
        s[1][l] = c->b;
        s[2][l] = c->c;
        s[3][l] = c->x;
        cc[l] = on ? c->ci : 0x77;
        if (on)
            a.mask |= UINT32_C(1) << l;
    }
    rc = isa_alu_exec(&a);
    if (rc)
        fail_msg("'%s' returned %d", instr, rc);
    for (unsigned l = 0; l < ISA_ALU_LANES; l++) {
        const struct vc *c = &cs[l / 2 % n];
        bool on = a.mask >> l & 1;

        if (d[l] != (on ? c->d : SENTINEL))
            fail_msg("'%s' case %u lane %u: d = 0x%llx, expected 0x%llx", instr, l / 2, l,
                     (unsigned long long)d[l], (unsigned long long)(on ? c->d : SENTINEL));
        if ((flags & CHK_D2) && d2[l] != (on ? c->d2 : SENTINEL))
            fail_msg("'%s' case %u: d2 = 0x%llx, expected 0x%llx", instr, l / 2,
                     (unsigned long long)d2[l], (unsigned long long)(on ? c->d2 : SENTINEL));
        if ((flags & CHK_CC) && cc[l] != (on ? c->co : 0x77))
            fail_msg("'%s' case %u: carry %u, expected %u", instr, l / 2, cc[l], on ? c->co : 0x77);
    }
    isa_module_destroy(m);
}

#define RUN(instr, ...)                                                                            \
    do {                                                                                           \
        static const struct vc cs_[] = {__VA_ARGS__};                                              \
        run_cases_f(instr, cs_, sizeof(cs_) / sizeof(cs_[0]), 0);                                  \
    } while (0)

#define RUN_F(instr, flags, ...)                                                                   \
    do {                                                                                           \
        static const struct vc cs_[] = {__VA_ARGS__};                                              \
        run_cases_f(instr, cs_, sizeof(cs_) / sizeof(cs_[0]), flags);                              \
    } while (0)

/* The return code of isa_alu_exec for instr on one lane of zeros. */
static inline int exec_rc(const char *instr, bool with_cc)
{
    uint64_t d[ISA_ALU_LANES], d2[ISA_ALU_LANES], s[4][ISA_ALU_LANES];
    uint8_t cc[ISA_ALU_LANES];
    const struct isa_instr *in;
    struct isa_module *m = parse_instr(instr, &in);
    struct isa_alu_args a = {in, 1, d, d2, {s[0], s[1], s[2], s[3]}, with_cc ? cc : NULL};
    int rc;

    memset(s, 0, sizeof(s));
    memset(cc, 0, sizeof(cc));
    d[0] = SENTINEL;
    rc = isa_alu_exec(&a);
    if (rc)
        assert_int_equal(d[0], SENTINEL); /* nothing written on failure */
    isa_module_destroy(m);
    return rc;
}

#endif
