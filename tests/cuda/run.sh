#!/bin/bash
# CUDA integration tests: every program in tests/cuda/ is built with the
# stock nvcc as an ordinary CUDA application (-cudart shared, so it loads
# libcudart.so.13) and run unmodified on the simulator with
# `ptxsim run -- ./PROGRAM`. Each program checks its own results against a
# host reference and prints "PASS <name>" (exit 0) or "FAIL <name>: ..."
# (exit 1); see common.h. A program passes here when it exits 0 within the
# time limit and printed its PASS line, and, where tests/cuda/<name>.expected
# exists, its stdout equals that file. vector_add.cu is also built once with
# each nvcc --compress-mode, so every fatbin compression must load.
#
# Programs: each tests/cuda/*.cu is one program, except the multi-file ones
# listed in `groups` below (rdc_link and rdc_multi are built with -rdc=true,
# so they run through the in-process PTX link of runtime/cuda/rdc.c). The
# error_* programs provoke a CUDA error on purpose (a fault, a bad launch, an
# assert, ...), check the code they get back, and print PASS when it is right.
#
# Environment (from AM_TESTS_ENVIRONMENT): PTXSIM (the ptxsim binary), NVCC
# (skip, exit 77, when unset or missing), srcdir (top source dir).
# Optional: CUDA_TEST_CUDART (shared, the default: -cudart shared; static: nvcc's
# default link, the static runtime, which reaches ptxsim through libcuda.so.1),
# CUDA_TEST_MODES (simulation modes to run every program in, default
# "functional timing"; with both, a program's stdout must also be the same in
# both modes), CUDA_TEST_JOBS (parallel builds and runs; default nproc),
# CUDA_TEST_TIMEOUT (seconds per run; default 60), CUDA_TEST_KEEP=1 (keep
# the build directory), CUDA_TEST_BUILD_ONLY=1 (build, do not run).
# Arguments: program names to run only those (e.g. `run.sh bfs compress`;
# "compress" selects the --compress-mode builds).
# Prints one line per program and a final line "N passed, M failed"; exits 1
# if anything failed (or `ptxsim run` is missing), 0 otherwise.

set -u
# In the ASan build `ptxsim run` preloads the sanitizer runtime into the test programs;
# their own allocations (host arrays never freed before exit) are not ptxsim's leaks, which
# the unit tests check. Last, so it wins over a caller's detect_leaks=1.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

here="${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cuda"
jobs="${CUDA_TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}"
limit="${CUDA_TEST_TIMEOUT:-60}"
modes="${CUDA_TEST_MODES:-functional timing}"
case "${CUDA_TEST_CUDART:-shared}" in
shared) nvcc_flags="-cudart shared -arch=sm_75 -O2" ;;
static) nvcc_flags="-arch=sm_75 -O2" ;; # nvcc's default: -cudart static
*)
    echo "run.sh: CUDA_TEST_CUDART must be shared or static, not '$CUDA_TEST_CUDART'" >&2
    exit 1
    ;;
esac
compress_modes="default none speed balance size"

# Multi-file programs: name, sources, extra nvcc flags.
groups=(
    "multi_tu|multi_tu_a.cu multi_tu_b.cu|"
    "rdc_link|rdc_link_a.cu rdc_link_b.cu|-rdc=true"
    "rdc_multi|rdc_multi_a.cu rdc_multi_b.cu rdc_multi_c.cu|-rdc=true -lineinfo"
    "dynamic_parallelism|dynamic_parallelism.cu|-rdc=true"
    "per_thread_stream|per_thread_stream.cu|--default-stream per-thread"
    "concurrent_ptds|concurrent_ptds.cu|--default-stream per-thread"
)

if [ -z "${NVCC:-}" ] || ! command -v "$NVCC" >/dev/null 2>&1; then
    echo "SKIP: NVCC is not set or not found (NVCC='${NVCC:-}'); the CUDA tests need nvcc"
    exit 77
fi
build_only="${CUDA_TEST_BUILD_ONLY:-0}"
if [ "$build_only" != 1 ]; then
    if [ -z "${PTXSIM:-}" ] || [ ! -x "$PTXSIM" ]; then
        echo "run.sh: PTXSIM is not set to the ptxsim binary (PTXSIM='${PTXSIM:-}')" >&2
        exit 1
    fi
    if ! "$PTXSIM" run --help >/dev/null 2>&1; then
        echo "FAIL: '$PTXSIM run --help' failed: this ptxsim has no working 'run' verb, so no CUDA program can be run"
        echo "0 passed, 1 failed"
        exit 1
    fi
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxsim-cuda.XXXXXX") || exit 1
if [ "${CUDA_TEST_KEEP:-0}" = 1 ]; then
    echo "build directory: $tmp"
else
    trap 'rm -rf "$tmp"' EXIT
fi
mkdir -p "$tmp/bin" "$tmp/log" "$tmp/run"

# ---- the job list: ID|PASS-NAME|EXTRA-FLAGS|SOURCES ------------------------------
in_group() {
    local g
    for g in "${groups[@]}"; do
        case " $(echo "$g" | cut -d'|' -f2) " in *" $1 "*) return 0 ;; esac
    done
    return 1
}
wanted() { # no arguments: everything
    [ "${#selected[@]}" -eq 0 ] && return 0
    local s
    for s in "${selected[@]}"; do
        [ "$s" = "$1" ] && return 0
    done
    return 1
}
selected=("$@")
: >"$tmp/jobs"
for f in "$here"/*.cu; do
    b=$(basename "$f" .cu)
    in_group "$b.cu" && continue
    wanted "$b" && echo "$b|$b||$b.cu" >>"$tmp/jobs"
done
for g in "${groups[@]}"; do
    IFS='|' read -r name srcs flags <<<"$g"
    wanted "$name" && echo "$name|$name|$flags|$srcs" >>"$tmp/jobs"
done
if wanted compress; then
    for m in $compress_modes; do
        echo "compress_$m|vector_add|--compress-mode=$m|vector_add.cu" >>"$tmp/jobs"
    done
fi
# The slowest builds (Thrust and CUB headers) go first, so they do not finish last.
heavy='^(thrust_basic|cub_block)[|]'
{ grep -E "$heavy" "$tmp/jobs"; grep -vE "$heavy" "$tmp/jobs"; } >"$tmp/jobs.sorted"
mv "$tmp/jobs.sorted" "$tmp/jobs"
total=$(wc -l <"$tmp/jobs")
if [ "$total" -eq 0 ]; then
    echo "run.sh: no program matches: $*" >&2
    exit 1
fi

# ---- build (in parallel) --------------------------------------------------------
build_one() {
    local id pass flags srcs s paths=""
    IFS='|' read -r id pass flags srcs <<<"$1"
    for s in $srcs; do
        paths="$paths $here/$s"
    done
    # shellcheck disable=SC2086
    (cd "$tmp/bin" && "$NVCC" $nvcc_flags $flags -I"$here" -o "$id" $paths) \
        >"$tmp/log/$id.build" 2>&1
    echo $? >"$tmp/log/$id.build_rc"
}
export -f build_one
export here tmp nvcc_flags NVCC

t0=$(date +%s)
xargs -d '\n' -P "$jobs" -n 1 bash -c 'build_one "$1"' _ <"$tmp/jobs"
t1=$(date +%s)

# ---- run (in parallel) ----------------------------------------------------------
run_one() {
    local id pass flags srcs dir mode
    IFS='|' read -r id pass flags srcs <<<"$1"
    [ "$(cat "$tmp/log/$id.build_rc")" = 0 ] || return 0
    for mode in $modes; do
        dir="$tmp/run/$id.$mode"
        mkdir -p "$dir"
        # The outer redirection catches the shell's own "Segmentation fault" note.
        {
            (cd "$dir" && timeout -k 5 "$limit" "$PTXSIM" run --mode "$mode" -- "$tmp/bin/$id") \
                >"$tmp/log/$id.$mode.out" 2>"$tmp/log/$id.$mode.err" </dev/null
            echo $? >"$tmp/log/$id.$mode.rc"
        } 2>>"$tmp/log/$id.$mode.err"
    done
}
export -f run_one
export limit PTXSIM modes

if [ "$build_only" != 1 ]; then
    xargs -d '\n' -P "$jobs" -n 1 bash -c 'run_one "$1"' _ <"$tmp/jobs"
fi
t2=$(date +%s)

# ---- report ---------------------------------------------------------------------
pass=0
fail=0
show() { # the first lines of a log, indented
    sed -n '1,15p' "$1" | sed 's/^/    /'
}
while IFS='|' read -r id name flags srcs; do
    if [ "$(cat "$tmp/log/$id.build_rc")" != 0 ]; then
        fail=$((fail + 1))
        echo "FAIL: $id: nvcc failed"
        show "$tmp/log/$id.build"
        continue
    fi
    if [ "$build_only" = 1 ]; then
        if [ -s "$tmp/log/$id.build" ]; then
            fail=$((fail + 1))
            echo "FAIL: $id: nvcc printed warnings"
            show "$tmp/log/$id.build"
        else
            pass=$((pass + 1))
            echo "PASS: $id (built)"
        fi
        continue
    fi
    first=""
    for mode in $modes; do
    rc=$(cat "$tmp/log/$id.$mode.rc")
    out="$tmp/log/$id.$mode.out"
    line=$(grep -E "^(PASS|FAIL) $name( |:|\$)" "$out" | tail -n 1)
    why=""
    if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
        why="timed out after ${limit}s"
    elif [ "$rc" -gt 128 ]; then
        why="killed by signal $((rc - 128)) (exit status $rc)${line:+; $line}"
    elif [ "$rc" != 0 ]; then
        why="exit status $rc${line:+; $line}"
    elif [ -z "$line" ]; then
        why="no 'PASS $name' line on stdout"
    elif [ "${line#PASS }" = "$line" ]; then
        why="$line"
    elif [ -f "$here/$name.expected" ] && [ "$id" = "$name" ] &&
        ! diff -u "$here/$name.expected" "$out" >"$tmp/log/$id.diff" 2>&1; then
        why="stdout differs from $name.expected"
    elif [ -n "$first" ] && ! diff -u "$first" "$out" >"$tmp/log/$id.diff" 2>&1; then
        why="stdout differs from the ${modes%% *} run"
    fi
    first=${first:-$out}
    if [ -z "$why" ]; then
        pass=$((pass + 1))
        note=${line#PASS "$name"}
        echo "PASS: $id [$mode]${note}"
    else
        fail=$((fail + 1))
        echo "FAIL: $id [$mode]: $why"
        [ -s "$tmp/log/$id.diff" ] && show "$tmp/log/$id.diff"
        show "$tmp/log/$id.$mode.err"
        [ -s "$tmp/log/$id.diff" ] || show "$out"
    fi
    done
done <"$tmp/jobs"

echo "time: build $((t1 - t0)) s, run $((t2 - t1)) s ($total programs, $jobs jobs)"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] || exit 1
exit 0
