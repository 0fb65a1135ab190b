#!/usr/bin/env python3
"""ptxsim's `ccws` against its authors' code: speedups over GTO side by side.

usage: ccws_authors.py [--ptxsim BIN] [--bin DIR] [--out DIR] [--sizes test,small]
                       [--workloads a,b,...] [--variant NAME:OPTS ...] [--jobs N]
                       [--ref CSV] [--sched 1|2]

Runs `ptxsim sweep` on the gtx480 machine for GTO and `ccws` (and any extra
--variant, e.g. 'ccws_old:gpgpu_scheduler=ccws:share=sched'), then prints a Markdown
table per size: cycles of GTO / cycles of the variant, for ptxsim and for the
authors' mechanism on GPGPU-Sim 4.2's GTX 480 model (shared/calibration/
ccws-authors-gtx480/results.csv, the `schedulers_per_sm` given by --sched, 2 by
default as on gtx480), and their ratio (ptxsim / authors; issue 23 asks for
0.9-1.1). Finished runs in the sweep directory are reused. The reference's
`warp_limiting:2:N` rows (GPGPU-Sim's static limit, N warps per scheduler) are
shown beside ptxsim's `warp_limiting:2:N` (variants wl1..wl8) when --limits is given.
"""
import argparse
import csv
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WORKLOADS = "kmeans,bfs,spmv_csr,memcached,gc_mark,knn,streamcluster"
DEFAULT_REF = os.path.join(ROOT, "..", "shared", "calibration", "ccws-authors-gtx480",
                           "results.csv")


def sweep(a, variants):
    cmd = [a.ptxsim, "sweep", "--workloads", a.workloads, "--sizes", a.sizes,
           "--configs", "gtx480", "--baseline", "gto", "--jobs", str(a.jobs),
           "--out", a.out]
    if a.bin:
        cmd += ["--bin", a.bin]
    for v in variants:
        cmd += ["--variant", v]
    print("#", " ".join(cmd), file=sys.stderr)
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL)
    if r.returncode not in (0, 1):
        sys.exit("ptxsim sweep failed (exit %d)" % r.returncode)


def ptxsim_cycles(out):
    """{(workload, size, variant): total cycles} of the passed runs (kernel rows summed)."""
    cyc = {}
    with open(os.path.join(out, "results.csv")) as f:
        for row in csv.DictReader(f):
            if row["status"] != "pass" or row["scope"] != "kernel":
                continue
            k = (row["workload"], row["size"], row["variant"])
            cyc[k] = cyc.get(k, 0) + int(row["cycles"])
    return cyc


def ref_cycles(path, sched):
    cyc = {}
    with open(path) as f:
        for row in csv.DictReader(f):
            if row["schedulers_per_sm"] == str(sched) and row["exit"] == "0":
                cyc[(row["workload"], row["size"], row["scheduler"])] = int(row["cycles"])
    return cyc


def ref_name(n):
    """The reference's scheduler for a variant name: ccws*, or wlN = warp_limiting:2:N."""
    if n.startswith("ccws"):
        return "ccws"
    if n.startswith("wl"):
        return "warp_limiting:2:" + n[2:]
    return n


def table(a, names, mine, ref):
    for size in a.sizes.split(","):
        print("\n### %s size, gtx480, %d scheduler(s) per SM in the reference\n" % (size, a.sched))
        head = "| workload | GTO cycles (ptxsim) | GTO cycles (authors) |"
        rule = "|---|---:|---:|"
        for n in names:
            head += " %s ptxsim | %s authors | ratio |" % (n, n)
            rule += "---:|---:|---:|"
        print(head)
        print(rule)
        for w in a.workloads.split(","):
            g, rg = mine.get((w, size, "gto")), ref.get((w, size, "gto"))
            line = "| %s | %s | %s |" % (w, g or "-", rg or "-")
            for n in names:
                c = mine.get((w, size, n))
                rc = ref.get((w, size, ref_name(n)))
                s = g / c if g and c else None
                rs = rg / rc if rg and rc else None
                line += " %s | %s | %s |" % ("%.2f" % s if s else "-", "%.2f" % rs if rs else "-",
                                             "%.2f" % (s / rs) if s and rs else "-")
            print(line)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--ptxsim", default=os.path.join(ROOT, "build", "ptxsim"))
    p.add_argument("--bin", default=None, help="the workloads' binaries (sweep --bin)")
    p.add_argument("--out", default="ccws-authors-out")
    p.add_argument("--sizes", default="test,small")
    p.add_argument("--workloads", default=WORKLOADS)
    p.add_argument("--variant", action="append", default=[],
                   help="extra NAME:OPTS (as sweep --variant); names starting 'ccws' are "
                        "compared with the authors' ccws")
    p.add_argument("--limits", action="store_true",
                   help="also run warp_limiting:2:N for N = 1, 2, 4, 8")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--ref", default=DEFAULT_REF)
    p.add_argument("--sched", type=int, default=2)
    a = p.parse_args()
    variants = ["gto:gpgpu_scheduler=gto", "ccws:gpgpu_scheduler=ccws"] + a.variant
    if a.limits:
        variants += ["wl%d:gpgpu_scheduler=warp_limiting:2:%d" % (n, n) for n in (1, 2, 4, 8)]
    sweep(a, variants)
    names = [v.split(":gpgpu_scheduler")[0] for v in variants[1:]]
    table(a, names, ptxsim_cycles(a.out), ref_cycles(a.ref, a.sched))


if __name__ == "__main__":
    main()
