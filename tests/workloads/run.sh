#!/bin/bash
# The workload suite (benchmarks/workloads/, docs/workloads.md) as a test:
#  1. builds every workload with benchmarks/workloads/build.sh into
#     $top_builddir/benchmarks/workloads/bin (incremental, the same place `make workloads`
#     builds to); a workload that does not build fails;
#  2. runs each program at size `test` under `ptxsim run --mode functional` and
#     `--mode timing`, in parallel; a program passes when both runs exit 0 within the time
#     limit, print "PASS <name> test", and their stdouts are identical;
#  3. checks `ptxsim sweep` end to end on the two quickest passing CUDA workloads with two
#     scheduler variants (gto, lrr): 4 passing total rows in results.csv, summary.md and the
#     three SVG charts; a second identical sweep must reuse every run and write the same
#     results.csv.
#
# Environment (from AM_TESTS_ENVIRONMENT): PTXSIM, NVCC (skip, exit 77, when unset or
# missing), CC, srcdir, top_builddir. Optional: WORKLOADS_TEST_JOBS (parallel builds and
# runs; default nproc), WORKLOADS_TEST_TIMEOUT (seconds per run; default 120),
# WORKLOADS_TEST_MODES (default "functional timing"), WORKLOADS_TEST_KEEP=1 (keep the
# run directory), WORKLOADS_TEST_SWEEP=0 (skip step 3), WORKLOADS_BIN (binary directory).
# Arguments: program names to run only those (e.g. `run.sh bfs bfs_ocl`).
# Prints one line per program, the time taken and a final line "N passed, M failed";
# exits 1 if anything failed.

set -u
# As in tests/cuda/run.sh: the programs' own unfreed host arrays are not ptxsim's leaks.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
unset PTXSIM_CONFIG PTXSIM_OPTIONS PTXSIM_BUDGET PTXSIM_STATS PTXSIM_MODE

top_src="${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}"
builddir="${top_builddir:-$(pwd)}"
bin="${WORKLOADS_BIN:-$builddir/benchmarks/workloads/bin}"
jobs="${WORKLOADS_TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}"
limit="${WORKLOADS_TEST_TIMEOUT:-120}"
modes="${WORKLOADS_TEST_MODES:-functional timing}"

if [ -z "${NVCC:-}" ] || ! command -v "$NVCC" >/dev/null 2>&1; then
    echo "SKIP: NVCC is not set or not found (NVCC='${NVCC:-}'); the workloads need nvcc"
    exit 77
fi
if [ -z "${PTXSIM:-}" ] || [ ! -x "$PTXSIM" ]; then
    echo "run.sh: PTXSIM is not set to the ptxsim binary (PTXSIM='${PTXSIM:-}')" >&2
    exit 1
fi

t_start=$(date +%s)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxsim-wl.XXXXXX") || exit 1
if [ "${WORKLOADS_TEST_KEEP:-0}" = 1 ]; then
    echo "run directory: $tmp"
else
    trap 'rm -rf "$tmp"' EXIT
fi
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "PASS: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
show() { sed -n '1,15p' "$1" | sed 's/^/    /'; }

# ---- 1. build ---------------------------------------------------------------------------------
NVCC="$NVCC" CC="${CC:-cc}" bash "$top_src/benchmarks/workloads/build.sh" -q -j "$jobs" \
    "$top_src" "$bin" "$@" >"$tmp/build.log" 2>&1
build_rc=$?
while read -r _ name _; do
    bad "$name: build failed ($bin/log/$name.log)"
    show "$bin/log/$name.log"
done < <(grep -E '^  (FAILED|SKIPPED) ' "$tmp/build.log")
if [ "$build_rc" != 0 ] && ! grep -qE '^  (FAILED|SKIPPED) ' "$tmp/build.log"; then
    bad "build.sh failed"
    show "$tmp/build.log"
fi
t_built=$(date +%s)

# The programs: every declared workload that has a binary (workloads.txt is written by
# build.sh), or the ones named on the command line.
sed -nE 's/^(\/\/|\/\*) *WORKLOAD(-OCL)?: *([A-Za-z0-9_-]+) *\|.*/\3/p' "$bin/workloads.txt" \
    2>/dev/null >"$tmp/all"
: >"$tmp/progs"
while read -r name; do
    if [ $# -gt 0 ]; then
        case " $* " in *" $name "*) ;; *) continue ;; esac
    fi
    [ -x "$bin/$name" ] && echo "$name" >>"$tmp/progs"
done <"$tmp/all"
total=$(wc -l <"$tmp/progs")
if [ "$total" -eq 0 ] && [ "$fail" -eq 0 ]; then
    bad "no workload programs in $bin${*:+ matching: $*}"
fi

# ---- 2. run every program in every mode (in parallel) ------------------------------------------
run_one() {
    local name=$1 mode=$2 dir="$tmp/run/$1.$2" t0 t1
    mkdir -p "$dir"
    t0=$(date +%s.%N)
    {
        (cd "$dir" && timeout -k 5 "$limit" "$PTXSIM" run --mode "$mode" \
            -o ptxsim_print_stats=0 -o ptxsim_progress_interval=0 -- "$bin/$name" test) \
            >"$dir/out" 2>"$dir/err" </dev/null
        echo $? >"$dir/rc"
    } 2>>"$dir/err"
    t1=$(date +%s.%N)
    echo "$t0 $t1" | awk '{ printf "%.2f\n", $2 - $1 }' >"$dir/time"
}
export -f run_one
export tmp bin limit PTXSIM

while read -r name; do
    for mode in $modes; do
        printf '%s %s\n' "$name" "$mode"
    done
done <"$tmp/progs" | xargs -P "$jobs" -L 1 bash -c 'run_one "$1" "$2"' _
t_ran=$(date +%s)

: >"$tmp/passed"
while read -r name; do
    first=""
    why=""
    for mode in $modes; do
        dir="$tmp/run/$name.$mode"
        rc=$(cat "$dir/rc")
        line=$(grep -E "^(PASS|FAIL) $name( |:|\$)" "$dir/out" | tail -n 1)
        if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
            why="$mode mode: timed out after ${limit}s"
        elif [ "$rc" != 0 ]; then
            why="$mode mode: exit status $rc${line:+; $line}"
        elif [ "$line" != "PASS $name test" ]; then
            why="$mode mode: no 'PASS $name test' line${line:+ ($line)}"
        elif [ -n "$first" ] && ! diff -u "$first" "$dir/out" >"$tmp/diff" 2>&1; then
            why="stdout differs between ${modes%% *} and $mode mode"
        fi
        [ -n "$why" ] && break
        first=${first:-$dir/out}
    done
    if [ -z "$why" ]; then
        times=""
        for mode in $modes; do
            times="$times${times:+, }$mode $(cat "$tmp/run/$name.$mode/time") s"
        done
        ok "$name ($times)"
        echo "$(cat "$tmp/run/$name.${modes##* }/time") $name" >>"$tmp/passed"
    else
        bad "$name: $why"
        [ -s "$tmp/diff" ] && show "$tmp/diff"
        show "$dir/err"
        rm -f "$tmp/diff"
    fi
done <"$tmp/progs"

# ---- 3. ptxsim sweep, twice -------------------------------------------------------------------
sweep_check() {
    local out="$tmp/sweep" w rows svg
    w=$(grep -v '_ocl$' "$tmp/passed" | sort -n | head -n 2 | awk '{ print $2 }' | paste -sd,)
    if [ "$(echo "$w" | tr ',' '\n' | grep -c .)" -lt 2 ]; then
        echo "note: fewer than two CUDA workloads passed; ptxsim sweep not checked"
        return
    fi
    set -- --workloads "$w" --sizes test --variant gto:gpgpu_scheduler=gto \
        --variant lrr:gpgpu_scheduler=lrr --bin "$bin" --jobs "$jobs" --timeout "$limit" \
        --out "$out"
    if ! "$PTXSIM" sweep "$@" >"$tmp/sweep1.out" 2>"$tmp/sweep1.err"; then
        bad "ptxsim sweep --workloads $w: exit status $?"
        show "$tmp/sweep1.err"
        return
    fi
    rows=$(grep -c ',pass,total,' "$out/results.csv" 2>/dev/null)
    svg=$(ls "$out"/ipc.svg "$out"/mpki.svg "$out"/stalls.svg 2>/dev/null | wc -l)
    if [ "$rows" != 4 ] || [ ! -s "$out/summary.md" ] || [ "$svg" != 3 ] ||
        ! grep -q '^| \*\*gmean\*\* |' "$out/summary.md" ||
        ! grep -q '</svg>' "$out/ipc.svg"; then
        bad "ptxsim sweep: expected 4 passing rows, summary.md and 3 SVG files (rows: $rows, svg: $svg)"
        show "$tmp/sweep1.err"
        return
    fi
    cp "$out/results.csv" "$tmp/results1.csv"
    "$PTXSIM" sweep "$@" >"$tmp/sweep2.out" 2>"$tmp/sweep2.err"
    if ! grep -q ' 4 done earlier, 0 to run' "$tmp/sweep2.err" ||
        ! cmp -s "$tmp/results1.csv" "$out/results.csv"; then
        bad "ptxsim sweep: the second identical sweep did not reuse every run"
        show "$tmp/sweep2.err"
        return
    fi
    ok "ptxsim sweep ($w x gto, lrr; resumed without rerunning)"
}
[ "${WORKLOADS_TEST_SWEEP:-1}" = 0 ] || sweep_check
t_end=$(date +%s)

echo "time: build $((t_built - t_start)) s, runs $((t_ran - t_built)) s, sweep $((t_end - t_ran)) s," \
    "total $((t_end - t_start)) s ($total programs, $jobs jobs)"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
