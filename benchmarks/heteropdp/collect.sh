#!/bin/bash
# Collects HeteroPDP launch logs of the kernel set (docs/heteropdp.md): builds
# kernels.c, then for each size runs all 22 kernels on the GPU (timing mode,
# PTXSIM_HETEROPDP=gpu) and on the CPU device (PTXSIM_HETEROPDP=cpu), each
# launch logged to LOG. Every run must pass its own checks.
#
#   benchmarks/heteropdp/collect.sh LOG SIZE...
#
# Environment: top_builddir (default build/), CC.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build="${top_builddir:-$top/build}"
log=$1; shift
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxsim-hpdp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/vendors" "$tmp/pocl-cache"
echo "$build/runtime/opencl/.libs/libptxsim_ocl.so" >"$tmp/vendors/ptxsim.icd"
"${CC:-cc}" -std=gnu11 -O1 -o "$tmp/hpdp_kernels" "$top/benchmarks/heteropdp/kernels.c" -lOpenCL -lm
export OCL_ICD_VENDORS="$tmp/vendors" POCL_CACHE_DIR="${POCL_CACHE_DIR:-$tmp/pocl-cache}"
export PTXSIM_HETEROPDP_LOG="$log" PTXSIM_HETEROPDP_APP=kernelset
unset PTXSIM_CONFIG PTXSIM_OPTIONS PTXSIM_STATS PTXSIM_HETEROPDP_MODELS PTXSIM_HETEROPDP_CORUNNERS
for n in "$@"; do
    for dev in gpu cpu; do
        if ! PTXSIM_MODE=timing PTXSIM_HETEROPDP=$dev "$tmp/hpdp_kernels" \
            "$top/benchmarks/heteropdp/kernels.cl" "$n" >"$tmp/out" 2>"$tmp/err"; then
            echo "collect: $dev at $n failed:" >&2
            grep -v '^ok' "$tmp/out" | grep -E 'BAD' >&2 || true
            tail -5 "$tmp/err" >&2
            exit 1
        fi
        echo "collect: $dev at $n: $(grep -c ' ok ' "$tmp/out") kernels ok"
    done
done
