#include "common/err.h"

#include <stdarg.h>
#include <string.h>

void ps_err_clear(struct ps_err *err)
{
    if (!err)
        return;
    err->code = PS_OK;
    err->msg[0] = '\0';
    err->file[0] = '\0';
    err->line = 0;
    err->col = 0;
    err->has_fault = 0;
}

static void set_file(struct ps_err *err, const char *file)
{
    size_t n;

    if (!file) {
        err->file[0] = '\0';
        return;
    }
    n = strlen(file);
    if (n >= sizeof(err->file))
        n = sizeof(err->file) - 1;
    memcpy(err->file, file, n);
    err->file[n] = '\0';
}

int ps_err_set(struct ps_err *err, int code, const char *fmt, ...)
{
    va_list ap;

    if (!err)
        return code;
    err->code = code;
    err->has_fault = 0;
    err->file[0] = '\0';
    err->line = 0;
    err->col = 0;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
    va_end(ap);
    return code;
}

int ps_err_set_at(struct ps_err *err, int code, const char *file, uint32_t line, uint32_t col,
                  const char *fmt, ...)
{
    va_list ap;

    if (!err)
        return code;
    err->code = code;
    err->has_fault = 0;
    set_file(err, file);
    err->line = line;
    err->col = col;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
    va_end(ap);
    return code;
}

void ps_err_print(const struct ps_err *err, FILE *out)
{
    if (err->file[0])
        fprintf(out, "%s:", err->file);
    if (err->line)
        fprintf(out, "%u:%u:", err->line, err->col);
    fprintf(out, "%serror: %s\n", (err->file[0] || err->line) ? " " : "", err->msg);
}

const char *ps_err_name(int code)
{
    switch (code) {
    case PS_OK: return "no error";
    case PS_ENOMEM: return "out of memory";
    case PS_EIO: return "i/o error";
    case PS_EPARSE: return "parse error";
    case PS_EINVAL: return "invalid argument";
    case PS_ENOTSUP: return "not supported";
    case PS_EFAULT: return "device fault";
    case PS_EDEADLOCK: return "barrier deadlock";
    case PS_ERUNAWAY: return "instruction budget exhausted";
    case PS_EABANDONED: return "launch abandoned";
    case PS_ETRAP: return "device trap";
    case PS_ENOTFOUND: return "not found";
    }
    return "unknown error";
}
