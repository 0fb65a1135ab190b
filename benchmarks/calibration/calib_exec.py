"""Building the calibration programs and running ptxsim on them.

The microbenchmarks (tests/timing/<name>.cu) are built the way tests/timing/run.sh builds
them (nvcc -cudart shared -arch=sm_75 -O2), the workloads by benchmarks/workloads/build.sh
(the rule `make workloads` uses, which adds -I.../common and rebuilds only what changed),
both into the cache directory. Every run gets its own directory under CACHE/runs/<run id>/
with stats.json, out.txt and err.txt, as the reference was made:
  ptxsim run --config gtx480 -o ptxsim_print_stats=0 [ps options] --stats stats.json -- PROG ARGS
"""
import concurrent.futures
import json
import os
import shutil
import subprocess
import time

MICRO_FLAGS = ["-cudart", "shared", "-arch=sm_75", "-O2"]


def _stale(target, source):
    return not os.path.exists(target) or os.path.getmtime(target) < os.path.getmtime(source)


def _build_micro(nvcc, srcdir, bindir, name):
    """Builds tests/timing/<name>.cu into bindir/<name> when missing or older; returns an error or None."""
    src = os.path.join(srcdir, "tests", "timing", name + ".cu")
    target = os.path.join(bindir, name)
    if not _stale(target, src):
        return None
    p = subprocess.run([nvcc] + MICRO_FLAGS + ["-o", target + ".tmp", src], cwd=bindir,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        return "nvcc failed on %s:\n%s" % (src, p.stdout[-1500:])
    os.replace(target + ".tmp", target)
    return None


def build(runs, nvcc, srcdir, cache, jobs):
    """Builds every program the runs need. Returns ({program: binary path}, {program: error})."""
    micro = sorted({r.program for r in runs if r.micro})
    work = sorted({r.program for r in runs if not r.micro})
    mbin = os.path.join(cache, "timing")
    wbin = os.path.join(cache, "workloads")
    os.makedirs(mbin, exist_ok=True)
    paths, errors = {}, {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futs = {p: pool.submit(_build_micro, nvcc, srcdir, mbin, p) for p in micro}
        for p, fut in futs.items():
            err = fut.result()
            if err:
                errors[p] = err
            else:
                paths[p] = os.path.join(mbin, p)
    if work:
        env = dict(os.environ, NVCC=nvcc)
        script = os.path.join(srcdir, "benchmarks", "workloads", "build.sh")
        p = subprocess.run(["bash", script, "-q", "-j", str(jobs), srcdir, wbin] + work, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for name in work:
            exe = os.path.join(wbin, name)
            if os.access(exe, os.X_OK) and "FAILED      %s " % name not in p.stdout:
                paths[name] = exe
            else:
                errors[name] = "build.sh failed (log: %s):\n%s" % (
                    os.path.join(wbin, "log", name + ".log"), p.stdout[-1500:])
    return paths, errors


def parse_measures(text):
    """{name: (cycles, count)} from the MEASURE name cycles count lines of a program's output."""
    m = {}
    for line in text.splitlines():
        w = line.split()
        if len(w) == 4 and w[0] == "MEASURE":
            try:
                m[w[1]] = (int(w[2]), int(w[3]))
            except ValueError:
                pass
    return m


class Result:
    """What one ptxsim run produced: exit status, PASS line, statistics, MEASURE lines."""

    def __init__(self, run):
        self.run = run
        self.rc = None
        self.passed = False
        self.stats = None
        self.measures = {}
        self.wall_s = 0.0
        self.error = ""

    def ok(self):
        return self.rc == 0 and self.passed and self.stats is not None


def _clean_env():
    """The caller's environment without PTXSIM_* settings that would change the runs."""
    env = dict(os.environ)
    for k in ("PTXSIM_CONFIG", "PTXSIM_OPTIONS", "PTXSIM_BUDGET", "PTXSIM_STATS", "PTXSIM_MODE"):
        env.pop(k, None)
    return env


def run_one(run, exe, ptxsim, cache, timeout):
    res = Result(run)
    d = os.path.join(cache, "runs", run.id)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    cmd = [ptxsim, "run", "--config", "gtx480", "-o", "ptxsim_print_stats=0",
           "-o", "ptxsim_progress_interval=0"] + run.ps_options + \
          ["--stats", "stats.json", "--", exe] + run.args
    with open(os.path.join(d, "cmd.txt"), "w") as f:
        f.write(" ".join(cmd) + "\n")
    t0 = time.monotonic()
    with open(os.path.join(d, "out.txt"), "wb") as out, open(os.path.join(d, "err.txt"), "wb") as err:
        try:
            res.rc = subprocess.run(cmd, cwd=d, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                    env=_clean_env(), timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            res.rc = 124
            res.error = "timed out after %d s" % timeout
    res.wall_s = time.monotonic() - t0
    out = open(os.path.join(d, "out.txt"), errors="replace").read()
    err = open(os.path.join(d, "err.txt"), errors="replace").read()
    res.passed = any(l.startswith("PASS") for l in out.splitlines())
    res.measures = parse_measures(out + "\n" + err)
    try:
        with open(os.path.join(d, "stats.json")) as f:
            res.stats = json.load(f)
    except (OSError, ValueError) as e:
        res.error = res.error or "no statistics: %s" % e
    if not res.error and res.rc != 0:
        res.error = "exit status %s: %s" % (res.rc, err.strip().splitlines()[-1:] or "")
    elif not res.error and not res.passed:
        res.error = "no PASS line on stdout"
    return res


def _expected_wall(run):
    """The reference's ptxsim wall seconds, so the longest runs start first."""
    try:
        return float(run.row.get("ps_wall_s") or 0)
    except ValueError:
        return 0.0


def run_all(runs, paths, ptxsim, cache, jobs, timeout, progress):
    """Runs every run whose program was built, `jobs` at a time; returns {run id: Result}."""
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futs = {pool.submit(run_one, r, paths[r.program], ptxsim, cache, timeout): r
                for r in sorted(runs, key=_expected_wall, reverse=True) if r.program in paths}
        for fut in concurrent.futures.as_completed(futs):
            res = fut.result()
            results[res.run.id] = res
            progress(res)
    return results
