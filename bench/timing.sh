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
