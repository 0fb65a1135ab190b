#!/bin/bash
# Sampled simulation (-ptxsim_sample, docs/timing.md "Sampled simulation"): builds
# tests/sample/many_ctas.cu (a 1800-CTA kernel with global atomics, then a one-CTA
# kernel) and runs it in timing mode with sampling on, checking that
#  - the program's results are exact (it checks every word against a host reference and
#    prints PASS) and its output is the same as the full run's;
#  - the many-CTA kernel's statistics have a `sampled` block with fewer detailed CTAs
#    than CTAs, detailed + functional = all CTAs, the estimate inside its interval, and the
#    thread instructions equal to the full run's (every CTA executes);
#  - the one-CTA kernel has no `sampled` block, nor does any kernel without the option;
#  - the sampled statistics are identical at 1 and 2 threads;
#  - a bad value and a conflicting option are refused with a message naming the option.
# Environment: PTXSIM, NVCC (skip, exit 77, when missing).
set -u
here="${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/sample"
if [ -z "${NVCC:-}" ] || ! command -v "$NVCC" >/dev/null 2>&1; then
    echo "SKIP: NVCC is not set or not found; the sampling test needs nvcc"
    exit 77
fi
if [ -z "${PTXSIM:-}" ] || [ ! -x "$PTXSIM" ] || ! command -v python3 >/dev/null 2>&1; then
    echo "FAIL: PTXSIM (the ptxsim binary) and python3 are needed"
    exit 1
fi
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
unset PTXSIM_CONFIG PTXSIM_OPTIONS PTXSIM_BUDGET PTXSIM_STATS PTXSIM_MODE
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxsim-sample.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
"$NVCC" -cudart shared -arch=sm_75 -O2 -o "$tmp/mc" "$here/many_ctas.cu" 2>"$tmp/nvcc.log" ||
    { cat "$tmp/nvcc.log"; echo "FAIL: nvcc"; exit 1; }
fail=0
run() { # NAME OPTS...
    local name=$1
    shift
    (cd "$tmp" && timeout 300 "$PTXSIM" run --config gtx480 --mode timing \
        -o ptxsim_print_stats=0 "$@" --stats "$tmp/$name.json" -- ./mc >"$tmp/$name.out" 2>"$tmp/$name.err")
}
run full -o ptxsim_threads=1 || { echo "FAIL: full run: $(tail -n 3 "$tmp/full.err")"; exit 1; }
# The kernel has 15 waves: one-wave windows (the default is two, sized for paper inputs)
# let the criterion look five times before the CTAs run out.
run s1 -o ptxsim_threads=1 -o ptxsim_sample=on,waves=1 || { echo "FAIL: sampled run: $(tail -n 3 "$tmp/s1.err")"; exit 1; }
run s2 -o ptxsim_threads=2 -o ptxsim_sample=on,waves=1 || { echo "FAIL: sampled run (2 threads)"; exit 1; }
if grep -q '^PASS' "$tmp/s1.out" && cmp -s "$tmp/full.out" "$tmp/s1.out"; then
    echo "PASS: results exact and the same as the full run's"
else
    echo "FAIL: results: $(cat "$tmp/s1.out")"
    fail=1
fi
python3 - "$tmp/full.json" "$tmp/s1.json" "$tmp/s2.json" <<'PY' || fail=1
import json, sys
full, s1, s2 = (json.load(open(p)) for p in sys.argv[1:])
def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k not in ("wall_s", "sim_rate", "config")}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x
bad = 0
def check(ok, what):
    global bad
    print(("PASS: " if ok else "FAIL: ") + what)
    bad += not ok
many, one = s1["kernels"][0]["timing"], s1["kernels"][1]["timing"]
fmany = full["kernels"][0]["timing"]
s = many.get("sampled")
check(s is not None, "the many-CTA kernel has a sampled block")
if s:
    check(0 < s["detailed_ctas"] < many["ctas"], "detailed CTAs %d < CTAs %d" % (s["detailed_ctas"], many["ctas"]))
    check(s["detailed_ctas"] + s["functional_ctas"] == many["ctas"] == 1800, "detailed + functional = 1800 CTAs")
    check(many["thread_insn"] == fmany["thread_insn"], "thread instructions exact")
    check(s["cycles_ci95"][0] <= many["cycles"] <= s["cycles_ci95"][1], "estimate inside its interval")
    err = abs(many["cycles"] / fmany["cycles"] - 1)
    check(err < 0.15, "cycles %d vs full %d (%.1f%% off)" % (many["cycles"], fmany["cycles"], 100 * err))
    check("sampled" in s1["timing_total"], "the total has a sampled block")
check("sampled" not in one, "the one-CTA kernel is not sampled")
check(all("sampled" not in k["timing"] for k in full["kernels"]) and "sampled" not in full["timing_total"],
      "no sampled block without the option")
check(strip(s1) == strip(s2), "sampled statistics identical at 1 and 2 threads")
sys.exit(1 if bad else 0)
PY
out=$("$PTXSIM" run --mode timing -o ptxsim_sample=k=1 -- "$tmp/mc" 2>&1)
case "$out" in
*"-ptxsim_sample 'k=1'"*) echo "PASS: a bad value is refused naming the option" ;;
*) echo "FAIL: bad value: $out"; fail=1 ;;
esac
out=$("$PTXSIM" run --mode timing -o ptxsim_sample=on -o ptxsim_l1d_trace="$tmp/t.bin" -- "$tmp/mc" 2>&1)
case "$out" in
*"-ptxsim_sample cannot be combined with -ptxsim_l1d_trace"*) echo "PASS: a conflicting option is refused" ;;
*) echo "FAIL: conflicting option: $out"; fail=1 ;;
esac
exit $fail
