// Inline PTX assembly with a variety of less common instructions.
#include <cuda_runtime.h>
#include <stdint.h>

__device__ __forceinline__ unsigned prmt(unsigned a, unsigned b, unsigned sel)
{
    unsigned r;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(sel));
    return r;
}

__device__ __forceinline__ unsigned bfe_u32(unsigned v, unsigned pos, unsigned len)
{
    unsigned r;
    asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(v), "r"(pos), "r"(len));
    return r;
}

__device__ __forceinline__ int bfe_s32(int v, unsigned pos, unsigned len)
{
    int r;
    asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(v), "r"(pos), "r"(len));
    return r;
}

__device__ __forceinline__ unsigned bfi(unsigned ins, unsigned base, unsigned pos, unsigned len)
{
    unsigned r;
    asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(ins), "r"(base), "r"(pos), "r"(len));
    return r;
}

__device__ __forceinline__ unsigned lop3_maj(unsigned a, unsigned b, unsigned c)
{
    unsigned r;
    asm("lop3.b32 %0, %1, %2, %3, 0xE8;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}

__global__ void asm_bits(const unsigned *in, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned a = in[i], b = in[(i + 1) % n], c = in[(i + 2) % n];
    unsigned r = prmt(a, b, 0x3210) ^ prmt(a, b, 0x7654);
    r += bfe_u32(a, 4, 8) + (unsigned)bfe_s32((int)b, 3, 5);
    r ^= bfi(a, b, 8, 8);
    r += lop3_maj(a, b, c);
    unsigned sl, sr;
    asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(sl) : "r"(a), "r"(b), "r"(c & 31));
    asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(sr) : "r"(a), "r"(b), "r"(c));
    r += sl ^ sr;
    unsigned fnd, fnds;
    asm("bfind.u32 %0, %1;" : "=r"(fnd) : "r"(a));
    asm("bfind.shiftamt.s32 %0, %1;" : "=r"(fnds) : "r"((int)b));
    r += fnd + fnds;
    int m24, s;
    asm("mad24.lo.s32 %0, %1, %2, %3;" : "=r"(m24) : "r"((int)(a & 0xffffff)), "r"((int)(b & 0xffffff)), "r"((int)c));
    asm("sad.u32 %0, %1, %2, %3;" : "=r"(s) : "r"(a), "r"(b), "r"(c));
    r += (unsigned)m24 + (unsigned)s;
    unsigned p, cz, rev;
    asm("popc.b32 %0, %1;" : "=r"(p) : "r"(a));
    asm("clz.b32 %0, %1;" : "=r"(cz) : "r"(b));
    asm("brev.b32 %0, %1;" : "=r"(rev) : "r"(c));
    r += p + cz + rev;
    unsigned long long wide;
    asm("mul.wide.u32 %0, %1, %2;" : "=l"(wide) : "r"(a), "r"(b));
    unsigned lo, hi;
    asm("mov.b64 {%0, %1}, %2;" : "=r"(lo), "=r"(hi) : "l"(wide));
    r += lo ^ hi;
    unsigned carry_sum;
    asm("{\n\t"
        ".reg .u32 t;\n\t"
        "add.cc.u32 t, %1, %2;\n\t"
        "addc.u32 %0, t, 0;\n\t"
        "}"
        : "=r"(carry_sum) : "r"(a), "r"(b));
    r += carry_sum;
    out[i] = r;
}

__global__ void asm_float(const float *in, float *out, unsigned *flags, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = in[i], y = in[(i + 1) % n];
    float cs, mn, ab, ex, rc;
    asm("copysign.f32 %0, %1, %2;" : "=f"(cs) : "f"(y), "f"(x));
    asm("min.ftz.f32 %0, %1, %2;" : "=f"(mn) : "f"(x), "f"(y));
    asm("abs.ftz.f32 %0, %1;" : "=f"(ab) : "f"(x));
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(ex) : "f"(y));
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(rc) : "f"(x));
    unsigned isnan_f, isinf_f, isfin, isnorm, issub;
    asm("{\n\t.reg .pred p;\n\t"
        "testp.notanumber.f32 p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(isnan_f) : "f"(x));
    asm("{\n\t.reg .pred p;\n\t"
        "testp.infinite.f32 p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(isinf_f) : "f"(x));
    asm("{\n\t.reg .pred p;\n\t"
        "testp.finite.f32 p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(isfin) : "f"(y));
    asm("{\n\t.reg .pred p;\n\t"
        "testp.normal.f32 p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(isnorm) : "f"(y));
    asm("{\n\t.reg .pred p;\n\t"
        "testp.subnormal.f32 p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(issub) : "f"(x));
    double dx = (double)x, dc;
    asm("copysign.f64 %0, %1, %2;" : "=d"(dc) : "d"(dx), "d"((double)y));
    float sat;
    asm("add.rz.sat.f32 %0, %1, %2;" : "=f"(sat) : "f"(x), "f"(y));
    unsigned setv;
    asm("set.gt.u32.f32 %0, %1, %2;" : "=r"(setv) : "f"(x), "f"(y));
    float slct;
    asm("slct.f32.s32 %0, %1, %2, %3;" : "=f"(slct) : "f"(x), "f"(y), "r"((int)i - 5));
    out[i] = cs + mn + ab + ex + rc + (float)dc + sat + slct;
    flags[i] = isnan_f | (isinf_f << 1) | (isfin << 2) | (isnorm << 3) | (issub << 4) | (setv & 32);
}

__global__ void asm_vote_pred(const int *in, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    unsigned uni, ballot, anyp;
    asm volatile("{\n\t.reg .pred p, q;\n\t"
                 "setp.ne.s32 p, %1, 0;\n\t"
                 "vote.sync.uni.pred q, p, 0xffffffff;\n\t"
                 "selp.u32 %0, 1, 0, q;\n\t}"
                 : "=r"(uni) : "r"(v));
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "setp.gt.s32 p, %1, 0;\n\t"
                 "vote.sync.ballot.b32 %0, p, 0xffffffff;\n\t}"
                 : "=r"(ballot) : "r"(v));
    asm volatile("{\n\t.reg .pred p, q;\n\t"
                 "setp.lt.s32 p, %1, 0;\n\t"
                 "vote.sync.any.pred q, p, 0xffffffff;\n\t"
                 "@q mov.u32 %0, 1;\n\t"
                 "@!q mov.u32 %0, 0;\n\t}"
                 : "=r"(anyp) : "r"(v));
    unsigned ge, le, gt, eq;
    asm("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
    asm("mov.u32 %0, %%lanemask_le;" : "=r"(le));
    asm("mov.u32 %0, %%lanemask_gt;" : "=r"(gt));
    asm("mov.u32 %0, %%lanemask_eq;" : "=r"(eq));
    unsigned nsm, nwarp, ctaid_x, nctaid_y, tid_z;
    asm("mov.u32 %0, %%nsmid;" : "=r"(nsm));
    asm("mov.u32 %0, %%nwarpid;" : "=r"(nwarp));
    asm("mov.u32 %0, %%ctaid.x;" : "=r"(ctaid_x));
    asm("mov.u32 %0, %%nctaid.y;" : "=r"(nctaid_y));
    asm("mov.u32 %0, %%tid.z;" : "=r"(tid_z));
    unsigned long long gtime;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(gtime));
    unsigned pm0;
    asm volatile("mov.u32 %0, %%pm0;" : "=r"(pm0));
    unsigned dyn_smem;
    asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dyn_smem));
    if (i < n)
        out[i] = uni + ballot + anyp + (ge ^ le ^ gt ^ eq) + nsm + nwarp + ctaid_x + nctaid_y + tid_z + (unsigned)gtime + pm0 + dyn_smem;
}

__global__ void asm_memory(int *g, float *f)
{
    __shared__ int sh[32];
    int v;
    asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v) : "l"(g));
    asm volatile("st.shared.u32 [%0], %1;" :: "r"((unsigned)__cvta_generic_to_shared(&sh[threadIdx.x & 31])), "r"(v));
    asm volatile("bar.sync 0;");
    asm volatile("membar.cta;");
    asm volatile("fence.acq_rel.gpu;");
    int w;
    asm volatile("ld.shared.u32 %0, [%1];" : "=r"(w) : "r"((unsigned)__cvta_generic_to_shared(&sh[(threadIdx.x + 1) & 31])));
    asm volatile("red.global.add.u32 [%0], %1;" :: "l"(g + 1), "r"(w));
    int old;
    asm volatile("atom.global.exch.b32 %0, [%1], %2;" : "=r"(old) : "l"(g + 2), "r"(w));
    asm volatile("prefetch.global.L2 [%0];" :: "l"(g + 64));
    float4 q;
    asm volatile("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(q.x), "=f"(q.y), "=f"(q.z), "=f"(q.w) : "l"(f));
    asm volatile("st.global.wb.v4.f32 [%0], {%1, %2, %3, %4};" :: "l"(f + 4), "f"(q.w), "f"(q.z), "f"(q.y), "f"(q.x + (float)old));
    asm volatile("pmevent 1;");
    asm volatile("nanosleep.u32 20;");
}

// Indirect branch through a branch-target table (brx.idx), scoped labels.
__global__ void asm_brx(const unsigned *sel, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int r;
    asm volatile("{\n\t"
                 ".reg .u32 idx;\n\t"
                 "rem.u32 idx, %1, 3;\n\t"
                 "Ltab: .branchtargets Lcase0, Lcase1, Lcase2;\n\t"
                 "brx.idx idx, Ltab;\n"
                 "Lcase0:\n\t"
                 "mov.s32 %0, 100;\n\t"
                 "bra.uni Ldone;\n"
                 "Lcase1:\n\t"
                 "mov.s32 %0, 200;\n\t"
                 "bra.uni Ldone;\n"
                 "Lcase2:\n\t"
                 "mov.s32 %0, -300;\n"
                 "Ldone:\n\t"
                 "}"
                 : "=r"(r) : "r"(sel[i]));
    out[i] = r;
}
