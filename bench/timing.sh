# Sourced by the bench/*.sh scripts: wall-clock timing of whole commands, process start included.

# seconds CMD...: the wall time of one run in seconds (output discarded; a failing command fails the benchmark).
seconds() {
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || { echo "benchmark command failed: $*" >&2; return 1; }
    end=$(date +%s.%N)
    python3 -c "print($end - $start)"
}

# best CMD...: the best of $RUNS (default 3) wall times in seconds; with FRESH=path, that output is removed
# before each run, so that no run pays for replacing the last one's.
best() {
    local best=999 time
    for _ in $(seq "${RUNS:-3}"); do
        if [ -n "${FRESH:-}" ]; then rm -rf "$FRESH"; fi
        time=$(seconds "$@") || return 1
        best=$(python3 -c "print(min($best, $time))")
    done
    echo "$best"
}

# paired FRESH_A FRESH_B CMD_A... -- CMD_B...: $RUNS rounds, each timing A then B (outputs FRESH_A and FRESH_B
# removed first), so that both see the same load on a shared machine. Prints "bestA bestB medianRatio", the
# ratio being B's time over A's within a round.
paired() {
    local fresh_a=$1 fresh_b=$2; shift 2
    local a=() b=() seen=0 arg
    for arg in "$@"; do
        if [ "$arg" = "--" ] && [ $seen -eq 0 ]; then seen=1; continue; fi
        if [ $seen -eq 0 ]; then a+=("$arg"); else b+=("$arg"); fi
    done
    local times=() time_a time_b
    for _ in $(seq "${RUNS:-3}"); do
        rm -rf "$fresh_a" "$fresh_b"
        time_a=$(seconds "${a[@]}") || return 1
        time_b=$(seconds "${b[@]}") || return 1
        times+=("$time_a,$time_b")
    done
    python3 - "${times[@]}" <<'PY'
import statistics, sys
pairs = [tuple(map(float, p.split(","))) for p in sys.argv[1:]]
print(min(a for a, _ in pairs), min(b for _, b in pairs), statistics.median(b / a for a, b in pairs))
PY
}
