/*
 * PTX fundamental types, state spaces and special registers: the small
 * vocabularies every other part of the program representation refers to.
 */
#ifndef PTXSIM_ISA_TYPES_H
#define PTXSIM_ISA_TYPES_H

#include <stdbool.h>
#include <stdint.h>

/* Kind of a type: decides how its bits are interpreted. */
enum isa_tkind { ISA_TK_NONE, ISA_TK_BITS, ISA_TK_UINT, ISA_TK_SINT, ISA_TK_FLOAT, ISA_TK_PRED,
                 ISA_TK_OPAQUE };

/* TYPE(enum suffix, PTX spelling, size in bits, kind) */
#define ISA_TYPE_LIST(X)                                                                         \
    X(B8, "b8", 8, BITS) X(B16, "b16", 16, BITS) X(B32, "b32", 32, BITS)                         \
    X(B64, "b64", 64, BITS) X(B128, "b128", 128, BITS)                                           \
    X(U8, "u8", 8, UINT) X(U16, "u16", 16, UINT) X(U32, "u32", 32, UINT) X(U64, "u64", 64, UINT) \
    X(S8, "s8", 8, SINT) X(S16, "s16", 16, SINT) X(S32, "s32", 32, SINT) X(S64, "s64", 64, SINT) \
    X(F16, "f16", 16, FLOAT) X(F16X2, "f16x2", 32, FLOAT) X(BF16, "bf16", 16, FLOAT)            \
    X(BF16X2, "bf16x2", 32, FLOAT)      \
    X(U16X2, "u16x2", 32, UINT) X(S16X2, "s16x2", 32, SINT) X(F32, "f32", 32, FLOAT) X(F64, "f64", 64, FLOAT)            \
    X(TF32, "tf32", 32, FLOAT) X(E4M3, "e4m3", 8, FLOAT) X(E5M2, "e5m2", 8, FLOAT)             \
    X(E4M3X2, "e4m3x2", 16, FLOAT) X(E5M2X2, "e5m2x2", 16, FLOAT)                              \
    X(U4, "u4", 4, UINT) X(S4, "s4", 4, SINT) X(B1, "b1", 1, BITS) X(PRED, "pred", 1, PRED)     \
    X(TEXREF, "texref", 64, OPAQUE) X(SAMPLERREF, "samplerref", 64, OPAQUE)                     \
    X(SURFREF, "surfref", 64, OPAQUE)

enum isa_type {
    ISA_TYPE_NONE = 0,
#define X(e, s, b, k) ISA_TYPE_##e,
    ISA_TYPE_LIST(X)
#undef X
    ISA_TYPE_COUNT
};

/* STATE SPACE (enum suffix, PTX spelling) */
#define ISA_SPACE_LIST(X)                                                                        \
    X(REG, "reg") X(SREG, "sreg") X(GLOBAL, "global") X(SHARED, "shared") X(CONST, "const")     \
    X(LOCAL, "local") X(PARAM, "param") X(TEX, "tex") X(SURF, "surf") X(GENERIC, "generic")

enum isa_space {
    ISA_SPACE_NONE = 0,
#define X(e, s) ISA_SPACE_##e,
    ISA_SPACE_LIST(X)
#undef X
    ISA_SPACE_COUNT
};

/* Special registers: SREG(enum suffix, PTX name, has .x/.y/.z, width in bits) */
#define ISA_SREG_LIST(X)                                                                         \
    X(TID, "%tid", 1, 32) X(NTID, "%ntid", 1, 32) X(CTAID, "%ctaid", 1, 32)                      \
    X(NCTAID, "%nctaid", 1, 32) X(LANEID, "%laneid", 0, 32) X(WARPID, "%warpid", 0, 32)          \
    X(NWARPID, "%nwarpid", 0, 32) X(SMID, "%smid", 0, 32) X(NSMID, "%nsmid", 0, 32)              \
    X(GRIDID, "%gridid", 0, 64) X(CLOCK, "%clock", 0, 32) X(CLOCK_HI, "%clock_hi", 0, 32)        \
    X(CLOCK64, "%clock64", 0, 64) X(LANEMASK_EQ, "%lanemask_eq", 0, 32)                          \
    X(LANEMASK_LE, "%lanemask_le", 0, 32) X(LANEMASK_LT, "%lanemask_lt", 0, 32)                  \
    X(LANEMASK_GE, "%lanemask_ge", 0, 32) X(LANEMASK_GT, "%lanemask_gt", 0, 32)                  \
    X(GLOBALTIMER, "%globaltimer", 0, 64) X(GLOBALTIMER_LO, "%globaltimer_lo", 0, 32)            \
    X(GLOBALTIMER_HI, "%globaltimer_hi", 0, 32) X(TOTAL_SMEM, "%total_smem_size", 0, 32)         \
    X(DYN_SMEM, "%dynamic_smem_size", 0, 32) X(AGGR_SMEM, "%aggr_smem_size", 0, 32)              \
    X(RSV_SMEM_BEGIN, "%reserved_smem_offset_begin", 0, 32)                                      \
    X(RSV_SMEM_END, "%reserved_smem_offset_end", 0, 32)                                          \
    X(RSV_SMEM_CAP, "%reserved_smem_offset_cap", 0, 32)                                          \
    X(IS_EXPLICIT_CLUSTER, "%is_explicit_cluster", 0, 1) X(CLUSTERID, "%clusterid", 1, 32)       \
    X(NCLUSTERID, "%nclusterid", 1, 32) X(CLUSTER_CTAID, "%cluster_ctaid", 1, 32)                \
    X(CLUSTER_NCTAID, "%cluster_nctaid", 1, 32) X(CLUSTER_CTARANK, "%cluster_ctarank", 0, 32)    \
    X(CLUSTER_NCTARANK, "%cluster_nctarank", 0, 32)                                              \
    X(CURRENT_GRAPH_EXEC, "%current_graph_exec", 0, 64)                                          \
    X(PM0, "%pm0", 0, 32) X(PM1, "%pm1", 0, 32) X(PM2, "%pm2", 0, 32) X(PM3, "%pm3", 0, 32)      \
    X(PM4, "%pm4", 0, 32) X(PM5, "%pm5", 0, 32) X(PM6, "%pm6", 0, 32) X(PM7, "%pm7", 0, 32)      \
    X(PM0_64, "%pm0_64", 0, 64) X(PM1_64, "%pm1_64", 0, 64) X(PM2_64, "%pm2_64", 0, 64)          \
    X(PM3_64, "%pm3_64", 0, 64) X(PM4_64, "%pm4_64", 0, 64) X(PM5_64, "%pm5_64", 0, 64)          \
    X(PM6_64, "%pm6_64", 0, 64) X(PM7_64, "%pm7_64", 0, 64)

enum isa_sreg {
    ISA_SREG_NONE = 0,
#define X(e, s, c, w) ISA_SREG_##e,
    ISA_SREG_LIST(X)
#undef X
    /* %envreg0..%envreg31 follow as ISA_SREG_ENVREG0 + n. */
    ISA_SREG_ENVREG0,
    ISA_SREG_COUNT = ISA_SREG_ENVREG0 + 32
};

struct isa_type_info {
    const char *name; /* without the leading dot */
    uint16_t bits;
    uint8_t kind; /* enum isa_tkind */
};

const struct isa_type_info *isa_type_info(enum isa_type t);
const char *isa_type_name(enum isa_type t);
/* Size in bytes (bits rounded up; 1 for .pred). */
unsigned isa_type_size(enum isa_type t);
/* The type named by s (without dot), or ISA_TYPE_NONE. */
enum isa_type isa_type_lookup(const char *s, unsigned len);

const char *isa_space_name(enum isa_space s);

/* Special register by full name (with %), or ISA_SREG_NONE. */
enum isa_sreg isa_sreg_lookup(const char *s, unsigned len);
/* Printable name; envregs are written into buf (at least 16 bytes). */
const char *isa_sreg_name(enum isa_sreg r, char *buf);
bool isa_sreg_has_components(enum isa_sreg r);
unsigned isa_sreg_bits(enum isa_sreg r);

#endif
