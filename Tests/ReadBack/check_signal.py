"""Reads a signal file written by a BrainBatch tool back with MNE (and edfio for EDF/BDF) and compares it with the
tool's own samples table (CSV): channel names, sampling rate, every sample within the format's bound, the
annotations the provenance sidecar lists, and each file's SHA-256 there. Prints one JSON object; exits 1 with the reason on a mismatch.

usage: check_signal.py SIGNAL SAMPLES_CSV COLUMNS (comma-separated, in channel order) [--filled-column NAME]
"""
import hashlib
import json
import os
import sys

import numpy as np
import csv
import mne

mne.set_log_level("ERROR")


def fail(message):
    print(message, file=sys.stderr)
    sys.exit(1)


def main():
    signal, samples_csv, columns = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
    options = sys.argv[4:]
    filled_column = options[options.index("--filled-column") + 1] if "--filled-column" in options else None
    # Tables of float32 samples (MindAffect) print each value's shortest float32 spelling: compare in float32.
    float32 = "--float32" in options
    document = json.load(open(signal + ".provenance.json"))
    sidecar = document["signal"]
    # Every file written, with the SHA-256 the writer computed as it wrote (not read back): hashed here from disk.
    folder = os.path.dirname(signal)
    listed = {o["file"]: o["sha256"] for o in document["outputs"]}
    if sorted(listed) != sorted(sidecar["files"]):
        fail(f"outputs {sorted(listed)} != files {sorted(sidecar['files'])}")
    for name, digest in listed.items():
        with open(os.path.join(folder, name), "rb") as f:
            actual = hashlib.sha256(f.read()).hexdigest()
        if actual != digest:
            fail(f"{name}: sha256 {actual} on disk, {digest} in the sidecar")
    ext = signal.rsplit(".", 1)[-1].lower()
    if ext == "bdf":
        raw = mne.io.read_raw_bdf(signal, preload=True)
    elif ext == "edf":
        raw = mne.io.read_raw_edf(signal, preload=True)
    else:
        raw = mne.io.read_raw_brainvision(signal, preload=True, ignore_marker_types=True)
    with open(samples_csv, newline="") as f:
        rows = list(csv.DictReader(f))
    expected = np.array([[float(r[c]) for c in columns] for r in rows]).reshape(len(rows), len(columns))
    if float32:
        expected = expected.astype(np.float32).astype(np.float64)
    names = [c["label"] for c in sidecar["channels"]]
    if raw.ch_names != names:
        fail(f"channel names {raw.ch_names} != {names}")
    if raw.info["sfreq"] != sidecar["sampling_rate_hz"]:
        fail(f"sfreq {raw.info['sfreq']} != {sidecar['sampling_rate_hz']}")
    data = raw.get_data().T * 1e6  # V -> µV
    n = len(expected)
    if data.shape[0] != n + sidecar["padded_frames"]:
        fail(f"{data.shape[0]} samples read, {n} + {sidecar['padded_frames']} padding expected")
    diff = np.abs(data[:n] - expected)
    result = {"samples": n, "channels": raw.ch_names, "sfreq": raw.info["sfreq"],
              "max_error_uv": float(diff.max())}
    if ext in ("bdf", "edf"):
        bound = np.array([c["resolution"] / 2 for c in sidecar["channels"]]) * (1 + 1e-9) + 1e-9
    else:
        bound = np.abs(expected) * 2.0 ** -24 + 1e-12
    if np.any(diff > bound):
        row, col = np.argwhere(diff > bound)[0]
        fail(f"sample {row} channel {names[col]}: read {data[row, col]!r}, table {expected[row, col]!r}")
    result["exact_nv"] = bool(np.all(np.round(data[:n] * 1000) == np.round(expected * 1000)))
    onsets = list(raw.annotations.onset)
    # Readers order annotations of one onset their own way: compare in (onset, description) order.
    written = sorted(sidecar["annotations"], key=lambda a: (round(a["onset"], 6), a["description"]))
    read = sorted(zip(raw.annotations.onset, raw.annotations.duration, raw.annotations.description),
                  key=lambda a: (round(a[0], 6), a[2]))
    if len(onsets) != len(written):
        fail(f"{len(onsets)} annotations read, {len(written)} written")
    for (got_onset, got_duration, got_text), want in zip(read, written):
        step = 1 / raw.info["sfreq"] if ext == "vhdr" else 1e-6
        if abs(got_onset - want["onset"]) > step / 2 + 1e-9 or got_text != want["description"]:
            fail(f"annotation {got_text}@{got_onset} != {want['description']}@{want['onset']}")
        if abs(got_duration - want["duration"]) > step + 1e-9 and not (ext == "vhdr" and want["duration"] == 0):
            fail(f"annotation {got_text} lasts {got_duration}, written {want['duration']}")
    result["annotations"] = len(onsets)
    result["bad_lost_samples"] = sum(1 for d in raw.annotations.description if d == "BAD_lost_samples")
    result["bad_discontinuity"] = sum(1 for d in raw.annotations.description if d == "BAD_discontinuity")
    if filled_column:
        filled = np.array([r[filled_column] == "TRUE" for r in rows])
        result["filled_runs"] = int(np.sum(filled[1:] & ~filled[:-1]) + (1 if len(filled) and filled[0] else 0))
        result["max_error_received_uv"] = float(diff[~filled].max()) if np.any(~filled) else 0.0
    if ext in ("bdf", "edf"):
        import edfio
        edf = edfio.read_bdf(signal) if ext == "bdf" else edfio.read_edf(signal)
        labels = [s.label for s in edf.signals]
        if labels != names:
            fail(f"edfio channel labels {labels} != {names}")
        second = np.stack([s.data for s in edf.signals], axis=1)[:n]
        if np.any(np.abs(second - expected) > bound):
            fail("edfio's values differ from the table beyond the resolution")
        result["edfio_annotations"] = len(edf.annotations)
    print(json.dumps(result))


main()
