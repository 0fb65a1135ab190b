#!/bin/bash
# Configuration checks before anything runs (issue 22, item 1): a bad option name or value,
# policy name or argument, cache or DRAM string, or an output file that cannot be written
# stops `ptxsim run`, `ptxsim sweep` and the OpenCL platform with exit status 2, a message
# that names the file:line:col of the config line (or the -o override), and the program
# never started. Also: `--config FILE` takes a file in the working directory, and a
# gpgpusim.config there is used, with a note, when no --config is given.
#
# The "program" is /bin/sh touching a marker file, so no CUDA compiler is needed; the
# OpenCL case builds a small program with $CC -lOpenCL (skipped when that fails).
# Environment (from AM_TESTS_ENVIRONMENT): PTXSIM, srcdir, CC.
set -u

if [ -z "${PTXSIM:-}" ] || [ ! -x "$PTXSIM" ]; then
    echo "checks.sh: PTXSIM is not set to the ptxsim binary" >&2
    exit 1
fi
top="${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxsim-config.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
unset PTXSIM_CONFIG PTXSIM_OPTIONS PTXSIM_MODE PTXSIM_BUDGET PTXSIM_STATS

pass=0
fail=0
ok() { pass=$((pass + 1)); echo "PASS: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }

# refused NAME WANT_MESSAGE PTXSIM_RUN_ARGS...: exit status 2, the message on stderr, and the
# program (sh touching ./started) never ran.
refused() {
    local name=$1 want=$2 rc
    shift 2
    rm -f started
    "$PTXSIM" run "$@" -- /bin/sh -c 'touch started' >out 2>err
    rc=$?
    if [ "$rc" -ne 2 ]; then
        bad "$name: exit status $rc, want 2: $(cat err)"
    elif [ -e started ]; then
        bad "$name: the program started"
    elif ! grep -qF -- "$want" err; then
        bad "$name: stderr lacks '$want': $(cat err)"
    else
        ok "$name"
    fi
}

# A config file: line 1 a comment, line 2 a good option, line 3 the option under test.
mkcfg() {
    printf '# my machine\n-gpgpu_n_clusters 15\n%s\n' "$1" >my.config
}

mkcfg '-gpgpu_n_cluster 4'
refused "option typo in a file" \
    "my.config:3:1: error: unknown option '-gpgpu_n_cluster'; did you mean '-gpgpu_n_clusters'?" \
    --config my.config
mkcfg '-gpgpu_n_mem six'
refused "bad number in a file" "my.config:3:14: error: invalid value 'six' for -gpgpu_n_mem" \
    --config my.config
mkcfg '-gpgpu_scheduler lrrr'
refused "unknown warp scheduler in a file" "my.config:3:18: error: unknown warp scheduler 'lrrr'" \
    --config my.config
mkcfg '-ptxsim_l1d_policy pdp:foo=1'
refused "bad policy argument in a file" \
    "my.config:3:20: error: -ptxsim_l1d_policy pdp: unknown key 'foo' (known: pd)" --config my.config
mkcfg '-gpgpu_cache:dl1 N:32:128'
refused "bad cache string in a file" "my.config:3:18: error: -gpgpu_cache:dl1: cache string" \
    --config my.config
mkcfg '-gpgpu_dram_timing_opt "nbk=x:CCD=2"'
refused "bad DRAM timing in a file" "my.config:3:24: error: DRAM timing: bad value 'x'" \
    --config my.config
mkcfg '-gpgpu_n_mem 0'
refused "bound in a file" "my.config:3:14: error: -gpgpu_n_mem is 0" --config my.config

refused "unknown warp scheduler in -o" \
    "-o gpgpu_scheduler=lrrr: error: unknown warp scheduler 'lrrr' (known: lrr, gto" \
    -o gpgpu_scheduler=lrrr
refused "unknown CTA scheduler in -o" "-o ptxsim_cta_scheduler=xx: error: unknown cta scheduler" \
    -o ptxsim_cta_scheduler=xx
refused "unknown L1D policy in -o" "-o ptxsim_l1d_policy=lruu: error: unknown l1d policy 'lruu'" \
    -o ptxsim_l1d_policy=lruu
refused "bad policy argument in -o" "error: -ptxsim_l1d_policy ctrlc: thr_lo=2: expected a number from 0 to 1" -o ptxsim_l1d_policy=ctrlc:thr_lo=2
mkcfg '-gpgpu_scheduler lrrr'
refused "-o wins over the file" "-o gpgpu_scheduler=nope: error:" --config my.config \
    -o gpgpu_scheduler=nope
refused "unwritable L1D trace" "-o ptxsim_l1d_trace=/nonexistent/t.bin: error: -ptxsim_l1d_trace: cannot create" \
    -o ptxsim_l1d_trace=/nonexistent/t.bin
refused "unknown machine" "no machine configuration named 'nosuch'" --config nosuch

# A file in the working directory, named without ./ (a GPGPU-Sim habit).
printf -- '-gpgpu_n_clusters 4\n' >small.config
rm -f started
if "$PTXSIM" run --config small.config -- /bin/sh -c 'touch started' 2>err && [ -e started ]; then
    ok "--config takes a file in the working directory"
else
    bad "--config small.config: $(cat err)"
fi

# gpgpusim.config in the working directory: used, with a note; a bad one is refused.
cp "$top/configs/gtx480" gpgpusim.config
rm -f started
if "$PTXSIM" run -- /bin/sh -c 'touch started; echo "$PTXSIM_CONFIG"' >out 2>err &&
    [ -e started ] && grep -q "using ./gpgpusim.config" err && grep -q "/gpgpusim.config$" out; then
    ok "gpgpusim.config in the working directory is used and named"
else
    bad "gpgpusim.config: $(cat out err)"
fi
echo '-gpgpu_scheduler two_level_activ:6:0:1' >>gpgpusim.config
line=$(wc -l <gpgpusim.config)
refused "bad gpgpusim.config" "gpgpusim.config:$line:18: error: unknown warp scheduler"
if "$PTXSIM" run --config gtx480 -- /bin/true 2>err; then
    ok "--config gtx480 ignores gpgpusim.config"
else
    bad "--config gtx480 with a bad gpgpusim.config: $(cat err)"
fi
rm -f gpgpusim.config

# Accepted-but-unmodelled switches that are on get a warning; the program still runs.
rm -f started
if "$PTXSIM" run -o visualizer_enabled=1 -o power_simulation_enabled=1 -- \
    /bin/sh -c 'touch started' 2>err && [ -e started ] &&
    grep -q "warning: -visualizer_enabled is 1, but ptxsim does not model it" err &&
    grep -q "warning: -power_simulation_enabled is 1" err; then
    ok "unmodelled switches that are on are warned about"
else
    bad "unmodelled switches: $(cat err)"
fi
if "$PTXSIM" run --config gtx480 -- /bin/true 2>err && ! grep -q warning err; then
    ok "the shipped GTX 480 runs without warnings"
else
    bad "gtx480 warnings: $(cat err)"
fi

# ptxsim sweep checks every machine x variant before it runs or writes anything.
"$PTXSIM" sweep --workloads vecops --sizes test --variant ok --variant bad:gpgpu_scheduler=lrrr \
    --out "$tmp/sweep" >out 2>err
rc=$?
if [ "$rc" -eq 2 ] && [ ! -e "$tmp/sweep" ] &&
    grep -qF "variant bad on gtx480: -o gpgpu_scheduler=lrrr: error: unknown warp scheduler" err; then
    ok "sweep refuses a bad variant before running"
else
    bad "sweep: exit status $rc, $(cat out err)"
fi

# The OpenCL platform, loaded by a program without `ptxsim run`: status 2 at the first call.
lib="${top_builddir:-$(dirname "$PTXSIM")}/runtime/opencl/vendors"
cat >ocl.c <<'CEOF'
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
int main(void)
{
    cl_uint n = 0;
    cl_int rc = clGetPlatformIDs(0, NULL, &n);
    printf("started %d %u\n", rc, n);
    return 0;
}
CEOF
if [ -d "$lib" ] && "${CC:-cc}" -o ocl ocl.c -lOpenCL 2>/dev/null; then
    # A sanitizer build's ICD needs the ASan runtime loaded first (as `ptxsim run` does).
    asan=$(ldd "$PTXSIM" 2>/dev/null | awk '/libasan/ { print $3; exit }')
    OCL_ICD_VENDORS="$lib" PTXSIM_OPTIONS='gpgpu_scheduler=lrrr' LD_PRELOAD="$asan" \
        ASAN_OPTIONS=detect_leaks=0 ./ocl >out 2>err
    rc=$?
    if [ "$rc" -eq 2 ] && ! grep -q started out &&
        grep -qF "ptxsim opencl: -o gpgpu_scheduler=lrrr: error: unknown warp scheduler" err; then
        ok "OpenCL platform stops on a bad configuration"
    else
        bad "OpenCL platform: exit status $rc: $(cat out err)"
    fi
else
    echo "SKIP: no OpenCL program could be built; the platform check was not run"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
