#include "isa/print.h"

#include <inttypes.h>
#include <string.h>

#include "common/err.h"
#include "isa/module.h"

static void print_fdec(double f, FILE *out)
{
    char buf[40];

    snprintf(buf, sizeof(buf), "%.17g", f);
    /* Keep it lexing as a float, not an integer. */
    fputs(buf, out);
    if (!strpbrk(buf, ".e"))
        fputs(".0", out);
}

static void print_offset(int64_t off, FILE *out)
{
    if (off > 0)
        fprintf(out, "+%" PRId64, off);
    else if (off < 0)
        fprintf(out, "-%" PRIu64, (uint64_t)0 - (uint64_t)off);
}

static const char *sym_name(const struct isa_module *m, const struct isa_func *f,
                            unsigned scope, uint32_t idx)
{
    switch (scope) {
    case ISA_SYM_PARAM: return f->params[idx].name;
    case ISA_SYM_RET: return f->rets[idx].name;
    case ISA_SYM_LOCAL: return f->locals[idx].name;
    default: return m->vars[idx].name;
    }
}

static void print_operand(const struct isa_module *m, const struct isa_func *f,
                          const struct isa_operand *o, FILE *out);

static void print_list(const struct isa_module *m, const struct isa_func *f,
                       const struct isa_operand *o, const char *open, const char *close,
                       FILE *out)
{
    fputs(open, out);
    for (uint32_t i = 0; i < o->n; i++) {
        if (i)
            fputs(", ", out);
        print_operand(m, f, &f->ops[o->a + i], out);
    }
    fputs(close, out);
}

static void print_comp(unsigned comp, FILE *out)
{
    static const char *const names[] = {"", "x", "y", "z", "w", "b0", "b1", "b2", "b3", "h0", "h1"};

    if (comp && comp < sizeof(names) / sizeof(names[0]))
        fprintf(out, ".%s", names[comp]);
}

static void print_reg(const struct isa_func *f, const struct isa_operand *o, FILE *out)
{
    char buf[96];

    if (o->flags & ISA_OPF_NEG)
        fputc('!', out);
    fputs(isa_reg_name(f, o->a, buf, sizeof(buf)), out);
    print_comp(o->comp, out);
    if (o->flags & ISA_OPF_PAIR)
        fprintf(out, "|%s", o->b == ISA_NONE ? "_" : isa_reg_name(f, o->b, buf, sizeof(buf)));
}

static void print_addr(const struct isa_module *m, const struct isa_func *f,
                       const struct isa_operand *o, FILE *out)
{
    char buf[96];

    fputc('[', out);
    if (o->flags & ISA_OPF_ADDR_REG) {
        fputs(isa_reg_name(f, o->a, buf, sizeof(buf)), out);
        print_offset(o->v.i, out);
    } else if (o->flags & ISA_OPF_ADDR_SYM) {
        fputs(sym_name(m, f, o->symscope, o->a), out);
        print_offset(o->v.i, out);
    } else {
        fprintf(out, "%" PRIu64, o->v.bits);
    }
    fputc(']', out);
}

static void print_operand(const struct isa_module *m, const struct isa_func *f,
                          const struct isa_operand *o, FILE *out)
{
    char buf[32];

    switch (o->kind) {
    case ISA_OPND_REG: print_reg(f, o, out); break;
    case ISA_OPND_SREG:
        fputs(isa_sreg_name((enum isa_sreg)o->a, buf), out);
        print_comp(o->comp, out);
        break;
    case ISA_OPND_IMM: fprintf(out, "%" PRId64, o->v.i); break;
    case ISA_OPND_F32:
        if (o->flags & ISA_OPF_MINUS)
            fprintf(out, "-0f%08" PRIX32, (uint32_t)(o->v.bits ^ 0x80000000u));
        else
            fprintf(out, "0f%08" PRIX32, (uint32_t)o->v.bits);
        break;
    case ISA_OPND_F64:
        if (o->flags & ISA_OPF_MINUS)
            fprintf(out, "-0d%016" PRIX64, o->v.bits ^ (UINT64_C(1) << 63));
        else
            fprintf(out, "0d%016" PRIX64, o->v.bits);
        break;
    case ISA_OPND_FDEC: print_fdec(o->v.f, out); break;
    case ISA_OPND_SYM:
        fputs(sym_name(m, f, o->symscope, o->a), out);
        print_offset(o->v.i, out);
        break;
    case ISA_OPND_ADDR: print_addr(m, f, o, out); break;
    case ISA_OPND_VEC: print_list(m, f, o, "{", "}", out); break;
    case ISA_OPND_LIST: print_list(m, f, o, "(", ")", out); break;
    case ISA_OPND_BRLIST: print_list(m, f, o, "[", "]", out); break;
    case ISA_OPND_LABEL: fputs(f->labels[o->a].name, out); break;
    case ISA_OPND_FUNC: fputs(m->funcs[o->a]->name, out); break;
    case ISA_OPND_SINK: fputc('_', out); break;
    default: fputs("<?>", out); break;
    }
}

void isa_print_instr(const struct isa_module *m, const struct isa_func *f,
                     const struct isa_instr *in, FILE *out)
{
    char buf[96];

    if (in->guard != ISA_NONE)
        fprintf(out, "@%s%s ", in->guard_neg ? "!" : "", isa_reg_name(f, in->guard, buf, sizeof(buf)));
    fputs(isa_op_info((enum isa_op)in->op)->name, out);
    for (unsigned i = 0; i < in->nmods; i++) {
        fprintf(out, ".%s", isa_mod_info((enum isa_mod)in->mods[i])->name);
        if (in->mods[i] == ISA_MOD_CONST && in->bank)
            fprintf(out, "[%u]", in->bank);
    }
    for (unsigned i = 0; i < in->nops; i++) {
        fputs(i ? ", " : " ", out);
        print_operand(m, f, &f->ops[in->first_op + i], out);
    }
    fputc(';', out);
}

static void print_init_elem(const struct isa_module *m, const struct isa_init *e, FILE *out)
{
    switch (e->kind) {
    case ISA_INIT_INT: fprintf(out, "%" PRId64, e->v.i); break;
    case ISA_INIT_F32: fprintf(out, "0f%08" PRIX32, (uint32_t)e->v.bits); break;
    case ISA_INIT_F64: fprintf(out, "0d%016" PRIX64, e->v.bits); break;
    case ISA_INIT_FDEC: print_fdec(e->v.f, out); break;
    case ISA_INIT_FUNC: fputs(m->funcs[e->sym]->name, out); break;
    case ISA_INIT_PROP: fprintf(out, "%s = %s", e->prop, e->prop_value); break;
    case ISA_INIT_GENERIC_SYM:
        fprintf(out, "generic(%s)", m->vars[e->sym].name);
        print_offset(e->v.i, out);
        break;
    default:
        fputs(m->vars[e->sym].name, out);
        print_offset(e->v.i, out);
        break;
    }
}

static const char *linkage_name(unsigned l)
{
    static const char *const names[] = {"", ".visible ", ".extern ", ".weak ", ".common "};

    return l < sizeof(names) / sizeof(names[0]) ? names[l] : "";
}

/* A declaration without its space keyword: attributes, type, name, dims, initialiser. */
static void print_var_tail(const struct isa_module *m, const struct isa_var *v, FILE *out)
{
    if (v->managed)
        fputs(" .attribute(.managed)", out);
    if (v->align)
        fprintf(out, " .align %u", v->align);
    if (v->vec)
        fprintf(out, " .v%u", v->vec);
    fprintf(out, " .%s", isa_type_name((enum isa_type)v->type));
    if (v->is_ptr) {
        fputs(" .ptr", out);
        if (v->ptr_space)
            fprintf(out, " .%s", isa_space_name((enum isa_space)v->ptr_space));
        if (v->ptr_align)
            fprintf(out, " .align %u", v->ptr_align);
    }
    fprintf(out, " %s", v->name);
    for (unsigned d = 0; d < v->ndims; d++) {
        if (d == 0 && v->unsized)
            fputs("[]", out);
        else
            fprintf(out, "[%" PRIu64 "]", v->dims[d]);
    }
    if (!v->has_init)
        return;
    fputs(v->init_braced ? " = {" : " = ", out);
    for (uint32_t i = 0; i < v->ninit; i++) {
        if (i)
            fputs(", ", out);
        print_init_elem(m, &v->init[i], out);
    }
    if (v->init_braced)
        fputc('}', out);
}

static void print_var(const struct isa_module *m, const struct isa_var *v, FILE *out)
{
    fprintf(out, "%s.%s", linkage_name(v->linkage), isa_space_name((enum isa_space)v->space));
    if (v->has_bank)
        fprintf(out, "[%u]", v->bank);
    print_var_tail(m, v, out);
    fputs(";\n", out);
}

static void print_params(const struct isa_module *m, const struct isa_var *vs, uint32_t n,
                         FILE *out)
{
    fputs("(", out);
    for (uint32_t i = 0; i < n; i++) {
        fprintf(out, "%s\n\t.%s", i ? "," : "", isa_space_name((enum isa_space)vs[i].space));
        print_var_tail(m, &vs[i], out);
    }
    fputs(n ? "\n)" : ")", out);
}

static void print_perf(const struct isa_func *f, FILE *out)
{
    const struct isa_perf *q = &f->perf;
    static const char *const tn[] = {".maxntid", ".reqntid", ".reqnctapercluster"};
    const uint32_t *tv[] = {q->maxntid, q->reqntid, q->reqnctapercluster};
    const uint8_t tc[] = {q->maxntid_n, q->reqntid_n, q->reqnctapercluster_n};

    for (unsigned k = 0; k < 3; k++) {
        if (!tc[k])
            continue;
        fprintf(out, "\n%s ", tn[k]);
        for (unsigned i = 0; i < tc[k]; i++)
            fprintf(out, "%s%u", i ? ", " : "", tv[k][i]);
    }
    if (q->has_minnctapersm)
        fprintf(out, "\n.minnctapersm %u", q->minnctapersm);
    if (q->has_maxnctapersm)
        fprintf(out, "\n.maxnctapersm %u", q->maxnctapersm);
    if (q->has_maxnreg)
        fprintf(out, "\n.maxnreg %u", q->maxnreg);
    if (q->has_maxclusterrank)
        fprintf(out, "\n.maxclusterrank %u", q->maxclusterrank);
    if (q->explicitcluster)
        fputs("\n.explicitcluster", out);
    if (q->noreturn)
        fputs("\n.noreturn", out);
    for (uint32_t i = 0; i < f->npragmas; i++)
        fprintf(out, "\n.pragma \"%s\";", f->pragmas[i]);
}

static void print_signature(const struct isa_module *m, const struct isa_func *f, FILE *out)
{
    fprintf(out, "%s%s ", linkage_name(f->linkage), f->is_entry ? ".entry" : ".func");
    if (f->has_rets) {
        print_params(m, f->rets, f->nrets, out);
        fputc(' ', out);
    }
    fputs(f->name, out);
    if (f->is_entry || f->nparams)
        print_params(m, f->params, f->nparams, out);
    print_perf(f, out);
}

static void print_label(const struct isa_module *m, const struct isa_func *f,
                        const struct isa_label *l, FILE *out)
{
    const struct isa_func *proto;

    fprintf(out, "%s:", l->name);
    switch (l->kind) {
    case ISA_LABEL_BRANCHTARGETS:
    case ISA_LABEL_CALLTARGETS:
        fputs(l->kind == ISA_LABEL_CALLTARGETS ? " .calltargets " : " .branchtargets ", out);
        for (uint32_t i = 0; i < l->count; i++) {
            uint32_t t = f->targets[l->first + i];

            fprintf(out, "%s%s", i ? ", " : "",
                    l->kind == ISA_LABEL_CALLTARGETS ? m->funcs[t]->name : f->labels[t].name);
        }
        fputc(';', out);
        break;
    case ISA_LABEL_CALLPROTOTYPE:
        proto = m->funcs[l->first];
        fputs(" .callprototype ", out);
        if (proto->has_rets) {
            print_params(m, proto->rets, proto->nrets, out);
            fputc(' ', out);
        }
        fputs("_ ", out);
        if (proto->nparams)
            print_params(m, proto->params, proto->nparams, out);
        if (proto->perf.noreturn)
            fputs(" .noreturn", out);
        fputc(';', out);
        break;
    default:
        break;
    }
    fputc('\n', out);
}

struct body_printer {
    const struct isa_module *m;
    const struct isa_func *f;
    FILE *out;
    unsigned depth;
    uint32_t file, line, col;
};

static void indent(const struct body_printer *bp)
{
    for (unsigned i = 0; i <= bp->depth; i++)
        fputc('\t', bp->out);
}

static void print_regdecl(const struct body_printer *bp, const struct isa_regdecl *d)
{
    indent(bp);
    fputs(".reg", bp->out);
    if (d->vec)
        fprintf(bp->out, " .v%u", d->vec);
    fprintf(bp->out, " .%s %s", isa_type_name((enum isa_type)d->type), d->base);
    if (d->is_range)
        fprintf(bp->out, "<%u>", d->count);
    fputs(";\n", bp->out);
}

static void print_body_instr(struct body_printer *bp, const struct isa_instr *in)
{
    if (in->loc_file != bp->file || in->loc_line != bp->line || in->loc_col != bp->col) {
        indent(bp);
        fprintf(bp->out, ".loc %u %u %u\n", in->loc_file, in->loc_line, in->loc_col);
        bp->file = in->loc_file;
        bp->line = in->loc_line;
        bp->col = in->loc_col;
    }
    indent(bp);
    isa_print_instr(bp->m, bp->f, in, bp->out);
    fputc('\n', bp->out);
}

static void print_stmt(struct body_printer *bp, const struct isa_stmt *s)
{
    const struct isa_func *f = bp->f;
    const struct isa_var *v;

    switch (s->kind) {
    case ISA_STMT_INSTR: print_body_instr(bp, &f->instrs[s->index]); break;
    case ISA_STMT_REGDECL: print_regdecl(bp, &f->regdecls[s->index]); break;
    case ISA_STMT_LOCAL:
        v = &f->locals[s->index];
        indent(bp);
        fprintf(bp->out, ".%s", isa_space_name((enum isa_space)v->space));
        print_var_tail(bp->m, v, bp->out);
        fputs(";\n", bp->out);
        break;
    case ISA_STMT_LABEL: print_label(bp->m, f, &f->labels[s->index], bp->out); break;
    case ISA_STMT_PRAGMA:
        indent(bp);
        fprintf(bp->out, ".pragma \"%s\";\n", f->body_pragmas[s->index].text);
        break;
    case ISA_STMT_OPEN:
        indent(bp);
        fputs("{\n", bp->out);
        bp->depth++;
        break;
    case ISA_STMT_CLOSE:
        bp->depth--;
        indent(bp);
        fputs("}\n", bp->out);
        break;
    default:
        break;
    }
}

static void print_func(const struct isa_module *m, const struct isa_func *f, bool body, FILE *out)
{
    struct body_printer bp = {m, f, out, 0, 0, 0, 0};

    print_signature(m, f, out);
    if (!body) {
        fputs(";\n\n", out);
        return;
    }
    fputs("\n{\n", out);
    for (uint32_t i = 0; i < f->nstmts; i++)
        print_stmt(&bp, &f->stmts[i]);
    fputs("}\n\n", out);
}

static void print_header(const struct isa_module *m, FILE *out)
{
    fprintf(out, ".version %u.%u\n.target %s", m->version_major, m->version_minor,
            m->target ? m->target : "sm_20");
    for (uint32_t i = 0; i < m->ntarget_opts; i++)
        fprintf(out, ", %s", m->target_opts[i]);
    fputc('\n', out);
    if (m->has_address_size)
        fprintf(out, ".address_size %u\n", m->address_size);
    for (uint32_t i = 0; i < m->nfiles; i++) {
        const struct isa_file *fl = &m->files[i];

        fprintf(out, ".file %u \"%s\"", fl->id, fl->name);
        if (fl->has_meta)
            fprintf(out, ", %" PRIu64 ", %" PRIu64, fl->timestamp, fl->size);
        fputc('\n', out);
    }
    fputc('\n', out);
}

int isa_print_module(const struct isa_module *m, FILE *out)
{
    print_header(m, out);
    for (uint32_t i = 0; i < m->nitems; i++) {
        const struct isa_item *it = &m->items[i];

        switch (it->kind) {
        case ISA_ITEM_VAR: print_var(m, &m->vars[it->index], out); break;
        case ISA_ITEM_FUNC_DECL: print_func(m, m->funcs[it->index], false, out); break;
        case ISA_ITEM_FUNC_DEF: print_func(m, m->funcs[it->index], true, out); break;
        case ISA_ITEM_PRAGMA: fprintf(out, ".pragma \"%s\";\n", m->pragmas[it->index]); break;
        default: break;
        }
    }
    return ferror(out) ? PS_EIO : 0;
}
