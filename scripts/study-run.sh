#!/usr/bin/env bash
# Runs one tool on one study input (conventions §5): study-run.sh TOOL STUDY RELPATH OUTPUT [ARGS…]
# Success: OUTPUT (HDF5) is written and a stale OUTPUT.failed removed; the tool's warnings pass through.
# Failure: OUTPUT.failed holds the tool's message (exit status on the first line), OUTPUT is removed, and the
# script exits 0 so that make / Snakemake go on with the other inputs and the next run is a no-op.
set -uo pipefail
tool=$1 study=$2 rel=$3 output=$4
shift 4
mkdir -p "$(dirname "$output")"
tmp="$output.tmp.h5"
err="$output.stderr"
rm -f "$tmp"
( cd "$study" && "$tool" "$rel" -o "$tmp" -q "$@" ) 2>"$err"
status=$?
if [ $status -eq 0 ] && [ -f "$tmp" ]; then
    mv -f "$tmp" "$output"
    rm -f "$output.failed"
    [ -s "$err" ] && sed "s|^|  |" "$err" >&2
    rm -f "$err"
    echo "study: ok      $(basename "$tool") $rel" >&2
else
    rm -f "$tmp" "$output"
    { echo "exit status $status: $(basename "$tool") $rel"; cat "$err"; } > "$output.failed.tmp"
    mv -f "$output.failed.tmp" "$output.failed"
    rm -f "$err"
    echo "study: FAILED  $(basename "$tool") $rel ($(sed -n 2p "$output.failed" | cut -c1-160))" >&2
fi
exit 0
