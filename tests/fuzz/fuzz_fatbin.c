/*
 * libFuzzer harness for the fatbin and host-ELF readers (make fuzz; see
 * Makefile.am). An input that starts like an ELF file goes through
 * fatbin_read_elf_section (via a memfd, as libelf reads files) and
 * fatbin_elf_needs_cudart; every input, and the sections an ELF yields, go
 * through fatbin_parse, with each entry's payload decoded
 * (fatbin_entry_data: zstd, LZ4, zlib) and fatbin_pick_ptx. A failure must
 * be an error record with a message; crashes, reads past the input, leaks
 * and undefined behaviour are caught by the sanitizers the target is built
 * with. Seeds: tests/fuzz/seeds_fatbin/ and tests/fatbin/.
 */
#define _GNU_SOURCE /* memfd_create */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/err.h"
#include "frontend/fatbin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_error(int rc, const struct ps_err *err, const char *what)
{
    if (rc && !err->msg[0]) {
        fprintf(stderr, "fuzz_fatbin: %s failed (%d) without a message\n", what, rc);
        abort();
    }
}

static void parse_and_decode(const uint8_t *data, size_t size)
{
    struct fatbin fb;
    struct ps_err err;
    int rc;

    if (!size) /* length 0 means "unknown, trust the header" (registration wrappers) */
        return;
    rc = fatbin_parse(data, size, &fb, &err);
    check_error(rc, &err, "fatbin_parse");
    if (rc)
        return;
    for (uint32_t i = 0; i < fb.nentries; i++) {
        uint8_t *out = NULL;
        size_t len = 0;

        rc = fatbin_entry_data(&fb.entries[i], &out, &len, &err);
        check_error(rc, &err, "fatbin_entry_data");
        free(out);
    }
    fatbin_pick_ptx(&fb, 0);
    fatbin_free(&fb);
}

static void read_elf(const uint8_t *data, size_t size)
{
    int fd = memfd_create("fuzz-elf", MFD_CLOEXEC);
    char path[64];
    uint8_t *sec = NULL;
    size_t len = 0;
    struct ps_err err;
    bool needs;
    int rc;

    if (fd < 0)
        return;
    if (write(fd, data, size) == (ssize_t)size) {
        snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
        rc = fatbin_elf_needs_cudart(path, &needs, &err);
        check_error(rc, &err, "fatbin_elf_needs_cudart");
        rc = fatbin_read_elf_section(path, &sec, &len, &err);
        check_error(rc, &err, "fatbin_read_elf_section");
        if (!rc)
            parse_and_decode(sec, len);
        free(sec);
    }
    close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size >= 4 && !memcmp(data, "\x7f" "ELF", 4))
        read_elf(data, size);
    parse_and_decode(data, size);
    return 0;
}
