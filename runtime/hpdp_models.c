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

static int load_bubble(FILE *f, const char *path, struct rt_hpdp_models *out, struct ps_err *err)
{
    char line[256], res[8];
    double p, s;
    int lineno = 0;

    while (fgets(line, sizeof(line), f)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (sscanf(line, "%7s %lg %lg", res, &p, &s) != 3 ||
            (strcmp(res, "llc") && strcmp(res, "dram")) ||
            hpdp_bubble_add(!strcmp(res, "llc") ? &out->llc : &out->dram, p, s))
            return ps_err_set(err, PS_EPARSE, "%s:%d: bad bubble point", path, lineno);
    }
    return 0;
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
    return ferror(f) ? PS_EIO : 0;
}
