/*
 * Policy variants of `ptxsim sweep`: "NAME[:opt=val[,opt=val...]]", a name
 * for the results and the configuration options (`ptxsim run -o`) that make
 * the variant. Option values may themselves contain commas (GPGPU-Sim cache
 * strings such as N:512:128:8,L:L:m:N:H,S:64:8,8), so a comma only starts a
 * new option when the text after it reads "name=" up to the next comma.
 */
#ifndef PTXSIM_TOOLS_SWEEP_VARIANT_H
#define PTXSIM_TOOLS_SWEEP_VARIANT_H

#include <stddef.h>

struct sweep_variant {
    char name[64]; /* letters, digits, '_' and '-' */
    char **opts;   /* "option=value", malloc'd */
    size_t nopts;
};

/*
 * Parses spec into v (which the caller frees with sweep_variant_free, also
 * after an error). Returns 0; -1 with a message in err for a malformed
 * spec; -2 when out of memory.
 */
int sweep_variant_parse(const char *spec, struct sweep_variant *v, char *err, size_t errlen);
void sweep_variant_free(struct sweep_variant *v);

#endif
