/*
 * A policy's time series for its dump (-ptxsim_policy_trace): rows of one
 * fixed size kept in order up to a cap, and written as CSV under one header
 * line. One writer for every policy's series, so that each reports a full
 * or failed series the same way.
 */
#ifndef PTXSIM_POLICIES_SERIES_H
#define PTXSIM_POLICIES_SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct ps_err;

#define POL_SERIES_NO_CAP SIZE_MAX

struct pol_series {
    unsigned char *rows;
    size_t row_size, n, alloc;
    size_t cap;       /* most rows kept (POL_SERIES_NO_CAP: as many as memory holds) */
    uint64_t dropped; /* rows not kept because the cap was reached or memory ran out */
    bool oom;         /* memory ran out: the series stops there */
};

/* An empty series of rows of row_size bytes, at most cap of them. */
void pol_series_init(struct pol_series *s, size_t row_size, size_t cap);
void pol_series_free(struct pol_series *s);

/*
 * Room for the next row (zeroed), or NULL when the row is not kept (the cap
 * is reached or memory ran out; counted in dropped).
 */
void *pol_series_add(struct pol_series *s);

static inline const void *pol_series_row(const struct pol_series *s, size_t i)
{
    return s->rows + i * s->row_size;
}

/* Writes one CSV row (no header) for row: the policy's format. */
typedef void (*pol_series_row_fn)(FILE *out, const void *row, const void *ctx);

/*
 * Writes header (a line without its '\n') and every row through write_row.
 * Returns 0, PS_EIO when out failed, or PS_ENOMEM when memory ran out while
 * the series was kept ("out of memory keeping <what>: it stops after N
 * rows"); what names the series ("the dyncta series of n").
 */
int pol_series_write(const struct pol_series *s, FILE *out, const char *header,
                     pol_series_row_fn write_row, const void *ctx, const char *what,
                     struct ps_err *err);

#endif
