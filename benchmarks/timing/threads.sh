#!/bin/bash
# Parallel timing simulation speed (-ptxsim_threads, docs/timing.md "Parallel
# simulation"), one command for the whole measurement: for a memory-bound program
# (vecadd_1m.cu), a compute-bound one (sgemm_256.cu), a one-CTA kernel (one_cta.cu: one
# SM busy, where threads must cost nothing) and two workloads at size `paper` (default
# aes, compute-bound with all 15 SMs full, and hotspot; needs `make workloads`), runs
# gtx480 timing at 1, 2 and all
# threads (the processors available) and prints, per run, the simulated cycles, thread
# instructions, the kernels' wall time and user CPU time, thread instructions and
# simulated cycles per second of wall time, the speedup over 1 thread and the parallel
# efficiency (speedup / threads). It also checks that the statistics are identical at
# every thread count (wall-clock fields aside) and says so.
#
# Measure on an idle machine: on a loaded one the threads wait for cores, and each run
# is taken once (REPEAT=n takes the best of n).
# Environment: PTXSIM, NVCC, srcdir, top_builddir; BENCH_WORKLOADS (default
# "aes hotspot"), BENCH_SIZE (default paper), REPEAT (default 1), THREADS_ALL
# (default: nproc).
set -u
here="${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/benchmarks/timing"
bin="${WORKLOADS_BIN:-${top_builddir:-.}/benchmarks/workloads/bin}"
size="${BENCH_SIZE:-paper}"
all="${THREADS_ALL:-$(nproc 2>/dev/null || echo 2)}"
repeat="${REPEAT:-1}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
progs=()
for p in vecadd_1m sgemm_256 one_cta; do
    "$NVCC" -cudart shared -arch=sm_75 -O2 -o "$tmp/$p" "$here/$p.cu" && progs+=("$tmp/$p|$p|")
done
for w in ${BENCH_WORKLOADS:-aes hotspot}; do
    if [ -x "$bin/$w" ]; then progs+=("$bin/$w|$w.$size|$size"); else
        echo "($w: not built, make workloads)"; fi
done
counts="1 2"
[ "$all" -gt 2 ] && counts="$counts $all"
echo "host: $(nproc) processors, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-16s %3s %12s %14s %8s %8s %13s %12s %7s %5s\n' program thr cycles thread_insn \
    wall_s user_s thread_insn/s cycles/s speedup eff
for e in "${progs[@]}"; do
    IFS='|' read -r exe name arg <<<"$e"
    for t in $counts; do
        best=""
        for r in $(seq "$repeat"); do
            (cd "$tmp" && /usr/bin/time -f %U -o "$tmp/user" "$PTXSIM" run --config gtx480 \
                --mode timing -o ptxsim_print_stats=0 -o ptxsim_progress_interval=0 \
                -o ptxsim_threads=$t --stats "$tmp/$t.$r.json" -- "$exe" $arg >/dev/null)
            u=$(tail -1 "$tmp/user")
            best=$(python3 - "$tmp/$t.$r.json" "$u" "$best" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["total"]
cur = (t["wall_s"], float(sys.argv[2]), sys.argv[1])
prev = sys.argv[3].split() if sys.argv[3] else None
print(*(cur if not prev or cur[0] < float(prev[0]) else prev))
PY
)
        done
        read -r _ u js <<<"$best"
        cp "$js" "$tmp/$t.json"
        python3 - "$tmp/$t.json" "$tmp/1.json" "$name" "$t" "$u" <<'PY'
import json, sys
def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k not in ("wall_s", "sim_rate", "config")}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x
d, d1 = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
t, t1 = d["total"], d1["total"]
n = int(sys.argv[4])
sp = t1["wall_s"] / t["wall_s"]
same = "" if strip(d) == strip(d1) else "  STATISTICS DIFFER FROM 1 THREAD"
print("%-16s %3d %12d %14d %8.2f %8.2f %13.0f %12.0f %7.2f %5.2f%s" % (
    sys.argv[3], n, t["cycles"], t["thread_insn"], t["wall_s"], float(sys.argv[5]),
    t["thread_insn"] / t["wall_s"], t["cycles"] / t["wall_s"], sp, sp / n, same))
PY
    done
done
