#!/bin/bash
# Bubble-up sensitivity curves per co-runner class (docs/heteropdp.md,
# "Bubble-up"; Mars et al., MICRO'11): runs each VICTIM (a corunner.c class
# and size) alone, then beside a bubble of increasing pressure, and writes the
# slowdowns as bubble.txt lines tagged with the victim's class
# (runtime/hpdp_models.h):
#   llc  MB   slowdown CLASS   bubble: random reads within MB megabytes (corunner cache MB)
#   dram GBS  slowdown CLASS   bubble: a stream capped at GBS (HPDP_GBS=GBS corunner mem 256)
# The first victim's curves are also written untagged: the shared curves that
# serve a co-runner of a class with none of its own. The load average is
# recorded in the header: on a shared 2-core machine every bubble also takes
# a core from the victim, which the curves include, and the other jobs' load
# drifts, so the victim's alone rate is measured again right before each point.
#
#   benchmarks/heteropdp/bubble.sh OUT SECONDS CLASS:MB [CLASS:MB...]
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$1 secs=$2
bsecs=$(awk -v s="$secs" 'BEGIN { print s + 1 }') # the bubble outlasts the victim
shift 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxsim-bubble.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"${CC:-cc}" -std=gnu11 -O1 -o "$tmp/corunner" "$top/benchmarks/heteropdp/corunner.c"
rate() { awk '{print $3}' "$1"; }
slow() { awk -v a="$1" -v b="$(rate "$2")" 'BEGIN { s = a / b; print (s < 1 ? 1 : s) }'; }
{
    echo "# ptxsim-heteropdp-bubble 1"
    echo "# victims: $*; ${secs}s per point; $(date -u +%FT%TZ); load: $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$out"
first=1
for victim in "$@"; do
    vclass=${victim%%:*} vmb=${victim#*:}
    alone() { "$tmp/corunner" "$vclass" "$vmb" "$secs" - >"$tmp/alone"; rate "$tmp/alone"; }
    echo "# victim $vclass $vmb MB: alone $(alone) units/s" >>"$out"
    for mb in 1 4 16 64; do
        a=$(alone)
        "$tmp/corunner" cache "$mb" "$bsecs" - >/dev/null &
        sleep 0.5 # the bubble touches its pages first
        "$tmp/corunner" "$vclass" "$vmb" "$secs" - >"$tmp/v"
        wait
        s=$(slow "$a" "$tmp/v")
        [ $first = 1 ] && echo "llc $mb $s" >>"$tmp/shared"
        echo "llc $mb $s $vclass" >>"$out"
    done
    for gbs in 1 2 4 8; do
        a=$(alone)
        HPDP_GBS=$gbs "$tmp/corunner" mem 256 "$bsecs" - >/dev/null &
        sleep 0.5
        "$tmp/corunner" "$vclass" "$vmb" "$secs" - >"$tmp/v"
        wait
        s=$(slow "$a" "$tmp/v")
        [ $first = 1 ] && echo "dram $gbs $s" >>"$tmp/shared"
        echo "dram $gbs $s $vclass" >>"$out"
    done
    first=0
done
cat "$tmp/shared" >>"$out"
