/*
 * The opcode and modifier vocabularies, expanded from isa/opcodes.def and
 * isa/modifiers.def. The parser maps a mnemonic to an enum isa_op and each
 * ".modifier" to an enum isa_mod; the engine and the timing model read the
 * semantic values (rounding mode, comparison, ...) through the tables here.
 */
#ifndef PTXSIM_ISA_OPCODE_H
#define PTXSIM_ISA_OPCODE_H

#include <stdint.h>

#include "isa/types.h"

/* Modifier categories; an opcode accepts a set of them (bit per category). */
#define ISA_CAT_LIST(X)                                                                          \
    X(TYPE) X(VEC) X(SPACE) X(ROUND) X(FTZ) X(SAT) X(SATFINITE) X(PREC) X(CC) X(UNI) X(SYNC)     \
    X(ALIGNED) X(TO) X(NC) X(VOLATILE) X(RELU) X(NAN) X(XORSIGN) X(ABS) X(SHIFTAMT) X(OOB)       \
    X(UNIFIED) X(WARP) X(CMP) X(BOOL) X(MUL) X(ATOM) X(SHFL) X(VOTE) X(SCOPE) X(SEM) X(CACHE)    \
    X(EVICT) X(EVICT2) X(PREFSIZE) X(HINT) X(LEVEL) X(BAR) X(SHFDIR) X(SHFMODE) X(PRMT)          \
    X(TESTP) X(GEOM) X(TEXLOD) X(SURFFMT) X(TEXCOMP) X(QUERY) X(FENCE) X(MISC)

enum isa_cat {
#define X(c) ISA_CAT_##c,
    ISA_CAT_LIST(X)
#undef X
    ISA_CAT_COUNT
};

#define ISA_CAT_BIT(c) (UINT64_C(1) << ISA_CAT_##c)

enum isa_rnd { ISA_RND_NONE, ISA_RND_RN, ISA_RND_RZ, ISA_RND_RM, ISA_RND_RP, ISA_RND_RNA,
               ISA_RND_RS, ISA_RND_RNI, ISA_RND_RZI, ISA_RND_RMI, ISA_RND_RPI };
enum isa_prec { ISA_PREC_NONE, ISA_PREC_APPROX, ISA_PREC_FULL };
enum isa_cmp { ISA_CMP_NONE, ISA_CMP_EQ, ISA_CMP_NE, ISA_CMP_LT, ISA_CMP_LE, ISA_CMP_GT,
               ISA_CMP_GE, ISA_CMP_LO, ISA_CMP_LS, ISA_CMP_HI, ISA_CMP_HS, ISA_CMP_EQU,
               ISA_CMP_NEU, ISA_CMP_LTU, ISA_CMP_LEU, ISA_CMP_GTU, ISA_CMP_GEU, ISA_CMP_NUM,
               ISA_CMP_NAN };
enum isa_boolop { ISA_BOOL_NONE, ISA_BOOL_AND, ISA_BOOL_OR, ISA_BOOL_XOR, ISA_BOOL_POPC };
enum isa_mulmode { ISA_MUL_NONE, ISA_MUL_LO, ISA_MUL_HI, ISA_MUL_WIDE };
enum isa_atomop { ISA_ATOM_NONE, ISA_ATOM_AND, ISA_ATOM_OR, ISA_ATOM_XOR, ISA_ATOM_CAS,
                  ISA_ATOM_EXCH, ISA_ATOM_ADD, ISA_ATOM_INC, ISA_ATOM_DEC, ISA_ATOM_MIN,
                  ISA_ATOM_MAX };
enum isa_shflmode { ISA_SHFL_NONE, ISA_SHFL_UP, ISA_SHFL_DOWN, ISA_SHFL_BFLY, ISA_SHFL_IDX };
enum isa_votemode { ISA_VOTE_NONE, ISA_VOTE_ALL, ISA_VOTE_ANY, ISA_VOTE_UNI, ISA_VOTE_BALLOT };
enum isa_scope { ISA_SCOPE_NONE, ISA_SCOPE_CTA, ISA_SCOPE_CLUSTER, ISA_SCOPE_GPU, ISA_SCOPE_SYS };
enum isa_sem { ISA_SEM_NONE, ISA_SEM_WEAK, ISA_SEM_RELAXED, ISA_SEM_ACQUIRE, ISA_SEM_RELEASE,
               ISA_SEM_ACQ_REL, ISA_SEM_SC, ISA_SEM_MMIO };
enum isa_cacheop { ISA_CACHE_NONE, ISA_CACHE_CA, ISA_CACHE_CG, ISA_CACHE_CS, ISA_CACHE_LU,
                   ISA_CACHE_CV, ISA_CACHE_WB, ISA_CACHE_WT };
enum isa_barop { ISA_BAR_SYNC, ISA_BAR_ARRIVE, ISA_BAR_RED };

enum isa_mod {
    ISA_MOD_NONE = 0,
#define MOD(id, s, cat, val) ISA_MOD_##id,
#include "isa/modifiers.def"
#undef MOD
    /* One modifier per fundamental type follows: ISA_MOD_TYPE0 + enum isa_type. */
    ISA_MOD_TYPE0,
    ISA_MOD_COUNT = ISA_MOD_TYPE0 + ISA_TYPE_COUNT
};

enum isa_unit { ISA_UNIT_INT, ISA_UNIT_FP, ISA_UNIT_SFU, ISA_UNIT_MEM, ISA_UNIT_CTRL,
                ISA_UNIT_SYNC };

/*
 * Which part of the interpreter runs an opcode (the execution class column of
 * isa/opcodes.def); ISA_X_NONE: not implemented, refused when a module loads.
 */
enum isa_xclass {
    ISA_X_NONE,
    ISA_X_ALU,
    ISA_X_MOV,
    ISA_X_MEM,
    ISA_X_TEX,
    ISA_X_CTRL,
    ISA_X_BAR,
    ISA_X_SYNC
};

/*
 * Column of the timing model's per-opcode latency and initiation tables (GPGPU-Sim's
 * -ptx_opcode_latency_{int,fp,dp}: ADD, MAX, MUL, MAD, DIV; integers also SHFL).
 */
enum isa_lat { ISA_LAT_ADD, ISA_LAT_MAX, ISA_LAT_MUL, ISA_LAT_MAD, ISA_LAT_DIV, ISA_LAT_SHFL };

#define ISA_OPF_NODST 0x1u
#define ISA_OPF_BRANCH 0x2u
#define ISA_OPF_CALL 0x4u

enum isa_op {
    ISA_OP_NONE = 0,
#define OP(id, s, lo, hi, cats, unit, flags, xclass, lat, meaning) ISA_OP_##id,
#define C(c) 0
#include "isa/opcodes.def"
#undef C
#undef OP
    ISA_OP_COUNT
};

struct isa_op_info {
    const char *name;
    uint8_t min_ops;
    uint8_t max_ops;
    uint8_t unit;  /* enum isa_unit */
    uint8_t flags; /* ISA_OPF_* */
    uint8_t xclass;      /* enum isa_xclass */
    uint8_t lat;         /* enum isa_lat */
    uint64_t cats;       /* accepted ISA_CAT_BIT()s */
    const char *meaning; /* one line, for listings and messages */
};

struct isa_mod_info {
    const char *name; /* spelling without the dot */
    uint8_t cat;      /* enum isa_cat */
    uint16_t value;
};

const struct isa_op_info *isa_op_info(enum isa_op op);
/* Opcode by mnemonic, or ISA_OP_NONE. */
enum isa_op isa_op_lookup(const char *s, unsigned len);

const struct isa_mod_info *isa_mod_info(enum isa_mod m);
/*
 * The modifier spelled s (without dot) whose category is in cats, or
 * ISA_MOD_NONE. *any_cat is set when the spelling exists in some category
 * (so the caller can tell "unknown" from "not valid here").
 */
enum isa_mod isa_mod_lookup(const char *s, unsigned len, uint64_t cats, int *any_cat);
const char *isa_cat_name(enum isa_cat c);

#endif
