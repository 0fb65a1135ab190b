/*
 * The statistics reader over jansson (Debian's libjansson): parsing with
 * JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, which refuses what is not one
 * well-formed value, and path lookup over the parsed tree.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/sweep_json.h"

json_t *sweep_json_parse(const char *text)
{
    json_error_t e;

    return json_loads(text, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &e);
}

json_t *sweep_json_load(const char *path, char *err, size_t errlen)
{
    json_error_t e;
    json_t *root = json_load_file(path, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &e);

    if (!root && e.line > 0)
        snprintf(err, errlen, "%s:%d:%d: %s", path, e.line, e.column, e.text);
    else if (!root) /* could not be read at all: jansson's text names the file already */
        snprintf(err, errlen, "%s", e.text);
    return root;
}

void sweep_json_free(json_t *root)
{
    json_decref(root);
}

/* The step of path that ends at *end: an object key, or an array index. */
static json_t *step(json_t *v, const char *p, size_t n)
{
    char key[256], *end;
    unsigned long i;

    if (n >= sizeof(key))
        return NULL;
    memcpy(key, p, n);
    key[n] = '\0';
    if (json_is_object(v))
        return json_object_get(v, key);
    if (!json_is_array(v) || !n || key[0] < '0' || key[0] > '9')
        return NULL;
    errno = 0;
    i = strtoul(key, &end, 10);
    return *end || errno ? NULL : json_array_get(v, i);
}

json_t *sweep_json_get(const json_t *root, const char *path)
{
    json_t *v = (json_t *)root;

    for (const char *p = path; v && *p;) {
        size_t n = strcspn(p, ".");

        v = step(v, p, n);
        p += n + (p[n] == '.');
    }
    return v;
}

bool sweep_json_number(const json_t *root, const char *path, double *out)
{
    json_t *v = sweep_json_get(root, path);

    if (!json_is_number(v))
        return false;
    *out = json_number_value(v);
    return true;
}

bool sweep_json_string(const json_t *root, const char *path, char *buf, size_t len)
{
    json_t *v = sweep_json_get(root, path);

    if (!json_is_string(v) || !len)
        return false;
    snprintf(buf, len, "%s", json_string_value(v));
    return true;
}

bool sweep_json_has(const json_t *root, const char *path)
{
    return sweep_json_get(root, path) != NULL;
}

char *sweep_json_read_file(const char *path, size_t max_bytes)
{
    FILE *fp = fopen(path, "rb");
    char *buf = NULL;
    long n;

    if (!fp)
        return NULL;
    if (fseek(fp, 0, SEEK_END) == 0 && (n = ftell(fp)) >= 0 && (size_t)n <= max_bytes &&
        fseek(fp, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1))) {
        if (fread(buf, 1, (size_t)n, fp) != (size_t)n) {
            free(buf);
            buf = NULL;
        } else {
            buf[n] = '\0';
        }
    }
    fclose(fp);
    return buf;
}
