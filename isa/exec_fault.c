/*
 * Device faults: isa_fault() records an error at the faulting instruction's PTX
 * line, with kernel, function, CTA, thread and source line (.loc). A leaf of the
 * interpreter: every exec*.c reports through it, and it calls none of them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "isa/exec_int.h"

/* ", source FILE:LINE" from the instruction's .loc (nvcc -lineinfo), or "" without one. */
static void source_of(const struct isa_module *m, const struct isa_instr *in, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!in || !in->loc_file || !in->loc_line)
        return;
    for (uint32_t i = 0; i < m->nfiles; i++)
        if (m->files[i].id == in->loc_file && m->files[i].name) {
            snprintf(buf, len, ", source %s:%u", m->files[i].name, in->loc_line);
            return;
        }
    snprintf(buf, len, ", source file %u line %u", in->loc_file, in->loc_line);
}

int isa_fault(struct isa_warp *w, uint32_t lane, int code, uint64_t addr, const char *fmt, ...)
{
    struct isa_launch *L = w->cta->L;
    struct ps_err *err = L->err;
    const struct isa_frame *fr = &w->fr[w->nfr - 1];
    const struct isa_func *f = L->p->m->funcs[fr->fidx];
    const struct isa_func *k = L->p->m->funcs[L->kernel];
    uint32_t pc = w->sp ? w->st[w->sp - 1].pc : 0;
    const struct isa_instr *in = pc < f->ninstrs ? &f->instrs[pc] : NULL;
    uint32_t tid[3];
    char msg[PS_ERR_MSG_MAX], src[PS_ERR_FILE_MAX + 32];
    va_list ap;

    if (!err)
        return code;
    x_thread_of(w, lane, tid);
    source_of(L->p->m, in, src, sizeof(src));
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    ps_err_set_at(err, code, L->p->m->source_name, in ? in->line : 0, in ? in->col : 0,
                  "%s in kernel '%s'%s%s, CTA (%u,%u,%u), thread (%u,%u,%u)%s", msg, k->name,
                  f != k ? ", function " : "", f != k ? f->name : "", w->cta->ctaid[0],
                  w->cta->ctaid[1], w->cta->ctaid[2], tid[0], tid[1], tid[2], src);
    err->has_fault = 1;
    snprintf(err->fault.kernel, sizeof(err->fault.kernel), "%s", k->name);
    err->fault.ptx_line = in ? in->line : 0;
    err->fault.src_file = in ? in->loc_file : 0;
    err->fault.src_line = in ? in->loc_line : 0;
    memcpy(err->fault.cta, w->cta->ctaid, sizeof(err->fault.cta));
    memcpy(err->fault.thread, tid, sizeof(err->fault.thread));
    err->fault.addr = addr;
    return code;
}
