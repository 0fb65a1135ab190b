#!/bin/bash
# Timing-model microbenchmarks with asserted expectations. Each program in
# tests/timing/ is built with the stock nvcc (-cudart shared) and run with
# `ptxsim run --mode timing --stats FILE`; the checks below read the
# effective configuration from the statistics' "config" object, derive the
# figure a microbenchmark should show from it (a latency, an initiation
# interval, a bandwidth, a bank-conflict degree, an occupancy limit) and
# compare it with what the run measured, within the tolerance written next
# to each check. README.md in this folder lists the checks, their formulas
# and the figures measured on the GTX 480 configuration.
#
# The programs print mode-independent results on stdout (so the functional
# and timing runs must print the same bytes) and their clock64() readings
# on stderr as "MEASURE <name> <cycles> <count>" lines.
#
# Environment (from AM_TESTS_ENVIRONMENT): PTXSIM (the ptxsim binary), NVCC
# (skip, exit 77, when unset or missing), srcdir (top source dir).
# Optional: TIMING_TEST_JOBS (parallel builds and runs; default nproc),
# TIMING_TEST_TIMEOUT (seconds per run; default 120), TIMING_TEST_KEEP=1
# (keep the build directory).
# Prints one PASS/FAIL line per check and a final "N passed, M failed";
# exits 1 if anything failed, 0 otherwise.

set -u
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

here="${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/timing"
jobs="${TIMING_TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}"
limit="${TIMING_TEST_TIMEOUT:-120}"
nvcc_flags="-cudart shared -arch=sm_75 -O2"
programs="alu memlat stream shmem_bank coalesce occupancy sched texcache"

if [ -z "${NVCC:-}" ] || ! command -v "$NVCC" >/dev/null 2>&1; then
    echo "SKIP: NVCC is not set or not found (NVCC='${NVCC:-}'); the timing tests need nvcc"
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

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxsim-timing.XXXXXX") || exit 1
if [ "${TIMING_TEST_KEEP:-0}" = 1 ]; then
    echo "build directory: $tmp"
else
    trap 'rm -rf "$tmp"' EXIT
fi
mkdir -p "$tmp/bin" "$tmp/run"
t0=$(date +%s)

# ---- build ------------------------------------------------------------------------
build_one() {
    # shellcheck disable=SC2086
    (cd "$tmp/bin" && "$NVCC" $nvcc_flags -o "$1" "$here/$1.cu") >"$tmp/bin/$1.log" 2>&1
    echo $? >"$tmp/bin/$1.rc"
}
export -f build_one
export here tmp nvcc_flags NVCC
# shellcheck disable=SC2086
printf '%s\n' $programs | xargs -P "$jobs" -n 1 bash -c 'build_one "$1"' _
t1=$(date +%s)

# ---- run: ID|PROGRAM|MODE|OPTIONS ---------------------------------------------------
# sched runs six times under the timing model: gto and lrr warp scheduling,
# a static limit of one CTA per SM, gto again for the determinism check, and
# gto with each warp's time recorded, with the schedulers taking turns going
# first (the default) and with scheduler 0 always first.
runs=(
    "sched_gto|sched|timing|-o gpgpu_scheduler=gto"
    "sched_lrr|sched|timing|-o gpgpu_scheduler=lrr"
    "sched_static1|sched|timing|-o gpgpu_scheduler=gto -o ptxsim_cta_scheduler=static -o ptxsim_cta_limit=1"
    "sched_gto_again|sched|timing|-o gpgpu_scheduler=gto"
    "sched_turns|sched|timing|-o gpgpu_scheduler=gto -o ptxsim_warp_profile=warps.csv"
    "sched_fixed|sched|timing|-o gpgpu_scheduler=gto -o ptxsim_sched_rotate=0 -o ptxsim_warp_profile=warps.csv"
    "sched_func|sched|functional|"
)
for p in $programs; do
    [ "$p" = sched ] && continue
    runs+=("$p|$p|timing|" "${p}_func|$p|functional|")
done
run_one() {
    local id prog mode opts
    IFS='|' read -r id prog mode opts <<<"$1"
    [ "$(cat "$tmp/bin/$prog.rc")" = 0 ] || return 0
    mkdir -p "$tmp/run/$id"
    echo "$prog" >"$tmp/run/$id/prog"
    # shellcheck disable=SC2086
    (cd "$tmp/run/$id" && timeout -k 5 "$limit" "$PTXSIM" run --mode "$mode" $opts \
        --stats stats.json -- "$tmp/bin/$prog" >out.txt 2>err.txt </dev/null)
    echo $? >"$tmp/run/$id/rc"
}
export -f run_one
export limit PTXSIM
printf '%s\n' "${runs[@]}" | xargs -d '\n' -P "$jobs" -n 1 bash -c 'run_one "$1"' _
t2=$(date +%s)

# ---- checks ---------------------------------------------------------------------------
python3 - "$tmp" "$programs" <<'PYEOF'
import json, math, os, re, sys

tmp, programs = sys.argv[1], sys.argv[2].split()
results = []  # (ok, name, detail)


def check(ok, name, detail):
    results.append((bool(ok), name, detail))


def rundir(rid):
    return os.path.join(tmp, "run", rid)


def ran(rid):
    """Whether run rid exited 0; a failure is reported once per run."""
    d = rundir(rid)
    try:
        rc = open(os.path.join(d, "rc")).read().strip()
    except OSError:
        return False
    return rc == "0"


def stats(rid):
    with open(os.path.join(rundir(rid), "stats.json")) as f:
        return json.load(f)


def measures(rid):
    m = {}
    for line in open(os.path.join(rundir(rid), "err.txt"), errors="replace"):
        w = line.split()
        if len(w) == 4 and w[0] == "MEASURE":
            m[w[1]] = (int(w[2]), int(w[3]))
    return m


def kernel(st, name, targs=None):
    """Timing statistics of the kernel whose mangled name is _Z<len><name>[I<targs>E]."""
    pre = "_Z%d%s" % (len(name), name)
    for k in st["kernels"]:
        n = k["name"]
        if n.startswith(pre) and (targs is None or n.startswith(pre + "I" + targs + "E")):
            return k["timing"]
    raise KeyError("kernel %s%s not in the statistics" % (name, "<%s>" % targs if targs else ""))


def ints(s):
    return [int(x) for x in str(s).split(",")]


def within(x, want, rel):
    return abs(x - want) <= rel * want


# ---------------------------------------------------------------- build and runs
for p in programs:
    rc = open(os.path.join(tmp, "bin", p + ".rc")).read().strip()
    if rc != "0":
        log = open(os.path.join(tmp, "bin", p + ".log"), errors="replace").read()
        check(False, "build %s" % p, "nvcc failed:\n" + log[:1500])
runs = sorted(os.listdir(os.path.join(tmp, "run")))
for rid in runs:
    d = rundir(rid)
    rc = open(os.path.join(d, "rc")).read().strip() if os.path.exists(os.path.join(d, "rc")) else "?"
    out = open(os.path.join(d, "out.txt"), errors="replace").read() if os.path.exists(os.path.join(d, "out.txt")) else ""
    prog = open(os.path.join(d, "prog")).read().strip()
    if rc != "0" or ("PASS %s\n" % prog) not in out:
        err = open(os.path.join(d, "err.txt"), errors="replace").read() if os.path.exists(os.path.join(d, "err.txt")) else ""
        err = "\n".join(l for l in err.splitlines() if " = " not in l and not l.startswith("----"))
        check(False, "run %s" % rid, "exit status %s; stdout:\n%s\nstderr:\n%s" % (rc, out[-800:], err[-1500:]))


def guarded(name, fn):
    try:
        fn()
    except Exception as e:  # a missing run or kernel: the run failure is reported above
        check(False, name, "could not evaluate: %s: %s" % (type(e).__name__, e))


# ---------------------------------------------------------------- 1. ALU latency
def oc_wb(c):
    return c["ptxsim_operand_collect_latency"] + c["ptxsim_writeback_latency"]


def alu_latency():
    st = stats("alu")
    c = st["config"]
    m = measures("alu")
    li, ii_i = ints(c["ptx_opcode_latency_int"]), ints(c["ptx_opcode_initiation_int"])
    lf, ii_f = ints(c["ptx_opcode_latency_fp"]), ints(c["ptx_opcode_initiation_fp"])
    ld, ii_d = ints(c["ptx_opcode_latency_dp"]), ints(c["ptx_opcode_initiation_dp"])
    ls, ii_s = ints(c["ptx_opcode_latency_sfu"])[0], ints(c["ptx_opcode_initiation_sfu"])[0]
    # Index order of the lists: ADD, MAX, MUL, MAD, DIV.
    ops = [
        ("int_add", li[0], ii_i[0], "ptx_opcode_latency_int[ADD]"),
        ("int_max", li[1], ii_i[1], "ptx_opcode_latency_int[MAX]"),
        ("int_mul", li[2], ii_i[2], "ptx_opcode_latency_int[MUL]"),
        ("int_mad", li[3], ii_i[3], "ptx_opcode_latency_int[MAD]"),
        ("int_div", li[4], ii_i[4], "ptx_opcode_latency_int[DIV]"),
        ("fp_add", lf[0], ii_f[0], "ptx_opcode_latency_fp[ADD]"),
        ("fp_max", lf[1], ii_f[1], "ptx_opcode_latency_fp[MAX]"),
        ("fp_mul", lf[2], ii_f[2], "ptx_opcode_latency_fp[MUL]"),
        ("fp_fma", lf[3], ii_f[3], "ptx_opcode_latency_fp[MAD]"),
        ("dp_add", ld[0], ii_d[0], "ptx_opcode_latency_dp[ADD]"),
        ("dp_fma", ld[3], ii_d[3], "ptx_opcode_latency_dp[MAD]"),
        ("sfu_sin", ls, ii_s, "ptx_opcode_latency_sfu"),
    ]
    for name, lat, ii, src in ops:
        cyc, n = m[name]
        # One warp, N dependent instructions: each issues max(latency,
        # initiation interval) cycles after the previous one (same unit).
        # The clock64() pair brackets the chain: with the chain's input
        # ready the window is (N-1)*per + 2 (the first op issues the cycle
        # after the first clock read, the second read issues the cycle
        # after the last op without waiting for it); when the first op
        # waits for the previous pass's last result it approaches N*per.
        # So (N-1)*per <= cycles <= N*per + 4: +-1 op in N, nothing more.
        # A dependent op waits for the operand-collector stages before the
        # pipe and the write-back stages after it (GPGPU-Sim's pipeline).
        per = max(lat + oc_wb(c), ii)
        ok = (n - 1) * per <= cyc <= n * per + 4
        check(ok, "1 latency %s" % name,
              "%.2f cycles/op over %d ops (%d cycles); expected %d = max(%s %d + operand collect %d "
              "+ write-back %d, initiation %d), window [%d, %d] cycles" %
              (cyc / n, n, cyc, per, src, lat, c["ptxsim_operand_collect_latency"],
               c["ptxsim_writeback_latency"], ii, (n - 1) * per, n * per + 4))


guarded("1 latency", alu_latency)


# ---------------------------------------------------------------- 2. SFU / SP throughput
def throughput():
    st = stats("alu")
    c = st["config"]
    m = measures("alu")
    nsched = c["gpgpu_num_sched_per_core"]
    fetch = c["gpgpu_inst_fetch_throughput"]
    n_sfu = max(1, c["gpgpu_num_sfu_units"])
    n_sp = max(1, c["gpgpu_num_sp_units"])
    ii_sfu = ints(c["ptx_opcode_initiation_sfu"])[0]
    ii_add = ints(c["ptx_opcode_initiation_int"])[0]
    # An SM issues at most one instruction per scheduler per cycle, and
    # fetches for one warp per cycle per fetch slot, two instructions each
    # (the model's I-buffer); a unit takes a new warp instruction every
    # initiation interval. 16 warps of independent chains keep the bottleneck
    # busy; the window between two barriers adds a few cycles of barrier
    # release and clock reads. Tolerance 10%.
    floor_issue = max(1.0 / nsched, 1.0 / (2 * fetch))
    for name, ii, units, what in (("sfu_tput", ii_sfu, n_sfu, "ptx_opcode_initiation_sfu / gpgpu_num_sfu_units"),
                                  ("sp_tput", ii_add, n_sp, "ptx_opcode_initiation_int[ADD] / gpgpu_num_sp_units")):
        cyc, n = m[name]
        want = max(ii / units, floor_issue)
        got = cyc / n
        check(within(got, want, 0.10), "2 throughput %s" % name,
              "%.3f cycles per warp instruction per SM (%d cycles, %d instructions); expected %.3f = "
              "max(%s = %d/%d, issue limit %.2f), tolerance 10%%" % (got, cyc, n, want, what, ii, units, floor_issue))


guarded("2 throughput", throughput)


# ---------------------------------------------------------------- 3-5. memory latency
def clocks(c):
    return [float(x) for x in c["gpgpu_clock_domains"].split(":")]  # core, icnt, L2, DRAM (MHz)


def l2_expected(c):
    core, icnt, l2, dram = clocks(c)
    flit = c["icnt_flit_size"]
    req_flits = math.ceil(8 / flit)           # read request: 8-byte header
    rep_flits = math.ceil((8 + 32) / flit)    # reply: header + one 32-byte sector (ld.cg)
    icnt_lat = c["ptxsim_icnt_latency"]
    # ROP queue (L2 cycles), request and reply crossings (latency + flits,
    # interconnect cycles), operand collection before the LD/ST unit and
    # its write-back stage after the reply (oc + wb - 1), and 3 one-cycle
    # hand-offs: L1 miss queue -> crossbar, L2 -> reply queue, reply
    # queue -> crossbar.
    return (c["gpgpu_l2_rop_latency"] * core / l2 +
            (icnt_lat + req_flits + icnt_lat + rep_flits) * core / icnt + oc_wb(c) - 1 + 3)


def dram_range(c):
    core, icnt, l2, dram = clocks(c)
    t = dict(kv.split("=") for kv in c["gpgpu_dram_timing_opt"].replace(" ", "").split(":"))
    t = {k: int(v) for k, v in t.items()}
    burst = math.ceil(c["gpgpu_dram_burst_length"] / c["dram_data_command_freq_ratio"])
    # On top of the L2 path: the fixed -dram_latency before the DRAM scheduler
    # (core cycles, GPGPU-Sim's DRAM latency queue), then RD -> data (tCL) and
    # the burst in DRAM command cycles when the row is open; a closed row adds
    # ACT -> RD (tRCD), a row conflict also the precharge (tRP).
    base = t["CL"] + burst
    lo = l2_expected(c) + c["dram_latency"] + base * core / dram
    hi = l2_expected(c) + c["dram_latency"] + (base + t["RCD"] + t["RP"]) * core / dram
    return lo, hi, base, t["RCD"] + t["RP"]


def mem_latency():
    st = stats("memlat")
    c = st["config"]
    m = measures("memlat")
    per = {}
    # 3. L1 hits: one hop = operand collection + -gpgpu_l1_latency + the
    # LD/ST write-back stage (wb - 1). Shared memory: one hop = operand
    # collection + -gpgpu_smem_latency + one bank cycle + write-back.
    # Tolerance +-2 cycles per hop: the timed window of 32 hops is off by
    # up to one hop plus a few cycles (see the ALU check).
    for name, want, what in (("l1_hit", c["gpgpu_l1_latency"] + oc_wb(c) - 1,
                              "gpgpu_l1_latency + operand collect + write-back - 1"),
                             ("shared_hit", c["gpgpu_smem_latency"] + oc_wb(c),
                              "gpgpu_smem_latency + operand collect + write-back")):
        cyc, n = m[name]
        per[name] = cyc / n
        check(abs(per[name] - want) <= 2, "3 latency %s" % name,
              "%.1f cycles/hop (%d hops); expected %d = %s, tolerance +-2" % (per[name], n, want, what))
    # 4. L2 hits (ld.global.cg over 64 KB: 4x the L1, far below the L2).
    cyc, n = m["l2_hit"]
    per["l2_hit"] = cyc / n
    want = l2_expected(c)
    check(within(per["l2_hit"], want, 0.10), "4 latency l2_hit",
          "%.1f cycles/hop (%d hops); expected %.1f = rop %d x core/L2 + 2 x (icnt %d + 1 flit) x core/icnt "
          "+ operand collect + write-back - 1 + 3 hand-offs, tolerance 10%%" % (per["l2_hit"], n, want, c["gpgpu_l2_rop_latency"],
                                             c["ptxsim_icnt_latency"]))
    # 5. DRAM (cold walk over 4.2 MB, random order). Range: [open row, row conflict]
    # of the formula above, -5%/+10% for queueing at the channel and the return queue.
    cyc, n = m["dram_miss"]
    per["dram_miss"] = cyc / n
    lo, hi, base, rp = dram_range(c)
    core, _, _, dram = clocks(c)
    check(0.95 * lo <= per["dram_miss"] <= 1.10 * hi, "5 latency dram_miss",
          "%.1f cycles/hop (%d hops); expected %.1f..%.1f = L2 path %.1f + dram_latency %d + (tCL + "
          "burst = %d [+ tRCD + tRP %d]) x core/DRAM %.3f; range -5%%/+10%%" %
          (per["dram_miss"], n, lo, hi, l2_expected(c), c["dram_latency"], base, rp, core / dram))
    order = per["shared_hit"] < per["l2_hit"] and per["l1_hit"] < per["l2_hit"] < per["dram_miss"]
    check(order, "5 latency order L1 < L2 < DRAM",
          "L1 %.1f, shared %.1f, L2 %.1f, DRAM %.1f cycles/hop" % (per["l1_hit"], per["shared_hit"],
                                                                  per["l2_hit"], per["dram_miss"]))
    # 5b. L2 capacity: a second walk over a footprint of half the L2 (in a
    # second launch; the L2 keeps its contents) must hit: >= 95% of its L2
    # accesses (the few others are instruction fetches and the final stores).
    g = c["gpgpu_cache:dl2"].split(",")[0].split(":")   # S:sets:line:assoc
    l2_bytes = c["gpgpu_n_mem"] * c["gpgpu_n_sub_partition_per_mchannel"] * int(g[1]) * int(g[2]) * int(g[3])
    foot = m["l2_capacity_bytes"][0]
    k = kernel(st, "l2_capacity")
    rate = k["l2"]["hits"] / max(1, k["l2"]["accesses"])
    cyc, n = m["l2_capacity"]
    check(foot * 2 <= l2_bytes and rate >= 0.95, "5b L2 capacity",
          "second walk over %d KB (L2 %d KB): L2 hit rate %.3f (%d of %d), %.1f cycles/hop; expected >= 0.95 "
          "and about the L2 hit latency" % (foot // 1024, l2_bytes // 1024, rate, k["l2"]["hits"],
                                            k["l2"]["accesses"], cyc / n))


guarded("3-5 memory latency", mem_latency)


# ---------------------------------------------------------------- 6. bandwidth
def bandwidth():
    st = stats("stream")
    c = st["config"]
    k = kernel(st, "stream_add")
    dram_mhz = clocks(c)[3]
    peak = (c["gpgpu_n_mem"] * c["gpgpu_n_mem_per_ctrlr"] * c["gpgpu_dram_buswidth"] *
            c["dram_data_command_freq_ratio"] * dram_mhz * 1e6 / 1e9)
    got = k["dram"]["bandwidth_gbs"]
    # A streaming kernel with enough warps in flight should keep the
    # channels busy most of the time, and can never beat the data bus.
    check(0.5 * peak <= got <= peak, "6 bandwidth stream_add",
          "%.1f GB/s = %.1f%% of peak %.1f GB/s (n_mem %d x chips %d x %d B x ratio %d x %.0f MHz); "
          "expected 50%%..100%%" % (got, 100 * got / peak, peak, c["gpgpu_n_mem"], c["gpgpu_n_mem_per_ctrlr"],
                                    c["gpgpu_dram_buswidth"], c["dram_data_command_freq_ratio"], dram_mhz))


guarded("6 bandwidth", bandwidth)


# ---------------------------------------------------------------- 7. shared-memory banks
def shmem_degree(stride, banks, parts):
    """Cycles for a warp whose lane l accesses 4-byte word l*stride: per part, the busiest bank's distinct words."""
    lanes = (32 + parts - 1) // parts
    total = 0
    for p0 in range(0, 32, lanes):
        per_bank = {}
        for lane in range(p0, min(32, p0 + lanes)):
            w = lane * stride
            per_bank.setdefault(w % banks, set()).add(w)
        total += max(len(s) for s in per_bank.values())
    return max(1, total)


def shmem_banks():
    st = stats("shmem_bank")
    c = st["config"]
    for s in (1, 2, 3, 16, 32):
        k = kernel(st, "bank", "Li%d" % s)
        acc, cyc = k["other"]["shmem_accesses"], k["other"]["shmem_cycles"]
        want = shmem_degree(s, c["gpgpu_shmem_num_banks"], c["gpgpu_shmem_warp_parts"])
        # Every shared access of the kernel has the same pattern, and bank
        # cycles are counted, not timed: exact.
        check(acc > 0 and cyc == want * acc, "7 shared banks stride %d" % s,
              "%d cycles / %d accesses = %.2f; expected %d (%d banks, %d warp parts), exact" %
              (cyc, acc, cyc / max(1, acc), want, c["gpgpu_shmem_num_banks"], c["gpgpu_shmem_warp_parts"]))


guarded("7 shared banks", shmem_banks)


# ---------------------------------------------------------------- 8. coalescing
def coalescing():
    st = stats("coalesce")
    c = st["config"]
    line = int(c["gpgpu_cache:dl1"].split(",")[0].split(":")[2])
    K, warps = 8, 8 * 128 // 32
    ks = {s: kernel(st, "gather", "Li%d" % s) for s in (1, 32)}
    for s, k in ks.items():
        lines = len({(lane * s * 4) // line for lane in range(32)})  # lines one warp load touches
        want = warps * (K * lines + 1)                              # + one coalesced store per warp
        o = k["other"]
        check(o["gmem_requests"] == want and o["gmem_insts"] == warps * (K + 1) and
              k["l1d"]["accesses"] == o["gmem_requests"], "8 coalescing stride %d" % s,
              "%d requests for %d memory instructions (%.2f per instruction), %d L1D accesses; expected "
              "%d requests = %d warps x (%d loads x %d lines + 1 store), exact" %
              (o["gmem_requests"], o["gmem_insts"], o["gmem_requests"] / max(1, o["gmem_insts"]),
               k["l1d"]["accesses"], want, warps, K, lines))
    check(ks[32]["cycles"] > ks[1]["cycles"], "8 coalescing cycles stride 32 > stride 1",
          "%d > %d cycles" % (ks[32]["cycles"], ks[1]["cycles"]))


guarded("8 coalescing", coalescing)


# ---------------------------------------------------------------- 9. occupancy
def occupancy():
    st = stats("occupancy")
    c = st["config"]
    threads_sm = int(c["gpgpu_shader_core_pipeline"].split(":")[0])
    cta = c["gpgpu_shader_cta"]
    want = {
        "tiny": (min(cta, threads_sm // 32), "cta_slots"),
        "big": (threads_sm // 1024, "threads"),
        "shmem": (c["gpgpu_shmem_size"] // (20 * 1024), "shared_memory"),
    }
    for name, (n, lim) in want.items():
        o = kernel(st, name)["occupancy"]
        check(o["max_ctas_per_sm"] == n and o["limited_by"] == lim, "9 occupancy %s" % name,
              "max_ctas_per_sm %d limited by %s; expected %d limited by %s" %
              (o["max_ctas_per_sm"], o["limited_by"], n, lim))
    o = kernel(st, "regs")["occupancy"]
    bound = min(cta, threads_sm // 256)
    check(o["limited_by"] == "registers" and 1 <= o["max_ctas_per_sm"] < bound, "9 occupancy regs",
          "max_ctas_per_sm %d limited by %s; expected limited by registers, below %d (CTA slots, threads)" %
          (o["max_ctas_per_sm"], o["limited_by"], bound))
    # nvcc -arch=sm_75 embeds a cubin: registers come from ptxas's count there,
    # rounded up to 4 (GPGPU-Sim's allocation unit), and CTAs are sized with it.
    per_cta = o["regs_per_thread"] * 256
    check(o["regs_source"] == "cubin_sm_75" and o["regs_per_thread"] % 4 == 0 and
          o["max_ctas_per_sm"] == c["gpgpu_shader_registers"] // per_cta, "9 occupancy regs from cubin",
          "regs_source %s, %d registers per thread, %d CTAs per SM; expected cubin_sm_75, a multiple of 4, "
          "%d // (%d x 256) CTAs" % (o["regs_source"], o["regs_per_thread"], o["max_ctas_per_sm"],
                                    c["gpgpu_shader_registers"], o["regs_per_thread"]))


guarded("9 occupancy", occupancy)


# ---------------------------------------------------------------- 10. schedulers
def schedulers():
    gto = kernel(stats("sched_gto"), "reuse")
    lrr = kernel(stats("sched_lrr"), "reuse")
    st1 = kernel(stats("sched_static1"), "reuse")
    hit = lambda k: k["l1d"]["hits"] / max(1, k["l1d"]["accesses"])
    # GTO lets the oldest warp issue its whole slice and reuse it before
    # younger warps evict it; LRR interleaves all 16 warps' 2 KB slices
    # (32 KB per SM, twice the L1), so reuse misses: LRR must be slower.
    check(lrr["cycles"] > gto["cycles"], "10 scheduler lrr slower than gto",
          "lrr %d cycles (L1 hit rate %.3f) > gto %d cycles (%.3f)" % (lrr["cycles"], hit(lrr), gto["cycles"], hit(gto)))
    # One CTA per SM keeps 4 slices (8 KB) resident in the 16 KB L1: nearly
    # every re-read hits, which outweighs the lost parallelism: fewer cycles.
    check(st1["cycles"] < gto["cycles"] and hit(st1) > hit(gto), "10 scheduler static CTA limit 1 faster",
          "static limit 1: %d cycles (L1 hit rate %.3f) < round robin at %d CTAs/SM: %d cycles (%.3f)" %
          (st1["cycles"], hit(st1), gto["occupancy"]["max_ctas_per_sm"], gto["cycles"], hit(gto)))


guarded("10 schedulers", schedulers)


# ---------------------------------------------------------------- 14. schedulers take turns
def sched_turns():
    import csv

    def lag(rid):
        # Warp slot s belongs to scheduler s % 2; the 4-warp CTAs start at even slots, so a
        # warp's index in its CTA has its scheduler's parity. Mean execution time of the
        # odd scheduler's warps over the even one's, minus 1.
        t = {0: [], 1: []}
        with open(os.path.join(rundir(rid), "warps.csv")) as f:
            for r in csv.DictReader(f):
                t[int(r["warp"]) % 2].append(int(r["end"]) - int(r["start"]))
        return (sum(t[1]) / len(t[1])) / (sum(t[0]) / len(t[0])) - 1

    turns, fixed = lag("sched_turns"), lag("sched_fixed")
    # All 16 warps of an SM load through one LD/ST unit. With scheduler 0 always first it
    # wins every cycle both want the unit, so its warps finish well ahead; taking turns
    # (GPGPU-Sim's Issue_Prio) shares the unit and leaves at most half that lead.
    check(fixed > 0.15 and abs(turns) < fixed / 2, "14 schedulers take turns going first",
          "scheduler 1's warps take %+.1f%% longer than scheduler 0's with turns, %+.1f%% with "
          "scheduler 0 always first (expected: above +15%% fixed, under half of that with turns)" %
          (100 * turns, 100 * fixed))


guarded("14 scheduler turns", sched_turns)


# ---------------------------------------------------------------- 11. determinism
def determinism():
    strip = lambda s: re.sub(r'"(wall_s|sim_rate)": [-0-9.eE+]+', r'"\1": 0', s)
    a = strip(open(os.path.join(rundir("sched_gto"), "stats.json")).read())
    b = strip(open(os.path.join(rundir("sched_gto_again"), "stats.json")).read())
    check(a == b and len(a) > 0, "11 determinism sched",
          "stats JSON of two identical runs, wall_s and sim_rate removed: %s" %
          ("identical (%d bytes)" % len(a) if a == b else "different"))


guarded("11 determinism", determinism)


# ---------------------------------------------------------------- 13. texture cache
def texcache():
    t = kernel(stats("texcache"), "tex_reuse")["l1t"]
    # 64 tex instructions of one warp, every lane on one texel: 64 L1T accesses, one line
    # fetched (the first access misses), and no texture request reaches the L1D.
    check(t["accesses"] == 64 and t["fills"] == 1 and t["misses"] == 1,
          "13 texture cache: 64 accesses, 1 fill, 1 miss",
          "accesses %d, fills %d, misses %d, hits %d" % (t["accesses"], t["fills"], t["misses"],
                                                        t["hits"]))


guarded("13 texture cache", texcache)


# ---------------------------------------------------------------- 12. functional == timing
for p in programs:
    t = os.path.join(rundir("sched_gto" if p == "sched" else p), "out.txt")
    f = os.path.join(rundir(p + "_func"), "out.txt")
    try:
        a, b = open(f, "rb").read(), open(t, "rb").read()
        check(a == b and len(a) > 0, "12 stdout functional == timing %s" % p,
              "%d bytes%s" % (len(a), "" if a == b else "; they differ"))
    except OSError as e:
        check(False, "12 stdout functional == timing %s" % p, str(e))

npass = nfail = 0
for ok, name, detail in results:
    print("%s: %s: %s" % ("PASS" if ok else "FAIL", name, detail))
    npass += ok
    nfail += not ok
with open(os.path.join(tmp, "counts"), "w") as f:
    f.write("%d %d\n" % (npass, nfail))
PYEOF
t3=$(date +%s)

read -r pass fail <"$tmp/counts" 2>/dev/null || { pass=0; fail=1; echo "FAIL: the checks did not run"; }
echo "time: build $((t1 - t0)) s, run $((t2 - t1)) s, checks $((t3 - t2)) s"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] || exit 1
exit 0
