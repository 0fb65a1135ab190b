/*
 * C++ kernel names as a reader writes them: "_Z6vecaddPKfS0_Pfi" becomes
 * "vecadd(float const*, float const*, float*, int)".
 */
#ifndef PTXSIM_RUNTIME_DEMANGLE_H
#define PTXSIM_RUNTIME_DEMANGLE_H

#include <stddef.h>

/*
 * Writes the demangled form of name into buf (at most len bytes, NUL
 * included, truncated if longer) and returns buf; returns NULL when name is
 * not an Itanium C++ mangled name (extern "C" kernels, OpenCL kernels) or no
 * demangler is available.
 */
char *ptxsim_demangle(const char *name, char *buf, size_t len);

#endif
