#!/bin/bash
# End-to-end tests of `ptxsim objdump` (frontend/fatbin through the CLI).
#
# Without nvcc: the checked-in fixtures (tests/fatbin/*.fatbin, libtiny.elf)
# list their entries and kernels, and files without a fat binary exit 1.
# With nvcc: tests/fatbin/vadd.cu built with -cudart shared and each
# --compress-mode (none, default, speed, balance, size) must show the
# expected compression per entry, list both kernels, and print the same PTX
# text (with its .entry lines) as the uncompressed build; multi-arch
# -gencode builds list one entry per architecture; a shared library and an
# -rdc build (PTX in __nv_relfatbin) are read too.
#
# Environment (from AM_TESTS_ENVIRONMENT): PTXSIM (required), NVCC (the CUDA
# part is skipped loudly when empty or missing), srcdir (top source dir).
# Prints "N passed, M failed"; exits 1 on any failure.

set -u

if [ -z "${PTXSIM:-}" ] || [ ! -x "$PTXSIM" ]; then
    echo "compress_modes.sh: PTXSIM is not set to the ptxsim binary" >&2
    exit 1
fi
here="${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/fatbin"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxsim-fatbin.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

pass=0
fail=0
ok() { pass=$((pass + 1)); echo "PASS: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }

VADD='_Z4vaddPKfS0_Pfi'
VSCALE='_Z6vscalePffi'

# expect NAME FILE PATTERN...: every extended regex PATTERN occurs in FILE.
expect() {
    local name=$1 file=$2 p
    shift 2
    for p in "$@"; do
        if ! grep -Eq -- "$p" "$file"; then
            bad "$name: no line matches '$p' in: $(head -c 2000 "$file")"
            return 1
        fi
    done
    ok "$name"
}

# objdump NAME OUT ARGS...: runs `ptxsim objdump ARGS`, stdout to OUT; must exit 0.
objdump() {
    local name=$1 out=$2
    shift 2
    if ! "$PTXSIM" objdump "$@" >"$out" 2>"$out.err"; then
        bad "$name: ptxsim objdump $* failed: $(cat "$out.err")"
        return 1
    fi
}

# ---- checked-in fixtures ---------------------------------------------------
for m in none default speed size; do
    f="$here/vadd_$m.fatbin"
    objdump "fixture $m" "$tmp/fx_$m.txt" "$f" &&
        expect "fixture $m lists 3 entries and both kernels" "$tmp/fx_$m.txt" \
            '3 entries' "^entry 2: PTX sm_75, PTX 9\.0" "kernel $VADD\$" "kernel $VSCALE\$"
done
objdump "libtiny.elf" "$tmp/tiny.txt" "$here/libtiny.elf" &&
    expect "libtiny.elf lists its kernel" "$tmp/tiny.txt" 'kernel _Z8tiny_setPii$'

# Files without a fat binary: exit 1 with a message naming the file.
"$PTXSIM" objdump "$PTXSIM" >"$tmp/nofb.out" 2>"$tmp/nofb.err"
rc=$?
if [ "$rc" -eq 1 ] && grep -q "no fat binary" "$tmp/nofb.err" && grep -qF "$PTXSIM" "$tmp/nofb.err"; then
    ok "no fatbin: exit 1, $(cat "$tmp/nofb.err")"
else
    bad "no fatbin: exit $rc, stderr: $(cat "$tmp/nofb.err")"
fi
"$PTXSIM" objdump "$here/vadd.cu" >"$tmp/notelf.out" 2>"$tmp/notelf.err"
rc=$?
if [ "$rc" -eq 1 ] && grep -q "not an ELF file" "$tmp/notelf.err"; then
    ok "not ELF: exit 1, $(cat "$tmp/notelf.err")"
else
    bad "not ELF: exit $rc, stderr: $(cat "$tmp/notelf.err")"
fi
"$PTXSIM" objdump >/dev/null 2>&1
rc=$?
[ "$rc" -eq 2 ] && ok "no file: usage, exit 2" || bad "no file: exit $rc, want 2"

# ---- builds with nvcc --------------------------------------------------------
if [ -z "${NVCC:-}" ] || ! command -v "$NVCC" >/dev/null 2>&1; then
    echo "SKIP: NVCC is not set or not found; the nvcc builds were not tested"
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit
fi

# build NAME NVCC-ARGS...: $tmp/NAME from vadd.cu (in the background; see wait_builds).
build() {
    local name=$1
    shift
    "$NVCC" -cudart shared "$@" -o "$tmp/$name" "$here/vadd.cu" >"$tmp/$name.log" 2>&1 &
}

modes="none default speed balance size"
for m in $modes; do
    build "vadd_$m" -arch=sm_75 --compress-mode=$m
done
build multi -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=compute_80
wait
build multi3 -gencode arch=compute_75,code=compute_75 -gencode arch=compute_80,code=compute_80 \
    -gencode arch=compute_86,code=sm_86
build rdc -rdc=true -arch=sm_75
"$NVCC" -shared -Xcompiler -fPIC -cudart shared -arch=sm_75 --compress-mode=speed \
    -o "$tmp/libtiny.so" "$here/tiny.cu" >"$tmp/libtiny.log" 2>&1 &
wait

built() {
    if [ ! -s "$tmp/$1" ]; then
        bad "$1: nvcc failed: $(cat "$tmp/$1.log")"
        return 1
    fi
}

# Expected compression of the PTX and ELF entries per mode (prior-art.md 6.4).
declare -A ptx_c=([none]=uncompressed [default]=zstd [speed]=lz4 [balance]=zstd [size]=zstd)
declare -A elf_c=([none]=uncompressed [default]=uncompressed [speed]=uncompressed
    [balance]=uncompressed [size]=zstd)
for m in $modes; do
    built "vadd_$m" || continue
    objdump "$m list" "$tmp/$m.list" "$tmp/vadd_$m" &&
        expect "$m: PTX ${ptx_c[$m]}, ELF ${elf_c[$m]}, both kernels" "$tmp/$m.list" \
            "^entry [0-9]+: PTX sm_75, PTX 9\.0, [0-9]+ bytes ${ptx_c[$m]}" \
            "^entry [0-9]+: ELF sm_75, version [0-9.]+, [0-9]+ bytes ${elf_c[$m]}" \
            "kernel $VADD\$" "kernel $VSCALE\$"
    objdump "$m --ptx" "$tmp/$m.ptx" --ptx "$tmp/vadd_$m" &&
        expect "$m --ptx prints the kernels' text" "$tmp/$m.ptx" \
            "^\.visible \.entry $VADD\(" "^\.visible \.entry $VSCALE\(" '^\.version 9\.0$'
    # Decompressed text equals the uncompressed build's (the comment header aside).
    if [ "$m" != none ] && [ -s "$tmp/none.ptx" ] && [ -s "$tmp/$m.ptx" ]; then
        if cmp -s <(grep -v '^// ' "$tmp/none.ptx") <(grep -v '^// ' "$tmp/$m.ptx"); then
            ok "$m --ptx text equals the none build's"
        else
            bad "$m --ptx text differs from the none build's"
        fi
    fi
done

if built multi && objdump "multi" "$tmp/multi.list" "$tmp/multi"; then
    expect "multi: ELF sm_75 and PTX sm_80" "$tmp/multi.list" \
        '^entry [0-9]+: ELF sm_75' '^entry [0-9]+: PTX sm_80, PTX 9\.0' "kernel $VADD\$"
    n=$(grep -c '^entry' "$tmp/multi.list")
    [ "$n" -ge 3 ] && ok "multi: $n entries" || bad "multi: $n entries, want >= 3"
fi
if built multi3 && objdump "multi3" "$tmp/multi3.list" "$tmp/multi3"; then
    expect "multi3: PTX sm_75, PTX sm_80, ELF sm_86" "$tmp/multi3.list" \
        '^entry [0-9]+: PTX sm_75' '^entry [0-9]+: PTX sm_80' '^entry [0-9]+: ELF sm_86'
    n=$(grep -c "kernel $VADD\$" "$tmp/multi3.list")
    [ "$n" -eq 2 ] && ok "multi3: kernels of both PTX entries" ||
        bad "multi3: $n PTX entries list $VADD, want 2"
    objdump "multi3 --ptx" "$tmp/multi3.ptx" --ptx "$tmp/multi3" &&
        expect "multi3 --ptx prints both targets" "$tmp/multi3.ptx" \
            '^\.target sm_75$' '^\.target sm_80$'
fi
if built rdc && objdump "rdc" "$tmp/rdc.list" "$tmp/rdc"; then
    expect "rdc: PTX from __nv_relfatbin" "$tmp/rdc.list" '^entry [0-9]+: PTX sm_75' \
        "kernel $VADD\$"
fi
if built libtiny.so && objdump "shared library" "$tmp/lib.list" "$tmp/libtiny.so"; then
    expect "shared library: lz4 PTX and its kernel" "$tmp/lib.list" \
        '^entry [0-9]+: PTX sm_75, PTX 9\.0, [0-9]+ bytes lz4' 'kernel _Z8tiny_setPii$'
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
