/*
 * Running kernels to their end: waiting for one kernel (or any) while the
 * clocked loop (gpu.c) steps the machine, a fault ending every kernel in
 * flight, and tm_gpu_launch (submit and wait). This is the top of the timing
 * model's kernel handling: it calls the kernel table (kernels.c) and the loop,
 * which call neither it nor each other in a circle.
 */
#include "timing/gpu_impl.h"

void tm_kernels_abort(struct tm_gpu *g, int rc)
{
    const struct ps_err *cause = NULL;

    for (uint32_t i = 0; i < g->nslots; i++)
        if (g->slot[i] && g->slot[i]->err.code && !cause)
            cause = &g->slot[i]->err;
    for (uint32_t i = 0; i < g->nslots; i++) {
        struct tm_kernel *k = g->slot[i];

        if (!k)
            continue;
        if (!k->err.code && cause)
            k->err = *cause; /* a fault ends every kernel in flight, as on a GPU */
        else if (!k->err.code)
            ps_err_set(&k->err, rc, "stopped: another kernel in flight faulted");
        tm_kernels_retire(g, k, rc);
    }
    tm_gpu_rebuild_after_fault(g);
}

int tm_gpu_wait(struct tm_gpu *g, struct tm_kernel *k)
{
    int rc;

    if (k && k->done)
        return k->rc;
    if (!tm_gpu_in_flight(g))
        return 0;
    rc = tm_gpu_run_loop(g, k);
    if (rc)
        tm_kernels_abort(g, rc);
    return k ? k->rc : rc;
}

int tm_gpu_launch(struct tm_gpu *g, struct isa_program *p, const struct isa_launch_desc *ld,
                  struct ps_err *err)
{
    struct tm_kernel *k;
    int rc;

    while (!tm_gpu_free_slots(g))
        tm_gpu_wait(g, NULL);
    if ((rc = tm_gpu_submit(g, p, ld, &k, err)))
        return rc;
    rc = tm_gpu_wait(g, k);
    tm_kernel_result(k, err);
    g->last = k->stats;
    tm_kernel_free(k);
    return rc;
}
