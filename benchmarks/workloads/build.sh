#!/bin/bash
# Builds the workload suite (docs/workloads.md): every benchmarks/workloads/<name>/<name>.cu
# with nvcc into OUTDIR/<name>, and every <name>/<name>_ocl.c with the C compiler into
# OUTDIR/<name>_ocl. The sources are found at run time, so a new workload needs no Makefile
# edit. A program is rebuilt only when it is missing or older than one of the sources or
# headers of its directory or of common/ (wl.h, wl_ocl.h). OUTDIR/workloads.txt gets the declaration line (the first
# line) of every source, which `ptxsim sweep` reads for names, classes and descriptions.
#
# usage: build.sh [-j JOBS] [-q] SRCDIR OUTDIR [NAME...]
#   SRCDIR  the top source directory; OUTDIR is created if needed
#   NAME    build only these programs (e.g. bfs bfs_ocl); default all
#   -j      parallel compilations (default: the number of CPUs)
#   -q      print nothing for programs that are up to date
# Environment: NVCC (default nvcc; when it is missing the CUDA programs are skipped with a
# note and the build fails), CC (default cc), WL_NVCC_FLAGS, WL_CFLAGS (extra flags).
# Logs: OUTDIR/log/<program>.log. Exit status 1 if any program failed to build.

set -u
jobs=$(nproc 2>/dev/null || echo 2)
quiet=0
while getopts "j:q" opt; do
    case $opt in
    j) jobs=$OPTARG ;;
    q) quiet=1 ;;
    *) sed -n '9,17p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -lt 2 ]; then
    sed -n '9,17p' "$0" >&2
    exit 2
fi
src=$(cd "$1" && pwd)/benchmarks/workloads || exit 2
out=$2
shift 2
mkdir -p "$out/log" || exit 1
out=$(cd "$out" && pwd)
NVCC=${NVCC:-nvcc}
CC=${CC:-cc}
nvcc_flags="-cudart shared -arch=sm_75 -O2 -I$src/common ${WL_NVCC_FLAGS:-}"
c_flags="-std=gnu11 -O2 -Wall -I$src/common ${WL_CFLAGS:-}"

# ---- the programs: NAME|KIND|SOURCE ---------------------------------------------------------
list=$(mktemp "${TMPDIR:-/tmp}/ptxsim-wl.XXXXXX") || exit 1
trap 'rm -f "$list"' EXIT
for dir in "$src"/*/; do
    name=$(basename "$dir")
    [ "$name" = common ] && continue
    [ -f "$dir/$name.cu" ] && echo "$name|cuda|$dir$name.cu"
    [ -f "$dir/${name}_ocl.c" ] && echo "${name}_ocl|ocl|$dir${name}_ocl.c"
done | sort >"$list"

# workloads.txt: the declaration lines, in name order.
while IFS='|' read -r name kind file; do
    head -n 1 "$file"
done <"$list" >"$out/workloads.txt.$$" && mv "$out/workloads.txt.$$" "$out/workloads.txt"

if [ $# -gt 0 ]; then
    want=" $* "
    while IFS='|' read -r name kind file; do
        case "$want" in *" $name "*) echo "$name|$kind|$file" ;; esac
    done <"$list" >"$list.sel"
    mv "$list.sel" "$list"
fi
have_nvcc=1
if ! command -v "$NVCC" >/dev/null 2>&1; then
    have_nvcc=0
    echo "build.sh: nvcc not found (NVCC='$NVCC'); the CUDA workloads are not built" >&2
fi

# ---- build one program (in parallel through xargs) -------------------------------------------
build_one() {
    local name kind file dir target log newer tmp
    IFS='|' read -r name kind file <<<"$1"
    dir=$(dirname "$file")
    target="$out/$name"
    log="$out/log/$name.log"
    # Two build.sh may fill one OUTDIR at once (make check runs tests/workloads and
    # tests/threads side by side): each builds into its own file and renames it into
    # place, so neither removes or overwrites the other's half-written output.
    tmp="$target.tmp.$$"
    if [ -x "$target" ]; then
        if [ "$kind" = cuda ]; then
            newer=$(find "$dir" "$src/common" -maxdepth 1 -type f \( -name '*.cu' -o \
                -name '*.cuh' -o -name '*.h' \) -newer "$target" -print -quit)
        else
            newer=$(find "$dir" "$src/common" -maxdepth 1 -type f \( -name '*.c' -o \
                -name '*.cl' -o -name '*.h' \) -newer "$target" -print -quit)
        fi
        if [ -z "$newer" ]; then
            [ "$quiet" = 1 ] || echo "  up to date  $name"
            return 0
        fi
    fi
    if [ "$kind" = cuda ]; then
        [ "$have_nvcc" = 1 ] || { echo "  SKIPPED     $name (no nvcc)"; return 1; }
        # shellcheck disable=SC2086
        "$NVCC" $nvcc_flags -o "$tmp" "$file" >"$log.$$" 2>&1
    else
        # shellcheck disable=SC2086
        "$CC" $c_flags -o "$tmp" "$file" -lOpenCL -lm >"$log.$$" 2>&1
    fi
    if [ $? -eq 0 ] && mv -f "$tmp" "$target"; then
        mv -f "$log.$$" "$log"
        echo "  built       $name"
        return 0
    fi
    mv -f "$log.$$" "$log"
    rm -f "$tmp"
    echo "  FAILED      $name (log: $log)"
    sed -n '1,20p' "$log" | sed 's/^/      /'
    return 1
}
export -f build_one
export src out NVCC CC nvcc_flags c_flags have_nvcc quiet

t0=$(date +%s)
if ! xargs -d '\n' -P "$jobs" -I{} bash -c 'build_one "$1"' _ {} <"$list"; then
    echo "build.sh: some workloads failed to build ($(($(date +%s) - t0)) s)" >&2
    exit 1
fi
[ "$quiet" = 1 ] || echo "build.sh: $(wc -l <"$list") programs in $out ($(($(date +%s) - t0)) s)"
exit 0
