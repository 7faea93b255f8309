#!/usr/bin/env bash
# The cost of `--report` on a 1-hour bt-decode run (issue 17: at most 20 % more), and the report's size.
#
# Two 1-hour synthetic captures: a clean one (noise only) and a faulty one (1 % of packets lost in bursts of up to
# 3, byte loss, so thousands of gaps and hundreds of resyncs). For each, `bt-decode` with every table and the
# default compression runs with and without `--report`, in alternation for $RUNS rounds (default 9), outputs in a
# RAM folder, and the peak memory of a 10-hour capture with and without the report (the page's data is gathered
# while the capture streams: memory must stay flat); printed: each side's best wall time and the median of the rounds' ratios, the best CPU time (user +
# system, all threads: steadier than wall time on a shared machine) of each side and their ratio, and the report's
# size.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${BIN:-.build/release}
export RUNS=${RUNS:-9}
dir=$(mktemp -d)
if [ -d /dev/shm ] && [ -w /dev/shm ]; then rm -rf "$dir"; dir=$(mktemp -d -p /dev/shm); fi
trap 'rm -rf "$dir"' EXIT

"$bin/bt-synth" -o "$dir/clean.bin" --duration-s 3600 --noise-uv 10 --seed 1 -q
"$bin/bt-synth" -o "$dir/faulty.bin" --duration-s 3600 --noise-uv 5 --drop-rate 0.01,3 --byte-loss-rate 0.001 \
    --seed 7 -q
"$bin/bt-synth" -o "$dir/10h.bin" --duration-s 36000 --noise-uv 5 --drop-rate 0.01,3 --seed 2 -q

source bench/timing.sh

# cpu CMD...: the best of $RUNS CPU times (user + system seconds) of a command.
cpu() {
    local best=999 time
    for _ in $(seq "$RUNS"); do
        /usr/bin/time -f "%U %S" -o "$dir/cpu.txt" "$@" >/dev/null 2>&1
        time=$(awk '{print $1 + $2}' "$dir/cpu.txt")
        best=$(python3 -c "print(min($best, $time))")
    done
    echo "$best"
}

for capture in clean faulty; do
    read -r plain report ratio < <(paired "$dir/a.h5" "$dir/b.h5" \
        "$bin/bt-decode" "$dir/$capture.bin" -o "$dir/a.h5" -q -- \
        "$bin/bt-decode" "$dir/$capture.bin" -o "$dir/b.h5" -q --report "$dir/$capture.html")
    size=$(stat -c %s "$dir/$capture.html")
    cpu_plain=$(cpu "$bin/bt-decode" "$dir/$capture.bin" -o "$dir/a.h5" -q)
    cpu_report=$(cpu "$bin/bt-decode" "$dir/$capture.bin" -o "$dir/b.h5" -q --report "$dir/$capture.html")
    python3 - "$capture" "$plain" "$report" "$ratio" "$size" "$cpu_plain" "$cpu_report" <<'PY'
import sys
name, plain, report, ratio, size = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
cpu_plain, cpu_report = float(sys.argv[6]), float(sys.argv[7])
print(f"1-hour {name} capture: bt-decode {plain:.3f} s, with --report {report:.3f} s (wall, best); "
      f"median ratio {ratio:.2f} (+{100 * (ratio - 1):.0f} %); CPU {cpu_plain:.2f} s vs {cpu_report:.2f} s "
      f"(+{100 * (cpu_report / cpu_plain - 1):.0f} %); report {size / 1000:.0f} kB")
PY
done
peak() { { /usr/bin/time -f "%M" "$@" >/dev/null; } 2>&1 | tail -1; }
plain=$(peak "$bin/bt-decode" "$dir/10h.bin" -o "$dir/10h-a.h5" -q)
report=$(peak "$bin/bt-decode" "$dir/10h.bin" -o "$dir/10h-b.h5" -q --report "$dir/10h.html")
echo "10-hour capture with 1 % packet loss: peak memory $((plain / 1024)) MB, with --report $((report / 1024)) MB; report $(( $(stat -c %s "$dir/10h.html") / 1000 )) kB"
