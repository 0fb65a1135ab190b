/*
 * Host-side formatting of device printf. CUDA compiles printf(fmt, ...) in
 * device code to vprintf(fmt, args): args points to a local-memory buffer
 * that holds the arguments packed in order, each at an offset aligned to its
 * own size. The caller (the vprintf hook of the functional model) copies the
 * format string and that buffer to the host; this module walks the format,
 * pulls each argument out of the buffer and formats it with the host
 * snprintf, one conversion at a time, so the text matches glibc's.
 *
 * Buffer layout, as nvcc 13.0 emits it (-arch=compute_80, st.local offsets
 * read from the PTX):
 *   - char, signed/unsigned char, short, bool, int: promoted, 4 bytes
 *     (so %c, %hhd, %hd, %d, %u, %x, %o and a `*` width/precision read 4);
 *   - long, long long, size_t, ptrdiff_t, intmax_t: 8 bytes
 *     (%ld %lld %zd %td %jd and their u/x/X/o forms read 8);
 *   - float is promoted to double, and device long double is double:
 *     every floating conversion, %Lf included, reads an 8-byte double;
 *   - pointers and the char * of %s: 8-byte generic addresses;
 *   - an 8-byte argument after a 4-byte one is padded to the next multiple
 *     of 8 (printf("%d %lld", i, ll) stores i at 0 and ll at 8);
 *   - printf with no arguments passes a null buffer.
 */
#ifndef PTXSIM_ISA_PRINTF_FMT_H
#define PTXSIM_ISA_PRINTF_FMT_H

#include <stddef.h>
#include <stdint.h>

struct ps_err;

/* The CUDA Programming Guide ("Formatted Output", limitations): printf takes
   at most 32 arguments besides the format; conversions past that are written
   out as they stand in the format and consume nothing. */
#define ISA_PRINTF_MAX_ARGS 32

/* Largest field width or precision accepted, literal or from `*`. It keeps a
   stray argument from asking the host for gigabytes of padding. */
#define ISA_PRINTF_MAX_FIELD (1 << 20)

/* Longest string a %s argument is read up to; longer ones are cut there. */
#define ISA_PRINTF_MAX_STR (1 << 20)

/* Reads a NUL-terminated string at device address addr into buf (at most
   cap-1 chars, always NUL-terminated); returns 0 or a negative PS_E* code
   (common/err.h) for a bad address. */
typedef int (*isa_printf_read_str)(void *ctx, uint64_t addr, char *buf, size_t cap);

/*
 * Formats one device printf: fmt is the host copy of the format string,
 * args/args_len the argument buffer (args may be NULL when args_len is 0).
 * read_str (with ctx) fetches %s strings; it is not called for a null
 * address, which prints as glibc prints a null %s. Supported: %d %i %u %x %X
 * %o %c %s %p %f %F %e %E %g %G %a %A %%, flags - + space # 0, width and
 * precision (digits or `*`, an int from the buffer), length hh h l ll z t j
 * and L (L only on floating conversions).
 *
 * On success appends the text to *out (malloc'd by us when *out is NULL,
 * else realloc'd; the caller owns it), adds its length to *out_len, leaves
 * *out NUL-terminated (the text itself may hold a NUL, from %c of 0) and
 * returns what device printf returns: the number of arguments consumed,
 * `*` fields included (CUDA Programming Guide, "Formatted Output").
 *
 * On failure returns a negative PS_E* code with err filled and leaves *out
 * and *out_len as they were. A null format returns PS_EINVAL; the caller,
 * which reads the format from device memory, returns -1 to the kernel for a
 * null format address as the guide specifies. Errors:
 *   PS_EPARSE   unknown conversion, bad length modifier, '%' at the end,
 *               flags or fields on %%;
 *   PS_ENOTSUP  %n, %lc, %ls;
 *   PS_EINVAL   the buffer ends before an argument the format needs, a
 *               width or precision over ISA_PRINTF_MAX_FIELD, a null
 *               out/out_len, a non-null %s with no read_str;
 *   PS_ENOMEM   host allocation failed;
 *   any code read_str returns.
 */
int isa_printf_format(const char *fmt, const uint8_t *args, size_t args_len,
                      isa_printf_read_str read_str, void *ctx, char **out, size_t *out_len,
                      struct ps_err *err);

#endif
