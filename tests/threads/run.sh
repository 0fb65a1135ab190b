#!/bin/bash
# Parallel timing simulation is deterministic (-ptxsim_threads, docs/timing.md "Parallel
# simulation"): each run below goes at 1, 2 and 4 threads on gtx480 at size `test`; the
# statistics JSON (wall_s, sim_rate and the option dump aside) and the program's stdout
# must be byte-identical across the thread counts, and to a fourth run at one thread with
# -ptxsim_sm_sleep 0 (every SM cycle simulated: sleeping through cycles must change nothing).
# The set is a representative subset of the workload suite, chosen to cover what the SMs
# share: a memory-bound program (kmeans), a compute-bound one with shared memory and
# barriers (sgemm), global atomics (histogram), an irregular graph (bfs), an OpenCL program
# (vecops_ocl), the DYNCTA CTA policy (GPU-wide state read by the SMs), GTO and CCWS warp
# schedulers (CCWS's point system shared by an SM's schedulers), MRPB's reorder queues,
# CACP with gCAWS (criticality, branch outcomes), and an L1D policy with GPU-wide state
# (rrip: the sequential loop by design), and same_cycle.cu (loads and stores of different SMs
# to the same words in the same cycles). THREADS_TEST_ALL=1 adds every program of the
# suite (scripts/check sets it in its plain pass).
# Environment: PTXSIM, NVCC, top_builddir, srcdir; WORKLOADS_BIN (default
# $top_builddir/benchmarks/workloads/bin, built here with benchmarks/workloads/build.sh
# when missing); exits 77 (skip) without nvcc.
set -u
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
unset PTXSIM_CONFIG PTXSIM_OPTIONS PTXSIM_BUDGET PTXSIM_STATS PTXSIM_MODE
top_src="${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}"
builddir="${top_builddir:-$(pwd)}"
bin="${WORKLOADS_BIN:-$builddir/benchmarks/workloads/bin}"
if [ -z "${PTXSIM:-}" ] || [ ! -x "$PTXSIM" ]; then
    echo "run.sh: PTXSIM is not set to the ptxsim binary" >&2
    exit 1
fi
runs=("kmeans|" "sgemm|" "histogram|" "bfs|" "vecops_ocl|"
    "kmeans|-o ptxsim_cta_scheduler=dyncta" "bfs|-o gpgpu_scheduler=gto"
    "kmeans|-o gpgpu_scheduler=ccws" "spmv_csr|-o ptxsim_l1d_policy=mrpb"
    "spmv_csr|-o ptxsim_l1d_policy=rrip"
    "spmv_csr|-o ptxsim_l1d_policy=cacp -o gpgpu_scheduler=gcaws")
if [ "${THREADS_TEST_ALL:-0}" = 1 ]; then
    # every program of the suite as well, as build.sh finds them (the policy runs above stay)
    for d in "$top_src"/benchmarks/workloads/*/; do
        w=$(basename "$d")
        [ -f "$d$w.cu" ] && runs+=("$w|")
        [ -f "$d${w}_ocl.c" ] && runs+=("${w}_ocl|")
    done
fi
names=$(printf '%s\n' "${runs[@]}" | cut -d'|' -f1 | sort -u)
missing=""
for w in $names; do [ -x "$bin/$w" ] || missing="$missing $w"; done
if [ -n "$missing" ]; then
    if [ -z "${NVCC:-}" ] || ! command -v "$NVCC" >/dev/null 2>&1; then
        echo "SKIP: workloads not built (make workloads) and no nvcc:$missing"
        exit 77
    fi
    NVCC="$NVCC" CC="${CC:-cc}" bash "$top_src/benchmarks/workloads/build.sh" -q -j 2 \
        "$top_src" "$bin" $missing >/dev/null 2>&1 || {
        echo "FAIL: could not build$missing"
        exit 1
    }
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxsim-threads.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# same_cycle.cu: loads meeting stores of other SMs in the same cycle (the parallel part's
# loads read again in SM order); built here, run like the workloads
if [ -n "${NVCC:-}" ] && command -v "$NVCC" >/dev/null 2>&1; then
    "$NVCC" -cudart shared -arch=sm_75 -O2 -o "$tmp/same_cycle" "$top_src/tests/threads/same_cycle.cu" \
        2>"$tmp/nvcc.log" || {
        cat "$tmp/nvcc.log"
        echo "FAIL: could not build same_cycle.cu"
        exit 1
    }
    runs+=("same_cycle|")
fi
strip='import json,sys
def s(x):
    if isinstance(x,dict): return {k:s(v) for k,v in x.items() if k not in ("wall_s","sim_rate","config")}
    if isinstance(x,list): return [s(v) for v in x]
    return x
print(json.dumps(s(json.load(open(sys.argv[1]))),indent=1,sort_keys=True))'
fail=0
n=0
for r in "${runs[@]}"; do
    IFS='|' read -r w opts <<<"$r"
    prog="$bin/$w"
    [ -x "$tmp/$w" ] && prog="$tmp/$w"
    for t in 1 2 4 nosleep; do
        d="$tmp/$n.$t"
        mkdir -p "$d"
        topt="-o ptxsim_threads=$t"
        [ $t = nosleep ] && topt="-o ptxsim_threads=1 -o ptxsim_sm_sleep=0"
        (cd "$d" && timeout 300 "$PTXSIM" run --config gtx480 --mode timing -o ptxsim_print_stats=0 \
            $topt $opts --stats "$d/s.json" -- "$prog" test >"$d/out" 2>"$d/err")
        echo "rc=$?" >>"$d/out"
        python3 -c "$strip" "$d/s.json" >"$d/s.txt" 2>>"$d/err" || echo "no statistics" >>"$d/s.txt"
    done
    ok=1
    for t in 2 4 nosleep; do
        if ! cmp -s "$tmp/$n.1/s.txt" "$tmp/$n.$t/s.txt" || ! cmp -s "$tmp/$n.1/out" "$tmp/$n.$t/out"; then
            ok=0
            echo "FAIL: $w $opts: $t differs from 1 thread:"
            diff "$tmp/$n.1/s.txt" "$tmp/$n.$t/s.txt" | head -10
            diff "$tmp/$n.1/out" "$tmp/$n.$t/out" | head -5
        fi
    done
    if ! grep -q '^rc=0$' "$tmp/$n.1/out" || ! grep -q '"cycles"' "$tmp/$n.1/s.txt"; then
        ok=0
        echo "FAIL: $w $opts did not run:"
        head -5 "$tmp/$n.1/err"
    fi
    [ $ok = 1 ] && echo "PASS: $w $opts (1, 2, 4 threads and no sleeping identical)" || fail=$((fail + 1))
    n=$((n + 1))
done
echo "$((n - fail)) passed, $fail failed"
[ $fail = 0 ]
