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

static void count_instr(LLVMValueRef in, double weight, double out[CLC_F_N])
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
    vec =
        op == LLVMStore ? is_vector(LLVMTypeOf(LLVMGetOperand(in, 0))) : is_vector(LLVMTypeOf(in));
    if (op == LLVMLoad || op == LLVMStore)
        out[vec ? CLC_F_VMEM : CLC_F_SMEM] += weight;
    else
        out[vec ? CLC_F_VALU : CLC_F_SALU] += weight;
}

/* A back edge's trip count: the constant its exit compare tests against, else CLC_LOOP_GUESS. */
static double trip_count(LLVMValueRef br)
{
    LLVMValueRef cond;

    if (!LLVMIsConditional(br) || !(cond = LLVMGetCondition(br)) || !LLVMIsAICmpInst(cond))
        return CLC_LOOP_GUESS;
    for (int i = 0; i < 2; i++) {
        LLVMValueRef op = LLVMGetOperand(cond, (unsigned)i);
        if (LLVMIsAConstantInt(op)) {
            long long c = LLVMConstIntGetSExtValue(op);
            c = c < 0 ? -c : c;
            return c < 1 ? 1 : c > CLC_LOOP_MAX ? CLC_LOOP_MAX : (double)c;
        }
    }
    return CLC_LOOP_GUESS;
}

/* Counts fn's instructions, each block weighted by the trip counts of the loops around it. */
static int count_function(LLVMValueRef fn, double out[CLC_F_N])
{
    unsigned nb = LLVMCountBasicBlocks(fn), b = 0;
    LLVMBasicBlockRef *bbs = calloc(nb + 1, sizeof(*bbs));
    double *w = calloc(nb + 1, sizeof(double));

    if (!bbs || !w) {
        free(bbs);
        free(w);
        return PS_ENOMEM;
    }
    LLVMGetBasicBlocks(fn, bbs);
    for (b = 0; b < nb; b++)
        w[b] = 1;
    for (b = 0; b < nb; b++) { /* a branch to a block at or before its own: a loop [s, b] */
        LLVMValueRef t = LLVMGetBasicBlockTerminator(bbs[b]);
        unsigned ns = t && LLVMGetInstructionOpcode(t) == LLVMBr ? LLVMGetNumSuccessors(t) : 0;
        for (unsigned k = 0; k < ns; k++) {
            LLVMBasicBlockRef succ = LLVMGetSuccessor(t, k);
            for (unsigned s = 0; s <= b; s++)
                if (bbs[s] == succ)
                    for (unsigned x = s; x <= b; x++)
                        w[x] *= trip_count(t);
        }
    }
    for (b = 0; b < nb; b++)
        for (LLVMValueRef in = LLVMGetFirstInstruction(bbs[b]); in; in = LLVMGetNextInstruction(in))
            count_instr(in, w[b], out);
    free(bbs);
    free(w);
    return 0;
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
