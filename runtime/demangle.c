/*
 * Demangling through the C++ runtime's own demangler, __cxa_demangle of
 * libstdc++ (the library every nvcc-built program already loads; looked up
 * with dlsym so that ptxsim itself stays a C program). Without libstdc++ the
 * names stay mangled.
 */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "runtime/demangle.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef char *(*cxa_demangle_fn)(const char *mangled, char *out, size_t *len, int *status);

static cxa_demangle_fn find_demangler(void)
{
    void *sym = dlsym(RTLD_DEFAULT, "__cxa_demangle");
    void *lib;

    if (!sym && (lib = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL)))
        sym = dlsym(lib, "__cxa_demangle"); /* kept loaded: the process may call it again */
    return (cxa_demangle_fn)(size_t)sym;
}

char *ptxsim_demangle(const char *name, char *buf, size_t len)
{
    cxa_demangle_fn fn;
    char *out;
    int status = -1;

    if (!name || strncmp(name, "_Z", 2) || !len || !(fn = find_demangler()))
        return NULL;
    out = fn(name, NULL, NULL, &status);
    if (status != 0 || !out) {
        free(out);
        return NULL;
    }
    snprintf(buf, len, "%s", out);
    free(out);
    return buf;
}
