/*
 * A minimal JSON reader for `ptxsim sweep`: it validates a statistics file
 * (the --stats JSON of `ptxsim run`) and pulls single numbers and strings out
 * of it by key path, without building a tree. Paths are dot-separated object
 * keys and array indices: "timing_total.l1d.misses", "kernels.0.name". Keys
 * are compared byte for byte with the raw text between the quotes (escapes
 * are not decoded), which is enough for ptxsim's own output.
 */
#ifndef PTXSIM_TOOLS_SWEEP_JSON_H
#define PTXSIM_TOOLS_SWEEP_JSON_H

#include <stdbool.h>
#include <stddef.h>

/* True if text is exactly one well-formed JSON value, with blanks around it. */
bool sweep_json_valid(const char *text);

/*
 * The number at path in text, into *out. False (and *out untouched) if text
 * is malformed on the way there, the path does not exist or the value there
 * is not a number.
 */
bool sweep_json_number(const char *text, const char *path, double *out);

/*
 * The string at path, unescaped only for \" and \\ (other escapes are kept
 * as written), into buf (truncated to len - 1 bytes). False as for numbers.
 */
bool sweep_json_string(const char *text, const char *path, char *buf, size_t len);

/* True if a value of any type exists at path. */
bool sweep_json_has(const char *text, const char *path);

/*
 * Reads a whole file into a NUL-terminated malloc'd buffer (the caller frees
 * it); NULL if it cannot be read or is larger than max_bytes.
 */
char *sweep_json_read_file(const char *path, size_t max_bytes);

#endif
