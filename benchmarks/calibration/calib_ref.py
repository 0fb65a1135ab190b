"""The reference side of the calibration: GPGPU-Sim 4.2 (GTX 480) figures per run id.

results.csv and measures.csv come from ../shared/calibration/gpgpusim-gtx480/ (its README.md
defines every column). A run id is <program>.<size>.<variant>; only runs whose GPGPU-Sim
cycles exist (gs_cycles non-empty) are part of the calibration set.
"""
import csv
import os

# The sets a run belongs to, from the reference's `set` column (a: microbenchmarks,
# b: workloads at one size, c: scheduler variants and the shfl13 pair).
SETS = ("micro", "test", "small", "variants")
DEFAULT_SETS = ("micro", "test")
SCHED_VARIANTS = ("lrr", "two_level", "swl2", "swl4", "wl2_2", "wl2_4")

# ptxsim options a run needs beyond its ps_options column. scan.test.shfl13 ran both
# simulators with SHFL's latency (the 6th integer latency) lowered to 13 (reference
# README, "Failures and caveats"); the column leaves it out.
EXTRA_PS_OPTIONS = {
    "shfl13": ["-o", "ptx_opcode_latency_int=4,13,4,5,145,13"],
}


def fnum(s):
    """A CSV cell as a float, or None when empty or not a number."""
    try:
        return float(s)
    except (TypeError, ValueError):
        return None


class Run:
    """One run of the calibration set: what to execute and GPGPU-Sim's figures."""

    def __init__(self, row):
        self.row = row
        self.id = row["id"]
        self.program = row["program"]
        self.size = row["size"]
        self.variant = row["variant"]
        if row["set"] == "a":
            self.set = "micro"
        elif row["set"] == "b":
            self.set = self.size
        else:
            self.set = "variants"
        self.micro = self.set == "micro"
        self.args = [] if self.size == "default" else [self.size]
        self.ps_options = row["ps_options"].split() + EXTRA_PS_OPTIONS.get(self.variant, [])
        self.main_kernel = row.get("main_kernel", "")
        self.note = row.get("note", "")

    def gs(self, field):
        """GPGPU-Sim's figure `field` (a results.csv column without the gs_ prefix)."""
        return fnum(self.row.get("gs_" + field))

    def gs_dram_bytes(self):
        rd, wr = self.gs("dram_rd_bytes"), self.gs("dram_wr_bytes")
        return None if rd is None or wr is None else rd + wr

    def in_summary(self):
        """Whether the run counts in its set's summary line: the gto runs for micro, test
        and small (as the reference's headline figures), the scheduler variants for
        variants (scan.test.shfl13 is shown but left out, as in the reference)."""
        return self.variant == "gto" or self.variant in SCHED_VARIANTS and self.set == "variants"


def load_runs(ref_dir):
    """Every run with GPGPU-Sim cycles, in results.csv order."""
    with open(os.path.join(ref_dir, "results.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    return [Run(r) for r in rows if fnum(r.get("gs_cycles")) is not None]


def load_measures(ref_dir):
    """{run id: [(name, gs_cycles, gs_count)]} from measures.csv, in file order."""
    out = {}
    with open(os.path.join(ref_dir, "measures.csv"), newline="") as f:
        for r in csv.DictReader(f):
            out.setdefault(r["id"], []).append((r["name"], int(r["gs_cycles"]), int(r["gs_count"])))
    return out


def select(runs, sets, only):
    """The runs of the chosen sets, narrowed to the programs or run ids in `only`.

    Scheduler variants need the gto run of the same workload as their base, so it is
    added when a variant is selected.
    """
    chosen = [r for r in runs if r.set in sets]
    if only:
        want = set(only)
        chosen = [r for r in chosen if r.program in want or r.id in want]
    ids = {r.id for r in chosen}
    for r in list(chosen):
        if r.variant in SCHED_VARIANTS:
            base = "%s.%s.gto" % (r.program, r.size)
            if base not in ids:
                chosen += [b for b in runs if b.id == base]
                ids.add(base)
    order = {r.id: i for i, r in enumerate(runs)}
    return sorted(chosen, key=lambda r: order[r.id])
