#!/usr/bin/env python3
"""Write a large, synthetic but valid PTX module for parser-throughput benchmarks.

Usage: gen_large.py SIZE_MB OUTPUT_PATH [--seed N]

The module is a PTX 9.0 / sm_75 / 64-bit header followed by as many copies
("chunks") of a template as needed to reach SIZE_MB megabytes (10**6 bytes;
the file ends at the first chunk boundary at or past the target).  The template
is PTX that nvcc 13 produced (compute_75) from small CUDA kernels written for
this project: a grid-stride saxpy, a shared-memory + shuffle reduction, a 2D
stencil with predicated bounds checks, and a math kernel that calls a
non-inlined device function (loop, unrolled body, .pragma "nounroll").
Each chunk renames its kernels, device function, demoted shared array, labels
and data so that every symbol stays unique, and adds a few module-scope data
declarations with initialisers.  Only the Python standard library is used.
"""

import argparse
import random
import sys

HEADER = """//
// Synthetic PTX for parse-throughput benchmarks (tests/ptx/gen_large.py).
// Each chunk: 3 data declarations, 1 .func and 4 .entry kernels.
//

.version 9.0
.target sm_75
.address_size 64

"""

# Per-chunk module-scope data (exercises variable declarations/initialisers).
DATA = """.global .align 4 .b8 gtab_@ID@[32] = {@BYTES@};
.const .align 4 .f32 ccoef_@ID@[4] = {@FLOATS@};
.global .align 8 .u64 gcount_@ID@;
"""

TEMPLATE = """
.func  (.param .b32 func_retval0) mix_@ID@(
	.param .b32 mix_@ID@_param_0,
	.param .b32 mix_@ID@_param_1,
	.param .b32 mix_@ID@_param_2
)
{
	.reg .pred 	%p<6>;
	.reg .f32 	%f<26>;
	.reg .b32 	%r<11>;


	ld.param.f32 	%f25, [mix_@ID@_param_0];
	ld.param.f32 	%f9, [mix_@ID@_param_1];
	ld.param.u32 	%r7, [mix_@ID@_param_2];
	setp.lt.s32 	%p1, %r7, 1;
	@%p1 bra 	$L__BB@ID@_0_6;

	add.s32 	%r8, %r7, -1;
	and.b32  	%r10, %r7, 3;
	setp.lt.u32 	%p2, %r8, 3;
	@%p2 bra 	$L__BB@ID@_0_4;

	sub.s32 	%r9, %r7, %r10;

$L__BB@ID@_0_3:
	mov.f32 	%f11, 0f3F000000;
	fma.rn.f32 	%f12, %f25, %f9, %f11;
	mul.f32 	%f13, %f12, 0f3F400000;
	fma.rn.f32 	%f14, %f13, %f9, %f11;
	mul.f32 	%f15, %f14, 0f3F400000;
	fma.rn.f32 	%f16, %f15, %f9, %f11;
	mul.f32 	%f17, %f16, 0f3F400000;
	fma.rn.f32 	%f18, %f17, %f9, %f11;
	mul.f32 	%f25, %f18, 0f3F400000;
	add.s32 	%r9, %r9, -4;
	setp.ne.s32 	%p3, %r9, 0;
	@%p3 bra 	$L__BB@ID@_0_3;

$L__BB@ID@_0_4:
	setp.eq.s32 	%p4, %r10, 0;
	@%p4 bra 	$L__BB@ID@_0_6;

$L__BB@ID@_0_5:
	.pragma "nounroll";
	mov.f32 	%f19, 0f3F000000;
	fma.rn.f32 	%f20, %f25, %f9, %f19;
	mul.f32 	%f25, %f20, 0f3F400000;
	add.s32 	%r10, %r10, -1;
	setp.ne.s32 	%p5, %r10, 0;
	@%p5 bra 	$L__BB@ID@_0_5;

$L__BB@ID@_0_6:
	st.param.f32 	[func_retval0+0], %f25;
	ret;

}
	// .globl	saxpy_@ID@
.visible .entry saxpy_@ID@(
	.param .f32 saxpy_@ID@_param_0,
	.param .u64 saxpy_@ID@_param_1,
	.param .u64 saxpy_@ID@_param_2,
	.param .u32 saxpy_@ID@_param_3
)
{
	.reg .pred 	%p<3>;
	.reg .f32 	%f<5>;
	.reg .b32 	%r<11>;
	.reg .b64 	%rd<8>;


	ld.param.f32 	%f1, [saxpy_@ID@_param_0];
	ld.param.u64 	%rd3, [saxpy_@ID@_param_1];
	ld.param.u64 	%rd4, [saxpy_@ID@_param_2];
	ld.param.u32 	%r6, [saxpy_@ID@_param_3];
	mov.u32 	%r1, %ntid.x;
	mov.u32 	%r7, %ctaid.x;
	mov.u32 	%r8, %tid.x;
	mad.lo.s32 	%r10, %r7, %r1, %r8;
	setp.ge.s32 	%p1, %r10, %r6;
	@%p1 bra 	$L__BB@ID@_1_3;

	mov.u32 	%r9, %nctaid.x;
	mul.lo.s32 	%r3, %r1, %r9;
	cvta.to.global.u64 	%rd1, %rd3;
	cvta.to.global.u64 	%rd2, %rd4;

$L__BB@ID@_1_2:
	mul.wide.s32 	%rd5, %r10, 4;
	add.s64 	%rd6, %rd1, %rd5;
	ld.global.f32 	%f2, [%rd6];
	add.s64 	%rd7, %rd2, %rd5;
	ld.global.f32 	%f3, [%rd7];
	fma.rn.f32 	%f4, %f2, %f1, %f3;
	st.global.f32 	[%rd7], %f4;
	add.s32 	%r10, %r10, %r3;
	setp.lt.s32 	%p2, %r10, %r6;
	@%p2 bra 	$L__BB@ID@_1_2;

$L__BB@ID@_1_3:
	ret;

}
	// .globl	reduce_@ID@
.visible .entry reduce_@ID@(
	.param .u64 reduce_@ID@_param_0,
	.param .u64 reduce_@ID@_param_1,
	.param .u32 reduce_@ID@_param_2
)
{
	.reg .pred 	%p<13>;
	.reg .f32 	%f<26>;
	.reg .b32 	%r<36>;
	.reg .b64 	%rd<7>;
	// demoted variable
	.shared .align 4 .b8 smem_@ID@[1024];

	ld.param.u64 	%rd2, [reduce_@ID@_param_0];
	ld.param.u64 	%rd3, [reduce_@ID@_param_1];
	ld.param.u32 	%r10, [reduce_@ID@_param_2];
	mov.u32 	%r35, %ntid.x;
	mov.u32 	%r11, %ctaid.x;
	mov.u32 	%r2, %tid.x;
	mad.lo.s32 	%r34, %r11, %r35, %r2;
	setp.ge.s32 	%p1, %r34, %r10;
	mov.f32 	%f25, 0f00000000;
	@%p1 bra 	$L__BB@ID@_2_3;

	mov.u32 	%r12, %nctaid.x;
	mul.lo.s32 	%r4, %r35, %r12;
	cvta.to.global.u64 	%rd1, %rd2;
	mov.f32 	%f25, 0f00000000;

$L__BB@ID@_2_2:
	mul.wide.s32 	%rd4, %r34, 4;
	add.s64 	%rd5, %rd1, %rd4;
	ld.global.f32 	%f7, [%rd5];
	add.f32 	%f25, %f25, %f7;
	add.s32 	%r34, %r34, %r4;
	setp.lt.s32 	%p2, %r34, %r10;
	@%p2 bra 	$L__BB@ID@_2_2;

$L__BB@ID@_2_3:
	shl.b32 	%r13, %r2, 2;
	mov.u32 	%r14, smem_@ID@;
	add.s32 	%r7, %r14, %r13;
	st.shared.f32 	[%r7], %f25;
	bar.sync 	0;
	setp.lt.u32 	%p3, %r35, 66;
	@%p3 bra 	$L__BB@ID@_2_7;

$L__BB@ID@_2_4:
	shr.u32 	%r9, %r35, 1;
	setp.ge.s32 	%p4, %r2, %r9;
	@%p4 bra 	$L__BB@ID@_2_6;

	shl.b32 	%r15, %r9, 2;
	add.s32 	%r16, %r7, %r15;
	ld.shared.f32 	%f8, [%r7];
	ld.shared.f32 	%f9, [%r16];
	add.f32 	%f10, %f9, %f8;
	st.shared.f32 	[%r7], %f10;

$L__BB@ID@_2_6:
	bar.sync 	0;
	setp.gt.u32 	%p5, %r35, 131;
	mov.u32 	%r35, %r9;
	@%p5 bra 	$L__BB@ID@_2_4;

$L__BB@ID@_2_7:
	setp.gt.s32 	%p6, %r2, 31;
	@%p6 bra 	$L__BB@ID@_2_10;

	ld.shared.f32 	%f11, [%r7];
	ld.shared.f32 	%f12, [%r7+128];
	add.f32 	%f13, %f11, %f12;
	mov.b32 	%r17, %f13;
	mov.u32 	%r18, 2;
	mov.u32 	%r19, 31;
	mov.u32 	%r20, 16;
	mov.u32 	%r21, -1;
	shfl.sync.down.b32 	%r22|%p7, %r17, %r20, %r19, %r21;
	mov.b32 	%f14, %r22;
	add.f32 	%f15, %f13, %f14;
	mov.b32 	%r23, %f15;
	mov.u32 	%r24, 8;
	shfl.sync.down.b32 	%r25|%p8, %r23, %r24, %r19, %r21;
	mov.b32 	%f16, %r25;
	add.f32 	%f17, %f15, %f16;
	mov.b32 	%r26, %f17;
	mov.u32 	%r27, 4;
	shfl.sync.down.b32 	%r28|%p9, %r26, %r27, %r19, %r21;
	mov.b32 	%f18, %r28;
	add.f32 	%f19, %f17, %f18;
	mov.b32 	%r29, %f19;
	shfl.sync.down.b32 	%r30|%p10, %r29, %r18, %r19, %r21;
	mov.b32 	%f20, %r30;
	add.f32 	%f21, %f19, %f20;
	mov.b32 	%r31, %f21;
	mov.u32 	%r32, 1;
	shfl.sync.down.b32 	%r33|%p11, %r31, %r32, %r19, %r21;
	mov.b32 	%f22, %r33;
	add.f32 	%f4, %f21, %f22;
	setp.ne.s32 	%p12, %r2, 0;
	@%p12 bra 	$L__BB@ID@_2_10;

	cvta.to.global.u64 	%rd6, %rd3;
	atom.global.add.f32 	%f23, [%rd6], %f4;

$L__BB@ID@_2_10:
	ret;

}
	// .globl	stencil_@ID@
.visible .entry stencil_@ID@(
	.param .u64 stencil_@ID@_param_0,
	.param .u64 stencil_@ID@_param_1,
	.param .u32 stencil_@ID@_param_2,
	.param .u32 stencil_@ID@_param_3
)
{
	.reg .pred 	%p<10>;
	.reg .f32 	%f<13>;
	.reg .b32 	%r<15>;
	.reg .b64 	%rd<12>;


	ld.param.u64 	%rd1, [stencil_@ID@_param_0];
	ld.param.u64 	%rd2, [stencil_@ID@_param_1];
	ld.param.u32 	%r3, [stencil_@ID@_param_2];
	ld.param.u32 	%r4, [stencil_@ID@_param_3];
	mov.u32 	%r5, %ntid.x;
	mov.u32 	%r6, %ctaid.x;
	mov.u32 	%r7, %tid.x;
	mad.lo.s32 	%r1, %r6, %r5, %r7;
	mov.u32 	%r8, %ntid.y;
	mov.u32 	%r9, %ctaid.y;
	mov.u32 	%r10, %tid.y;
	mad.lo.s32 	%r2, %r9, %r8, %r10;
	setp.lt.s32 	%p1, %r1, 1;
	setp.lt.s32 	%p2, %r2, 1;
	or.pred  	%p3, %p1, %p2;
	add.s32 	%r11, %r3, -1;
	setp.ge.s32 	%p4, %r1, %r11;
	or.pred  	%p5, %p3, %p4;
	add.s32 	%r12, %r4, -1;
	setp.ge.s32 	%p6, %r2, %r12;
	or.pred  	%p7, %p5, %p6;
	@%p7 bra 	$L__BB@ID@_3_2;

	cvta.to.global.u64 	%rd3, %rd1;
	cvta.to.global.u64 	%rd4, %rd2;
	mad.lo.s32 	%r13, %r2, %r3, %r1;
	mul.wide.s32 	%rd5, %r13, 4;
	add.s64 	%rd6, %rd3, %rd5;
	ld.global.f32 	%f1, [%rd6];
	ld.global.f32 	%f2, [%rd6+4];
	ld.global.f32 	%f3, [%rd6+-4];
	add.f32 	%f4, %f3, %f2;
	sub.s32 	%r14, %r13, %r3;
	mul.wide.s32 	%rd7, %r14, 4;
	add.s64 	%rd8, %rd3, %rd7;
	ld.global.f32 	%f5, [%rd8];
	add.f32 	%f6, %f4, %f5;
	mul.wide.s32 	%rd9, %r3, 4;
	add.s64 	%rd10, %rd6, %rd9;
	ld.global.f32 	%f7, [%rd10];
	add.f32 	%f8, %f6, %f7;
	mul.f32 	%f9, %f8, 0f3E000000;
	fma.rn.f32 	%f10, %f1, 0f3F000000, %f9;
	setp.gt.f32 	%p8, %f10, 0f3F800000;
	setp.lt.f32 	%p9, %f10, 0fBF800000;
	selp.f32 	%f11, 0fBF800000, %f10, %p9;
	selp.f32 	%f12, 0f3F800000, %f11, %p8;
	add.s64 	%rd11, %rd4, %rd5;
	st.global.f32 	[%rd11], %f12;

$L__BB@ID@_3_2:
	ret;

}
	// .globl	math_@ID@
.visible .entry math_@ID@(
	.param .u64 math_@ID@_param_0,
	.param .u64 math_@ID@_param_1,
	.param .u64 math_@ID@_param_2,
	.param .u32 math_@ID@_param_3,
	.param .u32 math_@ID@_param_4
)
{
	.reg .pred 	%p<3>;
	.reg .f32 	%f<8>;
	.reg .b32 	%r<16>;
	.reg .f64 	%fd<8>;
	.reg .b64 	%rd<12>;


	ld.param.u64 	%rd1, [math_@ID@_param_0];
	ld.param.u64 	%rd2, [math_@ID@_param_1];
	ld.param.u64 	%rd3, [math_@ID@_param_2];
	ld.param.u32 	%r3, [math_@ID@_param_3];
	ld.param.u32 	%r2, [math_@ID@_param_4];
	mov.u32 	%r4, %ctaid.x;
	mov.u32 	%r5, %ntid.x;
	mov.u32 	%r6, %tid.x;
	mad.lo.s32 	%r1, %r4, %r5, %r6;
	setp.ge.s32 	%p1, %r1, %r3;
	@%p1 bra 	$L__BB@ID@_4_2;

	cvta.to.global.u64 	%rd4, %rd1;
	mul.wide.s32 	%rd5, %r1, 4;
	add.s64 	%rd6, %rd4, %rd5;
	ld.global.f32 	%f1, [%rd6];
	sin.approx.f32 	%f2, %f1;
	mul.f32 	%f3, %f1, %f1;
	mul.f32 	%f4, %f3, 0fBFB8AA3B;
	ex2.approx.f32 	%f5, %f4;
	add.f32 	%f6, %f2, %f5;
	{ // callseq 0, 0
	.reg .b32 temp_param_reg;
	.param .b32 param0;
	st.param.f32 	[param0+0], %f1;
	.param .b32 param1;
	st.param.f32 	[param1+0], %f6;
	.param .b32 param2;
	st.param.b32 	[param2+0], %r2;
	.param .b32 retval0;
	call.uni (retval0), 
	mix_@ID@, 
	(
	param0, 
	param1, 
	param2
	);
	ld.param.f32 	%f7, [retval0+0];
	} // callseq 0
	mov.b32 	%r7, %f7;
	popc.b32 	%r8, %r7;
	brev.b32 	%r9, %r7;
	xor.b32  	%r10, %r8, %r9;
	shr.u32 	%r11, %r7, 7;
	xor.b32  	%r12, %r10, %r11;
	mov.u32 	%r13, 12816;
	prmt.b32 	%r14, %r7, %r1, %r13;
	xor.b32  	%r15, %r12, %r14;
	cvta.to.global.u64 	%rd7, %rd3;
	add.s64 	%rd8, %rd7, %rd5;
	st.global.u32 	[%rd8], %r15;
	cvt.f64.f32 	%fd1, %f7;
	cvt.rn.f64.s32 	%fd2, %r1;
	fma.rn.f64 	%fd3, %fd1, 0d3FF8000000000000, %fd2;
	abs.f64 	%fd4, %fd3;
	sqrt.rn.f64 	%fd5, %fd4;
	setp.gt.f64 	%p2, %fd3, 0d0000000000000000;
	selp.f64 	%fd6, 0d3FF0000000000000, 0dBFF0000000000000, %p2;
	add.f64 	%fd7, %fd5, %fd6;
	cvta.to.global.u64 	%rd9, %rd2;
	mul.wide.s32 	%rd10, %r1, 8;
	add.s64 	%rd11, %rd9, %rd10;
	st.global.f64 	[%rd11], %fd7;

$L__BB@ID@_4_2:
	ret;

}
"""


def chunk_text(idx, rng):
    cid = str(idx)
    data = DATA.replace("@ID@", cid)
    data = data.replace("@BYTES@", ", ".join(str(rng.randrange(256)) for _ in range(32)))
    floats = ["0f%08X" % rng.getrandbits(30) for _ in range(4)]
    data = data.replace("@FLOATS@", ", ".join(floats))
    return data + "\n" + TEMPLATE.replace("@ID@", cid) + "\n"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("size_mb", type=float, help="target size in MB (10**6 bytes)")
    ap.add_argument("output", help="output PTX path")
    ap.add_argument("--seed", type=int, default=1, help="seed for the data initialisers")
    args = ap.parse_args(argv)
    if args.size_mb <= 0:
        ap.error("size must be positive")
    target = int(args.size_mb * 1000 * 1000)
    rng = random.Random(args.seed)

    idx = 0
    with open(args.output, "w", encoding="ascii", newline="\n") as out:
        out.write(HEADER)
        size = len(HEADER)
        while size < target:
            text = chunk_text(idx, rng)
            out.write(text)
            size += len(text)
            idx += 1
    print("%s: %d chunks, %d bytes" % (args.output, idx, size), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
