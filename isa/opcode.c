#include "isa/opcode.h"

#include <string.h>

static const struct isa_op_info op_table[ISA_OP_COUNT] = {
    [ISA_OP_NONE] = {"", 0, 0, 0, 0, ISA_X_NONE, ISA_LAT_ADD, 0, ""},
#define C(c) ISA_CAT_BIT(c)
/* clang-format off */
#define OP(id, s, lo, hi, cats, unit, flags, xclass, lat, meaning) \
    [ISA_OP_##id] = {s, lo, hi, ISA_UNIT_##unit, flags, ISA_X_##xclass, ISA_LAT_##lat, (cats), \
                     meaning},
/* clang-format on */
#include "isa/opcodes.def"
#undef OP
#undef C
};

static const struct isa_mod_info mod_table[ISA_MOD_TYPE0] = {
    [ISA_MOD_NONE] = {"", 0, 0},
#define MOD(id, s, cat, val) [ISA_MOD_##id] = {s, ISA_CAT_##cat, val},
#include "isa/modifiers.def"
#undef MOD
};

static const char *const cat_names[ISA_CAT_COUNT] = {
#define X(c) #c,
    ISA_CAT_LIST(X)
#undef X
};

static const struct isa_mod_info type_mods[ISA_TYPE_COUNT] = {
    [ISA_TYPE_NONE] = {"", ISA_CAT_TYPE, ISA_TYPE_NONE},
#define X(e, s, b, k) [ISA_TYPE_##e] = {s, ISA_CAT_TYPE, ISA_TYPE_##e},
    ISA_TYPE_LIST(X)
#undef X
};

const struct isa_op_info *isa_op_info(enum isa_op op)
{
    return &op_table[(unsigned)op < ISA_OP_COUNT ? op : ISA_OP_NONE];
}

/* Linear; the parser builds its own hash of these names for speed. */
enum isa_op isa_op_lookup(const char *s, unsigned len)
{
    for (unsigned op = 1; op < ISA_OP_COUNT; op++) {
        const char *n = op_table[op].name;

        if (n[0] == s[0] && strlen(n) == len && !memcmp(n, s, len))
            return (enum isa_op)op;
    }
    return ISA_OP_NONE;
}

const struct isa_mod_info *isa_mod_info(enum isa_mod m)
{
    if ((unsigned)m >= ISA_MOD_TYPE0 && (unsigned)m < ISA_MOD_COUNT) {
        return &type_mods[(unsigned)m - ISA_MOD_TYPE0];
    }
    return &mod_table[(unsigned)m < ISA_MOD_TYPE0 ? m : ISA_MOD_NONE];
}

enum isa_mod isa_mod_lookup(const char *s, unsigned len, uint64_t cats, int *any_cat)
{
    enum isa_type t = isa_type_lookup(s, len);

    *any_cat = 0;
    if (t != ISA_TYPE_NONE) {
        *any_cat = 1;
        return (cats & ISA_CAT_BIT(TYPE)) ? (enum isa_mod)(ISA_MOD_TYPE0 + t) : ISA_MOD_NONE;
    }
    for (unsigned m = 1; m < ISA_MOD_TYPE0; m++) {
        const char *n = mod_table[m].name;

        if (n[0] != s[0] || strlen(n) != len || memcmp(n, s, len))
            continue;
        *any_cat = 1;
        if (cats & (UINT64_C(1) << mod_table[m].cat))
            return (enum isa_mod)m;
    }
    return ISA_MOD_NONE;
}

const char *isa_cat_name(enum isa_cat c)
{
    return (unsigned)c < ISA_CAT_COUNT ? cat_names[c] : "?";
}
