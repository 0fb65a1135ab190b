#!/usr/bin/env python3
"""Runs ptxsim on the GPGPU-Sim calibration set and compares it with the reference.

usage: calibrate.py [--set SET[,SET...]] [--only NAME ...] [-j N] [--ptxsim PATH] [--nvcc PATH]
                    [--cache DIR] [--ref DIR] [--out DIR] [--markdown FILE] [--svg FILE]

SET is micro, test, small, variants or all (default micro,test). NAME is a program
(bfs) or a run id (bfs.test.lrr). benchmarks/calibration/README.md describes the output.
Exit status: 0 when every selected run built, ran and printed PASS; 1 otherwise; 2 on
bad usage or a missing tool.
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import calib_exec  # noqa: E402
import calib_metrics  # noqa: E402
import calib_output  # noqa: E402
import calib_ref  # noqa: E402
import calib_svg  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def parse_args(argv):
    src = os.path.dirname(os.path.dirname(HERE))
    p = argparse.ArgumentParser(description="Compare ptxsim's gtx480 timing with GPGPU-Sim 4.2's GTX 480 model "
                                            "on the calibration set.")
    p.add_argument("--set", default=",".join(calib_ref.DEFAULT_SETS),
                   help="comma-separated: micro, test, small, variants, all (default micro,test)")
    p.add_argument("--only", nargs="+", default=[], metavar="NAME", help="only these programs or run ids")
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2, help="parallel builds and runs")
    p.add_argument("--srcdir", default=src, help="the ptxsim source tree (default: this script's)")
    p.add_argument("--ptxsim", default=os.environ.get("PTXSIM") or os.path.join(src, "build", "ptxsim"))
    p.add_argument("--nvcc", default=os.environ.get("NVCC") or shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    p.add_argument("--ref", default=os.path.join(HERE, "reference", "gpgpusim-gtx480"),
                   help="reference directory with results.csv and measures.csv")
    p.add_argument("--cache", help="binaries and run directories (default: <ptxsim dir>/benchmarks/calibration/cache)")
    p.add_argument("--timeout", type=int, default=300, help="seconds per ptxsim run (default 300)")
    p.add_argument("--out", help="write runs.csv, measures.csv, summary.csv, variants.csv and cycles.svg here")
    p.add_argument("--markdown", help="write the comparison as a Markdown page (docs/correlation.md)")
    p.add_argument("--svg", help="write the scatter chart here (default with --out: OUT/cycles.svg)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines on stderr")
    a = p.parse_args(argv)
    sets = set()
    for s in a.set.split(","):
        s = s.strip()
        if s == "all":
            sets |= set(calib_ref.SETS)
        elif s in calib_ref.SETS:
            sets.add(s)
        else:
            p.error("unknown set '%s' (micro, test, small, variants, all)" % s)
    a.sets = sets
    a.ptxsim = os.path.abspath(a.ptxsim)
    a.cache = os.path.abspath(a.cache or os.path.join(os.path.dirname(a.ptxsim), "benchmarks", "calibration",
                                                       "cache"))
    if a.out and not a.svg:
        a.svg = os.path.join(a.out, "cycles.svg")
    return a


def commit_of(srcdir):
    try:
        h = subprocess.run(["git", "-C", srcdir, "rev-parse", "--short", "HEAD"], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True).stdout.strip()
        return h or "unknown"
    except OSError:
        return "unknown"


def page_header(a, argv, rows):
    cmd = "benchmarks/calibration/calibrate.py " + " ".join(argv)
    return [
        "# Correlation with GPGPU-Sim's GTX 480 model",
        "",
        "ptxsim's `gtx480` configuration against GPGPU-Sim 4.2 (`SM2_GTX480`, PTX mode) on the same "
        "binaries: the timing microbenchmarks of `tests/timing` and the workloads of `benchmarks/workloads` "
        "at `test` and `small` size, plus the warp-scheduler variants (issue 14's calibration set). "
        "The GPGPU-Sim figures are in `benchmarks/calibration/reference/gpgpusim-gtx480/` (from "
        "`../shared/calibration/gpgpusim-gtx480/`, whose README defines every figure); ptxsim's are "
        "measured by `benchmarks/calibration/calibrate.py` (see its README). Nothing here is hardware.",
        "",
        "Regenerate this page (from the source tree, after `scripts/build`):",
        "",
        "    %s" % cmd,
        "",
        "ptxsim commit: `%s`; %d runs. GS = GPGPU-Sim, PS = ptxsim." % (commit_of(a.srcdir), len(rows)),
        "",
        "* Ratio = PS cycles / GS cycles of the whole program (above 1: ptxsim slower). MAE = mean of "
        "abs(ratio - 1). The per-set lines use the `gto` runs (micro, test, small) or the scheduler "
        "variants (variants); `scan.test.shfl13` (GPGPU-Sim computes wrong shuffles) is shown, not summarised.",
        "* L1D and L2 miss rates follow GPGPU-Sim's definition, (accesses - hits - MSHR merges) / accesses. "
        "GPGPU-Sim's L2 warm-up by `cudaMemcpy` (`-gpgpu_perf_sim_memcpy 1`) makes its `test`-size L2 miss "
        "rates and DRAM bytes low; its DRAM bytes are derived from command counts (32 B per read, 64 B per write).",
        "* regs and CTAs/SM are the main kernel's (the one with the most GPGPU-Sim cycles); GPGPU-Sim takes "
        "registers from ptxas for sm_75.",
        "* Issue 14's targets: MAE <= 0.10 over the workloads (test and small), every MEASURE within 10%, "
        "IPC correlation >= 0.97, scheduler variants in the same direction with ratios within 10%.",
    ]


def main(argv):
    a = parse_args(argv)
    t0 = time.monotonic()
    if not os.access(a.ptxsim, os.X_OK):
        sys.stderr.write("calibrate.py: no ptxsim binary at %s (build it, or pass --ptxsim)\n" % a.ptxsim)
        return 2
    if not shutil.which(a.nvcc):
        sys.stderr.write("calibrate.py: nvcc not found (%s); pass --nvcc or set NVCC\n" % a.nvcc)
        return 2
    runs = calib_ref.select(calib_ref.load_runs(a.ref), a.sets, a.only)
    if not runs:
        sys.stderr.write("calibrate.py: no run matches --set %s --only %s\n" % (a.set, " ".join(a.only)))
        return 2
    log = (lambda s: None) if a.quiet else (lambda s: sys.stderr.write(s + "\n"))
    log("calibrate: %d runs, building into %s" % (len(runs), a.cache))
    paths, errors = calib_exec.build(runs, a.nvcc, a.srcdir, a.cache, a.jobs)
    for prog, err in sorted(errors.items()):
        sys.stderr.write("calibrate: build of %s failed: %s\n" % (prog, err))
    t_build = time.monotonic() - t0
    progress = lambda r: log("  %-28s %6.1f s  %s" % (r.run.id, r.wall_s, "ok" if r.ok() else r.error))
    results = calib_exec.run_all(runs, paths, a.ptxsim, a.cache, a.jobs, a.timeout, progress)
    rows = [calib_metrics.run_row(r, results.get(r.id)) for r in runs]
    for r in rows:
        if r["program"] in errors:
            r["status"] = "build failed"
    by_id = {r["id"]: r for r in rows}
    mrows = calib_metrics.measure_rows(calib_ref.load_measures(a.ref), results)
    sums = calib_metrics.set_summaries(runs, by_id, mrows)
    vrows = calib_metrics.variant_rows(runs, by_id)
    vsums = calib_metrics.variant_summaries(vrows)
    calib_output.print_text(rows, mrows, sums, vrows, vsums, sys.stdout)
    if a.out:
        calib_output.write_csvs(a.out, rows, mrows, sums, vrows, vsums)
    svg = calib_svg.chart(rows, "ptxsim vs GPGPU-Sim 4.2, GTX 480: cycles per run")
    if a.svg and svg:
        os.makedirs(os.path.dirname(os.path.abspath(a.svg)), exist_ok=True)
        with open(a.svg, "w") as f:
            f.write(svg)
    if a.markdown:
        rel = None
        if a.svg and svg:
            rel = os.path.relpath(os.path.abspath(a.svg), os.path.dirname(os.path.abspath(a.markdown)))
        with open(a.markdown, "w") as f:
            f.write(calib_output.markdown(rows, mrows, sums, vrows, vsums, rel, page_header(a, argv, rows)))
    failed = [r["id"] for r in rows if r["status"] != "ok"]
    print("\n%d runs, %d failed%s; build %.1f s, total %.1f s (-j %d)" % (
        len(rows), len(failed), (": " + " ".join(failed)) if failed else "", t_build, time.monotonic() - t0, a.jobs))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
