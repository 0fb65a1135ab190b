#!/bin/bash
# Driver-API tests (docs/cuda-driver.md): C programs that use libcuda.so.1
# directly, built with the host C compiler against the toolkit's headers and its
# link-time stub libcuda.so (never run), then run unmodified with
# `ptxsim run --mode MODE -- ./PROGRAM`, which gives them ptxsim's libcuda.so.1.
#   driver_api.c   modules from PTX, launches, memory, streams, cuLink, cuLibrary, refusals
#   nvrtc_scale.c  NVRTC (the toolkit's libnvrtc) compiles a kernel string; the driver runs it
# Each checks itself against a host reference and prints "PASS <name>"; the run's
# statistics (--stats) must list its kernel, and stdout must be the same in both modes.
# Environment: PTXSIM, CUDA_DIR (skip, exit 77, without a toolkit), CC (default cc),
# DRIVER_TEST_MODES (default "functional timing").
set -u
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

here="${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/driver"
cuda="${CUDA_DIR:-/usr/local/cuda}"
modes="${DRIVER_TEST_MODES:-functional timing}"
cc="${CC:-cc}"

if [ ! -f "$cuda/include/cuda.h" ] || [ ! -f "$cuda/lib64/stubs/libcuda.so" ]; then
    echo "SKIP: no CUDA toolkit at $cuda (cuda.h and lib64/stubs/libcuda.so are needed)"
    exit 77
fi
if [ -z "${PTXSIM:-}" ] || [ ! -x "$PTXSIM" ]; then
    echo "run.sh: PTXSIM is not set to the ptxsim binary" >&2
    exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxsim-driver.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# RUNPATH (not RPATH) for libnvrtc: LD_LIBRARY_PATH, where `ptxsim run` puts libcuda.so.1, wins.
link="-L$cuda/lib64/stubs -L$cuda/lib64 -Wl,--enable-new-dtags,-rpath,$cuda/lib64"
# name:libraries:a kernel the statistics must list
programs="driver_api:-lcuda:saxpy nvrtc_scale:-lnvrtc -lcuda:scale"
pass=0
fail=0
IFS=$'\n'
for p in $(echo "$programs" | sed 's/ \([a-z_]*:\)/\n\1/g'); do
    name=${p%%:*}
    kernel=${p##*:}
    libs=${p#*:}
    libs=${libs%:*}
    unset IFS
    # shellcheck disable=SC2086
    if ! "$cc" -std=c11 -O1 -I"$cuda/include" -I"$here" -o "$tmp/$name" "$here/$name.c" \
        $link $libs -lm >"$tmp/$name.build" 2>&1; then
        echo "FAIL: $name: build failed"
        sed 's/^/    /' "$tmp/$name.build" | head -20
        fail=$((fail + 1))
        continue
    fi
    for mode in $modes; do
        (cd "$tmp" && timeout -k 5 120 "$PTXSIM" run --mode "$mode" \
            --stats "$tmp/$name.$mode.json" -- "./$name") \
            >"$tmp/$name.$mode.out" 2>"$tmp/$name.$mode.err" </dev/null
        rc=$?
        why=""
        if [ $rc != 0 ] || ! grep -q "^PASS $name" "$tmp/$name.$mode.out"; then
            why="exit status $rc"
        elif ! grep -q "\"name\": \"$kernel\"" "$tmp/$name.$mode.json" 2>/dev/null; then
            why="the statistics ($tmp/$name.$mode.json) do not list kernel $kernel"
        elif [ -f "$tmp/$name.functional.out" ] && ! cmp -s "$tmp/$name.functional.out" \
            "$tmp/$name.$mode.out"; then
            why="stdout differs from the functional run's"
        fi
        if [ -z "$why" ]; then
            echo "PASS: $name [$mode]"
            pass=$((pass + 1))
        else
            echo "FAIL: $name [$mode]: $why"
            sed 's/^/    /' "$tmp/$name.$mode.out" "$tmp/$name.$mode.err" | head -20
            fail=$((fail + 1))
        fi
    done
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
