#!/usr/bin/env bash
# rt-stats against the pandas version a researcher would write (bench/rt-stats_reference.py), on the same
# constructed current-format BrainTrackerResultsFile.csv, in one run: end-to-end wall time, process start included.
# BIN defaults to the release build; e.g. BIN=.build-rt/release bench/rt-stats.sh   SESSIONS=6000 (192k rows)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${BIN:-.build/release}
sessions=${SESSIONS:-6000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 bench/rt-stats_generate.py "$work/BrainTrackerResultsFile.csv" "$sessions"
input="$work/BrainTrackerResultsFile.csv"
size=$(wc -c < "$input")
rows=$(tr '\r' '\n' < "$input" | wc -l)

source bench/timing.sh

swift_h5=$(best "$bin/rt-stats" "$input" -o "$work/swift.h5" -q)
swift_csv=$(best "$bin/rt-stats" "$input" -o "$work/swift-csv" -q)
python=$(best python3 bench/rt-stats_reference.py "$work/python-csv" "$input")

python3 - "$rows" "$size" "$swift_h5" "$swift_csv" "$python" <<'PY'
import sys
n, size = int(sys.argv[1]), int(sys.argv[2])
h5, csv, py = map(float, sys.argv[3:6])
print(f"{n} lines, {size / 1e6:.2f} MB")
print(f"rt-stats -> HDF5         : {h5:.3f} s ({n / h5:.0f} rows/s)")
print(f"rt-stats -> CSV folder   : {csv:.3f} s ({n / csv:.0f} rows/s)")
print(f"pandas reference -> CSV  : {py:.3f} s ({n / py:.0f} rows/s)")
print(f"ratio (reference / rt-stats CSV): {py / csv:.1f}x; (reference / rt-stats HDF5): {py / h5:.1f}x")
PY
