/*
 * Policy arguments: every policy declares its arguments as a table (name,
 * type, default, bounds or words, one-line meaning) over a config struct of
 * its own, and one parser reads the text after "name:" of the option value
 * into that struct before the policy's create() sees it (policies/create.h).
 * One parser gives every policy the same syntax and the same error messages,
 * "-gpgpu_scheduler ccws: k_throttle=abc: expected a whole number from 0 to
 * 4294967295". Adding a key is one table line.
 *
 * Two forms:
 * - key=value pairs (npos == 0): pairs separated by ',' or ':', every key
 *   optional and given at most once; a text value (a file name) runs to the
 *   next ',' only, so it may contain ':'.
 * - positional fields (npos > 0): GPGPU-Sim's "N:inner:outer", fields
 *   separated by ':', between min_pos and npos of them; the missing trailing
 *   fields keep their defaults.
 * Numbers are unsigned decimal digits (no sign, no exponent); fractions are
 * digits with at most one '.'.
 */
#ifndef PTXSIM_POLICIES_ARGS_H
#define PTXSIM_POLICIES_ARGS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct ps_err;

/* Longest text value (a path) plus its NUL: a POL_ARG_TEXT field is char[POL_ARG_TEXT_MAX]. */
#define POL_ARG_TEXT_MAX 4096

enum pol_arg_type {
    POL_ARG_UINT, /* uint32_t in [min, max]; `words` (optional) are names for fixed values */
    POL_ARG_WORD, /* uint32_t: the index of the value in `words` */
    POL_ARG_FRAC, /* double in [dmin, dmax] */
    POL_ARG_TEXT, /* char[POL_ARG_TEXT_MAX], at least one character */
    POL_ARG_GONE, /* a key that is refused with `help` as the reason (an option elsewhere) */
};

struct pol_arg {
    const char *key; /* the key of key=value, or the field's name in positional forms */
    enum pol_arg_type type;
    size_t off;        /* the field in the policy's config struct */
    uint32_t def;      /* UINT: the default; WORD: the default word's index */
    uint32_t min, max; /* UINT bounds */
    double ddef, dmin, dmax;
    const char *words;         /* "fifo|lru": WORD's values, or UINT's named values */
    const uint32_t *word_vals; /* UINT: the number each of `words` stands for */
    const char *help;          /* one line: what the argument means */
};

/* One policy's arguments. */
struct pol_argspec {
    const struct pol_arg *args;
    uint32_t nargs;
    size_t cfg_size; /* sizeof the config struct the table's offsets point into */
    uint32_t npos;   /* 0: key=value pairs; else at most npos positional fields */
    uint32_t min_pos;
    /*
     * Optional: relations between arguments that no single value can break,
     * and values derived from others. Returns 0, or nonzero with why[0..len)
     * saying what is wrong ("vta_assoc=3 must divide vta_entries=16").
     */
    int (*check)(void *cfg, char *why, size_t len);
};

/* Table lines: POL_KEY_<TYPE>("key", config struct, field, default, ...). */
#define POL_KEY_UINT(key_, cfg_t, field, d, lo, hi, help_)                                         \
    {                                                                                              \
        .key = key_, .type = POL_ARG_UINT, .off = offsetof(cfg_t, field), .def = d, .min = lo,     \
        .max = hi, .help = help_                                                                   \
    }
#define POL_KEY_WORD(key_, cfg_t, field, d, words_, help_)                                         \
    {                                                                                              \
        .key = key_, .type = POL_ARG_WORD, .off = offsetof(cfg_t, field), .def = d,                \
        .words = words_, .help = help_                                                             \
    }
#define POL_KEY_FRAC(key_, cfg_t, field, d, lo, hi, help_)                                         \
    {                                                                                              \
        .key = key_, .type = POL_ARG_FRAC, .off = offsetof(cfg_t, field), .ddef = d, .dmin = lo,   \
        .dmax = hi, .help = help_                                                                  \
    }
#define POL_KEY_TEXT(key_, cfg_t, field, help_)                                                    \
    {                                                                                              \
        .key = key_, .type = POL_ARG_TEXT, .off = offsetof(cfg_t, field), .help = help_            \
    }
#define POL_KEY_GONE(key_, why)                                                                    \
    {                                                                                              \
        .key = key_, .type = POL_ARG_GONE, .help = why                                             \
    }

#define POL_ARGSPEC_KEYS(cfg_type, table, check_)                                                  \
    {                                                                                              \
        .args = table, .nargs = sizeof(table) / sizeof((table)[0]), .cfg_size = sizeof(cfg_type),  \
        .check = check_                                                                            \
    }
#define POL_ARGSPEC_POS(cfg_type, table, min, check_)                                              \
    {                                                                                              \
        .args = table, .nargs = sizeof(table) / sizeof((table)[0]), .cfg_size = sizeof(cfg_type),  \
        .npos = sizeof(table) / sizeof((table)[0]), .min_pos = min, .check = check_                \
    }

/* Writes every argument's default into cfg[0..spec->cfg_size). */
void pol_args_defaults(const struct pol_argspec *spec, void *cfg);

/*
 * Parses text (NULL or "" = all defaults) into cfg, which it first fills
 * with the defaults. spec NULL: the policy takes no arguments, and any text
 * is an error. Returns 0, or PS_EINVAL with err's message starting
 * "<option> <name>: " (option "-gpgpu_scheduler", name "ccws").
 */
int pol_args_parse(const struct pol_argspec *spec, const char *option, const char *name,
                   const char *text, void *cfg, struct ps_err *err);

/*
 * Writes " key=value" for every argument of cfg as parsed (words by name,
 * numbers in decimal): the options line of a policy's dump.
 */
void pol_args_write(const struct pol_argspec *spec, const void *cfg, FILE *f);

#endif
