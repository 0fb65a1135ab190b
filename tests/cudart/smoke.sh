#!/bin/bash
# Smoke tests of ptxsim's libcudart.so.13 through `ptxsim run`: small CUDA
# programs (tests/cudart/*.cu and samples/vecadd.cu) built by
# `$NVCC -cudart shared -arch=sm_75`, run unmodified, their output and exit
# status checked. Also: a symbol copy leaves the L2 cold where a cudaMemcpy
# warms it, a statically linked program (nvcc's default) runs, --stats
# writes JSON (timing mode by default, deterministic), a misspelt option is refused, and an unimplemented runtime call
# fails with cudaErrorNotSupported and names itself.
#
# A sanitizer build of ptxsim has a sanitized libcudart; `ptxsim run`
# preloads the ASan runtime into the (unsanitized) program itself.
#
# Environment (from AM_TESTS_ENVIRONMENT): PTXSIM (required), NVCC (skipped
# with status 77 when empty or missing), srcdir (top source dir).
# Prints "N passed, M failed"; exits 1 on any failure.

set -u

if [ -z "${PTXSIM:-}" ] || [ ! -x "$PTXSIM" ]; then
    echo "smoke.sh: PTXSIM is not set to the ptxsim binary" >&2
    exit 1
fi
if [ -z "${NVCC:-}" ] || ! command -v "$NVCC" >/dev/null 2>&1; then
    echo "SKIP: NVCC is not set or not found; the CUDA runtime was not tested"
    exit 77
fi
top="${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}"
here="$top/tests/cudart"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxsim-cudart.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

pass=0
fail=0
ok() { pass=$((pass + 1)); echo "PASS: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }

# build NAME SRC [NVCC ARGS...]: compiles SRC to $tmp/NAME (-cudart shared unless overridden).
build() {
    local name=$1 src=$2
    shift 2
    if "$NVCC" -arch=sm_75 "$@" -o "$tmp/$name" "$src" >"$tmp/$name.build" 2>&1; then
        return 0
    fi
    bad "$name: nvcc failed: $(cat "$tmp/$name.build")"
    return 1
}

# run NAME [PTXSIM RUN OPTIONS...]: runs $tmp/NAME; stdout in NAME.out, stderr in NAME.err.
run() {
    local name=$1
    shift
    (cd "$tmp" && "$PTXSIM" run "$@" -- "./$name" >"$name.out" 2>"$name.err")
}

# check NAME WANT_RC LINE...: exit status and lines that must appear in stdout, in order.
check() {
    local name=$1 want=$2 rc=$3 line
    shift 3
    if [ "$rc" -ne "$want" ]; then
        bad "$name: exit status $rc, want $want: $(cat "$tmp/$name.out" "$tmp/$name.err")"
        return
    fi
    for line in "$@"; do
        if ! grep -qxF -- "$line" "$tmp/$name.out"; then
            bad "$name: no line '$line' in: $(cat "$tmp/$name.out" "$tmp/$name.err")"
            return
        fi
    done
    ok "$name"
}

if build vecadd "$here/vecadd.cu" -cudart shared; then
    run vecadd
    check vecadd 0 $? "device: ptxsim GTX 480, 15 SMs, warp 32" "elapsed: positive" \
        "vecadd: 10000 elements, 0 wrong"
fi

if build constant "$here/constant.cu" -cudart shared; then
    run constant
    check constant 0 $? "constant: 0 wrong, sum ok, symbol address ok, table size 256"
fi

# A symbol copy leaves the L2 cold (GPGPU-Sim's cudaMemcpyToSymbol writes its functional
# memory only); a cudaMemcpy of the same bytes warms it: the kernel's constant reads miss
# the L2 in the first run only: one miss per 64-byte constant-cache line of the array (4).
if build symwarm "$here/symwarm.cu" -cudart shared; then
    run symwarm --mode timing --stats sym.json
    check symwarm 0 $? "symwarm: symbol, 0 wrong"
    SYMWARM_MEMCPY=1 run symwarm --mode timing --stats cpy.json
    rc=$?
    cp "$tmp/symwarm.out" "$tmp/symwarm_memcpy.out" && cp "$tmp/symwarm.err" "$tmp/symwarm_memcpy.err"
    check symwarm_memcpy 0 $rc "symwarm: memcpy, 0 wrong"
    if python3 - "$tmp/sym.json" "$tmp/cpy.json" <<'PYEOF'
import json, sys
m = [json.load(open(p))["kernels"][0]["timing"]["l2"]["misses"] for p in sys.argv[1:]]
assert m[0] == m[1] + 4, m
PYEOF
    then
        ok "symwarm: a symbol copy does not warm the L2"
    else
        bad "symwarm: L2 misses (symbol copy, cudaMemcpy) not four apart"
    fi
fi

if build managed "$here/managed.cu" -cudart shared; then
    run managed
    rc=$?
    check managed 0 $rc "managed: 0 wrong, hits 140"
    # Device printf lands between the host lines around the launch.
    if [ "$(head -n 3 "$tmp/managed.out" | tr '\n' '|')" = "host: before|device: v[3] = 9|host: after|" ]; then
        ok "managed: printf order"
    else
        bad "managed: printf order: $(cat "$tmp/managed.out")"
    fi
fi

if build oob "$here/oob.cu" -cudart shared; then
    run oob
    check oob 0 $? "sync: cudaErrorIllegalAddress" "sticky: cudaErrorIllegalAddress" \
        "after reset: cudaSuccess, 1"
    if grep -q "^ptxsim: .*out-of-bounds.*_Z4pokePii.*CTA (0,0,0), thread (0,0,0)" "$tmp/oob.err"; then
        ok "oob: fault message"
    else
        bad "oob: fault message: $(cat "$tmp/oob.err")"
    fi
fi

# With -lineinfo the PTX carries .loc, and the fault names the CUDA source line too
# (oob.cu line 9 is the store p[i] = 1).
if build oob_lineinfo "$here/oob.cu" -cudart shared -lineinfo; then
    run oob_lineinfo -o ptxsim_print_stats=0
    if grep -q "^ptxsim: .*out-of-bounds.*_Z4pokePii.*thread (0,0,0), source .*oob.cu:9$" \
        "$tmp/oob_lineinfo.err"; then
        ok "oob -lineinfo: fault message names oob.cu:9"
    else
        bad "oob -lineinfo: fault message: $(cat "$tmp/oob_lineinfo.err")"
    fi
fi

if build sample "$top/samples/vecadd.cu" -cudart shared; then
    run sample --stats stats.json
    check sample 0 $? "vecadd: 65536 elements, 0 wrong"
    if python3 - "$tmp/stats.json" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
assert list(s) == ["total", "kernels", "timing_total", "config"], list(s)
k = s["kernels"]
assert len(k) == 1 and k[0]["name"] == "_Z6vecaddPKfS0_Pfi", k
assert k[0]["grid"] == [256, 1, 1] and k[0]["block"] == [256, 1, 1], k
assert k[0]["cycles"] > 0 and k[0]["warp_insn"] > 0 and k[0]["thread_insn"] > 0, k
assert abs(k[0]["ipc"] - k[0]["thread_insn"] / k[0]["cycles"]) < 1e-3, k
assert s["total"]["kernels"] == 1 and s["total"]["cycles"] == k[0]["cycles"], s
t = k[0]["timing"]
assert t["cycles"] == k[0]["cycles"] and t["warp_insn"] == k[0]["warp_insn"], t
assert t["l1d"]["reads"] == 4096 and t["l1d"]["writes"] == 2048, t["l1d"]
assert t["dram"]["reads"] > 0 and 0 < t["dram"]["utilization"] <= 1, t["dram"]
assert s["config"]["gpgpu_n_clusters"] == 15 and s["config"]["gpgpu_scheduler"] == "gto"
EOF
    then
        ok "sample: --stats JSON (timing mode, the default)"
    else
        bad "sample: --stats JSON: $(cat "$tmp/stats.json" 2>&1)"
    fi
    run sample --mode functional --stats fstats.json
    check sample 0 $? "vecadd: 65536 elements, 0 wrong"
    if python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); assert list(s) == ["total", "kernels"], list(s)' "$tmp/fstats.json"; then
        ok "sample: --mode functional stats"
    else
        bad "sample: --mode functional stats: $(cat "$tmp/fstats.json" 2>&1)"
    fi
fi

# nvcc's default links cudart statically: it runs through libcuda.so.1 (docs/cuda-driver.md).
if build static "$top/samples/vecadd.cu"; then
    run static --mode functional
    check static 0 $? "vecadd: 65536 elements, 0 wrong"
fi

# Timing mode is deterministic: two runs give the same statistics (wall-clock figures aside).
if [ -x "$tmp/sample" ]; then
    run sample --mode timing --stats t1.json && run sample --mode timing --stats t2.json
    if python3 - "$tmp/t1.json" "$tmp/t2.json" <<'EOF'
import json, re, sys
def norm(p):
    return re.sub(r'"(wall_s|sim_rate)": [0-9.e+-]+', '', open(p).read())
assert norm(sys.argv[1]) == norm(sys.argv[2])
EOF
    then
        ok "--mode timing: identical statistics on a second run"
    else
        bad "--mode timing: statistics differ between runs"
    fi
    run sample -o gpgpu_n_cluster=3
    rc=$?
    if [ "$rc" -eq 2 ] && grep -q "did you mean '-gpgpu_n_clusters'" "$tmp/sample.err"; then
        ok "unknown option refused with a suggestion"
    else
        bad "unknown option: exit $rc: $(cat "$tmp/sample.err")"
    fi
fi

cat >"$tmp/graph.cu" <<'EOF'
#include <cstdio>
#include <cuda_runtime.h>
int main()
{
    cudaGraph_t g;
    cudaError_t e = cudaGraphCreate(&g, 0);
    printf("graph: %s, last %s\n", cudaGetErrorName(e), cudaGetErrorName(cudaGetLastError()));
    return 0;
}
EOF
if build graph "$tmp/graph.cu" -cudart shared; then
    run graph
    check graph 0 $? "graph: cudaErrorNotSupported, last cudaErrorNotSupported"
    if [ "$(grep -c "^ptxsim: cudaGraphCreate is not supported (CUDA graphs): it returns cudaErrorNotSupported and the program goes on$" "$tmp/graph.err")" = 1 ]; then
        ok "graph: message"
    else
        bad "graph: message: $(cat "$tmp/graph.err")"
    fi
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
