/*
 * The sweep's JSON reader: a skipping recursive-descent scanner over the
 * text (RFC 8259 grammar), used both to validate a whole document and to walk
 * to one value by key path. Nothing is allocated; nesting is limited so that
 * a hostile file cannot exhaust the stack.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/sweep_json.h"

#define MAX_DEPTH 64

static const char *skip_value(const char *p, int depth);

static const char *skip_ws(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    return p;
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* p at the opening quote; returns past the closing one. */
static const char *skip_string(const char *p)
{
    for (p++; *p != '"'; p++) {
        if ((unsigned char)*p < 0x20)
            return NULL; /* also the terminating NUL */
        if (*p != '\\')
            continue;
        p++;
        if (*p == 'u') {
            for (int i = 1; i <= 4; i++)
                if (!p[i] || !strchr("0123456789abcdefABCDEF", p[i]))
                    return NULL;
            p += 4;
        } else if (!*p || !strchr("\"\\/bfnrt", *p)) {
            return NULL;
        }
    }
    return p + 1;
}

static const char *skip_digits(const char *p)
{
    if (!is_digit(*p))
        return NULL;
    while (is_digit(*p))
        p++;
    return p;
}

static const char *skip_number(const char *p)
{
    if (*p == '-')
        p++;
    if (*p == '0')
        p++;
    else if (!(p = skip_digits(p)))
        return NULL;
    if (*p == '.' && !(p = skip_digits(p + 1)))
        return NULL;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        p = skip_digits(p);
    }
    return p;
}

/* p at '{' or '['; returns past the closing bracket. */
static const char *skip_container(const char *p, int depth)
{
    char close = *p == '{' ? '}' : ']';
    int object = *p == '{';

    p = skip_ws(p + 1);
    if (*p == close)
        return p + 1;
    for (;;) {
        if (object) {
            if (*p != '"' || !(p = skip_string(p)))
                return NULL;
            p = skip_ws(p);
            if (*p++ != ':')
                return NULL;
        }
        if (!(p = skip_value(p, depth + 1)))
            return NULL;
        p = skip_ws(p);
        if (*p == close)
            return p + 1;
        if (*p != ',')
            return NULL;
        p = skip_ws(p + 1);
    }
}

/* Skips blanks and one value; returns past it, or NULL if malformed. */
static const char *skip_value(const char *p, int depth)
{
    p = skip_ws(p);
    if (depth > MAX_DEPTH)
        return NULL;
    switch (*p) {
    case '{':
    case '[':
        return skip_container(p, depth);
    case '"':
        return skip_string(p);
    case 't':
        return strncmp(p, "true", 4) ? NULL : p + 4;
    case 'f':
        return strncmp(p, "false", 5) ? NULL : p + 5;
    case 'n':
        return strncmp(p, "null", 4) ? NULL : p + 4;
    default:
        return *p == '-' || is_digit(*p) ? skip_number(p) : NULL;
    }
}

bool sweep_json_valid(const char *text)
{
    const char *end = text ? skip_value(text, 0) : NULL;

    return end && !*skip_ws(end);
}

/* In the object at p, the value of the key of n bytes at key; NULL if none. */
static const char *object_member(const char *p, const char *key, size_t n)
{
    const char *k, *end;

    p = skip_ws(p + 1);
    while (*p == '"') {
        k = p + 1;
        if (!(end = skip_string(p)))
            return NULL;
        p = skip_ws(end);
        if (*p++ != ':')
            return NULL;
        p = skip_ws(p);
        if ((size_t)(end - 1 - k) == n && !memcmp(k, key, n))
            return p;
        if (!(p = skip_value(p, 1)))
            return NULL;
        p = skip_ws(p);
        if (*p != ',')
            return NULL;
        p = skip_ws(p + 1);
    }
    return NULL;
}

/* In the array at p, element idx (the n bytes at key, all digits); NULL if none. */
static const char *array_element(const char *p, const char *key, size_t n)
{
    unsigned long idx = 0;

    for (size_t i = 0; i < n; i++) {
        if (!is_digit(key[i]) || idx > 1000000)
            return NULL;
        idx = idx * 10 + (unsigned long)(key[i] - '0');
    }
    p = skip_ws(p + 1);
    if (!n || *p == ']')
        return NULL;
    for (; idx; idx--) {
        if (!(p = skip_value(p, 1)))
            return NULL;
        p = skip_ws(p);
        if (*p != ',')
            return NULL;
        p = skip_ws(p + 1);
    }
    return p;
}

/* The start of the value at path, or NULL. */
static const char *find(const char *text, const char *path)
{
    const char *p = text ? skip_ws(text) : NULL;

    while (p && *path) {
        size_t n = strcspn(path, ".");

        if (*p == '{')
            p = object_member(p, path, n);
        else if (*p == '[')
            p = array_element(p, path, n);
        else
            return NULL;
        path += n + (path[n] == '.');
    }
    return p && skip_value(p, 0) ? p : NULL;
}

bool sweep_json_has(const char *text, const char *path)
{
    return find(text, path) != NULL;
}

bool sweep_json_number(const char *text, const char *path, double *out)
{
    const char *p = find(text, path);

    if (!p || !(*p == '-' || is_digit(*p)))
        return false;
    *out = strtod(p, NULL);
    return true;
}

bool sweep_json_string(const char *text, const char *path, char *buf, size_t len)
{
    const char *p = find(text, path);
    size_t n = 0;

    if (!p || *p != '"' || !len)
        return false;
    for (p++; *p != '"'; p++) {
        if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
            p++;
        if (n + 1 < len)
            buf[n++] = *p;
    }
    buf[n] = '\0';
    return true;
}

char *sweep_json_read_file(const char *path, size_t max_bytes)
{
    FILE *fp = fopen(path, "rb");
    char *buf = NULL;
    long size;

    if (!fp)
        return NULL;
    if (fseek(fp, 0, SEEK_END) || (size = ftell(fp)) < 0 || (size_t)size > max_bytes ||
        fseek(fp, 0, SEEK_SET))
        goto out;
    buf = malloc((size_t)size + 1);
    if (buf && fread(buf, 1, (size_t)size, fp) != (size_t)size) {
        free(buf);
        buf = NULL;
    }
    if (buf)
        buf[size] = '\0';
out:
    fclose(fp);
    return buf;
}
