#!/usr/bin/env python3
"""The straightforward Python a researcher would write for mynd-parse's recording tables (benchmark reference).

For each r_*.hdf: h5py reads the data, markers and attributes; row 0 is dropped; events from the non-zero
markers; condition epochs of TrialTime s; scipy.signal.welch band power per epoch, channel and band; the app's
variance-based signal quality (a per-sample loop: the smoothing weight depends on the running average); pandas
tables written to HDF5 with h5py (one group per table, one dataset per column).

    python3 mynd-parse_reference.py FOLDER out.h5
"""
import glob
import os
import sys

import h5py
import numpy as np
import pandas as pd
import scipy.signal as ss

BANDS = [("delta", 1, 4), ("theta", 4, 8), ("alpha", 8, 12), ("beta", 12, 30), ("gamma", 30, 45)]


def text(value):
    value = value[0] if isinstance(value, np.ndarray) else value
    return value.decode() if isinstance(value, bytes) else str(value)


def quality(x, fs):
    length = int(fs / 2)
    averages = [50.0, 50.0]
    s = x[0]
    rows = []
    for k in range(len(x) // length):
        w = averages[0] / 100
        seg = np.empty(length)
        for i in range(length):
            t = k * length + i
            if t > 0:
                s = (1 - w) * s + w * x[t]
            seg[i] = s
        v = seg.var()
        q = 0 if v == 0 else (110 if v < 150 else 150 / v * 100)
        a = (4 * averages[1] + q) / 5
        averages = [averages[1], a]
        rows.append((k, k * length / fs, v, q, a))
    return rows


def main(folder, out):
    recordings, events, band_power, quality_rows = [], [], [], []
    for path in sorted(glob.glob(os.path.join(folder, "r_*.hdf"))):
        with h5py.File(path, "r") as f:
            rec, par = f["Recording"], f["Paradigm"]
            attrs = {k: text(v) for k, v in rec.attrs.items()}
            data = rec["Data"][()]
            marker = rec["Marker"][()].ravel()
            stamps = rec["TimeStamp"][()].ravel()
            names = [text(n) for n in rec["ChannelNames"][()].ravel()]
            labels = [text(n) for n in par["ConditionLabels"][()].ravel()]
            codes = list(par["ConditionMarkers"][()].ravel())
            trial_time = float(par.attrs["TrialTime"].ravel()[0])
        if stamps[0] == 0:
            data, marker, stamps = data[1:], marker[1:], stamps[1:]
        fs = float(attrs["samplingRate"])
        recordings.append((path, attrs.get("subjectID"), len(marker), len(marker) / fs))
        onsets = np.flatnonzero(marker)
        for i, sample in enumerate(onsets):
            end = onsets[i + 1] if i + 1 < len(onsets) else len(marker)
            events.append((path, i + 1, sample, sample / fs, (end - sample) / fs, int(marker[sample])))
        for e, sample in enumerate([s for s in onsets if marker[s] in codes]):
            label = labels[codes.index(marker[sample])]
            epoch = data[sample:sample + int(trial_time * fs)]
            epoch = epoch - epoch.mean(axis=0)
            freqs, psd = ss.welch(epoch, fs=fs, nperseg=int(2 * fs), axis=0)
            df = freqs[1]
            total = psd[(freqs >= 1) & (freqs <= 45)].sum(axis=0) * df
            for c, name in enumerate(names):
                for band, lo, hi in BANDS:
                    power = psd[(freqs >= lo) & (freqs <= hi), c].sum() * df
                    band_power.append((path, "epoch", e + 1, label, name, band, power, power / total[c]))
        for c, name in enumerate(names):
            for row in quality(data[:, c], fs):
                quality_rows.append((path, name) + row)
    tables = {
        "recordings": pd.DataFrame(recordings, columns=["source_file", "subject_id", "n_samples", "duration_s"]),
        "events": pd.DataFrame(events, columns=["source_file", "event_index", "sample", "onset_s", "duration_s", "marker"]),
        "band_power": pd.DataFrame(band_power, columns=["source_file", "scope", "scope_index", "condition", "channel",
                                                        "band", "power_uv2", "rel_power"]),
        "quality": pd.DataFrame(quality_rows, columns=["source_file", "channel", "window", "t_s", "variance_uv2",
                                                       "quality", "quality_avg"]),
    }
    with h5py.File(out, "w") as f:
        for name, table in tables.items():
            group = f.create_group(name)
            for column in table.columns:
                values = table[column].to_numpy()
                if values.dtype == object:
                    values = values.astype(h5py.string_dtype())
                group.create_dataset(column, data=values)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
