#!/usr/bin/env bash
# Benchmark: `nt-analyze decode` (release build) against pymindaffectBCI 0.9.24's own offline analysis
# (`load_mindaffectBCI` + `analyse_dataset`, scripts/pmb_decode.py --mode analyse, in .venv-pmb) on the same files
# in the same run: wall time with process start (the two sides alternate for $RUNS rounds, default 5; ratio = the
# median of the rounds' PMB/nt-analyze), and peak memory (maximum resident set, /usr/bin/time) of one run each.
# Usage: bench/nt-analyze-decode.sh [save files…]   (default: PMB's example file from ../shared/realdata when present,
#        SampleData's file, and a generated 22-trial recording with a brain response)
set -eu
cd "$(dirname "$0")/.."
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
TOOL=${BIN:-.build/release}/nt-analyze  # `make release` builds it
PMB=.venv-pmb/bin/python                # scripts/setup.sh makes it
[ -x "$PMB" ] || { echo "no $PMB: run scripts/setup.sh" >&2; exit 1; }
if [ $# -gt 0 ]; then
    FILES=("$@")
else
    FILES=()
    [ -f ../shared/realdata/mindaffect/mindaffectBCI_exampledata.txt ] && FILES+=(../shared/realdata/mindaffect/mindaffectBCI_exampledata.txt)
    FILES+=(SampleData/mindaffect/mindaffectBCI_sample_261123_1200.txt)
    python3 SampleData/mindaffect/generate.py --prediction-trials 20 --response-uv 10 --background-uv 5 --fe-ratio 0 \
        > "$WORK/mindaffectBCI_synthetic_261126_1200.txt"
    FILES+=("$WORK/mindaffectBCI_synthetic_261126_1200.txt")
fi
export RUNS=${RUNS:-5}
source bench/timing.sh

# peak KB CMD...: the maximum resident set of one run, in KB.
peak() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }

for FILE in "${FILES[@]}"; do
    INPUT=$(cd "$(dirname "$FILE")" && pwd)/$(basename "$FILE")
    read -r SWIFT PY RATIO < <(paired "$WORK/out.h5" "$WORK/none" \
        "$TOOL" decode "$INPUT" -o "$WORK/out.h5" -q -- "$PMB" scripts/pmb_decode.py "$INPUT" --mode analyse)
    rm -f "$WORK/out.h5"
    SWIFT_KB=$(peak "$TOOL" decode "$INPUT" -o "$WORK/out.h5" -q)
    PY_KB=$(peak "$PMB" scripts/pmb_decode.py "$INPUT" --mode analyse)
    python3 - "$INPUT" "$(wc -c < "$INPUT")" "$SWIFT" "$PY" "$RATIO" "$SWIFT_KB" "$PY_KB" <<'PY'
import os, sys
name, size, swift, py, ratio, swift_kb, py_kb = sys.argv[1], int(sys.argv[2]), *map(float, sys.argv[3:])
print(f"{os.path.basename(name)} ({size/1e6:.1f} MB)")
print(f"  nt-analyze decode : {swift:6.3f} s best   {swift_kb/1024:6.1f} MB peak")
print(f"  PMB 0.9.24        : {py:6.3f} s best   {py_kb/1024:6.1f} MB peak")
print(f"  ratio PMB / nt-analyze: time {ratio:.1f}x (median of rounds), peak memory {py_kb/swift_kb:.1f}x")
PY
done
