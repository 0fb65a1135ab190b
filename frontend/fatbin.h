/*
 * CUDA fat binaries, read in process with no toolkit programs: the
 * registration wrapper nvcc emits (magic 0x466243b1), the fatbin containers
 * it points to (magic 0xBA55ED50, possibly several back to back), and their
 * entries (PTX text or ELF cubins), whose payloads may be compressed with
 * zstd (flag 0x8000), NVIDIA's LZ4-style scheme (0x2000) or zlib (0x1000).
 * Also finds the .nv_fatbin section of a host executable or shared library.
 */
#ifndef PTXSIM_FRONTEND_FATBIN_H
#define PTXSIM_FRONTEND_FATBIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ps_err;

enum fatbin_kind { FATBIN_PTX = 1, FATBIN_ELF = 2 };

struct fatbin_entry {
    uint16_t kind;          /* enum fatbin_kind */
    uint32_t sm;            /* architecture, e.g. 75 */
    uint16_t ptx_major, ptx_minor; /* PTX ISA version of a PTX entry */
    uint64_t flags;         /* raw entry flags (0x1000 zlib, 0x2000 lz4-style, 0x8000 zstd) */
    const uint8_t *payload; /* as stored (maybe compressed); borrowed from the container */
    uint64_t payload_size;  /* stored bytes (the compressed stream's length when compressed) */
    uint64_t uncompressed_size;
    const char *identifier; /* entry name when the container has one, else "" */
};

struct fatbin {
    struct fatbin_entry *entries;
    uint32_t nentries;
    uint64_t total_size; /* bytes of all containers read */
};

/*
 * Parses the containers starting at data. len bounds the read; pass 0 when
 * only the in-memory header says how long the fatbin is (registration).
 * Entries borrow from data, which must outlive the result. Returns 0 or
 * PS_EPARSE (not a fatbin, truncated, inconsistent sizes) / PS_ENOMEM.
 */
int fatbin_parse(const void *data, size_t len, struct fatbin *out, struct ps_err *err);

/*
 * The fatbin a registration wrapper (the argument of __cudaRegisterFatBinary)
 * points to; parses it as fatbin_parse(data, 0, ...).
 */
int fatbin_parse_wrapper(const void *wrapper, struct fatbin *out, struct ps_err *err);

/*
 * The prelinked fatbins of a device-link wrapper (version 2, what an -rdc=true program's
 * device-link stub registers): a NULL-terminated array of fatbin data pointers, one per
 * translation unit, each with that unit's PTX. NULL for a plain (version 1) wrapper.
 */
const void *const *fatbin_wrapper_prelinked(const void *wrapper);

/*
 * fatbin_parse_wrapper, when the caller knows that at most `bound` bytes are readable
 * from the wrapper's data pointer (the end of the program's mapped segment
 * that holds it; 0 = unknown): a container whose header claims more is an
 * error, never trusted past the end.
 */
int fatbin_parse_wrapper_bounded(const void *wrapper, size_t bound, struct fatbin *out,
                                 struct ps_err *err);

void fatbin_free(struct fatbin *fb);

/*
 * The decompressed payload of an entry, malloc'd (caller frees) and
 * NUL-terminated (one byte past *len). Returns 0, PS_EPARSE (corrupt
 * data) or PS_ENOTSUP (unknown compression flag).
 */
int fatbin_entry_data(const struct fatbin_entry *e, uint8_t **data, size_t *len,
                      struct ps_err *err);

/*
 * The PTX entry to run: the one with the highest sm not above max_sm
 * (0 = no limit), else the lowest. Returns an index or -1 if there is no PTX.
 */
int fatbin_pick_ptx(const struct fatbin *fb, uint32_t max_sm);

/*
 * Reads the .nv_fatbin section(s) of an ELF file into a malloc'd buffer
 * (*data, *len), followed by any __nv_relfatbin sections (where -rdc builds
 * keep their PTX). Returns 0, PS_ENOTFOUND when the file has none, PS_EIO or
 * PS_EPARSE.
 */
int fatbin_read_elf_section(const char *path, uint8_t **data, size_t *len, struct ps_err *err);

/* Whether an ELF file links libcudart dynamically (DT_NEEDED libcudart.so.*). */
int fatbin_elf_needs_cudart(const char *path, bool *needs, struct ps_err *err);

#endif
