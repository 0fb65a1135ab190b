#!/bin/bash
# Per-PTX-line statistics (issue 22, item 3): a kernel with a known hot load
# (tests/report/hot_load.cu, the line marked HOT) runs with -enable_ptx_file_line_stats 1
# and -ptx_line_stats_filename; `ptxsim annotate` must list that load first, by PTX
# instruction and by CUDA source line. The profile must not change the run's statistics,
# and without the option no file is written.
# Environment (from AM_TESTS_ENVIRONMENT): PTXSIM, NVCC (skipped when missing), srcdir.
set -u

if [ -z "${PTXSIM:-}" ] || [ ! -x "$PTXSIM" ]; then
    echo "line_stats.sh: PTXSIM is not set to the ptxsim binary" >&2
    exit 1
fi
if [ -z "${NVCC:-}" ] || ! command -v "$NVCC" >/dev/null 2>&1; then
    echo "SKIP: NVCC is not set or not found"
    exit 77
fi
top="${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}"
src="$top/tests/report/hot_load.cu"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxsim-lines.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
unset PTXSIM_CONFIG PTXSIM_OPTIONS PTXSIM_MODE PTXSIM_BUDGET PTXSIM_STATS
cd "$tmp" || exit 1

pass=0
fail=0
ok() { pass=$((pass + 1)); echo "PASS: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }

hot=$(grep -n '// HOT' "$src" | cut -d: -f1)
if ! "$NVCC" -cudart shared -arch=sm_75 -lineinfo -o hot "$src" >build.log 2>&1; then
    echo "FAIL: nvcc: $(cat build.log)"
    exit 1
fi
common=(-o ptxsim_print_stats=0 -o ptxsim_progress_interval=0)
if "$PTXSIM" run "${common[@]}" --stats plain.json -- ./hot >plain.out 2>plain.err &&
    [ ! -e gpgpu_inst_stats.txt ]; then
    ok "without the option: no per-line file"
else
    bad "plain run: $(cat plain.out plain.err; ls)"
fi
if "$PTXSIM" run "${common[@]}" --stats lines.json -o enable_ptx_file_line_stats=1 \
    -o ptx_line_stats_filename=lines.txt -- ./hot >lines.out 2>lines.err && [ -s lines.txt ]; then
    ok "-enable_ptx_file_line_stats 1 writes -ptx_line_stats_filename"
else
    bad "profiled run: $(cat lines.out lines.err)"
fi
# Everything but the wall-clock figures and the two options themselves.
strip() { grep -v -e enable_ptx_file_line_stats -e ptx_line_stats_filename "$1" |
    sed -E 's/"(wall_s|sim_rate)": [0-9.e+-]*//g'; }
if cmp -s <(strip plain.json) <(strip lines.json); then
    ok "the profile leaves the statistics unchanged"
else
    bad "statistics differ with the profile: $(diff <(strip plain.json) <(strip lines.json) | head -5)"
fi

"$PTXSIM" annotate --top 3 lines.txt >annotate.out 2>annotate.err
rc=$?
first=$(sed -n '/^by PTX instruction:/{n;n;p;q}' annotate.out)
first_src=$(sed -n '/^by CUDA source line:/{n;n;p;q}' annotate.out)
if [ "$rc" -eq 0 ] && [[ "$first" == *"hot_load.cu:$hot "*"ld.global"* ]]; then
    ok "annotate lists the hot load (hot_load.cu:$hot) first"
else
    bad "annotate (status $rc), first instruction: '$first'; $(cat annotate.out annotate.err)"
fi
if [[ "$first_src" == *"hot_load.cu:$hot" ]]; then
    ok "annotate lists source line $hot first"
else
    bad "first source line: '$first_src'"
fi
# The hot load's row: every L1D access a miss, all of them in the L2 too (cold DRAM lines).
row=$(awk -F'\t' -v l="$hot" '$1 == "I" && $4 ~ (":" l "$") && $21 ~ /^ld.global/' lines.txt)
if [ -n "$row" ] && awk -F'\t' '{ exit !($15 > 0 && $15 == $16 && $17 == $18 && $19 > 0) }' <<<"$row"; then
    ok "the hot load's row: all L1D accesses miss, its replies missed in the L2"
else
    bad "hot load row: '$row'"
fi
if "$PTXSIM" annotate --sort nope lines.txt 2>/dev/null; then
    bad "annotate accepted an unknown sort key"
else
    ok "annotate refuses an unknown sort key"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
