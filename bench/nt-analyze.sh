#!/usr/bin/env bash
# Benchmark: nt-analyze (release build) against the straightforward Python reference, on a generated save file.
# Usage: bench/nt-analyze.sh [prediction-trials]   (default 500: about 55 MB, 45 minutes of recording)
set -eu
cd "$(dirname "$0")/.."
TRIALS=${1:-500}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
INPUT="$WORK/mindaffectBCI_bench_261123_1200.txt"
python3 SampleData/mindaffect/generate.py --prediction-trials "$TRIALS" > "$INPUT"
SIZE=$(wc -c < "$INPUT")
TOOL=${BIN:-.build/release}/nt-analyze  # `make release` builds it

source bench/timing.sh

SWIFT_H5=$(best "$TOOL" "$INPUT" -o "$WORK/swift.h5" -q)
SWIFT_CSV=$(best "$TOOL" "$INPUT" -o "$WORK/swift_csv" -q)
PYTHON=$(best python3 bench/nt-analyze_reference.py "$INPUT" "$WORK/python.h5")
python3 - "$SIZE" "$SWIFT_H5" "$SWIFT_CSV" "$PYTHON" <<'PY'
import sys
size, h5, csv, py = int(sys.argv[1]), *map(float, sys.argv[2:])
print(f"input: {size/1e6:.1f} MB generated save file")
print(f"nt-analyze -> .h5  : {h5:7.3f} s  ({size/1e6/h5:6.1f} MB/s)")
print(f"nt-analyze -> csv/ : {csv:7.3f} s  ({size/1e6/csv:6.1f} MB/s)")
print(f"python reference   : {py:7.3f} s  ({size/1e6/py:6.1f} MB/s)")
print(f"ratio python / nt-analyze (.h5): {py/h5:.1f}x")
PY
