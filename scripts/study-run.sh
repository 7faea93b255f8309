#!/usr/bin/env bash
# Runs one tool on one unit of work of a study (conventions §5; docs/pipelines.md):
#   study-run.sh TOOL STUDY OUTPUT [OPTION…] -- RELPATH…
# The tool runs in STUDY on the unit's inputs (paths relative to STUDY) with the options of the study
# configuration, `-q`, and `--keep-going` when the unit has several inputs.
# Success: OUTPUT (HDF5) is written and a stale OUTPUT.failed removed; the tool's warnings pass through. The
# tool's HTML report of the unit goes beside it (OUTPUT without .h5, then .html); OUT/report/index.html links it.
# Some inputs of a unit failed (exit 65 with an output): OUTPUT is written and OUTPUT.failed-inputs lists each
# failed input and its message (`path<TAB>message` a line).
# Failure: OUTPUT.failed holds the tool's message (exit status on the first line), OUTPUT is removed, and the
# script exits 0 so that make / Snakemake go on with the other units and the next run is a no-op.
set -uo pipefail
tool=$1 study=$2 output=$3
shift 3
options=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do options+=("$1"); shift; done
[ $# -gt 0 ] && shift
inputs=("$@")
if [ ${#inputs[@]} -eq 0 ]; then echo "study-run.sh: no inputs after --" >&2; exit 64; fi
name=$(basename "$tool")
label="${inputs[0]}"
[ ${#inputs[@]} -gt 1 ] && label="${inputs[0]} and $(( ${#inputs[@]} - 1 )) more"
keep_going=()
[ ${#inputs[@]} -gt 1 ] && keep_going=(--keep-going)

mkdir -p "$(dirname "$output")"
report="${output%.h5}.html"
err="$output.stderr"
# The tool replaces its output atomically (a new file renamed over the old), so a new inode means it wrote one in
# this run; it writes to OUTPUT itself, so that its provenance and report name the real output.
before=$(stat -c %i "$output" 2>/dev/null || echo none)
( cd "$study" && "$tool" "${options[@]}" -o "$output" --report "$report" -q "${keep_going[@]}" -- "${inputs[@]}" ) 2>"$err"
status=$?
written=false
[ -f "$output" ] && [ "$(stat -c %i "$output")" != "$before" ] && written=true
if $written && { [ $status -eq 0 ] || { [ $status -eq 65 ] && [ ${#keep_going[@]} -gt 0 ]; }; }; then
    rm -f "$output.failed"
    if [ $status -eq 65 ]; then
        # The --keep-going list: `<tool>: error: failed inputs:` then one `  <message naming the input>` a line.
        python3 - "$err" "$output.failed-inputs" "${inputs[@]}" <<'EOF'
import sys
err, target, inputs = sys.argv[1], sys.argv[2], sys.argv[3:]
lines = open(err, encoding="utf-8", errors="replace").read().splitlines()
start = max((i for i, l in enumerate(lines) if l.endswith("error: failed inputs:")), default=len(lines))
rows = []
for line in lines[start + 1:]:
    if not line.startswith("  "):
        continue
    message = line[2:]
    named = [p for p in inputs if message.startswith(p + ":") or message == p]
    if named:
        rel = max(named, key=len)
        rows.append(f"{rel}\t{message[len(rel) + 1:].strip()}\n")
with open(target + ".tmp", "w", encoding="utf-8") as f:
    f.writelines(rows)
EOF
        mv -f "$output.failed-inputs.tmp" "$output.failed-inputs"
    else
        rm -f "$output.failed-inputs"
    fi
    [ -s "$err" ] && [ $status -eq 0 ] && sed "s|^|  |" "$err" >&2
    rm -f "$err"
    if [ $status -eq 0 ]; then
        echo "study: ok      $name $label" >&2
    else
        echo "study: PARTLY  $name $label ($(wc -l < "$output.failed-inputs") failed: $(cut -f1 "$output.failed-inputs" | paste -sd, | cut -c1-160))" >&2
    fi
else
    rm -f "$output" "$output.failed-inputs" "$report"
    { echo "exit status $status: $name ${inputs[*]}"; cat "$err"; } > "$output.failed.tmp"
    mv -f "$output.failed.tmp" "$output.failed"
    rm -f "$err"
    echo "study: FAILED  $name $label ($(sed -n 2p "$output.failed" | cut -c1-160))" >&2
fi
exit 0
