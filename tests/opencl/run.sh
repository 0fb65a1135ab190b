#!/bin/bash
# OpenCL tests: each tests/opencl/<name>.c (with harness.c) is built by the
# host compiler (${CC:-cc} ... -lOpenCL) and run through ocl-icd twice, on
# ptxsim's ICD (the build tree's runtime/opencl/.libs/libptxsim_ocl.so) and on
# PoCL (/etc/OpenCL/vendors/pocl.icd), selected by OCL_PLATFORM (a substring
# of the platform name). OCL_ICD_VENDORS points at a temporary directory
# holding both .icd files. The two outputs are compared by compare.c: I lines
# exactly, F lines within the ULP bound each line carries (harness.h). When
# PoCL is not installed, each test only has to run on ptxsim. Also checks
# that clinfo lists the ptxsim platform.
#
# A sanitizer build has a sanitized ICD: its ASan runtime is preloaded into
# the (unsanitized) test programs and clinfo, with leak detection off (the
# loader and PoCL are not ours).
#
# Environment (from AM_TESTS_ENVIRONMENT): top_builddir, srcdir, CC.
# Prints "N passed, M failed"; exits 1 on any failure, 77 when skipped.

set -u

top="${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}"
build="${top_builddir:-$top/build}"
here="$top/tests/opencl"
icd="$build/runtime/opencl/.libs/libptxsim_ocl.so"
cc="${CC:-cc}"
tests="vecadd reduce atomics stencil2d matmul vectypes mathfn build_error images offsets api"

if [ ! -f "$icd" ]; then
    echo "SKIP: $icd is not built"
    exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxsim-ocl.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/vendors" "$tmp/pocl-cache"
echo "$icd" >"$tmp/vendors/ptxsim.icd"
have_pocl=0
if [ -f /etc/OpenCL/vendors/pocl.icd ]; then
    cp /etc/OpenCL/vendors/pocl.icd "$tmp/vendors/pocl.icd"
    have_pocl=1
fi
export OCL_ICD_VENDORS="$tmp/vendors"
unset OCL_ICD_FILENAMES
export POCL_CACHE_DIR="$tmp/pocl-cache"
asan=$(ldd "$icd" 2>/dev/null | awk '/libasan\.so/ { print $3; exit }')
if [ -n "$asan" ]; then
    export LD_PRELOAD="$asan${LD_PRELOAD:+:$LD_PRELOAD}"
    # Last, so it wins over a caller's detect_leaks=1 (scripts/check sets it): the
    # preload also reaches cc, clinfo and PoCL, whose own leaks are not ours.
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
fi

pass=0
fail=0
ok() { pass=$((pass + 1)); echo "PASS: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }

if ! command -v clinfo >/dev/null 2>&1; then
    echo "note: clinfo is not installed; platform listing not checked"
elif clinfo -l >"$tmp/clinfo.out" 2>&1 && grep -q 'Platform #[0-9]*: ptxsim' "$tmp/clinfo.out"; then
    ok "clinfo lists the ptxsim platform"
else
    bad "clinfo does not list ptxsim: $(cat "$tmp/clinfo.out")"
fi
if clinfo >"$tmp/clinfo.full" 2>&1 && grep -q 'GeForce GTX 480 (ptxsim)' "$tmp/clinfo.full"; then
    ok "clinfo queries the ptxsim device"
else
    bad "clinfo cannot query the ptxsim device: $(grep -i -m5 -e error -e ptxsim "$tmp/clinfo.full")"
fi

if ! "$cc" -std=gnu11 -O1 -o "$tmp/compare" "$here/compare.c" -lm >"$tmp/compare.build" 2>&1; then
    bad "compare.c does not build: $(cat "$tmp/compare.build")"
    echo "$pass passed, $fail failed"
    exit 1
fi

# run_one NAME PLATFORM OUT: runs $tmp/NAME on PLATFORM; stdout in OUT, stderr in OUT.err.
run_one() {
    OCL_PLATFORM="$2" timeout 300 "$tmp/$1" >"$3" 2>"$3.err"
}

for t in $tests; do
    if ! "$cc" -std=gnu11 -O1 -Wall -I"$here" -o "$tmp/$t" "$here/$t.c" "$here/harness.c" \
        -lOpenCL -lm >"$tmp/$t.build" 2>&1; then
        bad "$t: does not build: $(cat "$tmp/$t.build")"
        continue
    fi
    if ! run_one "$t" ptxsim "$tmp/$t.ptxsim"; then
        bad "$t: failed on ptxsim: $(tail -n 20 "$tmp/$t.ptxsim.err")"
        continue
    fi
    if grep -q '^I chk_[^ ]* 0$' "$tmp/$t.ptxsim"; then
        bad "$t: own checks fail on ptxsim: $(grep '^I chk_[^ ]* 0$' "$tmp/$t.ptxsim" | tr '\n' ' ')"
        continue
    fi
    if [ "$have_pocl" = 0 ]; then
        ok "$t (ptxsim only; PoCL is not installed)"
        continue
    fi
    if ! run_one "$t" "Portable Computing Language" "$tmp/$t.pocl"; then
        bad "$t: failed on PoCL (the reference): $(tail -n 20 "$tmp/$t.pocl.err")"
        continue
    fi
    if diff_out=$("$tmp/compare" "$tmp/$t.ptxsim" "$tmp/$t.pocl"); then
        ok "$t ($(wc -l <"$tmp/$t.ptxsim") values agree with PoCL)"
    else
        bad "$t: ptxsim and PoCL differ: $diff_out"
    fi
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
