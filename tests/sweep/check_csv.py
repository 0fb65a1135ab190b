#!/usr/bin/env python3
"""Checks CSV tables of ptxsim (tests/sweep/run.sh) with Python's csv module, as pandas
would load them.

check_csv.py STATS.csv RESULTS.csv
    STATS.csv (`ptxsim stats --csv` of a sweep's runs/*.json) has the documented columns
    in order, one row per (run, kernel) plus one total row per run, integer kernel
    indices from 0 per run, and the figures of the sweep's RESULTS.csv for the same runs.
check_csv.py --same A.csv B.csv
    A and B have the same rows (in order), the wall time and simulation rate aside.
"""
import csv
import os
import sys

KEYS = ["run", "workload", "class", "size", "config", "variant", "status", "scope",
        "kernel_index", "kernel"]
FIGURES = ["cycles", "thread_insn", "warp_insn", "ipc", "l1d_accesses", "l1d_misses",
           "l1d_miss_rate", "l1d_mpki", "l2_misses", "l2_mpki", "dram_reads", "dram_writes",
           "dram_row_hit_rate", "dram_util", "mem_latency_avg", "occupancy", "ract", "util",
           "c_idle", "c_mem", "stall_sync", "stall_fetch", "stall_control", "stall_data",
           "stall_dcache_miss", "stall_mshr", "stall_structural", "stall_exec", "wall_s",
           "sim_rate", "c_stall", "n_act", "n_inact", "n_sm", "idle_frac"]
VARYING = {"wall_s", "sim_rate"}


def load(path):
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        return reader.fieldnames, list(reader)


def fail(msg):
    print("check_csv.py: " + msg)
    sys.exit(1)


def check_stats(stats_path, results_path):
    cols, rows = load(stats_path)
    if cols != KEYS + FIGURES:
        fail("columns %s, expected %s" % (cols, KEYS + FIGURES))
    _, results = load(results_path)
    runs = {}
    for r in rows:
        runs.setdefault(r["run"], []).append(r)
    want_runs = {r["run"] for r in results if r["scope"] == "total"}
    if {os.path.basename(k)[:-len(".json")] for k in runs} != want_runs:
        fail("runs %s, expected %s" % (sorted(runs), sorted(want_runs)))
    for run, rs in runs.items():
        kernels = [r for r in rs if r["scope"] == "kernel"]
        totals = [r for r in rs if r["scope"] == "total"]
        if len(totals) != 1 or not kernels or rs[-1] is not totals[0]:
            fail("%s: %d kernel rows and %d total rows" % (run, len(kernels), len(totals)))
        if [int(r["kernel_index"]) for r in kernels] != list(range(len(kernels))):
            fail("%s: kernel indices %s" % (run, [r["kernel_index"] for r in kernels]))
        for r in rs:
            for c in FIGURES:
                if c != "wall_s" and r[c] == "":
                    fail("%s: no %s" % (run, c))
                float(r[c] or 0)
        if sum(int(r["cycles"]) for r in kernels) != int(totals[0]["cycles"]):
            fail("%s: kernel cycles do not add up to the total" % run)
        name = os.path.basename(run)[:-len(".json")]
        swept = [r for r in results if r["run"] == name]
        if len(swept) != len(rs):
            fail("%s: %d rows in results.csv, %d from stats" % (run, len(swept), len(rs)))
        for a, b in zip(swept, rs):
            for c in FIGURES:
                if c not in VARYING and a[c] != b[c]:
                    fail("%s %s: %s in results.csv, %s from stats" % (run, c, a[c], b[c]))


def check_same(a_path, b_path):
    a_cols, a = load(a_path)
    b_cols, b = load(b_path)
    if a_cols != b_cols or len(a) != len(b) or not a:
        fail("%s and %s differ in columns or row count (%d, %d)" % (a_path, b_path, len(a), len(b)))
    for x, y in zip(a, b):
        for c in a_cols:
            if c not in VARYING and x[c] != y[c]:
                fail("%s %s: %s against %s" % (x["run"], c, x[c], y[c]))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--same":
        check_same(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3:
        check_stats(sys.argv[1], sys.argv[2])
    else:
        fail("usage: check_csv.py STATS.csv RESULTS.csv | --same A.csv B.csv")
