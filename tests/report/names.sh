#!/bin/bash
# The text report under GPGPU-Sim's and Accel-Sim's names (issue 22, item 2): a program
# with two kernels runs in timing mode with the compact (default) and the full report, and
# the statistics patterns of Accel-Sim's util/job_launching/stats/example_stats.yml are
# applied the way its get_stats.py applies them:
#   - without -k, the last match of each pattern in the output (a reverse scan), which
#     must give the run's totals and the last kernel's per-kernel figures;
#   - with -k (per kernel, on the full report), kernels split at "kernel_name = ", the
#     cumulative ("aggregate") figures turned into per-kernel differences, which must give
#     each kernel's own figures.
# The figures are compared with the JSON of --stats. Also: the end marker get_stats.py
# requires, a demangled name beside the mangled one, miss counts equal in text and JSON,
# and a compact block of at most 20 lines per kernel.
# Environment (from AM_TESTS_ENVIRONMENT): PTXSIM, NVCC (skipped when missing), srcdir.
set -u

if [ -z "${PTXSIM:-}" ] || [ ! -x "$PTXSIM" ]; then
    echo "names.sh: PTXSIM is not set to the ptxsim binary" >&2
    exit 1
fi
if [ -z "${NVCC:-}" ] || ! command -v "$NVCC" >/dev/null 2>&1; then
    echo "SKIP: NVCC is not set or not found"
    exit 77
fi
top="${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxsim-report.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
unset PTXSIM_CONFIG PTXSIM_OPTIONS PTXSIM_MODE PTXSIM_BUDGET PTXSIM_STATS

if ! "$NVCC" -cudart shared -arch=sm_75 -o "$tmp/two" "$top/tests/report/two_kernels.cu" \
    >"$tmp/build.log" 2>&1; then
    echo "FAIL: nvcc: $(cat "$tmp/build.log")"
    exit 1
fi
for mode in compact full; do
    if ! (cd "$tmp" && "$PTXSIM" run --stats "$mode.json" -o ptxsim_report=$mode \
        -o ptxsim_progress_interval=0 -- ./two >"$mode.out" 2>"$mode.txt"); then
        echo "FAIL: the $mode run failed: $(cat "$tmp/$mode.out" "$tmp/$mode.txt")"
        exit 1
    fi
done

python3 - "$tmp" <<'PYEOF'
import json, re, sys

tmp = sys.argv[1]
# The patterns of Accel-Sim's example_stats.yml: (pattern, kind), kind as its sections:
# agg = cumulative over kernels, abs = per kernel, rate = run so far.
PATTERNS = [
    (r'gpu_tot_sim_insn\s*=\s*(.*)', "agg"),
    (r'gpgpu_simulation_time\s*=.*\(([0-9]+) sec\).*', "agg"),
    (r'gpu_tot_sim_cycle\s*=\s*(.*)', "agg"),
    (r'\s+L2_cache_stats_breakdown\[GLOBAL_ACC_R\]\[HIT\]\s*=\s*(.*)', "agg"),
    (r'\s+L2_cache_stats_breakdown\[GLOBAL_ACC_R\]\[TOTAL_ACCESS\]\s*=\s*(.*)', "agg"),
    (r'\s+L2_cache_stats_breakdown\[GLOBAL_ACC_W\]\[HIT\]\s*=\s*(.*)', "agg"),
    (r'\s+L2_cache_stats_breakdown\[GLOBAL_ACC_W\]\[TOTAL_ACCESS\]\s*=\s*(.*)', "agg"),
    (r'\s+Total_core_cache_stats_breakdown\[GLOBAL_ACC_R\]\[TOTAL_ACCESS\]\s*=\s*(.*)', "agg"),
    (r'\s+Total_core_cache_stats_breakdown\[GLOBAL_ACC_R\]\[HIT\]\s*=\s*(.*)', "agg"),
    (r'\s+Total_core_cache_stats_breakdown\[GLOBAL_ACC_W\]\[HIT\]\s*=\s*(.*)', "agg"),
    (r'\s+Total_core_cache_stats_breakdown\[GLOBAL_ACC_W\]\[TOTAL_ACCESS\]\s*=\s*(.*)', "agg"),
    (r'gpgpu_n_tot_w_icount\s*=\s*(.*)', "agg"),
    (r'total dram reads\s*=\s*(.*)', "agg"),
    (r'total dram writes\s*=\s*(.*)', "agg"),
    (r'gpu_ipc\s*=\s*(.*)', "abs"),
    (r'gpu_occupancy\s*=\s*(.*)%', "abs"),
    (r'L2_BW\s*=\s*(.*)+GB\/Sec', "abs"),
    (r'gpgpu_simulation_rate\s+=\s+(.*)\s+\(inst\/sec\)', "rate"),
    (r'gpu_tot_ipc\s*=\s*(.*)', "rate"),
]
EXIT = r"GPGPU-Sim: \*\*\* exit detected \*\*\*"
fails = []


def check(cond, what):
    print(("PASS: " if cond else "FAIL: ") + what)
    if not cond:
        fails.append(what)


def final_kernel(lines):
    """get_stats.py without -k: the last match of each pattern."""
    found = {}
    for line in reversed(lines):
        for pat, _ in PATTERNS:
            m = re.search(pat, line.rstrip())
            if pat not in found and m:
                found[pat] = m.group(1).strip()
    return found


def per_kernel(lines):
    """get_stats.py -k: per-kernel values, aggregate figures as differences."""
    stats, last, cur = [], {}, None
    for line in lines:
        m = re.match(r"kernel_name\s+=\s+(.*)", line)
        if m:
            cur = {"name": m.group(1).strip()}
            stats.append(cur)
            continue
        for pat, kind in PATTERNS:
            m = re.search(pat, line.rstrip())
            if not m or cur is None:
                continue
            v = m.group(1).strip()
            if kind == "agg":  # as get_stats.py: a repeat within a kernel adds its growth
                cur[pat] = cur.get(pat, 0.0) + float(v) - last.get(pat, 0.0)
                last[pat] = float(v)
            else:
                cur[pat] = v
    return stats


def pat(name):
    return [p for p, _ in PATTERNS if name in p][0]


for mode in ("compact", "full"):
    lines = open("%s/%s.txt" % (tmp, mode)).read().splitlines()
    js = json.load(open("%s/%s.json" % (tmp, mode)))
    ks, tt = js["kernels"], js["timing_total"]
    f = final_kernel(lines)
    missing = [p for p, _ in PATTERNS if p not in f]
    check(not missing, "%s: every Accel-Sim pattern matches (missing: %s)" % (mode, missing))
    check(any(re.match(EXIT, l) for l in lines[-3:]), "%s: the end marker get_stats.py wants" % mode)
    if missing:
        continue
    check(int(f[pat("gpu_tot_sim_cycle")]) == js["total"]["cycles"],
          "%s: gpu_tot_sim_cycle = the JSON total cycles" % mode)
    check(int(f[pat("gpu_tot_sim_insn")]) == js["total"]["thread_insn"],
          "%s: gpu_tot_sim_insn = the JSON total thread instructions" % mode)
    check(int(f[pat("gpgpu_n_tot_w_icount")]) == js["total"]["warp_insn"],
          "%s: gpgpu_n_tot_w_icount = the JSON total warp instructions" % mode)
    check(abs(float(f[pat("gpu_ipc")]) - ks[-1]["ipc"]) < 1e-3,
          "%s: gpu_ipc (last match) = the last kernel's IPC" % mode)
    check(int(f[pat("total dram reads")]) == tt["dram"]["reads"],
          "%s: total dram reads = the JSON's" % mode)
    core_r = [p for p, _ in PATTERNS if "Total_core" in p and "ACC_R" in p and "TOTAL" in p][0]
    check(int(f[core_r]) == tt["l1d"]["reads"], "%s: L1D GLOBAL_ACC_R TOTAL_ACCESS = the JSON's L1D reads" % mode)
    text = "\n".join(lines)
    m = re.findall(r"L1D_total_cache_misses = (\d+)", text)
    check(m and int(m[-1]) == tt["l1d"]["misses"],
          "%s: L1D_total_cache_misses = the JSON's l1d.misses" % mode)
    m = re.findall(r"L2_total_cache_misses = (\d+)", text)
    check(m and int(m[-1]) == tt["l2"]["misses"],
          "%s: L2_total_cache_misses = the JSON's l2.misses" % mode)
    check(tt["l1d"]["misses"] == tt["l1d"]["accesses"] - tt["l1d"]["hits"] - tt["l1d"]["mshr_merges"]
          and abs(tt["l1d"]["miss_rate"] - tt["l1d"]["misses"] / max(1, tt["l1d"]["accesses"])) < 1e-6,
          "%s: JSON l1d misses and miss_rate count the same accesses" % mode)
    names = re.findall(r"^kernel_name = (.*) $", text, re.M)
    check(names == [k["name"] for k in ks], "%s: kernel_name lines = the launches %s" % (mode, names))
    check("kernel_demangled_name = void scale<float>(float*, float, int)" in text
          or "kernel_demangled_name = scale<float>(float*, float, int)" in text,
          "%s: the templated kernel's demangled name" % mode)
    check(text.count("kernel_demangled_name") == 1, "%s: no demangled name for extern C" % mode)
    uids = re.findall(r"^kernel_launch_uid = (\d+) $", text, re.M)
    check(uids == ["1", "2"], "%s: kernel_launch_uid 1 and 2" % mode)
    if mode == "compact":
        blocks = re.split(r"^---- ptxsim: ", text, flags=re.M)[1:]
        sizes = [b.count("\n") for b in blocks[:-1]]
        check(all(s <= 20 for s in sizes), "compact: at most 20 lines per kernel %s" % sizes)
    else:
        pk = per_kernel(lines)
        check(len(pk) == 2, "full -k: two kernels")
        for k, j in zip(pk, ks):
            check(int(k[pat("gpu_tot_sim_cycle")]) == j["cycles"],
                  "full -k: %s cycles = the JSON kernel's" % j["name"])
            check(int(k[core_r]) == j["timing"]["l1d"]["reads"],
                  "full -k: %s L1D reads (difference) = the JSON kernel's" % j["name"])
            check(int(k[pat("total dram reads")]) == j["timing"]["dram"]["reads"],
                  "full -k: %s DRAM reads (difference) = the JSON kernel's" % j["name"])
print("%d failed" % len(fails))
sys.exit(1 if fails else 0)
PYEOF
