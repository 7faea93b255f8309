#!/usr/bin/env python3
"""Study-level tables merged from the per-unit outputs (conventions §5; docs/pipelines.md), for `make study` and
the Snakefile.

  study_merge.py kind OUT KIND      concatenates each table of the kind's HDF5 outputs (listed in
                                    OUT/.study/KIND.list) into OUT/study/KIND_<table>.csv, rows in the order of
                                    the kind's inputs sorted by path (what one run of the tool over all of them,
                                    given in that order, writes); keeps each input's figures for the summary
  study_merge.py summary OUT        writes OUT/study/summary.csv (one row per input), participants.csv (one row
                                    per participant), the codebook datapackage.json and the report index
                                    OUT/report/index.html (study_index.py); prints the failures

Only tables (groups with an `n_rows` attribute) are merged; 2-D arrays (nt-analyze's `/arrays/`) stay per file.
Tables named in the configuration's `merge_skip` (`brainiac_samples`) are not merged. Rows keep the tools' own
`source_file` (the path relative to the study folder). Tables whose columns differ between files (e.g. a channel
count) get the union of the columns, NA where a file has none.
"""
import glob
import json
import os
import sys

import h5py
import numpy as np
import pandas as pd

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import brainbatch_tables as bb  # noqa: E402
import study_index  # noqa: E402

KINDS = ["brainiac", "interactlog", "braintracker", "mynd", "mindaffect"]
SEVERITIES = ["error", "warning", "info"]
# Tables read for the per-input figures even when they are not merged.
FIGURE_TABLES = {"recordings", "trials", "sessions", "summary", "quality_summary", "anomalies"}

SUMMARY_FIELDS = [
    ("kind", "string", "", "the input's kind: brainiac, interactlog, braintracker, mynd or mindaffect"),
    ("input", "string", "", "the input's path in the study folder (the tables' source_file)"),
    ("participant", "string", "", "from the path by the configuration's participant_pattern"),
    ("session", "string", "", "from the path by the configuration's participant_pattern"),
    ("unit", "string", "", "the unit of work (tool run) the input belongs to"),
    ("output", "string", "", "the unit's HDF5 output, relative to the output folder"),
    ("status", "string", "", "ok, failed (the tool refused the input) or missing (not run yet)"),
    ("message", "string", "", "why it failed: the tool's message, lines joined by ' | '"),
    ("duration_s", "number", "s", "recorded time: Brainiac and MYND recordings' duration_s, MindAffect "
     "n_samples / fs_est_hz, an InteractLog trial's header_duration_s"),
    ("lost_pct", "number", "%", "Brainiac: lost samples in plausible gaps, per 100 expected samples"),
    ("signal_ok_pct", "number", "%", "MYND recordings: windows whose running signal quality reached 100, "
     "mean over channels (quality_summary.share_a_ge_100 × 100)"),
    ("code_agreement", "number", "1", "MindAffect: the summary's per-trial code agreement"),
    ("n_sessions", "integer", "", "BrainTracker sessions; MYND session IDs"),
    ("n_trials", "integer", "", "trials: InteractLog logs, BrainTracker trial rows, MindAffect trials"),
    ("n_errors", "integer", "", "anomalies rows of severity error"),
    ("n_warnings", "integer", "", "anomalies rows of severity warning"),
    ("n_info", "integer", "", "anomalies rows of severity info"),
]
PARTICIPANT_FIELDS = [
    ("participant", "string", "", "from the path by the configuration's participant_pattern (NA: inputs it "
     "does not match)"),
    ("n_inputs", "integer", "", "inputs of every kind"),
] + [(f"n_{kind}", "integer", "", f"{kind} inputs") for kind in KINDS] + [
    ("n_failed", "integer", "", "inputs the tools refused"),
    ("n_sessions", "integer", "", "distinct sessions (from the path) among the participant's inputs; NA when "
     "none was found"),
    ("recording_s", "number", "s", "total duration of the recordings (Brainiac, MYND and MindAffect)"),
    ("lost_pct", "number", "%", "Brainiac: lost samples per 100 expected, over all captures"),
    ("n_trials", "integer", "", "trials over all inputs (summary.n_trials)"),
    ("n_errors", "integer", "", "anomalies of severity error"),
    ("n_warnings", "integer", "", "anomalies of severity warning"),
    ("n_info", "integer", "", "anomalies of severity info"),
]


def read_list(out, kind):
    """[(relative path, output, participant, session)] of the kind, in path order."""
    path = os.path.join(out, ".study", kind + ".list")
    if not os.path.exists(path):
        return []
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                fields = line.rstrip("\n").split("\t")
                rows.append(tuple((fields + ["", "", ""])[:4]))
    return rows


def read_json(path, default):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return default


def write_json(path, value):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(value, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


def write_csv(frame, path):
    """The toolkit's one CSV dialect: NA for every missing value, booleans TRUE/FALSE (read as logical by R's
    read.csv and as bool by pandas), written to a temporary file and renamed into place."""
    frame = frame.copy()
    for column in frame.columns:
        if str(frame[column].dtype) in ("boolean", "bool"):
            frame[column] = frame[column].map(lambda v: pd.NA if pd.isna(v) else ("TRUE" if v else "FALSE"))
    tmp = os.path.join(os.path.dirname(path), "." + os.path.basename(path) + ".tmp")
    frame.to_csv(tmp, index=False, na_rep="NA", lineterminator="\n")
    os.replace(tmp, path)


def field(name, kind, unit, description):
    """One Table Schema field, as the tools' datapackage.json writes it (Tables/FrictionlessSchema.swift)."""
    item = {"name": name}
    if kind in ("int32", "int64", "integer"):
        item["type"] = "integer"
    elif kind in ("float32", "float64", "number"):
        item["type"] = "number"
        item["bareNumber"] = True
    elif kind == "bool":
        item["type"] = "boolean"
        item["trueValues"] = ["TRUE"]
        item["falseValues"] = ["FALSE"]
    elif kind == "timestamp":
        item["type"] = "datetime"
        description = (description + " (" if description else "") + "UTC time, ISO 8601 with Z" + (")" if description else "")
    elif kind == "timestamp_local":
        item["type"] = "datetime"
        note = "wall-clock time of unknown zone, ISO 8601 without offset"
        description = f"{description} ({note})" if description else note
    else:
        item["type"] = "string"
    if unit:
        item["unit"] = unit
    if description:
        item["description"] = description
    return item


def text(value):
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def group_fields(group):
    fields = []
    for name in [text(n) for n in group.attrs["columns"]]:
        dataset = group[name]
        fields.append(field(name, bb._kind(dataset), text(dataset.attrs.get("unit", "")),
                            text(dataset.attrs["description"]) if "description" in dataset.attrs else ""))
    return fields


def figures(kind, rel, tables):
    """The summary's figures of one input from its unit's tables (rows whose source_file is the input)."""
    def rows(name):
        frame = tables.get(name)
        if frame is None or "source_file" not in frame.columns:
            return None
        return frame[frame["source_file"] == rel]

    def number(value):
        return None if value is None or pd.isna(value) else float(value)

    result = {}
    anomalies = rows("anomalies")
    for severity in SEVERITIES:
        result["n_" + {"error": "errors", "warning": "warnings", "info": "info"}[severity]] = (
            int((anomalies["severity"] == severity).sum()) if anomalies is not None else 0)
    if kind == "brainiac":
        rec = rows("recordings")
        if rec is not None and len(rec):
            result["duration_s"] = number(rec["duration_s"].astype("float64").sum())
            lost = float(rec["lost_samples"].astype("float64").sum())
            got = float(rec["samples"].astype("float64").sum())
            result["lost_pct"] = 100.0 * lost / (lost + got) if lost + got > 0 else None
    elif kind == "mynd":
        rec = rows("recordings")
        if rec is not None and len(rec):
            result["duration_s"] = number(rec["duration_s"].astype("float64").sum())
        quality = rows("quality_summary")
        if quality is not None and len(quality):
            result["signal_ok_pct"] = number(100.0 * quality["share_a_ge_100"].astype("float64").mean())
        sessions = set()
        for name in ("recordings", "answers"):
            frame = rows(name)
            if frame is not None and "session_id" in frame.columns:
                sessions.update(frame["session_id"].dropna().tolist())
        result["n_sessions"] = len(sessions) if sessions else None
    elif kind == "mindaffect":
        summary = rows("summary")
        if summary is not None and len(summary):
            row = summary.iloc[0]
            fs = number(row.get("fs_est_hz"))
            if fs:
                result["duration_s"] = number(row.get("n_samples")) / fs if number(row.get("n_samples")) is not None else None
            result["code_agreement"] = number(row.get("code_agreement"))
            result["n_trials"] = int(row["n_trials"]) if not pd.isna(row.get("n_trials")) else None
    elif kind == "interactlog":
        trials = rows("trials")
        if trials is not None and len(trials):
            result["duration_s"] = number(trials["header_duration_s"].astype("float64").sum())
            result["n_trials"] = len(trials)
    elif kind == "braintracker":
        trials, sessions = rows("trials"), rows("sessions")
        result["n_trials"] = len(trials) if trials is not None else None
        result["n_sessions"] = len(sessions) if sessions is not None else None
    return result


def merge_kind(out, kind):
    study = os.path.join(out, "study")
    os.makedirs(study, exist_ok=True)
    skip = set(read_json(os.path.join(out, ".study", "merge.json"), {}).get("skip", []))
    listing = read_list(out, kind)
    rank = {rel: i for i, (rel, _, _, _) in enumerate(sorted(listing, key=lambda r: r[0]))}
    merged, schema, per_input = {}, {}, {}
    outputs = []
    for rel, output, _, _ in listing:
        if output not in outputs:
            outputs.append(output)
    for output in outputs:
        if not os.path.exists(output):
            continue
        tables = {}
        with h5py.File(output, "r") as f:
            for name in bb._table_names(f):
                merge = f"{kind}_{name}" not in skip
                if not merge and name not in FIGURE_TABLES:
                    continue
                tables[name] = bb._read_group(f[name])
                if merge:
                    merged.setdefault(name, []).append(tables[name])
                    if name not in schema:
                        schema[name] = group_fields(f[name])
        for rel, unit_output, _, _ in listing:
            if unit_output == output:
                per_input[rel] = figures(kind, rel, tables)
    for stale in glob.glob(os.path.join(study, kind + "_*.csv")):
        os.remove(stale)
    for name, frames in merged.items():
        frame = pd.concat(frames, ignore_index=True, sort=False)
        if "source_file" in frame.columns and len(frame):
            # Stable: within one input the tool's own order stays.
            order = frame["source_file"].map(lambda s: rank.get(s, len(rank))).to_numpy()
            frame = frame.iloc[np.argsort(order, kind="stable")].reset_index(drop=True)
        # Columns that only some files have come last, in the order they first appear.
        for field_ in [c for c in frame.columns if c not in {f["name"] for f in schema[name]}]:
            schema[name].append({"name": field_, "type": "string"})
        write_csv(frame, os.path.join(study, f"{kind}_{name}.csv"))
    write_json(os.path.join(out, ".study", "merged", kind + ".json"),
               {"tables": {name: schema[name] for name in merged}, "inputs": per_input})


def failed_inputs(output):
    """{input: message} of a unit's inputs the tool refused while it wrote the others (--keep-going)."""
    result = {}
    try:
        with open(output + ".failed-inputs", encoding="utf-8", errors="replace") as f:
            for line in f:
                rel, _, message = line.rstrip("\n").partition("\t")
                result[rel] = message
    except OSError:
        pass
    return result


def summary(out):
    rows = []
    for kind in KINDS:
        merged = read_json(os.path.join(out, ".study", "merged", kind + ".json"), {})
        per_input = merged.get("inputs", {})
        refused_by_output = {}
        for rel, output, participant, session in read_list(out, kind):
            refused = refused_by_output.setdefault(output, failed_inputs(output))
            failed = output + ".failed"
            unit = os.path.relpath(output, os.path.join(out, kind))[:-len(".h5")]
            row = {"kind": kind, "input": rel, "participant": participant or None, "session": session or None,
                   "unit": unit, "output": os.path.relpath(output, out), "message": None}
            if os.path.exists(failed) and not os.path.exists(output):
                with open(failed, encoding="utf-8", errors="replace") as f:
                    row["message"] = " | ".join(line.strip() for line in f.read().splitlines()[1:] if line.strip())
                row["status"] = "failed"
            elif rel in refused:
                row["status"], row["message"] = "failed", refused[rel]
            elif os.path.exists(output):
                row["status"] = "ok"
                row.update(per_input.get(rel, {}))
            else:
                row["status"] = "missing"
            rows.append(row)
    frame = pd.DataFrame(rows, columns=[f[0] for f in SUMMARY_FIELDS])
    frame = typed(frame, SUMMARY_FIELDS)
    os.makedirs(os.path.join(out, "study"), exist_ok=True)
    path = os.path.join(out, "study", "summary.csv")
    write_csv(frame, path)
    people = participants(frame)
    write_csv(people, os.path.join(out, "study", "participants.csv"))
    write_codebook(out)
    study_index.write_index(out, frame, people)
    bad = frame[frame.status != "ok"]
    sys.stderr.write(f"study: {len(frame)} inputs, {len(frame) - len(bad)} ok, {len(bad)} failed"
                     f" -> {path}\n")
    for row in bad.itertuples():
        sys.stderr.write(f"  FAILED {row.kind}: {row.input}: {str(row.message)[:300]}\n")


def typed(frame, fields):
    for name, kind, _, _ in fields:
        if kind == "integer":
            frame[name] = pd.array(frame[name].tolist(), dtype="Int64") if len(frame) else frame[name].astype("Int64")
        elif kind == "number":
            frame[name] = pd.to_numeric(frame[name], errors="coerce").astype("float64")
    return frame


def participants(summary_frame):
    rows = []
    keys = summary_frame["participant"].astype(object).where(summary_frame["participant"].notna(), None)
    for participant in sorted(set(keys.dropna())) + ([None] if keys.isna().any() else []):
        part = summary_frame[keys.isna()] if participant is None else summary_frame[keys == participant]
        row = {"participant": participant, "n_inputs": len(part)}
        for kind in KINDS:
            row[f"n_{kind}"] = int((part["kind"] == kind).sum())
        row["n_failed"] = int((part["status"] == "failed").sum())
        sessions = set(part["session"].dropna())
        row["n_sessions"] = len(sessions) if sessions else None
        recordings = part[part["kind"].isin(["brainiac", "mynd", "mindaffect"])]
        row["recording_s"] = float(recordings["duration_s"].sum(skipna=True)) if recordings["duration_s"].notna().any() else None
        captures = part[(part["kind"] == "brainiac") & part["lost_pct"].notna() & part["duration_s"].notna()]
        if len(captures):
            # Weighted by each capture's expected samples (its duration).
            weights = captures["duration_s"].astype("float64")
            row["lost_pct"] = float((captures["lost_pct"] * weights).sum() / weights.sum()) if weights.sum() > 0 else None
        row["n_trials"] = int(part["n_trials"].sum(skipna=True)) if part["n_trials"].notna().any() else None
        for name in ("n_errors", "n_warnings", "n_info"):
            row[name] = int(part[name].sum(skipna=True))
        rows.append(row)
    return typed(pd.DataFrame(rows, columns=[f[0] for f in PARTICIPANT_FIELDS]), PARTICIPANT_FIELDS)


def write_codebook(out):
    """OUT/study/datapackage.json: every study CSV with its columns' types, units and descriptions."""
    resources = []

    def resource(name, fields, description):
        return {"name": name.lower(), "path": name + ".csv", "profile": "tabular-data-resource", "format": "csv",
                "mediatype": "text/csv", "encoding": "utf-8", "description": description,
                "schema": {"missingValues": ["NA"], "fields": fields}}

    resources.append(resource("summary", [field(*f) for f in SUMMARY_FIELDS], "one row per input of the study"))
    resources.append(resource("participants", [field(*f) for f in PARTICIPANT_FIELDS], "one row per participant"))
    for kind in KINDS:
        merged = read_json(os.path.join(out, ".study", "merged", kind + ".json"), {})
        for name, fields in merged.get("tables", {}).items():
            if os.path.exists(os.path.join(out, "study", f"{kind}_{name}.csv")):
                resources.append(resource(f"{kind}_{name}", fields,
                                          f"the {name} table of every {kind} input, in input path order"))
    package = {"profile": "tabular-data-package", "name": "brainbatch-study", "resources": resources}
    write_json(os.path.join(out, "study", "datapackage.json"), package)


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
