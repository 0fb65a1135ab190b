/*
 * libFuzzer harness for the PTX front end (make fuzz; see Makefile.am).
 *
 * Any byte string goes to ptx_parse(). A rejected input must come back as a
 * positioned PS_EPARSE (or PS_ENOMEM) record; an accepted one is printed,
 * parsed again, and must give an equal module whose own printout is the same
 * text. Any other outcome calls abort(), so the fuzzer saves the input.
 * Crashes, leaks and undefined behaviour are caught by the sanitizers the
 * target is built with.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "frontend/ptx_parse.h"
#include "isa/module.h"
#include "isa/print.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz_ptx_parse: %s: %s\n", what, detail);
    abort();
}

/* Prints m into a malloc'd buffer (*len bytes, NUL-terminated). */
static char *print_to_memory(const struct isa_module *m, size_t *len)
{
    char *text = NULL;
    FILE *out = open_memstream(&text, len);

    if (!out)
        die("open_memstream", "failed");
    if (isa_print_module(m, out) | fclose(out))
        die("isa_print_module", "failed");
    return text;
}

static void check_rejection(const struct ps_err *err)
{
    char buf[PS_ERR_MSG_MAX + 64];

    if (err->code == PS_ENOMEM)
        return;
    snprintf(buf, sizeof(buf), "code %d at %u:%u: %s", err->code, err->line, err->col, err->msg);
    if (err->code != PS_EPARSE || !err->line || !err->col || !err->msg[0])
        die("rejected input without a positioned parse error", buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct isa_module *m, *m2;
    char *t1, *t2, why[256] = "";
    size_t n1 = 0, n2 = 0;
    struct ps_err err;

    m = ptx_parse((const char *)data, size, "fuzz.ptx", &err);
    if (!m) {
        check_rejection(&err);
        return 0;
    }
    t1 = print_to_memory(m, &n1);
    m2 = ptx_parse(t1, n1, "reprinted.ptx", &err);
    if (!m2) {
        char buf[PS_ERR_MSG_MAX + 64];

        snprintf(buf, sizeof(buf), "%u:%u: %s", err.line, err.col, err.msg);
        fprintf(stderr, "--- reprinted text ---\n%s\n---\n", t1);
        die("reprinted module does not parse", buf);
    }
    if (!isa_module_equal(m, m2, why, sizeof(why)))
        die("round trip changed the module", why);
    t2 = print_to_memory(m2, &n2);
    if (n1 != n2 || memcmp(t1, t2, n1))
        die("printing is not stable", "second printout differs from the first");
    free(t1);
    free(t2);
    isa_module_destroy(m);
    isa_module_destroy(m2);
    return 0;
}
