#!/bin/bash
# The OpenCL test programs on ptxsim's CPU device (docs/heteropdp.md): each
# tests/opencl/<name>.c runs on ptxsim's platform with OCL_DEVICE=cpu (the
# harness then asks for CL_DEVICE_TYPE_CPU: PoCL's CPU device behind ptxsim's
# ICD, buffers migrating from the engine's memory), and its output is
# compared by compare.c with the same program on PoCL's own platform, as
# tests/opencl/run.sh compares the GPU device. Programs that exercise only
# the GPU's compilers (PTX, SPIR, SPIR-V, clCompileProgram binaries),
# ptxsim's own misuse answers (image_errors among them) and the GPU's
# timing-mode clock are not run here. Images and samplers run on PoCL images
# and samplers made at launch (image_sample, image_write, images).
# Skips (77) without PoCL or without the built ICD.
set -u
unset PTXSIM_CONFIG PTXSIM_OPTIONS PTXSIM_BUDGET PTXSIM_STATS PTXSIM_MODE OCL_PROFILE_OUT \
    PTXSIM_HETEROPDP PTXSIM_OCL_CPU

top="${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}"
build="${top_builddir:-$top/build}"
here="$top/tests/opencl"
icd="$build/runtime/opencl/.libs/libptxsim_ocl.so"
cc="${CC:-cc}"
tests="${OCL_CPU_TESTS:-vecadd reduce atomics stencil2d matmul vectypes mathfn offsets api images
       subbuffer rect_copy fill_buffer scan histogram transpose bitonic intfn kernel_arg_info
       build_options relational events image_sample image_write}"

if [ ! -f "$icd" ]; then echo "SKIP: $icd is not built"; exit 77; fi
if [ ! -f /etc/OpenCL/vendors/pocl.icd ]; then echo "SKIP: PoCL is not installed"; exit 77; fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxsim-oclcpu.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/vendors" "$tmp/pocl-cache"
echo "$icd" >"$tmp/vendors/ptxsim.icd"
cp /etc/OpenCL/vendors/pocl.icd "$tmp/vendors/pocl.icd"
export OCL_ICD_VENDORS="$tmp/vendors" POCL_CACHE_DIR="$tmp/pocl-cache" PTXSIM_MODE=functional
unset OCL_ICD_FILENAMES
asan=$(ldd "$icd" 2>/dev/null | awk '/libasan\.so/ { print $3; exit }')
if [ -n "$asan" ]; then
    export LD_PRELOAD="$asan${LD_PRELOAD:+:$LD_PRELOAD}"
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
fi

pass=0 fail=0
ok() { pass=$((pass + 1)); echo "PASS: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }

"$cc" -std=gnu11 -O1 -o "$tmp/compare" "$here/compare.c" -lm || exit 1
for t in $tests; do
    if ! "$cc" -std=gnu11 -O1 -Wall -I"$here" -o "$tmp/$t" "$here/$t.c" "$here/harness.c" \
        -lOpenCL -lm -pthread >"$tmp/$t.build" 2>&1; then
        bad "$t: does not build: $(cat "$tmp/$t.build")"
        continue
    fi
    if ! OCL_PLATFORM=ptxsim OCL_DEVICE=cpu timeout 300 "$tmp/$t" >"$tmp/$t.cpu" 2>"$tmp/$t.cpu.err"; then
        bad "$t: failed on ptxsim's CPU device: $(tail -n 20 "$tmp/$t.cpu.err")"
        continue
    fi
    if grep -q '^I chk_[^ ]* 0$' "$tmp/$t.cpu"; then
        bad "$t: own checks fail on ptxsim's CPU device: $(grep '^I chk_[^ ]* 0$' "$tmp/$t.cpu" | tr '\n' ' ')"
        continue
    fi
    if ! OCL_PLATFORM="Portable Computing Language" timeout 300 "$tmp/$t" >"$tmp/$t.pocl" 2>"$tmp/$t.pocl.err"; then
        bad "$t: failed on PoCL (the reference): $(tail -n 20 "$tmp/$t.pocl.err")"
        continue
    fi
    if diff_out=$("$tmp/compare" "$tmp/$t.cpu" "$tmp/$t.pocl"); then
        ok "$t ($(wc -l <"$tmp/$t.cpu") values agree with PoCL)"
    else
        bad "$t: ptxsim's CPU device and PoCL differ: $diff_out"
    fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
