#!/usr/bin/env bash
# Runs the libFuzzer targets of Fuzz/ (built by `make fuzz-build`), each for SECONDS seconds, and prints one line of
# numbers per target. Exit 1 when a target found something (a crash, a trap, a timeout or an out-of-memory in
# BrainBatch's code); its input is then in Fuzz/artifacts/<target>/ and the run's log in Fuzz/logs/<target>.log.
#
#   [FUZZ_BIN=.build-volume/release] [FUZZ_FORK_JOBS=2] Fuzz/run.sh SECONDS [TARGET...]      (default: every target)
#
# Seeds come from SampleData/, Fuzz/seeds/ and ../shared/realdata when present; they are read where they are
# (-seed_inputs), never copied. What a run finds worth keeping goes to Fuzz/corpus/<target>/ (not committed), so
# later runs go on from there. FuzzMYNDHDF5 runs in fork mode, where a crash, timeout or out-of-memory does not end
# the run; Fuzz/triage.sh then sorts what it saved into libhdf5's own faults and ours.
set -uo pipefail
cd "$(dirname "$0")"
seconds=${1:?usage: Fuzz/run.sh SECONDS [TARGET...]}
shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(FuzzBrainiac FuzzBrainiacDecoder FuzzInteractLog FuzzInteractLogParser FuzzBrainTracker FuzzBrainTrackerParser
                                  FuzzMindAffect FuzzMindAffectParser FuzzMYNDJSON FuzzMYNDHDF5)
# FUZZ_BIN: the build to run (relative to Fuzz/): .build/release (ASan, make fuzz) or .build-volume/release
# (no ASan, make fuzz-volume; not for FuzzMYNDHDF5, see below).
bin=${FUZZ_BIN:-.build/release}
realdata=../../shared/realdata

# Seed files of a target, comma-separated (libFuzzer's -seed_inputs; file names hold spaces, none holds a comma).
seeds() {
    local files=()
    case $1 in
        FuzzBrainiac|FuzzBrainiacDecoder) files=(../SampleData/brainiac/*.bin) ;;
        FuzzInteractLog|FuzzInteractLogParser) mapfile -t files < <(find ../SampleData/interactlog -name '*.txt' -o -name '*.json' | sort) ;;
        FuzzBrainTracker|FuzzBrainTrackerParser) files=(../SampleData/braintracker/*.csv "$realdata"/braintracker/*.csv) ;;
        FuzzMindAffect|FuzzMindAffectParser) files=(../SampleData/mindaffect/*.txt "$realdata"/mindaffect/*.txt) ;;
        FuzzMYNDJSON) mapfile -t files < <(find ../SampleData/mynd "$realdata"/mynd -name '*.json' 2>/dev/null | sort) ;;
        FuzzMYNDHDF5) files=(seeds/mynd-hdf5/*.hdf ../SampleData/mynd/*.hdf "$realdata"/mynd/*.hdf) ;;
    esac
    local present=()
    for file in "${files[@]}"; do [ -f "$file" ] && present+=("$file"); done
    (IFS=,; echo "${present[*]}")
}

# -max_len: long enough for what a parser needs to reach its analysis (a Brainiac baseline needs 2750 samples,
# 27.5 KB; an iPad sidecar 12 KB; the small HDF5 seed 13.6 KB; a BrainTracker session 32 lines), short enough
# for many executions per second (libFuzzer starts shorter and lets inputs grow up to it).
max_len() {
    case $1 in
        FuzzBrainiac) echo 30000 ;;
        # The decoder alone: a few hundred packets reach every rule (gaps, resyncs, byte order, segments).
        FuzzBrainiacDecoder) echo 8192 ;;
        FuzzInteractLog) echo 16384 ;;
        FuzzBrainTracker) echo 8192 ;;
        FuzzMindAffect) echo 16384 ;;
        # The line parsers alone: every rule is met within a few lines; short inputs, many more executions.
        FuzzInteractLogParser|FuzzBrainTrackerParser|FuzzMindAffectParser) echo 4096 ;;
        FuzzMYNDJSON) echo 4096 ;;
        FuzzMYNDHDF5) echo 16384 ;;
    esac
}

# -timeout: an execution takes milliseconds. FuzzMYNDHDF5 meets libhdf5's endless loops every few thousand
# executions and each costs its fork-mode run the whole timeout, so 2 s there; triage.sh replays what timed out
# with 5 s, so a slow input is not taken for a hang.
timeout_seconds() {
    case $1 in
        FuzzMYNDHDF5) echo 2 ;;
        *) echo 10 ;;
    esac
}

dictionary() {
    case $1 in
        FuzzInteractLog|FuzzInteractLogParser) echo dictionaries/interactlog.dict ;;
        FuzzBrainTracker|FuzzBrainTrackerParser) echo dictionaries/braintracker.dict ;;
        FuzzMindAffect|FuzzMindAffectParser) echo dictionaries/mindaffect.dict ;;
        FuzzMYNDJSON) echo dictionaries/json.dict ;;
        FuzzMYNDHDF5) echo dictionaries/hdf5.dict ;;
    esac
}

# A Swift trap must reach libFuzzer's handler (which saves the input), not the Swift runtime's backtracer.
export SWIFT_BACKTRACE=enable=no
# No leak check at exit either (see -detect_leaks below).
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
# Shared with triage.sh, which replays FuzzMYNDHDF5's findings under the same options.
export HDF5_ASAN_OPTIONS=max_allocation_size_mb=256
status=0
mkdir -p logs
printf '%-18s %8s %12s %10s %8s %10s  %s\n' target seconds executions exec/s corpus peak_rss findings
for target in "${targets[@]}"; do
    if [ "$target" = FuzzMYNDHDF5 ] && [ "$bin" != .build/release ]; then
        # Without AddressSanitizer's allocator, libhdf5's heap corruption on some inputs is glibc's: the crash
        # handler's own allocations then wait forever on malloc's lock, and the fork-mode run with them.
        echo "run.sh: FuzzMYNDHDF5 runs only in the AddressSanitizer build (.build/release), skipped" >&2
        continue
    fi
    [ -x "$bin/$target" ] || { echo "run.sh: $bin/$target is not built (make fuzz-build, or make fuzz-volume-build for .build-volume)" >&2; exit 2; }
    mkdir -p "corpus/$target" "artifacts/$target"
    # -detect_leaks=0: LeakSanitizer cannot see references Swift keeps in the spare bits of enum payloads and
    # reports live objects as leaked, and libhdf5 leaks a little on corrupt files; memory that grows without
    # bound is caught by -rss_limit_mb (and one allocation beyond it by libFuzzer's malloc limit) instead.
    args=(-max_total_time="$seconds" -max_len="$(max_len "$target")" -rss_limit_mb=2048 -timeout="$(timeout_seconds "$target")" -detect_leaks=0
          -seed_inputs="$(seeds "$target")" -artifact_prefix="artifacts/$target/" -print_final_stats=1)
    dict=$(dictionary "$target")
    [ -n "$dict" ] && args+=(-dict="$dict")
    if [ "$target" = FuzzMYNDHDF5 ]; then
        # libhdf5 1.10 crashes, aborts or loops forever on some corrupt files (the tool reads them in a child
        # process for that reason); fork mode goes on after each, and triage.sh tells its faults from ours.
        # FUZZ_FORK_JOBS: jobs at once (default 1). Nearly every job ends in one of libhdf5's crashes within a
        # second, and starting the next one is most of its time: on an otherwise idle machine, one per core.
        args+=(-fork="${FUZZ_FORK_JOBS:-1}" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
    fi
    # An allocation over 256 MB stops a FuzzMYNDHDF5 run with its stack (no parser of a 16 KB input needs that
    # much; libhdf5 asks for gigabytes on some corrupt variable-length strings), so triage.sh can tell whose it
    # was; left to the once-a-second RSS check it would be an out-of-memory with no stack, sometimes.
    asan=$ASAN_OPTIONS
    [ "$target" = FuzzMYNDHDF5 ] && asan+=:$HDF5_ASAN_OPTIONS
    # Nor are its stacks symbolized while it runs: nearly every job ends in one of libhdf5's crashes, and
    # llvm-symbolizer loading the whole target for each took much of a job's time; triage.sh replays every saved
    # input with symbols, and that is where a crash is judged.
    [ "$target" = FuzzMYNDHDF5 ] && asan+=:symbolize=0
    # A log of this run's own (two runs of one target at once, a campaign beside `make test`, must not mix their
    # statistics), renamed to logs/<target>.log at the end; the artifacts it found are those newer than its start.
    log=logs/$target.$$.log
    start=logs/.$target.$$.start
    : > "$start"
    # A watchdog: whatever happens in a target (a crash handler waiting on a lock a fault left taken), the run ends
    # two minutes after its time with every process it started (timeout signals its process group).
    # (timeout makes a process group of its own, whose ID is its process ID.) Ten seconds before it fires, the
    # stacks of every process of the run still alive go into the log (where gdb is installed), so that a hang can
    # be told to be in our code or in libhdf5's, which the fork-mode parent alone cannot say.
    ASAN_OPTIONS=$asan timeout -k 10 $((seconds + 120)) "$bin/$target" "${args[@]}" "corpus/$target" > "$log" 2>&1 &
    run=$!
    (
        deadline=$((SECONDS + seconds + 110))
        while kill -0 "$run" 2>/dev/null && [ $SECONDS -lt $deadline ]; do sleep 2; done
        kill -0 "$run" 2>/dev/null && command -v gdb >/dev/null || exit 0
        for pid in $(pgrep -g "$run"); do
            [ "$pid" = "$run" ] && continue
            echo "run.sh: still running after $((seconds + 110)) s: $(tr '\0' ' ' < /proc/$pid/cmdline 2>/dev/null)"
            gdb -batch -p "$pid" -ex 'thread apply all bt 40' 2>&1 | grep -a '^#\|^Thread'
        done >> "$log"
    ) &
    stack_watch=$!
    wait "$run"
    rc=$?
    wait "$stack_watch"
    # Numbers: the final statistics (a normal run) or the last status line (fork mode).
    stat() { grep -a -o "stat::$1: *[0-9]*" "$log" | tail -1 | grep -o '[0-9]*$'; }
    execs=$(stat number_of_executed_units)
    rate=$(stat average_exec_per_sec)
    rss=$(stat peak_rss_mb)
    # Fork mode's parent prints no statistics of its own, or zeros when the watchdog interrupted it: then its last
    # status line counts the jobs' executions.
    if [ -z "$execs" ] || [ "$execs" = 0 ]; then
        execs=$(grep -a -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
        rate=$(( ${execs:-0} / (seconds > 0 ? seconds : 1) ))
        rss=$(grep -a -o 'rss: [0-9]*Mb' "$log" | tail -1 | grep -o '[0-9]*')
    fi
    corpus=$(ls "corpus/$target" | wc -l)
    mapfile -t found < <(find "artifacts/$target" -type f -newer "$start" | sort)
    rm -f "$start"
    new=${#found[@]}
    findings=$new
    if [ "$target" = FuzzMYNDHDF5 ] && [ "$new" -gt 0 ]; then
        # Only faults with a frame of BrainBatch's code count; libhdf5's own are listed in the log.
        # Replayed in batches on every core (a round saves a thousand inputs or more, each replay a new process).
        findings=$(printf '%s\n' "${found[@]}" | xargs -d '\n' -n 50 -P "$(nproc)" ./triage.sh "$bin/$target" \
                   | tee -a "$log" | grep -c '^ours ')
    elif [ $rc -ne 0 ] && [ "$new" -eq 0 ]; then
        findings="exit $rc"
    fi
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
        findings="hung (stopped by the watchdog after $((seconds + 120)) s)"
    fi
    # The latest run's log is logs/<target>.log; a run with findings keeps its own as well, so that a later run
    # (a campaign beside `make test`) cannot overwrite the evidence.
    if [ "$findings" != 0 ]; then cp "$log" "logs/$target.findings.$(date -u +%Y%m%dT%H%M%S).log"; fi
    mv -f "$log" "logs/$target.log"
    log=logs/$target.log
    printf '%-18s %8s %12s %10s %8s %10s  %s\n' "$target" "$seconds" "${execs:-?}" "${rate:-?}" "$corpus" "${rss:-?}MB" "$findings"
    if [ "$findings" != 0 ]; then
        status=1
        echo "run.sh: $target: see $PWD/logs/$target.findings.*.log and $PWD/artifacts/$target/" >&2
    fi
done
# FuzzMYNDHDF5 writes each input into a folder of its process; a child that libhdf5 crashed could not remove its own
# (the next process removes those of processes that are gone, and this the last ones).
for folder in /dev/shm/brainbatch-fuzz-hdf5-* "${TMPDIR:-/tmp}"/brainbatch-fuzz-hdf5-*; do
    [ -d "$folder" ] || continue
    kill -0 "${folder##*-}" 2>/dev/null || rm -rf "$folder"
done
exit $status
