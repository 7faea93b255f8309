#!/usr/bin/env python3
"""Checks a study run against one careful hand run per kind (docs/pipelines.md, "Units of work"):

  study_check.py STUDY OUT BIN [CONFIG]

For each kind, runs its tool once over all of the kind's inputs (paths relative to STUDY, sorted, with the options
the study's units got and --keep-going), writes each table as the study's CSV dialect and compares it byte for byte
with OUT/study/<kind>_<table>.csv. Prints one line per table (`same` or `DIFFERENT`) and exits 1 on any
difference. A kind whose units got different options (e.g. MYND subjects with different definitions folders)
cannot be one hand run and is reported as skipped (units that wrote nothing are left out of that comparison); tables the configuration does not merge are not compared.
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "python"))
sys.dont_write_bytecode = True
import brainbatch_tables as bb  # noqa: E402
import study_discover as sd  # noqa: E402
import study_merge as sm  # noqa: E402


def main(argv):
    if len(argv) not in (4, 5):
        sys.stderr.write(__doc__)
        return 64
    study, out, bin_dir = (os.path.abspath(a) for a in argv[1:4])
    config = sd.check_config(sd.load_config(argv[4] if len(argv) == 5 else None))
    skip = set(config.get("merge_skip") or [])
    units, inputs = sd.plan(study, out, config)
    differences = 0
    with tempfile.TemporaryDirectory() as tmp:
        for kind in sd.KINDS:
            # Units that wrote nothing (every input refused) add no rows: their options do not matter.
            kind_units = [u for u in units if u["kind"] == kind
                          and os.path.exists(sd.output_path(out, kind, u["id"]))]
            if not kind_units:
                continue
            if len({tuple(u["args"]) for u in kind_units}) > 1:
                print(f"{kind}: skipped (its units have different options)")
                continue
            rels = sorted(rel for k, rel, _, _, _ in inputs if k == kind)
            h5 = os.path.join(tmp, kind + ".h5")
            run = subprocess.run([os.path.join(bin_dir, sd.TOOLS[kind])] + kind_units[0]["args"]
                                 + ["-o", h5, "-q", "--keep-going", "--"] + rels,
                                 cwd=study, capture_output=True, text=True)
            if not os.path.exists(h5):
                print(f"{kind}: the hand run wrote nothing (exit {run.returncode})")
                continue
            for name, frame in bb.read_tables(h5).items():
                if f"{kind}_{name}" in skip:
                    continue
                hand = os.path.join(tmp, f"{kind}_{name}.csv")
                sm.write_csv(frame, hand)
                merged = os.path.join(out, "study", f"{kind}_{name}.csv")
                with open(hand, encoding="utf-8") as f:
                    expected = f.read()
                got = None
                if os.path.exists(merged):
                    with open(merged, encoding="utf-8") as f:
                        got = f.read()
                same = got == expected
                differences += not same
                rows = len(frame)
                print(f"{kind}_{name}: {'same' if same else 'DIFFERENT'} ({rows} rows by hand"
                      + ("" if same else f", {'no file' if got is None else len(got.splitlines()) - 1} merged") + ")")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
