#!/bin/bash
# OpenCL tests: each tests/opencl/<name>.c (with harness.c) is built by the
# host compiler (${CC:-cc} ... -lOpenCL) and run through ocl-icd on ptxsim's
# ICD (the build tree's runtime/opencl/.libs/libptxsim_ocl.so), once in each
# simulation mode (PTXSIM_MODE=functional and timing), and on PoCL
# (/etc/OpenCL/vendors/pocl.icd); OCL_PLATFORM (a substring of the platform
# name) selects the platform. OCL_ICD_VENDORS points at a temporary directory
# holding both .icd files. ptxsim's outputs must be identical in every mode;
# the first mode's output is compared with PoCL's by compare.c: I lines
# exactly, F lines within the ULP bound each line carries (harness.h). When
# PoCL is not installed, each test only has to run on ptxsim. Every ptxsim
# run writes PTXSIM_STATS, which must be valid JSON (checked when python3 is
# installed). In timing mode, profiling's event timestamps (OCL_PROFILE_OUT)
# must follow the simulated clock: each kernel's END - START is its cycles
# (from the statistics) x 1000 / core MHz within 1 ns, other commands take no
# time. Also checks that clinfo lists the ptxsim platform and its device.
#
# A sanitizer build has a sanitized ICD: its ASan runtime is preloaded into
# the (unsanitized) test programs and clinfo, with leak detection off (the
# loader and PoCL are not ours).
#
# Environment (from AM_TESTS_ENVIRONMENT): top_builddir, srcdir, CC.
# Optional: OCL_TEST_MODES (ptxsim's simulation modes, default "functional
# timing"). PTXSIM_CONFIG, PTXSIM_OPTIONS and PTXSIM_BUDGET are cleared, so
# the default configuration (gtx480) is tested.
# Prints "N passed, M failed"; exits 1 on any failure, 77 when skipped.

set -u
unset PTXSIM_CONFIG PTXSIM_OPTIONS PTXSIM_BUDGET PTXSIM_STATS PTXSIM_MODE OCL_PROFILE_OUT

top="${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}"
build="${top_builddir:-$top/build}"
here="$top/tests/opencl"
icd="$build/runtime/opencl/.libs/libptxsim_ocl.so"
cc="${CC:-cc}"
tests="vecadd reduce atomics stencil2d matmul vectypes mathfn build_error images offsets api profiling
       spirv spir_binary ptx_binary subbuffer rect_copy fill_buffer scan histogram transpose
       bitonic intfn compile_link kernel_arg_info build_options relational events robust
       image_sample image_write image_errors image_twodev"
# Tests of ptxsim's own answers to API misuse (undefined behaviour elsewhere): not run on PoCL.
ptxsim_only="robust image_errors image_twodev"
modes="${OCL_TEST_MODES:-functional timing}"
have_python=0
command -v python3 >/dev/null 2>&1 && have_python=1

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

# run_ptxsim NAME MODE: runs $tmp/NAME on ptxsim in MODE; stdout in $tmp/NAME.MODE,
# statistics in $tmp/NAME.MODE.json, profiling timestamps in $tmp/NAME.MODE.prof.
run_ptxsim() {
    PTXSIM_MODE="$2" PTXSIM_STATS="$tmp/$1.$2.json" OCL_PROFILE_OUT="$tmp/$1.$2.prof" \
        run_one "$1" ptxsim "$tmp/$1.$2"
}

# check_json NAME MODE: the statistics file is valid JSON (when python3 is installed).
check_json() {
    [ "$have_python" = 0 ] && return 0
    python3 -m json.tool "$tmp/$1.$2.json" >/dev/null 2>"$tmp/$1.$2.json.err"
}

# check_profile NAME: timing-mode timestamps against the statistics; prints what is wrong.
check_profile() {
    python3 - "$tmp/$1.timing.json" "$tmp/$1.timing.prof" <<'EOF'
import json, sys
st = json.load(open(sys.argv[1]))
mhz = float(st["config"]["gpgpu_clock_domains"].split(":")[0])
kernels = st["kernels"]
events = [l.split() for l in open(sys.argv[2]) if l.strip()]
bad = []
ki = 0
prev_end = 0
for ev in events:
    name, q, s, b, e = ev[0], int(ev[1]), int(ev[2]), int(ev[3]), int(ev[4])
    if not (q == s == b):
        bad.append("%s: QUEUED %d, SUBMIT %d, START %d differ" % (name, q, s, b))
    if b != prev_end:
        bad.append("%s: START %d is not the previous END %d" % (name, b, prev_end))
    prev_end = e
    if name == "-":
        if e != b:
            bad.append("a non-kernel command took %d ns" % (e - b))
        continue
    if ki >= len(kernels) or kernels[ki]["name"] != name:
        bad.append("%s: not kernel %d of the statistics" % (name, ki + 1))
        break
    cycles = kernels[ki]["cycles"]
    want = cycles * 1000.0 / mhz
    ki += 1
    if e <= b:
        bad.append("%s: END %d <= START %d" % (name, e, b))
    if abs((e - b) - want) > 1.0:
        bad.append("%s: END - START = %d ns, want %.3f (%d cycles at %g MHz)"
                   % (name, e - b, want, cycles, mhz))
if ki != len(kernels):
    bad.append("%d kernel events, %d kernels in the statistics" % (ki, len(kernels)))
print("; ".join(bad))
sys.exit(1 if bad else 0)
EOF
}

for t in $tests; do
    if ! "$cc" -std=gnu11 -O1 -Wall -I"$here" -o "$tmp/$t" "$here/$t.c" "$here/harness.c" \
        -lOpenCL -lm -pthread >"$tmp/$t.build" 2>&1; then
        bad "$t: does not build: $(cat "$tmp/$t.build")"
        continue
    fi
    first="" failed=0
    for m in $modes; do
        if ! run_ptxsim "$t" "$m"; then
            bad "$t: failed on ptxsim ($m mode): $(tail -n 20 "$tmp/$t.$m.err")"
            failed=1
            break
        fi
        if grep -q '^I chk_[^ ]* 0$' "$tmp/$t.$m"; then
            bad "$t: own checks fail on ptxsim ($m mode): $(grep '^I chk_[^ ]* 0$' "$tmp/$t.$m" | tr '\n' ' ')"
            failed=1
            break
        fi
        if ! check_json "$t" "$m"; then
            bad "$t: PTXSIM_STATS is not valid JSON ($m mode): $(cat "$tmp/$t.$m.json.err")"
            failed=1
            break
        fi
        if [ -z "$first" ]; then
            first="$m"
        elif ! cmp -s "$tmp/$t.$first" "$tmp/$t.$m"; then
            bad "$t: ptxsim's output differs between $first and $m mode: $(diff "$tmp/$t.$first" "$tmp/$t.$m" | head -n 5 | tr '\n' ' ')"
            failed=1
            break
        fi
        if [ "$t" = profiling ] && [ "$m" = timing ]; then
            if [ "$have_python" = 0 ]; then
                echo "note: python3 is not installed; timing-mode profiling not checked"
            elif ! why=$(check_profile "$t"); then
                bad "$t: timing-mode profiling: $why"
                failed=1
                break
            fi
        fi
    done
    [ "$failed" = 1 ] && continue
    if [ -z "$first" ]; then
        bad "$t: OCL_TEST_MODES names no mode"
        continue
    fi
    cp "$tmp/$t.$first" "$tmp/$t.ptxsim"
    case " $ptxsim_only " in *" $t "*)
        ok "$t (ptxsim only, modes: $modes)"
        continue ;;
    esac
    if [ "$have_pocl" = 0 ]; then
        ok "$t (ptxsim only, modes: $modes; PoCL is not installed)"
        continue
    fi
    if ! run_one "$t" "Portable Computing Language" "$tmp/$t.pocl"; then
        bad "$t: failed on PoCL (the reference): $(tail -n 20 "$tmp/$t.pocl.err")"
        continue
    fi
    if diff_out=$("$tmp/compare" "$tmp/$t.ptxsim" "$tmp/$t.pocl"); then
        ok "$t ($(wc -l <"$tmp/$t.ptxsim") values agree with PoCL; modes: $modes)"
    else
        bad "$t: ptxsim and PoCL differ: $diff_out"
    fi
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
