#!/usr/bin/env python3
"""L1D-policy tables from a `ptxsim sweep` directory (its runs/*.json statistics).

usage: l1d_table.py SWEEP_DIR BASELINE_VARIANT [VARIANT ...]

Prints Markdown: per workload and variant, IPC normalised to the baseline variant,
L1D hit rate (hits / reads+writes), the share of L1D reads the policy bypassed
(bypassed / reads), the zero-reuse share of evictions (lines evicted without a hit),
L1-to-L2 traffic (request packets on the interconnect, normalised to the baseline) and
reservation failures per access; then geometric means of the normalised columns.
Only workloads whose runs exist for every variant are listed, so every mean
averages the same workloads. Used for docs/results/l1d-*.
"""
import glob
import json
import math
import os
import sys


def load(d):
    runs = {}
    for path in sorted(glob.glob(os.path.join(d, "runs", "*.json"))):
        name = os.path.basename(path)[:-5]
        wl, size, cfg, var = name.split(".", 3)
        try:
            with open(path) as f:
                t = json.load(f)["timing_total"]
        except (OSError, ValueError, KeyError):
            continue
        runs[(wl, var)] = t
    return runs


def ratio(a, b):
    return a / b if b else 0.0


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    d, base = sys.argv[1], sys.argv[2]
    runs = load(d)
    variants = sys.argv[3:] or sorted({v for _, v in runs} - {base})
    allv = [base] + [v for v in variants if v != base]
    wls = sorted({w for w, _ in runs if all((w, v) in runs for v in allv)})
    cols = [
        ("IPC norm.", lambda t, b: ratio(t["ipc"], b["ipc"]), True),
        ("L1D hit rate", lambda t, b: ratio(t["l1d"]["hits"], t["l1d"]["accesses"]), False),
        ("bypassed / reads", lambda t, b: ratio(t["l1d"]["bypassed"], t["l1d"]["reads"]), False),
        ("zero-reuse evictions", lambda t, b: ratio(t["l1d"]["evict_noreuse"], t["l1d"]["evictions"]), False),
        ("L1->L2 requests norm.", lambda t, b: ratio(t["icnt"]["request_packets"], b["icnt"]["request_packets"]), True),
        ("res. fails / access", lambda t, b: ratio(t["l1d"]["reservation_fails"], t["l1d"]["accesses"]), False),
    ]
    for title, fn, geo in cols:
        print("### %s\n" % title)
        print("| workload | " + " | ".join(allv) + " |")
        print("|---|" + "---:|" * len(allv))
        acc = {v: [] for v in allv}
        for w in wls:
            b = runs[(w, base)]
            vals = []
            for v in allv:
                x = fn(runs[(w, v)], b)
                acc[v].append(x)
                vals.append("%.3f" % x)
            print("| %s | %s |" % (w, " | ".join(vals)))
        if geo:
            g = [math.exp(sum(math.log(max(x, 1e-9)) for x in acc[v]) / len(acc[v])) if acc[v] else 0 for v in allv]
            print("| **gmean** | %s |" % " | ".join("%.3f" % x for x in g))
        else:
            m = [sum(acc[v]) / len(acc[v]) if acc[v] else 0 for v in allv]
            print("| **mean** | %s |" % " | ".join("%.3f" % x for x in m))
        print()


if __name__ == "__main__":
    main()
