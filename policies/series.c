#include "policies/series.h"

#include <stdlib.h>
#include <string.h>

#include "common/err.h"

void pol_series_init(struct pol_series *s, size_t row_size, size_t cap)
{
    memset(s, 0, sizeof(*s));
    s->row_size = row_size;
    s->cap = cap;
}

void pol_series_free(struct pol_series *s)
{
    free(s->rows);
    s->rows = NULL;
    s->n = s->alloc = 0;
}

/* Grows the storage, doubling up to the cap; false when full or out of memory. */
static bool grow(struct pol_series *s)
{
    size_t want = s->alloc ? 2 * s->alloc : 256;
    unsigned char *p;

    if (s->n == s->cap || s->oom)
        return false;
    if (want > s->cap)
        want = s->cap;
    p = realloc(s->rows, want * s->row_size);
    if (!p) {
        s->oom = true;
        return false;
    }
    s->rows = p;
    s->alloc = want;
    return true;
}

void *pol_series_add(struct pol_series *s)
{
    unsigned char *row;

    if (s->n == s->alloc && !grow(s)) {
        s->dropped++;
        return NULL;
    }
    row = s->rows + s->n++ * s->row_size;
    memset(row, 0, s->row_size);
    return row;
}

int pol_series_write(const struct pol_series *s, FILE *out, const char *header,
                     pol_series_row_fn write_row, const void *ctx, const char *what,
                     struct ps_err *err)
{
    fprintf(out, "%s\n", header);
    for (size_t i = 0; i < s->n; i++)
        write_row(out, pol_series_row(s, i), ctx);
    if (ferror(out))
        return ps_err_set(err, PS_EIO, "cannot write %s", what);
    if (s->oom)
        return ps_err_set(err, PS_ENOMEM, "out of memory keeping %s: it stops after %zu rows", what,
                          s->n);
    return 0;
}
