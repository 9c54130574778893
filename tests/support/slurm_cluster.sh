#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, all of it in one folder, for the tests: munged with
# its own key and socket, slurmctld and slurmd (linuxproc process tracking, no task plugin, no
# cgroups, no accounting) on free ports of 127.0.0.1 (no name lookup of this host), as root.
#   slurm_cluster.sh start DIR   writes DIR/slurm.conf and starts the daemons; clients then need
#                                SLURM_CONF=DIR/slurm.conf
#   slurm_cluster.sh stop DIR    stops the daemons it started, by their pid files
set -euo pipefail
action=$1 dir=$(realpath "$2")

stop() {
    local name pid
    for name in slurmd slurmctld munged; do
        [[ -f $dir/$name.pid ]] || continue
        pid=$(cat "$dir/$name.pid")
        kill "$pid" 2>/dev/null || continue
        for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
    done
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

if [[ $action == stop ]]; then
    stop
    exit 0
fi
[[ $action == start ]] || { echo "usage: slurm_cluster.sh start|stop DIR" >&2; exit 2; }
[[ $(id -u) -eq 0 ]] || { echo "slurm_cluster.sh: the daemons run as root" >&2; exit 1; }

mkdir -p "$dir/state" "$dir/spool"
chmod 755 "$dir"
head -c 1024 /dev/urandom >"$dir/munge.key"
chmod 600 "$dir/munge.key"
munged --force --key-file "$dir/munge.key" --socket "$dir/munge.socket" \
    --pid-file "$dir/munged.pid" --log-file "$dir/munged.log" --seed-file "$dir/munge.seed"

node=$(hostname -s)
cat >"$dir/slurm.conf" <<CONF
ClusterName=bgtest
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge.socket
CredType=cred/munge
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=$node NodeAddr=127.0.0.1 NodeHostname=$node CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$dir/slurm.conf
trap 'stop' ERR
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
# Ready when the node takes jobs.
for _ in $(seq 150); do
    if sinfo -h -N -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then
        exit 0
    fi
    sleep 0.2
done
echo "slurm_cluster.sh: the node did not come up; the logs:" >&2
tail -n 20 "$dir"/*.log >&2
stop
exit 1
