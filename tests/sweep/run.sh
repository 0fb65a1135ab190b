#!/bin/bash
# `ptxsim sweep` over a user's own programs, and `ptxsim stats --csv` (docs/experiments.md):
#  1. a bad variant (unknown policy name) is refused before anything runs: exit status 2,
#     the timing model's message, no results directory;
#  2. an app list (tests/sweep/apps.yml) of programs that follow none of the workload
#     suite's conventions (own arguments, an input file, an output file compared with an
#     expected one, a stdout regex, exit status 3 expected) sweeps locally with two
#     variants: every run passes; a wrong expectation fails (exit status 1, status fail);
#     an Accel-Sim-shaped list runs; a run past --timeout is judged timeout;
#  3. `ptxsim stats --csv` of the runs' JSON files is read by Python's csv module: the
#     documented columns, one row per run and kernel plus a total row per run, and the
#     same figures as the sweep's results.csv;
#  4. the same list and variants through a single-node Slurm (slurmctld, slurmd and munge
#     from Debian, started here on loopback with a configuration in a temporary
#     directory): `ptxsim sweep --slurm` submits one job array, `--status` follows it and
#     collects, and results.csv has the rows of the local sweep (wall times and
#     simulation rates aside); a second submission resubmits nothing. Skipped (the rest
#     still runs) when the Slurm or munge programs are not installed
#     (scripts/install-deps installs them). A run past --timeout is judged "timeout" by both
#     back ends, and the Slurm job's time limit follows from --timeout.
# Environment: PTXSIM, NVCC (skip, exit 77, when unset), srcdir. SWEEP_TEST_SLURM=0 skips 4.
set -u
# Leak checks stay on for ptxsim sweep and stats; a sanitizer build of the sweep turns them
# off for the programs it runs (whose host arrays are not ptxsim's).
unset PTXSIM_CONFIG PTXSIM_OPTIONS PTXSIM_BUDGET PTXSIM_STATS PTXSIM_MODE
here="${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/sweep"
if [ -z "${PTXSIM:-}" ] || [ ! -x "$PTXSIM" ]; then
    echo "run.sh: PTXSIM is not set to the ptxsim binary" >&2
    exit 1
fi
if [ -z "${NVCC:-}" ] || ! command -v "$NVCC" >/dev/null 2>&1; then
    echo "SKIP: NVCC is not set or not found; the test programs need nvcc"
    exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxsim-sweep.XXXXXX") || exit 1
chmod 755 "$tmp"
cleanup() {
    [ -n "${slurm_started:-}" ] && "$here/slurm_env.sh" stop "$tmp/slurm-env" >/dev/null 2>&1
    rm -rf "$tmp"
}
trap cleanup EXIT
fails=0
ok() { echo "ok: $*"; }
bad() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}

# The programs and their list, in a directory of their own (the list's paths are relative).
mkdir -p "$tmp/apps/data"
cp "$here/apps.yml" "$tmp/apps/" && cp "$here"/data/* "$tmp/apps/data/" || exit 1
if ! "$NVCC" -cudart shared -arch=sm_75 -O2 -o "$tmp/apps/tinyapp" "$here/tinyapp.cu" \
    >"$tmp/nvcc.log" 2>&1; then
    cat "$tmp/nvcc.log"
    echo "FAIL: nvcc could not build tests/sweep/tinyapp.cu"
    exit 1
fi
variants=(--variant gto:gpgpu_scheduler=gto --variant lrr:gpgpu_scheduler=lrr)

# ---- 1. a bad variant -------------------------------------------------------------------------
"$PTXSIM" sweep --apps "$tmp/apps/apps.yml" --variant ok:gpgpu_scheduler=gto \
    --variant bad:gpgpu_scheduler=lrrr --out "$tmp/bad" >"$tmp/bad.out" 2>"$tmp/bad.err"
st=$?
if [ "$st" = 2 ] && [ ! -e "$tmp/bad" ] &&
    grep -q "variant bad on gtx480: -o gpgpu_scheduler=lrrr: error: unknown warp scheduler 'lrrr'" "$tmp/bad.err"; then
    ok "bad variant refused before any run (exit 2)"
else
    bad "bad variant: exit status $st, expected 2 and no $tmp/bad"
    cat "$tmp/bad.err"
fi

# ---- 2. the local sweep -----------------------------------------------------------------------
"$PTXSIM" sweep --apps "$tmp/apps/apps.yml" "${variants[@]}" --jobs 2 --timeout 120 \
    --out "$tmp/local" >"$tmp/local.out" 2>"$tmp/local.err"
st=$?
if [ "$st" = 0 ] && [ "$(grep -c ',pass,total,' "$tmp/local/results.csv")" = 6 ]; then
    ok "local sweep: 3 apps x 2 variants passed"
else
    bad "local sweep: exit status $st"
    cat "$tmp/local.err"
fi
# A check that cannot hold: the run fails, and the sweep says so.
sed 's/exit: 3/exit: 4/' "$tmp/apps/apps.yml" >"$tmp/apps/wrong.yml"
"$PTXSIM" sweep --apps "$tmp/apps/wrong.yml" --workloads code --out "$tmp/wrong" \
    >/dev/null 2>"$tmp/wrong.err"
st=$?
if [ "$st" = 1 ] && grep -q '^code\.gtx480\.base,.*,fail,total,' "$tmp/wrong/results.csv"; then
    ok "a run whose exit status is not the expected one fails"
else
    bad "wrong expectation: exit status $st"
    cat "$tmp/wrong.err"
fi

# The same program through an Accel-Sim-shaped list: data_dirs/<exe>/ is where it runs.
mkdir -p "$tmp/apps/data_dirs/tinyapp/data" && cp "$here/data/in.txt" "$tmp/apps/data_dirs/tinyapp/data/"
cp "$here/accel-apps.yml" "$tmp/apps/"
SWEEP_TEST_BIN="$tmp/apps" "$PTXSIM" sweep --apps "$tmp/apps/accel-apps.yml" --out "$tmp/accel" \
    >/dev/null 2>"$tmp/accel.err"
st=$?
if [ "$st" = 0 ] && [ "$(grep -c '^tinyapp-[12]\.gtx480\.base,.*,pass,total,' "$tmp/accel/results.csv")" = 2 ] &&
    [ -s "$tmp/apps/data_dirs/tinyapp/out.txt" ]; then
    ok "Accel-Sim-shaped app list: 2 runs passed, run in data_dirs/tinyapp"
else
    bad "Accel-Sim-shaped app list: exit status $st"
    cat "$tmp/accel.err"
fi

# A run past its --timeout is killed and judged "timeout".
cp "$here/slow.yml" "$tmp/apps/"
"$PTXSIM" sweep --apps "$tmp/apps/slow.yml" --timeout 2 --out "$tmp/slow" >/dev/null 2>"$tmp/slow.err"
st=$?
if [ "$st" = 1 ] && grep -q '^slow\.gtx480\.base,.*,timeout,total,' "$tmp/slow/results.csv"; then
    ok "a run past --timeout is killed and judged timeout"
else
    bad "--timeout: exit status $st"
    cat "$tmp/slow.err"
fi

# ---- 3. ptxsim stats --csv, read by Python's csv module ---------------------------------------
"$PTXSIM" stats --csv "$tmp"/local/runs/*.json >"$tmp/stats.csv" 2>"$tmp/stats.err"
st=$?
if [ "$st" = 0 ] && python3 "$here/check_csv.py" "$tmp/stats.csv" "$tmp/local/results.csv"; then
    ok "ptxsim stats --csv: one row per run and kernel, the documented columns"
else
    bad "ptxsim stats --csv: exit status $st"
    cat "$tmp/stats.err"
fi

# ---- 4. the same sweep on a single-node Slurm -------------------------------------------------
slurm_check() {
    local out="$tmp/slurm" i st
    if ! "$here/slurm_env.sh" start "$tmp/slurm-env" >"$tmp/slurm-env.log" 2>&1; then
        if grep -q '^SKIP' "$tmp/slurm-env.log"; then
            echo "note: $(grep '^SKIP' "$tmp/slurm-env.log"); the Slurm back end not checked"
            return
        fi
        bad "could not start the single-node Slurm"
        cat "$tmp/slurm-env.log"
        return
    fi
    slurm_started=1
    export SLURM_CONF="$tmp/slurm-env/slurm.conf"
    if ! "$PTXSIM" sweep --apps "$tmp/apps/apps.yml" "${variants[@]}" --timeout 120 \
        --out "$out" --slurm --job-name=ptxsim-test >"$tmp/submit.out" 2>"$tmp/submit.err" ||
        ! "$PTXSIM" sweep --apps "$tmp/apps/slow.yml" --timeout 2 --out "$tmp/slurm-slow" \
            --slurm >>"$tmp/submit.out" 2>>"$tmp/submit.err"; then
        bad "ptxsim sweep --slurm: exit status $?"
        cat "$tmp/submit.err" "$tmp/slurm-env"/log/*.log 2>/dev/null | tail -40
        return
    fi
    # The job's time limit: the run's 2 s rounded up to a minute, plus two.
    if scontrol show job "$(head -n 1 "$tmp/slurm-slow/slurm/jobs")" | grep -q 'TimeLimit=00:03:00'; then
        ok "Slurm: --timeout 2 gives the job a time limit of 3 minutes"
    else
        bad "Slurm: the job's time limit is not 3 minutes"
        scontrol show job "$(head -n 1 "$tmp/slurm-slow/slurm/jobs")"
    fi
    for i in $(seq 1 120); do
        "$PTXSIM" sweep --status "$out" >"$tmp/status.out" 2>"$tmp/status.err"
        st=$?
        [ "$st" != 3 ] && break
        sleep 1
    done
    if [ "$st" != 0 ]; then
        bad "ptxsim sweep --status: exit status $st"
        cat "$tmp/status.err" "$tmp/status.out"
        tail -20 "$tmp/slurm-env"/log/slurmd.log
        return
    fi
    for i in $(seq 1 60); do
        "$PTXSIM" sweep --status "$tmp/slurm-slow" >/dev/null 2>&1
        st=$?
        [ "$st" != 3 ] && break
        sleep 1
    done
    if [ "$st" = 1 ] && python3 "$here/check_csv.py" --same "$tmp/slow/results.csv" \
        "$tmp/slurm-slow/results.csv"; then
        ok "Slurm: a run past --timeout is judged timeout, as locally"
    else
        bad "Slurm timeout: --status exit status $st"
    fi
    if [ "$(ls "$out"/slurm/*_*.log 2>/dev/null | wc -l)" != 6 ] || [ ! -s "$out/slurm/jobs" ]; then
        bad "Slurm sweep: expected 6 array task logs in $out/slurm"
    elif python3 "$here/check_csv.py" --same "$tmp/local/results.csv" "$out/results.csv"; then
        ok "Slurm sweep: results.csv rows equal the local sweep's (wall times aside)"
    else
        bad "Slurm sweep: results.csv differs from the local sweep's"
    fi
    "$PTXSIM" sweep --apps "$tmp/apps/apps.yml" "${variants[@]}" --timeout 120 --out "$out" \
        --slurm >"$tmp/resubmit.out" 2>"$tmp/resubmit.err"
    if grep -q ' 6 done earlier, 0 to run' "$tmp/resubmit.err" &&
        ! grep -q 'submitted' "$tmp/resubmit.err"; then
        ok "Slurm resume: finished runs are not resubmitted"
    else
        bad "Slurm resume: the second submission did not reuse every run"
        cat "$tmp/resubmit.err"
    fi
}
if [ "${SWEEP_TEST_SLURM:-1}" = 0 ]; then
    echo "note: SWEEP_TEST_SLURM=0; the Slurm back end not checked"
else
    slurm_check
fi

echo "$fails failed"
[ "$fails" -eq 0 ]
