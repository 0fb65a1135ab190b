#!/bin/bash
# -ptxsim_l1d_trace and `ptxsim belady` end to end (seed 004, oracles 29, 30 and 34): a
# small workload runs on the CCWS machine with its L1D reads recorded; the replay must
#  - see every read the run's L1D counted, and exactly the run's misses (the trace marks
#    them), per the stats JSON;
#  - give Belady misses <= LRU misses and compulsory misses <= Belady misses, per SM;
#  - give, with the "timed" LRU replay (fills and write hits refresh a line, a line
#    waiting for its fill is never evicted, as in the timing L1D), the run's new misses
#    to within 0.1% (oracle 30), and with the plain read-only LRU replay (the paper's
#    stand-alone cache) within LRU_TOLERANCE percent (default 5). The run's miss count
#    also includes reads merged into pending misses (mshr_merges), hits to any replay;
#    docs/sched/belady.md gives the measured gaps.
# Environment: PTXSIM (the ptxsim binary), top_builddir; WORKLOADS_BIN (default
# $top_builddir/benchmarks/workloads/bin); exits 77 (skip) when spmv_csr is not built
# there (`make workloads`). L1D_TRACE_WORKLOAD / L1D_TRACE_SIZE pick another run.
set -u
# The workload program does not free its host buffers; leak checks are for ptxsim, not it.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
unset PTXSIM_CONFIG PTXSIM_OPTIONS PTXSIM_BUDGET PTXSIM_STATS PTXSIM_MODE
builddir="${top_builddir:-$(pwd)}"
bin="${WORKLOADS_BIN:-$builddir/benchmarks/workloads/bin}"
wl="${L1D_TRACE_WORKLOAD:-spmv_csr}"
size="${L1D_TRACE_SIZE:-test}"
tol="${LRU_TOLERANCE:-5}"
if [ -z "${PTXSIM:-}" ] || [ ! -x "$PTXSIM" ]; then
    echo "l1d_trace.sh: PTXSIM is not set to the ptxsim binary" >&2
    exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxsim-l1dt.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
if [ ! -x "$bin/$wl" ]; then
    # Not built by `make workloads`: build the one program needed here with nvcc.
    src="${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/benchmarks/workloads"
    if [ -n "${NVCC:-}" ] && command -v "$NVCC" >/dev/null 2>&1 &&
        "$NVCC" -cudart shared -arch=sm_75 -O2 -I"$src/common" -o "$tmp/$wl" "$src/$wl/$wl.cu" \
            >"$tmp/nvcc.log" 2>&1; then
        bin="$tmp"
    else
        echo "SKIP: $bin/$wl is not built (make workloads) and nvcc could not build it"
        exit 77
    fi
fi

# A hand-made trace (SM 0, one set of 2 ways), reads A B A B C A B by warps 0 1 0 2 0 0 1,
# each miss filled at once, kinds as a 2-way LRU cache has them. Oracle 28 (its A B C A B
# as the tail): Belady 4 misses (C evicts B, read last), LRU 5. Oracle 33: the hit on A is
# by its allocator (intra), the hit on B by another warp (inter).
python3 - "$tmp/hand.bin" <<'PY'
import struct, sys
H, M, F = 0, 1, 3
line = {"A": 1, "B": 2, "C": 3}
recs = []
for l, w, k in [("A", 0, M), ("B", 1, M), ("A", 0, H), ("B", 2, H), ("C", 0, M),
                ("A", 0, M), ("B", 1, M)]:
    recs.append((l, w, k))
    if k == M:
        recs.append((l, w, F))
with open(sys.argv[1], "wb") as f:
    f.write(b"PSL1DTR1" + struct.pack("<IIIIQ", 1, 1, 2, 128, 0))
    for l, w, k in recs:
        f.write(struct.pack("<QHHHBB", line[l], 0, w, 0, k, 0))
PY
"$PTXSIM" belady "$tmp/hand.bin" >"$tmp/hand.out" 2>&1
# reads run_misses run_new lru timed_lru belady compulsory intra inter differ stuck
want="total 7 5 5 5 5 4 3 1 1 0 0"
got=$(awk '$1 == "total" {$1 = $1; print}' "$tmp/hand.out")
if [ "$got" != "$want" ]; then
    echo "FAIL: hand-made trace: got '$got', want '$want'"; cat "$tmp/hand.out"; exit 1
fi
echo "PASS: hand-made trace ($want)"

"$PTXSIM" run --config ccws-30core -o ptxsim_l1d_trace="$tmp/t.bin" -o ptxsim_print_stats=0 \
    --stats "$tmp/s.json" -- "$bin/$wl" "$size" >"$tmp/run.out" 2>"$tmp/run.err"
if ! grep -q "^PASS $wl" "$tmp/run.out"; then
    echo "FAIL: $wl $size did not pass"; sed -n 1,20p "$tmp/run.err"; exit 1
fi
if ! "$PTXSIM" belady "$tmp/t.bin" --stats "$tmp/s.json" >"$tmp/b.out" 2>"$tmp/b.err"; then
    echo "FAIL: ptxsim belady"; cat "$tmp/b.err"; exit 1
fi
cat "$tmp/b.out"
python3 - "$tmp/s.json" "$tmp/b.out" "$tol" <<'PY'
import json, sys
l1d = json.load(open(sys.argv[1]))["timing_total"]["l1d"]
tol = float(sys.argv[3])
rows, bad = {}, []
for line in open(sys.argv[2]):
    f = line.split()
    if len(f) == 12 and (f[0].isdigit() or f[0] == "total"):
        rows[f[0]] = [int(x) for x in f[1:]]
tot = rows.get("total")
if not tot or len(rows) < 2:
    sys.exit("FAIL: no per-SM rows in the belady output")
reads, run, new, lru, timed, bel, comp, intra, inter, differ, stuck = tot
if reads != l1d["reads"]:
    bad.append("trace reads %d != the run's L1D reads %d" % (reads, l1d["reads"]))
# The trace's misses are the reads that did not hit: GPGPU-Sim's read misses plus the reads
# merged into a pending miss (its pending hits).
if new != l1d["read_misses"]:
    bad.append("trace new misses %d != the run's L1D read misses %d" % (new, l1d["read_misses"]))
if run - new != l1d["read_pending_hits"]:
    bad.append("trace merges %d != the run's L1D read pending hits %d"
               % (run - new, l1d["read_pending_hits"]))
if intra + inter > reads - run or intra + inter < reads - run - differ:
    bad.append("intra %d + inter %d hits do not add up to the run's hits %d"
               % (intra, inter, reads - run))
for sm, (r, m, n, l, t, b, c, i1, i2, d, s) in rows.items():
    if not (c <= b <= l):  # oracle 29 (Belady <= LRU), oracle 34 (compulsory is the floor)
        bad.append("SM %s: compulsory %d <= belady %d <= lru %d fails" % (sm, c, b, l))
def gap(a, b):
    return 100.0 * (a - b) / b if b else 0.0
# oracle 30: the replay that follows fills and reservations as the timing L1D does is
# within 0.1% of the run's new misses; the plain read-only LRU replay within the tolerance.
print("timed LRU replay %+.3f%%, LRU replay %+.3f%% vs the run's %d new misses"
      % (gap(timed, new), gap(lru, new), new))
if abs(gap(timed, new)) > 0.1 or stuck:
    bad.append("timed LRU replay %d is %+.3f%% off the run's %d new misses (%d stuck)"
               % (timed, gap(timed, new), new, stuck))
if abs(gap(lru, new)) > tol:
    bad.append("LRU replay is %+.2f%% off the run's new misses (tolerance %s%%)" % (gap(lru, new), tol))
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
rc=$?
[ $rc = 0 ] && echo "PASS: l1d_trace"
exit $rc
