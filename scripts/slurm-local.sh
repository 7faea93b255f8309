#!/usr/bin/env bash
# A single-node Slurm cluster on this machine, for trying and testing `make study-slurm` (docs/pipelines.md):
#   scripts/slurm-local.sh start    munged (unless one runs), slurmctld and slurmd on 127.0.0.1, a partition `local`
#   scripts/slurm-local.sh stop     stops what `start` started (by process id), restores /etc/slurm/slurm.conf
#   scripts/slurm-local.sh status   prints whether it runs (exit 0) or not (exit 1)
# Needs root (or sudo) and Debian's slurm-wlm and munge (scripts/setup.sh --slurm installs them); no systemd, no
# cgroups. The configuration must be /etc/slurm/slurm.conf: snakemake-executor-plugin-slurm removes every SLURM_*
# variable (SLURM_CONF too) before its nested srun. An existing slurm.conf is kept as slurm.conf.brainbatch-saved
# and put back by `stop`. There is no accounting database, so `sacct` does not work: the workflow asks `squeue`
# (--slurm-status-command squeue) and MinJobAge keeps finished jobs visible to it for 300 s.
set -euo pipefail

CONF_DIR=/etc/slurm
CONF=$CONF_DIR/slurm.conf
SAVED=$CONF_DIR/slurm.conf.brainbatch-saved
MARK="# Written by BrainBatch scripts/slurm-local.sh"
STATE=${SLURM_LOCAL_STATE:-/var/lib/brainbatch-slurm}
RUN=/run/brainbatch-slurm

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
log() { echo "slurm-local: $*" >&2; }
alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

start() {
    for tool in munged slurmctld slurmd sinfo; do
        command -v "$tool" >/dev/null || PATH=$PATH:/usr/sbin command -v "$tool" >/dev/null || {
            log "$tool is not installed (scripts/setup.sh --slurm installs slurm-wlm and munge)"; exit 69; }
    done
    export PATH=$PATH:/usr/sbin
    if alive "$RUN/slurmctld.pid" && alive "$RUN/slurmd.pid"; then log "already running"; return 0; fi
    as_root mkdir -p "$RUN" "$STATE/ctld" "$STATE/d" "$STATE/log"

    # munge: the key comes with the package; a daemon already running (the machine's own) is used as it is.
    if ! as_root munge -n </dev/null >/dev/null 2>&1; then
        as_root mkdir -p /run/munge /var/log/munge /var/lib/munge
        as_root chown munge:munge /run/munge /var/log/munge /var/lib/munge
        if [ ! -s /etc/munge/munge.key ]; then
            as_root sh -c 'dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 2>/dev/null'
            as_root chown munge:munge /etc/munge/munge.key
            as_root chmod 400 /etc/munge/munge.key
        fi
        # Daemons get no stdin/stdout/stderr of ours: a caller reading this script's output to its end would
        # otherwise wait for them.
        as_root runuser -u munge -- munged --pid-file=/run/munge/munged.pid </dev/null >/dev/null 2>&1
        as_root cp /run/munge/munged.pid "$RUN/munged.pid"
        log "munged started (pid $(cat "$RUN/munged.pid"))"
    fi

    # The configuration: someone else's is kept and put back on stop.
    if [ -f "$CONF" ] && ! grep -qF "$MARK" "$CONF"; then
        as_root mv "$CONF" "$SAVED"
        log "kept the existing $CONF as $SAVED"
    fi
    local cpus mem
    cpus=$(nproc)
    mem=$(( $(awk '/MemTotal/ {print int($2 / 1024)}' /proc/meminfo) / 2 ))
    as_root mkdir -p "$CONF_DIR"
    as_root tee "$CONF.tmp" >/dev/null <<EOF
$MARK; scripts/slurm-local.sh stop removes it.
ClusterName=brainbatch
SlurmctldHost=localhost(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
ReturnToService=2
# Finished jobs stay visible to squeue for 300 s: the workflow reads their state there (no sacct here).
MinJobAge=300
StateSaveLocation=$STATE/ctld
SlurmdSpoolDir=$STATE/d
SlurmctldPidFile=$RUN/slurmctld.pid
SlurmdPidFile=$RUN/slurmd.pid
SlurmctldLogFile=$STATE/log/slurmctld.log
SlurmdLogFile=$STATE/log/slurmd.log
SlurmctldPort=6817
SlurmdPort=6818
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
    as_root mv "$CONF.tmp" "$CONF"

    as_root slurmctld -i </dev/null >/dev/null 2>&1
    as_root slurmd -N localhost </dev/null >/dev/null 2>&1
    local i
    for i in $(seq 1 60); do
        if sinfo -h -o '%t' 2>/dev/null | grep -qE '^(idle|mix|alloc)'; then
            log "running: partition local, node localhost ($cpus CPUs, $mem MB); slurmctld pid $(cat "$RUN/slurmctld.pid"), slurmd pid $(cat "$RUN/slurmd.pid")"
            return 0
        fi
        sleep 0.5
    done
    log "the node did not become idle in 30 s; see $STATE/log/"
    sinfo >&2 || true
    stop
    exit 1
}

stop() {
    local name pid i
    for name in slurmd slurmctld munged; do
        if alive "$RUN/$name.pid"; then
            pid=$(cat "$RUN/$name.pid")
            as_root kill "$pid"
            for i in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
            kill -0 "$pid" 2>/dev/null && as_root kill -9 "$pid"
            log "stopped $name (pid $pid)"
        fi
        as_root rm -f "$RUN/$name.pid"
    done
    if [ -f "$CONF" ] && grep -qF "$MARK" "$CONF"; then
        as_root rm -f "$CONF"
    fi
    if [ -f "$SAVED" ]; then
        as_root mv "$SAVED" "$CONF"
        log "restored $CONF"
    fi
}

status() {
    if alive "$RUN/slurmctld.pid" && alive "$RUN/slurmd.pid"; then
        echo "running (slurmctld pid $(cat "$RUN/slurmctld.pid"), slurmd pid $(cat "$RUN/slurmd.pid"))"
    else
        echo "not running"; return 1
    fi
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    status) status ;;
    *) echo "usage: $0 start|stop|status" >&2; exit 64 ;;
esac
