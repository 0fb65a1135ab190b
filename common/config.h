/*
 * Configuration of the timing model, compatible with GPGPU-Sim's options.
 *
 * Every option is one row of common/options.def; struct ps_config has one field per row,
 * named after the option with ':' replaced by '_' (option "gpgpu_cache:dl1" is field
 * gpgpu_cache_dl1). The defaults are the GPGPU-Sim GTX 480 configuration. A configuration
 * is built in this order, later steps winning: defaults (ps_config_init), then a config
 * file in GPGPU-Sim syntax (ps_config_load_file), then "name=value" overrides in the order
 * given (ps_config_override). ps_config_check then rejects values that the timing model
 * could not run with. Simulator code reads options through a const struct ps_config *.
 *
 * String fields are owned by the config: they point either to a heap copy or to the
 * option's default text in static storage, so they are never written through and only
 * ps_config_set/ps_config_free change or release them.
 */
#ifndef PTXSIM_COMMON_CONFIG_H
#define PTXSIM_COMMON_CONFIG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct ps_err;

#define PS_CONFIG_CTYPE_INT int64_t
#define PS_CONFIG_CTYPE_UINT uint32_t
#define PS_CONFIG_CTYPE_DOUBLE double
#define PS_CONFIG_CTYPE_BOOL bool
#define PS_CONFIG_CTYPE_STR const char *

struct ps_config {
#define PS_OPT(type, field, name, def, help) PS_CONFIG_CTYPE_##type field;
#include "common/options.def"
};

/* Fills c with the defaults (the GTX 480). Allocates nothing, so it cannot fail. */
void ps_config_init(struct ps_config *c);

/* Releases the strings c owns and leaves c holding the defaults. */
void ps_config_free(struct ps_config *c);

/*
 * Makes dst an independent copy of src. dst must not own strings (fresh, or freed).
 * Returns 0, or PS_ENOMEM with dst left holding the defaults.
 */
int ps_config_copy(struct ps_config *dst, const struct ps_config *src);

/*
 * Sets one option from its text. name may carry one leading '-' and may be an older
 * GPGPU-Sim spelling (e.g. rop_latency). Numbers are decimal or 0x hex; BOOL takes 0 or 1;
 * STR takes any text without a double quote or a line break.
 * Errors: PS_EINVAL for an unknown name ("unknown option '-gpgpu_n_cluster'; did you mean
 * '-gpgpu_n_clusters'?") or a value of the wrong form (the message names the option),
 * PS_ENOMEM. On error c is unchanged.
 */
int ps_config_set(struct ps_config *c, const char *name, const char *value, struct ps_err *err);

/* Applies one "name=value" override (the -o form); name may carry a leading '-'. */
int ps_config_override(struct ps_config *c, const char *assignment, struct ps_err *err);

/*
 * Loads GPGPU-Sim config syntax: one "-option value" per line, the value being the rest of
 * the line up to a '#' comment, trimmed (several words allowed). A value in double quotes
 * may hold '#' and may continue over lines; each line break inside it is dropped together
 * with the blanks around it (GPGPU-Sim's GTX 480 file splits -gpgpu_dram_timing_opt so).
 * Blank lines and '#' comments are skipped. Errors carry file:line:col in err; the codes
 * are those of ps_config_set, PS_EPARSE for malformed lines and PS_EIO for unreadable
 * files. On error c is unchanged. name is the file name used in messages (may be NULL).
 */
int ps_config_load_file(struct ps_config *c, const char *path, struct ps_err *err);
int ps_config_load_text(struct ps_config *c, const char *text, const char *name,
                        struct ps_err *err);

/*
 * Checks that the values are ones the timing model can run with (at least one SM, warp
 * size 32, well-formed latency and clock lists, ...). Returns 0 or PS_EINVAL with a
 * message that names the option.
 */
int ps_config_check(const struct ps_config *c, struct ps_err *err);

/*
 * The effective configuration as "-option value  # help" lines in table order, loadable
 * again and byte-identical when printed after reloading; options that are accepted but not
 * modelled say "(not modelled)" in their comment.
 */
void ps_config_print(const struct ps_config *c, FILE *out);

/* The same as one JSON object keyed by option name: numbers as numbers, BOOL as true or
 * false, strings escaped. */
void ps_config_print_json(const struct ps_config *c, FILE *out);

/*
 * Parses a list of unsigned decimal numbers separated by sep ("4,13,4,5,145,32"), blanks
 * around items allowed, into out[0..max). An empty string gives *n = 0. Errors (PS_EINVAL):
 * an empty or malformed item, a value above UINT32_MAX, more than max items.
 */
int ps_parse_uint_list(const char *s, char sep, uint32_t *out, uint32_t max, uint32_t *n,
                       struct ps_err *err);

/* The same for finite decimal numbers ("700.0:700.0:700.0:924.0"). */
int ps_parse_double_list(const char *s, char sep, double *out, uint32_t max, uint32_t *n,
                         struct ps_err *err);

/* Iteration for tools (--help, reports): options in table order, i < ps_config_count().
 * Out-of-range i gives NULL (false for ps_config_modelled). */
uint32_t ps_config_count(void);
const char *ps_config_name(uint32_t i);
const char *ps_config_help(uint32_t i);
const char *ps_config_default(uint32_t i);
bool ps_config_modelled(uint32_t i);

/* Index of an option by name (leading '-' and older spellings accepted), or -1. */
int32_t ps_config_find(const char *name);

#endif
