/* HeteroPDP launch logs (hpdp_log.h). */
#include "tools/hpdp_log.h"

#include <stdbool.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads up to n comma-separated numbers; returns how many. */
static uint32_t read_vec(const char *s, double *v, int n)
{
    uint32_t k = 0;

    for (int i = 0; i < n && s && *s; i++, k++) {
        v[i] = strtod(s, NULL);
        s = strchr(s, ',');
        s = s ? s + 1 : NULL;
    }
    return k;
}

/* The co-runner classes of "co=mem,cache". */
static void read_classes(const char *s, char (*co)[16])
{
    for (uint32_t i = 0; i < HPDP_MAX_CORUNNERS && s && *s; i++) {
        size_t len = strcspn(s, ",");
        snprintf(co[i], sizeof(co[i]), "%.*s", (int)(len < 15 ? len : 15), s);
        s = s[len] ? s + len + 1 : NULL;
    }
}

/* One "key=value" token into the sample. */
static void field(struct hpdp_sample *x, const char *k, const char *v)
{
    if (!strcmp(k, "app"))
        snprintf(x->app, sizeof(x->app), "%s", v);
    else if (!strcmp(k, "kernel"))
        snprintf(x->kernel, sizeof(x->kernel), "%s", v);
    else if (!strcmp(k, "dev"))
        x->gpu = !strcmp(v, "gpu");
    else if (!strcmp(k, "rc"))
        x->rc = atoi(v);
    else if (!strcmp(k, "havec"))
        x->havec = atoi(v);
    else if (!strcmp(k, "nco"))
        x->nco = (uint32_t)atoi(v);
    else if (!strcmp(k, "T"))
        x->dyn.threads = strtod(v, NULL);
    else if (!strcmp(k, "Buf"))
        x->dyn.buffer_bytes = strtod(v, NULL);
    else if (!strcmp(k, "Xfer"))
        x->dyn.transfer_bytes = strtod(v, NULL);
    else if (!strcmp(k, "g"))
        read_vec(v, x->gpuf, RT_HPDP_G_N);
    else if (!strcmp(k, "c"))
        read_vec(v, x->cpu, RT_HPDP_C_N);
    else if (!strcmp(k, "llc"))
        x->sys.llc_mps = strtod(v, NULL);
    else if (!strcmp(k, "dram"))
        x->sys.dram_gbs = strtod(v, NULL);
    else if (!strcmp(k, "kernel_s"))
        x->kernel_s = strtod(v, NULL);
    else if (!strcmp(k, "xfer_s"))
        x->xfer_s = strtod(v, NULL);
    else if (!strcmp(k, "time_s"))
        x->time_s = strtod(v, NULL);
    else if (!strcmp(k, "co"))
        read_classes(v, x->co);
}

/* One "key=value" token of a cosd line. */
static void cosd_field(struct hpdp_cosd *c, const char *k, const char *v)
{
    if (!strcmp(k, "app"))
        snprintf(c->app, sizeof(c->app), "%s", v);
    else if (!strcmp(k, "kernel"))
        snprintf(c->kernel, sizeof(c->kernel), "%s", v);
    else if (!strcmp(k, "dev"))
        c->gpu = !strcmp(v, "gpu");
    else if (!strcmp(k, "T"))
        c->threads = strtod(v, NULL);
    else if (!strcmp(k, "Buf"))
        c->buffer_bytes = strtod(v, NULL);
    else if (!strcmp(k, "sd"))
        c->n = read_vec(v, c->sd, HPDP_MAX_CORUNNERS);
}

/* A cosd line into c: 0, or -1 when the line is not one. */
static int parse_cosd(char *line, struct hpdp_cosd *c)
{
    char *save = NULL, *tok = strtok_r(line, " \n", &save);

    memset(c, 0, sizeof(*c));
    if (!tok || strcmp(tok, "cosd"))
        return -1;
    while ((tok = strtok_r(NULL, " \n", &save))) {
        char *eq = strchr(tok, '=');
        if (!eq)
            continue;
        *eq = 0;
        cosd_field(c, tok, eq + 1);
    }
    return c->kernel[0] && c->n ? 0 : -1;
}

static int add_cosd(struct hpdp_samples *out, const struct hpdp_cosd *c)
{
    if (out->nco == out->capco) {
        size_t cap = out->capco ? out->capco * 2 : 64;
        struct hpdp_cosd *v = realloc(out->co, cap * sizeof(*v));
        if (!v)
            return -1;
        out->co = v;
        out->capco = cap;
    }
    out->co[out->nco++] = *c;
    return 0;
}

static int parse_line(char *line, struct hpdp_sample *x)
{
    char *save = NULL, *tok = strtok_r(line, " \n", &save);

    memset(x, 0, sizeof(*x));
    if (!tok || strcmp(tok, "launch"))
        return -1;
    while ((tok = strtok_r(NULL, " \n", &save))) {
        char *eq = strchr(tok, '=');
        if (!eq)
            continue;
        *eq = 0;
        field(x, tok, eq + 1);
    }
    return x->kernel[0] ? 0 : -1;
}

int hpdp_log_read(const char *path, struct hpdp_samples *out)
{
    FILE *f = fopen(path, "r");
    char line[8192];
    struct hpdp_sample x;
    struct hpdp_cosd c;

    if (!f) {
        fprintf(stderr, "ptxsim heteropdp: cannot open %s\n", path);
        return -1;
    }
    while (fgets(line, sizeof(line), f)) {
        if (!strncmp(line, "cosd ", 5)) {
            if (!parse_cosd(line, &c) && add_cosd(out, &c)) {
                fclose(f);
                return -1;
            }
            continue;
        }
        if (parse_line(line, &x) || x.rc)
            continue;
        if (out->n == out->cap) {
            size_t cap = out->cap ? out->cap * 2 : 256;
            struct hpdp_sample *v = realloc(out->v, cap * sizeof(*v));
            if (!v) {
                fclose(f);
                return -1;
            }
            out->v = v;
            out->cap = cap;
        }
        out->v[out->n++] = x;
    }
    fclose(f);
    return 0;
}

void hpdp_samples_free(struct hpdp_samples *s)
{
    free(s->v);
    free(s->co);
    memset(s, 0, sizeof(*s));
}

uint32_t hpdp_sample_factors(const struct hpdp_sample *x, enum rt_hpdp_which w, double *f)
{
    bool coloc = w == RT_HPDP_CPU_COLOC || w == RT_HPDP_GPU_COLOC;

    if (w == RT_HPDP_CPU_ALONE || w == RT_HPDP_CPU_COLOC)
        return rt_hpdp_cpu_factors(x->cpu, &x->dyn, coloc ? &x->sys : NULL, f);
    return rt_hpdp_gpu_factors(x->gpuf, &x->dyn, coloc ? &x->sys : NULL, f);
}

bool hpdp_sample_fits(const struct hpdp_sample *x, enum rt_hpdp_which w)
{
    bool cpu = w == RT_HPDP_CPU_ALONE || w == RT_HPDP_CPU_COLOC;
    bool coloc = w == RT_HPDP_CPU_COLOC || w == RT_HPDP_GPU_COLOC;

    return x->gpu == !cpu && (x->nco > 0) == coloc && (!cpu || x->havec);
}
