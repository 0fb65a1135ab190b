#!/bin/bash
# `ptxsim heteropdp train` and `report` end to end on a synthetic launch log
# whose times are exact interaction-term functions of the features: the fit
# must be exact (R^2 1, k-fold R^2 1), every device choice must match the
# oracle, the report's files must exist, and bad use must fail with status 2.
# Then the trained models drive the policy (PTXSIM_HETEROPDP=alone) on the
# held-out kernel-set program (benchmarks/heteropdp/kernels.c) in functional
# mode: it must pass its own checks, log a prediction for every launch, and
# run each kernel on the device the models favour (CPU when PoCL is there); with a
# co-runner in the telemetry, PTXSIM_HETEROPDP=fair must log fairness and pick the fairer GPU,
# and use the co-runner's class curves, deterministically. The co-located smoke path: a
# synthetic log beside one (and two) co-runners, whose co-located report (coloc.md) must
# have its fields and be exact.
# Environment (AM_TESTS_ENVIRONMENT): top_builddir, srcdir, CC.
set -u
top="${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}"
build="${top_builddir:-$top/build}"
ptxsim="$build/ptxsim"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxsim-hpdpverb.XXXXXX") || exit 1
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $1"; fail=1; }

# 24 kernels x 5 sizes on both devices; cpu = 1e-9*T*sALU + 3e-6*vMEM + 2e-7*sMEM*BRANCH,
# gpu = 2e-10*T*MEM + 1e-6*SFU + 5e-11*Buf (plus the modelled transfer in time_s)
awk 'BEGIN {
    for (k = 0; k < 24; k++) for (s = 0; s < 5; s++) {
        T = 1024 * 2 ^ s; buf = 12 * T; xfer = 8 * T;
        c0 = k % 5 + 1; c1 = k % 3 + 1; c2 = k % 2; c3 = k % 4; c4 = k % 3; c5 = (k + 1) % 2;
        g0 = k % 4 + 1; g1 = k % 5 + 1; g2 = k % 3; g3 = (k * 7) % 6; g4 = k % 3 + 1; g5 = k % 2;
        tc = 1e-9 * T * c0 + 3e-6 * c3 + 1e-11 * T * c2 * 0 + 2e-7 * c1 * c4;
        tg = 2e-10 * T * g0 + 1e-6 * g3 + 5e-11 * buf;
        xs = xfer / 15.754e9;
        f = "T=%d Buf=%d Xfer=%d g=%d,%d,%d,%d,%d,%d c=%d,%d,%d,%d,%d,%d havec=1 nco=0 llc=0 dram=0";
        printf("launch seq=%d app=syn kernel=k%d dev=cpu rc=0 " f " kernel_s=%.17g xfer_s=0 time_s=%.17g\n",
               2 * (k * 5 + s), k, T, buf, xfer, g0, g1, g2, g3, g4, g5, c0, c1, c2, c3, c4, c5, tc, tc);
        printf("launch seq=%d app=syn kernel=k%d dev=gpu rc=0 " f " kernel_s=%.17g xfer_s=%.17g time_s=%.17g\n",
               2 * (k * 5 + s) + 1, k, T, buf, xfer, g0, g1, g2, g3, g4, g5, c0, c1, c2, c3, c4, c5, tg, xs, tg + xs);
    } }' >"$tmp/syn.log"

# The same kernels beside synthetic co-runners (app syn+CONFIG): the CPU time grows with
# T x LLC misses (a term of the 55-term model), the GPU's simulated time does not, its
# transfer slows with the co-runners' DRAM bandwidth (5.8 D); cosd lines give the co-runners'
# measured slowdowns on the CPU side, exactly their class's LLC curve (bubble.txt below) at
# the kernel's pressure. One co-runner (mem) for every kernel and size; two (mem, compute)
# for six kernels at the smallest size: the report must be exact (100%) at every weight.
awk 'function cosd(app, k, T, buf, sd) {
        printf("cosd app=%s kernel=k%d dev=cpu T=%d Buf=%d launches=9 sd=%s\n", app, k, T, buf, sd) }
     BEGIN {
    for (k = 0; k < 24; k++) for (s = 0; s < 5; s++) for (two = 0; two < 2; two++) {
        if (two && (k >= 6 || s > 0)) continue;
        T = 1024 * 2 ^ s; buf = 12 * T; xfer = 8 * T;
        c0 = k % 5 + 1; c1 = k % 3 + 1; c2 = k % 2; c3 = k % 4; c4 = k % 3; c5 = (k + 1) % 2;
        g0 = k % 4 + 1; g1 = k % 5 + 1; g2 = k % 3; g3 = (k * 7) % 6; g4 = k % 3 + 1; g5 = k % 2;
        llc = 50 * (1 + (k + s) % 4) + 30 * two; dram = 1 + (k * s) % 5 + 2 * two;
        tc = 1e-9 * T * c0 + 3e-6 * c3 + 2e-7 * c1 * c4 + 2e-12 * T * llc;
        tg = 2e-10 * T * g0 + 1e-6 * g3 + 5e-11 * buf;
        bw = 22 - dram; if (bw > 15.754) bw = 15.754; xs = xfer / (bw * 1e9);
        app = two ? "syn+mem+compute" : "syn+mem"; co = two ? "mem,compute" : "mem";
        f = "T=%d Buf=%d Xfer=%d g=%d,%d,%d,%d,%d,%d c=%d,%d,%d,%d,%d,%d havec=1 nco=%d llc=%.17g dram=%.17g";
        printf("launch seq=0 app=%s kernel=k%d dev=cpu rc=0 " f " kernel_s=%.17g xfer_s=0 time_s=%.17g co=%s\n",
               app, k, T, buf, xfer, g0, g1, g2, g3, g4, g5, c0, c1, c2, c3, c4, c5, 1 + two, llc, dram, tc, tc, co);
        printf("launch seq=1 app=%s kernel=k%d dev=gpu rc=0 " f " kernel_s=%.17g xfer_s=%.17g time_s=%.17g co=%s\n",
               app, k, T, buf, xfer, g0, g1, g2, g3, g4, g5, c0, c1, c2, c3, c4, c5, 1 + two, llc, dram, tg, xs, tg + xs, co);
        p = buf / 1e6; sd = sprintf("%.17g", 1 + p / 100);
        if (two) sd = sd sprintf(",%.17g", 1 + 0.5 * p / 100);
        cosd(app, k, T, buf, sd);
    } }' >"$tmp/coloc.log"
"$ptxsim" heteropdp train --out "$tmp/models" --k 4 "$tmp/syn.log" "$tmp/coloc.log" || bad "train failed"
grep -q '^cpu_coloc  samples  126 terms 55 R2 1.0000 kfold(4) R2 1.0000' "$tmp/models/train.txt" ||
    bad "cpu_coloc fit not exact: $(cat "$tmp/models/train.txt")"
printf '# ptxsim-heteropdp-bubble 1\nllc 100 2 mem\ndram 100 3 mem\nllc 100 1.5 compute\ndram 100 1.2 compute\n' \
    >"$tmp/models/bubble.txt"
"$ptxsim" heteropdp report --models "$tmp/models" --out "$tmp/creport" "$tmp/syn.log" "$tmp/coloc.log" ||
    bad "co-located report failed"
cm="$tmp/creport/coloc.md"
grep -q '^## One co-runner: 120 workloads' "$cm" || bad "coloc.md: $(head -20 "$cm")"
grep -q '^## Two co-runners, same models (no retraining): 6 workloads' "$cm" || bad "coloc.md lacks the two-co-runner group"
grep -q '^## One co-runner, best-alone reference: 120 workloads' "$cm" || bad "coloc.md lacks the best-alone reference"
[ "$(grep -c 'accuracy (max fairness, weight 1): \*\*100.0%\*\*' "$cm")" = 4 ] || bad "co-located accuracy not exact"
for wt in 0.5 1.0 1.5 2.0 2.5; do
    [ "$(grep -c "^| $wt | .* | 100.0% |\$" "$cm")" = 4 ] || bad "coloc.md: weight $wt row missing or inexact"
done
grep -q '^| cpu_coloc | 126 | 100.0% |' "$cm" || bad "coloc.md: cpu_coloc error row"
grep -q 'Co-located evaluation (126 workloads): coloc.md' "$tmp/creport/summary.md" || bad "summary.md does not point to coloc.md"
[ "$(wc -l <"$tmp/creport/coloc_workloads.csv")" = 127 ] || bad "coloc_workloads.csv has $(wc -l <"$tmp/creport/coloc_workloads.csv") lines"
grep -q '^gpu_coloc,126,1.000000,' "$tmp/creport/coloc_error_cdf.csv" || bad "coloc_error_cdf.csv lacks gpu_coloc"
[ -s "$tmp/creport/fairness.svg" ] || bad "the co-located report lacks fairness.svg"
rm -f "$tmp/models/bubble.txt" "$tmp/models/train.txt"
"$ptxsim" heteropdp train --out "$tmp/models" --k 4 "$tmp/syn.log" || bad "train failed"
grep -q '^cpu_alone  samples  120 terms 36 R2 1.0000 kfold(4) R2 1.0000' "$tmp/models/train.txt" ||
    bad "cpu_alone fit not exact: $(cat "$tmp/models/train.txt")"
grep -q '^gpu_alone  samples  120 terms 36 R2 1.0000 kfold(4) R2 1.0000' "$tmp/models/train.txt" ||
    bad "gpu_alone fit not exact: $(cat "$tmp/models/train.txt")"
grep -q '^cpu_coloc .*not trained' "$tmp/models/train.txt" || bad "cpu_coloc trained from no samples"
"$ptxsim" heteropdp report --models "$tmp/models" --out "$tmp/report" "$tmp/syn.log" || bad "report failed"
grep -q 'accuracy: \*\*100.0%\*\*' "$tmp/report/summary.md" || bad "accuracy: $(cat "$tmp/report/summary.md")"
for f in workloads.csv error_cdf.csv speedup.svg error_cdf.svg; do
    [ -s "$tmp/report/$f" ] || bad "report lacks $f"
done
[ "$(wc -l <"$tmp/report/workloads.csv")" = 121 ] || bad "workloads.csv has $(wc -l <"$tmp/report/workloads.csv") lines"
"$ptxsim" heteropdp train "$tmp/syn.log" 2>/dev/null; [ $? = 2 ] || bad "train without --out is not a usage error"
"$ptxsim" heteropdp report --out "$tmp/r2" "$tmp/syn.log" 2>/dev/null; [ $? = 2 ] || bad "report without --models is not a usage error"
"$ptxsim" heteropdp train --out "$tmp/m2" "$tmp/nothing.log" 2>/dev/null; [ $? = 1 ] || bad "a missing log is not an error"

# The policy on the held-out program: models that favour the CPU for the kernels without SFU work.
icd="$build/runtime/opencl/.libs/libptxsim_ocl.so"
if [ -f "$icd" ] && "${CC:-cc}" -std=gnu11 -O1 -o "$tmp/hk" "$top/benchmarks/heteropdp/kernels.c" -lOpenCL -lm; then
    mkdir -p "$tmp/vendors" "$tmp/pm" "$tmp/pocl-cache"
    echo "$icd" >"$tmp/vendors/ptxsim.icd"
    # A sanitizer build's ICD needs the ASan runtime loaded first (as tests/opencl/run.sh does);
    # PoCL's and the program's own leaks are not ptxsim's.
    asan=$(ldd "$icd" 2>/dev/null | awk '/libasan\.so/ { print $3; exit }')
    if [ -n "$asan" ]; then
        export LD_PRELOAD="$asan${LD_PRELOAD:+:$LD_PRELOAD}"
        export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
    fi
    {
        echo "# ptxsim-heteropdp-models 1"
        for m in cpu_alone gpu_alone; do
            echo "model $m 8"
            awk -v m="$m" 'BEGIN { n = 8; for (i = 0; i < n; i++) { c = 0;
                    if (m == "cpu_alone" && i == 0) c = 1e-9;        # T
                    if (m == "gpu_alone" && i == 0) c = 2e-9;        # T
                    if (m == "gpu_alone" && i == 4) c = -1;          # SFU instructions
                    print "term", i, i, c }
                for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) print "term", i, j, 0 }'
        done
    } >"$tmp/pm/models.txt"
    if PTXSIM_MODE=functional PTXSIM_HETEROPDP=alone PTXSIM_HETEROPDP_MODELS="$tmp/pm" \
        PTXSIM_HETEROPDP_LOG="$tmp/policy.log" OCL_ICD_VENDORS="$tmp/vendors" POCL_CACHE_DIR="$tmp/pocl-cache" \
        "$tmp/hk" "$top/benchmarks/heteropdp/kernels.cl" 1024 vadd nbody bsm copy >"$tmp/hk.out" 2>"$tmp/hk.err"; then
        n=$(grep -c 'ta_cpu=' "$tmp/policy.log")
        [ "$n" = 4 ] || bad "the policy logged $n predictions, want 4"
        if [ -f /etc/OpenCL/vendors/pocl.icd ]; then
            grep -q 'kernel=vadd dev=cpu' "$tmp/policy.log" || bad "vadd did not move to the CPU device"
            grep -q 'kernel=copy dev=cpu' "$tmp/policy.log" || bad "copy did not move to the CPU device"
        fi
        grep -q "kernel=nbody dev=gpu" "$tmp/policy.log" || bad "nbody did not stay on the GPU"
        grep -q 'kernel=bsm dev=gpu' "$tmp/policy.log" || bad "bsm did not stay on the GPU"
    else
        bad "kernel set under the policy failed: $(cat "$tmp/hk.out" "$tmp/hk.err" | tail -5)"
    fi
    # Max fairness beside one (modelled) co-runner, weight 2.5: its telemetry names this
    # shell's pid; the Bubble-up curves make the CPU placement hurt it more than the GPU's.
    mkdir -p "$tmp/co"
    echo "corunner-mem mem 2.5 4 30" >"$tmp/co/$$.corunner"
    printf '# ptxsim-heteropdp-bubble 1\nllc 0.001 3\nllc 1 4\ndram 1 1.05\ndram 10 1.2\n' >"$tmp/pm/bubble.txt"
    if PTXSIM_MODE=functional PTXSIM_HETEROPDP=fair PTXSIM_HETEROPDP_MODELS="$tmp/pm" \
        PTXSIM_HETEROPDP_CORUNNERS="$tmp/co" PTXSIM_HETEROPDP_LOG="$tmp/fair.log" \
        OCL_ICD_VENDORS="$tmp/vendors" POCL_CACHE_DIR="$tmp/pocl-cache" \
        "$tmp/hk" "$top/benchmarks/heteropdp/kernels.cl" 1024 vadd copy >"$tmp/hk.out" 2>"$tmp/hk.err"; then
        [ "$(grep -c 'nco=1 .* f_cpu=' "$tmp/fair.log")" = 2 ] || bad "fair: no fairness logged: $(cat "$tmp/fair.log")"
        grep -q 'kernel=vadd dev=gpu' "$tmp/fair.log" || bad "fair: vadd did not go to the GPU, which is fairer to the co-runner"
    else
        bad "kernel set under the fair policy failed: $(cat "$tmp/hk.out" "$tmp/hk.err" | tail -5)"
    fi
    # The co-runner's own class curves: a compute-bound one (weight 1) loses nothing to the CPU placement,
    # so the kernel goes where its own slowdown is smaller (the CPU: the GPU's transfer slows).
    # Twice, for identical decisions and predicted values.
    echo "corunner-compute compute 1 4 30" >"$tmp/co/$$.corunner"
    printf 'llc 1 1 compute\ndram 1 1 compute\n' >>"$tmp/pm/bubble.txt"
    for r in 1 2; do
        PTXSIM_MODE=functional PTXSIM_HETEROPDP=fair PTXSIM_HETEROPDP_MODELS="$tmp/pm" \
            PTXSIM_HETEROPDP_CORUNNERS="$tmp/co" PTXSIM_HETEROPDP_LOG="$tmp/class$r.log" \
            OCL_ICD_VENDORS="$tmp/vendors" POCL_CACHE_DIR="$tmp/pocl-cache" \
            "$tmp/hk" "$top/benchmarks/heteropdp/kernels.cl" 1024 vadd copy >"$tmp/hk.out" 2>"$tmp/hk.err" ||
            bad "kernel set beside a compute co-runner failed: $(tail -5 "$tmp/hk.err")"
        grep -o 'kernel=[a-z]* dev=[a-z]*\|ta_cpu=.*' "$tmp/class$r.log" >"$tmp/class$r.dec"
    done
    [ "$(grep -c 'co=compute .*sd_cpu=1,\? *sd_gpu=1' "$tmp/class1.log")" = 2 ] ||
        bad "compute class: curves not used: $(cat "$tmp/class1.log")"
    if [ -f /etc/OpenCL/vendors/pocl.icd ]; then
        grep -q 'kernel=vadd dev=cpu' "$tmp/class1.log" || bad "compute class: vadd did not go to the CPU"
    fi
    cmp -s "$tmp/class1.dec" "$tmp/class2.dec" || bad "fair decisions differ between identical runs"
fi
[ "$fail" = 0 ] && echo "PASS: heteropdp train, report and policy"
exit "$fail"
