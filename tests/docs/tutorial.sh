#!/bin/bash
# docs/tutorial.md, command by command: every ```sh block of the tutorial (except those
# marked "<!-- tutorial-test: skip ... -->" on the line before) runs, in order, as one bash
# script with -e and pipefail, in a scratch directory that looks like the top of the
# repository (build/ is the build tree, configs/ and benchmarks/ the source tree's). Then
# the output is checked for what the tutorial says the reader will see.
# Environment (from AM_TESTS_ENVIRONMENT): PTXSIM, NVCC (skipped when missing), srcdir,
# top_builddir.
set -u

if [ -z "${PTXSIM:-}" ] || [ ! -x "$PTXSIM" ]; then
    echo "tutorial.sh: PTXSIM is not set to the ptxsim binary" >&2
    exit 1
fi
if [ -z "${NVCC:-}" ] || ! command -v "$NVCC" >/dev/null 2>&1; then
    echo "SKIP: NVCC is not set or not found; the tutorial needs nvcc"
    exit 77
fi
top="${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}"
builddir="${top_builddir:-$(dirname "$PTXSIM")}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxsim-tutorial.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
unset PTXSIM_CONFIG PTXSIM_OPTIONS PTXSIM_MODE PTXSIM_BUDGET PTXSIM_STATS
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export NVCC
PATH="$(dirname "$(command -v "$NVCC")"):$PATH"

ln -s "$builddir" "$tmp/build" && ln -s "$top/configs" "$tmp/configs" &&
    ln -s "$top/benchmarks" "$tmp/benchmarks" || exit 1

# The runnable blocks, in order.
awk '
    /^<!-- tutorial-test: skip/ { skip = 1; next }
    /^```sh$/ { inblock = 1; if (!skip) print "# ---- block " ++n; next }
    /^```/ { if (inblock) { inblock = 0; skip = 0 } next }
    inblock && !skip { print }
    !inblock && NF { skip = skip && /^<!--/ }
' "$top/docs/tutorial.md" >"$tmp/tutorial.bash"
blocks=$(grep -c '^# ---- block' "$tmp/tutorial.bash")
if [ "$blocks" -lt 8 ]; then
    echo "FAIL: only $blocks runnable blocks found in docs/tutorial.md"
    exit 1
fi
(cd "$tmp" && bash -euo pipefail -x tutorial.bash) >"$tmp/out.txt" 2>"$tmp/err.txt"
rc=$?

pass=0
fail=0
ok() { pass=$((pass + 1)); echo "PASS: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }
if [ "$rc" -eq 0 ]; then
    ok "the $blocks blocks of docs/tutorial.md ran"
else
    bad "docs/tutorial.md stopped (status $rc): $(tail -20 "$tmp/err.txt")"
fi
expect() { # WHAT PATTERN FILE
    if grep -qE -- "$2" "$3"; then ok "$1"; else bad "$1: no /$2/ in $(basename "$3")"; fi
}
all="$tmp/all.txt"
cat "$tmp/out.txt" "$tmp/err.txt" >"$all"
expect "the program ran correctly" "^saxpy: 0 wrong" "$all"
expect "the report names the kernel" "^kernel_demangled_name = saxpy\(int, float, float const\*, float\*\)" "$all"
expect "the full report" "L1D_total_cache_miss_rate = " "$all"
expect "the bad config line is refused with file:line" \
    "tut/my.config:[0-9]+:18: error: unknown warp scheduler 'lrrr'" "$all"
expect "the refusal exits with status 2" "^exit status 2" "$all"
expect "annotate lists the saxpy load first" \
    "^ +1 .*saxpy.cu:8 +ld.global" "$all"
expect "the two policies compared" "^lrr: [0-9]+ cycles, IPC" "$all"
for f in results.csv summary.md ipc.svg mpki.svg stalls.svg; do
    if [ -s "$tmp/tut/sweep/$f" ]; then ok "sweep wrote $f"; else bad "sweep: no $f"; fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
