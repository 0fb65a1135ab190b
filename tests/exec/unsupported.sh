#!/bin/bash
# Unsupported instructions are refused when a module loads (isa/opcodes.def's
# execution classes, isa/supported.c), with the PTX file:line:col, before any kernel
# runs, even where the instruction would never execute:
#   - tests/exec/unsupported_op.ptx: an opcode without an execution class (pmevent);
#   - tests/exec/unsupported_type.ptx: an ALU opcode with a type it lacks (rem.f32).
# The same modules without the offending line load and run (the kernel writes 7).
#
# Environment (from AM_TESTS_ENVIRONMENT): PTXSIM (required), srcdir.
# Prints "N passed, M failed"; exits 1 on any failure.

set -u

if [ -z "${PTXSIM:-}" ] || [ ! -x "$PTXSIM" ]; then
    echo "unsupported.sh: PTXSIM is not set to the ptxsim binary" >&2
    exit 1
fi
dir="${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/exec"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxsim-unsupported.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

pass=0
fail=0
ok() { pass=$((pass + 1)); echo "PASS: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }

# refused NAME FILE PATTERN: ptxsim exec FILE fails (status 1) with PATTERN (grep -E)
# in its stderr, and the kernel never ran (no printed output).
refused() {
    local name=$1 file=$2 pat=$3 rc
    timeout 60 "$PTXSIM" exec "$file" store7 'o=u32[1]' --print o >"$tmp/$name.out" \
        2>"$tmp/$name.err"
    rc=$?
    if [ "$rc" -ne 1 ]; then
        bad "$name: exit status $rc, want 1: $(head -c 400 "$tmp/$name.err")"
    elif ! grep -qE "$pat" "$tmp/$name.err"; then
        bad "$name: stderr lacks /$pat/: $(head -c 400 "$tmp/$name.err")"
    elif [ -s "$tmp/$name.out" ]; then
        bad "$name: the kernel ran: $(head -c 200 "$tmp/$name.out")"
    else
        ok "$name: $(head -n 1 "$tmp/$name.err")"
    fi
}

# runs NAME FILE LINE: FILE without line LINE loads, and the kernel writes 7.
runs() {
    local name=$1 file=$2 line=$3
    sed "${line}d" "$file" >"$tmp/$name.ptx"
    if ! timeout 60 "$PTXSIM" exec "$tmp/$name.ptx" store7 'o=u32[1]' --print o \
        >"$tmp/$name.out" 2>"$tmp/$name.err"; then
        bad "$name: exit status $?: $(head -c 400 "$tmp/$name.err")"
    elif ! grep -qw 7 "$tmp/$name.out"; then
        bad "$name: output lacks 7: $(head -c 200 "$tmp/$name.out")"
    else
        ok "$name"
    fi
}

refused opcode "$dir/unsupported_op.ptx" \
    "unsupported_op\.ptx:11:2: .*instruction 'pmevent' .* in function 'never_called' is not supported"
refused types "$dir/unsupported_type.ptx" \
    "unsupported_type\.ptx:18:2: .*'rem\.f32' \(remainder with these types\) in function 'store7' is not supported"
runs opcode_removed "$dir/unsupported_op.ptx" 11
runs types_removed "$dir/unsupported_type.ptx" 18

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
