/* HeteroPDP model and Bubble-up files (hpdp_models.h). */
#include "runtime/hpdp_models.h"

#include <string.h>

#include "common/err.h"

static const char *const names[RT_HPDP_NMODELS] = {"cpu_alone", "gpu_alone", "cpu_coloc",
                                                   "gpu_coloc"};
static const uint32_t nfactors[RT_HPDP_NMODELS] = {8, 8, 10, 9};

const char *rt_hpdp_model_name(enum rt_hpdp_which w)
{
    return names[w];
}

uint32_t rt_hpdp_model_factors(enum rt_hpdp_which w)
{
    return nfactors[w];
}

static int which(const char *name)
{
    for (int i = 0; i < RT_HPDP_NMODELS; i++)
        if (!strcmp(name, names[i]))
            return i;
    return -1;
}

static int load_models(FILE *f, const char *path, struct rt_hpdp_models *out, struct ps_err *err)
{
    char line[256], name[32];
    int cur = -1, lineno = 0;
    uint32_t nf, a, b, t = 0;
    double c;

    while (fgets(line, sizeof(line), f)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (sscanf(line, "model %31s %u", name, &nf) == 2) {
            cur = which(name);
            if (cur < 0 || nf != nfactors[cur])
                return ps_err_set(err, PS_EPARSE, "%s:%d: unknown model %s or %u factors", path,
                                  lineno, name, nf);
            out->m[cur] = (struct hpdp_model){.nf = nf};
            out->have[cur] = true;
            t = 0;
        } else if (cur >= 0 && sscanf(line, "intercept %lg", &c) == 1) {
            out->m[cur].intercept = true;
            out->m[cur].c0 = c;
        } else if (cur >= 0 && sscanf(line, "term %u %u %lg", &a, &b, &c) == 3) {
            uint32_t ea, eb;
            if (t >= hpdp_term_count(nf))
                return ps_err_set(err, PS_EPARSE, "%s:%d: too many terms", path, lineno);
            hpdp_term_factors(nf, t, &ea, &eb);
            if (a != ea || b != eb)
                return ps_err_set(err, PS_EPARSE, "%s:%d: term %u is %u*%u, not %u*%u", path,
                                  lineno, t, ea, eb, a, b);
            out->m[cur].coef[t++] = c;
        } else {
            return ps_err_set(err, PS_EPARSE, "%s:%d: cannot read '%.40s'", path, lineno, line);
        }
    }
    return 0;
}

/* The curves a bubble.txt line adds to: the shared ones, or class cls's (made on first use). */
static struct hpdp_bubble *curve(struct rt_hpdp_models *m, const char *res, const char *cls)
{
    uint32_t i = 0;

    if (!cls[0])
        return !strcmp(res, "llc") ? &m->llc : &m->dram;
    while (i < m->ncls && strcmp(m->cls[i].cls, cls))
        i++;
    if (i == m->ncls) {
        if (m->ncls == RT_HPDP_MAX_CLASSES)
            return NULL;
        snprintf(m->cls[m->ncls++].cls, sizeof(m->cls[0].cls), "%s", cls);
    }
    return !strcmp(res, "llc") ? &m->cls[i].llc : &m->cls[i].dram;
}

static int load_bubble(FILE *f, const char *path, struct rt_hpdp_models *out, struct ps_err *err)
{
    char line[256], res[8], cls[16];
    double p, s;
    int lineno = 0, nf;
    struct hpdp_bubble *b;

    while (fgets(line, sizeof(line), f)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        cls[0] = 0;
        nf = sscanf(line, "%7s %lg %lg %15s", res, &p, &s, cls);
        if (nf < 3 || (strcmp(res, "llc") && strcmp(res, "dram")) ||
            !(b = curve(out, res, nf == 4 ? cls : "")) || hpdp_bubble_add(b, p, s))
            return ps_err_set(err, PS_EPARSE, "%s:%d: bad bubble point", path, lineno);
    }
    return 0;
}

void rt_hpdp_curves(const struct rt_hpdp_models *m, const char *cls, const struct hpdp_bubble **llc,
                    const struct hpdp_bubble **dram)
{
    *llc = &m->llc;
    *dram = &m->dram;
    for (uint32_t i = 0; cls && i < m->ncls; i++) {
        if (strcmp(m->cls[i].cls, cls))
            continue;
        if (m->cls[i].llc.n)
            *llc = &m->cls[i].llc;
        if (m->cls[i].dram.n)
            *dram = &m->cls[i].dram;
    }
}

void rt_hpdp_pressure(const struct rt_hpdp_dyn *d, double t_gpu, const struct rt_hpdp_press *p,
                      double *llc_mb, double *dram_gbs)
{
    double share = d->threads < p->lanes ? d->threads / p->lanes : 1.0;

    *llc_mb = d->buffer_bytes / 1e6 * share; /* MB of working set the CMP keeps live */
    *dram_gbs = d->transfer_bytes / (t_gpu > 0 ? t_gpu : 1e-9) / 1e9;
    if (*llc_mb > p->llc_mb)
        *llc_mb = p->llc_mb;
    if (*dram_gbs > p->pcie_gbs)
        *dram_gbs = p->pcie_gbs;
}

void rt_hpdp_corunner_slowdowns(const struct rt_hpdp_models *m, const struct rt_hpdp_dyn *d,
                                double t_gpu, const struct rt_hpdp_press *p, uint32_t nco,
                                const char (*cls)[16], double sd[2][HPDP_MAX_CORUNNERS])
{
    const struct hpdp_bubble *llc, *dram;
    double llc_p, dram_p;

    rt_hpdp_pressure(d, t_gpu, p, &llc_p, &dram_p);
    for (uint32_t i = 0; i < nco && i < HPDP_MAX_CORUNNERS; i++) {
        rt_hpdp_curves(m, cls ? cls[i] : NULL, &llc, &dram);
        sd[HPDP_CPU][i] = hpdp_bubble_lookup(llc, llc_p);
        sd[HPDP_GPU][i] = hpdp_bubble_lookup(dram, dram_p);
    }
}

int rt_hpdp_models_load(const char *dir, struct rt_hpdp_models *out, struct ps_err *err)
{
    char path[1024];
    FILE *f;
    int rc;

    memset(out, 0, sizeof(*out));
    snprintf(path, sizeof(path), "%s/models.txt", dir);
    if (!(f = fopen(path, "r")))
        return ps_err_set(err, PS_EIO, "cannot open %s", path);
    rc = load_models(f, path, out, err);
    fclose(f);
    snprintf(path, sizeof(path), "%s/bubble.txt", dir);
    if (!rc && (f = fopen(path, "r"))) {
        rc = load_bubble(f, path, out, err);
        fclose(f);
    }
    return rc;
}

int rt_hpdp_models_write(FILE *f, const struct rt_hpdp_models *in)
{
    fprintf(f, "# ptxsim-heteropdp-models 1\n");
    for (int w = 0; w < RT_HPDP_NMODELS; w++) {
        uint32_t nf = nfactors[w], a, b;
        if (!in->have[w])
            continue;
        fprintf(f, "model %s %u\n", names[w], nf);
        if (in->m[w].intercept)
            fprintf(f, "intercept %.17g\n", in->m[w].c0);
        for (uint32_t t = 0; t < hpdp_term_count(nf); t++) {
            hpdp_term_factors(nf, t, &a, &b);
            fprintf(f, "term %u %u %.17g\n", a, b, in->m[w].coef[t]);
        }
    }
    return ferror(f) ? PS_EIO : 0;
}

int rt_hpdp_bubble_write(FILE *f, const struct rt_hpdp_models *in)
{
    fprintf(f, "# ptxsim-heteropdp-bubble 1\n");
    for (uint32_t i = 0; i < in->llc.n; i++)
        fprintf(f, "llc %.17g %.17g\n", in->llc.pressure[i], in->llc.slowdown[i]);
    for (uint32_t i = 0; i < in->dram.n; i++)
        fprintf(f, "dram %.17g %.17g\n", in->dram.pressure[i], in->dram.slowdown[i]);
    for (uint32_t c = 0; c < in->ncls; c++) {
        const struct rt_hpdp_class_curves *k = &in->cls[c];
        for (uint32_t i = 0; i < k->llc.n; i++)
            fprintf(f, "llc %.17g %.17g %s\n", k->llc.pressure[i], k->llc.slowdown[i], k->cls);
        for (uint32_t i = 0; i < k->dram.n; i++)
            fprintf(f, "dram %.17g %.17g %s\n", k->dram.pressure[i], k->dram.slowdown[i], k->cls);
    }
    return ferror(f) ? PS_EIO : 0;
}
