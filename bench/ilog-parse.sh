#!/usr/bin/env bash
# ilog-parse against the pandas parser a researcher would write (bench/ilog-parse_reference.py), on the same
# 1,000 constructed logs (half Java 2.2, half iPad 1.1), in one run: end-to-end wall time, process start included.
# BIN defaults to the release build of the lead's scratch path; e.g. BIN=.build-ilog/release bench/ilog-parse.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${BIN:-.build/release}
count=${COUNT:-1000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 bench/ilog-parse_generate.py "$work/logs" "$count"
mapfile -d '' logs < <(find "$work/logs" -name '*.txt' -print0 | sort -z)
size=$(cat "${logs[@]}" | wc -c)

source bench/timing.sh

swift_h5=$(best "$bin/ilog-parse" "${logs[@]}" -o "$work/swift.h5" -q)
swift_csv=$(best "$bin/ilog-parse" "${logs[@]}" -o "$work/swift-csv" -q)
python=$(best python3 bench/ilog-parse_reference.py "$work/python-csv" "${logs[@]}")

python3 - "$count" "$size" "$swift_h5" "$swift_csv" "$python" <<'PY'
import sys
n, size = int(sys.argv[1]), int(sys.argv[2])
h5, csv, py = map(float, sys.argv[3:6])
print(f"{n} logs, {size / 1e6:.2f} MB")
print(f"ilog-parse -> HDF5          : {h5:.3f} s ({n / h5:.0f} logs/s)")
print(f"ilog-parse -> CSV folder    : {csv:.3f} s ({n / csv:.0f} logs/s)")
print(f"pandas reference -> CSV     : {py:.3f} s ({n / py:.0f} logs/s)")
print(f"ratio (reference / ilog-parse CSV): {py / csv:.1f}x; (reference / ilog-parse HDF5): {py / h5:.1f}x")
PY
