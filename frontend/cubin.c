/*
 * Kernel register counts from a cubin's section headers. The image is
 * read by hand with every offset bounds-checked (it comes from a user's
 * binary): a 64-bit little-endian ELF whose code sections are named
 * ".text.<kernel>"; ptxas stores the kernel's registers per thread in
 * bits 24-31 of that section's sh_info (the low bits index the kernel's
 * symbol).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "frontend/cubin.h"

#define EHDR_SIZE 64
#define SHDR_SIZE 64
#define SHT_PROGBITS 1
#define TEXT_PREFIX ".text."

static uint64_t rd(const uint8_t *p, unsigned bytes)
{
    uint64_t v = 0;

    for (unsigned i = 0; i < bytes; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

struct shdr {
    uint32_t name, type, info;
    uint64_t offset, size;
};

static struct shdr shdr_at(const uint8_t *p)
{
    struct shdr s = {(uint32_t)rd(p, 4), (uint32_t)rd(p + 4, 4), (uint32_t)rd(p + 44, 4),
                     rd(p + 24, 8), rd(p + 32, 8)};

    return s;
}

/* The NUL-terminated name at offset off of the string table, or NULL when it runs past it. */
static const char *str_at(const uint8_t *data, const struct shdr *strtab, uint32_t off)
{
    const char *s = (const char *)data + strtab->offset + off;

    if (off >= strtab->size || !memchr(s, 0, strtab->size - off))
        return NULL;
    return s;
}

static int add_kernel(struct cubin_kernel **out, uint32_t *n, const char *name, uint32_t regs)
{
    struct cubin_kernel *k = realloc(*out, (*n + 1) * sizeof(**out));

    if (!k)
        return PS_ENOMEM;
    *out = k;
    k[*n].name = strdup(name);
    if (!k[*n].name)
        return PS_ENOMEM;
    k[*n].regs = regs;
    (*n)++;
    return 0;
}

static bool header_ok(const uint8_t *d, size_t len, uint64_t *shoff, uint32_t *shnum,
                      uint32_t *shstrndx)
{
    if (len < EHDR_SIZE || memcmp(d, "\177ELF", 4) || d[4] != 2 /* 64-bit */ ||
        d[5] != 1 /* little-endian */)
        return false;
    *shoff = rd(d + 0x28, 8);
    *shnum = (uint32_t)rd(d + 0x3c, 2);
    *shstrndx = (uint32_t)rd(d + 0x3e, 2);
    return rd(d + 0x3a, 2) == SHDR_SIZE && *shstrndx < *shnum && *shoff <= len &&
           (len - *shoff) / SHDR_SIZE >= *shnum;
}

int cubin_kernels(const uint8_t *data, size_t len, struct cubin_kernel **out, uint32_t *n,
                  struct ps_err *err)
{
    uint64_t shoff;
    uint32_t shnum, shstrndx;
    struct shdr strtab;
    int rc = 0;

    *out = NULL;
    *n = 0;
    if (!header_ok(data, len, &shoff, &shnum, &shstrndx))
        return ps_err_set(err, PS_EPARSE, "cubin: not a 64-bit little-endian ELF image");
    strtab = shdr_at(data + shoff + (uint64_t)shstrndx * SHDR_SIZE);
    if (strtab.offset > len || strtab.size > len - strtab.offset)
        return ps_err_set(err, PS_EPARSE, "cubin: section-name table past the end of the image");
    for (uint32_t i = 0; i < shnum && !rc; i++) {
        struct shdr s = shdr_at(data + shoff + (uint64_t)i * SHDR_SIZE);
        const char *name = str_at(data, &strtab, s.name);

        if (!name)
            rc = ps_err_set(err, PS_EPARSE, "cubin: section %u has a bad name offset", i);
        else if (s.type == SHT_PROGBITS && !strncmp(name, TEXT_PREFIX, strlen(TEXT_PREFIX)) &&
                 name[strlen(TEXT_PREFIX)])
            rc = add_kernel(out, n, name + strlen(TEXT_PREFIX), s.info >> 24);
    }
    if (rc == PS_ENOMEM)
        ps_err_set(err, PS_ENOMEM, "out of memory");
    if (rc) {
        cubin_kernels_free(*out, *n);
        *out = NULL;
        *n = 0;
    }
    return rc;
}

void cubin_kernels_free(struct cubin_kernel *k, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        free(k[i].name);
    free(k);
}
