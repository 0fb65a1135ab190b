#!/bin/bash
# End-to-end tests of `ptxsim exec`: small CUDA kernels (tests/exec/*.cu)
# compiled to PTX with $NVCC -ptx -arch=compute_75, run with buffers given on
# the command line, and the printed buffers compared with a host reference
# in python3 (exactly, or with a tolerance where the math library is
# involved). Also checks that an out-of-bounds store (tests/exec/oob.ptx,
# hand-written, so it runs without nvcc) makes `ptxsim exec` exit 1 with a
# message naming the kernel and file:line.
#
# Environment (from AM_TESTS_ENVIRONMENT): PTXSIM (required), NVCC (the CUDA
# part is skipped loudly when empty or missing), srcdir (top source dir).
# Prints "N passed, M failed"; exits 1 on any failure, 77 when nothing ran.

set -u

if [ -z "${PTXSIM:-}" ] || [ ! -x "$PTXSIM" ]; then
    echo "exec_cli.sh: PTXSIM is not set to the ptxsim binary" >&2
    exit 1
fi
here="${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/exec"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxsim-exec.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

pass=0
fail=0
ok() { pass=$((pass + 1)); echo "PASS: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }

# ---- out-of-bounds store under --memcheck: exit status 1, kernel name and file:line ----
oob="$here/oob.ptx"
oob_line=$(grep -n 'st.global.u32' "$oob" | head -n 1 | cut -d: -f1)
"$PTXSIM" exec --memcheck --grid 2 --block 32 "$oob" oob_write 'out=u32[40]:zero' --print out \
    >"$tmp/oob.out" 2>"$tmp/oob.err"
rc=$?
if [ "$rc" -ne 1 ]; then
    bad "oob: exit status $rc, want 1"
elif ! grep -q "oob_write" "$tmp/oob.err"; then
    bad "oob: message does not name the kernel: $(cat "$tmp/oob.err")"
elif ! grep -qF "$oob:$oob_line:" "$tmp/oob.err"; then
    bad "oob: message lacks $oob:$oob_line: $(cat "$tmp/oob.err")"
elif ! grep -q "CTA (1,0,0), thread (8,0,0)" "$tmp/oob.err"; then
    bad "oob: message does not name CTA 1 thread 8: $(cat "$tmp/oob.err")"
else
    ok "oob: exit 1, $(head -n 1 "$tmp/oob.err")"
fi

# In-bounds launch of the same kernel works.
if "$PTXSIM" exec --grid 2 --block 20 "$oob" oob_write 'out=u32[40]:zero' --print out \
    >"$tmp/oob2.out" 2>"$tmp/oob2.err" &&
    [ "$(cat "$tmp/oob2.out")" = "out: $(seq -s ' ' 0 39)" ]; then
    ok "oob_write in bounds"
else
    bad "oob_write in bounds: $(cat "$tmp/oob2.out" "$tmp/oob2.err")"
fi

# ---- 32-bit address arithmetic wraps (hand-written PTX) -------------------------
want_wrap="out: $(for i in $(seq 0 63); do printf '%s ' $((i * 3 + 1)); done | sed 's/ $//')"
for k in shared_wrap global_wrap local_wrap; do
    if "$PTXSIM" exec --grid 2 --block 64 "$here/addr32.ptx" "$k" 'out=u32[64]:zero' --print out \
        >"$tmp/$k.out" 2>"$tmp/$k.err" && [ "$(cat "$tmp/$k.out")" = "$want_wrap" ]; then
        ok "addr32 $k"
    else
        bad "addr32 $k: $(cat "$tmp/$k.out" "$tmp/$k.err")"
    fi
done
if "$PTXSIM" exec --grid 1 --block 64 "$here/addr32_mod.ptx" addr32_module 'out=u32[64]:zero' \
    --print out >"$tmp/a32m.out" 2>"$tmp/a32m.err" && [ "$(cat "$tmp/a32m.out")" = "$want_wrap" ]; then
    ok "addr32 .address_size 32 module"
else
    bad "addr32 .address_size 32 module: $(cat "$tmp/a32m.out" "$tmp/a32m.err")"
fi

# ---- CUDA kernels --------------------------------------------------------------
if [ -z "${NVCC:-}" ] || ! command -v "$NVCC" >/dev/null 2>&1; then
    echo "SKIP: NVCC is not set or not found; the CUDA kernels were not run"
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ] || exit 1
    exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP: python3 not found; the CUDA kernels were not checked"
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ] || exit 1
    exit 0
fi

cat >"$tmp/ref.py" <<'EOF'
# Inputs and host reference results of the exec_cli.sh kernels.
import math, struct, sys

def f32(v):
    return struct.unpack('<f', struct.pack('<f', v))[0]

N_MM, N_MATH, N_HIST = 40, 300, 5000

def mm_a(i): return float(i % 7 - 3)
def mm_b(i): return float(i % 5 - 2)
def math_x(i): return f32((i - 150) * 0.37)
def math_y(i): return i * 1.7 + 0.25

def hist_in():
    x, out = 12345, []
    for _ in range(N_HIST):
        x = (x * 1103515245 + 12345) & 0xffffffff
        out.append(x)
    return out

def gen(d):
    w = lambda name, fmt, vals: open(f'{d}/{name}', 'wb').write(
        b''.join(struct.pack('<' + fmt, v) for v in vals))
    w('mm_a.bin', 'f', [mm_a(i) for i in range(N_MM * N_MM)])
    w('mm_b.bin', 'f', [mm_b(i) for i in range(N_MM * N_MM)])
    w('math_x.bin', 'f', [math_x(i) for i in range(N_MATH)])
    w('math_y.bin', 'd', [math_y(i) for i in range(N_MATH)])
    w('hist_in.bin', 'I', hist_in())

def expected(name, arg):
    if name == 'vecadd':
        return {'c': [f32(i + 0.5) for i in range(1000)]}, 0.0
    if name == 'reduce':
        grid, block, n = arg
        sums = [0] * grid
        for i in range(n):
            sums[(i % (grid * block)) // block] += i
        return {'out': sums}, 0.0
    if name == 'matmul':
        n = N_MM
        c = [sum(mm_a(r * n + k) * mm_b(k * n + j) for k in range(n))
             for r in range(n) for j in range(n)]
        return {'C': c}, 0.0
    if name == 'mathlib':
        xs = [math_x(i) for i in range(N_MATH)]
        ys = [math_y(i) for i in range(N_MATH)]
        return {'s': [math.sin(x) for x in xs],
                'e': [math.exp(f32(x * 0.125)) for x in xs],
                'q': [math.sqrt(y) for y in ys],
                't': [math.sin(y) + math.exp(-y * 0.01) + math.log(y + 1.0) for y in ys]}, 1
    if name == 'histogram':
        bins = [0] * 64
        for v in hist_in():
            bins[v % 64] += 1
        return {'bins': bins}, 0.0
    raise SystemExit(f'unknown kernel {name}')

# Tolerances for the math library: CUDA's documented ulp bounds, generously.
TOL = {'s': (4e-7, 1e-6), 'e': (0.0, 1e-6), 'q': (0.0, 1e-15), 't': (1e-13, 1e-13)}

def check(name, out_file, arg):
    want, approx = expected(name, arg)
    got = {}
    for line in open(out_file):
        key, _, vals = line.partition(':')
        got[key] = [float(v) for v in vals.split()]
    for key, ref in want.items():
        vals = got.get(key)
        if vals is None or len(vals) != len(ref):
            print(f'{name}: buffer {key}: {0 if vals is None else len(vals)} values, want {len(ref)}')
            return 1
        abs_tol, rel_tol = TOL[key] if approx else (0.0, 0.0)
        for i, (g, r) in enumerate(zip(vals, ref)):
            if abs(g - r) > abs_tol + rel_tol * abs(r):
                print(f'{name}: {key}[{i}] = {g!r}, want {r!r}')
                return 1
    return 0

if __name__ == '__main__':
    if sys.argv[1] == 'gen':
        gen(sys.argv[2])
    else:
        arg = tuple(int(a) for a in sys.argv[3:])
        sys.exit(check(sys.argv[1], sys.argv[2], arg))
EOF
python3 "$tmp/ref.py" gen "$tmp" || { echo "exec_cli.sh: cannot write inputs" >&2; exit 1; }

# compile NAME: $here/NAME.cu -> $tmp/NAME.ptx
compile() {
    if "$NVCC" -ptx -arch=compute_75 -o "$tmp/$1.ptx" "$here/$1.cu" >"$tmp/$1.nvcc" 2>&1; then
        return 0
    fi
    bad "$1: nvcc failed: $(cat "$tmp/$1.nvcc")"
    return 1
}

# run LABEL NAME REFARGS -- EXEC-ARGS...: runs ptxsim exec and checks the printed buffers.
run() {
    local label=$1 name=$2 refargs=$3
    shift 4
    if ! "$PTXSIM" exec "$@" >"$tmp/$label.out" 2>"$tmp/$label.err"; then
        bad "$label: ptxsim exec failed: $(cat "$tmp/$label.err")"
        return
    fi
    # shellcheck disable=SC2086
    if msg=$(python3 "$tmp/ref.py" "$name" "$tmp/$label.out" $refargs); then
        ok "$label"
    else
        bad "$label: $msg"
    fi
}

if compile vecadd; then
    run vecadd vecadd "" -- --grid 4 --block 256 "$tmp/vecadd.ptx" vecadd \
        'a=f32[1000]:iota' 'b=f32[1000]:fill=0.5' 'c=f32[1000]:zero' s32:1000 --print c
fi
if compile reduce; then
    run reduce_256 reduce "8 256 10000" -- --grid 8 --block 256 "$tmp/reduce.ptx" reduce \
        'in=s32[10000]:iota' 'out=s32[8]:zero' s32:10000 --print out
    run reduce_160 reduce "5 160 10000" -- --grid 5 --block 160 "$tmp/reduce.ptx" reduce \
        'in=s32[10000]:iota' 'out=s32[5]:zero' s32:10000 --print out
fi
if compile matmul; then
    run matmul matmul "" -- --grid 3,3 --block 16,16 "$tmp/matmul.ptx" matmul \
        "A=f32[1600]:file=$tmp/mm_a.bin" "B=f32[1600]:file=$tmp/mm_b.bin" 'C=f32[1600]:zero' \
        s32:40 --print C
fi
if compile mathlib; then
    run mathlib mathlib "" -- --grid 3 --block 128 "$tmp/mathlib.ptx" mathlib \
        "x=f32[300]:file=$tmp/math_x.bin" 's=f32[300]:zero' 'e=f32[300]:zero' \
        "y=f64[300]:file=$tmp/math_y.bin" 'q=f64[300]:zero' 't=f64[300]:zero' s32:300 \
        --print s --print e --print q --print t
fi
if compile histogram; then
    run histogram histogram "" -- --grid 6 --block 100 "$tmp/histogram.ptx" histogram \
        "in=u32[5000]:file=$tmp/hist_in.bin" 'bins=u32[64]:zero' s32:5000 --print bins
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
