#!/usr/bin/env bash
# Runs every tool on its SampleData/ folder; writes HDF5 and CSV outputs under the given folder.
set -euo pipefail
bin=$1
out=$2
cd "$(dirname "$0")/.."

run() { echo "+ $*" >&2; "$@"; }

shopt -s nullglob globstar
captures=(SampleData/brainiac/*.bin)
if [ ${#captures[@]} -gt 0 ]; then
    run "$bin/bt-decode" "${captures[@]}" -o "$out/brainiac.h5" --keep-going || [ $? -eq 65 ]
    run "$bin/bt-decode" "${captures[@]}" -o "$out/brainiac" -q --keep-going || [ $? -eq 65 ]
fi
logs=(SampleData/interactlog/**/*.txt)
if [ ${#logs[@]} -gt 0 ] && [ -d SampleData/interactlog ]; then
    run "$bin/ilog-parse" "${logs[@]}" -o "$out/interactlog.h5"
    run "$bin/ilog-parse" "${logs[@]}" -o "$out/interactlog" -q
fi
rt=(SampleData/braintracker/*.csv)
if [ ${#rt[@]} -gt 0 ]; then
    run "$bin/rt-stats" "${rt[@]}" -o "$out/braintracker.h5"
    run "$bin/rt-stats" "${rt[@]}" -o "$out/braintracker" -q
fi
mynd=(SampleData/mynd/q_*.json SampleData/mynd/r_*.hdf)
if [ ${#mynd[@]} -gt 0 ]; then
    run "$bin/mynd-parse" "${mynd[@]}" --definitions SampleData/mynd/definitions -o "$out/mynd.h5"
    run "$bin/mynd-parse" "${mynd[@]}" --definitions SampleData/mynd/definitions -o "$out/mynd" -q
fi
nt=(SampleData/mindaffect/*.txt)
if [ ${#nt[@]} -gt 0 ]; then
    run "$bin/nt-analyze" "${nt[@]}" -o "$out/mindaffect.h5"
    run "$bin/nt-analyze" "${nt[@]}" -o "$out/mindaffect" -q
fi
echo "demo: outputs in $out/" >&2
ls -la "$out" >&2
