#include "isa/types.h"

#include <stdio.h>
#include <string.h>

static const struct isa_type_info type_table[ISA_TYPE_COUNT] = {
    [ISA_TYPE_NONE] = {"", 0, ISA_TK_NONE},
#define X(e, s, b, k) [ISA_TYPE_##e] = {s, b, ISA_TK_##k},
    ISA_TYPE_LIST(X)
#undef X
};

static const char *const space_names[ISA_SPACE_COUNT] = {
    [ISA_SPACE_NONE] = "",
#define X(e, s) [ISA_SPACE_##e] = s,
    ISA_SPACE_LIST(X)
#undef X
};

struct sreg_info {
    const char *name;
    uint8_t has_comp;
    uint8_t bits;
};

static const struct sreg_info sreg_table[ISA_SREG_ENVREG0] = {
    [ISA_SREG_NONE] = {"", 0, 0},
#define X(e, s, c, w) [ISA_SREG_##e] = {s, c, w},
    ISA_SREG_LIST(X)
#undef X
};

const struct isa_type_info *isa_type_info(enum isa_type t)
{
    return &type_table[(unsigned)t < ISA_TYPE_COUNT ? t : ISA_TYPE_NONE];
}

const char *isa_type_name(enum isa_type t)
{
    return isa_type_info(t)->name;
}

unsigned isa_type_size(enum isa_type t)
{
    unsigned bits = isa_type_info(t)->bits;

    return bits ? (bits + 7) / 8 : 0;
}

enum isa_type isa_type_lookup(const char *s, unsigned len)
{
    for (unsigned t = 1; t < ISA_TYPE_COUNT; t++)
        if (len && type_table[t].name[0] == s[0] && !strncmp(type_table[t].name, s, len) &&
            type_table[t].name[len] == '\0')
            return (enum isa_type)t;
    return ISA_TYPE_NONE;
}

const char *isa_space_name(enum isa_space s)
{
    return space_names[(unsigned)s < ISA_SPACE_COUNT ? s : ISA_SPACE_NONE];
}

enum isa_sreg isa_sreg_lookup(const char *s, unsigned len)
{
    if (len > 7 && len <= 9 && !memcmp(s, "%envreg", 7)) {
        unsigned n = 0;

        for (unsigned i = 7; i < len; i++) {
            if (s[i] < '0' || s[i] > '9')
                return ISA_SREG_NONE;
            n = n * 10 + (unsigned)(s[i] - '0');
        }
        if (n < 32 && !(len == 9 && s[7] == '0'))
            return (enum isa_sreg)(ISA_SREG_ENVREG0 + n);
        return ISA_SREG_NONE;
    }
    for (unsigned r = 1; r < ISA_SREG_ENVREG0; r++)
        if (len > 1 && sreg_table[r].name[1] == s[1] && !strncmp(sreg_table[r].name, s, len) &&
            sreg_table[r].name[len] == '\0')
            return (enum isa_sreg)r;
    return ISA_SREG_NONE;
}

const char *isa_sreg_name(enum isa_sreg r, char *buf)
{
    if (r >= ISA_SREG_ENVREG0 && r < ISA_SREG_COUNT) {
        snprintf(buf, 16, "%%envreg%u", (unsigned)(r - ISA_SREG_ENVREG0));
        return buf;
    }
    return (unsigned)r < ISA_SREG_ENVREG0 ? sreg_table[r].name : "";
}

bool isa_sreg_has_components(enum isa_sreg r)
{
    return (unsigned)r < ISA_SREG_ENVREG0 && sreg_table[r].has_comp;
}

unsigned isa_sreg_bits(enum isa_sreg r)
{
    if (r >= ISA_SREG_ENVREG0)
        return 32;
    return sreg_table[r].bits;
}
