#!/usr/bin/env bash
# PTX parser corpus test: every PTX file must parse and round-trip.
#
# Sources of PTX (generated into a temporary directory at test time):
#   tests/ptx/cuda/*.cu     -> $NVCC -ptx -arch=compute_{75,80,90}
#   tests/ptx/opencl/*.cl   -> $CLANG (OpenCL C 1.2, nvptx64-nvidia-nvcl) + libclc
#   tests/ptx/fermi/*.ptx   -> used as they are (hand-written PTX 1.4 .. 3.2)
# Each file is checked with `$PTXSIM ptx --roundtrip FILE` (parse, print,
# re-parse, compare).
#
# Environment:
#   PTXSIM     path to the ptxsim binary (required; default ./ptxsim or ptxsim in PATH)
#   NVCC       nvcc (default: $CUDA_DIR/bin/nvcc, nvcc in PATH, /usr/local/cuda/bin/nvcc)
#   CLANG      clang able to target nvptx64 (default: clang-14, else clang)
#   LIBCLC_BC  libclc bitcode (default: /usr/lib/clc/nvptx64--nvidiacl.bc)
#   srcdir     source root (default: derived from this script's location)
#   CUDA_ARCHS space-separated compute capabilities (default: "75 80 90")
#   JOBS       parallel generation jobs (default: number of CPUs)
#   KEEP_TMP   set to 1 to keep the temporary directory (its path is printed)
#
# Output: one "PASS name" / "FAIL name" line per PTX file, then a final line
# "N passed, M failed".  Exit status: 0 if M = 0, 1 otherwise, 77 (automake
# SKIP) only if no PTX at all could be produced, 99 on a setup error.

set -u

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${srcdir:=$(cd "$script_dir/../.." && pwd)}"
srcdir=$(cd "$srcdir" && pwd)
# Accept srcdir pointing at the source root (normal case), or at tests/ or
# tests/ptx/ (when the harness runs from a subdirectory Makefile).
if [ -d "$srcdir/tests/ptx" ]; then
    ptxdir="$srcdir/tests/ptx"
elif [ -d "$srcdir/ptx/fermi" ] || [ -d "$srcdir/ptx/cuda" ]; then
    ptxdir="$srcdir/ptx"
elif [ -d "$srcdir/fermi" ] || [ -d "$srcdir/cuda" ]; then
    ptxdir="$srcdir"
else
    ptxdir="$srcdir/tests/ptx"
fi
if [ ! -d "$ptxdir" ]; then
    echo "corpus.sh: $ptxdir not found (srcdir=$srcdir)" >&2
    exit 99
fi

CUDA_ARCHS=${CUDA_ARCHS:-"75 80 90"}

# --- tools -----------------------------------------------------------------
if [ -z "${PTXSIM:-}" ]; then
    if [ -x ./ptxsim ]; then
        PTXSIM=./ptxsim
    else
        PTXSIM=$(command -v ptxsim 2>/dev/null || true)
    fi
fi
if [ -z "${PTXSIM:-}" ] || [ ! -x "$PTXSIM" ]; then
    echo "corpus.sh: FAIL: ptxsim binary not found (set PTXSIM; got '${PTXSIM:-}')" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
case $PTXSIM in
    /*) ;;
    *) PTXSIM="$(cd "$(dirname "$PTXSIM")" && pwd)/$(basename "$PTXSIM")" ;;
esac

if [ -z "${NVCC:-}" ]; then
    if [ -n "${CUDA_DIR:-}" ] && [ -x "$CUDA_DIR/bin/nvcc" ]; then
        NVCC=$CUDA_DIR/bin/nvcc
    else
        NVCC=$(command -v nvcc 2>/dev/null || true)
        if [ -z "$NVCC" ] && [ -x /usr/local/cuda/bin/nvcc ]; then
            NVCC=/usr/local/cuda/bin/nvcc
        fi
    fi
fi
if [ -z "${CLANG:-}" ]; then
    CLANG=$(command -v clang-14 2>/dev/null || command -v clang 2>/dev/null || true)
fi
: "${LIBCLC_BC:=/usr/lib/clc/nvptx64--nvidiacl.bc}"

if [ -z "${JOBS:-}" ]; then
    JOBS=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 4)
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxcorpus.XXXXXX") || exit 99
if [ "${KEEP_TMP:-0}" = 1 ]; then
    echo "corpus.sh: keeping temporary directory $tmp"
else
    trap 'rm -rf "$tmp"' EXIT
fi
trap 'exit 130' INT TERM
mkdir -p "$tmp/cuda" "$tmp/opencl" "$tmp/log"

# --- generation ------------------------------------------------------------
# One job per line in $tmp/jobs: "kind<TAB>source<TAB>arch<TAB>output".
: > "$tmp/jobs"
shopt -s nullglob

cuda_srcs=("$ptxdir"/cuda/*.cu)
if [ ${#cuda_srcs[@]} -gt 0 ]; then
    if [ -n "$NVCC" ] && [ -x "$NVCC" ]; then
        for src in "${cuda_srcs[@]}"; do
            base=$(basename "$src" .cu)
            for a in $CUDA_ARCHS; do
                printf 'cuda\t%s\t%s\t%s\n' "$src" "$a" "$tmp/cuda/$base.compute_$a.ptx" >> "$tmp/jobs"
            done
        done
    else
        echo "######################################################################"
        echo "## corpus.sh: NVCC not found (NVCC='${NVCC:-}'):"
        echo "## SKIPPING the ${#cuda_srcs[@]} CUDA sources x {$CUDA_ARCHS} of the corpus."
        echo "######################################################################"
    fi
fi

cl_srcs=("$ptxdir"/opencl/*.cl)
if [ ${#cl_srcs[@]} -gt 0 ]; then
    if [ -n "$CLANG" ] && [ -x "$CLANG" ] && [ -f "$LIBCLC_BC" ]; then
        for src in "${cl_srcs[@]}"; do
            base=$(basename "$src" .cl)
            printf 'opencl\t%s\t-\t%s\n' "$src" "$tmp/opencl/$base.ptx" >> "$tmp/jobs"
        done
    else
        echo "######################################################################"
        echo "## corpus.sh: clang (CLANG='${CLANG:-}') or libclc (LIBCLC_BC='$LIBCLC_BC')"
        echo "## not available: SKIPPING the ${#cl_srcs[@]} OpenCL sources of the corpus."
        echo "######################################################################"
    fi
fi

gen_one() {
    # $1 kind, $2 source, $3 arch, $4 output; log next to it in $tmp/log
    local kind=$1 src=$2 arch=$3 out=$4
    local log
    log="$GEN_TMP/log/$(basename "$out").log"
    case $kind in
        cuda)
            "$NVCC" -ptx -arch="compute_$arch" -o "$out" "$src" > "$log" 2>&1 ;;
        opencl)
            "$CLANG" -x cl -cl-std=CL1.2 -target nvptx64-nvidia-nvcl \
                -Xclang -finclude-default-header \
                -Xclang -mlink-bitcode-file -Xclang "$LIBCLC_BC" \
                -O2 -S -o "$out" "$src" > "$log" 2>&1 ;;
    esac
    local rc=$?
    if [ $rc -ne 0 ] || [ ! -s "$out" ]; then
        rm -f "$out"
        echo "$rc" > "$out.genfail"
    fi
    return 0
}
export -f gen_one
export NVCC CLANG LIBCLC_BC
export GEN_TMP="$tmp"

if [ -s "$tmp/jobs" ]; then
    njobs=$(wc -l < "$tmp/jobs")
    echo "corpus.sh: generating $njobs PTX files with $JOBS parallel jobs"
    tr '\t\n' '\0\0' < "$tmp/jobs" | xargs -0 -n 4 -P "$JOBS" bash -c 'gen_one "$@"' _
fi

# --- checking --------------------------------------------------------------
pass=0
fail=0
failed_names=()

report_fail() {
    # $1 name, $2 log file with details
    fail=$((fail + 1))
    failed_names+=("$1")
    echo "FAIL $1"
    if [ -f "$2" ]; then
        sed -n '1,20p' "$2" | sed 's/^/    | /'
    fi
}

check_ptx() {
    # $1 display name, $2 PTX file
    local name=$1 file=$2 log="$tmp/log/check.$$.log"
    if "$PTXSIM" ptx --roundtrip "$file" > "$log" 2>&1; then
        pass=$((pass + 1))
        echo "PASS $name"
    else
        local rc=$?
        echo "exit status $rc" >> "$log"
        report_fail "$name" "$log"
    fi
}

produced=0
while IFS=$'\t' read -r kind src arch out; do
    case $kind in
        cuda) name="cuda/$(basename "$src")@compute_$arch" ;;
        *) name="opencl/$(basename "$src")" ;;
    esac
    if [ -f "$out.genfail" ]; then
        echo "(generation failed with status $(cat "$out.genfail"))" >> "$tmp/log/$(basename "$out").log"
        report_fail "$name (PTX generation)" "$tmp/log/$(basename "$out").log"
        continue
    fi
    produced=$((produced + 1))
    check_ptx "$name" "$out"
done < "$tmp/jobs"

for f in "$ptxdir"/fermi/*.ptx; do
    produced=$((produced + 1))
    check_ptx "fermi/$(basename "$f")" "$f"
done

if [ $produced -eq 0 ] && [ $fail -eq 0 ]; then
    echo "corpus.sh: no PTX could be produced (no nvcc, no clang/libclc, no fermi/*.ptx): SKIP"
    echo "$pass passed, $fail failed"
    exit 77
fi

if [ $fail -gt 0 ]; then
    echo "failed:"
    printf '  %s\n' "${failed_names[@]}"
fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
