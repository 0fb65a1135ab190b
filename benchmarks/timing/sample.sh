#!/bin/bash
# Sampled simulation (-ptxsim_sample, docs/timing.md "Sampled simulation"): for each
# workload runs gtx480 timing in full and sampled, and prints the kernels sampled, the
# CTAs timed in detail, the total simulated cycles of both runs and the sampled run's
# cycle error, the error over the sampled kernels alone (the others are simulated in
# full either way), whether the full run's cycles of those kernels fall inside the
# summed 95% confidence interval, the wall and CPU times and the speedups, and whether the
# program's output is the same (it must be: every CTA still executes).
#
# Environment: PTXSIM (default ./ptxsim), top_builddir; WORKLOADS_BIN (default
# $top_builddir/benchmarks/workloads/bin, `make workloads`); BENCH_SAMPLE_WORKLOADS
# (default: the workloads whose `small` kernels have enough CTAs for sampling to engage),
# BENCH_SIZE (default small), SAMPLE_SPEC (default on), THREADS (-ptxsim_threads, default
# 1), TIMEOUT (seconds per run, default 3600). Measure on an idle machine.
set -u
bin="${WORKLOADS_BIN:-${top_builddir:-.}/benchmarks/workloads/bin}"
ps="${PTXSIM:-${top_builddir:-.}/ptxsim}"
size="${BENCH_SIZE:-small}"
spec="${SAMPLE_SPEC:-on}"
threads="${THREADS:-1}"
list="${BENCH_SAMPLE_WORKLOADS:-sgemm hotspot srad scan transpose pathfinder}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run NAME EXE OPTS...: one timing run; its wall and user+system CPU seconds go to $tmp/NAME.wall
# (on a loaded machine the CPU time is the fairer measure of the simulator's work).
run() {
    local name=$1 exe=$2
    shift 2
    /usr/bin/time -f "%e %U %S" -o "$tmp/$name.time" timeout "${TIMEOUT:-3600}" "$ps" run \
        --config gtx480 --mode timing -o ptxsim_print_stats=0 -o ptxsim_threads="$threads" "$@" \
        --stats "$tmp/$name.json" -- "$exe" "$size" >"$tmp/$name.out" 2>"$tmp/$name.err"
    local rc=$?
    awk '{printf "%.2f %.2f", $1, $2 + $3}' "$tmp/$name.time" >"$tmp/$name.wall"
    return $rc
}

echo "size $size, -ptxsim_sample $spec, -ptxsim_threads $threads; load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-12s %7s %11s %12s %12s %7s %9s %5s %8s %8s %7s %8s %8s %7s %4s\n' workload sampled \
    timed_ctas full_cycles est_cycles err% kern_err% inCI full_s smp_s speedup \
    full_cpu smp_cpu cpu_x out
for w in $list; do
    if [ ! -x "$bin/$w" ]; then
        echo "($w: not built; make workloads)"
        continue
    fi
    if ! run "$w.full" "$bin/$w" -o ptxsim_sample=off || ! run "$w.smp" "$bin/$w" -o ptxsim_sample="$spec"; then
        echo "$w: a run failed ($(tail -n 1 "$tmp/$w.full.err" "$tmp/$w.smp.err" 2>/dev/null | tr '\n' ' '))"
        continue
    fi
    same=no
    cmp -s "$tmp/$w.full.out" "$tmp/$w.smp.out" && same=yes
    python3 - "$tmp/$w.full.json" "$tmp/$w.smp.json" "$(cat "$tmp/$w.full.wall")" \
        "$(cat "$tmp/$w.smp.wall")" "$w" "$same" <<'PY'
import json, sys
full, smp = (json.load(open(p)) for p in sys.argv[1:3])
(wf, uf), (ws, us) = (map(float, a.split()) for a in sys.argv[3:5])
kf, ks = full["kernels"], smp["kernels"]
cf, cs = full["timing_total"]["cycles"], smp["timing_total"]["cycles"]
sk = [i for i, k in enumerate(ks) if "sampled" in k["timing"]]
timed = sum(ks[i]["timing"]["sampled"]["detailed_ctas"] for i in sk)
ctas = sum(ks[i]["timing"]["ctas"] for i in sk)
kfull = sum(kf[i]["timing"]["cycles"] for i in sk)
kest = sum(ks[i]["timing"]["cycles"] for i in sk)
half = sum((ks[i]["timing"]["sampled"]["cycles_ci95"][1] - ks[i]["timing"]["cycles"]) ** 2
           for i in sk) ** 0.5
kerr = "%.2f" % (100.0 * (kest / kfull - 1)) if sk else "-"
inci = ("yes" if abs(kest - kfull) <= half else "no") if sk else "-"
print("%-12s %7s %11s %12d %12d %7.2f %9s %5s %8.2f %8.2f %6.2fx %8.2f %8.2f %6.2fx %4s" % (
    sys.argv[5], "%d/%d" % (len(sk), len(ks)), "%d/%d" % (timed, ctas) if sk else "-", cf, cs,
    100.0 * (cs / cf - 1), kerr, inci, wf, ws, wf / ws if ws else 0, uf, us,
    uf / us if us else 0, sys.argv[6]))
PY
done
