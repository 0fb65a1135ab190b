/*
 * The program representation: what a PTX module says, decoded once.
 *
 * A module holds variables and functions in source order (items); a function
 * holds its parameters, registers (dense slots), local declarations, labels
 * and instructions. Instructions keep their modifiers in source order so the
 * printer can reproduce the text, and also carry the decoded semantic fields
 * (types, space, rounding, comparison, ...) that execution needs. Operands
 * are resolved: registers to slots, symbols to variable indices, labels to
 * label indices. Nothing here knows about time.
 *
 * Ownership: everything hangs off the module's arena and growable arrays and
 * is freed by isa_module_destroy().
 */
#ifndef PTXSIM_ISA_MODULE_H
#define PTXSIM_ISA_MODULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "isa/opcode.h"
#include "isa/types.h"

struct ps_arena;

#define ISA_NONE UINT32_MAX
#define ISA_MAX_MODS 14
#define ISA_MAX_DIMS 4
#define ISA_MAX_OPERANDS 10

enum isa_linkage { ISA_LINK_NONE, ISA_LINK_VISIBLE, ISA_LINK_EXTERN, ISA_LINK_WEAK,
                   ISA_LINK_COMMON };

/* One element of a variable initialiser. */
enum isa_init_kind { ISA_INIT_INT, ISA_INIT_F32, ISA_INIT_F64, ISA_INIT_FDEC, ISA_INIT_SYM,
                     ISA_INIT_GENERIC_SYM, ISA_INIT_FUNC, ISA_INIT_PROP };

struct isa_init {
    uint8_t kind;
    uint32_t sym; /* module variable (SYM/GENERIC_SYM) or function (FUNC) index */
    const char *prop, *prop_value; /* PROP: "name = value" of a texref/samplerref */
    union {
        int64_t i;  /* INT value, or byte offset for symbols */
        uint64_t bits; /* F32/F64 written as 0f/0d hex */
        double f;   /* FDEC */
    } v;
};

/* A variable, a parameter or a return value. */
struct isa_var {
    const char *name;
    uint8_t space;    /* enum isa_space */
    uint8_t type;     /* enum isa_type */
    uint8_t vec;      /* 0, 2, 4 or 8 */
    uint8_t linkage;  /* enum isa_linkage */
    uint8_t ndims;
    bool unsized;     /* first dimension written [] */
    bool has_init;
    bool init_braced; /* initialiser written with { } */
    bool is_ptr;      /* .ptr attribute on a parameter */
    bool managed;     /* .attribute(.managed) */
    uint8_t ptr_space;
    uint8_t bank;       /* .const[N] constant bank (PTX < 2.2) */
    bool has_bank;
    uint32_t align;     /* 0 when not given */
    uint32_t ptr_align; /* .ptr ... .align N */
    uint32_t scope;     /* function-local: owning scope; module: ISA_NONE */
    uint64_t dims[ISA_MAX_DIMS];
    uint64_t size_bytes; /* element size x element count (0 for unsized) */
    struct isa_init *init;
    uint32_t ninit;
    uint32_t line, col;
};

/* A .reg declaration: a single name or a %name<N> range of consecutive slots. */
struct isa_regdecl {
    const char *base;
    uint8_t type;
    uint8_t vec;
    bool is_range;
    uint32_t count;
    uint32_t first_slot;
    uint32_t scope;
};

struct isa_reg {
    uint8_t type;
    uint8_t vec;
    uint32_t decl;
};

enum isa_opnd_kind {
    ISA_OPND_NONE,
    ISA_OPND_REG,     /* a = slot; b = second slot of a d|p pair when PAIR */
    ISA_OPND_SREG,    /* a = enum isa_sreg; comp = 0 or 1..3 for .x/.y/.z */
    ISA_OPND_IMM,     /* v.i */
    ISA_OPND_F32,     /* 0fXXXXXXXX: v.bits */
    ISA_OPND_F64,     /* 0dXXXXXXXXXXXXXXXX: v.bits */
    ISA_OPND_FDEC,    /* decimal floating literal: v.f */
    ISA_OPND_SYM,     /* variable; symscope + a = index; v.i = offset */
    ISA_OPND_ADDR,    /* [base+offset]: base is REG (a), SYM (symscope, a) or none; v.i = offset */
    ISA_OPND_VEC,     /* {e0, e1, ...}: a = first pool index, n = count */
    ISA_OPND_LIST,    /* (e0, e1, ...) call arguments: a = first pool index, n = count */
    ISA_OPND_BRLIST,  /* [e0, e1, ...] texture/surface operand: a = first, n = count */
    ISA_OPND_LABEL,   /* a = label index */
    ISA_OPND_FUNC,    /* a = function index */
    ISA_OPND_SINK,    /* _ */
};

enum isa_symscope { ISA_SYM_MODULE, ISA_SYM_PARAM, ISA_SYM_RET, ISA_SYM_LOCAL };

#define ISA_OPF_NEG 0x1u      /* !%p */
#define ISA_OPF_PAIR 0x2u     /* %p|%q */
#define ISA_OPF_ADDR_REG 0x4u /* ADDR base is a register */
#define ISA_OPF_ADDR_SYM 0x8u /* ADDR base is a symbol */
#define ISA_OPF_MINUS 0x10u   /* written with unary minus (kept for printing floats) */

struct isa_operand {
    uint8_t kind;
    uint8_t flags;
    uint8_t comp;     /* .x .y .z .w = 1..4 on SREG/REG; byte/half selectors .b0-.b3 .h0 .h1 = 5..10 */
    uint8_t symscope; /* enum isa_symscope for SYM and ADDR_SYM */
    uint32_t a;
    uint32_t b;
    uint32_t n;
    union {
        int64_t i;
        uint64_t bits;
        double f;
    } v;
};

struct isa_instr {
    uint16_t op; /* enum isa_op */
    uint8_t nmods;
    uint8_t nops;
    uint16_t mods[ISA_MAX_MODS]; /* enum isa_mod, source order */
    uint32_t guard;              /* predicate slot or ISA_NONE */
    bool guard_neg;
    /* Decoded from mods. */
    uint8_t ntypes;
    uint8_t types[4];
    uint8_t vec;
    uint8_t space;
    uint8_t bank; /* ld.const[N] */
    uint8_t round;
    uint8_t cmp;
    uint8_t boolop;
    uint8_t mulmode;
    uint8_t atomop;
    uint8_t scope;
    uint8_t sem;
    uint8_t cache;
    uint8_t prec;
    uint8_t shfl;
    uint8_t vote;
    bool ftz, sat, cc, uni, sync;
    uint32_t first_op; /* index into isa_func.ops */
    uint32_t line, col; /* position in the PTX text */
    uint32_t loc_file, loc_line, loc_col; /* last .loc before it (0 = none) */
};

/* Whether in carries modifier m. */
static inline bool isa_instr_has_mod(const struct isa_instr *in, enum isa_mod m)
{
    for (unsigned i = 0; i < in->nmods; i++)
        if (in->mods[i] == m)
            return true;
    return false;
}

/* A load from the global space (ld, ldu): it only reads device memory (isa_warp_step_plain). */
static inline bool isa_instr_global_read(const struct isa_instr *in)
{
    return (in->op == ISA_OP_LD || in->op == ISA_OP_LDU) && in->space == ISA_SPACE_GLOBAL;
}

enum isa_label_kind { ISA_LABEL_CODE, ISA_LABEL_BRANCHTARGETS, ISA_LABEL_CALLTARGETS,
                      ISA_LABEL_CALLPROTOTYPE };

struct isa_label {
    const char *name;
    uint8_t kind;
    bool defined;
    uint32_t pos;   /* instruction index the label precedes */
    uint32_t scope;
    uint32_t first; /* targets: index into isa_func.targets; prototype: function index */
    uint32_t count;
    uint32_t use_line, use_col; /* first use, for "undefined label" errors */
};

/* A { } block inside a body: registers and variables declared in it are local to it. */
struct isa_block {
    uint32_t parent; /* ISA_NONE for the body itself */
    uint32_t begin;  /* first instruction index inside */
    uint32_t end;    /* one past the last */
};

/* A .pragma inside a body, placed before instruction pos. */
struct isa_pragma {
    uint32_t pos;
    uint32_t scope;
    const char *text;
};

/* Body statements in source order, so the printer can reproduce the text exactly. */
enum isa_stmt_kind { ISA_STMT_INSTR, ISA_STMT_REGDECL, ISA_STMT_LOCAL, ISA_STMT_LABEL,
                     ISA_STMT_PRAGMA, ISA_STMT_OPEN, ISA_STMT_CLOSE };

struct isa_stmt {
    uint8_t kind;
    uint32_t index; /* into instrs, regdecls, locals, labels, body_pragmas or scopes */
};

struct isa_perf {
    uint32_t maxntid[3], reqntid[3], reqnctapercluster[3];
    uint8_t maxntid_n, reqntid_n, reqnctapercluster_n;
    uint32_t minnctapersm, maxnctapersm, maxnreg, maxclusterrank;
    bool has_minnctapersm, has_maxnctapersm, has_maxnreg, has_maxclusterrank;
    bool explicitcluster, noreturn;
};

struct isa_func {
    const char *name;
    bool is_entry;
    bool has_body;
    bool is_prototype; /* a .callprototype signature, not a callable function */
    bool has_rets;     /* written with a ( ) return list, even if empty */
    uint8_t linkage;
    struct isa_var *params;
    uint32_t nparams;
    struct isa_var *rets;
    uint32_t nrets;
    struct isa_perf perf;
    const char **pragmas; /* .pragma between the signature and the body */
    uint32_t npragmas;
    /* Body. */
    struct isa_regdecl *regdecls;
    uint32_t nregdecls;
    struct isa_reg *regs;
    uint32_t nregs;
    struct isa_var *locals;
    uint32_t nlocals;
    struct isa_instr *instrs;
    uint32_t ninstrs;
    struct isa_operand *ops;
    uint32_t nops;
    struct isa_label *labels;
    uint32_t nlabels;
    uint32_t *targets; /* label (branchtargets) or function (calltargets) indices */
    uint32_t ntargets;
    struct isa_block *scopes;
    uint32_t nscopes;
    struct isa_pragma *body_pragmas;
    uint32_t nbody_pragmas;
    struct isa_stmt *stmts;
    uint32_t nstmts;
    uint32_t line, col;
    /* Capacities of the growable arrays above (owned by the module). */
    uint32_t cap_regdecls, cap_regs, cap_locals, cap_instrs, cap_ops, cap_labels, cap_targets,
        cap_scopes, cap_body_pragmas, cap_stmts;
};

enum isa_item_kind { ISA_ITEM_VAR, ISA_ITEM_FUNC_DECL, ISA_ITEM_FUNC_DEF, ISA_ITEM_PRAGMA };

struct isa_item {
    uint8_t kind;
    uint32_t index; /* into vars, funcs, or pragmas */
};

struct isa_file {
    uint32_t id;
    const char *name;
    bool has_meta;
    uint64_t timestamp, size;
};

struct isa_module {
    struct ps_arena *arena;
    uint32_t version_major, version_minor;
    const char *target;      /* "sm_80" */
    uint32_t sm;             /* 80 */
    const char **target_opts; /* texmode_independent, debug, map_f64_to_f32, ... */
    uint32_t ntarget_opts, cap_target_opts;
    uint32_t address_size;   /* 32 or 64; 0 when not given (means 32) */
    bool has_address_size;
    struct isa_var *vars;
    uint32_t nvars, cap_vars;
    struct isa_func **funcs;
    uint32_t nfuncs, cap_funcs;
    struct isa_item *items;
    uint32_t nitems, cap_items;
    struct isa_file *files;
    uint32_t nfiles, cap_files;
    const char **pragmas;
    uint32_t npragmas, cap_pragmas;
    const char *source_name; /* file name used in diagnostics */
};

/* An empty module, or NULL when out of memory. */
struct isa_module *isa_module_create(void);
/* Frees the module and everything decoded into it; accepts NULL. */
void isa_module_destroy(struct isa_module *m);

/* Function by name, or ISA_NONE. Linear; callers that need speed keep their own map. */
uint32_t isa_module_find_func(const struct isa_module *m, const char *name);
/* Module variable by name, or ISA_NONE. */
uint32_t isa_module_find_var(const struct isa_module *m, const char *name);

/*
 * Whether CTAs running f may see each other's progress in a race-free
 * program: f has an atomic or reduction on global or generic memory (or a
 * surface), a memory fence, a volatile access or one with a .relaxed,
 * .acquire or .release order, or a call (not followed). Without any of
 * these, a program without data races does the same work in any CTA
 * schedule.
 */
bool isa_func_ctas_interact(const struct isa_func *f);

/* Name of register slot r of f, written into buf (at least 64 bytes). */
const char *isa_reg_name(const struct isa_func *f, uint32_t r, char *buf, size_t len);

/*
 * Growable-array helper used by the parser: makes room for one more element
 * of size esz in *arr (count n, capacity *cap). Returns 0 or PS_ENOMEM.
 */
int isa_grow(void **arr, uint32_t n, uint32_t *cap, size_t esz);

/*
 * Structural equality of two modules (names, declarations, instructions,
 * operands, labels; not source positions). On difference returns false and
 * writes a one-line description into why (if non-NULL).
 */
bool isa_module_equal(const struct isa_module *a, const struct isa_module *b, char *why,
                      size_t why_len);

#endif
