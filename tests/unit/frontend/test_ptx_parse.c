/*
 * Unit tests for frontend/ptx_parse on valid input: small inline PTX modules
 * whose decoded representation (isa/module.h) is checked field by field, a
 * round trip (parse -> print -> parse -> isa_module_equal) over the PTX corpus
 * under $srcdir/tests/ptx, and isa_resources_of on a kernel that touches every
 * kind of on-chip memory. Malformed input is covered by test_ptx_errors.c.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/err.h"
#include "frontend/ptx_parse.h"
#include "isa/module.h"
#include "isa/print.h"
#include "isa/resources.h"

#define HDR ".version 8.0\n.target sm_80\n.address_size 64\n"
#define TYPEMOD(t) (ISA_MOD_TYPE0 + ISA_TYPE_##t)

static struct isa_module *parse_n(const char *text, size_t len)
{
    struct ps_err err;
    struct isa_module *m = ptx_parse(text, len, "test.ptx", &err);

    if (!m)
        fail_msg("parse failed: %s:%u:%u: %s", err.file, err.line, err.col, err.msg);
    assert_int_equal(err.code, PS_OK);
    return m;
}

static struct isa_module *parse_ok(const char *text)
{
    return parse_n(text, strlen(text));
}

static const struct isa_func *func(const struct isa_module *m, const char *name)
{
    uint32_t i = isa_module_find_func(m, name);

    if (i == ISA_NONE)
        fail_msg("no function '%s'", name);
    return m->funcs[i];
}

static const struct isa_instr *instr(const struct isa_func *f, uint32_t i)
{
    assert_true(i < f->ninstrs);
    return &f->instrs[i];
}

static const struct isa_operand *opnd(const struct isa_func *f, uint32_t i, uint32_t k)
{
    const struct isa_instr *in = instr(f, i);

    assert_true(k < in->nops);
    return &f->ops[in->first_op + k];
}

static const struct isa_operand *elem(const struct isa_func *f, const struct isa_operand *o,
                                      uint32_t k)
{
    assert_true(k < o->n);
    return &f->ops[o->a + k];
}

static void assert_reg(const struct isa_operand *o, uint32_t slot)
{
    assert_int_equal(o->kind, ISA_OPND_REG);
    assert_int_equal(o->a, slot);
}

static void assert_mods(const struct isa_instr *in, const uint16_t *mods, unsigned n)
{
    assert_int_equal(in->nmods, n);
    for (unsigned i = 0; i < n; i++)
        assert_int_equal(in->mods[i], mods[i]);
}

#define ASSERT_MODS(in, ...)                                                                       \
    do {                                                                                           \
        static const uint16_t want_[] = {__VA_ARGS__};                                             \
        assert_mods((in), want_, sizeof(want_) / sizeof(want_[0]));                                \
    } while (0)

static void test_ptx_parse_header(void **state)
{
    struct isa_module *m;
    struct ps_err err;
    static const char hdr2[] = ".version 8.3\n.target sm_90a\n";

    (void)state;
    m = parse_ok(".version 7.8\n.target sm_86, texmode_independent, debug\n.address_size 32\n");
    assert_int_equal(m->version_major, 7);
    assert_int_equal(m->version_minor, 8);
    assert_string_equal(m->target, "sm_86");
    assert_int_equal(m->sm, 86);
    assert_int_equal(m->ntarget_opts, 2);
    assert_string_equal(m->target_opts[0], "texmode_independent");
    assert_string_equal(m->target_opts[1], "debug");
    assert_true(m->has_address_size);
    assert_int_equal(m->address_size, 32);
    assert_string_equal(m->source_name, "test.ptx");
    assert_int_equal(m->nfuncs + m->nvars + m->nitems, 0);
    isa_module_destroy(m);

    m = ptx_parse(hdr2, strlen(hdr2), NULL, &err);
    assert_non_null(m);
    assert_int_equal(m->sm, 90);
    assert_string_equal(m->target, "sm_90a");
    assert_false(m->has_address_size);
    assert_int_equal(m->address_size, 0);
    assert_int_equal(m->ntarget_opts, 0);
    assert_string_equal(m->source_name, "<input>");
    isa_module_destroy(m);
}

static void test_ptx_parse_file_directive(void **state)
{
    struct isa_module *m = parse_ok(HDR "\t.file\t1 \"k.cu\"\n"
                                        "\t.file\t2 \"/usr/include/x.h\", 1700000000, 1234\n");

    (void)state;
    assert_int_equal(m->nfiles, 2);
    assert_int_equal(m->files[0].id, 1);
    assert_string_equal(m->files[0].name, "k.cu");
    assert_false(m->files[0].has_meta);
    assert_int_equal(m->files[1].id, 2);
    assert_string_equal(m->files[1].name, "/usr/include/x.h");
    assert_true(m->files[1].has_meta);
    assert_int_equal(m->files[1].timestamp, 1700000000);
    assert_int_equal(m->files[1].size, 1234);
    isa_module_destroy(m);
}

static const char module_vars[] = HDR ".global .align 8 .u32 g0;\n"
                                      ".global .v4 .f32 g1;\n"
                                      ".const .align 4 .b8 tab[2][3] = {1, 2, 3, 4, 5, 6};\n"
                                      ".extern .shared .align 16 .b8 dyn[];\n"
                                      ".global .u64 ptrs[3] = {g0, g1+4, generic(tab)+2};\n"
                                      ".global .attribute(.managed) .align 4 .u32 man;\n"
                                      ".visible .global .f32 fl[2] = {0f3F800000, -1.5};\n"
                                      ".global .f64 dd = 0d4000000000000000;\n"
                                      ".global .s32 neg = -7;\n"
                                      ".weak .global .u32 w1, w2[4];\n"
                                      ".func fdecl\n(\n\t.param .b32 x\n)\n;\n"
                                      ".global .u64 fptab[2] = {fdecl, 0};\n";

static void assert_init(const struct isa_init *e, int kind, uint32_t sym, int64_t v)
{
    assert_int_equal(e->kind, kind);
    assert_int_equal(e->sym, sym);
    assert_int_equal(e->v.i, v);
}

/* Declaration attributes of each variable of module_vars, in order. */
struct want_var {
    const char *name;
    uint8_t space, type, vec, linkage, ndims;
    uint32_t align;
    uint64_t size_bytes;
    uint32_t ninit;
};

static const struct want_var want_vars[] = {
    {"g0", ISA_SPACE_GLOBAL, ISA_TYPE_U32, 0, ISA_LINK_NONE, 0, 8, 4, 0},
    {"g1", ISA_SPACE_GLOBAL, ISA_TYPE_F32, 4, ISA_LINK_NONE, 0, 0, 16, 0},
    {"tab", ISA_SPACE_CONST, ISA_TYPE_B8, 0, ISA_LINK_NONE, 2, 4, 6, 6},
    {"dyn", ISA_SPACE_SHARED, ISA_TYPE_B8, 0, ISA_LINK_EXTERN, 1, 16, 0, 0},
    {"ptrs", ISA_SPACE_GLOBAL, ISA_TYPE_U64, 0, ISA_LINK_NONE, 1, 0, 24, 3},
    {"man", ISA_SPACE_GLOBAL, ISA_TYPE_U32, 0, ISA_LINK_NONE, 0, 4, 4, 0},
    {"fl", ISA_SPACE_GLOBAL, ISA_TYPE_F32, 0, ISA_LINK_VISIBLE, 1, 0, 8, 2},
    {"dd", ISA_SPACE_GLOBAL, ISA_TYPE_F64, 0, ISA_LINK_NONE, 0, 0, 8, 1},
    {"neg", ISA_SPACE_GLOBAL, ISA_TYPE_S32, 0, ISA_LINK_NONE, 0, 0, 4, 1},
    {"w1", ISA_SPACE_GLOBAL, ISA_TYPE_U32, 0, ISA_LINK_WEAK, 0, 0, 4, 0},
    {"w2", ISA_SPACE_GLOBAL, ISA_TYPE_U32, 0, ISA_LINK_WEAK, 1, 0, 16, 0},
    {"fptab", ISA_SPACE_GLOBAL, ISA_TYPE_U64, 0, ISA_LINK_NONE, 1, 0, 16, 2},
};

static void test_ptx_parse_module_variables(void **state)
{
    static const uint32_t item_index[13] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 11};
    struct isa_module *m = parse_ok(module_vars);
    const struct isa_var *v = m->vars;

    (void)state;
    assert_int_equal(m->nvars, sizeof(want_vars) / sizeof(want_vars[0]));
    for (uint32_t i = 0; i < m->nvars; i++) {
        const struct want_var *w = &want_vars[i];

        assert_string_equal(v[i].name, w->name);
        if (v[i].space != w->space || v[i].type != w->type || v[i].vec != w->vec ||
            v[i].linkage != w->linkage || v[i].ndims != w->ndims || v[i].align != w->align ||
            v[i].size_bytes != w->size_bytes || v[i].ninit != w->ninit || v[i].scope != ISA_NONE ||
            v[i].has_init != (w->ninit > 0))
            fail_msg("declaration of '%s' decoded wrongly", w->name);
    }
    assert_int_equal(v[0].line, 4);
    assert_int_equal(v[0].col, 23);
    /* tab: two dimensions, flattened braced initialiser */
    assert_int_equal(v[2].dims[0], 2);
    assert_int_equal(v[2].dims[1], 3);
    assert_true(v[2].init_braced);
    assert_init(&v[2].init[5], ISA_INIT_INT, 0, 6);
    assert_true(v[3].unsized);
    assert_false(v[4].unsized);
    /* ptrs: symbol addresses */
    assert_init(&v[4].init[0], ISA_INIT_SYM, 0, 0);
    assert_init(&v[4].init[1], ISA_INIT_SYM, 1, 4);
    assert_init(&v[4].init[2], ISA_INIT_GENERIC_SYM, 2, 2);
    assert_true(v[5].managed);
    assert_false(v[4].managed);
    assert_int_equal(v[6].init[0].kind, ISA_INIT_F32);
    assert_int_equal(v[6].init[0].v.bits, 0x3F800000u);
    assert_int_equal(v[6].init[1].kind, ISA_INIT_FDEC);
    assert_true(v[6].init[1].v.f == -1.5);
    assert_int_equal(v[7].init[0].kind, ISA_INIT_F64);
    assert_int_equal(v[7].init[0].v.bits, UINT64_C(0x4000000000000000));
    assert_false(v[7].init_braced);
    assert_init(&v[8].init[0], ISA_INIT_INT, 0, -7);
    assert_init(&v[11].init[0], ISA_INIT_FUNC, 0, 0);
    assert_init(&v[11].init[1], ISA_INIT_INT, 0, 0);
    assert_int_equal(m->nitems, 13);
    for (uint32_t i = 0; i < 13; i++) {
        assert_int_equal(m->items[i].kind, i == 11 ? ISA_ITEM_FUNC_DECL : ISA_ITEM_VAR);
        assert_int_equal(m->items[i].index, item_index[i]);
    }
    assert_false(m->funcs[0]->has_body);
    assert_int_equal(m->funcs[0]->nparams, 1);
    assert_int_equal(isa_module_find_var(m, "fl"), 6);
    assert_int_equal(isa_module_find_var(m, "nope"), ISA_NONE);
    isa_module_destroy(m);
}

static void test_ptx_parse_signatures(void **state)
{
    struct isa_module *m = parse_ok(
        HDR ".func (.param .b32 f_ret0, .param .b64 f_ret1) f(.param .b32 f_a, .param .align 8 "
            ".b8 f_s[16])\n{\n\t.reg .b32 %r<2>;\n\tld.param.b32 %r1, [f_a];\n"
            "\tst.param.b32 [f_ret0], %r1;\n\tret;\n}\n"
            ".func (.reg .b32 rr) g(.reg .b32 ra)\n{\n\tmov.b32 rr, ra;\n\tret;\n}\n"
            ".visible .entry k(.param .u64 .ptr .global .align 16 k_a, .param .u32 k_n, "
            ".param .align 8 .b8 k_s[24])\n.maxntid 256, 1, 1\n.minnctapersm 2\n{\n\tret;\n}\n");
    const struct isa_func *f = func(m, "f"), *g = func(m, "g"), *k = func(m, "k");

    (void)state;
    assert_false(f->is_entry);
    assert_true(f->has_body && f->has_rets);
    assert_int_equal(f->nrets, 2);
    assert_string_equal(f->rets[0].name, "f_ret0");
    assert_int_equal(f->rets[0].space, ISA_SPACE_PARAM);
    assert_int_equal(f->rets[1].type, ISA_TYPE_B64);
    assert_int_equal(f->nparams, 2);
    assert_int_equal(f->params[1].align, 8);
    assert_int_equal(f->params[1].dims[0], 16);
    assert_int_equal(f->params[1].size_bytes, 16);
    assert_int_equal(opnd(f, 0, 1)->kind, ISA_OPND_ADDR);
    assert_int_equal(opnd(f, 0, 1)->flags, ISA_OPF_ADDR_SYM);
    assert_int_equal(opnd(f, 0, 1)->symscope, ISA_SYM_PARAM);
    assert_int_equal(opnd(f, 1, 0)->symscope, ISA_SYM_RET);
    assert_int_equal(opnd(f, 1, 0)->a, 0);
    /* .reg parameters become registers: params first, then return values */
    assert_int_equal(g->params[0].space, ISA_SPACE_REG);
    assert_int_equal(g->nregs, 2);
    assert_string_equal(g->regdecls[0].base, "ra");
    assert_string_equal(g->regdecls[1].base, "rr");
    assert_reg(opnd(g, 0, 0), 1);
    assert_reg(opnd(g, 0, 1), 0);
    assert_true(k->is_entry);
    assert_int_equal(k->linkage, ISA_LINK_VISIBLE);
    assert_int_equal(k->nparams, 3);
    assert_true(k->params[0].is_ptr);
    assert_int_equal(k->params[0].ptr_space, ISA_SPACE_GLOBAL);
    assert_int_equal(k->params[0].ptr_align, 16);
    assert_int_equal(k->params[0].align, 0);
    assert_int_equal(k->params[0].size_bytes, 8);
    assert_false(k->params[1].is_ptr);
    assert_int_equal(k->params[2].size_bytes, 24);
    assert_int_equal(k->perf.maxntid_n, 3);
    assert_int_equal(k->perf.maxntid[0], 256);
    assert_int_equal(k->perf.maxntid[2], 1);
    assert_true(k->perf.has_minnctapersm);
    assert_int_equal(k->perf.minnctapersm, 2);
    assert_false(k->perf.has_maxnreg);
    isa_module_destroy(m);
}

static void test_ptx_parse_register_slots(void **state)
{
    struct isa_module *m = parse_ok(
        HDR ".entry k()\n{\n\t.reg .b32 %r<5>;\n\t.reg .pred %p, %q;\n\t.reg .v2 .f32 %v;\n"
            "\t.reg .f64 %fd<3>, %fd_x;\n\tmov.b32 %r4, %r0;\n\tmov.pred %q, %p;\n"
            "\tmov.f32 %v.y, 0f3F800000;\n\tmov.f64 %fd_x, %fd2;\n\tret;\n}\n");
    const struct isa_func *f = func(m, "k");
    static const uint32_t first[] = {0, 5, 6, 7, 8, 11};
    char buf[64];

    (void)state;
    assert_int_equal(f->nregdecls, 6);
    assert_int_equal(f->nregs, 12);
    for (uint32_t i = 0; i < 6; i++) {
        assert_int_equal(f->regdecls[i].first_slot, first[i]);
        assert_int_equal(f->regdecls[i].scope, 0);
        assert_int_equal(f->stmts[i].kind, ISA_STMT_REGDECL);
        assert_int_equal(f->stmts[i].index, i);
    }
    assert_true(f->regdecls[0].is_range);
    assert_int_equal(f->regdecls[0].count, 5);
    assert_false(f->regdecls[1].is_range);
    assert_int_equal(f->regdecls[3].vec, 2);
    assert_int_equal(f->regs[7].vec, 2);
    assert_int_equal(f->regs[5].type, ISA_TYPE_PRED);
    assert_int_equal(f->regs[10].type, ISA_TYPE_F64);
    assert_int_equal(f->regs[10].decl, 4);
    assert_reg(opnd(f, 0, 0), 4);
    assert_reg(opnd(f, 0, 1), 0);
    assert_reg(opnd(f, 1, 0), 6);
    assert_reg(opnd(f, 1, 1), 5);
    assert_reg(opnd(f, 2, 0), 7);
    assert_int_equal(opnd(f, 2, 0)->comp, 2);
    assert_reg(opnd(f, 3, 0), 11);
    assert_reg(opnd(f, 3, 1), 10);
    assert_string_equal(isa_reg_name(f, 10, buf, sizeof(buf)), "%fd2");
    assert_string_equal(isa_reg_name(f, 11, buf, sizeof(buf)), "%fd_x");
    isa_module_destroy(m);
}

/* Inner blocks may redeclare names of an outer block; the outer ones come back after '}'. */
static void test_ptx_parse_nested_blocks_shadowing(void **state)
{
    struct isa_module *m =
        parse_ok(HDR ".entry k()\n{\n\t.reg .b32 %r<2>;\n\t.reg .b32 %t;\n\tmov.b32 %t, %r1;\n"
                     "\t{\n\t.reg .b32 %r<2>;\n\t.reg .f32 %t;\n\tmov.b32 %r1, %r0;\n"
                     "\t{\n\t.reg .b64 %t;\n\tmov.b64 %t, 0;\n\t}\n\tmov.f32 %t, 0f00000000;\n\t}\n"
                     "\tmov.b32 %t, %r0;\n\tret;\n}\n");
    const struct isa_func *f = func(m, "k");
    static const uint8_t kinds[] = {
        ISA_STMT_REGDECL, ISA_STMT_REGDECL, ISA_STMT_INSTR, ISA_STMT_OPEN,    ISA_STMT_REGDECL,
        ISA_STMT_REGDECL, ISA_STMT_INSTR,   ISA_STMT_OPEN,  ISA_STMT_REGDECL, ISA_STMT_INSTR,
        ISA_STMT_CLOSE,   ISA_STMT_INSTR,   ISA_STMT_CLOSE, ISA_STMT_INSTR,   ISA_STMT_INSTR};

    (void)state;
    assert_int_equal(f->nregs, 7);
    assert_reg(opnd(f, 0, 0), 2);
    assert_reg(opnd(f, 0, 1), 1);
    assert_reg(opnd(f, 1, 0), 4);
    assert_reg(opnd(f, 1, 1), 3);
    assert_reg(opnd(f, 2, 0), 6);
    assert_reg(opnd(f, 3, 0), 5);
    assert_reg(opnd(f, 4, 0), 2);
    assert_reg(opnd(f, 4, 1), 0);
    assert_int_equal(f->regdecls[2].scope, 1);
    assert_int_equal(f->regdecls[4].scope, 2);
    assert_int_equal(f->regs[6].type, ISA_TYPE_B64);
    assert_int_equal(f->nscopes, 3);
    assert_int_equal(f->scopes[0].parent, ISA_NONE);
    assert_int_equal(f->scopes[0].begin, 0);
    assert_int_equal(f->scopes[0].end, 6);
    assert_int_equal(f->scopes[1].parent, 0);
    assert_int_equal(f->scopes[1].begin, 1);
    assert_int_equal(f->scopes[1].end, 4);
    assert_int_equal(f->scopes[2].parent, 1);
    assert_int_equal(f->scopes[2].begin, 2);
    assert_int_equal(f->scopes[2].end, 3);
    assert_int_equal(f->nstmts, sizeof(kinds));
    for (uint32_t i = 0; i < sizeof(kinds); i++)
        assert_int_equal(f->stmts[i].kind, kinds[i]);
    assert_int_equal(f->stmts[3].index, 1);
    assert_int_equal(f->stmts[10].index, 2);
    isa_module_destroy(m);
}

static void test_ptx_parse_labels_and_guards(void **state)
{
    struct isa_module *m = parse_ok(
        HDR ".entry k()\n{\n\t.reg .pred %p<3>;\n\t.reg .b32 %r<3>;\n"
            "\tsetp.eq.s32 %p1, %r1, 0;\n\t@%p1 bra $L__BB0_2;\n\t@!%p2 bra.uni $L__BB0_3;\n"
            "\tadd.s32 %r1, %r1, 1;\n$L__BB0_2:\n\tadd.s32 %r2, %r2, 1;\n$L__BB0_3:\n\tret;\n}\n");
    const struct isa_func *f = func(m, "k");

    (void)state;
    assert_int_equal(f->ninstrs, 6);
    assert_int_equal(instr(f, 0)->guard, ISA_NONE);
    assert_int_equal(instr(f, 1)->guard, 1);
    assert_false(instr(f, 1)->guard_neg);
    assert_int_equal(instr(f, 1)->line, 9);
    assert_int_equal(instr(f, 1)->col, 7);
    assert_int_equal(instr(f, 2)->guard, 2);
    assert_true(instr(f, 2)->guard_neg);
    assert_true(instr(f, 2)->uni);
    ASSERT_MODS(instr(f, 2), ISA_MOD_UNI);
    assert_int_equal(opnd(f, 1, 0)->kind, ISA_OPND_LABEL);
    assert_int_equal(opnd(f, 1, 0)->a, 0);
    assert_int_equal(opnd(f, 2, 0)->a, 1);
    assert_int_equal(f->nlabels, 2);
    assert_string_equal(f->labels[0].name, "$L__BB0_2");
    assert_true(f->labels[0].defined);
    assert_int_equal(f->labels[0].kind, ISA_LABEL_CODE);
    assert_int_equal(f->labels[0].pos, 4);
    assert_int_equal(f->labels[0].scope, 0);
    assert_int_equal(f->labels[0].use_line, 9);
    assert_int_equal(f->labels[0].use_col, 11);
    assert_int_equal(f->labels[1].pos, 5);
    isa_module_destroy(m);
}

static const char modifiers_ptx[] =
    HDR ".entry k()\n{\n\t.reg .pred %p<3>;\n\t.reg .b32 %r<5>;\n\t.reg .f32 %f<4>;\n"
        "\t.reg .b64 %rd<4>;\n"
        "\tadd.rn.ftz.sat.f32 %f1, %f2, %f3;\n"
        "\tsetp.lt.and.s32 %p1, %r1, %r2, %p2;\n"
        "\tatom.global.acq_rel.gpu.and.b32 %r1, [%rd1], %r2;\n"
        "\tld.global.cg.v4.u32 {%r1, %r2, %r3, _}, [%rd1+16];\n"
        "\tcvt.rzi.s32.f32 %r1, %f1;\n"
        "\tmul.wide.s32 %rd1, %r1, %r2;\n"
        "\tshfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1;\n"
        "\tld.relaxed.sys.global.u32 %r4, [%rd2];\n"
        "\tdiv.approx.ftz.f32 %f1, %f2, %f3;\n"
        "\tvote.sync.ballot.b32 %r1, %p1, -1;\n"
        "\tret;\n}\n";

/* The decoded fields each instruction of modifiers_ptx must have; all others are zero. */
static const struct isa_instr want_decoded[] = {
    {.ntypes = 1, .types = {ISA_TYPE_F32}, .round = ISA_RND_RN, .ftz = true, .sat = true},
    {.ntypes = 1, .types = {ISA_TYPE_S32}, .cmp = ISA_CMP_LT, .boolop = ISA_BOOL_AND},
    {.ntypes = 1,
     .types = {ISA_TYPE_B32},
     .space = ISA_SPACE_GLOBAL,
     .sem = ISA_SEM_ACQ_REL,
     .scope = ISA_SCOPE_GPU,
     .atomop = ISA_ATOM_AND},
    {.ntypes = 1,
     .types = {ISA_TYPE_U32},
     .space = ISA_SPACE_GLOBAL,
     .cache = ISA_CACHE_CG,
     .vec = 4},
    {.ntypes = 2, .types = {ISA_TYPE_S32, ISA_TYPE_F32}, .round = ISA_RND_RZI},
    {.ntypes = 1, .types = {ISA_TYPE_S32}, .mulmode = ISA_MUL_WIDE},
    {.ntypes = 1, .types = {ISA_TYPE_B32}, .shfl = ISA_SHFL_BFLY, .sync = true},
    {.ntypes = 1,
     .types = {ISA_TYPE_U32},
     .space = ISA_SPACE_GLOBAL,
     .sem = ISA_SEM_RELAXED,
     .scope = ISA_SCOPE_SYS},
    {.ntypes = 1, .types = {ISA_TYPE_F32}, .prec = ISA_PREC_APPROX, .ftz = true},
    {.ntypes = 1, .types = {ISA_TYPE_B32}, .vote = ISA_VOTE_BALLOT, .sync = true},
};

#define SAME(field) (in->field == w->field)

static void test_ptx_parse_modifiers(void **state)
{
    struct isa_module *m = parse_ok(modifiers_ptx);
    const struct isa_func *f = func(m, "k");

    (void)state;
    assert_int_equal(f->ninstrs, sizeof(want_decoded) / sizeof(want_decoded[0]) + 1);
    for (uint32_t i = 0; i + 1 < f->ninstrs; i++) {
        const struct isa_instr *in = instr(f, i), *w = &want_decoded[i];

        if (!SAME(ntypes) || memcmp(in->types, w->types, sizeof(w->types)) || !SAME(vec) ||
            !SAME(space) || !SAME(round) || !SAME(cmp) || !SAME(boolop) || !SAME(mulmode) ||
            !SAME(atomop) || !SAME(scope) || !SAME(sem) || !SAME(cache) || !SAME(prec) ||
            !SAME(shfl) || !SAME(vote) || !SAME(ftz) || !SAME(sat) || !SAME(cc) || !SAME(uni) ||
            !SAME(sync))
            fail_msg("instruction %u: decoded modifier fields differ", i);
    }
    ASSERT_MODS(instr(f, 0), ISA_MOD_RN, ISA_MOD_FTZ, ISA_MOD_SAT, TYPEMOD(F32));
    ASSERT_MODS(instr(f, 1), ISA_MOD_LT, ISA_MOD_AND_BOOL, TYPEMOD(S32));
    ASSERT_MODS(instr(f, 2), ISA_MOD_GLOBAL, ISA_MOD_ACQ_REL, ISA_MOD_GPU, ISA_MOD_A_AND,
                TYPEMOD(B32));
    ASSERT_MODS(instr(f, 3), ISA_MOD_GLOBAL, ISA_MOD_CG, ISA_MOD_V4, TYPEMOD(U32));
    assert_int_equal(instr(f, 1)->nops, 4);
    assert_int_equal(instr(f, 6)->nops, 5);
    /* Slots: %p0-2 = 0-2, %r0-4 = 3-7, %f0-3 = 8-11, %rd0-3 = 12-15. */
    assert_int_equal(opnd(f, 2, 1)->flags, ISA_OPF_ADDR_REG);
    assert_int_equal(opnd(f, 2, 1)->a, 13);
    isa_module_destroy(m);
}

static const char operands_ptx[] =
    HDR ".global .align 4 .u32 gv[4];\n.global .texref tex0;\n"
        ".func (.param .b32 fr) callee(.param .b32 fa, .param .b32 fb)\n{\n\tret;\n}\n"
        ".entry k(.param .u64 k_p)\n{\n\t.local .align 8 .b8 depot[16];\n"
        "\t.reg .pred %p<3>;\n\t.reg .b32 %r<5>;\n\t.reg .f32 %f<3>;\n\t.reg .f64 %fd<3>;\n"
        "\t.reg .b64 %rd<4>;\n"
        "\tmov.u32 %r1, %ctaid.y;\n"                             /* 0 */
        "\tmov.u32 %r2, %laneid;\n"                              /* 1 */
        "\tadd.s32 %r1, %r2, -5;\n"                              /* 2 */
        "\tadd.s32 %r1, %r2, 0xFF;\n"                            /* 3 */
        "\tadd.s32 %r1, %r2, 017;\n"                             /* 4 */
        "\tadd.s32 %r1, %r2, 0b101;\n"                           /* 5 */
        "\tmov.b64 %rd1, 0xFFFFFFFFFFFFFFFF;\n"                  /* 6 */
        "\tmov.f32 %f1, 0f3F800000;\n"                           /* 7 */
        "\tmov.f32 %f1, -0f3F800000;\n"                          /* 8 */
        "\tmov.f64 %fd1, 0d3FF0000000000000;\n"                  /* 9 */
        "\tmov.f64 %fd1, -0d3FF0000000000000;\n"                 /* 10 */
        "\tmov.f32 %f2, 1.5;\n"                                  /* 11 */
        "\tmov.f64 %fd2, -2.5e1;\n"                              /* 12 */
        "\tmov.u64 %rd1, gv+8;\n"                                /* 13 */
        "\tld.local.u32 %r1, [%rd1+-8];\n"                       /* 14 */
        "\tld.local.u32 %r1, [%rd1-4];\n"                        /* 15 */
        "\tld.global.u32 %r1, [gv+4];\n"                         /* 16 */
        "\tld.global.u32 %r1, [256];\n"                          /* 17 */
        "\tld.param.u64 %rd2, [k_p];\n"                          /* 18 */
        "\tmov.u64 %rd3, depot;\n"                               /* 19 */
        "\tsetp.eq.s32 %p1|%p2, %r1, %r2;\n"                     /* 20 */
        "\tsetp.eq.and.s32 %p1, %r1, %r2, !%p2;\n"               /* 21 */
        "\ttex.1d.v4.f32.s32 {%f1, %f2, _, _}, [tex0, {%r1}];\n" /* 22 */
        "\tmov.u32 %r3, WARP_SZ;\n"                              /* 23 */
        "\tvadd.u32.u32.u32 %r1, %r2.b0, %r3.h1, %r4;\n"         /* 24 */
        "\t{\n\t.param .b32 param0;\n\t.param .b32 param1;\n\t.param .b32 retval0;\n"
        "\tcall.uni (retval0), callee, (param0, param1);\n" /* 25 */
        "\t}\n\tret;\n}\n";

/* One expected operand of operands_ptx: instruction, operand, and its decoded fields. */
struct want_opnd {
    uint8_t in, k, kind, flags, symscope, comp;
    uint32_t a;
    uint64_t v;
};

/* Slots: %p 0-2, %r 3-7, %f 8-10, %fd 11-13, %rd 14-17. Locals: depot, param0, param1, retval0. */
static const struct want_opnd want_operands[] = {
    {0, 1, ISA_OPND_SREG, 0, 0, 2, ISA_SREG_CTAID, 0},
    {1, 1, ISA_OPND_SREG, 0, 0, 0, ISA_SREG_LANEID, 0},
    {2, 2, ISA_OPND_IMM, 0, 0, 0, 0, (uint64_t)-5},
    {3, 2, ISA_OPND_IMM, 0, 0, 0, 0, 255},
    {4, 2, ISA_OPND_IMM, 0, 0, 0, 0, 15},
    {5, 2, ISA_OPND_IMM, 0, 0, 0, 0, 5},
    {6, 1, ISA_OPND_IMM, 0, 0, 0, 0, UINT64_MAX},
    {7, 1, ISA_OPND_F32, 0, 0, 0, 0, 0x3F800000},
    {8, 1, ISA_OPND_F32, ISA_OPF_MINUS, 0, 0, 0, 0xBF800000},
    {9, 1, ISA_OPND_F64, 0, 0, 0, 0, UINT64_C(0x3FF0000000000000)},
    {10, 1, ISA_OPND_F64, ISA_OPF_MINUS, 0, 0, 0, UINT64_C(0xBFF0000000000000)},
    {13, 1, ISA_OPND_SYM, 0, ISA_SYM_MODULE, 0, 0, 8},
    {14, 1, ISA_OPND_ADDR, ISA_OPF_ADDR_REG, 0, 0, 15, (uint64_t)-8},
    {15, 1, ISA_OPND_ADDR, ISA_OPF_ADDR_REG, 0, 0, 15, (uint64_t)-4},
    {16, 1, ISA_OPND_ADDR, ISA_OPF_ADDR_SYM, ISA_SYM_MODULE, 0, 0, 4},
    {17, 1, ISA_OPND_ADDR, 0, 0, 0, 0, 256},
    {18, 1, ISA_OPND_ADDR, ISA_OPF_ADDR_SYM, ISA_SYM_PARAM, 0, 0, 0},
    {19, 1, ISA_OPND_SYM, 0, ISA_SYM_LOCAL, 0, 0, 0},
    {20, 0, ISA_OPND_REG, ISA_OPF_PAIR, 0, 0, 1, 0},
    {21, 3, ISA_OPND_REG, ISA_OPF_NEG, 0, 0, 2, 0},
    {23, 1, ISA_OPND_IMM, 0, 0, 0, 0, 32},
    {24, 1, ISA_OPND_REG, 0, 0, 5, 5, 0},
    {24, 2, ISA_OPND_REG, 0, 0, 10, 6, 0},
    {25, 1, ISA_OPND_FUNC, 0, 0, 0, 0, 0},
};

static void test_ptx_parse_operands(void **state)
{
    struct isa_module *m = parse_ok(operands_ptx);
    const struct isa_func *f = func(m, "k");
    const struct isa_operand *o;

    (void)state;
    for (size_t i = 0; i < sizeof(want_operands) / sizeof(want_operands[0]); i++) {
        const struct want_opnd *w = &want_operands[i];

        o = opnd(f, w->in, w->k);
        if (o->kind != w->kind || o->flags != w->flags || o->symscope != w->symscope ||
            o->comp != w->comp || o->a != w->a || o->v.bits != w->v)
            fail_msg("instruction %u operand %u: kind %u flags %#x scope %u comp %u a %u v %#llx",
                     w->in, w->k, o->kind, o->flags, o->symscope, o->comp, o->a,
                     (unsigned long long)o->v.bits);
    }
    assert_int_equal(opnd(f, 11, 1)->kind, ISA_OPND_FDEC);
    assert_true(opnd(f, 11, 1)->v.f == 1.5);
    assert_true(opnd(f, 12, 1)->v.f == -25.0);
    assert_int_equal(opnd(f, 20, 0)->b, 2);
    o = opnd(f, 22, 0);
    assert_int_equal(o->kind, ISA_OPND_VEC);
    assert_int_equal(o->n, 4);
    assert_reg(elem(f, o, 1), 10);
    assert_int_equal(elem(f, o, 3)->kind, ISA_OPND_SINK);
    o = opnd(f, 22, 1);
    assert_int_equal(o->kind, ISA_OPND_BRLIST);
    assert_int_equal(o->n, 2);
    assert_int_equal(elem(f, o, 0)->kind, ISA_OPND_SYM);
    assert_int_equal(elem(f, o, 0)->a, 1);
    assert_int_equal(elem(f, o, 1)->kind, ISA_OPND_VEC);
    assert_int_equal(elem(f, o, 1)->n, 1);
    assert_reg(elem(f, elem(f, o, 1), 0), 4);
    /* call.uni (retval0), callee, (param0, param1) */
    assert_int_equal(instr(f, 25)->nops, 3);
    o = opnd(f, 25, 0);
    assert_int_equal(o->kind, ISA_OPND_LIST);
    assert_int_equal(o->n, 1);
    assert_int_equal(elem(f, o, 0)->symscope, ISA_SYM_LOCAL);
    assert_int_equal(elem(f, o, 0)->a, 3);
    o = opnd(f, 25, 2);
    assert_int_equal(o->n, 2);
    assert_int_equal(elem(f, o, 1)->a, 2);
    assert_int_equal(f->nlocals, 4);
    assert_int_equal(f->locals[3].space, ISA_SPACE_PARAM);
    assert_int_equal(f->locals[3].scope, 1);
    isa_module_destroy(m);
}

static void test_ptx_parse_loc(void **state)
{
    struct isa_module *m =
        parse_ok(HDR "\t.file 1 \"k.cu\"\n.entry k()\n{\n\t.reg .b32 %r<3>;\n\tmov.b32 %r1, 0;\n"
                     "\t.loc 1 10 5\n\tmov.b32 %r1, 1;\n\tmov.b32 %r2, 2;\n"
                     "\t.loc\t1 12 0, function_name $L__info_string0, inlined_at 1 20 3\n"
                     "\tadd.s32 %r1, %r1, %r2;\n\tret;\n}\n.func f()\n{\n\tret;\n}\n");
    const struct isa_func *f = func(m, "k");

    (void)state;
    assert_int_equal(instr(f, 0)->loc_file, 0);
    assert_int_equal(instr(f, 0)->loc_line, 0);
    assert_int_equal(instr(f, 1)->loc_file, 1);
    assert_int_equal(instr(f, 1)->loc_line, 10);
    assert_int_equal(instr(f, 1)->loc_col, 5);
    assert_int_equal(instr(f, 2)->loc_line, 10);
    assert_int_equal(instr(f, 3)->loc_line, 12);
    assert_int_equal(instr(f, 3)->loc_col, 0);
    assert_int_equal(instr(f, 4)->loc_line, 12);
    /* A new body starts without a location. */
    assert_int_equal(instr(func(m, "f"), 0)->loc_line, 0);
    isa_module_destroy(m);
}

static void test_ptx_parse_pragma_and_section(void **state)
{
    struct isa_module *m =
        parse_ok(HDR ".pragma \"module_pragma\";\n.entry k()\n.pragma \"sig_pragma\";\n{\n"
                     "\t.reg .b32 %r<2>;\n\t.pragma \"nounroll\";\n\tmov.b32 %r1, 0;\n\tret;\n}\n"
                     "\t.section\t.debug_abbrev\n\t{\n.b8 17\n.b8 1\n{ .b8 2 }\n\t}\n"
                     "\t.section .debug_str { $L__info_string0:\n.b8 107,0\n }\n");
    const struct isa_func *f = func(m, "k");

    (void)state;
    assert_int_equal(m->npragmas, 1);
    assert_string_equal(m->pragmas[0], "module_pragma");
    assert_int_equal(m->nitems, 2);
    assert_int_equal(m->items[0].kind, ISA_ITEM_PRAGMA);
    assert_int_equal(m->items[1].kind, ISA_ITEM_FUNC_DEF);
    assert_int_equal(m->nvars, 0);
    assert_int_equal(f->npragmas, 1);
    assert_string_equal(f->pragmas[0], "sig_pragma");
    assert_int_equal(f->nbody_pragmas, 1);
    assert_string_equal(f->body_pragmas[0].text, "nounroll");
    assert_int_equal(f->body_pragmas[0].pos, 0);
    assert_int_equal(f->body_pragmas[0].scope, 0);
    assert_int_equal(f->stmts[1].kind, ISA_STMT_PRAGMA);
    assert_int_equal(f->ninstrs, 2);
    isa_module_destroy(m);
}

static const char indirect_ptx[] =
    HDR ".visible .func (.param .b32 func_retval0) target(.param .b32 target_param_0)\n{\n"
        "\t.reg .b32 %r<2>;\n\tld.param.b32 %r1, [target_param_0];\n"
        "\tst.param.b32 [func_retval0], %r1;\n\tret;\n}\n"
        ".visible .entry k()\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n"
        "\tmov.u64 %rd1, target;\n\t{\n\t.param .b32 param0;\n\tst.param.b32 [param0], 7;\n"
        "\t.param .b32 retval0;\n"
        "\tprototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
        "\tcall (retval0), %rd1, (param0), prototype_0;\n"
        "\tct: .calltargets target;\n\tcall (retval0), %rd1, (param0), ct;\n"
        "\tld.param.b32 %r1, [retval0];\n\t}\n\tret;\n}\n";

static void test_ptx_parse_callprototype(void **state)
{
    struct isa_module *m = parse_ok(indirect_ptx);
    const struct isa_func *k = func(m, "k"), *proto;
    const struct isa_label *l;

    (void)state;
    assert_int_equal(m->nfuncs, 3);
    assert_int_equal(opnd(k, 0, 1)->kind, ISA_OPND_FUNC);
    assert_int_equal(opnd(k, 0, 1)->a, 0);
    assert_int_equal(k->nlabels, 2);
    l = &k->labels[0];
    assert_string_equal(l->name, "prototype_0");
    assert_int_equal(l->kind, ISA_LABEL_CALLPROTOTYPE);
    assert_int_equal(l->first, 2);
    proto = m->funcs[2];
    assert_true(proto->is_prototype);
    assert_false(proto->has_body);
    assert_true(proto->has_rets);
    assert_int_equal(proto->nrets, 1);
    assert_int_equal(proto->nparams, 1);
    assert_int_equal(proto->params[0].type, ISA_TYPE_B32);
    assert_int_equal(isa_module_find_func(m, "prototype_0"), ISA_NONE);
    /* call (retval0), %rd1, (param0), prototype_0 */
    assert_int_equal(instr(k, 2)->op, ISA_OP_CALL);
    assert_int_equal(instr(k, 2)->nops, 4);
    assert_int_equal(opnd(k, 2, 0)->kind, ISA_OPND_LIST);
    assert_reg(opnd(k, 2, 1), 4);
    assert_int_equal(opnd(k, 2, 2)->kind, ISA_OPND_LIST);
    assert_int_equal(opnd(k, 2, 3)->kind, ISA_OPND_LABEL);
    assert_int_equal(opnd(k, 2, 3)->a, 0);
    l = &k->labels[1];
    assert_int_equal(l->kind, ISA_LABEL_CALLTARGETS);
    assert_int_equal(l->count, 1);
    assert_int_equal(k->targets[l->first], 0);
    assert_int_equal(opnd(k, 3, 3)->a, 1);
    isa_module_destroy(m);
}

static void test_ptx_parse_branchtargets(void **state)
{
    struct isa_module *m = parse_ok(HDR ".entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, 1;\n"
                                        "\tts: .branchtargets L0, L1, L0;\n\tbrx.idx %r1, ts;\n"
                                        "L0:\n\tret;\nL1:\n\texit;\n}\n");
    const struct isa_func *f = func(m, "k");

    (void)state;
    assert_int_equal(f->nlabels, 3);
    assert_string_equal(f->labels[0].name, "ts");
    assert_int_equal(f->labels[0].kind, ISA_LABEL_BRANCHTARGETS);
    assert_int_equal(f->labels[0].count, 3);
    assert_int_equal(f->ntargets, 3);
    assert_int_equal(f->targets[f->labels[0].first + 0], 1);
    assert_int_equal(f->targets[f->labels[0].first + 1], 2);
    assert_int_equal(f->targets[f->labels[0].first + 2], 1);
    assert_int_equal(f->labels[1].pos, 2);
    assert_int_equal(f->labels[2].pos, 3);
    assert_int_equal(instr(f, 1)->op, ISA_OP_BRX);
    ASSERT_MODS(instr(f, 1), ISA_MOD_IDX);
    assert_reg(opnd(f, 1, 0), 1);
    assert_int_equal(opnd(f, 1, 1)->kind, ISA_OPND_LABEL);
    assert_int_equal(opnd(f, 1, 1)->a, 0);
    isa_module_destroy(m);
}

static const char small_kernel[] = HDR ".entry k(.param .u32 n)\n{\n\t.reg .b32 %r<3>;\n"
                                       "\tld.param.u32 %r1, [n];\n$L1:\n\tadd.s32 %r2, %r1, 1;\n"
                                       "\tret;\n}\n";

/* The text ends at a NUL byte: what follows it is never looked at. */
static void test_ptx_parse_nul_terminated(void **state)
{
    char buf[sizeof(small_kernel) + 32];
    struct isa_module *a, *b;
    char why[256] = "";

    (void)state;
    memset(buf, 0, sizeof(buf));
    memcpy(buf, small_kernel, sizeof(small_kernel)); /* includes the NUL */
    memcpy(buf + sizeof(small_kernel), "}} garbage # \x01 .entry", 22);
    a = parse_n(buf, sizeof(buf));
    b = parse_ok(small_kernel);
    assert_true(isa_module_equal(a, b, why, sizeof(why)));
    isa_module_destroy(a);
    isa_module_destroy(b);
}

static void test_ptx_parse_crlf(void **state)
{
    char crlf[2 * sizeof(small_kernel)];
    struct isa_module *a, *b;
    const struct isa_func *f;
    char why[256] = "";
    size_t n = 0;

    (void)state;
    for (const char *s = small_kernel; *s; s++) {
        if (*s == '\n')
            crlf[n++] = '\r';
        crlf[n++] = *s;
    }
    crlf[n] = '\0';
    a = parse_ok(crlf);
    b = parse_ok(small_kernel);
    assert_true(isa_module_equal(a, b, why, sizeof(why)));
    f = func(a, "k");
    assert_int_equal(instr(f, 1)->line, 9);
    assert_int_equal(instr(f, 1)->col, 2);
    assert_int_equal(f->params[0].line, 4);
    isa_module_destroy(a);
    isa_module_destroy(b);
}

static void test_ptx_parse_equal_detects_difference(void **state)
{
    struct isa_module *a = parse_ok(small_kernel), *b;
    char text[sizeof(small_kernel)], why[256] = "";

    (void)state;
    memcpy(text, small_kernel, sizeof(text));
    *strstr(text, "1;") = '2';
    b = parse_ok(text);
    assert_false(isa_module_equal(a, b, why, sizeof(why)));
    assert_true(why[0] != '\0');
    assert_false(isa_module_equal(a, b, NULL, 0));
    isa_module_destroy(a);
    isa_module_destroy(b);
}

static const char resources_ptx[] =
    HDR ".global .align 4 .b8 gbuf[64];\n.const .align 4 .u32 ctab[4];\n"
        ".const .align 4 .u32 cunused[8];\n.shared .align 4 .b8 smem[256];\n"
        ".extern .shared .align 16 .b8 dsmem[];\n"
        ".func (.param .b32 hr) helper(.param .b32 ha)\n{\n\t.local .align 4 .b8 hdepot[8];\n"
        "\t.reg .b32 %hr<2>;\n\tld.const.u32 %hr1, [ctab+4];\n\tst.param.b32 [hr], %hr1;\n"
        "\tret;\n}\n"
        ".entry k(.param .u64 k_out, .param .u32 k_n)\n{\n"
        "\t.local .align 8 .b8 __local_depot0[40];\n\t.shared .align 4 .b8 ksmem[32];\n"
        "\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<3>;\n\t.reg .pred %p;\n\t.reg .f64 %fd;\n"
        "\tmov.u64 %rd1, smem;\n\tmov.u64 %rd2, dsmem;\n\tld.shared.u32 %r1, [smem+8];\n"
        "\t{\n\t.param .b32 param0;\n\t.param .b32 retval0;\n"
        "\tcall.uni (retval0), helper, (param0);\n\t}\n\tret;\n}\n"
        ".func rec()\n{\n\tcall.uni rec, ();\n\tret;\n}\n"
        ".entry r()\n{\n\tcall.uni rec, ();\n\tret;\n}\n";

/* Print to memory and parse again: the module must not change. Returns false (with a message). */
static bool roundtrip_module(const struct isa_module *m, const char *what)
{
    char *text = NULL, why[256] = "";
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    struct isa_module *m2 = NULL;
    struct ps_err err;
    bool ok = false;

    assert_non_null(out);
    if (isa_print_module(m, out) | fclose(out)) {
        print_message("%s: printing failed\n", what);
        goto out;
    }
    m2 = ptx_parse(text, len, what, &err);
    if (!m2)
        print_message("%s: reprinted text does not parse: %u:%u: %s\n", what, err.line, err.col,
                      err.msg);
    else if (!isa_module_equal(m, m2, why, sizeof(why)))
        print_message("%s: round trip changed the module: %s\n", what, why);
    else
        ok = true;
out:
    isa_module_destroy(m2);
    free(text);
    return ok;
}

static void test_ptx_parse_roundtrip_inline(void **state)
{
    static const char *const texts[] = {module_vars,  modifiers_ptx, operands_ptx,
                                        indirect_ptx, small_kernel,  resources_ptx};

    (void)state;
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
        struct isa_module *m = parse_ok(texts[i]);
        bool ok = roundtrip_module(m, "inline");

        isa_module_destroy(m);
        assert_true(ok);
    }
}

/* Round-trips every .ptx file in dir; counts the files seen and the failures. */
static void roundtrip_dir(const char *dir, unsigned *nfiles, unsigned *nfailed)
{
    struct dirent *de;
    DIR *d = opendir(dir);

    if (!d)
        return;
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        char path[4096 + 512];
        struct isa_module *m;
        struct ps_err err;

        if (len < 5 || strcmp(de->d_name + len - 4, ".ptx"))
            continue;
        snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
        (*nfiles)++;
        m = ptx_parse_file(path, &err);
        if (!m) {
            print_message("%s:%u:%u: does not parse: %s\n", path, err.line, err.col, err.msg);
            (*nfailed)++;
            continue;
        }
        *nfailed += !roundtrip_module(m, path);
        isa_module_destroy(m);
    }
    closedir(d);
}

static void test_ptx_parse_roundtrip_corpus(void **state)
{
    static const char *const dirs[] = {"tests/ptx/samples", "tests/ptx/fermi"};
    const char *srcdir = getenv("srcdir");
    unsigned total = 0, failed = 0;
    char dir[4096];

    (void)state;
    if (!srcdir)
        srcdir = "..";
    for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
        unsigned n = 0;

        snprintf(dir, sizeof(dir), "%s/%s", srcdir, dirs[i]);
        roundtrip_dir(dir, &n, &failed);
        print_message("round trip: %u files in %s\n", n, dir);
        total += n;
    }
    if (!total) {
        print_message("no PTX files under %s/tests/ptx; set srcdir to the source tree\n", srcdir);
        skip();
    }
    if (failed)
        fail_msg("%u of %u corpus files failed the round trip", failed, total);
}

static void test_ptx_parse_resources(void **state)
{
    struct isa_module *m = parse_ok(resources_ptx);
    struct isa_resources r;

    (void)state;
    assert_int_equal(isa_resources_of(m, isa_module_find_func(m, "k"), &r), 0);
    assert_int_equal(r.param_bytes, 12);
    assert_int_equal(r.shared_bytes, 256 + 32);
    assert_true(r.dynamic_shared);
    assert_int_equal(r.local_bytes, 40 + 8);
    assert_int_equal(r.const_bytes, 16);
    assert_int_equal(r.global_bytes, 0);
    assert_int_equal(r.regs_by_type[ISA_TYPE_B32], 4 + 2);
    assert_int_equal(r.regs_by_type[ISA_TYPE_B64], 3);
    assert_int_equal(r.regs_by_type[ISA_TYPE_PRED], 1);
    assert_int_equal(r.regs_by_type[ISA_TYPE_F64], 1);
    assert_int_equal(r.regs32, 4 + 6 + 2 + 2);
    assert_int_equal(r.ninstrs, 5 + 3);
    assert_int_equal(r.ncallees, 1);
    assert_false(r.recursive);
    assert_int_equal(isa_resources_of(m, isa_module_find_func(m, "r"), &r), 0);
    assert_true(r.recursive);
    assert_int_equal(r.ncallees, 1);
    assert_int_equal(r.shared_bytes, 0);
    assert_false(r.dynamic_shared);
    isa_module_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ptx_parse_header),
        cmocka_unit_test(test_ptx_parse_file_directive),
        cmocka_unit_test(test_ptx_parse_module_variables),
        cmocka_unit_test(test_ptx_parse_signatures),
        cmocka_unit_test(test_ptx_parse_register_slots),
        cmocka_unit_test(test_ptx_parse_nested_blocks_shadowing),
        cmocka_unit_test(test_ptx_parse_labels_and_guards),
        cmocka_unit_test(test_ptx_parse_modifiers),
        cmocka_unit_test(test_ptx_parse_operands),
        cmocka_unit_test(test_ptx_parse_loc),
        cmocka_unit_test(test_ptx_parse_pragma_and_section),
        cmocka_unit_test(test_ptx_parse_callprototype),
        cmocka_unit_test(test_ptx_parse_branchtargets),
        cmocka_unit_test(test_ptx_parse_nul_terminated),
        cmocka_unit_test(test_ptx_parse_crlf),
        cmocka_unit_test(test_ptx_parse_equal_detects_difference),
        cmocka_unit_test(test_ptx_parse_roundtrip_inline),
        cmocka_unit_test(test_ptx_parse_roundtrip_corpus),
        cmocka_unit_test(test_ptx_parse_resources),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
