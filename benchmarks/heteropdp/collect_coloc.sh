#!/bin/bash
# Collects HeteroPDP's co-located launch logs (docs/heteropdp.md, "Co-located
# training and evaluation"): for each co-runner CONFIG and SIZE, starts the
# synthetic co-runners (corunner.c) with their telemetry and work counters in
# a fresh directory, runs the 22 kernels on the CPU device (each relaunched for
# HPDP_REPEAT_S seconds, default 0.2, while kernels.c measures each
# co-runner's slowdown against a baseline window of the same length: cosd
# lines) and once on the simulated GPU (timing mode; its time is
# deterministic, the co-runners' DRAM telemetry slows the modelled transfer),
# then stops the co-runners. Repeated launches are compacted to one line per
# (app, kernel, sizes, device) holding the median times (reps=N). Each run's
# load average is written to LOG as a comment: this machine is shared, so the
# CPU times are noisy.
#
#   benchmarks/heteropdp/collect_coloc.sh LOG SIZES CONFIG...
#
# SIZES: comma-separated element counts. CONFIG: "none" (alone; app label
# "kernelset") or co-runners joined by "+", each CLASS:MB[:GBS] (corunner.c
# class, working set, optional bandwidth cap), e.g. mem:64, mem:64:1,
# cache:24, compute:1, mem:64+compute:1; its app label is "kernelset+CONFIG".
# Environment: top_builddir (default build/), CC, HPDP_REPEAT_S.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build="${top_builddir:-$top/build}"
log=$1 sizes=$2
shift 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxsim-hpdpco.XXXXXX")
pids=()
stop() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done; pids=(); }
trap 'stop; rm -rf "$tmp"' EXIT
mkdir -p "$tmp/vendors" "$tmp/pocl-cache"
echo "$build/runtime/opencl/.libs/libptxsim_ocl.so" >"$tmp/vendors/ptxsim.icd"
"${CC:-cc}" -std=gnu11 -O1 -o "$tmp/hk" "$top/benchmarks/heteropdp/kernels.c" -lOpenCL -lm
"${CC:-cc}" -std=gnu11 -O1 -o "$tmp/corunner" "$top/benchmarks/heteropdp/corunner.c"
export OCL_ICD_VENDORS="$tmp/vendors" POCL_CACHE_DIR="${POCL_CACHE_DIR:-$tmp/pocl-cache}"
unset PTXSIM_CONFIG PTXSIM_OPTIONS PTXSIM_STATS PTXSIM_HETEROPDP_MODELS PTXSIM_HETEROPDP_CORUNNERS
repeat=${HPDP_REPEAT_S:-0.2}

# Median kernel_s and time_s per (app, kernel, T, Buf, dev) of a raw log; cosd lines pass.
compact() {
    awk '/^cosd /  { print; next }
         /^launch / { key = ""; for (i = 2; i <= NF; i++) { split($i, kv, "=");
                          if (kv[1] == "app" || kv[1] == "kernel" || kv[1] == "T" || kv[1] == "Buf" || kv[1] == "dev") key = key " " $i;
                          if (kv[1] == "kernel_s") ks[key, ++n[key]] = kv[2] + 0;
                          if (kv[1] == "time_s") ts[key, n[key]] = kv[2] + 0 }
                      if (!(key in first)) { first[key] = $0; order[++nk] = key } }
         function median(a, k, c,   i, j, t, v) { for (i = 1; i <= c; i++) v[i] = a[k, i];
             for (i = 2; i <= c; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
             return c % 2 ? v[(c + 1) / 2] : (v[c / 2] + v[c / 2 + 1]) / 2 }
         END { for (o = 1; o <= nk; o++) { k = order[o]; line = first[k];
                 sub(/ kernel_s=[^ ]*/, sprintf(" kernel_s=%.9g", median(ks, k, n[k])), line);
                 sub(/ time_s=[^ ]*/, sprintf(" time_s=%.9g", median(ts, k, n[k])), line);
                 print line " reps=" n[k] } }' "$1"
}

for config in "$@"; do
    for n in ${sizes//,/ }; do
        dir="$tmp/co.$config.$n" app=kernelset
        mkdir -p "$dir"
        if [ "$config" != none ]; then
            app="kernelset+$config"
            IFS=+ read -ra cos <<<"$config"
            for co in "${cos[@]}"; do
                IFS=: read -r cls mb gbs <<<"$co"
                HPDP_GBS=${gbs:-0} "$tmp/corunner" "$cls" "$mb" 3600 "$dir" >/dev/null &
                pids+=($!)
            done
            sleep 0.5 # the first telemetry window
        fi
        echo "# collect_coloc: $config at $n, $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)" >>"$log"
        for dev in cpu gpu; do
            rm -f "$tmp/raw"
            env PTXSIM_HETEROPDP_LOG="$tmp/raw" PTXSIM_HETEROPDP_APP="$app" PTXSIM_MODE=timing \
                PTXSIM_HETEROPDP=$dev ${cos:+PTXSIM_HETEROPDP_CORUNNERS="$dir"} \
                HPDP_REPEAT_S=$([ $dev = cpu ] && echo "$repeat" || echo 0) \
                "$tmp/hk" "$top/benchmarks/heteropdp/kernels.cl" "$n" >"$tmp/out" 2>"$tmp/err" || {
                echo "collect_coloc: $config $dev at $n failed:" >&2
                grep BAD "$tmp/out" >&2 || true
                tail -5 "$tmp/err" >&2
                exit 1
            }
            compact "$tmp/raw" >>"$log"
        done
        stop
        unset cos
        echo "collect_coloc: $config at $n done"
    done
done
