#!/usr/bin/env python3
"""CAWA's criticality predictor and schedulers: accuracy and speedup per workload.

usage: cawa_accuracy.py [--ptxsim BIN] [--bin DIR] [--out DIR] [--sizes test]
                        [--workloads a,b,...] [--l1d16] [--jobs N] [--variant NAME:OPTS ...]
                        [--opts opt=val,...] [--drop NAME,...]

Runs `ptxsim sweep` on gtx480 with GTO, LRR, gCAWS (nInst from the SM's branch
outcomes, the default), gCAWS with nInst inferred from PC jumps (ninst=pc, the
behaviour before the SM reported branches) and CAWA (gCAWS + CACP). --l1d16 adds
the same gCAWS and CAWA on the dissertation's 16-way L1D (8 sets x 16 ways x
128 B, 16 KB). Prints, per workload, the predictor's accuracy (the statistics'
`criticality.accuracy`: how often the truly critical warp, the last of its CTA to
finish, was in the predicted-slow top half; the dissertation: 73% on average,
100% on NW) and the speedup over GTO (cycles of GTO / cycles of the variant; the
16-way variants over GTO on the same 16-way L1D, and gto16 over gto), then
geometric means over the irregular (cache-sensitive) class. --variant adds runs
(as sweep --variant; names starting gcaws or cawa get an accuracy column), e.g.
'gcaws_gto:gpgpu_scheduler=gcaws:order=gto': the predictor judged under GTO's
issue order, where it does not speed up the warps it predicts. --opts adds
options to every variant, e.g. 'ptxsim_threads=1' for runs side by side, or
'ptxsim_sample=on' for paper-size inputs with many CTAs; --drop leaves out
variants by name (e.g. gcaws_pc, to save time at paper size).
"""
import argparse
import glob
import json
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WORKLOADS = "bfs,kmeans,spmv_csr,sssp,knn,streamcluster,memcached,gc_mark,lud,nw,hotspot,srad"
IRREGULAR = {"bfs", "kmeans", "spmv_csr", "sssp", "knn", "streamcluster", "memcached", "gc_mark"}
L1D16 = "gpgpu_cache:dl1=N:8:128:16,L:L:m:N:H,S:64:8,8"


def variants(l1d16):
    v = ["gto:gpgpu_scheduler=gto", "lrr:gpgpu_scheduler=lrr", "gcaws:gpgpu_scheduler=gcaws",
         "gcaws_pc:gpgpu_scheduler=gcaws:ninst=pc",
         "cawa:gpgpu_scheduler=gcaws,ptxsim_l1d_policy=cacp"]
    if l1d16:
        v += ["gto16:gpgpu_scheduler=gto," + L1D16, "gcaws16:gpgpu_scheduler=gcaws," + L1D16,
              "cawa16:gpgpu_scheduler=gcaws,ptxsim_l1d_policy=cacp," + L1D16]
    return v


def load(out):
    res = {}
    for path in glob.glob(os.path.join(out, "runs", "*.json")):
        wl, size, _cfg, var = os.path.basename(path)[:-5].split(".", 3)
        try:
            with open(path) as f:
                t = json.load(f)["timing_total"]
        except (OSError, ValueError, KeyError):
            continue
        res[(wl, size, var)] = (t["cycles"], t.get("criticality", {}))
    return res


def gmean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--ptxsim", default=os.path.join(ROOT, "build", "ptxsim"))
    p.add_argument("--bin", default=None)
    p.add_argument("--out", default="cawa-accuracy-out")
    p.add_argument("--sizes", default="test")
    p.add_argument("--workloads", default=WORKLOADS)
    p.add_argument("--l1d16", action="store_true")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--variant", action="append", default=[], help="extra NAME:OPTS")
    p.add_argument("--opts", default="", help="opt=val,... added to every variant")
    p.add_argument("--drop", default="", help="NAME,... variants to leave out")
    a = p.parse_args()
    drop = set(filter(None, a.drop.split(",")))
    vs = [v for v in variants(a.l1d16) + a.variant if v.split(":")[0] not in drop]
    if "gto" in drop or (a.l1d16 and "gto16" in drop):
        sys.exit("cawa_accuracy.py: gto and gto16 are the baselines and cannot be dropped")
    if a.opts:
        vs = [v + ("," if ":" in v else ":") + a.opts for v in vs]
    cmd = [a.ptxsim, "sweep", "--workloads", a.workloads, "--sizes", a.sizes, "--configs",
           "gtx480", "--baseline", "gto", "--jobs", str(a.jobs), "--out", a.out]
    cmd += ["--bin", a.bin] if a.bin else []
    for v in vs:
        cmd += ["--variant", v]
    print("#", " ".join(cmd), file=sys.stderr)
    if subprocess.run(cmd, stdout=subprocess.DEVNULL).returncode not in (0, 1):
        sys.exit("ptxsim sweep failed")
    res = load(a.out)
    names = [v.split(":")[0] for v in vs]
    crit = [n for n in names if n.startswith(("gcaws", "cawa"))]
    for size in a.sizes.split(","):
        print("\n### %s size, gtx480\n" % size)
        print("| workload | " + " | ".join("acc %s" % n for n in crit) + " | " +
              " | ".join("%s / %s" % (n, "gto16" if n.endswith("16") and n != "gto16" else "gto")
                         for n in names[1:]) + " |")
        print("|---|" + "---:|" * (len(crit) + len(names) - 1))
        sp = {n: [] for n in names}
        for w in a.workloads.split(","):
            row = []
            for n in crit:
                r = res.get((w, size, n))
                row.append("%.2f" % r[1]["accuracy"] if r and r[1].get("samples") else "-")
            for n in names[1:]:
                r = res.get((w, size, n))
                ref = "gto16" if n.endswith("16") and n != "gto16" else "gto"
                base = res.get((w, size, ref))
                s = base[0] / r[0] if r and base and r[0] else None
                if s and w in IRREGULAR:
                    sp[n].append(s)
                row.append("%.3f" % s if s else "-")
            print("| %s | %s |" % (w, " | ".join(row)))
        print("| **gmean irregular** | " + " | ".join("" for _ in crit) + " | " +
              " | ".join("%.3f" % gmean(sp[n]) for n in names[1:]) + " |")


if __name__ == "__main__":
    main()
