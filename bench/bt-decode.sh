#!/usr/bin/env bash
# bt-decode against the numpy + h5py decoder a researcher would write, on the same 1-hour synthetic capture, in
# one run: end-to-end wall time (process start included), throughput, and peak memory for a 10-hour capture.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${BIN:-.build/release}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$bin/bt-synth" -o "$work/1h.bin" --duration-s 3600 --noise-uv 10 --seed 1 -q
"$bin/bt-synth" -o "$work/10h.bin" --duration-s 36000 --noise-uv 10 --seed 2 -q
size=$(stat -c %s "$work/1h.bin")

source bench/timing.sh

swift_c1=$(best "$bin/bt-decode" "$work/1h.bin" -o "$work/swift.h5" -q)
swift_c0=$(best "$bin/bt-decode" "$work/1h.bin" -o "$work/swift0.h5" --compression 0 -q)
python=$(best python3 bench/bt_decode_reference.py "$work/1h.bin" "$work/python.h5")
peak=$( { /usr/bin/time -f "%M" "$bin/bt-decode" "$work/10h.bin" -o "$work/10h.h5" -q; } 2>&1 | tail -1)

python3 - "$size" "$swift_c0" "$swift_c1" "$python" "$peak" <<'PY'
import sys
size, c0, c1, py, peak = int(sys.argv[1]), *map(float, sys.argv[2:5]), int(sys.argv[5])
print(f"1-hour capture: {size / 1e6:.1f} MB, 900,000 samples")
print(f"bt-decode, uncompressed HDF5 : {c0:.3f} s  ({size / c0 / 1e6:.0f} MB/s)")
print(f"bt-decode, --compression 1   : {c1:.3f} s  ({size / c1 / 1e6:.0f} MB/s)")
print(f"numpy + h5py reference       : {py:.3f} s")
print(f"ratio (reference / bt-decode uncompressed): {py / c0:.1f}x")
print(f"peak memory, 10-hour capture (90 MB): {peak / 1024:.1f} MB")
PY
