/* CMP-taxonomy instruction counts from LLVM IR (clc_features.h). */
#include "frontend/clc_features.h"

#include <stdlib.h>
#include <string.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>

#include "common/err.h"
#include "frontend/clc.h"

#define CLC_LOOP_GUESS 16.0 /* trip count of a loop whose bound is not a constant */
#define CLC_LOOP_MAX 4096.0
#define CLC_CALL_COST 20.0 /* ALU instructions a transcendental built-in counts as */

static bool is_vector(LLVMTypeRef t)
{
    LLVMTypeKind k = LLVMGetTypeKind(t);

    return k == LLVMVectorTypeKind || k == LLVMScalableVectorTypeKind;
}

static bool skipped(LLVMValueRef in, LLVMOpcode op)
{
    if (op == LLVMPHI || op == LLVMAlloca || op == LLVMRet || op == LLVMUnreachable)
        return true;
    if (op == LLVMCall) {
        LLVMValueRef callee = LLVMGetCalledValue(in);
        size_t n = 0;
        const char *name = callee ? LLVMGetValueName2(callee, &n) : "";
        return !strncmp(name, "llvm.dbg.", 9) || !strncmp(name, "llvm.lifetime.", 14);
    }
    return false;
}

static bool is_atomic_call(LLVMValueRef in)
{
    LLVMValueRef callee = LLVMGetCalledValue(in);
    size_t n = 0;
    const char *name = callee ? LLVMGetValueName2(callee, &n) : "";

    return strstr(name, "atom") != NULL;
}

/*
 * A call to a transcendental OpenCL built-in (sin, exp, log, pow, erf, ...;
 * a declaration here, since libclc is not linked yet) counts as
 * CLC_CALL_COST ALU instructions: it is a routine of that order on a CPU.
 */
static bool is_costly_call(LLVMValueRef in)
{
    static const char *const names[] = {"sin", "cos", "tan",  "exp",   "log",
                                        "pow", "erf", "cbrt", "hypot", "gamma"};
    LLVMValueRef callee = LLVMGetCalledValue(in);
    size_t n = 0;
    const char *name = callee ? LLVMGetValueName2(callee, &n) : "";

    if (!callee || !LLVMIsAFunction(callee) || !LLVMIsDeclaration(callee) ||
        !strncmp(name, "llvm.", 5))
        return false;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (strstr(name, names[i]))
            return true;
    return false;
}

static void count_instr(LLVMValueRef in, double weight, bool in_loop, double out[CLC_F_N])
{
    LLVMOpcode op = LLVMGetInstructionOpcode(in);
    bool vec;

    if (skipped(in, op))
        return;
    if (op == LLVMAtomicRMW || op == LLVMAtomicCmpXchg || op == LLVMFence ||
        (op == LLVMCall && is_atomic_call(in))) {
        out[CLC_F_ATOMIC] += weight;
        return;
    }
    if (op == LLVMBr || op == LLVMSwitch || op == LLVMIndirectBr) {
        out[CLC_F_BRANCH] += weight;
        return;
    }
    /* vector: an OpenCL vector type, or straight-line code the CPU device vectorises
     * across work-items; scalar: code inside the kernel's own loops */
    vec = !in_loop || (op == LLVMStore ? is_vector(LLVMTypeOf(LLVMGetOperand(in, 0)))
                                       : is_vector(LLVMTypeOf(in)));
    if (op == LLVMLoad || op == LLVMStore)
        out[vec ? CLC_F_VMEM : CLC_F_SMEM] += weight;
    else
        out[vec ? CLC_F_VALU : CLC_F_SALU] +=
            op == LLVMCall && is_costly_call(in) ? weight * CLC_CALL_COST : weight;
}

static double clamp_trip(double c)
{
    c = c < 0 ? -c : c;
    return c < 1 ? 1 : c > CLC_LOOP_MAX ? CLC_LOOP_MAX : c;
}

/*
 * A back edge's trip count, from its exit compare `icmp v, C`: when v is
 * `add iv, step` of a phi iv with a constant start, |C - start| / |step|
 * (the unrolled loop's own trips); else C; else CLC_LOOP_GUESS.
 */
static double trip_count(LLVMValueRef br)
{
    LLVMValueRef cond, v, c, iv, step, start = NULL;

    if (LLVMGetInstructionOpcode(br) != LLVMBr || !LLVMIsConditional(br) ||
        !(cond = LLVMGetCondition(br)) || !LLVMIsAICmpInst(cond))
        return CLC_LOOP_GUESS;
    v = LLVMGetOperand(cond, 0);
    c = LLVMGetOperand(cond, 1);
    if (LLVMIsAConstantInt(v)) {
        LLVMValueRef t = v;
        v = c;
        c = t;
    }
    if (!LLVMIsAConstantInt(c))
        return CLC_LOOP_GUESS;
    if (!LLVMIsAInstruction(v) || LLVMGetInstructionOpcode(v) != LLVMAdd ||
        !LLVMIsAConstantInt(step = LLVMGetOperand(v, 1)) ||
        !LLVMIsAPHINode(iv = LLVMGetOperand(v, 0)))
        return clamp_trip((double)LLVMConstIntGetSExtValue(c));
    for (unsigned k = 0; k < LLVMCountIncoming(iv); k++)
        if (LLVMIsAConstantInt(LLVMGetIncomingValue(iv, k)))
            start = LLVMGetIncomingValue(iv, k);
    return clamp_trip(
        ((double)LLVMConstIntGetSExtValue(c) -
         (start ? (double)LLVMConstIntGetSExtValue(start) : 0.0)) /
        (double)(LLVMConstIntGetSExtValue(step) ? LLVMConstIntGetSExtValue(step) : 1));
}

/* The CFG of one function: blocks in layout order, successor edges, dominator sets. */
struct cfg {
    unsigned nb;
    LLVMBasicBlockRef *bbs;
    unsigned char *dom; /* dom[b * nb + d]: d dominates b */
    unsigned char *adj; /* adj[from * nb + to]: an edge */
    double *w;          /* block weights */
};

static unsigned block_index(const struct cfg *g, LLVMBasicBlockRef bb)
{
    for (unsigned i = 0; i < g->nb; i++)
        if (g->bbs[i] == bb)
            return i;
    return g->nb;
}

static bool has_edge(const struct cfg *g, unsigned from, unsigned to)
{
    return g->adj[from * g->nb + to];
}

static void edges(struct cfg *g)
{
    for (unsigned b = 0; b < g->nb; b++) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(g->bbs[b]);
        unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
        for (unsigned k = 0; k < ns; k++) {
            unsigned s = block_index(g, LLVMGetSuccessor(t, k));
            if (s < g->nb)
                g->adj[b * g->nb + s] = 1;
        }
    }
}

/* Iterative dominators: dom(entry) = {entry}, dom(b) = {b} + the meet of its predecessors'. */
static void dominators(struct cfg *g)
{
    unsigned nb = g->nb;
    bool changed = true;

    memset(g->dom, 1, (size_t)nb * nb);
    memset(g->dom, 0, nb);
    g->dom[0] = 1;
    while (changed) {
        changed = false;
        for (unsigned b = 1; b < nb; b++)
            for (unsigned d = 0; d < nb; d++) {
                unsigned char v = d == b;
                if (!v) {
                    bool any = false, all = true;
                    for (unsigned p = 0; p < nb; p++)
                        if (has_edge(g, p, b)) {
                            any = true;
                            all = all && g->dom[p * nb + d];
                        }
                    v = any && all;
                }
                if (g->dom[b * nb + d] != v) {
                    g->dom[b * nb + d] = v;
                    changed = true;
                }
            }
    }
}

/* The natural loop of back edge b -> h: h, and every block reaching b without passing h. */
static void weigh_loop(struct cfg *g, unsigned b, unsigned h, double trip)
{
    unsigned char *in = calloc(g->nb, 1);
    unsigned *stack = calloc(g->nb + 1, sizeof(unsigned)), top = 0;

    if (!in || !stack) {
        free(in);
        free(stack);
        return;
    }
    in[h] = 1;
    if (!in[b]) {
        in[b] = 1;
        stack[top++] = b;
    }
    while (top) {
        unsigned x = stack[--top];
        for (unsigned p = 0; p < g->nb; p++)
            if (!in[p] && has_edge(g, p, x)) {
                in[p] = 1;
                stack[top++] = p;
            }
    }
    for (unsigned x = 0; x < g->nb; x++)
        if (in[x])
            g->w[x] *= trip;
    free(in);
    free(stack);
}

/* Counts fn's instructions, each block weighted by the trip counts of the loops around it. */
static int count_function(LLVMValueRef fn, double out[CLC_F_N])
{
    struct cfg g = {.nb = LLVMCountBasicBlocks(fn)};

    g.bbs = calloc(g.nb + 1, sizeof(*g.bbs));
    g.w = calloc(g.nb + 1, sizeof(double));
    g.dom = calloc((size_t)g.nb * g.nb + 1, 1);
    g.adj = calloc((size_t)g.nb * g.nb + 1, 1);
    if (g.bbs && g.w && g.dom && g.adj) {
        LLVMGetBasicBlocks(fn, g.bbs);
        for (unsigned b = 0; b < g.nb; b++)
            g.w[b] = 1;
        edges(&g);
        dominators(&g);
        for (unsigned b = 0; b < g.nb; b++) { /* back edges: to a block that dominates b */
            LLVMValueRef t = LLVMGetBasicBlockTerminator(g.bbs[b]);
            unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
            for (unsigned k = 0; k < ns; k++) {
                unsigned h = block_index(&g, LLVMGetSuccessor(t, k));
                if (h < g.nb && g.dom[b * g.nb + h])
                    weigh_loop(&g, b, h, trip_count(t));
            }
        }
        for (unsigned b = 0; b < g.nb; b++)
            for (LLVMValueRef in = LLVMGetFirstInstruction(g.bbs[b]); in;
                 in = LLVMGetNextInstruction(in))
                count_instr(in, g.w[b], g.w[b] > 1, out);
    }
    free(g.bbs);
    free(g.w);
    free(g.dom);
    free(g.adj);
    return g.bbs && g.w && g.dom && g.adj ? 0 : PS_ENOMEM;
}

static int count_module(const void *bc, size_t len, const char *const *kernels, size_t nk,
                        double (*out)[CLC_F_N], struct ps_err *err)
{
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(bc, len, "heteropdp");
    LLVMModuleRef m = NULL;
    LLVMValueRef fn;
    int rc = 0;

    if (LLVMParseBitcodeInContext2(ctx, buf, &m)) {
        rc = ps_err_set(err, PS_EPARSE, "cannot read the kernel's bitcode");
    } else {
        for (size_t k = 0; !rc && k < nk; k++) {
            if (!(fn = LLVMGetNamedFunction(m, kernels[k])) || LLVMIsDeclaration(fn)) {
                rc = ps_err_set(err, PS_ENOTFOUND, "no kernel %s in the program", kernels[k]);
                break;
            }
            rc = count_function(fn, out[k]);
        }
    }
    if (m)
        LLVMDisposeModule(m);
    LLVMDisposeMemoryBuffer(buf);
    LLVMContextDispose(ctx);
    return rc;
}

int clc_kernel_features(const char *src, size_t len, const char *options,
                        const char *const *kernels, size_t n, double (*out)[CLC_F_N],
                        struct ps_err *err)
{
    void *bc = NULL;
    size_t bc_len = 0;
    char *log = NULL;
    int rc;

    memset(out, 0, sizeof(double) * CLC_F_N * n);
    rc = clc_compile_object(src, len, options, NULL, 0, &bc, &bc_len, &log, err);
    free(log);
    if (!rc)
        rc = count_module(bc, bc_len, kernels, n, out, err);
    free(bc);
    return rc;
}
