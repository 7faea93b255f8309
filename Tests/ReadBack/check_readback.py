"""Reads every table of a BrainBatch output the way Python users do and compares, value by value:
python/brainbatch_tables.read_table(h5) against pandas.read_csv(<folder>/<table>.csv); validates the CSV folder's
datapackage.json with frictionless and checks that it describes every column (type, and a description saying what
the value is); then runs check_readback.R.

Usage: python3 check_readback.py OUT.h5 CSV_FOLDER. Prints one line per table; exits 1 with FAIL lines on a mismatch.
"""
import json, math, os, subprocess, sys

import numpy as np
import pandas as pd

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "python"))
import brainbatch_tables as bb  # noqa: E402

h5, folder = sys.argv[1], sys.argv[2]
failures = []


def fail(*parts):
    failures.append(" ".join(str(p) for p in parts))


package = json.load(open(os.path.join(folder, "datapackage.json")))
schemas = {r["path"][:-4]: r["schema"] for r in package["resources"]}

# Every column has a description of its own: not absent, not empty, and not only the note the writer adds to every
# timestamp column (FrictionlessSchema.swift), which tells the format but not what the time is.
kind_notes = {"UTC time, ISO 8601 with Z", "wall-clock time of unknown zone, ISO 8601 without offset"}
for table, schema in schemas.items():
    undescribed = [field["name"] for field in schema.get("fields", [])
                   if not str(field.get("description", "")).strip() or field["description"] in kind_notes]
    if undescribed:
        fail(table, "columns without a description in datapackage.json:", ", ".join(undescribed))
import h5py  # noqa: E402

with h5py.File(h5, "r") as f:
    kinds = {t: {c: f[t][c].attrs["kind"] for c in f[t]} for t in bb.list_tables(h5)}

for table in bb.list_tables(h5):
    a = bb.read_table(h5, table)
    # Text columns are read as text: plain read_csv would guess numbers for a text column whose every value
    # looks numeric (`ts_raw`, byte offsets in `location`); datapackage.json gives the types.
    text = {c: str for c, k in kinds[table].items() if k in ("string", "timestamp", "timestamp_local")}
    b = pd.read_csv(os.path.join(folder, table + ".csv"), dtype=text)
    if list(a.columns) != list(b.columns):
        fail(table, "columns differ:", list(a.columns), list(b.columns))
        continue
    if len(a) != len(b):
        fail(table, "rows:", len(a), len(b))
        continue
    fields = {field["name"]: field for field in schemas.get(table, {}).get("fields", [])}
    for column in a.columns:
        field = fields.get(column)
        if field is None or "type" not in field:
            fail(table, column, "not described in datapackage.json")
        kind = kinds[table][column]
        x, y = a[column], b[column]
        if not np.array_equal(pd.isna(x).to_numpy(), pd.isna(y).to_numpy()):
            fail(table, column, "missing values differ")
            continue
        ok = ~pd.isna(y).to_numpy()
        xs, ys = x.to_numpy()[ok], y.to_numpy()[ok]
        if kind == "bool":
            if not all(isinstance(v, (bool, np.bool_)) for v in ys):
                fail(table, column, "CSV booleans not read as bool")
            elif list(map(bool, xs)) != list(map(bool, ys)):
                fail(table, column, "booleans differ")
        elif kind in ("int32", "int64"):
            if str(x.dtype) != "Int64":
                fail(table, column, "integer column read as", x.dtype)
            elif [int(v) for v in xs] != [int(v) for v in ys]:
                fail(table, column, "integers differ")
        elif kind == "float32":
            if not np.array_equal(np.asarray(xs, dtype=np.float32), np.asarray(ys, dtype=np.float64).astype(np.float32)):
                fail(table, column, "float32 values differ")
        elif kind == "float64":
            xf, yf = np.asarray(xs, dtype=np.float64), np.asarray(ys, dtype=np.float64)
            if not np.array_equal(xf, yf):
                fail(table, column, "floats differ, e.g.", xf[xf != yf][:3], yf[xf != yf][:3])
        else:
            if not all(isinstance(v, str) for v in xs):
                fail(table, column, "text not read as str")
            elif [str(v) for v in xs] != [str(v) for v in ys]:
                fail(table, column, "text differs")
    print(table, len(a), "rows")

import frictionless  # noqa: E402

report = frictionless.validate(os.path.join(folder, "datapackage.json"))
if not report.valid:
    for error in report.flatten(["type", "note"])[:10]:
        fail("frictionless:", *error)

r = subprocess.run(["Rscript", os.path.join(here, "check_readback.R"), h5, folder], capture_output=True, text=True)
print(r.stdout, end="")
if r.returncode != 0:
    fail("R:", r.stdout.strip().replace("\n", " | "), r.stderr.strip()[-2000:])

for line in failures:
    print("FAIL", line)
sys.exit(1 if failures else 0)
