/*
 * Statistics JSON for `ptxsim sweep` and `ptxsim stats`, read with jansson:
 * a file is parsed into a tree once, and single numbers and strings are
 * taken out of it by key path. Paths are dot-separated object keys and
 * array indices: "timing_total.l1d.misses", "kernels.0.name".
 */
#ifndef PTXSIM_TOOLS_SWEEP_JSON_H
#define PTXSIM_TOOLS_SWEEP_JSON_H

#include <stdbool.h>
#include <stddef.h>

struct json_t;

/*
 * Parses text (one JSON value, blanks around it allowed); NULL if it is not
 * JSON. The caller releases the tree with sweep_json_free.
 */
struct json_t *sweep_json_parse(const char *text);
/* Parses a file; NULL with a message ("file:line:column: what") in err. */
struct json_t *sweep_json_load(const char *path, char *err, size_t errlen);
void sweep_json_free(struct json_t *root);

/* The value at path, or NULL when there is none (borrowed from root). */
struct json_t *sweep_json_get(const struct json_t *root, const char *path);
/* The number (integer or real) at path into *out; false (and *out untouched) if none. */
bool sweep_json_number(const struct json_t *root, const char *path, double *out);
/* The string at path into buf (truncated to len - 1 bytes); false if none. */
bool sweep_json_string(const struct json_t *root, const char *path, char *buf, size_t len);
/* True if a value of any type exists at path. */
bool sweep_json_has(const struct json_t *root, const char *path);

/*
 * Reads a whole (text) file into a NUL-terminated malloc'd buffer (the
 * caller frees it); NULL if it cannot be read or is larger than max_bytes.
 */
char *sweep_json_read_file(const char *path, size_t max_bytes);

#endif
