/*
 * The up-front configuration check. Building the timing model is the only
 * complete check (policies parse their own arguments when they start), and
 * it takes milliseconds; the options that make the model write files are
 * cleared first so that a check leaves nothing behind.
 */
#include <stddef.h>
#include <string.h>

#include "common/config.h"
#include "common/err.h"
#include "runtime/ptxsim.h"
#include "timing/gpu.h"
#include "tools/config_check.h"

/* Options whose value names a file the timing model opens when it is built. */
static const char *const file_options[] = {"ptxsim_policy_trace", "ptxsim_l1d_trace",
                                           "ptxsim_warp_profile"};

int tool_config_check(const char *path, const char *overrides, struct ps_err *err)
{
    struct ps_config cfg;
    struct tm_gpu *gpu = NULL;
    int rc = ptxsim_config_build(path, overrides, &cfg, err);

    if (rc)
        return rc;
    for (size_t i = 0; !rc && i < sizeof(file_options) / sizeof(file_options[0]); i++)
        rc = ps_config_set(&cfg, file_options[i], "", err);
    if (!rc) {
        rc = tm_gpu_create(&cfg, NULL, &gpu, err);
        tm_gpu_destroy(gpu);
    }
    if (rc && gpu == NULL && err && err->code) {
        static const char prefix[] = "timing model: "; /* as ptxsim run says it */
        size_t n = strnlen(err->msg, sizeof(err->msg) - sizeof(prefix));

        memmove(err->msg + sizeof(prefix) - 1, err->msg, n);
        memcpy(err->msg, prefix, sizeof(prefix) - 1);
        err->msg[n + sizeof(prefix) - 1] = '\0';
    }
    ps_config_free(&cfg);
    return rc;
}
