/*
 * Links the PTX of several translation units into one PTX text, the way the
 * device linker joins `-rdc=true` objects: one header (the highest .version,
 * the first unit's .target and .address_size), `.extern` declarations bound
 * to the definitions of other units, one copy of each `.weak` / `.common`
 * definition, file-scope (internal) symbols that clash with another unit's
 * renamed per unit, and `.file` / `.loc` numbers renumbered so that each
 * unit's files stay apart. The result is parsed like any other module.
 */
#ifndef PTXSIM_FRONTEND_PTX_LINK_H
#define PTXSIM_FRONTEND_PTX_LINK_H

#include <stddef.h>
#include <stdint.h>

struct ps_err;

struct ptx_link_unit {
    const char *text; /* PTX text (need not be NUL-terminated) */
    size_t len;
};

/*
 * Links units[0..n) into *out (malloc'd, NUL-terminated, *out_len bytes without the NUL).
 * Returns 0, PS_EINVAL (no units; units with different .address_size or .target), PS_EPARSE
 * (a statement that never ends: unbalanced braces) or PS_ENOMEM, with err filled.
 */
int ptx_link(const struct ptx_link_unit *units, uint32_t n, char **out, size_t *out_len,
             struct ps_err *err);

#endif
