#!/usr/bin/env bash
# The study pipeline end to end (docs/pipelines.md, README "Scaling out"): a generated study of 200 Brainiac captures
# of 10 minutes, 500 InteractLog logs (100 participants × 5 trials) and 50 MindAffect save files, on 2 cores:
#   1. the tools alone: every unit's tool run, 2 at a time (xargs -P 2), nothing else — the floor;
#   2. make study -j 2 (discovery, the same tool runs through scripts/study-run.sh, merges, summary), then a no-op run;
#   3. Snakemake --cores 2, the same study into another folder, then a no-op run.
# The pipeline's overhead per input = (pipeline − tools alone − merges and summary) / inputs; the merges are timed
# on their own afterwards. The per-sample tables are not merged (merge_skip), as a large study would configure.
#   bench/study.sh            (BIN=.build/release, CAPTURES=200 LOGS=500 MINDAFFECT=50, WORK=a temporary folder)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
bin=$(cd "${BIN:-.build/release}" && pwd)
captures=${CAPTURES:-200} logs=${LOGS:-500} mindaffect=${MINDAFFECT:-50}
work=${WORK:-$(mktemp -d)}
[ -z "${WORK:-}" ] && trap 'rm -rf "$work"' EXIT
mkdir -p "$work"
study=$work/study
python=python3
snakemake=(python3 -m snakemake)
[ -x .venv/bin/python ] && snakemake=(.venv/bin/python -m snakemake)

now() { date +%s.%N; }
since() { python3 -c "print(f'{$(now) - $1:.2f}')"; }

if [ ! -d "$study" ]; then
    start=$(now)
    python3 bench/study_generate.py "$study" "$bin" "$captures" "$logs" "$mindaffect"
    echo "generated the study in $(since "$start") s: $(du -sh "$study" | cut -f1)" >&2
fi
printf 'merge_skip: [brainiac_samples, mindaffect_samples]\n' > "$work/study.yaml"
inputs=$(python3 scripts/study_discover.py list "$study" | wc -l)
units=$(python3 scripts/study_discover.py list "$study" | cut -f1,2 | sort -u | wc -l)

# 1. The tools alone: one line per unit (tool, options, inputs), run 2 at a time.
rm -rf "$work/alone" && mkdir -p "$work/alone"
python3 - "$study" "$bin" "$work/alone" "$work/study.yaml" > "$work/alone.cmds" <<'PY'
import os, shlex, sys
sys.path.insert(0, "scripts")
import study_discover as sd
study, bin_dir, out, config = sys.argv[1:5]
units, _ = sd.plan(study, None, sd.load_config(config))
for i, u in enumerate(units):
    keep = ["--keep-going"] if len(u["inputs"]) > 1 else []
    print(shlex.join([os.path.join(bin_dir, u["tool"])] + u["args"] + ["-o", f"{out}/{i}.h5", "-q"] + keep + ["--"] + u["inputs"]))
PY
start=$(now)
(cd "$study" && tr '\n' '\0' < "$work/alone.cmds" | xargs -0 -P 2 -n 1 sh -c 'eval "$1"' _)
alone=$(since "$start")

# 2. make -j 2: the units (discovery and tool runs), then the merges and summary, then nothing to do.
rm -rf "$work/make"
run_make() { make -s -C "$repo" "$1" -j 2 STUDY="$study" OUT="$work/make" BIN="$bin" CONFIG="$work/study.yaml" 2>>"$work/make.log"; }
start=$(now); run_make study-units; make_units=$(since "$start")
start=$(now); run_make study; make_merges=$(since "$start")
start=$(now); run_make study; make_noop=$(since "$start")
make_first=$(python3 -c "print($make_units + $make_merges)")

# 3. Snakemake with 2 cores: the units (--until convert), then the rest, then nothing to do.
rm -rf "$work/snakemake"
mkdir -p "$work/snakemake"
run_snakemake() {
    "${snakemake[@]}" -s workflow/Snakefile --cores 2 --quiet all --directory "$work/snakemake" "$@" \
        --configfile "$work/study.yaml" --config study="$study" out="$work/snakemake" bin="$bin" >>"$work/snakemake.log" 2>&1
}
start=$(now); run_snakemake --until convert; snakemake_units=$(since "$start")
start=$(now); run_snakemake; snakemake_merges=$(since "$start")
start=$(now); run_snakemake; snakemake_noop=$(since "$start")
snakemake_first=$(python3 -c "print($snakemake_units + $snakemake_merges)")

cmp -s "$work/make/study/summary.csv" "$work/snakemake/study/summary.csv" || echo "warning: make and Snakemake summaries differ" >&2
ok=$(grep -c ',ok,' "$work/make/study/summary.csv" || true)

python3 - "$inputs" "$units" "$ok" "$alone" "$make_units" "$make_merges" "$make_noop" \
    "$snakemake_units" "$snakemake_merges" "$snakemake_noop" "$bin" "$(du -sh "$study" | cut -f1)" <<'PY'
import sys
inputs, units, ok = map(int, sys.argv[1:4])
alone, mu, mm, m0, su, sm, s0 = map(float, sys.argv[4:11])
print(f"study: {inputs} inputs ({sys.argv[12]}) in {units} units ({ok} ok), tools from {sys.argv[11]}, 2 cores")
print(f"                          first run = units + merges/summary   nothing to do")
print(f"tools alone (xargs -P 2)  {alone:8.1f} s")
print(f"make study -j 2           {mu + mm:8.1f} s = {mu:7.1f} + {mm:6.1f} s       {m0:6.2f} s")
print(f"Snakemake --cores 2       {su + sm:8.1f} s = {su:7.1f} + {sm:6.1f} s       {s0:6.2f} s")
for name, units_time in (("make", mu), ("Snakemake", su)):
    over = units_time - alone
    print(f"{name} overhead per input: {1000 * over / inputs:.1f} ms ({1000 * over / units:.1f} ms per unit): "
          f"units {units_time:.1f} s - tools alone {alone:.1f} s = {over:.1f} s (discovery, scheduling, the per-unit script)")
PY
