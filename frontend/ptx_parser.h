/*
 * Private state shared by the PTX parser's files. Not part of the front end's
 * public API. The files are layered, each calling only those below it:
 *   ptx_parse.c       module level: header directives, functions, ptx_parse()
 *   ptx_parse_body.c  function bodies: blocks, directives, instructions
 *   ptx_operand.c     operands of an instruction
 *   ptx_names.c       registers and labels of a body
 *   ptx_decl.c        variable declarations and parameter lists
 *   ptx_cursor.c      token cursor, errors, statement records, scoped bindings
 */
#ifndef PTXSIM_FRONTEND_PTX_PARSER_H
#define PTXSIM_FRONTEND_PTX_PARSER_H

#include <stdbool.h>
#include <stdint.h>

#include "common/err.h"
#include "frontend/ptx_lex.h"
#include "isa/module.h"

/* Symbol-map values carry a kind tag above a 28-bit index. */
#define SYM_TAG(v) ((v) >> 28)
#define SYM_IDX(v) ((v) & 0x0fffffffu)
#define SYM_MAKE(tag, idx) (((uint32_t)(tag) << 28) | (uint32_t)(idx))
#define SYM_MAX_INDEX 0x0fffffffu

enum { G_VAR = 1, G_FUNC = 2 };
enum { L_REG = 1, L_RANGE = 2, L_LOCAL = 3, L_PARAM = 4, L_RET = 5 };

struct ps_strmap;

/* A scoped name binding to restore when its block closes. */
struct undo {
    struct ps_strmap *map;
    const char *name;
    uint32_t len;
    uint32_t old;
};

struct parser {
    struct ptx_lexer lx;
    struct ptx_token tok;
    struct isa_module *m;
    struct ps_err *err;
    const char *fname;
    struct ps_strmap *ops;  /* mnemonic -> enum isa_op */
    struct ps_strmap *mods; /* spelling -> first enum isa_mod with it */
    uint16_t mod_next[ISA_MOD_COUNT];
    struct ps_strmap *gsyms; /* module variables and functions */
    /* Current function body. */
    struct isa_func *f;
    struct ps_strmap *lsyms;
    struct ps_strmap *labels;
    struct undo *undo;
    uint32_t nundo, cap_undo;
    uint32_t scope;
    uint32_t loc_file, loc_line, loc_col;
    int pending_bank; /* .const[N] just read, for the declaration that follows; -1 if none */
};

/* ---- ptx_cursor.c ---- */

/* Records the first error at (line, col) and returns PS_EPARSE. */
int pp_fail(struct parser *p, uint32_t line, uint32_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* As pp_fail at the current token. */
int pp_fail_tok(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int pp_oom(struct parser *p);

/* Advances; returns PS_EPARSE if the new token is a lexical error. */
int pp_next(struct parser *p);
bool pp_is(const struct parser *p, char punct);
bool pp_is_dot_n(const struct parser *p, const char *name, size_t len);
/* Whether the current token is ".name"; name must be a string literal. */
#define pp_is_dot(p, name) pp_is_dot_n((p), (name), sizeof(name) - 1)
/* Consumes punct or fails with "expected 'c'". */
int pp_expect(struct parser *p, char punct);
/* Consumes an integer token into *v. */
int pp_expect_uint(struct parser *p, uint64_t *v, const char *what);
/* A short description of the current token for messages. */
const char *pp_tok_desc(const struct parser *p, char *buf, size_t len);
char *pp_strdup(struct parser *p, const char *s, size_t len);
/* Reads "[N]" after .const (an old constant bank) into *bank. */
int pp_const_bank(struct parser *p, uint8_t *bank);
/* The string of a .pragma (the current token) and its ';'. */
int pp_pragma_text(struct parser *p, const char **text);

/* Appends a statement record (instruction, declaration, label, ...) to the body. */
int pp_add_stmt(struct parser *p, enum isa_stmt_kind kind, uint32_t index);
/* Block in which an existing binding was made (params count as outside the body). */
uint32_t pp_binding_scope(const struct parser *p, uint32_t v);
/* Binds name in map for the current block, remembering what to restore when it closes. */
int pp_bind(struct parser *p, struct ps_strmap *map, const char *name, uint32_t len, uint32_t val);
/* Binds a name in the current block; fails on a redeclaration in the same block. */
int pp_bind_local(struct parser *p, const char *name, uint32_t len, uint32_t val, uint32_t line,
                  uint32_t col);
/* Restores the bindings made since the undo log had `mark` entries. */
void pp_unbind_to(struct parser *p, uint32_t mark);

/* ---- ptx_decl.c: declarations shared by module scope and bodies ---- */

int pp_var_decl(struct parser *p, enum isa_space space, enum isa_linkage link, bool in_body);
int pp_param_list(struct parser *p, struct isa_var **out, uint32_t *n, bool allow_reg);
/* The state space the current ".name" token names, or ISA_SPACE_NONE. */
int pp_space_of_dot(const struct parser *p);

/* ---- ptx_names.c ---- */

int pp_new_regdecl(struct parser *p, const struct isa_regdecl *d, uint32_t line, uint32_t col);
/* A .reg declaration; the current token is the one after ".reg". */
int pp_reg_decl(struct parser *p);
/* The register %nameN of a %name<M> range, or ISA_NONE. */
uint32_t pp_lookup_range_reg(const struct parser *p, const char *s, uint32_t len);
/* The label a name refers to here; an unknown name becomes a forward reference. */
int pp_label_ref(struct parser *p, const struct ptx_token *t, uint32_t *idx);
/* A label definition "name:" (name is its token; the ':' is current). */
int pp_label_def(struct parser *p, const struct ptx_token *name);

/* ---- ptx_operand.c ---- */

enum ident_ctx { CTX_VALUE, CTX_BRANCH };

/* A local (body or parameter) symbol named t, as an operand. */
bool pp_local_sym(struct parser *p, const struct ptx_token *t, struct isa_operand *o);
/* Appends n operands to the function's pool; *first is where they start. */
int pp_pool_append(struct parser *p, const struct isa_operand *ops, uint32_t n, uint32_t *first);
/* One operand at the current token (depth: nesting of vectors and lists). */
int pp_operand(struct parser *p, struct isa_operand *o, enum ident_ctx ctx, int depth);

/* ---- ptx_parse_body.c ---- */

/* Function body; the opening '{' is the current token. */
int pp_body(struct parser *p, uint32_t fidx);
/* .loc directive; the current token is the one after ".loc". */
int pp_loc(struct parser *p);

#endif
