/*
 * Error reporting shared by every room.
 *
 * A function that can fail returns 0 (or a pointer) on success and a negative
 * PS_E* code (or NULL) on failure, after filling the caller's struct ps_err.
 * The record carries a source position for input errors (file:line:col) and
 * the kernel/PTX line/CTA/thread for device faults, so the caller can print
 * one precise line without knowing who failed.
 */
#ifndef PTXSIM_COMMON_ERR_H
#define PTXSIM_COMMON_ERR_H

#include <stdint.h>
#include <stdio.h>

enum ps_errcode {
    PS_OK = 0,
    PS_ENOMEM = -1,   /* host allocation failed */
    PS_EIO = -2,      /* could not read or write a file */
    PS_EPARSE = -3,   /* malformed input text */
    PS_EINVAL = -4,   /* invalid argument or API misuse */
    PS_ENOTSUP = -5,  /* recognised but not supported */
    PS_EFAULT = -6,   /* device memory fault */
    PS_EDEADLOCK = -7, /* barrier deadlock */
    PS_ERUNAWAY = -8, /* instruction budget exhausted */
    PS_ETRAP = -9,    /* trap / device assertion */
    PS_ENOTFOUND = -10,
    PS_EABANDONED = -11, /* launch abandoned (the process is exiting) */
};

#define PS_ERR_MSG_MAX 512
#define PS_ERR_FILE_MAX 256

/* Where a device fault happened (filled by the engine, valid when has_fault). */
struct ps_fault {
    char kernel[256];
    uint32_t ptx_line;      /* line in the PTX text */
    uint32_t src_file;      /* .loc file number, 0 when unknown */
    uint32_t src_line;      /* .loc line, 0 when unknown */
    uint32_t cta[3];
    uint32_t thread[3];
    uint64_t addr;          /* faulting address, when the fault is a memory access */
};

struct ps_err {
    int code;
    char msg[PS_ERR_MSG_MAX];
    /* Source position, zero when unknown. */
    char file[PS_ERR_FILE_MAX];
    uint32_t line;
    uint32_t col;
    int has_fault;
    struct ps_fault fault;
};

/* Clears a record to "no error". */
void ps_err_clear(struct ps_err *err);

/* Fills err (if non-NULL) and returns code, so callers can `return ps_err_set(...)`. */
int ps_err_set(struct ps_err *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* As ps_err_set, with a source position; file may be NULL. */
int ps_err_set_at(struct ps_err *err, int code, const char *file, uint32_t line, uint32_t col,
                  const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* Writes "file:line:col: error: msg\n" (parts that are unknown are left out). */
void ps_err_print(const struct ps_err *err, FILE *out);

/* A short name for a code ("parse error", "out of memory", ...). */
const char *ps_err_name(int code);

#endif
