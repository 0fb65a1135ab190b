/*
 * HeteroPDP's decision at clEnqueueNDRangeKernel (hpdp.h): configuration
 * from the environment (read once), features per launch, predictions,
 * the choice and its log line.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "frontend/clc_features.h"
#include "runtime/hpdp_models.h"
#include "runtime/hpdp_telemetry.h"
#include "runtime/opencl/cpu.h"
#include "runtime/opencl/hpdp.h"

enum goal { GOAL_OFF, GOAL_ALONE, GOAL_FAIR, GOAL_CPU, GOAL_GPU };

struct hpdp_cfg {
    enum goal goal;
    bool models_ok;
    struct rt_hpdp_models models;
    FILE *log;
    const char *corunners, *app;
    double pcie_gbs, host_gbs, w_ocl;
    bool ref_best; /* PTXSIM_HETEROPDP_SD_REF=best */
    struct rt_hpdp_press press;
    pthread_mutex_t log_lock;
    uint64_t seq, copied_mark;
};

/* Feature counts of one kernel of a program (cached on the program). */
struct ocl_hpdp_feat {
    char name[128];
    bool have_cpu;
    double gpu[RT_HPDP_G_N], cpu[RT_HPDP_C_N];
    struct ocl_hpdp_feat *next;
};

static struct hpdp_cfg g_cfg = {.log_lock = PTHREAD_MUTEX_INITIALIZER};
static uint64_t g_host_copied; /* buffer-creation copies from host memory (atomic) */

void ocl_hpdp_host_copy(uint64_t bytes)
{
    __atomic_add_fetch(&g_host_copied, bytes, __ATOMIC_SEQ_CST);
}
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

static double env_num(const char *name, double dflt)
{
    const char *s = getenv(name);
    char *end;
    double v;

    if (!s || !*s)
        return dflt;
    v = strtod(s, &end);
    if (*end || !(v > 0)) {
        fprintf(stderr, "ptxsim opencl: %s=%s is not a positive number; using %g\n", name, s, dflt);
        return dflt;
    }
    return v;
}

static enum goal parse_goal(const char *s)
{
    static const char *const names[] = {"off", "alone", "fair", "cpu", "gpu"};

    if (!s || !*s)
        return GOAL_OFF;
    for (int i = 0; i < 5; i++)
        if (!strcmp(s, names[i]))
            return (enum goal)i;
    fprintf(stderr,
            "ptxsim opencl: PTXSIM_HETEROPDP=%s is not off, alone, fair, cpu or gpu; "
            "HeteroPDP stays off\n",
            s);
    return GOAL_OFF;
}

static void cfg_init(void)
{
    struct hpdp_cfg *c = &g_cfg;
    const char *dir = getenv("PTXSIM_HETEROPDP_MODELS"), *log = getenv("PTXSIM_HETEROPDP_LOG"),
               *ref;
    struct ps_err err;

    c->goal = parse_goal(getenv("PTXSIM_HETEROPDP"));
    c->corunners = getenv("PTXSIM_HETEROPDP_CORUNNERS");
    c->app = getenv("PTXSIM_HETEROPDP_APP");
    c->pcie_gbs =
        env_num("PTXSIM_HETEROPDP_PCIE_GBS", 15.754);         /* PCIe 3.0 x16: 8 GT/s, 128b/130b */
    c->host_gbs = env_num("PTXSIM_HETEROPDP_HOST_GBS", 22.0); /* Table 6.1's DDR3-1600 x2 */
    c->w_ocl = env_num("PTXSIM_HETEROPDP_OCL_WEIGHT", 1.0);
    ref = getenv("PTXSIM_HETEROPDP_SD_REF");
    c->ref_best = ref && !strcmp(ref, "best");
    if (ref && *ref && !c->ref_best && strcmp(ref, "device"))
        fprintf(stderr,
                "ptxsim opencl: PTXSIM_HETEROPDP_SD_REF=%s is not device or best; "
                "using device\n",
                ref);
    c->press.llc_mb = env_num("PTXSIM_HETEROPDP_LLC_MB", 8.0);
    c->press.lanes = env_num("PTXSIM_HETEROPDP_CPU_LANES", 8.0); /* cores x SIMD lanes of the CMP */
    c->press.pcie_gbs = c->pcie_gbs;
    memset(&err, 0, sizeof(err));
    if (dir && *dir)
        c->models_ok = rt_hpdp_models_load(dir, &c->models, &err) == 0;
    if ((c->goal == GOAL_ALONE || c->goal == GOAL_FAIR) && !c->models_ok)
        fprintf(stderr,
                "ptxsim opencl: HeteroPDP needs trained models (PTXSIM_HETEROPDP_MODELS"
                "): %s; the queue's device runs each kernel\n",
                dir && *dir ? err.msg : "not set");
    if (log && *log && !(c->log = fopen(log, "a")))
        fprintf(stderr, "ptxsim opencl: cannot open PTXSIM_HETEROPDP_LOG=%s\n", log);
}

void ocl_hpdp_program_free(cl_program p)
{
    while (p->hpdp) {
        struct ocl_hpdp_feat *n = p->hpdp->next;
        free(p->hpdp);
        p->hpdp = n;
    }
}

/* The CMP counts of every kernel of a source program, from one compile. */
static void cpu_counts(cl_program p)
{
    const char *names[64];
    double(*out)[CLC_F_N];
    struct ocl_hpdp_feat *f;
    struct ps_err err;
    size_t n = 0;

    for (f = p->hpdp; f && n < 64; f = f->next)
        names[n++] = f->name;
    if (!n || !(out = calloc(n, sizeof(*out))))
        return;
    memset(&err, 0, sizeof(err));
    ocl_compiler_lock();
    if (clc_kernel_features(p->source, strlen(p->source), p->options, names, n, out, &err) == 0) {
        n = 0;
        for (f = p->hpdp; f && n < 64; f = f->next, n++) {
            memcpy(f->cpu, out[n], sizeof(f->cpu));
            f->have_cpu = true;
        }
    }
    ocl_compiler_unlock();
    free(out);
}

/* The kernel's static counts, computed for all the program's kernels on first need. */
static const struct ocl_hpdp_feat *features(cl_kernel k)
{
    cl_program p = k->prog;
    struct ocl_hpdp_feat *f;
    struct ps_err err;
    uint32_t nk = ptxsim_module_kernel_count(p->mod);

    if (!p->hpdp) {
        for (uint32_t i = 0; i < nk; i++) {
            if (!(f = calloc(1, sizeof(*f))))
                break;
            snprintf(f->name, sizeof(f->name), "%s", ptxsim_module_kernel_name(p->mod, i));
            memset(&err, 0, sizeof(err));
            if (p->ptx)
                rt_hpdp_gpu_counts(p->ptx, f->name, f->gpu, &err);
            f->next = p->hpdp;
            p->hpdp = f;
        }
        if (p->kind == OCL_PROG_SOURCE && p->source)
            cpu_counts(p);
    }
    for (f = p->hpdp; f; f = f->next)
        if (!strcmp(f->name, k->info.name))
            return f;
    return NULL;
}

/* Distinct buffers bound to the kernel's arguments, in bytes. */
static double buffer_bytes(cl_kernel k)
{
    double sum = 0;

    for (uint32_t i = 0; i < k->info.nparams; i++) {
        cl_mem m = k->args[i].mem;
        bool seen = false;
        if (!m || k->args[i].local || !ocl_valid(m, OCL_MAGIC_MEM))
            continue;
        for (uint32_t j = 0; j < i && !seen; j++)
            seen = k->args[j].mem == m && !k->args[j].local;
        if (!seen)
            sum += (double)m->size;
    }
    return sum;
}

static void predict(const struct hpdp_cfg *c, struct ocl_hpdp_launch *hl)
{
    const struct rt_hpdp_models *m = &c->models;
    double f[HPDP_MAX_FACTORS];
    uint32_t n;

    n = rt_hpdp_cpu_factors(hl->cpu, &hl->dyn, NULL, f);
    hl->ta[HPDP_CPU] =
        m->have[RT_HPDP_CPU_ALONE] && n ? hpdp_predict(&m->m[RT_HPDP_CPU_ALONE], f) : INFINITY;
    n = rt_hpdp_gpu_factors(hl->gpu, &hl->dyn, NULL, f);
    hl->ta[HPDP_GPU] =
        (m->have[RT_HPDP_GPU_ALONE] ? hpdp_predict(&m->m[RT_HPDP_GPU_ALONE], f) : INFINITY) +
        rt_hpdp_xfer_s(hl->dyn.transfer_bytes, c->pcie_gbs, c->host_gbs, 0);
    hl->tc[HPDP_CPU] = hl->ta[HPDP_CPU];
    hl->tc[HPDP_GPU] = hl->ta[HPDP_GPU];
    if (hl->nco) {
        n = rt_hpdp_cpu_factors(hl->cpu, &hl->dyn, &hl->sys, f);
        if (m->have[RT_HPDP_CPU_COLOC])
            hl->tc[HPDP_CPU] = hpdp_predict(&m->m[RT_HPDP_CPU_COLOC], f);
        n = rt_hpdp_gpu_factors(hl->gpu, &hl->dyn, &hl->sys, f);
        hl->tc[HPDP_GPU] =
            (m->have[RT_HPDP_GPU_COLOC] ? hpdp_predict(&m->m[RT_HPDP_GPU_COLOC], f)
                                        : hl->ta[HPDP_GPU]) +
            rt_hpdp_xfer_s(hl->dyn.transfer_bytes, c->pcie_gbs, c->host_gbs, hl->sys.dram_gbs);
    }
    (void)n;
    hl->predicted = true;
}

/*
 * Co-located: each co-runner's Bubble-up slowdown (its class's curves) under
 * the pressure the kernel exerts on each device.
 */
static enum hpdp_dev choose_fair(const struct hpdp_cfg *c, const struct rt_hpdp_telemetry *t,
                                 struct ocl_hpdp_launch *hl)
{
    struct hpdp_coloc in = {.nco = t->n, .w_ocl = c->w_ocl, .ref_best = c->ref_best};

    for (int d = 0; d < 2; d++) {
        in.t_alone[d] = hl->ta[d];
        in.t_coloc[d] = hl->tc[d];
    }
    rt_hpdp_corunner_slowdowns(&c->models, &hl->dyn, hl->tc[HPDP_GPU], &c->press, t->n,
                               (const char(*)[16])hl->co_cls, hl->sd_co);
    for (uint32_t i = 0; i < t->n && i < HPDP_MAX_CORUNNERS; i++) {
        in.sd_co[HPDP_CPU][i] = hl->sd_co[HPDP_CPU][i];
        in.sd_co[HPDP_GPU][i] = hl->sd_co[HPDP_GPU][i];
        in.w_co[i] = t->co[i].weight;
    }
    return hpdp_choose_coloc(&in, hl->fair);
}

cl_device_id ocl_hpdp_target(cl_command_queue q, cl_kernel k, cl_uint dim, const size_t *global,
                             struct ocl_hpdp_launch *hl)
{
    struct hpdp_cfg *c = &g_cfg;
    const struct ocl_hpdp_feat *f;
    struct rt_hpdp_telemetry tel;
    struct ps_err err;
    uint64_t copied;
    enum hpdp_dev pick;

    pthread_once(&g_once, cfg_init);
    memset(hl, 0, sizeof(*hl));
    if (c->goal == GOAL_OFF && !c->log)
        return q->dev;
    hl->active = true;
    hl->dyn.threads = 1;
    for (cl_uint d = 0; d < dim; d++)
        hl->dyn.threads *= (double)global[d];
    hl->dyn.buffer_bytes = buffer_bytes(k);
    copied = ocl_stats_copied() + __atomic_load_n(&g_host_copied, __ATOMIC_SEQ_CST);
    /* contexts on other threads launch too: the mark moves atomically */
    hl->dyn.transfer_bytes =
        (double)(copied - __atomic_exchange_n(&c->copied_mark, copied, __ATOMIC_SEQ_CST));
    if ((f = features(k))) {
        memcpy(hl->gpu, f->gpu, sizeof(hl->gpu));
        memcpy(hl->cpu, f->cpu, sizeof(hl->cpu));
        hl->have_cpu = f->have_cpu;
    }
    memset(&tel, 0, sizeof(tel));
    if (c->corunners && rt_hpdp_telemetry_read(c->corunners, &tel, &err) == 0) {
        hl->sys = tel.sum;
        hl->nco = tel.n;
        for (uint32_t i = 0; i < tel.n; i++)
            snprintf(hl->co_cls[i], sizeof(hl->co_cls[i]), "%s", tel.co[i].cls);
    }
    if (c->goal == GOAL_CPU || c->goal == GOAL_GPU) /* the always-CPU / always-GPU baselines */
        return c->goal == GOAL_CPU && ocl_cpu_device() ? ocl_cpu_device() : ocl_device();
    if (c->goal == GOAL_OFF || !c->models_ok || !hl->have_cpu || !ocl_cpu_device())
        return q->dev; /* nothing to decide with: the program's choice stands */
    predict(c, hl);
    if (c->goal == GOAL_FAIR && hl->nco)
        pick = choose_fair(c, &tel, hl);
    else
        pick = hpdp_choose_alone(hl->ta[HPDP_CPU], hl->ta[HPDP_GPU]);
    return pick == HPDP_CPU ? ocl_cpu_device() : ocl_device();
}

static void log_vec(FILE *f, const char *key, const double *v, int n)
{
    fprintf(f, " %s=", key);
    for (int i = 0; i < n; i++)
        fprintf(f, "%s%.17g", i ? "," : "", v[i]);
}

void ocl_hpdp_done(cl_kernel k, const struct ocl_hpdp_launch *hl, cl_device_id ran,
                   double kernel_ns, cl_int rc)
{
    struct hpdp_cfg *c = &g_cfg;
    bool gpu = ran == ocl_device();
    double xfer =
        gpu ? rt_hpdp_xfer_s(hl->dyn.transfer_bytes, c->pcie_gbs, c->host_gbs, hl->sys.dram_gbs)
            : 0.0;

    if (!hl->active || !c->log)
        return;
    pthread_mutex_lock(&c->log_lock);
    fprintf(c->log, "launch seq=%llu app=%s kernel=%s dev=%s rc=%d T=%.17g Buf=%.17g Xfer=%.17g",
            (unsigned long long)c->seq++, c->app && *c->app ? c->app : "-", k->info.name,
            gpu ? "gpu" : "cpu", rc, hl->dyn.threads, hl->dyn.buffer_bytes, hl->dyn.transfer_bytes);
    log_vec(c->log, "g", hl->gpu, RT_HPDP_G_N);
    log_vec(c->log, "c", hl->cpu, RT_HPDP_C_N);
    fprintf(c->log,
            " havec=%d nco=%u llc=%.17g dram=%.17g kernel_s=%.17g xfer_s=%.17g time_s=%.17g",
            hl->have_cpu, hl->nco, hl->sys.llc_mps, hl->sys.dram_gbs, kernel_ns * 1e-9, xfer,
            kernel_ns * 1e-9 + xfer);
    for (uint32_t i = 0; i < hl->nco && i < HPDP_MAX_CORUNNERS; i++) /* pid order */
        fprintf(c->log, "%s%s", i ? "," : " co=", hl->co_cls[i]);
    if (hl->predicted)
        fprintf(c->log,
                " ta_cpu=%.17g ta_gpu=%.17g tc_cpu=%.17g tc_gpu=%.17g f_cpu=%.17g "
                "f_gpu=%.17g",
                hl->ta[0], hl->ta[1], hl->tc[0], hl->tc[1], hl->fair[0], hl->fair[1]);
    if (hl->predicted && hl->nco && hl->sd_co[HPDP_CPU][0] > 0) { /* fair goal: the co-runners' */
        log_vec(c->log, "sd_cpu", hl->sd_co[HPDP_CPU], (int)hl->nco);
        log_vec(c->log, "sd_gpu", hl->sd_co[HPDP_GPU], (int)hl->nco);
    }
    fputc('\n', c->log);
    fflush(c->log);
    pthread_mutex_unlock(&c->log_lock);
}
