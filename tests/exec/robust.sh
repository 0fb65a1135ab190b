#!/bin/bash
# Robustness of `ptxsim exec` (issue 17, and the page model of docs/engine.md):
# hand-written kernels of tests/exec/robust.ptx (no nvcc needed). Each case
# must end with the proper error, never a crash (signal) or a hang:
#   - a grid of 131072 x 32768 CTAs (2^32: the CTA index used to divide by 0)
#     runs until its trap in CTA (3,0,0); grids past CUDA's limits are refused;
#   - an endless kernel stops at the budget with a message naming --budget;
#   - a load 1 KiB before a buffer succeeds by default (a mapped page) and is
#     counted in the summary, and faults with its PTX line under --memcheck;
#   - 4 GiB of static shared memory and 1 MiB of local memory are refused;
#   - buffer sizes that overflow, and too many or too few arguments, are
#     refused with a message (exit 2).
#
# Environment (from AM_TESTS_ENVIRONMENT): PTXSIM (required), srcdir.
# Prints "N passed, M failed"; exits 1 on any failure.

set -u

if [ -z "${PTXSIM:-}" ] || [ ! -x "$PTXSIM" ]; then
    echo "robust.sh: PTXSIM is not set to the ptxsim binary" >&2
    exit 1
fi
ptx="${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/exec/robust.ptx"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxsim-robust.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

pass=0
fail=0
ok() { pass=$((pass + 1)); echo "PASS: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }

# check NAME WANT-STATUS PATTERN -- ARGS...: runs ptxsim exec ARGS (60 s at most) and
# wants that exit status and PATTERN (grep -E) in its stderr.
check() {
    local name=$1 want=$2 pat=$3 rc
    shift 4
    timeout 60 "$PTXSIM" exec "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    rc=$?
    if [ "$rc" -ne "$want" ]; then
        bad "$name: exit status $rc, want $want: $(head -c 400 "$tmp/$name.err")"
    elif ! grep -qE "$pat" "$tmp/$name.err"; then
        bad "$name: stderr lacks /$pat/: $(head -c 400 "$tmp/$name.err")"
    else
        ok "$name: $(head -n 1 "$tmp/$name.err")"
    fi
}

check grid_2pow32 1 "trap in kernel 'trap_at_cta3', CTA \(3,0,0\)" -- \
    --grid 131072,32768 "$ptx" trap_at_cta3
check grid_x_limit 1 "invalid launch configuration: grid \(2147483648,1,1\).*limits" -- \
    --grid 2147483648 "$ptx" trap_at_cta3
check grid_y_limit 1 "invalid launch configuration: grid \(1,65536,1\)" -- \
    --grid 1,65536 "$ptx" trap_at_cta3
check grid_z_limit 1 "invalid launch configuration: grid \(1,1,65536\)" -- \
    --grid 1,1,65536 "$ptx" trap_at_cta3
check grid_too_wide 2 "usage" -- --grid 4294967296 "$ptx" trap_at_cta3
check budget 1 "runaway kernel: more than 100000 warp instructions.*--budget" -- \
    --budget 100000 "$ptx" spin
check edge_read_default 0 "1 device accesses fell outside every allocation.*--memcheck" -- \
    --block 32 "$ptx" edge_read 'o=u32[32]' --print o:4
if [ "$(cat "$tmp/edge_read_default.out")" != "o: 0 1 2 3" ]; then
    bad "edge_read_default: output '$(cat "$tmp/edge_read_default.out")', want 'o: 0 1 2 3'"
fi
line=$(grep -n 'EDGE_READ' "$ptx" | head -n 1 | cut -d: -f1)
check edge_read_memcheck 1 "robust.ptx:$line:.*load from global address .* in kernel 'edge_read', CTA \(0,0,0\), thread \(0,0,0\)" -- \
    --memcheck --block 32 "$ptx" edge_read 'o=u32[32]'
check huge_shared 1 "'huge_shared' needs 4 GiB or more of shared memory" -- "$ptx" huge_shared
check huge_local 1 "'huge_local' needs 1048576 bytes of local memory per thread" -- \
    "$ptx" huge_local
check buffer_overflow 2 "larger than" -- "$ptx" edge_read 'a=f64[0x2000000000000001]'
check buffer_count_junk 2 "bad argument" -- "$ptx" edge_read 'a=f64[12x]'
check extra_args 2 "takes 1 parameter, 2 arguments given" -- "$ptx" edge_read 'a=u32[4]' u32:3
check missing_args 2 "takes 1 parameter, 0 arguments given" -- "$ptx" edge_read

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
