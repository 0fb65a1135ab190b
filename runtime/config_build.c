/*
 * Finding, loading and checking machine descriptions for the runtimes and
 * the `ptxsim` command: an existing file is taken as it is (a path, or a
 * file in the working directory); otherwise a name ("gtx480") is looked up
 * in $PTXSIM_CONFIG_DIR, then in the installed data directory, then in the
 * source tree's configs/ (so an uninstalled build works). A built
 * configuration has been through everything the timing model checks when
 * it starts, so a program never starts with a machine that cannot run.
 */
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "runtime/config_where.h"
#include "runtime/ptxsim.h"
#include "timing/gpu.h"

/* GPGPU-Sim reads this file from the working directory when it is there. */
#define GPGPUSIM_CONFIG "gpgpusim.config"

#ifndef PTXSIM_PKGDATADIR
#define PTXSIM_PKGDATADIR "/usr/local/share/ptxsim"
#endif
#ifndef PTXSIM_SRCDIR
#define PTXSIM_SRCDIR "."
#endif

static int is_file(const char *p)
{
    struct stat st;

    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

int ptxsim_config_find(const char *config, char *buf, size_t len, struct ps_err *err)
{
    const char *dirs[3] = {getenv("PTXSIM_CONFIG_DIR"), PTXSIM_PKGDATADIR "/configs",
                           PTXSIM_SRCDIR "/configs"};

    if (strchr(config, '/') || is_file(config)) {
        if (!is_file(config))
            return ps_err_set(err, PS_ENOTFOUND, "configuration file '%s' not found", config);
        snprintf(buf, len, "%s", config);
        return 0;
    }
    for (int i = 0; i < 3; i++) {
        if (!dirs[i] || !*dirs[i])
            continue;
        if (snprintf(buf, len, "%s/%s", dirs[i], config) < (int)len && is_file(buf))
            return 0;
    }
    return ps_err_set(
        err, PS_ENOTFOUND,
        "no machine configuration named '%s' (looked in $PTXSIM_CONFIG_DIR, %s/configs "
        "and %s/configs; shipped: gtx480, dyncta-30core, ccws-30core, bypass-gtx480)",
        config, PTXSIM_PKGDATADIR, PTXSIM_SRCDIR);
}

const char *ptxsim_config_default(void)
{
    return is_file(GPGPUSIM_CONFIG) ? GPGPUSIM_CONFIG : "gtx480";
}

/*
 * GPGPU-Sim switches that ptxsim accepts but does not model: each one set
 * to other than 0 asks for output or behaviour that will not happen.
 */
void ptxsim_config_warn(const struct ps_config *c, const char *who, FILE *out)
{
    const struct {
        const char *name;
        int64_t on;
    } sw[] = {
        {"power_simulation_enabled", c->power_simulation_enabled},
        {"power_per_cycle_dump", c->power_per_cycle_dump},
        {"power_trace_enabled", c->power_trace_enabled},
        {"steady_power_levels_enabled", c->steady_power_levels_enabled},
        {"gpgpu_clock_gated_reg_file", c->gpgpu_clock_gated_reg_file},
        {"gpgpu_clock_gated_lanes", c->gpgpu_clock_gated_lanes},
        {"visualizer_enabled", c->visualizer_enabled},
        {"trace_enabled", c->trace_enabled},
        {"gpgpu_cflog_interval", c->gpgpu_cflog_interval},
        {"gpgpu_ptx_instruction_classification", c->gpgpu_ptx_instruction_classification},
        {"gpgpu_ptx_convert_to_ptxplus", c->gpgpu_ptx_convert_to_ptxplus},
        {"gpgpu_ptx_save_converted_ptxplus", c->gpgpu_ptx_save_converted_ptxplus},
        {"save_embedded_ptx", c->save_embedded_ptx},
    };

    for (size_t i = 0; i < sizeof(sw) / sizeof(sw[0]); i++)
        if (sw[i].on)
            fprintf(out,
                    "%s: warning: -%s is %lld, but ptxsim does not model it; it changes "
                    "nothing (docs/config.md, \"Accepted but not modelled\")\n",
                    who, sw[i].name, (long long)sw[i].on);
}

void ptxsim_config_perror(const char *who, const struct ps_err *err, FILE *out)
{
    fprintf(out, "%s: ", who);
    ps_err_print(err, out);
}

int ptxsim_config_build(const char *config, const char *overrides, struct ps_config *out,
                        struct ps_err *err)
{
    char path[4096] = "";
    int rc;

    ps_config_init(out);
    if (config && *config) {
        if ((rc = ptxsim_config_find(config, path, sizeof(path), err)) ||
            (rc = ps_config_load_file(out, path, err)))
            goto fail;
    }
    for (const char *p = overrides; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        char *line = strndup(p, n);

        if (!line) {
            rc = ps_err_set(err, PS_ENOMEM, "out of memory");
            goto fail;
        }
        rc = n ? ps_config_override(out, line, err) : 0;
        free(line);
        if (rc)
            goto fail;
        p += n + (nl != NULL);
    }
    if ((rc = ps_config_check(out, err)) || (rc = tm_gpu_check(out, err))) {
        rt_config_place(err, rt_config_blame(err->msg), path, overrides);
        goto fail;
    }
    return 0;
fail:
    ps_config_free(out);
    return rc;
}
