/*
 * PTX reader: text in, struct isa_module out.
 *
 * Accepts PTX ISA 1.x to 9.x as nvcc (CUDA 2 to 13) and LLVM's NVPTX back
 * end emit it. The first problem found stops the parse and is reported as
 * file:line:col with a message in err; the partial module is freed.
 */
#ifndef PTXSIM_FRONTEND_PTX_PARSE_H
#define PTXSIM_FRONTEND_PTX_PARSE_H

#include <stddef.h>

struct isa_module;
struct ps_err;

/*
 * Parses text[0..len) (stopping early at a NUL byte). name is used in
 * diagnostics and may be NULL. Returns a new module owned by the caller, or
 * NULL with err filled (PS_EPARSE, PS_ENOMEM).
 */
struct isa_module *ptx_parse(const char *text, size_t len, const char *name, struct ps_err *err);

/* Reads and parses a file; PS_EIO in err when it cannot be read. */
struct isa_module *ptx_parse_file(const char *path, struct ps_err *err);

#endif
