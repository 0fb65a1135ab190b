#!/bin/bash
# Python GPU stacks on ptxsim's libcuda.so.1 (docs/cuda-driver.md): each test runs
# `ptxsim run --mode MODE -- python3 TEST.py` in a virtual environment where pip
# installed its package, and passes when it prints "PASS <name>".
#   cuda_python_driver.py  cuda-python (cuda.bindings.driver): PTX module, launch
#   numba_kernel.py        numba-cuda: a @cuda.jit kernel (the toolkit's libNVVM; linked by
#                          the driver's cuLink*, since ptxsim's nvJitLink has no LTO)
#   cupy_kernels.py        CuPy: an ElementwiseKernel, a RawKernel and a reduction (the toolkit's
#                          NVRTC; `ptxsim run` sets CUPY_COMPILE_WITH_PTX=1 so CuPy keeps PTX)
# A test whose package pip cannot install (no network, no wheel) is skipped with a
# message; the script skips (77) when none could run. Environment: PTXSIM, CUDA_DIR,
# PYTHON (default python3), PTXSIM_PY_VENV (a virtual environment to reuse; default: a
# fresh one under TMPDIR, removed at the end), PYTHON_TEST_MODES (default "functional timing").
set -u
here="${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/python"
modes="${PYTHON_TEST_MODES:-functional timing}"
python="${PYTHON:-python3}"
cuda="${CUDA_DIR:-/usr/local/cuda}"

if [ -z "${PTXSIM:-}" ] || [ ! -x "$PTXSIM" ]; then
    echo "run.sh: PTXSIM is not set to the ptxsim binary" >&2
    exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxsim-python.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
venv="${PTXSIM_PY_VENV:-$tmp/venv}"
if [ ! -x "$venv/bin/python3" ] && ! "$python" -m venv "$venv" >"$tmp/venv.log" 2>&1; then
    echo "SKIP: cannot create a Python virtual environment ($python -m venv):"
    sed 's/^/    /' "$tmp/venv.log" | head -5
    exit 77
fi
export CUDA_HOME="$cuda" # numba-cuda finds libNVVM and libdevice there
export CUPY_CACHE_DIR="$tmp/cupy-cache" # CuPy's kernel cache, not the user's ~/.cupy
# In a sanitizer build the ASan runtime reaches Python through ptxsim run's preload:
# the interpreter's own unfreed objects at exit are not ptxsim's leaks.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

# name|pip packages
tests="cuda_python_driver|cuda-python
numba_kernel|numba-cuda
cupy_kernels|cupy-cuda13x"
pass=0
fail=0
ran=0
while IFS='|' read -r name pkgs; do
    # shellcheck disable=SC2086
    if ! timeout 600 "$venv/bin/pip" install -q $pkgs >"$tmp/$name.pip" 2>&1; then
        echo "SKIP: $name: pip cannot install $pkgs:"
        tail -n 3 "$tmp/$name.pip" | sed 's/^/    /'
        continue
    fi
    ran=$((ran + 1))
    for mode in $modes; do
        (cd "$tmp" && timeout -k 5 300 "$PTXSIM" run --mode "$mode" -- \
            "$venv/bin/python3" "$here/$name.py") >"$tmp/$name.$mode.out" 2>"$tmp/$name.$mode.err"
        rc=$?
        if [ $rc = 0 ] && grep -q "^PASS $name" "$tmp/$name.$mode.out"; then
            echo "PASS: $name [$mode]"
            pass=$((pass + 1))
        else
            echo "FAIL: $name [$mode]: exit status $rc"
            sed 's/^/    /' "$tmp/$name.$mode.out" | tail -n 5
            sed 's/^/    /' "$tmp/$name.$mode.err" | tail -n 15
            fail=$((fail + 1))
        fi
    done
done <<<"$tests"
echo "$pass passed, $fail failed"
[ $ran = 0 ] && exit 77
[ $fail = 0 ]
