#!/usr/bin/env bash
# A 1-hour Brainiac capture to BDF: `bt-decode capture.bin -o capture.bdf` (decoding included) against MNE's
# `RawArray(...).export(fmt="bdf")` on the same samples and annotations, already decoded (untimed preparation),
# in the same run, process start included ($RUNS rounds alternating, default 5; best times, median ratio).
# Then peak memory (RSS) of bt-decode to BDF for 1-hour and 10-hour captures. Needs .venv-bids (scripts/setup.sh).
# The timed outputs go to a RAM folder (/dev/shm) as in bench/bt-decode.sh: both sides are timed, not the disk's
# write-back (bt-decode also fsyncs its output, which MNE does not; on this machine's disk that alone is 0.1–0.3 s).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${BIN:-.build/release}
py=.venv-bids/bin/python
export RUNS=${RUNS:-5}
work=$(mktemp -d)
if [ -d /dev/shm ] && [ -w /dev/shm ]; then work=$(mktemp -d -p /dev/shm); fi
disk=$(mktemp -d)
trap 'rm -rf "$work" "$disk"' EXIT
source bench/timing.sh

"$bin/bt-synth" -o "$work/1h.bin" --duration-s 3600 --noise-uv 10 --drop-rate 0.001 --seed 1 -q
"$bin/bt-synth" -o "$disk/10h.bin" --duration-s 36000 --noise-uv 10 --drop-rate 0.001 --seed 2 -q
"$bin/bt-decode" "$work/1h.bin" -o "$work/ref.bdf" -q
$py bench/signal_bdf_reference.py prepare "$work/ref.bdf" "$work/1h.npz"

read -r swift_full python ratio_full < <(paired "$work/s.bdf" "$work/p.bdf" \
    "$bin/bt-decode" "$work/1h.bin" -o "$work/s.bdf" -q -- \
    $py bench/signal_bdf_reference.py export "$work/1h.npz" "$work/p.bdf")
read -r swift_plain python2 ratio_plain < <(paired "$work/n.bdf" "$work/p.bdf" \
    "$bin/bt-decode" "$work/1h.bin" -o "$work/n.bdf" --no-analysis -q -- \
    $py bench/signal_bdf_reference.py export "$work/1h.npz" "$work/p.bdf")
peak() { rm -f "$2"*; { /usr/bin/time -f "%M" "$bin/bt-decode" "$1" -o "$2" -q "${@:3}" >/dev/null; } 2>&1 | tail -1; }
peak_1h=$(peak "$work/1h.bin" "$work/m1.bdf")
peak_1h_plain=$(peak "$work/1h.bin" "$work/m1n.bdf" --no-analysis)
peak_10h=$(peak "$disk/10h.bin" "$disk/m10.bdf")
peak_10h_plain=$(peak "$disk/10h.bin" "$disk/m10n.bdf" --no-analysis)
peak_10h_edf=$(peak "$disk/10h.bin" "$disk/m10.edf")
peak_10h_vhdr=$(peak "$disk/10h.bin" "$disk/m10.vhdr")
time_10h=$(RUNS=1 best "$bin/bt-decode" "$disk/10h.bin" -o "$disk/t10.bdf" -q)

echo "1-hour capture to BDF, process start included (best of $RUNS, median ratio of rounds):"
echo "  bt-decode -o x.bdf (with the SDK analysis' annotations): ${swift_full} s; MNE RawArray.export: ${python} s; ratio ${ratio_full}"
echo "  bt-decode -o x.bdf --no-analysis:                          ${swift_plain} s; MNE RawArray.export: ${python2} s; ratio ${ratio_plain}"
echo "10-hour capture to BDF on the disk: ${time_10h} s"
echo "peak RSS (KiB): 1 h BDF ${peak_1h} (--no-analysis ${peak_1h_plain}); 10 h BDF ${peak_10h} (--no-analysis ${peak_10h_plain}); 10 h EDF ${peak_10h_edf}; 10 h BrainVision ${peak_10h_vhdr}"
