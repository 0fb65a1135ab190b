#!/bin/bash
# Honest stops: tests/stops/honest_stop.cu built with nvcc and run under
# `ptxsim run`.
# - Caps: -gpgpu_max_cycle (timing), -gpgpu_max_insn (functional and timing)
#   and --budget make the launch fail with cudaErrorLaunchTimeout at the next
#   synchronisation (the program checks that), and the PTXSIM_STATS file says
#   "truncated": true with the cap as the reason. The same program without a
#   cap runs clean, with no truncation mark.
# - OpenCL: tests/stops/honest_stop_cl.c under -gpgpu_max_insn gets CL_OUT_OF_RESOURCES and
#   truncated statistics.
# - Signals: SIGTERM during a launch (both modes; CUDA and OpenCL) and SIGINT
#   during host code end the program with status 128+signo and leave
#   statistics marked truncated, with the signal as the reason.
# Environment: PTXSIM, NVCC (skip, exit 77, when missing). Prints
# "N passed, M failed"; exits 1 on any failure.

set -u
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
here="${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/stops"
if [ -z "${NVCC:-}" ] || ! command -v "$NVCC" >/dev/null 2>&1; then
    echo "SKIP: NVCC is not set or not found; the honest-stop tests need nvcc"
    exit 77
fi
if [ -z "${PTXSIM:-}" ] || [ ! -x "$PTXSIM" ]; then
    echo "stops/run.sh: PTXSIM is not set to the ptxsim binary" >&2
    exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxsim-stops.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "PASS: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }

if ! "$NVCC" -cudart shared -arch=sm_75 -O2 -o "$tmp/honest_stop" "$here/honest_stop.cu" \
    >"$tmp/build.log" 2>&1; then
    cat "$tmp/build.log"
    echo "0 passed, 1 failed"
    exit 1
fi
prog="$tmp/honest_stop"

# cap NAME REASON-PATTERN PTXSIM-RUN-ARGS...
cap() {
    local name=$1 reason=$2
    shift 2
    rm -f "$tmp/s.json"
    if ! "$PTXSIM" run -o ptxsim_print_stats=0 --stats "$tmp/s.json" "$@" -- "$prog" cap \
        >"$tmp/out" 2>"$tmp/err"; then
        bad "$name: $(cat "$tmp/out" "$tmp/err" | tail -n 3)"
    elif ! grep -q '"truncated": true' "$tmp/s.json"; then
        bad "$name: statistics not marked truncated"
    elif ! grep -q "\"truncated_reason\": \".*$reason" "$tmp/s.json"; then
        bad "$name: reason is not '$reason': $(grep truncated_reason "$tmp/s.json")"
    else
        ok "$name ($(grep truncated_reason "$tmp/s.json" | sed 's/^ *//'))"
    fi
}
cap "max_cycle timing" "gpgpu_max_cycle 5000" --mode timing -o gpgpu_max_cycle=5000
cap "max_insn timing" "gpgpu_max_insn" --mode timing -o gpgpu_max_insn=200000
cap "max_insn functional" "gpgpu_max_insn" --mode functional -o gpgpu_max_insn=200000
cap "budget functional" "more than 5000 warp instructions" --mode functional --budget 5000

rm -f "$tmp/s.json"
if "$PTXSIM" run --mode functional -o gpgpu_max_insn=100000000 --stats "$tmp/s.json" -- "$prog" nocap \
    >"$tmp/out" 2>"$tmp/err" && grep -q "PASS honest_stop nocap" "$tmp/out" &&
    ! grep -q truncated "$tmp/s.json"; then
    ok "under the cap: clean run, no truncation mark"
else
    bad "under the cap: $(cat "$tmp/out" "$tmp/err" | tail -n 3)"
fi

# OpenCL: the kernel a cap stops fails with CL_OUT_OF_RESOURCES; truncated statistics.
if "${CC:-cc}" -o "$tmp/honest_stop_cl" "$here/honest_stop_cl.c" -lOpenCL >"$tmp/clbuild.log" 2>&1; then
    for mode in functional timing; do
        rm -f "$tmp/s.json"
        if "$PTXSIM" run --mode $mode -o gpgpu_max_insn=200000 -o ptxsim_print_stats=0 \
            --stats "$tmp/s.json" -- "$tmp/honest_stop_cl" >"$tmp/out" 2>"$tmp/err" &&
            grep -q "PASS honest_stop_cl" "$tmp/out" && grep -q '"truncated": true' "$tmp/s.json"; then
            ok "OpenCL cap, $mode"
        else
            bad "OpenCL cap, $mode: $(cat "$tmp/out" "$tmp/err" | tail -n 3)"
        fi
    done
else
    echo "SKIP: OpenCL cap (no OpenCL headers or library: $(tail -n 1 "$tmp/clbuild.log"))"
fi

# sig NAME SIGNAL STATUS WHAT REASON-PATTERN PTXSIM-RUN-ARGS... (PROG: the program)
prog_of_sig="$prog"
# A harness that started this script in the background without job control (or under
# nohup-like wrappers) hands SIGINT down ignored, and ptxsim rightly leaves an ignored
# signal alone: reset it for the program (coreutils env >= 8.31), as a terminal would have.
dflt=()
env --default-signal=INT true 2>/dev/null && dflt=(env --default-signal=INT)
sig() {
    local name=$1 signal=$2 want=$3 what=$4 reason=$5 pid rc i
    shift 5
    rm -f "$tmp/s.json" "$tmp/out"
    # `ptxsim run` execs the program, so $! is the program itself. Job control on (set -m):
    # otherwise a background job starts with SIGINT ignored.
    set -m
    "${dflt[@]}" "$PTXSIM" run -o ptxsim_print_stats=0 --stats "$tmp/s.json" "$@" -- \
        "$prog_of_sig" "$what" >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    set +m
    for i in $(seq 1 300); do
        grep -q ready "$tmp/out" 2>/dev/null && break
        sleep 0.1
    done
    sleep 0.5
    kill -s "$signal" "$pid"
    wait "$pid"
    rc=$?
    if [ "$rc" -ne "$want" ]; then
        bad "$name: exit status $rc, want $want: $(tail -n 3 "$tmp/out" "$tmp/err")"
    elif ! grep -q '"truncated": true' "$tmp/s.json" 2>/dev/null; then
        bad "$name: no statistics marked truncated"
    elif ! grep -q "\"truncated_reason\": \".*$reason" "$tmp/s.json"; then
        bad "$name: reason is not '$reason': $(grep truncated_reason "$tmp/s.json")"
    elif [ "$prog_of_sig" = "$prog" ] && ! grep -q '"kernels": [1-9]' "$tmp/s.json"; then
        bad "$name: the finished kernel is missing from the statistics"
    else
        ok "$name (status $rc, $(grep truncated_reason "$tmp/s.json" | sed 's/^ *//'))"
    fi
}
sig "SIGTERM in a launch, functional" TERM 143 kernel "signal 15" --mode functional
sig "SIGTERM in a launch, timing" TERM 143 kernel "signal 15" --mode timing
sig "SIGINT in host code" INT 130 host "SIGINT received" --mode functional
if [ -x "$tmp/honest_stop_cl" ]; then
    prog_of_sig="$tmp/honest_stop_cl"
    sig "OpenCL: SIGTERM in a kernel" TERM 143 kernel "signal 15" --mode functional
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
