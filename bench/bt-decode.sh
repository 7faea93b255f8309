#!/usr/bin/env bash
# bt-decode against the numpy + h5py decoder a researcher would write, on the same 1-hour synthetic capture, in
# one run: end-to-end wall time (process start included), throughput, and peak memory for a 10-hour capture.
#
# Like for like: `bt-decode --no-analysis --compression 0` and bench/bt_decode_reference.py write the same
# samples table (every column, same types, uncompressed). Outputs go to a RAM folder (/dev/shm) so that both
# sides are timed, not the disk's write-back (on a disk, writing ~70 MB dominates both and varies run to run);
# the same comparison on the disk is printed after. The two sides run in alternation, $RUNS rounds (default 9):
# times are each side's best, the ratio the median of the rounds' ratios (the machine is shared, and its speed
# drifts between runs).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${BIN:-.build/release}
export RUNS=${RUNS:-9}
disk=$(mktemp -d)
ram=$disk
if [ -d /dev/shm ] && [ -w /dev/shm ]; then ram=$(mktemp -d -p /dev/shm); fi
trap 'rm -rf "$disk" "$ram"' EXIT

"$bin/bt-synth" -o "$ram/1h.bin" --duration-s 3600 --noise-uv 10 --seed 1 -q
"$bin/bt-synth" -o "$disk/10h.bin" --duration-s 36000 --noise-uv 10 --seed 2 -q
cp "$ram/1h.bin" "$disk/1h.bin"
size=$(stat -c %s "$ram/1h.bin")

source bench/timing.sh

read -r same python ratio < <(paired "$ram/s.h5" "$ram/p.h5" \
    "$bin/bt-decode" "$ram/1h.bin" -o "$ram/s.h5" --no-analysis --compression 0 -q -- \
    python3 bench/bt_decode_reference.py "$ram/1h.bin" "$ram/p.h5")
full=$(FRESH="$ram/f.h5" best "$bin/bt-decode" "$ram/1h.bin" -o "$ram/f.h5" -q)
full0=$(FRESH="$ram/f0.h5" best "$bin/bt-decode" "$ram/1h.bin" -o "$ram/f0.h5" --compression 0 -q)
read -r disk_same disk_python disk_ratio < <(paired "$disk/s.h5" "$disk/p.h5" \
    "$bin/bt-decode" "$disk/1h.bin" -o "$disk/s.h5" --no-analysis --compression 0 -q -- \
    python3 bench/bt_decode_reference.py "$disk/1h.bin" "$disk/p.h5")
peak() { { /usr/bin/time -f "%M" "$@" >/dev/null; } 2>&1 | tail -1; }
peak_full=$(peak "$bin/bt-decode" "$disk/10h.bin" -o "$disk/10h.h5" -q)
peak_decoded=$(peak "$bin/bt-decode" "$disk/10h.bin" -o "$disk/10h.h5" --no-analysis -q)
peak_minute=$(head -c $((60 * 125 * 20)) "$disk/10h.bin" > "$disk/1m.bin"; peak "$bin/bt-decode" "$disk/1m.bin" -o "$disk/1m.h5" -q)

python3 - "$size" "$same" "$python" "$full" "$full0" "$disk_same" "$disk_python" \
    "$peak_full" "$peak_decoded" "$peak_minute" "$ratio" "$disk_ratio" <<'PY'
import sys
size = int(sys.argv[1])
same, py, full, full0, dsame, dpy = map(float, sys.argv[2:8])
pfull, pdec, pmin = (int(x) / 1024 for x in sys.argv[8:11])
ratio, dratio = map(float, sys.argv[11:13])
mb = size / 1e6
print(f"1-hour capture: {mb:.1f} MB, 900,000 samples; output in a RAM folder; best times, median ratios")
print(f"  bt-decode --no-analysis, uncompressed : {same:.3f} s  ({mb / same:.0f} MB/s of capture)")
print(f"  numpy + h5py, the same samples table  : {py:.3f} s")
print(f"  ratio, like for like                  : {ratio:.1f}x")
print(f"  bt-decode, all tables, uncompressed   : {full0:.3f} s  ({mb / full0:.0f} MB/s)")
print(f"  bt-decode, all tables, default deflate: {full:.3f} s  ({mb / full:.0f} MB/s)")
print(f"on the disk: bt-decode --no-analysis {dsame:.3f} s, numpy + h5py {dpy:.3f} s ({dratio:.1f}x)")
print(f"peak memory, 10-hour capture (90 MB): {pfull:.1f} MB all tables, {pdec:.1f} MB --no-analysis; "
      f"1-minute capture: {pmin:.1f} MB")
PY
