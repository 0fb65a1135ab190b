/*
 * Text to numbers as configuration values read them; the list parsers
 * (ps_parse_uint_list, ps_parse_double_list) are declared in common/config.h.
 */
#ifndef PTXSIM_COMMON_CONFIG_VALUE_H
#define PTXSIM_COMMON_CONFIG_VALUE_H

#include <stdbool.h>
#include <stdint.h>

/* A blank other than newline: space, tab, CR, VT, FF. */
bool ps_config_is_blank(char ch);
/* Numbers are decimal, or hex after 0x; s is already trimmed and non-empty. Unsigned
 * values must fit 32 bits and carry no sign. */
bool ps_config_parse_int(const char *s, bool is_unsigned, int64_t *out);
/* A finite decimal number making up all of s. */
bool ps_config_parse_double(const char *s, double *out);

#endif
