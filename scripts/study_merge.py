#!/usr/bin/env python3
"""Study-level tables merged from the per-file outputs (conventions §5), for `make study` and the Snakefile.

  study_merge.py kind OUT KIND      concatenates each table of the kind's per-file HDF5 outputs (listed in
                                    OUT/.study/KIND.list) into OUT/study/KIND_<table>.csv
  study_merge.py summary OUT        writes OUT/study/summary.csv: every input, its kind, output, status (ok or
                                    failed) and, for a failure, the message of its `<output>.failed` stamp;
                                    prints the failures on stderr

Only tables (groups with an `n_rows` attribute) are merged; 2-D arrays (nt-analyze's `/arrays/`) stay per file.
Rows keep the tools' own `source_file` (the path relative to the study folder). Tables whose columns differ
between files (e.g. a channel count) get the union of the columns, NA where a file has none.
"""
import glob
import os
import sys

import pandas as pd

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import brainbatch_tables as bb  # noqa: E402

KINDS = ["brainiac", "interactlog", "braintracker", "mynd", "mindaffect"]


def read_list(out, kind):
    path = os.path.join(out, ".study", kind + ".list")
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [tuple(line.rstrip("\n").split("\t", 1)) for line in f if line.strip()]


def read_tables(path):
    """{table name: DataFrame} of one HDF5 output of the toolkit, read by python/brainbatch_tables.py (typed
    columns, NA where missing); 2-D arrays (nt-analyze's /arrays/) are not tables and stay per file."""
    return bb.read_tables(path)


def write_csv(frame, path):
    """The toolkit's one CSV dialect: NA for every missing value, booleans TRUE/FALSE (read as logical by R's
    read.csv and as bool by pandas), written to a temporary file and renamed into place."""
    frame = frame.copy()
    for column in frame.columns:
        if str(frame[column].dtype) in ("boolean", "bool"):
            frame[column] = frame[column].map(lambda v: pd.NA if pd.isna(v) else ("TRUE" if v else "FALSE"))
    tmp = os.path.join(os.path.dirname(path), "." + os.path.basename(path) + ".tmp")
    frame.to_csv(tmp, index=False, na_rep="NA")
    os.replace(tmp, path)


def merge_kind(out, kind):
    study = os.path.join(out, "study")
    os.makedirs(study, exist_ok=True)
    merged = {}
    for _, output in read_list(out, kind):
        if not os.path.exists(output):
            continue
        for name, frame in read_tables(output).items():
            merged.setdefault(name, []).append(frame)
    for stale in glob.glob(os.path.join(study, kind + "_*.csv")):
        os.remove(stale)
    for name, frames in merged.items():
        frame = pd.concat(frames, ignore_index=True, sort=False)
        write_csv(frame, os.path.join(study, f"{kind}_{name}.csv"))


def summary(out):
    rows = []
    for kind in KINDS:
        for rel, output in read_list(out, kind):
            failed = output + ".failed"
            if os.path.exists(failed):
                with open(failed, encoding="utf-8", errors="replace") as f:
                    message = " | ".join(line.strip() for line in f.read().splitlines()[1:] if line.strip())
                rows.append((kind, rel, os.path.relpath(output, out), "failed", message))
            elif os.path.exists(output):
                rows.append((kind, rel, os.path.relpath(output, out), "ok", ""))
            else:
                rows.append((kind, rel, os.path.relpath(output, out), "missing", ""))
    frame = pd.DataFrame(rows, columns=["kind", "input", "output", "status", "message"])
    os.makedirs(os.path.join(out, "study"), exist_ok=True)
    path = os.path.join(out, "study", "summary.csv")
    write_csv(frame, path)
    bad = frame[frame.status != "ok"]
    sys.stderr.write(f"study: {len(frame)} inputs, {len(frame) - len(bad)} ok, {len(bad)} failed"
                     f" -> {path}\n")
    for row in bad.itertuples():
        sys.stderr.write(f"  FAILED {row.kind}: {row.input}: {row.message[:300]}\n")


def main(argv):
    if len(argv) == 4 and argv[1] == "kind" and argv[3] in KINDS:
        merge_kind(os.path.abspath(argv[2]), argv[3])
    elif len(argv) == 3 and argv[1] == "summary":
        summary(os.path.abspath(argv[2]))
    else:
        sys.stderr.write(__doc__)
        return 64
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
