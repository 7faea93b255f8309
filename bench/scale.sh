#!/usr/bin/env bash
# Scale (issue 19): time and peak memory of every text tool at several input sizes, against the Python a researcher
# would otherwise run on the same files in the same run, and bt-decode's peak memory on 10-hour captures, clean and
# with the worst faults bt-synth offers.
#
#   bench/scale.sh                       sizes 12.5 25 50 100 MB, the release build in .build/release
#   SIZES="25 100" BIN=... bench/scale.sh
#   REFERENCE=0 bench/scale.sh           the tools only (the pandas references take minutes at 100 MB)
#   REFERENCE_SIZES="12.5 25"            the references at these sizes only (default: every size)
#   CAPTURES=0 bench/scale.sh            the text tools only
#   INPUTS=DIR bench/scale.sh            the text inputs from DIR, made before by
#                                        `bench/make_large_inputs.py DIR 12.5 25 50 100` (generating the 100 MB
#                                        MindAffect file takes minutes), kept afterwards
#
# Inputs are made by bench/make_large_inputs.py (deterministic) and bt-synth in a folder under $TMPDIR, removed at
# the end; outputs are HDF5 in the same folder. Each command runs once under GNU time (/usr/bin/time): wall time,
# CPU time (user + system: what the machine's other work does not inflate) and peak resident memory. The targets:
# a 100 MB file in less than 10 s and 256 MB per text tool; bt-decode under 64 MB for 10 hours whatever the faults.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${BIN:-.build/release}
sizes=${SIZES:-12.5 25 50 100}
reference=${REFERENCE:-1}
reference_sizes=${REFERENCE_SIZES:-$sizes}
captures=${CAPTURES:-1}
[ -x /usr/bin/time ] || { echo "bench/scale.sh needs GNU time (/usr/bin/time; Debian package 'time')" >&2; exit 1; }
work=$(mktemp -d -p "${TMPDIR:-/tmp}" brainbatch-scale.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/in" "$work/out"
results="$work/results.tsv"
: > "$results"

# measure TOOL SIZE_LABEL INPUT_BYTES CMD...: one run under GNU time, a line "tool size bytes wall cpu peakKB" in
# $results (a failing command fails the benchmark).
measure() {
    local tool=$1 label=$2 bytes=$3; shift 3
    local stats="$work/time.txt"
    if ! /usr/bin/time -f "%e %U %S %M" -o "$stats" "$@" >/dev/null 2>"$work/stderr.txt"; then
        echo "benchmark command failed: $*" >&2; cat "$work/stderr.txt" >&2; return 1
    fi
    read -r wall user system peak < "$stats"
    python3 -c "print('\t'.join(['$tool', '$label', '$bytes', '$wall', str(round($user + $system, 2)), '$peak']))" >> "$results"
}

echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start; $(date -u '+%Y-%m-%d %H:%M UTC')"
inputs=${INPUTS:-$work/in}
if [ -z "${INPUTS:-}" ]; then
    # shellcheck disable=SC2086
    python3 bench/make_large_inputs.py "$inputs" $sizes >/dev/null
fi

for size in $sizes; do
    label=$(python3 -c "print(f'{float(\"$size\"):g}MB')")
    log=$(ls "$inputs/interactlog_$label"/*.txt)
    results_file="$inputs/braintracker_$label/BrainTrackerResultsFile.csv"
    save=$(ls "$inputs/mindaffect_$label"/*.txt)
    measure ilog-parse "$label" "$(stat -c %s "$log")" "$bin/ilog-parse" "$log" -o "$work/out/ilog.h5" -q
    measure rt-stats "$label" "$(stat -c %s "$results_file")" "$bin/rt-stats" "$results_file" -o "$work/out/rt.h5" -q
    measure nt-analyze "$label" "$(stat -c %s "$save")" "$bin/nt-analyze" "$save" -o "$work/out/nt.h5" -q
    if [ "$reference" = 1 ] && [[ " $reference_sizes " == *" $size "* ]]; then
        rm -rf "$work/out/ref"
        measure "ilog-parse reference" "$label" "$(stat -c %s "$log")" \
            python3 bench/ilog-parse_reference.py "$work/out/ref" "$log"
        rm -rf "$work/out/ref"
        measure "rt-stats reference" "$label" "$(stat -c %s "$results_file")" \
            python3 bench/rt-stats_reference.py "$work/out/ref" "$results_file"
        measure "nt-analyze reference" "$label" "$(stat -c %s "$save")" \
            python3 bench/nt-analyze_reference.py "$save" "$work/out/ref.h5"
    fi
done

if [ "$captures" = 1 ]; then
    # 10 hours each: clean; drops and byte loss as bt-synth's own example; and the worst: 10 % of packets dropped in
    # bursts of 5, byte loss in 1 % of packets (a resync each) and the mixed byte order.
    "$bin/bt-synth" -o "$work/in/clean.bin" --duration-s 36000 --noise-uv 10 --seed 2 -q
    "$bin/bt-synth" -o "$work/in/faulty.bin" --duration-s 36000 --noise-uv 10 --drop-rate 0.01,3 \
        --byte-loss-rate 0.001 --seed 3 -q
    "$bin/bt-synth" -o "$work/in/worst.bin" --duration-s 36000 --noise-uv 10 --drop-rate 0.1,5 \
        --byte-loss-rate 0.01 --byte-order mixed --seed 4 -q
    for capture in clean faulty worst; do
        input="$work/in/$capture.bin"
        measure "bt-decode $capture" 10h "$(stat -c %s "$input")" "$bin/bt-decode" "$input" -o "$work/out/bt.h5" -q
        measure "bt-decode $capture --no-analysis" 10h "$(stat -c %s "$input")" \
            "$bin/bt-decode" "$input" -o "$work/out/bt.h5" -q --no-analysis
    done
fi
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"

python3 - "$results" <<'PY'
import sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
by = {(r[0], r[1]): r for r in rows}
print(f"{'tool':<36} {'size':>7} {'MB':>7} {'wall s':>7} {'cpu s':>7} {'MB/s cpu':>8} {'peak MiB':>8}")
for tool, label, size, wall, cpu, peak in rows:
    mb = int(size) / 1e6
    print(f"{tool:<36} {label:>7} {mb:7.1f} {float(wall):7.2f} {float(cpu):7.2f} {mb / max(float(cpu), 1e-3):8.1f}"
          f" {int(peak) / 1024:8.1f}")
tools = ["ilog-parse", "rt-stats", "nt-analyze"]
labels = sorted({r[1] for r in rows if r[0] in tools}, key=lambda s: float(s[:-2]))
if len(labels) > 1:
    print("\nlinearity: CPU seconds per 10 MB at each size (flat = linear), peak MiB at each size")
    for tool in tools:
        per = [f"{10 * float(by[tool, l][4]) / (int(by[tool, l][2]) / 1e6):.2f}" for l in labels if (tool, l) in by]
        peaks = [f"{int(by[tool, l][5]) / 1024:.0f}" for l in labels if (tool, l) in by]
        print(f"  {tool:<11} s/10MB {' '.join(per):<30} peak MiB {' '.join(peaks)}")
refs = [(t, l) for t in tools for l in labels if (t + " reference", l) in by and (t, l) in by]
if refs:
    print("\nagainst the reference (same input, same run): wall and CPU time ratios (reference / tool), peak memory")
    for tool, label in refs:
        a, b = by[tool, label], by[tool + " reference", label]
        print(f"  {tool:<11} {label:>7}: wall {float(b[3]) / float(a[3]):5.1f}x, cpu {float(b[4]) / float(a[4]):5.1f}x;"
              f" peak {int(a[5]) / 1024:.0f} MiB vs {int(b[5]) / 1024:.0f} MiB")
big = labels[-1] if labels else None
if big == "100MB":
    print("\ntargets at 100 MB (< 10 s, < 256 MiB):")
    for tool in tools:
        if (tool, big) in by:
            r = by[tool, big]
            ok = float(r[3]) < 10 and int(r[5]) < 256 * 1024
            print(f"  {tool:<11} wall {float(r[3]):.2f} s, cpu {float(r[4]):.2f} s, peak {int(r[5]) / 1024:.0f} MiB:"
                  f" {'met' if ok else 'NOT met'}{' (CPU time met)' if not ok and float(r[4]) < 10 and int(r[5]) < 256 * 1024 else ''}")
captures = [r for r in rows if r[0].startswith("bt-decode")]
if captures:
    print("\nbt-decode, 10-hour captures (< 64 MiB):")
    for r in captures:
        print(f"  {r[0]:<34} peak {int(r[5]) / 1024:5.1f} MiB: {'met' if int(r[5]) < 64 * 1024 else 'NOT met'}")
PY
