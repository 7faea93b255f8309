#!/usr/bin/env python3
"""An EEG-BIDS dataset from a study folder (docs/bids.md): `make bids STUDY=path BIDS=path`.

Used by bids.mk. Standard library only. Steps:
  plan STUDY BIDS BIN            find the inputs (scripts/study_discover.py's rules), decide each EEG input's
                                 subject, session, task and run (rules below, or the mapping file), write
                                 BIDS/.brainbatch/rules.mk (one rule per input; rewritten only when it changes)
  convert STUDY BIDS BIN ID      one EEG input: the tool writes sub-…/[ses-…/]eeg/…_eeg.<fmt> (with its
                                 provenance sidecar), then _eeg.json, _channels.tsv, _events.tsv/.json are written
                                 from that sidecar and the input is copied to sourcedata/
  index STUDY BIDS               dataset_description.json, README, .bidsignore, participants.tsv/.json,
                                 each _scans.tsv/.json (with the input's SHA-256 and anomalies), phenotype/
An input that leaves the study takes its files with it at the next plan (exactly the files written for it), and
index files of a subject or session that is gone are removed.

Entities (each overridable per input by BIDS_MAP, a TSV `input  subject  session  task  run`, input relative to
STUDY, an empty cell keeping the rule, `n/a` removing session or run):
  subject  MYND: the UUID of the file name (hyphens dropped). Others: the name of the input's folder, unless it
           is the study folder or a kind's folder (brainiac, mynd, mindaffect, …); then the file: MindAffect's
           name field (mindaffectBCI_<name>_…), the Brainiac capture's file name without extension.
  session  MYND: the file name's session ID. MindAffect: the date of the file name (20yymmdd). Brainiac: none.
  task     MYND: the scenario (rest, music, …). MindAffect: noisetag. Brainiac: brainiac (nothing in a capture
           says what the task was: name it in the mapping file).
  run      MYND: the file name's run ID. Others: none, unless several inputs get the same entities: then 1, 2, …
           in the order of their paths.
Behaviour and questionnaires:
  BrainTracker (*.csv)  beh/sub-<subject>_task-braintracker_beh.tsv: rt-stats' trials table; subject as for
                        Brainiac (folder, else the file name).
  InteractLog           beh/sub-<participant>_ses-<yyyymmdd>_task-interactlog_run-<trial>_beh.tsv: ilog-parse's
                        events table; from `<participant> (Trial <n>) <yyyy-mm-dd> - …txt`.
  MYND q_*.json         phenotype/<scenario>.tsv: mynd-parse's answers table, one row per answer, participant_id
                        the UUID as for recordings.
Every character that BIDS labels cannot hold (anything but A-Z, a-z, 0-9) is dropped.
"""
import csv
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import study_discover  # noqa: E402

EEG_TOOLS = {"brainiac": "bt-decode", "mynd": "mynd-parse", "mindaffect": "nt-analyze"}
# Tables for beh/ and phenotype/: kind -> (tool, table).
TABLE_TOOLS = {"braintracker": ("rt-stats", "trials"), "interactlog": ("ilog-parse", "events"),
               "questionnaire": ("mynd-parse", "answers")}
KIND_FOLDERS = set(study_discover.KINDS) | {"brainiac", "mynd", "mindaffect", "braintracker", "interactlog"}
BIDS_VERSION = "1.10.0"
STATE = ".brainbatch"


def label(text):
    return re.sub(r"[^A-Za-z0-9]", "", text or "")


def settings():
    """The options of the run (environment variables set by bids.mk)."""
    line = os.environ.get("BIDS_LINE_FREQ", "n/a")
    return {
        "format": os.environ.get("BIDS_FORMAT", "bdf"),
        "line_freq": line if line == "n/a" else float(line),
        "reference": os.environ.get("BIDS_REFERENCE", "n/a"),
        "name": os.environ.get("BIDS_NAME", ""),
        "map": os.environ.get("BIDS_MAP", ""),
    }


def read_mapping(path):
    if not path:
        return {}
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return {row["input"]: row for row in rows}


def default_entities(kind, rel):
    name = os.path.basename(rel)
    folder = os.path.basename(os.path.dirname(rel))
    from_folder = label(folder) if folder and folder.lower() not in KIND_FOLDERS else ""
    if kind == "mynd":
        m = re.match(r"r_([A-Za-z]+)_(\d+)_(\d+)_(\d+)_([0-9A-Fa-f-]+)\.hdf$", name)
        if m:
            return {"subject": label(m.group(5)), "session": m.group(3), "task": label(m.group(1)), "run": m.group(4)}
        return {"subject": from_folder or label(os.path.splitext(name)[0]), "session": None, "task": "mynd", "run": None}
    if kind == "mindaffect":
        m = re.match(r"mindaffectBCI_(.*?)_?(\d{6})_(\d{4})\.txt$", name)
        subject = from_folder or label(m.group(1) if m else os.path.splitext(name)[0]) or "unknown"
        return {"subject": subject, "session": "20" + m.group(2) if m else None, "task": "noisetag", "run": None}
    if kind == "interactlog":
        m = re.match(r"(.*?) \(Trial (\d+)\) (\d{4})-(\d{2})-(\d{2})", name)
        if m:
            return {"subject": label(m.group(1)) or "unknown", "session": m.group(3) + m.group(4) + m.group(5),
                    "task": "interactlog", "run": m.group(2)}
        return {"subject": from_folder or "unknown", "session": None, "task": "interactlog", "run": None}
    if kind == "questionnaire":
        m = re.match(r"q_([A-Za-z]+)_(\d+)_(\d+)_(\d+)_([0-9A-Fa-f-]+)\.json$", name)
        return {"subject": label(m.group(5)) if m else (from_folder or "unknown"), "session": None,
                "task": label(m.group(1)) if m else "questionnaire", "run": None}
    task = "braintracker" if kind == "braintracker" else "brainiac"
    return {"subject": from_folder or label(os.path.splitext(name)[0]) or "unknown", "session": None,
            "task": task, "run": None}


def inputs(study, bids):
    """[(kind, rel, id)] of every input study_discover finds (its rules), the BIDS folder left out; id is the
    make-safe relative path, unique within a kind (`~2`, `~3`, … after a clash)."""
    found, used = [], set()
    for kind, rel in study_discover.discover(study, exclude=bids):
        base = study_discover.safe_name(rel)
        ident, n = base, 1
        while (kind, ident) in used:
            n += 1
            ident = f"{base}~{n}"
        used.add((kind, ident))
        found.append((kind, rel, ident))
    return found


def plan(study, bids):
    """[(id, kind, rel, entities, base, folder)] for every EEG input, entities resolved and unique."""
    opts = settings()
    mapping = read_mapping(opts["map"])
    entries = []
    for kind, rel, ident in inputs(study, bids):
        if kind == "mynd" and os.path.basename(rel).startswith("q_"):
            kind = "questionnaire"
        if kind not in EEG_TOOLS and kind not in TABLE_TOOLS:
            continue
        entities = default_entities(kind, rel)
        row = mapping.get(rel, {})
        for key in ("subject", "session", "task", "run"):
            value = (row.get(key) or "").strip()
            if value == "n/a":
                entities[key] = None
            elif value:
                entities[key] = label(value)
        entries.append([ident, kind, rel, entities])
    # Several inputs with the same entities and no run: runs 1, 2, … in path order.
    groups = {}
    for entry in entries:
        e = entry[3]
        if entry[1] == "questionnaire":
            continue
        groups.setdefault((e["subject"], e["session"], e["task"], e["run"]), []).append(entry)
    for same in groups.values():
        if len(same) > 1:
            for n, entry in enumerate(sorted(same, key=lambda x: x[2]), start=1):
                entry[3]["run"] = (entry[3]["run"] or "") + str(n)
    result = []
    for ident, kind, rel, e in entries:
        parts = [f"sub-{e['subject']}"] + ([f"ses-{e['session']}"] if e["session"] else []) + [f"task-{e['task']}"]
        if e["run"]:
            parts.append(f"run-{int(e['run'])}")
        datatype = "eeg" if kind in EEG_TOOLS else ("phenotype" if kind == "questionnaire" else "beh")
        folder = "phenotype" if datatype == "phenotype" else \
            os.path.join(f"sub-{e['subject']}", *([f"ses-{e['session']}"] if e["session"] else []), datatype)
        result.append((label(ident) + "-" + hashlib.sha256(rel.encode()).hexdigest()[:8], kind, rel, e,
                       "_".join(parts), folder))
    return result


def write_if_changed(path, text):
    data = text.encode("utf-8")
    try:
        with open(path, "rb") as f:
            if f.read() == data:
                return
    except OSError:
        pass
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    tmp = os.path.join(os.path.dirname(path), f".{os.path.basename(path)}.tmp-{os.getpid()}")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def write_stamp(path, text):
    """A make stamp: always rewritten, so that its time says the input was handled now."""
    tmp = f"{path}.tmp-{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def tsv(header, rows):
    def cell(v):
        if v is None:
            return "n/a"
        return str(v).replace("\t", " ").replace("\n", " ")
    return "\t".join(header) + "\n" + "".join("\t".join(cell(v) for v in row) + "\n" for row in rows)


def js(obj):
    return json.dumps(obj, indent=2, ensure_ascii=False, sort_keys=False) + "\n"


def number(x):
    text = f"{x:.6f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def cmd_plan(study, bids, bin_dir):
    study, bids = os.path.abspath(study), os.path.abspath(bids)
    entries = plan(study, bids)
    state = os.path.join(bids, STATE)
    links = os.path.join(state, "inputs")
    rules, stamps, wanted = [], [], set()
    for ident, kind, rel, e, base, folder in entries:
        link = os.path.join(links, ident)
        wanted.add(link)
        study_discover.link(os.path.join(study, rel), link)
        stamp = os.path.join(state, "done", ident)
        stamps.append(stamp)
        # Each input's own plan entry (entities and settings): a change re-runs that input only.
        entry_file = os.path.join(state, "entries", ident + ".json")
        write_if_changed(entry_file, js({"settings": settings(), "kind": kind, "input": rel, "entities": e,
                                         "base": base, "folder": folder}))
        wanted.add(entry_file)
        rules.append(f"{stamp}: {link} {entry_file} | $(BIDS_TOOLS)\n"
                     f"\t@$(BIDS_PY) convert {study_discover.make_quote(study_discover.sh_quote(study))} "
                     f"{study_discover.make_quote(study_discover.sh_quote(bids))} "
                     f"{study_discover.make_quote(study_discover.sh_quote(bin_dir))} {ident}\n")
    # Inputs that left the study (or were renamed, or got other entities): their files go too.
    entries_dir = os.path.join(state, "entries")
    if os.path.isdir(entries_dir):
        for name in os.listdir(entries_dir):
            path = os.path.join(entries_dir, name)
            if path not in wanted:
                remove_outputs(bids, name[:-len(".json")], path)
    if os.path.isdir(links):
        for name in os.listdir(links):
            if os.path.join(links, name) not in wanted:
                os.remove(os.path.join(links, name))
    opts = settings()
    write_if_changed(os.path.join(state, "plan.json"), js({
        "settings": opts,
        "entries": [{"id": i, "kind": k, "input": r, "entities": e, "base": b, "folder": f}
                    for i, k, r, e, b, f in entries]}))
    text = "# Written by scripts/bids.py plan; do not edit.\n" + f"BIDS_STAMPS := {' '.join(stamps)}\n\n" + "".join(rules)
    write_if_changed(os.path.join(state, "rules.mk"), text)
    print("ok")


def remove_outputs(bids, ident, entry_file):
    """Removes what an input that is no longer planned left in the dataset: its files (`<base>_*` in its folder),
    its copy under sourcedata/, its stamp and work folder, then its plan entry."""
    try:
        with open(entry_file, encoding="utf-8") as f:
            entry = json.load(f)
    except (OSError, ValueError):
        entry = None
    if entry and entry.get("kind") != "questionnaire":
        # Exactly the files convert writes, nothing else of that name.
        base = os.path.join(bids, entry["folder"], entry["base"])
        if entry["kind"] in TABLE_TOOLS:
            names = ["_beh.tsv", "_beh.json"]
        else:
            fmt = entry["settings"]["format"]
            names = [f"_eeg.{fmt}", f"_eeg.{fmt}.provenance.json", "_eeg.json", "_channels.tsv", "_channels.json",
                     "_events.tsv", "_events.json"] + (["_eeg.vmrk", "_eeg.eeg"] if fmt == "vhdr" else [])
        for name in names:
            if os.path.isfile(base + name):
                os.remove(base + name)
    if entry:
        copy = os.path.join(bids, "sourcedata", entry["input"])
        if os.path.isfile(copy):
            os.remove(copy)
    shutil.rmtree(os.path.join(bids, STATE, "work", ident), ignore_errors=True)
    for path in (os.path.join(bids, STATE, "done", ident), entry_file):
        if os.path.exists(path):
            os.remove(path)
    print(f"bids: removed the files of {entry['input'] if entry else ident} (no longer in the study)", file=sys.stderr)


def load_plan(bids):
    with open(os.path.join(bids, STATE, "plan.json"), encoding="utf-8") as f:
        return json.load(f)


def channel_rows(signal):
    rows = []
    for c in signal["channels"]:
        unit = "µV" if c["unit"] == "uV" else c["unit"]
        resolution = number(c["resolution"]) if c.get("resolution") is not None else None
        rows.append([c["label"], c["type"], unit, "good", resolution])
    return rows


def cmd_convert(study, bids, bin_dir, ident):
    study, bids = os.path.abspath(study), os.path.abspath(bids)
    with open(os.path.join(bids, STATE, "entries", ident + ".json"), encoding="utf-8") as f:
        entry = json.load(f)
    opts = entry["settings"]
    kind, rel, base, folder = entry["kind"], entry["input"], entry["base"], entry["folder"]
    if kind in TABLE_TOOLS:
        return convert_table(study, bids, bin_dir, ident, entry)
    out_dir = os.path.join(bids, folder)
    os.makedirs(out_dir, exist_ok=True)
    signal_path = os.path.join(out_dir, f"{base}_eeg.{opts['format']}")
    stamp = os.path.join(bids, STATE, "done", ident)
    os.makedirs(os.path.dirname(stamp), exist_ok=True)
    tool = os.path.join(bin_dir, EEG_TOOLS[kind])
    run = subprocess.run([tool, rel, "-o", signal_path, "-q"], cwd=study, capture_output=True, text=True)
    if run.returncode != 0:
        message = run.stderr.strip().splitlines()[-1] if run.stderr.strip() else f"exit status {run.returncode}"
        write_stamp(stamp, f"failed\t{run.returncode}\t{message}\n")
        print(f"bids: FAILED  {EEG_TOOLS[kind]} {rel} ({message[:160]})", file=sys.stderr)
        return
    with open(signal_path + ".provenance.json", encoding="utf-8") as f:
        provenance = json.load(f)
    signal = provenance["signal"]
    rate = signal["sampling_rate_hz"]
    channels = signal["channels"]
    eeg_json = {
        "TaskName": entry["entities"]["task"],
        "EEGReference": opts["reference"],
        "SamplingFrequency": rate,
        "PowerLineFrequency": opts["line_freq"],
        "SoftwareFilters": "n/a",
        "RecordingType": "continuous",
        "RecordingDuration": round(signal["frames"] / rate, 6),
        "EEGChannelCount": sum(1 for c in channels if c["type"] == "EEG"),
        "MiscChannelCount": sum(1 for c in channels if c["type"] == "MISC"),
    }
    if kind == "mynd":
        eeg_json["EEGPlacementScheme"] = "10-20"
    write_if_changed(os.path.join(out_dir, f"{base}_eeg.json"), js(eeg_json))
    write_if_changed(os.path.join(out_dir, f"{base}_channels.tsv"),
                     tsv(["name", "type", "units", "status", "resolution"], channel_rows(signal)))
    write_if_changed(os.path.join(out_dir, f"{base}_channels.json"), js({
        "resolution": {"Description": "the physical step of one stored digit (EDF/BDF; n/a for BrainVision float32)",
                       "Units": "µV"}}))
    events = [[number(a["onset"]), number(a["duration"]), a["description"], int(round(a["onset"] * rate))]
              for a in signal["annotations"]]
    write_if_changed(os.path.join(out_dir, f"{base}_events.tsv"),
                     tsv(["onset", "duration", "trial_type", "sample"], events))
    levels = {}
    for a in signal["annotations"]:
        levels.setdefault(a["description"], describe(a["description"]))
    write_if_changed(os.path.join(out_dir, f"{base}_events.json"), js({
        "onset": {"Description": "seconds from the first sample of the recording", "Units": "s"},
        "duration": {"Description": "seconds; 0 for an instant", "Units": "s"},
        "trial_type": {"Description": "what the annotation marks (BAD_ names mark data not to analyse)",
                       "Levels": levels},
        "sample": {"Description": "onset in samples from the first sample (0-based)"},
    }))
    copy_source(study, bids, rel)
    write_stamp(stamp, f"ok\t{signal_path}\n")
    print(f"bids: ok      {EEG_TOOLS[kind]} {rel} -> {os.path.relpath(signal_path, bids)}", file=sys.stderr)


def convert_table(study, bids, bin_dir, ident, entry):
    """A behavioural or questionnaire input: the tool's table as CSV into the state folder, then as BIDS TSV
    (beh/) with a sidecar from the table's schema; questionnaires stay in the state folder for the index."""
    kind, rel, base, folder = entry["kind"], entry["input"], entry["base"], entry["folder"]
    tool_name, table = TABLE_TOOLS[kind]
    work = os.path.join(bids, STATE, "work", ident)
    stamp = os.path.join(bids, STATE, "done", ident)
    os.makedirs(os.path.dirname(stamp), exist_ok=True)
    os.makedirs(os.path.dirname(work), exist_ok=True)
    run = subprocess.run([os.path.join(bin_dir, tool_name), rel, "-o", work + "/", "-q"], cwd=study,
                         capture_output=True, text=True)
    if run.returncode != 0:
        message = run.stderr.strip().splitlines()[-1] if run.stderr.strip() else f"exit status {run.returncode}"
        write_stamp(stamp, f"failed\t{run.returncode}\t{message}\n")
        print(f"bids: FAILED  {tool_name} {rel} ({message[:160]})", file=sys.stderr)
        return
    if kind != "questionnaire":
        header, rows, sidecar = read_table(work, table, drop=("source_file",))
        out_dir = os.path.join(bids, folder)
        write_if_changed(os.path.join(out_dir, f"{base}_beh.tsv"), tsv(header, rows))
        write_if_changed(os.path.join(out_dir, f"{base}_beh.json"), js(sidecar))
    copy_source(study, bids, rel)
    write_stamp(stamp, f"ok\t{work}\n")
    print(f"bids: ok      {tool_name} {rel}", file=sys.stderr)


def read_table(work, table, drop=()):
    """A CSV table of a tool's output folder: header, rows (NA as None), and a BIDS sidecar from its schema."""
    with open(os.path.join(work, table + ".csv"), newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        header = next(reader)
        rows = list(reader)
    keep = [i for i, name in enumerate(header) if name not in drop]
    with open(os.path.join(work, "datapackage.json"), encoding="utf-8") as f:
        package = json.load(f)
    fields = {}
    for resource in package.get("resources", []):
        if resource.get("name") == table:
            fields = {x["name"]: x for x in resource.get("schema", {}).get("fields", [])}
    sidecar = {}
    for i in keep:
        field = fields.get(header[i], {})
        entry = {"Description": field.get("description") or header[i]}
        unit = field.get("unit") or field.get("units")
        # BIDS reads Units as the unit of a number: times and texts get none (their format is in the description).
        if unit and field.get("type") in ("number", "integer"):
            entry["Units"] = unit
        sidecar[header[i]] = entry
    return ([header[i] for i in keep], [[None if row[i] == "NA" else row[i] for i in keep] for row in rows], sidecar)


def copy_source(study, bids, rel):
    """The input, unchanged, under sourcedata/ (copied only when it differs)."""
    source = os.path.join(study, rel)
    copy = os.path.join(bids, "sourcedata", rel)
    if not (os.path.exists(copy) and sha256(copy) == sha256(source)):
        os.makedirs(os.path.dirname(copy), exist_ok=True)
        tmp = os.path.join(os.path.dirname(copy), f".{os.path.basename(copy)}.tmp-{os.getpid()}")
        shutil.copyfile(source, tmp)
        os.replace(tmp, copy)


def describe(text):
    fixed = {
        "BAD_lost_samples": "samples lost in transmission, filled by linear interpolation (Brainiac)",
        "BAD_discontinuity": "the device clock restarted here; the time between the parts is unknown (Brainiac)",
        "BAD_padding": "copies of the last sample completing the last EDF/BDF data record",
    }
    if text in fixed:
        return fixed[text]
    for prefix, meaning in (("trial/", "a MindAffect trial, by phase"), ("cue/", "the cued target's objID"),
                            ("selection/", "the objID the decoder selected online")):
        if text.startswith(prefix):
            return meaning
    return "a MYND marker: <condition or welcome/goodbye>/<phase>"


def cmd_index(study, bids):
    study, bids = os.path.abspath(study), os.path.abspath(bids)
    document = load_plan(bids)
    opts = document["settings"]
    done = []
    for entry in document["entries"]:
        stamp = os.path.join(bids, STATE, "done", entry["id"])
        try:
            with open(stamp, encoding="utf-8") as f:
                status = f.read().split("\t")[0]
        except OSError:
            status = "missing"
        if status == "ok":
            done.append(entry)
    name = opts["name"] or os.path.basename(study.rstrip("/"))
    write_if_changed(os.path.join(bids, "dataset_description.json"), js({
        "Name": name,
        "BIDSVersion": BIDS_VERSION,
        "DatasetType": "raw",
        "GeneratedBy": [{"Name": "BrainBatch", "Description": "make bids (scripts/bids.py and the BrainBatch tools)"}],
    }))
    write_if_changed(os.path.join(bids, "README"), (
        f"{name}\n\nAn EEG-BIDS dataset written by BrainBatch's `make bids` from the study folder {os.path.basename(study)}.\n"
        "Signals are the apps' own samples (no filtering); lost samples were filled and are marked BAD_lost_samples\n"
        "in each _events.tsv. The original inputs are under sourcedata/ (their SHA-256 in each _scans.tsv).\n"
        "Values no app recorded (PowerLineFrequency, EEGReference) are n/a unless given to make bids.\n"))
    write_if_changed(os.path.join(bids, ".bidsignore"), "*.provenance.json\n")
    subjects = sorted({e["entities"]["subject"] for e in done})
    index_files = write_phenotype(bids, [e for e in done if e["kind"] == "questionnaire"])
    write_if_changed(os.path.join(bids, "participants.tsv"), tsv(["participant_id"], [[f"sub-{s}"] for s in subjects]))
    write_if_changed(os.path.join(bids, "participants.json"), js({
        "participant_id": {"Description": "the subject label, from the study's folders and file names (docs/bids.md)"}}))
    scans = {}
    for entry in done:
        if entry["kind"] == "questionnaire":
            continue
        e = entry["entities"]
        key = os.path.join(f"sub-{e['subject']}", *([f"ses-{e['session']}"] if e["session"] else []))
        prefix = f"sub-{e['subject']}" + (f"_ses-{e['session']}" if e["session"] else "")
        scans.setdefault((key, prefix), []).append(entry)
    for (key, prefix), entries in sorted(scans.items()):
        rows = []
        for entry in sorted(entries, key=lambda x: x["base"]):
            if entry["kind"] in TABLE_TOOLS:
                with open(os.path.join(bids, STATE, "work", entry["id"], "provenance.json"), encoding="utf-8") as f:
                    provenance = json.load(f)
                anomalies = {}
                with open(os.path.join(bids, STATE, "work", entry["id"], "anomalies.csv"), newline="",
                          encoding="utf-8") as f:
                    for row in csv.DictReader(f):
                        anomalies[row["code"]] = anomalies.get(row["code"], 0) + 1
                summary = ";".join(f"{code}:{n}" for code, n in sorted(anomalies.items())) or "none"
                inputs = provenance.get("inputs", [])
                rows.append([f"beh/{entry['base']}_beh.tsv", None, "sourcedata/" + entry["input"],
                             inputs[0]["sha256"] if inputs else None, summary])
                continue
            signal_name = f"{entry['base']}_eeg.{opts['format']}"
            signal_path = os.path.join(bids, entry["folder"], signal_name)
            with open(signal_path + ".provenance.json", encoding="utf-8") as f:
                provenance = json.load(f)
            anomalies = provenance.get("anomalies", {})
            summary = ";".join(f"{code}:{n}" for code, n in sorted(anomalies.items())) or "none"
            inputs = provenance.get("inputs", [])
            rows.append([f"eeg/{signal_name}", provenance["signal"].get("start"),
                         "sourcedata/" + entry["input"], inputs[0]["sha256"] if inputs else None, summary])
        index_files += [os.path.join(key, f"{prefix}_scans.tsv"), os.path.join(key, f"{prefix}_scans.json")]
        write_if_changed(os.path.join(bids, key, f"{prefix}_scans.tsv"),
                         tsv(["filename", "acq_time", "source_file", "source_sha256", "anomalies"], rows))
        write_if_changed(os.path.join(bids, key, f"{prefix}_scans.json"), js({
            "acq_time": {"Description": "the recording's start as the app's clock stated it (n/a: not recorded)"},
            "source_file": {"Description": "the original input, copied unchanged"},
            "source_sha256": {"Description": "SHA-256 of the original input"},
            "anomalies": {"Description": "the converting tool's anomaly codes for the input with their counts "
                                         "(code:count;…), as in its anomalies table; none when there were none"},
        }))
    # Index files an earlier run wrote that this one did not (a subject or session that is gone): removed, with
    # the folders that leaves empty.
    record = os.path.join(bids, STATE, "index.json")
    try:
        with open(record, encoding="utf-8") as f:
            earlier = set(json.load(f))
    except (OSError, ValueError):
        earlier = set()
    for rel in sorted(earlier - set(index_files)):
        path = os.path.join(bids, rel)
        if os.path.isfile(path):
            os.remove(path)
    for folder, _, _ in sorted(os.walk(bids), key=lambda x: -len(x[0])):
        if folder != bids and not os.listdir(folder) and STATE not in folder.split(os.sep):
            os.rmdir(folder)
    write_if_changed(record, js(sorted(index_files)))
    failed = len(document["entries"]) - len(done)
    print(f"bids: {len(done)} recordings in {bids}" + (f", {failed} failed (see above)" if failed else ""),
          file=sys.stderr)


def write_phenotype(bids, entries):
    """phenotype/<scenario>.tsv/.json: one row per questionnaire result of that scenario (participant_id and
    session_id, as BIDS indexes phenotype tables), one column per question: the answer's label, else its date, else its number,
    else the stored text."""
    by_task = {}
    written = []
    for entry in entries:
        by_task.setdefault(entry["entities"]["task"], []).append(entry)
    for task, group in sorted(by_task.items()):
        written += [os.path.join("phenotype", f"{task}.tsv"), os.path.join("phenotype", f"{task}.json")]
        questions, rows, sidecar = [], [], {}
        for entry in sorted(group, key=lambda x: x["input"]):
            header, table, side = read_table(os.path.join(bids, STATE, "work", entry["id"]), "answers")
            col = {name: i for i, name in enumerate(header)}
            answers = {}
            session = None
            for row in table:
                q = row[col["question_id"]]
                session = session or row[col["session_id"]]
                value = (row[col["value_label"]] or row[col.get("value_date", col["value_label"])] or row[col["value_num"]]
                         or row[col["value_raw"]])
                answers[q] = value
                if q not in questions:
                    questions.append(q)
                    title = row[col["question_title"]] if "question_title" in col else None
                    sidecar[q] = {"Description": title or f"the answer to {q} (mynd-parse's answers table)"}
            rows.append((f"sub-{entry['entities']['subject']}", session, answers))
        header = ["participant_id", "session_id"] + questions
        body = [[p, f"ses-{s}" if s else None] + [a.get(q) for q in questions] for p, s, a in rows]
        sidecar = {"participant_id": {"Description": "the subject, as for the recordings (the file name's UUID)"},
                   "session_id": {"Description": "the questionnaire's session ID"}, **sidecar}
        write_if_changed(os.path.join(bids, "phenotype", f"{task}.tsv"), tsv(header, body))
        write_if_changed(os.path.join(bids, "phenotype", f"{task}.json"), js(sidecar))
    return written


def main(argv):
    if len(argv) == 5 and argv[1] == "plan":
        cmd_plan(argv[2], argv[3], os.path.abspath(argv[4]))
    elif len(argv) == 6 and argv[1] == "convert":
        cmd_convert(argv[2], argv[3], argv[4], argv[5])
    elif len(argv) == 4 and argv[1] == "index":
        cmd_index(argv[2], argv[3])
    else:
        sys.stderr.write(__doc__)
        return 64
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
