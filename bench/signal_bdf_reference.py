"""The MNE way to a BDF file from samples already decoded: RawArray(...).export(fmt="bdf") (edfio underneath).

usage: signal_bdf_reference.py prepare SIGNAL.bdf DATA.npz   (once, untimed: the samples and annotations of the
                                                              BDF bt-decode wrote, so both sides write the same data)
       signal_bdf_reference.py export DATA.npz OUT.bdf        (timed: process start, imports, RawArray, export)
"""
import sys

import numpy as np


def prepare(signal, data):
    import mne
    raw = mne.io.read_raw_bdf(signal, preload=True, verbose="error")
    a = raw.annotations
    np.savez(data, data=raw.get_data(), sfreq=raw.info["sfreq"], names=np.array(raw.ch_names, dtype="U"),
             onset=a.onset, duration=a.duration, description=np.array([str(x) for x in a.description], dtype="U"))


def export(data, out):
    import mne
    d = np.load(data)
    info = mne.create_info([str(n) for n in d["names"]], float(d["sfreq"]), "eeg")
    raw = mne.io.RawArray(d["data"], info, verbose="error")
    raw.set_annotations(mne.Annotations(d["onset"], d["duration"], [str(x) for x in d["description"]]))
    raw.export(out, fmt="bdf", overwrite=True, verbose="error")


if sys.argv[1] == "prepare":
    prepare(sys.argv[2], sys.argv[3])
else:
    export(sys.argv[2], sys.argv[3])
