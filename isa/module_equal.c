/*
 * Structural comparison of two modules, used by the round-trip check
 * (parse -> print -> parse must give the same representation). Source
 * positions of declarations and instructions are not compared: reprinting
 * moves them; .loc line information is.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "isa/module.h"

struct cmp {
    char *why;
    size_t len;
};

static bool differ(struct cmp *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static bool differ(struct cmp *c, const char *fmt, ...)
{
    va_list ap;

    if (c->why && c->len) {
        va_start(ap, fmt);
        vsnprintf(c->why, c->len, fmt, ap);
        va_end(ap);
    }
    return false;
}

static bool str_eq(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    return !strcmp(a, b);
}

static bool init_eq(const struct isa_init *a, const struct isa_init *b)
{
    return a->kind == b->kind && a->sym == b->sym && a->v.bits == b->v.bits &&
           str_eq(a->prop, b->prop) && str_eq(a->prop_value, b->prop_value);
}

static bool var_eq(struct cmp *c, const struct isa_var *a, const struct isa_var *b)
{
    if (!str_eq(a->name, b->name))
        return differ(c, "variable %s vs %s", a->name, b->name);
    if (a->space != b->space || a->type != b->type || a->vec != b->vec ||
        a->linkage != b->linkage || a->ndims != b->ndims || a->unsized != b->unsized ||
        a->has_init != b->has_init || a->init_braced != b->init_braced ||
        a->is_ptr != b->is_ptr || a->managed != b->managed || a->bank != b->bank ||
        a->has_bank != b->has_bank || a->ptr_space != b->ptr_space || a->align != b->align ||
        a->ptr_align != b->ptr_align || a->scope != b->scope || a->size_bytes != b->size_bytes ||
        a->ninit != b->ninit || memcmp(a->dims, b->dims, sizeof(a->dims)))
        return differ(c, "declaration of %s differs", a->name);
    for (uint32_t i = 0; i < a->ninit; i++)
        if (!init_eq(&a->init[i], &b->init[i]))
            return differ(c, "initialiser element %u of %s differs", i, a->name);
    return true;
}

static bool vars_eq(struct cmp *c, const struct isa_var *a, uint32_t na, const struct isa_var *b,
                    uint32_t nb, const char *what)
{
    if (na != nb)
        return differ(c, "%s count %u vs %u", what, na, nb);
    for (uint32_t i = 0; i < na; i++)
        if (!var_eq(c, &a[i], &b[i]))
            return false;
    return true;
}

static bool operand_eq(const struct isa_operand *a, const struct isa_operand *b)
{
    return a->kind == b->kind && a->flags == b->flags && a->comp == b->comp &&
           a->symscope == b->symscope && a->a == b->a && a->b == b->b && a->n == b->n &&
           a->v.bits == b->v.bits;
}

static bool instr_eq(struct cmp *c, const struct isa_func *f, const struct isa_instr *a,
                     const struct isa_instr *b, const struct isa_func *g)
{
    if (a->op != b->op || a->nmods != b->nmods || a->bank != b->bank || a->nops != b->nops || a->guard != b->guard ||
        a->guard_neg != b->guard_neg || memcmp(a->mods, b->mods, a->nmods * sizeof(a->mods[0])))
        return differ(c, "%s: instruction at line %u differs", f->name, a->line);
    if (a->loc_file != b->loc_file || a->loc_line != b->loc_line || a->loc_col != b->loc_col)
        return differ(c, "%s: .loc of instruction at line %u differs", f->name, a->line);
    for (uint32_t i = 0; i < a->nops; i++)
        if (!operand_eq(&f->ops[a->first_op + i], &g->ops[b->first_op + i]))
            return differ(c, "%s: operand %u of instruction at line %u differs", f->name, i,
                          a->line);
    return true;
}

static bool regs_eq(struct cmp *c, const struct isa_func *a, const struct isa_func *b)
{
    if (a->nregdecls != b->nregdecls || a->nregs != b->nregs)
        return differ(c, "%s: register declarations differ", a->name);
    for (uint32_t i = 0; i < a->nregdecls; i++) {
        const struct isa_regdecl *x = &a->regdecls[i], *y = &b->regdecls[i];

        if (!str_eq(x->base, y->base) || x->type != y->type || x->vec != y->vec ||
            x->is_range != y->is_range || x->count != y->count ||
            x->first_slot != y->first_slot || x->scope != y->scope)
            return differ(c, "%s: register declaration %s differs", a->name, x->base);
    }
    return true;
}

static bool labels_eq(struct cmp *c, const struct isa_func *a, const struct isa_func *b)
{
    if (a->nlabels != b->nlabels || a->ntargets != b->ntargets)
        return differ(c, "%s: label count differs", a->name);
    for (uint32_t i = 0; i < a->nlabels; i++) {
        const struct isa_label *x = &a->labels[i], *y = &b->labels[i];

        if (!str_eq(x->name, y->name) || x->kind != y->kind || x->pos != y->pos ||
            x->scope != y->scope || x->first != y->first || x->count != y->count)
            return differ(c, "%s: label %s differs", a->name, x->name);
    }
    if (a->ntargets && memcmp(a->targets, b->targets, a->ntargets * sizeof(a->targets[0])))
        return differ(c, "%s: branch/call target lists differ", a->name);
    return true;
}

static bool body_eq(struct cmp *c, const struct isa_func *a, const struct isa_func *b)
{
    if (!regs_eq(c, a, b) || !labels_eq(c, a, b))
        return false;
    if (!vars_eq(c, a->locals, a->nlocals, b->locals, b->nlocals, "local declaration"))
        return false;
    if (a->nscopes != b->nscopes ||
        (a->nscopes && memcmp(a->scopes, b->scopes, a->nscopes * sizeof(a->scopes[0]))))
        return differ(c, "%s: block structure differs", a->name);
    if (a->nbody_pragmas != b->nbody_pragmas)
        return differ(c, "%s: pragma count differs", a->name);
    for (uint32_t i = 0; i < a->nbody_pragmas; i++)
        if (a->body_pragmas[i].pos != b->body_pragmas[i].pos ||
            !str_eq(a->body_pragmas[i].text, b->body_pragmas[i].text))
            return differ(c, "%s: pragma %u differs", a->name, i);
    if (a->nstmts != b->nstmts)
        return differ(c, "%s: statement count differs", a->name);
    for (uint32_t i = 0; i < a->nstmts; i++)
        if (a->stmts[i].kind != b->stmts[i].kind || a->stmts[i].index != b->stmts[i].index)
            return differ(c, "%s: statement %u differs", a->name, i);
    if (a->ninstrs != b->ninstrs)
        return differ(c, "%s: %u vs %u instructions", a->name, a->ninstrs, b->ninstrs);
    for (uint32_t i = 0; i < a->ninstrs; i++)
        if (!instr_eq(c, a, &a->instrs[i], &b->instrs[i], b))
            return false;
    return true;
}

static bool func_eq(struct cmp *c, const struct isa_func *a, const struct isa_func *b)
{
    if (!str_eq(a->name, b->name))
        return differ(c, "function %s vs %s", a->name, b->name);
    if (a->is_entry != b->is_entry || a->has_body != b->has_body ||
        a->is_prototype != b->is_prototype || a->has_rets != b->has_rets ||
        a->linkage != b->linkage || memcmp(&a->perf, &b->perf, sizeof(a->perf)))
        return differ(c, "signature of %s differs", a->name);
    if (!vars_eq(c, a->params, a->nparams, b->params, b->nparams, "parameter") ||
        !vars_eq(c, a->rets, a->nrets, b->rets, b->nrets, "return value"))
        return false;
    if (a->npragmas != b->npragmas)
        return differ(c, "pragmas of %s differ", a->name);
    for (uint32_t i = 0; i < a->npragmas; i++)
        if (!str_eq(a->pragmas[i], b->pragmas[i]))
            return differ(c, "pragmas of %s differ", a->name);
    return !a->has_body || body_eq(c, a, b);
}

static bool header_eq(struct cmp *c, const struct isa_module *a, const struct isa_module *b)
{
    if (a->version_major != b->version_major || a->version_minor != b->version_minor)
        return differ(c, ".version differs");
    if (!str_eq(a->target, b->target) || a->ntarget_opts != b->ntarget_opts)
        return differ(c, ".target differs");
    for (uint32_t i = 0; i < a->ntarget_opts; i++)
        if (!str_eq(a->target_opts[i], b->target_opts[i]))
            return differ(c, ".target options differ");
    if (a->address_size != b->address_size || a->has_address_size != b->has_address_size)
        return differ(c, ".address_size differs");
    if (a->nfiles != b->nfiles)
        return differ(c, ".file count differs");
    for (uint32_t i = 0; i < a->nfiles; i++)
        if (a->files[i].id != b->files[i].id || !str_eq(a->files[i].name, b->files[i].name) ||
            a->files[i].has_meta != b->files[i].has_meta ||
            a->files[i].timestamp != b->files[i].timestamp || a->files[i].size != b->files[i].size)
            return differ(c, ".file %u differs", a->files[i].id);
    if (a->npragmas != b->npragmas)
        return differ(c, "module pragmas differ");
    for (uint32_t i = 0; i < a->npragmas; i++)
        if (!str_eq(a->pragmas[i], b->pragmas[i]))
            return differ(c, "module pragmas differ");
    return true;
}

bool isa_module_equal(const struct isa_module *a, const struct isa_module *b, char *why,
                      size_t why_len)
{
    struct cmp c = {why, why_len};

    if (!header_eq(&c, a, b))
        return false;
    if (a->nitems != b->nitems || a->nfuncs != b->nfuncs)
        return differ(&c, "module has %u vs %u items", a->nitems, b->nitems);
    for (uint32_t i = 0; i < a->nitems; i++)
        if (a->items[i].kind != b->items[i].kind || a->items[i].index != b->items[i].index)
            return differ(&c, "module item %u differs", i);
    if (!vars_eq(&c, a->vars, a->nvars, b->vars, b->nvars, "module variable"))
        return false;
    for (uint32_t i = 0; i < a->nfuncs; i++)
        if (!func_eq(&c, a->funcs[i], b->funcs[i]))
            return false;
    return true;
}
