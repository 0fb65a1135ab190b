"""The comparison figures: per run, per MEASURE line, per set, per scheduler variant.

Rates use GPGPU-Sim's definitions (reference README): the L1D and L2 miss rate is
(accesses - hits - mshr_merges) / accesses, since GPGPU-Sim counts MSHR merges as pending
hits, not misses. Regs and CTAs/SM are those of the run's main kernel (the kernel with the
most GPGPU-Sim cycles; for several launches of it, ptxsim's longest one).
"""
import math

from calib_ref import SCHED_VARIANTS


def _div(a, b):
    return a / b if b else None


def miss_rate(cache):
    """GPGPU-Sim's miss rate of one ptxsim cache statistics object."""
    if not cache:
        return None
    acc = cache.get("accesses", 0)
    return _div(acc - cache.get("hits", 0) - cache.get("mshr_merges", 0), acc)


def _main_kernel(stats, name):
    best = None
    for k in stats.get("kernels", []):
        if k.get("name") == name and (best is None or k["timing"]["cycles"] > best["timing"]["cycles"]):
            best = k
    return best


def run_row(run, res):
    """The figures of one run, GPGPU-Sim (gs_*) beside ptxsim (ps_*)."""
    row = {"id": run.id, "set": run.set, "program": run.program, "size": run.size, "variant": run.variant,
           "status": "ok" if res and res.ok() else (res.error if res else "not run"),
           "gs_cycles": run.gs("cycles"), "gs_ipc": run.gs("ipc"), "gs_l1d_mr": run.gs("l1d_mr"),
           "gs_l2_mr": run.gs("l2_mr"), "gs_dram_bytes": run.gs_dram_bytes(), "gs_regs": run.gs("regs"),
           "gs_ctas_per_sm": run.gs("ctas_per_sm"), "ps_wall_s": round(res.wall_s, 2) if res else None}
    for k in ("ps_cycles", "ps_ipc", "ps_l1d_mr", "ps_l2_mr", "ps_dram_bytes", "ps_regs", "ps_ctas_per_sm",
              "ratio"):
        row[k] = None
    if not res or res.stats is None or "timing_total" not in res.stats:
        return row
    t = res.stats["timing_total"]
    dram = t.get("dram", {})
    row.update(ps_cycles=t.get("cycles"), ps_ipc=t.get("ipc"), ps_l1d_mr=miss_rate(t.get("l1d")),
               ps_l2_mr=miss_rate(t.get("l2")),
               ps_dram_bytes=dram.get("read_bytes", 0) + dram.get("write_bytes", 0))
    k = _main_kernel(res.stats, run.main_kernel)
    if k:
        occ = k["timing"].get("occupancy", {})
        row.update(ps_regs=occ.get("regs_per_thread"), ps_ctas_per_sm=occ.get("max_ctas_per_sm"))
    if row["ps_cycles"] and row["gs_cycles"]:
        row["ratio"] = row["ps_cycles"] / row["gs_cycles"]
    return row


def measure_rows(ref_measures, results):
    """Per MEASURE line: cycles per operation in both simulators and their ratio."""
    rows = []
    for rid, items in ref_measures.items():
        res = results.get(rid)
        if res is None:
            continue
        for name, gcyc, gcnt in items:
            got = res.measures.get(name)
            gs = gcyc / gcnt
            ps = got[0] / got[1] if got and got[1] else None
            rows.append({"id": rid, "name": name, "gs_per_op": gs, "ps_per_op": ps,
                         "ratio": _div(ps, gs) if ps is not None else None,
                         # a footprint in bytes, not a time: shown, not summarised
                         "timed": not name.endswith("_bytes")})
    return rows


def pearson(xs, ys):
    n = len(xs)
    if n < 2:
        return None
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else None


def summarise(name, items, ipcs=None):
    """Summary of ratios [(label, ratio)]: geomean, MAE |r-1|, max deviation, within 10%/15%,
    and the Pearson correlation of [(gs_ipc, ps_ipc)] when given."""
    items = [(l, r) for l, r in items if r]
    s = {"set": name, "n": len(items), "geomean": None, "mae": None, "max_dev": None, "max_dev_run": "",
         "within10": 0, "within15": 0, "ipc_corr": None}
    if not items:
        return s
    devs = [(abs(r - 1), l) for l, r in items]
    s["geomean"] = math.exp(sum(math.log(r) for _, r in items) / len(items))
    s["mae"] = sum(d for d, _ in devs) / len(devs)
    s["max_dev"], s["max_dev_run"] = max(devs)
    s["within10"] = sum(d <= 0.10 for d, _ in devs)
    s["within15"] = sum(d <= 0.15 for d, _ in devs)
    if ipcs:
        s["ipc_corr"] = pearson([a for a, _ in ipcs], [b for _, b in ipcs])
    return s


def set_summaries(runs, rows_by_id, measures):
    out = []
    for name in ("micro", "test", "small", "variants"):
        rs = [rows_by_id[r.id] for r in runs if r.set == name and r.in_summary() and r.id in rows_by_id]
        if not rs:
            continue
        ipcs = [(x["gs_ipc"], x["ps_ipc"]) for x in rs if x["ratio"] and x["gs_ipc"] is not None]
        out.append(summarise(name, [(x["id"], x["ratio"]) for x in rs], ipcs))
    wl = [rows_by_id[r.id] for r in runs if r.set in ("test", "small") and r.in_summary() and r.id in rows_by_id]
    if {x["set"] for x in wl} == {"test", "small"}:  # both sizes: the workloads together
        ipcs = [(x["gs_ipc"], x["ps_ipc"]) for x in wl if x["ratio"] and x["gs_ipc"] is not None]
        out.append(summarise("workloads (test+small)", [(x["id"], x["ratio"]) for x in wl], ipcs))
    ms = [("%s:%s" % (m["id"].split(".")[0], m["name"]), m["ratio"]) for m in measures if m["timed"]]
    if ms:
        out.append(summarise("MEASURE", ms))
    return out


def variant_rows(runs, rows_by_id):
    """Per scheduler variant run: variant/gto cycles in both simulators and whether the
    direction agrees (both above, both below, or both exactly at 1)."""
    out = []
    for r in runs:
        if r.variant not in SCHED_VARIANTS or r.id not in rows_by_id:
            continue
        v = rows_by_id[r.id]
        b = rows_by_id.get("%s.%s.gto" % (r.program, r.size))
        if not b or not v["ratio"] or not b["ratio"]:
            continue
        gs = v["gs_cycles"] / b["gs_cycles"]
        ps = v["ps_cycles"] / b["ps_cycles"]
        sign = lambda x: (x > 1) - (x < 1)
        out.append({"id": r.id, "set": r.set, "program": r.program, "variant": r.variant,
                    "gs_options": r.row.get("gs_options", "").replace("-gpgpu_runtime_stat 1", "").strip(),
                    "ps_options": " ".join(r.ps_options), "gs_speedup": gs, "ps_speedup": ps,
                    "agree": sign(gs) == sign(ps), "within10": abs(ps / gs - 1) <= 0.10})
    return out


def variant_summaries(vrows):
    """Per variant over the workloads of the variants set (sched.default.lrr, a
    microbenchmark, is listed among the rows but not pooled here, as in the reference)."""
    out = []
    for v in SCHED_VARIANTS:
        xs = [x for x in vrows if x["variant"] == v and x["set"] == "variants"]
        if not xs:
            continue
        geo = lambda k: math.exp(sum(math.log(x[k]) for x in xs) / len(xs))
        out.append({"variant": v, "n": len(xs), "gs_geomean": geo("gs_speedup"), "ps_geomean": geo("ps_speedup"),
                    "agree": sum(x["agree"] for x in xs), "within10": sum(x["within10"] for x in xs)})
    return out
