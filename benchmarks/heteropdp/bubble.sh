#!/bin/bash
# Bubble-up sensitivity curves (docs/heteropdp.md, "Bubble-up"; Mars et al.,
# MICRO'11): runs the co-runner VICTIM (a corunner.c class and size) alone,
# then beside a bubble of increasing pressure, and writes the slowdowns as
# bubble.txt lines (runtime/hpdp_models.h):
#   llc  MB   slowdown   bubble: random reads within MB megabytes (corunner cache MB)
#   dram GBS  slowdown   bubble: a stream capped at GBS (HPDP_GBS=GBS corunner mem 256)
#
#   benchmarks/heteropdp/bubble.sh OUT VICTIM_CLASS VICTIM_MB [SECONDS]
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$1 vclass=$2 vmb=$3 secs=${4:-2}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxsim-bubble.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"${CC:-cc}" -std=gnu11 -O1 -o "$tmp/corunner" "$top/benchmarks/heteropdp/corunner.c"
rate() { awk '{print $3}' "$1"; }
"$tmp/corunner" "$vclass" "$vmb" "$secs" - >"$tmp/alone"
alone=$(rate "$tmp/alone")
echo "# ptxsim-heteropdp-bubble 1" >"$out"
echo "# victim: corunner $vclass $vmb MB, alone $alone units/s, ${secs}s per point" >>"$out"
for mb in 1 4 16 64; do
    "$tmp/corunner" cache "$mb" "$secs" - >/dev/null &
    "$tmp/corunner" "$vclass" "$vmb" "$secs" - >"$tmp/v"
    wait
    echo "llc $mb $(awk -v a="$alone" -v b="$(rate "$tmp/v")" 'BEGIN { s = a / b; print (s < 1 ? 1 : s) }')" >>"$out"
done
for gbs in 1 2 4 8; do
    HPDP_GBS=$gbs "$tmp/corunner" mem 256 "$secs" - >/dev/null &
    "$tmp/corunner" "$vclass" "$vmb" "$secs" - >"$tmp/v"
    wait
    echo "dram $gbs $(awk -v a="$alone" -v b="$(rate "$tmp/v")" 'BEGIN { s = a / b; print (s < 1 ? 1 : s) }')" >>"$out"
done
