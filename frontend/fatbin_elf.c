/*
 * The host side of fat binaries: the sections of an executable or shared
 * library that hold them, read with libelf, and whether the file links the
 * CUDA runtime dynamically (the only case an interposed libcudart sees).
 *
 * nvcc puts the containers it registers in .nv_fatbin; with -rdc the
 * relocatable ones (PTX and relocatable cubins) go to __nv_relfatbin
 * (FATBIN_PRELINK_DATA_SECTION_NAME in the toolkit's fatbinary_section.h).
 * Both are read, .nv_fatbin first, in section order.
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/err.h"
#include "frontend/fatbin.h"

struct elf_file {
    int fd;
    Elf *elf;
    size_t shstrndx;
};

static int elf_open(const char *path, struct elf_file *f, struct ps_err *err)
{
    ps_err_clear(err);
    f->elf = NULL;
    if (elf_version(EV_CURRENT) == EV_NONE)
        return ps_err_set(err, PS_EIO, "%s: libelf is unusable: %s", path, elf_errmsg(-1));
    f->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (f->fd < 0)
        return ps_err_set(err, PS_EIO, "cannot open %s", path);
    f->elf = elf_begin(f->fd, ELF_C_READ, NULL);
    if (f->elf && elf_kind(f->elf) == ELF_K_ELF && !elf_getshdrstrndx(f->elf, &f->shstrndx))
        return 0;
    bool elf = f->elf && elf_kind(f->elf) == ELF_K_ELF;

    if (f->elf)
        elf_end(f->elf);
    close(f->fd);
    f->elf = NULL;
    if (elf)
        return ps_err_set(err, PS_EPARSE, "%s: damaged ELF section table (no section names: %s)",
                          path, elf_errmsg(-1));
    return ps_err_set(err, PS_EPARSE, "%s: not an ELF file", path);
}

/* Every section header must be readable and named, else the table is damaged. */
static int check_sections(struct elf_file *f, const char *path, struct ps_err *err)
{
    size_t n, seen = 0;
    GElf_Ehdr eh;
    struct stat st;

    if (gelf_getehdr(f->elf, &eh) && !fstat(f->fd, &st) && eh.e_shnum &&
        (eh.e_shoff > (uint64_t)st.st_size ||
         (uint64_t)eh.e_shnum * eh.e_shentsize > (uint64_t)st.st_size - eh.e_shoff))
        return ps_err_set(err, PS_EPARSE,
                          "%s: damaged ELF section table (%u headers at offset %llu run past the "
                          "end of the %llu-byte file)",
                          path, eh.e_shnum, (unsigned long long)eh.e_shoff,
                          (unsigned long long)st.st_size);
    if (elf_getshdrnum(f->elf, &n))
        return ps_err_set(err, PS_EPARSE, "%s: damaged ELF section table: %s", path,
                          elf_errmsg(-1));
    for (Elf_Scn *scn = elf_nextscn(f->elf, NULL); scn; scn = elf_nextscn(f->elf, scn)) {
        GElf_Shdr sh;

        seen++;
        if (!gelf_getshdr(scn, &sh) || !elf_strptr(f->elf, f->shstrndx, sh.sh_name))
            return ps_err_set(err, PS_EPARSE, "%s: damaged ELF section table (section %zu: %s)",
                              path, elf_ndxscn(scn), elf_errmsg(-1));
    }
    if (n > 1 && seen + 1 != n)
        return ps_err_set(err, PS_EPARSE,
                          "%s: damaged ELF section table (%zu of %zu sections readable)", path,
                          seen + 1, n);
    return 0;
}

static void elf_close(struct elf_file *f)
{
    if (!f->elf)
        return;
    elf_end(f->elf);
    close(f->fd);
    f->elf = NULL;
}

/* Whether scn is a PROGBITS section named name. */
static bool section_is(struct elf_file *f, Elf_Scn *scn, const char *name)
{
    GElf_Shdr sh;
    const char *n;

    if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS)
        return false;
    n = elf_strptr(f->elf, f->shstrndx, sh.sh_name);
    return n && !strcmp(n, name);
}

/* Appends the bytes of every section named name to *buf (*len bytes so far). */
static int append_sections(struct elf_file *f, const char *path, const char *name, uint8_t **buf,
                           size_t *len, struct ps_err *err)
{
    for (Elf_Scn *scn = elf_nextscn(f->elf, NULL); scn; scn = elf_nextscn(f->elf, scn)) {
        Elf_Data *d;
        uint8_t *p;

        if (!section_is(f, scn, name))
            continue;
        d = elf_rawdata(scn, NULL);
        if (!d)
            return ps_err_set(err, PS_EPARSE, "%s: cannot read section %s: %s", path, name,
                              elf_errmsg(-1));
        if (!d->d_size || !d->d_buf)
            continue;
        p = realloc(*buf, *len + d->d_size + 1);
        if (!p)
            return ps_err_set(err, PS_ENOMEM, "%s: out of memory for section %s", path, name);
        memcpy(p + *len, d->d_buf, d->d_size);
        *buf = p;
        *len += d->d_size;
    }
    return 0;
}

int fatbin_read_elf_section(const char *path, uint8_t **data, size_t *len, struct ps_err *err)
{
    static const char *const names[] = {".nv_fatbin", "__nv_relfatbin"};
    struct elf_file f;
    uint8_t *buf = NULL;
    size_t n = 0;
    int rc;

    *data = NULL;
    *len = 0;
    rc = elf_open(path, &f, err);
    if (rc)
        return rc;
    rc = check_sections(&f, path, err);
    for (size_t i = 0; !rc && i < sizeof(names) / sizeof(names[0]); i++)
        rc = append_sections(&f, path, names[i], &buf, &n, err);
    elf_close(&f);
    if (!rc && !n)
        rc = ps_err_set(err, PS_ENOTFOUND, "%s: no .nv_fatbin section (no CUDA device code)", path);
    if (rc) {
        free(buf);
        return rc;
    }
    *data = buf;
    *len = n;
    return 0;
}

/* Scans one SHT_DYNAMIC section for DT_NEEDED libcudart.so*. */
static bool dynamic_needs_cudart(struct elf_file *f, Elf_Scn *scn, const GElf_Shdr *sh)
{
    Elf_Data *d = elf_getdata(scn, NULL);
    GElf_Dyn dyn;

    if (!d || !sh->sh_entsize)
        return false;
    for (size_t i = 0; i < sh->sh_size / sh->sh_entsize; i++) {
        const char *name;

        if (!gelf_getdyn(d, (int)i, &dyn) || dyn.d_tag == DT_NULL)
            break;
        if (dyn.d_tag != DT_NEEDED)
            continue;
        name = elf_strptr(f->elf, sh->sh_link, dyn.d_un.d_val);
        if (name && !strncmp(name, "libcudart.so", strlen("libcudart.so")))
            return true;
    }
    return false;
}

int fatbin_elf_needs_cudart(const char *path, bool *needs, struct ps_err *err)
{
    struct elf_file f;
    int rc;

    *needs = false;
    rc = elf_open(path, &f, err);
    if (rc)
        return rc;
    for (Elf_Scn *scn = elf_nextscn(f.elf, NULL); scn && !*needs; scn = elf_nextscn(f.elf, scn)) {
        GElf_Shdr sh;

        if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_DYNAMIC)
            *needs = dynamic_needs_cudart(&f, scn, &sh);
    }
    elf_close(&f);
    return 0;
}
