/*
 * The workload catalog of `ptxsim sweep`: which workloads exist, their class
 * and description. Each workload declares itself on the first line of its
 * source (docs/workloads.md): in <name>.cu
 *     // WORKLOAD: <name> | <class> | <description>
 * and in <name>_ocl.c a block comment holding
 *     WORKLOAD-OCL: <name>_ocl | <class> | <description>
 * benchmarks/workloads/build.sh copies those lines into the binary
 * directory's workloads.txt; the catalog reads that file, or, when there is
 * none, the first lines of the sources under the source tree.
 */
#ifndef PTXSIM_TOOLS_SWEEP_CATALOG_H
#define PTXSIM_TOOLS_SWEEP_CATALOG_H

#include <stdbool.h>
#include <stddef.h>

struct sweep_workload {
    char name[64]; /* letters, digits, '_' and '-' only */
    char wclass[32];
    char desc[512];
    bool ocl; /* an OpenCL variant (WORKLOAD-OCL) */
};

struct sweep_catalog {
    struct sweep_workload *w; /* sorted by name */
    size_t n;
};

/*
 * Parses one declaration line (either form, leading blanks allowed) into w;
 * false if the line is not one or the name has other characters.
 */
bool sweep_catalog_parse_line(const char *line, struct sweep_workload *w);

/*
 * Loads bindir/workloads.txt, or else scans srcdir/benchmarks/workloads/
 * (srcdir may be NULL). 0, or -1 when out of memory; an empty catalog is
 * not an error.
 */
int sweep_catalog_load(struct sweep_catalog *c, const char *bindir, const char *srcdir);
const struct sweep_workload *sweep_catalog_find(const struct sweep_catalog *c, const char *name);
void sweep_catalog_free(struct sweep_catalog *c);

#endif
