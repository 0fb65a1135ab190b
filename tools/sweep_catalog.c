/*
 * The workload catalog: declaration lines from workloads.txt or from the
 * sources' first lines, sorted by name so that "all" means the same list in
 * the same order on every host.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/sweep_catalog.h"

static const char *skip_blanks(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* Copies the n bytes at p into dst without the blanks around them. */
static void copy_trimmed(char *dst, size_t len, const char *p, size_t n)
{
    while (n && (*p == ' ' || *p == '\t'))
        p++, n--;
    while (n && strchr(" \t\r\n", p[n - 1]))
        n--;
    snprintf(dst, len, "%.*s", (int)n, p);
}

static bool valid_name(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_' || *s == '-'))
            return false;
    return true;
}

bool sweep_catalog_parse_line(const char *line, struct sweep_workload *w)
{
    const char *p = skip_blanks(line), *bar1, *bar2, *end;
    bool block = !strncmp(p, "/*", 2);

    if (strncmp(p, "//", 2) && !block)
        return false;
    p = skip_blanks(p + 2);
    memset(w, 0, sizeof(*w));
    if (!strncmp(p, "WORKLOAD-OCL:", 13)) {
        w->ocl = true;
        p += 13;
    } else if (!strncmp(p, "WORKLOAD:", 9)) {
        p += 9;
    } else {
        return false;
    }
    end = p + strcspn(p, "\r\n");
    if (block) /* drop the closing star-slash */
        for (const char *q = p; q + 1 < end; q++)
            if (q[0] == '*' && q[1] == '/') {
                end = q;
                break;
            }
    bar1 = memchr(p, '|', (size_t)(end - p));
    bar2 = bar1 ? memchr(bar1 + 1, '|', (size_t)(end - bar1 - 1)) : NULL;
    if (!bar2)
        return false;
    copy_trimmed(w->name, sizeof(w->name), p, (size_t)(bar1 - p));
    copy_trimmed(w->wclass, sizeof(w->wclass), bar1 + 1, (size_t)(bar2 - bar1 - 1));
    copy_trimmed(w->desc, sizeof(w->desc), bar2 + 1, (size_t)(end - bar2 - 1));
    if (w->ocl && (strlen(w->name) < 5 || strcmp(w->name + strlen(w->name) - 4, "_ocl")))
        return false;
    return valid_name(w->name) && w->wclass[0];
}

static int add(struct sweep_catalog *c, const struct sweep_workload *w)
{
    struct sweep_workload *n;

    if (sweep_catalog_find(c, w->name))
        return 0; /* first declaration wins */
    n = realloc(c->w, (c->n + 1) * sizeof(*n));
    if (!n)
        return -1;
    c->w = n;
    c->w[c->n++] = *w;
    return 0;
}

/* Adds every declaration line of the file; 1 if it cannot be opened. */
static int read_lines(struct sweep_catalog *c, const char *path, bool first_only)
{
    FILE *fp = fopen(path, "r");
    char line[1024];
    struct sweep_workload w;
    int rc = 0;

    if (!fp)
        return 1;
    while (!rc && fgets(line, sizeof(line), fp)) {
        if (sweep_catalog_parse_line(line, &w))
            rc = add(c, &w);
        if (first_only)
            break;
    }
    fclose(fp);
    return rc;
}

static int scan_sources(struct sweep_catalog *c, const char *srcdir)
{
    char dir[4096], path[4096 + 600];
    struct dirent *e;
    DIR *d;
    int rc = 0;

    snprintf(dir, sizeof(dir), "%s/benchmarks/workloads", srcdir);
    d = opendir(dir);
    if (!d)
        return 0;
    while (!rc && (e = readdir(d))) {
        if (e->d_name[0] == '.' || !strcmp(e->d_name, "common") || strlen(e->d_name) > 255)
            continue;
        snprintf(path, sizeof(path), "%s/%s/%s.cu", dir, e->d_name, e->d_name);
        rc = read_lines(c, path, true) < 0 ? -1 : 0;
        snprintf(path, sizeof(path), "%s/%s/%s_ocl.c", dir, e->d_name, e->d_name);
        if (!rc)
            rc = read_lines(c, path, true) < 0 ? -1 : 0;
    }
    closedir(d);
    return rc;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const struct sweep_workload *)a)->name,
                  ((const struct sweep_workload *)b)->name);
}

int sweep_catalog_load(struct sweep_catalog *c, const char *bindir, const char *srcdir)
{
    char path[4096];
    int rc;

    memset(c, 0, sizeof(*c));
    snprintf(path, sizeof(path), "%s/workloads.txt", bindir);
    rc = read_lines(c, path, false);
    if (rc == 1)
        rc = srcdir ? scan_sources(c, srcdir) : 0;
    if (rc < 0) {
        sweep_catalog_free(c);
        return -1;
    }
    if (c->n)
        qsort(c->w, c->n, sizeof(*c->w), by_name);
    return 0;
}

const struct sweep_workload *sweep_catalog_find(const struct sweep_catalog *c, const char *name)
{
    for (size_t i = 0; i < c->n; i++)
        if (!strcmp(c->w[i].name, name))
            return &c->w[i];
    return NULL;
}

void sweep_catalog_free(struct sweep_catalog *c)
{
    free(c->w);
    memset(c, 0, sizeof(*c));
}
