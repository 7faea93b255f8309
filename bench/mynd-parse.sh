#!/usr/bin/env bash
# Benchmark: mynd-parse (release build) against the straightforward Python reference, on a generated subject
# folder of real-length rest blocks (HDF5, 140 s at 256 Hz each, about 1.7 MB per file).
# Usage: bench/mynd-parse.sh [files]   (default 20)
set -eu
cd "$(dirname "$0")/.."
COUNT=${1:-20}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 bench/mynd-parse_generate.py "$WORK/subject" "$COUNT"
SIZE=$(cat "$WORK"/subject/*.hdf | wc -c)
TOOL=${BIN:-.build/release}/mynd-parse  # `make release` builds it

source bench/timing.sh

SWIFT_H5=$(best "$TOOL" "$WORK/subject" -o "$WORK/swift.h5" -q)
SWIFT_CSV=$(best "$TOOL" "$WORK/subject" -o "$WORK/swift_csv" -q)
PYTHON=$(best python3 bench/mynd-parse_reference.py "$WORK/subject" "$WORK/python.h5")
python3 - "$SIZE" "$COUNT" "$SWIFT_H5" "$SWIFT_CSV" "$PYTHON" <<'PY'
import sys
size, count, h5, csv, py = int(sys.argv[1]), int(sys.argv[2]), *map(float, sys.argv[3:])
print(f"input: {count} recordings, {size/1e6:.1f} MB of HDF5")
print(f"mynd-parse -> .h5  : {h5:7.3f} s  ({size/1e6/h5:6.1f} MB/s)")
print(f"mynd-parse -> csv/ : {csv:7.3f} s  ({size/1e6/csv:6.1f} MB/s)")
print(f"python reference   : {py:7.3f} s  ({size/1e6/py:6.1f} MB/s)")
print(f"ratio python / mynd-parse (.h5): {py/h5:.1f}x")
PY
