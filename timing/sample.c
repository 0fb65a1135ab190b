/*
 * Sampled simulation's arithmetic (timing/sample.h): the -ptxsim_sample
 * value, the convergence criterion, the confidence interval, the
 * extrapolation of counters, and the `sampled` report.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/counters.h"
#include "timing/sample.h"

/* ------------------------------------------------------------------ spec */

static void spec_default(struct tm_sample_spec *sp)
{
    memset(sp, 0, sizeof(*sp));
    sp->window = 0;
    sp->waves = 2;
    sp->k = 3;
    sp->warmup = 1;
    sp->tol = 0.05;
    sp->mtol = 0.05;
    sp->min_waves = 4;
    sp->recheck = 0;
    sp->reuse = 2;
}

static int bad(struct ps_err *err, const char *s, const char *why, const char *item)
{
    return ps_err_set(
        err, PS_EINVAL,
        "-ptxsim_sample '%.96s': %s '%.64s' (expected off, on, or a comma-separated "
        "list of window=N, waves=F, k=N, tol=F, mtol=F, warmup=N, min_waves=F, recheck=N, reuse=N; "
        "docs/timing.md \"Sampled simulation\")",
        s, why, item);
}

/* A number in [lo, hi] from val (all of it); false if it is not one. */
static bool number(const char *val, double lo, double hi, bool integer, double *out)
{
    char *end;
    double v;

    if (!*val)
        return false;
    v = strtod(val, &end);
    if (*end || !(v >= lo && v <= hi) || (integer && v != floor(v)))
        return false;
    *out = v;
    return true;
}

static int set_key(struct tm_sample_spec *sp, const char *s, char *item, struct ps_err *err)
{
    static const struct {
        const char *name;
        double lo, hi;
        bool integer;
    } keys[] = {{"window", 0, 1e9, true},
                {"k", 2, TM_SAMPLE_MAX_K, true},
                {"tol", 1e-6, 1, false},
                {"mtol", 0, 1, false},
                {"warmup", 0, 1000, true},
                {"min_waves", 1, 1e6, false},
                {"waves", 0.1, 1000, false},
                {"recheck", 0, 1e6, true},
                {"reuse", 0, TM_SAMPLE_MAX_K, true}};
    char *eq = strchr(item, '=');
    double v;

    if (!eq)
        return bad(err, s, "no '=' in", item);
    *eq = '\0';
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        if (strcmp(item, keys[i].name))
            continue;
        if (!number(eq + 1, keys[i].lo, keys[i].hi, keys[i].integer, &v)) {
            *eq = '=';
            return bad(err, s, "value out of range or not a number in", item);
        }
        if (i == 0)
            sp->window = (uint32_t)v;
        else if (i == 1)
            sp->k = (uint32_t)v;
        else if (i == 2)
            sp->tol = v;
        else if (i == 3)
            sp->mtol = v;
        else if (i == 4)
            sp->warmup = (uint32_t)v;
        else if (i == 5)
            sp->min_waves = v;
        else if (i == 6)
            sp->waves = v;
        else if (i == 7)
            sp->recheck = (uint32_t)v;
        else
            sp->reuse = (uint32_t)v;
        return 0;
    }
    *eq = '=';
    return bad(err, s, "unknown key in", item);
}

int tm_sample_spec_parse(const char *s, struct tm_sample_spec *sp, struct ps_err *err)
{
    char buf[256], *save = NULL, *item;
    int rc = 0;

    spec_default(sp);
    if (!s || !*s || !strcmp(s, "off") || !strcmp(s, "0"))
        return 0;
    if (strlen(s) >= sizeof(buf))
        return bad(err, s, "too long:", "");
    snprintf(buf, sizeof(buf), "%s", s);
    sp->on = true;
    for (item = strtok_r(buf, ",", &save); item && !rc; item = strtok_r(NULL, ",", &save)) {
        if (!strcmp(item, "on") || !strcmp(item, "1"))
            continue;
        rc = set_key(sp, s, item, err);
    }
    if (rc)
        sp->on = false;
    return rc;
}

/* ------------------------------------------------------------- criterion */

bool tm_sample_converged(const struct tm_sample_window *w, uint32_t k, double tol, double mtol)
{
    double ipc[TM_SAMPLE_MAX_K], m = 0, m1 = 0, m2 = 0;

    if (k < 2 || k > TM_SAMPLE_MAX_K)
        return false;
    for (uint32_t i = 0; i < k; i++) {
        if (!w[i].cycles)
            return false;
        ipc[i] = (double)w[i].insts / (double)w[i].cycles;
        m += ipc[i] / k;
        m1 += w[i].l1d_miss / k;
        m2 += w[i].l2_miss / k;
    }
    for (uint32_t i = 0; i < k; i++) {
        if (fabs(ipc[i] - m) > tol * m)
            return false;
        if (fabs(w[i].l1d_miss - m1) > mtol || fabs(w[i].l2_miss - m2) > mtol)
            return false;
    }
    return true;
}

double tm_sample_t95(uint32_t dof)
{
    static const double t[] = {12.706, 4.303, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262,
                               2.228,  2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110,
                               2.101,  2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060,
                               2.056,  2.052, 2.048, 2.045, 2.042, 2.040};

    if (!dof)
        return INFINITY;
    return dof <= sizeof(t) / sizeof(t[0]) ? t[dof - 1] : 1.96;
}

double tm_sample_cpi_half(const struct tm_sample_window *w, uint32_t k)
{
    double cpi[TM_SAMPLE_MAX_K], m = 0, ss = 0;

    if (k < 2 || k > TM_SAMPLE_MAX_K)
        return 0;
    for (uint32_t i = 0; i < k; i++) {
        cpi[i] = w[i].insts ? (double)w[i].cycles / (double)w[i].insts : 0;
        m += cpi[i] / k;
    }
    for (uint32_t i = 0; i < k; i++)
        ss += (cpi[i] - m) * (cpi[i] - m);
    return tm_sample_t95(k - 1) * sqrt(ss / (k - 1)) / sqrt((double)k);
}

double tm_sample_half_from_sums(uint32_t n, double sum, double sq)
{
    double var;

    if (n < 2)
        return 0;
    var = (sq - sum * sum / n) / (n - 1);
    return var > 0 ? tm_sample_t95(n - 1) * sqrt(var) / sqrt((double)n) : 0;
}

/* --------------------------------------------------------- extrapolation */

uint64_t tm_sample_extra_cycles(uint64_t insts, uint64_t win_cycles, uint64_t win_insts)
{
    if (!win_insts)
        return 0;
    return (uint64_t)llround((double)insts * (double)win_cycles / (double)win_insts);
}

void tm_sample_extrapolate(struct tm_counters *extra, const struct tm_counters *delta,
                           uint64_t extra_cycles)
{
    const uint64_t *d = (const uint64_t *)delta;
    uint64_t *x = (uint64_t *)extra;
    double f = delta->cycles ? (double)extra_cycles / (double)delta->cycles : 0;

    for (size_t i = 0; i < PS_NCOUNTERS(*extra); i++) {
        double v = (double)d[i] * f;

        /* A counter that went down over the windows (none should) extrapolates nothing. */
        x[i] = d[i] <= INT64_MAX && v < 9e18 ? (uint64_t)llround(v) : 0;
    }
    extra->cycles = extra->dram_cycles = 0;
    extra->warp_insts = extra->thread_insts = extra->ctas = extra->kernels = 0;
    extra->sm.lat_max = 0;
}

/* ---------------------------------------------------------------- report */

void tm_sampled_add(struct tm_sampled *acc, const struct tm_sampled *x)
{
    if (!x->kernels)
        return;
    if (!acc->kernels) {
        *acc = *x;
        return;
    }
    acc->ipc_min = x->ipc_min < acc->ipc_min ? x->ipc_min : acc->ipc_min;
    acc->ipc_max = x->ipc_max > acc->ipc_max ? x->ipc_max : acc->ipc_max;
    acc->ipc_mean = (acc->ipc_mean * acc->kernels + x->ipc_mean * x->kernels) /
                    (double)(acc->kernels + x->kernels);
    acc->kernels += x->kernels;
    acc->detailed_ctas += x->detailed_ctas;
    acc->functional_ctas += x->functional_ctas;
    acc->detailed_cycles += x->detailed_cycles;
    acc->extra_cycles += x->extra_cycles;
    acc->detailed_insts += x->detailed_insts;
    acc->functional_insts += x->functional_insts;
    acc->windows += x->windows;
    acc->window_ctas = 0;     /* per kernel only */
    acc->converged_cycle = 0; /* per kernel only */
    acc->ci_half = sqrt(acc->ci_half * acc->ci_half + x->ci_half * x->ci_half);
}

#define U(x) ((unsigned long long)(x))

void tm_sampled_print_json(const struct tm_sampled *s, FILE *out, int indent)
{
    uint64_t est = s->detailed_cycles + s->extra_cycles;
    double lo = (double)est - s->ci_half;

    if (!s->kernels)
        return;
    fprintf(out,
            "%*s \"sampled\": {\"kernels\": %llu, \"detailed_ctas\": %llu, "
            "\"functional_ctas\": %llu, \"detailed_cycles\": %llu, \"extrapolated_cycles\": %llu, "
            "\"estimated_cycles\": %llu, \"cycles_ci95\": [%.0f, %.0f], "
            "\"detailed_thread_insn\": %llu, \"functional_thread_insn\": %llu, "
            "\"window_ctas\": %llu, \"windows\": %llu, \"converged_cycle\": %llu, "
            "\"window_ipc\": {\"mean\": %.6f, \"min\": %.6f, \"max\": %.6f}},\n",
            indent, "", U(s->kernels), U(s->detailed_ctas), U(s->functional_ctas),
            U(s->detailed_cycles), U(s->extra_cycles), U(est), lo > 0 ? lo : 0,
            (double)est + s->ci_half, U(s->detailed_insts), U(s->functional_insts),
            U(s->window_ctas), U(s->windows), U(s->converged_cycle), s->ipc_mean, s->ipc_min,
            s->ipc_max);
}

void tm_sampled_print_text(const struct tm_sampled *s, FILE *out)
{
    uint64_t est = s->detailed_cycles + s->extra_cycles;
    double lo = (double)est - s->ci_half;

    if (!s->kernels)
        return;
    fprintf(out,
            "ptxsim_sampled = %llu kernel(s): cycles estimated %llu (95%% CI %.0f..%.0f) from "
            "%llu detailed cycles; CTAs %llu detailed, %llu functional\n",
            U(s->kernels), U(est), lo > 0 ? lo : 0, (double)est + s->ci_half, U(s->detailed_cycles),
            U(s->detailed_ctas), U(s->functional_ctas));
}
