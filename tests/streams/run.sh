#!/bin/bash
# Concurrent kernels in timing mode (docs/cuda-runtime.md, "Streams"): builds
# tests/cuda/concurrent_kernels.cu and tests/cuda/concurrent_ptds.cu (the
# latter with --default-stream per-thread), runs them in timing mode with the
# default -gpgpu_max_concurrent_kernel (8) and with 1, and checks from the
# statistics JSON (each kernel's "concurrent" start/end cycles):
#  - max 8: the four spin_a kernels of four streams overlap, and the run's
#    total cycles are less than the sum of the kernels' cycles; the two
#    to_host kernels overlap; the per-thread default stream's kernel overlaps
#    the created stream's;
#  - ordering: consume starts after produce ends (event + cudaStreamWaitEvent);
#    leg_def (legacy stream) after leg_blk (blocking stream); nb_def (blocking
#    stream, launched after leg_def) after leg_def; nb_k (non-blocking stream,
#    launched after leg_def) starts before leg_def ends; ptds_join
#    (cudaStreamLegacy) after both per-thread-stream kernels;
#  - max 1: no two kernels overlap, and the total cycles equal their sum.
# The programs check their own results against host references (PASS line).
#
# Environment: PTXSIM, NVCC (skip, exit 77, when missing), srcdir.
set -u
here="${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests"
if [ -z "${NVCC:-}" ] || ! command -v "$NVCC" >/dev/null 2>&1; then
    echo "SKIP: NVCC is not set or not found; the stream tests need nvcc"
    exit 77
fi
if [ -z "${PTXSIM:-}" ] || [ ! -x "$PTXSIM" ] || ! command -v python3 >/dev/null 2>&1; then
    echo "FAIL: PTXSIM (the ptxsim binary) and python3 are needed"
    exit 1
fi
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxsim-streams.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
flags="-cudart shared -arch=sm_75 -O2"
"$NVCC" $flags -o "$tmp/ck" "$here/cuda/concurrent_kernels.cu" 2>"$tmp/nvcc.log" &&
    "$NVCC" $flags --default-stream per-thread -o "$tmp/cp" "$here/cuda/concurrent_ptds.cu" \
        2>>"$tmp/nvcc.log" || { cat "$tmp/nvcc.log"; echo "FAIL: nvcc"; exit 1; }
fail=0
for prog in ck cp; do
    for max in 8 1; do
        out=$(cd "$tmp" && timeout 120 "$PTXSIM" run --mode timing -o ptxsim_print_stats=0 \
            -o gpgpu_max_concurrent_kernel=$max --stats "$tmp/$prog.$max.json" -- "./$prog" 2>&1)
        case "$out" in
        *PASS*) echo "PASS: $prog results, max_concurrent_kernel $max" ;;
        *) echo "FAIL: $prog results, max_concurrent_kernel $max: $out"; fail=1 ;;
        esac
    done
done
python3 - "$tmp" <<'PYEOF' || fail=1
import json, sys
d = sys.argv[1]
bad = 0

def load(name):
    ks = json.load(open(f"{d}/{name}.json"))
    return ks, [(k["name"], k["cycles"], k["timing"]["concurrent"]) for k in ks["kernels"]]

def check(ok, what):
    global bad
    print(("PASS: " if ok else "FAIL: ") + what)
    bad += not ok

def named(ks, part):
    return [k for k in ks if part in k[0]]

def overlap(a, b):
    return a[2]["start_cycle"] < b[2]["end_cycle"] and b[2]["start_cycle"] < a[2]["end_cycle"]

def after(a, b):  # a starts once b has ended
    return a[2]["start_cycle"] >= b[2]["end_cycle"]

j, ks = load("ck.8")
spin = named(ks, "spin_a")
total, ksum = j["total"]["cycles"], sum(k[1] for k in ks)
check(len(spin) == 4 and all(overlap(a, b) for a in spin for b in spin if a is not b),
      "four streams' kernels overlap (max 8)")
check(total < ksum, f"total cycles {total} < sum of kernel cycles {ksum} (max 8)")
spin_sum = sum(k[1] for k in spin)
spin_span = max(k[2]["end_cycle"] for k in spin) - min(k[2]["start_cycle"] for k in spin)
print(f"  four spin_a kernels: {spin_span} cycles together, {spin_sum} one after another")
th = named(ks, "to_host")
check(len(th) == 2 and overlap(th[0], th[1]), "host-function streams' kernels overlap")
one = lambda p: named(ks, p)[0]
check(after(one("consume"), one("produce")), "cudaStreamWaitEvent: consume after produce")
check(after(one("leg_def"), one("leg_blk")), "legacy stream after a blocking stream")
check(after(one("nb_def"), one("leg_def")), "blocking stream after the legacy stream")
check(one("nb_k")[2]["start_cycle"] < one("leg_def")[2]["end_cycle"],
      "non-blocking stream does not wait for the legacy stream")
jp, kp = load("cp.8")
check(overlap(named(kp, "ptds_a")[0], named(kp, "ptds_b")[0]),
      "per-thread default stream overlaps a created stream")
check(after(named(kp, "ptds_join")[0], named(kp, "ptds_a")[0]) and
      after(named(kp, "ptds_join")[0], named(kp, "ptds_b")[0]),
      "cudaStreamLegacy waits for the per-thread default stream")
for name in ("ck.1", "cp.1"):
    j1, k1 = load(name)
    s1 = sorted(k1, key=lambda k: k[2]["start_cycle"])
    check(all(after(s1[i + 1], s1[i]) for i in range(len(s1) - 1)),
          f"{name}: max_concurrent_kernel 1 runs kernels one at a time")
    check(j1["total"]["cycles"] == sum(k[1] for k in k1),
          f"{name}: total cycles {j1['total']['cycles']} equal the sum of kernel cycles")
sys.exit(1 if bad else 0)
PYEOF
[ $fail = 0 ] && echo "streams: all passed" || echo "streams: FAILED"
exit $fail
