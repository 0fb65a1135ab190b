"""Printing the comparison (text), and writing it as CSV files and as a Markdown page."""
import csv
import os

RUN_COLS = [  # (key, text header, markdown header, format)
    ("id", "run", "run", "%s"),
    ("gs_cycles", "GS cyc", "GS cycles", "%d"),
    ("ps_cycles", "PS cyc", "PS cycles", "%d"),
    ("ratio", "PS/GS", "PS/GS", "%.3f"),
    ("gs_ipc", "IPC GS", "IPC GS", "%.1f"),
    ("ps_ipc", "IPC PS", "IPC PS", "%.1f"),
    ("gs_l1d_mr", "L1D GS", "L1D miss GS", "%.3f"),
    ("ps_l1d_mr", "L1D PS", "L1D miss PS", "%.3f"),
    ("gs_l2_mr", "L2 GS", "L2 miss GS", "%.3f"),
    ("ps_l2_mr", "L2 PS", "L2 miss PS", "%.3f"),
    ("gs_dram_bytes", "DRAM GS", "DRAM KB GS", "kb"),
    ("ps_dram_bytes", "DRAM PS", "DRAM KB PS", "kb"),
    ("gs_regs", "rg GS", "regs GS", "%d"),
    ("ps_regs", "rg PS", "regs PS", "%d"),
    ("gs_ctas_per_sm", "CTA GS", "CTAs/SM GS", "%d"),
    ("ps_ctas_per_sm", "CTA PS", "CTAs/SM PS", "%d"),
]


def fmt(v, f):
    if v is None or v == "":
        return "-"
    if f == "kb":
        return "%.0f" % (v / 1024.0)
    if f == "%d":
        return "%d" % round(v)
    return f % v


def _summary_line(s):
    if not s["n"]:
        return "%-22s n=0" % s["set"]
    line = ("%-22s n=%-3d geomean %.3f  MAE %.3f  max dev %.3f (%s)  within 10%% %d/%d  within 15%% %d/%d" %
            (s["set"], s["n"], s["geomean"], s["mae"], s["max_dev"], s["max_dev_run"], s["within10"], s["n"],
             s["within15"], s["n"]))
    if s["ipc_corr"] is not None:
        line += "  IPC corr %.3f" % s["ipc_corr"]
    return line


def print_text(rows, mrows, sums, vrows, vsums, out):
    w = max([len(r["id"]) for r in rows] + [3])
    hdr = "%-*s " % (w, "run") + " ".join("%8s" % c[1] for c in RUN_COLS[1:]) + "  status"
    out.write("== runs (GS = GPGPU-Sim 4.2 GTX 480, PS = ptxsim gtx480; DRAM in KB) ==\n" + hdr + "\n")
    for r in rows:
        out.write("%-*s " % (w, r["id"]) + " ".join("%8s" % fmt(r[c[0]], c[3]) for c in RUN_COLS[1:]) +
                  "  " + r["status"] + "\n")
    if mrows:
        out.write("\n== MEASURE lines (cycles per operation) ==\n")
        out.write("%-28s %10s %10s %7s\n" % ("measure", "GS", "PS", "PS/GS"))
        for m in mrows:
            out.write("%-28s %10s %10s %7s%s\n" % ("%s:%s" % (m["id"].split(".")[0], m["name"]),
                                                   fmt(m["gs_per_op"], "%.2f"), fmt(m["ps_per_op"], "%.2f"),
                                                   fmt(m["ratio"], "%.3f"), "" if m["timed"] else "  (not a time)"))
    if vrows:
        out.write("\n== scheduler variants: cycles variant/gto of the same simulator ==\n")
        out.write("%-26s %-34s %8s %8s  %s\n" % ("run", "GS option / PS option", "GS", "PS", "direction"))
        for v in vrows:
            out.write("%-26s %-34s %8.3f %8.3f  %s%s\n" % (
                v["id"], "%s / %s" % (v["gs_options"].replace("-gpgpu_scheduler ", ""),
                                      v["ps_options"].replace("-o gpgpu_scheduler=", "")),
                v["gs_speedup"], v["ps_speedup"], "agrees" if v["agree"] else "DIFFERS",
                "" if v["within10"] else ", ratio off by more than 10%"))
        for s in vsums:
            out.write("variant %-10s n=%d  GS geomean %.3f  PS geomean %.3f  same direction %d/%d  "
                      "within 10%% %d/%d\n" % (s["variant"], s["n"], s["gs_geomean"], s["ps_geomean"], s["agree"],
                                              s["n"], s["within10"], s["n"]))
    out.write("\n== summary: cycle ratio PS/GS (MEASURE: cycles/op ratio) ==\n")
    for s in sums:
        out.write(_summary_line(s) + "\n")


def _write_csv(path, dicts):
    if not dicts:
        return
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(dicts[0].keys()), lineterminator="\n")
        w.writeheader()
        for d in dicts:
            w.writerow({k: ("%.6g" % v if isinstance(v, float) else v) for k, v in d.items()})


def write_csvs(d, rows, mrows, sums, vrows, vsums):
    os.makedirs(d, exist_ok=True)
    _write_csv(os.path.join(d, "runs.csv"), rows)
    _write_csv(os.path.join(d, "measures.csv"), mrows)
    _write_csv(os.path.join(d, "summary.csv"), sums)
    _write_csv(os.path.join(d, "variants.csv"), vrows)
    _write_csv(os.path.join(d, "variant_summary.csv"), vsums)


def _md_summary(sums):
    o = ["| set | n | geomean PS/GS | MAE abs(ratio-1) | max deviation | within 10% | within 15% | IPC correlation |",
         "|---|---:|---:|---:|---|---:|---:|---:|"]
    for s in sums:
        if s["n"]:
            o.append("| %s | %d | %.3f | %.3f | %.3f (%s) | %d | %d | %s |" % (
                s["set"], s["n"], s["geomean"], s["mae"], s["max_dev"], s["max_dev_run"], s["within10"],
                s["within15"], fmt(s["ipc_corr"], "%.3f")))
    return o


def markdown(rows, mrows, sums, vrows, vsums, svg_rel, header):
    o = list(header) + ["", "## Summary", ""] + _md_summary(sums)
    if svg_rel:
        o += ["", "![ptxsim vs GPGPU-Sim cycles, log-log, y = x and +-10%%](%s)" % svg_rel]
    o += ["", "## Runs", "", "| " + " | ".join(c[2] for c in RUN_COLS) + " | status |",
          "|---|" + "---:|" * (len(RUN_COLS) - 1) + "---|"]
    for r in rows:
        o.append("| %s | " % r["id"] + " | ".join(fmt(r[c[0]], c[3]) for c in RUN_COLS[1:]) + " | %s |" % r["status"])
    if mrows:
        o += ["", "## Microbenchmark MEASURE lines (cycles per operation)", "",
              "| measure | GS | PS | PS/GS |", "|---|---:|---:|---:|"]
        for m in mrows:
            o.append("| %s:%s%s | %s | %s | %s |" % (m["id"].split(".")[0], m["name"], "" if m["timed"] else " (bytes)",
                                                    fmt(m["gs_per_op"], "%.2f"), fmt(m["ps_per_op"], "%.2f"),
                                                    fmt(m["ratio"], "%.3f")))
    if vrows:
        o += ["", "## Scheduler variants (cycles variant / gto in the same simulator)", "",
              "| run | GS option | PS option | GS | PS | same direction | PS within 10% of GS |",
              "|---|---|---|---:|---:|---|---|"]
        for v in vrows:
            o.append("| %s | `%s` | `%s` | %.3f | %.3f | %s | %s |" % (
                v["id"], v["gs_options"], v["ps_options"], v["gs_speedup"], v["ps_speedup"],
                "yes" if v["agree"] else "**no**", "yes" if v["within10"] else "no"))
        o += ["", "| variant | n | GS geomean | PS geomean | same direction | within 10% |",
              "|---|---:|---:|---:|---:|---:|"]
        for s in vsums:
            o.append("| %s | %d | %.3f | %.3f | %d | %d |" % (s["variant"], s["n"], s["gs_geomean"],
                                                            s["ps_geomean"], s["agree"], s["within10"]))
    return "\n".join(o) + "\n"
