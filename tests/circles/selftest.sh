#!/bin/bash
# scripts/check-circles on a made-up tree, so the check itself is known to fail when it
# should: isa/a.c and isa/b.c call each other and isa/c.c (a leaf) is called by both;
# libtool's .libs/ and per-target prefixes (libx_la-b.o) must map back to their sources.
#   - the circle is found (exit 1) and printed as "isa/a.c -> isa/b.c -> isa/a.c";
#   - listed in an exceptions file (as a shell pattern), it is allowed (exit 0);
#   - once b.c no longer calls a.c, the tree is clean (exit 0);
#   - a circle of three files (a -> b -> c -> a) is found too.
#
# Environment (from AM_TESTS_ENVIRONMENT): srcdir, CC. Prints "N passed, M failed".

set -u
top="${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}"
check="$top/scripts/check-circles"
cc="${CC:-cc}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxsim-circles.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

pass=0
fail=0
ok() { pass=$((pass + 1)); echo "PASS: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }

# tree A_CALLS B_CALLS C_CALLS: writes src/isa/{a,b,c}.c, each defining fa/fb/fc and
# calling the functions named, and compiles them into build/isa/.libs/.
tree() {
    rm -rf "$tmp/src" "$tmp/build"
    mkdir -p "$tmp/src/isa" "$tmp/build/isa/.libs"
    local n calls body
    for n in a b c; do
        case $n in a) calls=$1 ;; b) calls=$2 ;; c) calls=$3 ;; esac
        body=""
        for f in $calls; do body="$body void $f(void); $f();"; done
        printf 'void f%s(void);\nvoid f%s(void) { %s }\n' "$n" "$n" "$body" >"$tmp/src/isa/$n.c"
    done
    "$cc" -c -o "$tmp/build/isa/.libs/a.o" "$tmp/src/isa/a.c" &&
        "$cc" -c -o "$tmp/build/isa/.libs/libx_la-b.o" "$tmp/src/isa/b.c" &&
        "$cc" -c -o "$tmp/build/isa/c.o" "$tmp/src/isa/c.c"
}

# run NAME WANT-STATUS PATTERN [options]: check-circles on the tree.
run() {
    local name=$1 want=$2 pat=$3 rc
    shift 3
    python3 "$check" "$tmp/build" --srcdir "$tmp/src" "$@" >"$tmp/out" 2>&1
    rc=$?
    if [ "$rc" -ne "$want" ]; then
        bad "$name: exit status $rc, want $want: $(cat "$tmp/out")"
    elif ! grep -qE "$pat" "$tmp/out"; then
        bad "$name: output lacks /$pat/: $(cat "$tmp/out")"
    else
        ok "$name"
    fi
}

if ! command -v nm >/dev/null || ! command -v python3 >/dev/null; then
    echo "SKIP: nm or python3 missing"
    exit 77
fi
: >"$tmp/none"
printf '# test\nisa/a.c isa/b*.c\n' >"$tmp/allowed"

tree "fb fc" "fa fc" "" || { echo "FAIL: cc"; exit 1; }
run two_file_circle 1 "circle: isa/a\.c -> isa/b\.c -> isa/a\.c" --exceptions "$tmp/none"
run allowed 0 "allowed circle .*isa/a\.c -> isa/b\.c" --exceptions "$tmp/allowed"
tree "fb fc" "fc" "" || { echo "FAIL: cc"; exit 1; }
run clean 0 "3 files, 0 circle" --exceptions "$tmp/none"
tree "fb" "fc" "fa" || { echo "FAIL: cc"; exit 1; }
run three_file_circle 1 "circle: isa/a\.c -> isa/b\.c -> isa/c\.c -> isa/a\.c" \
    --exceptions "$tmp/none"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
