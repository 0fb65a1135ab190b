#!/bin/bash
# Whole-GPU policy oracles: the numbered test oracles of the seed extractions
# (design/seeds/001_dyncta.md section 9, 004_ccws.md section 6) that need a
# complete timing run rather than a policy table driven by hand (those are
# cmocka tests in tests/unit/policies/). Each program in tests/policies/ is
# built with the stock nvcc (-cudart shared) and run with `ptxsim run --mode
# timing --stats FILE` under the policies and machines below; the checks
# read the statistics JSON and the policy traces (-ptxsim_policy_trace).
# README.md in this folder lists the checks and the oracles they cover.
#
# Environment (from AM_TESTS_ENVIRONMENT): PTXSIM (the ptxsim binary), NVCC
# (skip, exit 77, when unset or missing), srcdir (top source dir).
# Optional: POLICY_TEST_JOBS (parallel builds and runs; default nproc),
# POLICY_TEST_TIMEOUT (seconds per run; default 300), POLICY_TEST_KEEP=1.
# Prints one PASS/FAIL line per check and "N passed, M failed"; exits 1 if
# anything failed.

set -u
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

here="${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/policies"
jobs="${POLICY_TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}"
limit="${POLICY_TEST_TIMEOUT:-300}"
nvcc_flags="-cudart shared -arch=sm_75 -O2"
programs="dyn_compute dyn_stream chase small_ws"

if [ -z "${NVCC:-}" ] || ! command -v "$NVCC" >/dev/null 2>&1; then
    echo "SKIP: NVCC is not set or not found (NVCC='${NVCC:-}'); the policy tests need nvcc"
    exit 77
fi
if [ -z "${PTXSIM:-}" ] || [ ! -x "$PTXSIM" ]; then
    echo "run.sh: PTXSIM is not set to the ptxsim binary (PTXSIM='${PTXSIM:-}')" >&2
    exit 1
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "FAIL: python3 is needed to check the statistics"
    echo "0 passed, 1 failed"
    exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxsim-policies.XXXXXX") || exit 1
if [ "${POLICY_TEST_KEEP:-0}" = 1 ]; then
    echo "build directory: $tmp"
else
    trap 'rm -rf "$tmp"' EXIT
fi
mkdir -p "$tmp/bin" "$tmp/run"

build_one() {
    # shellcheck disable=SC2086
    (cd "$tmp/bin" && "$NVCC" $nvcc_flags -o "$1" "$here/$1.cu") >"$tmp/bin/$1.log" 2>&1
    echo $? >"$tmp/bin/$1.rc"
}
export -f build_one
export here tmp nvcc_flags NVCC
# shellcheck disable=SC2086
printf '%s\n' $programs | xargs -P "$jobs" -n 1 bash -c 'build_one "$1"' _
# CAWA oracle 11 runs the bfs workload (benchmarks/workloads/bfs) at its test size.
wl="$here/../../benchmarks/workloads"
(cd "$tmp/bin" && "$NVCC" $nvcc_flags -I"$wl/common" -o bfs "$wl/bfs/bfs.cu") >"$tmp/bin/bfs.log" 2>&1
echo $? >"$tmp/bin/bfs.rc"

# ---- run: ID|PROGRAM|MODE|OPTIONS (every run also writes the policy traces trace.*) ----
d30="--config dyncta-30core"
runs=(
    "compute_dyncta|dyn_compute|timing|$d30 -o ptxsim_cta_scheduler=dyncta"
    "stream_rr|dyn_stream|timing|$d30 -o ptxsim_cta_scheduler=rr"
    "stream_dyncta|dyn_stream|timing|$d30 -o ptxsim_cta_scheduler=dyncta"
    "stream_static1|dyn_stream|timing|$d30 -o ptxsim_cta_scheduler=static:1"
    "stream_static2|dyn_stream|timing|$d30 -o ptxsim_cta_scheduler=static:2"
    "stream_func|dyn_stream|functional|$d30"
    "chase_dyncta|chase|timing|$d30 -o ptxsim_cta_scheduler=dyncta"
    "ws_gto|small_ws|timing|--config gtx480 -o gpgpu_scheduler=gto"
    "ws_ccws|small_ws|timing|--config gtx480 -o gpgpu_scheduler=ccws"
    "ws_bigl1|small_ws|timing|--config gtx480 -o gpgpu_cache:dl1=N:4096:128:8,L:L:m:N:L,S:64:8,8"
    "bfs_lrr|bfs test|timing|--config gtx480 -o gpgpu_scheduler=lrr"
    "bfs_gcaws|bfs test|timing|--config gtx480 -o gpgpu_scheduler=gcaws"
)
run_one() {
    local id prog mode opts
    IFS='|' read -r id prog mode opts <<<"$1"
    local args=${prog#* }
    [ "$args" = "$prog" ] && args=""
    prog=${prog%% *}
    [ "$(cat "$tmp/bin/$prog.rc")" = 0 ] || return 0
    mkdir -p "$tmp/run/$id"
    # shellcheck disable=SC2086
    (cd "$tmp/run/$id" && timeout -k 5 "$limit" "$PTXSIM" run --mode "$mode" $opts \
        -o ptxsim_policy_trace="$tmp/run/$id/trace" -o ptxsim_warp_profile="$tmp/run/$id/warps.csv" \
        --stats stats.json -- "$tmp/bin/$prog" $args >out.txt 2>err.txt </dev/null)
    echo $? >"$tmp/run/$id/rc"
}
export -f run_one
export limit PTXSIM
printf '%s\n' "${runs[@]}" | xargs -d '\n' -P "$jobs" -n 1 bash -c 'run_one "$1"' _

# ---- checks ------------------------------------------------------------------------------
python3 - "$tmp" "$programs bfs" <<'PYEOF'
import csv, json, os, sys

tmp, programs = sys.argv[1], sys.argv[2].split()
results = []


def check(ok, name, detail):
    results.append((bool(ok), name, detail))


def rundir(rid):
    return os.path.join(tmp, "run", rid)


def ok_run(rid):
    try:
        return open(os.path.join(rundir(rid), "rc")).read().strip() == "0"
    except OSError:
        return False


def stats(rid):
    with open(os.path.join(rundir(rid), "stats.json")) as f:
        return json.load(f)


def total(rid):
    return stats(rid)["timing_total"]


def series(rid):
    """DYNCTA's CTA limit per SM over time: {sm: [(cycle, n), ...]} from trace.cta.csv."""
    out = {}
    with open(os.path.join(rundir(rid), "trace.cta.csv")) as f:
        for row in csv.DictReader(line for line in f if not line.startswith("#")):
            out.setdefault(int(row["sm"]), []).append((int(row["cycle"]), int(row["n"])))
    return out


def guarded(name, fn):
    try:
        fn()
    except Exception as e:  # a missing file or key is a failure of that check, not of the script
        check(False, name, "%s: %s" % (type(e).__name__, e))


for p in programs:
    bl = os.path.join(tmp, "bin", p + ".rc")
    if open(bl).read().strip() != "0":
        check(False, "build " + p, open(os.path.join(tmp, "bin", p + ".log")).read()[-400:])
for rid in sorted(os.listdir(os.path.join(tmp, "run"))):
    out = open(os.path.join(rundir(rid), "out.txt")).read()
    check(ok_run(rid) and "PASS" in out, "run " + rid, out.strip()[-200:] or
          open(os.path.join(rundir(rid), "err.txt")).read()[-300:])


def nmax_of(rid):
    return total(rid)["occupancy"]["max_ctas_per_sm"]


# DYNCTA 27a: a compute-bound kernel drives every core's n to N within (N - floor(N/2))
# periods plus slack (3 periods).
def o27a():
    st = stats("compute_dyncta")
    period = int(st["config"]["ptxsim_sample_period"])
    N = nmax_of("compute_dyncta")
    s = series("compute_dyncta")
    start = min(c for rows in s.values() for c, _ in rows)
    late = []
    for sm, rows in sorted(s.items()):
        reach = [c for c, n in rows if n == N]
        if not reach or reach[0] - start > (N - N // 2 + 3) * period:
            late.append((sm, reach[0] - start if reach else None))
    check(len(s) == 30 and not late, "dyncta 27a compute kernel: n reaches N on every core",
          "N=%d period=%d cores=%d late=%s" % (N, period, len(s), late[:5]))


# DYNCTA 27b: a streaming kernel lowers the time-averaged n below floor(N/2).
def o27b():
    N = nmax_of("stream_dyncta")
    s = series("stream_dyncta")
    cyc = total("stream_dyncta")["cycles"]
    means = []
    for sm, rows in s.items():
        rows = sorted(rows)
        acc = 0.0
        for i, (c, n) in enumerate(rows):
            end = rows[i + 1][0] if i + 1 < len(rows) else rows[0][0] + cyc
            acc += n * max(0, end - c)
        span = rows[0][0] + cyc - rows[0][0]
        means.append(acc / span if span else N)
    m = sum(means) / len(means)
    check(m < N // 2, "dyncta 27b streaming kernel: mean n below floor(N/2)",
          "mean n %.2f over %d cores, N=%d" % (m, len(means), N))


# DYNCTA 24: outputs and dynamic instruction counts equal under every CTA scheduler and in
# functional mode.
def o24():
    ids = ["stream_rr", "stream_dyncta", "stream_static1", "stream_static2"]
    outs = {r: open(os.path.join(rundir(r), "out.txt")).read() for r in ids + ["stream_func"]}
    insts = {r: (total(r)["warp_insn"], total(r)["thread_insn"]) for r in ids}
    check(len(set(outs.values())) == 1 and len(set(insts.values())) == 1,
          "dyncta 24 same results and instruction counts under rr, dyncta, static:1, static:2",
          "insts %s" % insts)


# DYNCTA 25: with a static limit k no core holds more than k CTAs: achieved occupancy is at
# most k CTAs' warps, and the limit (not the machine) bounds it.
def o25():
    for k in (1, 2):
        t = total("stream_static%d" % k)
        cfg = stats("stream_static%d" % k)["config"]
        max_warps = int(cfg["gpgpu_shader_core_pipeline"].split(":")[0]) // 32
        warps_per_cta = 128 // 32
        ach = t["occupancy"]["achieved"]
        bound = k * warps_per_cta / max_warps
        check(ach <= bound + 1e-9, "dyncta 25 static:%d holds at most %d CTAs per core" % (k, k),
              "achieved occupancy %.4f, bound %.4f" % (ach, bound))


# DYNCTA 11: N_act + N_inact equals the cycles of every core (summed over cores here), and
# RACT and util lie in [0, 1].
def o11():
    for rid in ("stream_dyncta", "compute_dyncta", "chase_dyncta"):
        t = total(rid)
        sm = t["sm"]
        nsm = int(stats(rid)["config"]["gpgpu_n_clusters"]) * int(
            stats(rid)["config"]["gpgpu_n_cores_per_cluster"])
        check(sm["n_act"] + sm["n_inact"] == t["cycles"] * nsm and 0 <= sm["ract"] <= 1 and
              0 <= sm["util"] <= 1, "dyncta 11 N_act + N_inact = cycles (%s)" % rid,
              "n_act %d + n_inact %d vs %d x %d; ract %.3f util %.3f" %
              (sm["n_act"], sm["n_inact"], t["cycles"], nsm, sm["ract"], sm["util"]))


# DYNCTA 6 and 7: one warp chasing pointers on one core: the 29 cores without warps count
# C_idle every cycle, the busy one counts C_mem in (nearly) every cycle it waits on a load.
def o6_7():
    t = total("chase_dyncta")
    cyc, sm = t["cycles"], t["sm"]
    check(sm["c_idle"] >= 29 * cyc, "dyncta 6 idle cores count C_idle every cycle",
          "c_idle %d, 29 x cycles = %d" % (sm["c_idle"], 29 * cyc))
    # The warp's scheduler records every cycle the warp spent blocked on a D-cache miss
    # (stalls.dcache_miss); each of those is a cycle in which every resident warp of the
    # core waited on a global load, so each must count as C_mem.
    dmiss = t["stalls"]["dcache_miss"]
    check(dmiss > 0.5 * cyc and dmiss <= sm["c_mem"] <= cyc,
          "dyncta 7 a core whose only warp waits on loads counts C_mem",
          "c_mem %d, cycles blocked on a load %d, of %d cycles" % (sm["c_mem"], dmiss, cyc))


# CCWS 27: without L1D evictions there is no lost locality: CCWS issues exactly as GTO.
def c27():
    g, c = total("ws_gto"), total("ws_ccws")
    check(g["l1d"]["evictions"] == 0, "ccws 27 precondition: no L1D evictions",
          "evictions %d" % g["l1d"]["evictions"])
    same = all(g[k] == c[k] for k in ("cycles", "warp_insn", "stalls", "l1d", "sm"))
    check(same, "ccws 27 no evictions: ccws runs exactly as gto",
          "cycles gto %d ccws %d" % (g["cycles"], c["cycles"]))


# CCWS 34: with an L1D that holds everything and only reads, misses (as GPGPU-Sim counts
# them: merges into a pending miss are pending hits, not misses) are the distinct 128-byte
# blocks each core touches.
def c34():
    t = total("ws_bigl1")["l1d"]
    out = open(os.path.join(rundir("ws_bigl1"), "out.txt")).read().split()
    blocks = int(out[2])  # "PASS small_ws <blocks> blocks of 128 B"
    check(t["writes"] == 0 and t["misses"] == blocks and
          t["evictions"] == 0, "ccws 34 unbounded L1D: misses = distinct blocks",
          "misses %d (merges %d) vs %d blocks, writes %d" %
          (t["misses"], t["mshr_merges"], blocks, t["writes"]))


# CAWA 11: on BFS, gCAWS is not slower than round robin and the spread of warp execution
# times within a thread block shrinks (from the -ptxsim_warp_profile of each run).
def cawa11():
    def spread(rid):
        by = {}
        with open(os.path.join(rundir(rid), "warps.csv")) as f:
            for r in csv.DictReader(line for line in f if not line.startswith("#")):
                by.setdefault((r["grid"], r["cta"]), []).append(int(r["end"]) - int(r["start"]))
        sp = [max(v) - min(v) for v in by.values() if len(v) > 1]
        return sum(sp) / len(sp)
    lc, gc = total("bfs_lrr")["cycles"], total("bfs_gcaws")["cycles"]
    ls, gs = spread("bfs_lrr"), spread("bfs_gcaws")
    check(gc <= lc and gs <= ls, "cawa 11 bfs: gcaws not slower than lrr, warp-time spread smaller",
          "cycles lrr %d gcaws %d; mean spread lrr %.1f gcaws %.1f" % (lc, gc, ls, gs))


for name, fn in (("cawa 11", cawa11), ("dyncta 27a", o27a), ("dyncta 27b", o27b), ("dyncta 24", o24),
                 ("dyncta 25", o25), ("dyncta 11", o11), ("dyncta 6/7", o6_7),
                 ("ccws 27", c27), ("ccws 34", c34)):
    guarded(name, fn)

npass = sum(1 for r in results if r[0])
for ok, name, detail in results:
    print("%s: %s  [%s]" % ("PASS" if ok else "FAIL", name, detail))
print("%d passed, %d failed" % (npass, len(results) - npass))
sys.exit(0 if npass == len(results) else 1)
PYEOF
