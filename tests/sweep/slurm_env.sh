#!/bin/bash
# A single-node Slurm for tests, in a directory of its own:
#   slurm_env.sh start DIR   starts munged, slurmctld and slurmd (Debian's munge, slurmctld,
#                            slurmd and slurm-client packages) on loopback, on two free ports,
#                            with DIR/slurm.conf, state, spool, logs and the munge key in DIR;
#                            waits until the node is idle. Use it with SLURM_CONF=DIR/slurm.conf.
#   slurm_env.sh stop DIR    stops the three daemons started there (by their pid files).
# start exits 1 with a line "SKIP: ..." when a program is missing, 1 with the logs' tails
# when the daemons do not come up.
set -u
cmd="${1:-}"
dir="${2:-}"
if [ -z "$cmd" ] || [ -z "$dir" ]; then
    echo "usage: slurm_env.sh start|stop DIR" >&2
    exit 2
fi

stop() {
    local f pid
    for f in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munge/munged.pid"; do
        [ -s "$f" ] || continue
        pid=$(cat "$f")
        kill "$pid" 2>/dev/null
        for _ in $(seq 1 50); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        rm -f "$f"
    done
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() {
    local p missing=() host user cpus ctld_port slurmd_port
    for p in munged slurmctld slurmd sbatch squeue sinfo python3; do
        command -v "$p" >/dev/null 2>&1 || [ -x "/usr/sbin/$p" ] || missing+=("$p")
    done
    if ((${#missing[@]})); then
        echo "SKIP: ${missing[*]} not installed (Debian: munge slurmctld slurmd slurm-client)"
        exit 1
    fi
    PATH="$PATH:/usr/sbin"
    mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/log" || exit 1
    chmod 700 "$dir/munge"
    head -c 1024 /dev/urandom >"$dir/munge/munge.key" && chmod 400 "$dir/munge/munge.key"
    munged --force --socket="$dir/munge/sock" --key-file="$dir/munge/munge.key" \
        --pid-file="$dir/munge/munged.pid" --seed-file="$dir/munge/seed" \
        --log-file="$dir/log/munged.log" || {
        cat "$dir/log/munged.log"
        exit 1
    }
    host=$(hostname -s)
    user=$(id -un)
    cpus=$(nproc)
    ctld_port=$(free_port)
    slurmd_port=$(free_port)
    while [ "$slurmd_port" = "$ctld_port" ]; do slurmd_port=$(free_port); done
    cat >"$dir/slurm.conf" <<EOF
# A single-node Slurm for ptxsim's tests (tests/sweep/slurm_env.sh); loopback only.
ClusterName=ptxsimtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
CommunicationParameters=NoInAddrAny,NoCtldInAddrAny
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$dir/munge/sock
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
    export SLURM_CONF="$dir/slurm.conf"
    slurmctld -f "$dir/slurm.conf" && slurmd -f "$dir/slurm.conf" || {
        tail -n 20 "$dir"/log/*.log
        stop
        exit 1
    }
    for _ in $(seq 1 60); do
        if sinfo -h -o %T 2>/dev/null | grep -qx idle; then
            echo "slurm_env.sh: node $host idle (slurmctld port $ctld_port, slurmd $slurmd_port)"
            exit 0
        fi
        sleep 0.5
    done
    echo "slurm_env.sh: the node did not become idle:"
    sinfo 2>&1
    tail -n 20 "$dir"/log/*.log
    stop
    exit 1
}

case "$cmd" in
start) start ;;
stop) stop ;;
*)
    echo "usage: slurm_env.sh start|stop DIR" >&2
    exit 2
    ;;
esac
