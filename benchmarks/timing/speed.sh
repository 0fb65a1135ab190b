#!/bin/bash
# Timing-mode simulation speed on the gtx480 configuration: a memory-bound program
# (vecadd_1m.cu, 1M-element vector add) and a compute-bound one (sgemm_256.cu, naive
# 256x256 SGEMM), the two programs issue 6 quotes GPGPU-Sim 4.2 figures for (0.41 and
# 0.74 million thread instructions per second on one core). Prints, per program, the
# simulated cycles and thread instructions, the kernel's wall time, and the rates
# (thread instructions and simulated cycles per second of wall time, one host core).
#
# Environment: PTXSIM (the ptxsim binary), NVCC, srcdir (top source dir).
set -eu
here="${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/benchmarks/timing"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-10s %12s %14s %9s %14s %14s\n' program cycles thread_insn wall_s thread_insn/s cycles/s
for p in vecadd_1m sgemm_256; do
    "$NVCC" -cudart shared -arch=sm_75 -O2 -o "$tmp/$p" "$here/$p.cu"
    (cd "$tmp" && "$PTXSIM" run --mode timing -o ptxsim_print_stats=0 \
        -o ptxsim_progress_interval=0 --stats "$p.json" -- "./$p" >/dev/null)
    python3 - "$tmp/$p.json" "$p" <<'PY'
import json, sys
k = json.load(open(sys.argv[1]))["kernels"][0]["timing"]
w = k["wall_s"]
print("%-10s %12d %14d %9.3f %14.0f %14.0f" % (sys.argv[2], k["cycles"], k["thread_insn"], w,
      k["thread_insn"] / w, k["cycles"] / w))
PY
done
